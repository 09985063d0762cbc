/**
 * The logo actions through their CLI forms: `studio logo search` on the built-in catalogue,
 * `studio logo insert` (appearance rule, sanitized SVG source, 1x and 3x twins, a record that never
 * names the catalogue's address, placement in the free area, a box, a picture's box, alone, every
 * slide, the kit) in one commit with a clean `git status`, drawn by `studio render`; and
 * `studio logo refresh` against a catalogue manifest on a loopback server, reached only through the
 * guard's test switch (STUDIO_FETCH_ALLOW_PRIVATE), within a time budget, never committed.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import JSZip from 'jszip'
import sharp from 'sharp'
import { findAction } from '../../src/actions/index.js'
import { AJV_OPTIONS } from '../../src/core/validate.js'
import { cliInOneProcess, commitCount, studio, workspace, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule
const addFormats = ((addFormatsModule as unknown as { default: unknown }).default ?? addFormatsModule) as (ajv: unknown) => void
const ajv = new (Ajv as unknown as new (options: object) => import('ajv').default)(AJV_OPTIONS)
addFormats(ajv)
const conforms = (actionId: string, value: unknown) => {
  const validate = ajv.compile(findAction(actionId)!.output)
  assert.equal(validate(value), true, JSON.stringify(validate.errors))
}

/** The mean colour of a box of a rendered PNG. */
async function meanColour(file: string, box: { x: number; y: number; w: number; h: number }): Promise<[number, number, number]> {
  const { data, info } = await sharp(file).extract({ left: Math.round(box.x), top: Math.round(box.y), width: Math.round(box.w), height: Math.round(box.h) }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const sum = [0, 0, 0]
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sum[c] += data[i + c]
  const n = data.length / info.channels
  return sum.map((s) => Math.round(s / n)) as [number, number, number]
}

const svg = (fill: string, extra = '') => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"${extra}><rect width="40" height="20" fill="${fill}"/></svg>`

describe('logo actions', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Server
  let base = ''
  let version = 1
  const requests: string[] = []
  before(async () => {
    ws = await workspaceWithDeck('Logos')
    server = createServer((req, res) => {
      requests.push(req.url ?? '')
      const url = req.url ?? ''
      if (url === '/catalogue.json') {
        const marks = [
          {
            slug: 'acme',
            title: 'Acme Rockets',
            aliases: ['ACME'],
            categories: ['rockets'],
            collection: 'brands',
            licence: 'CC0-1.0',
            site: `${base}/acme`, // the catalogue's own address: never recorded
            guidelines: 'https://acme.example/brand',
            variants: { default: 'svg/acme.svg', mono: 'svg/acme-mono.svg', wordmark: `${base}/svg/acme-word.svg` },
          },
          { slug: 'globex', title: 'Globex', collection: 'community', variants: { default: version === 1 ? 'svg/globex.svg' : 'svg/globex-2.svg', dark: 'svg/missing.svg' } },
          ...(version === 1 ? [{ slug: 'initech', title: 'Initech', variants: { default: 'svg/initech.svg' } }] : []),
          { slug: '../escape', title: 'Not a mark', variants: { default: 'svg/acme.svg' } },
        ]
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'Test marks', sentence: 'Free to use in decks.', marks }))
      }
      if (url === '/slow.json') {
        const marks = [1, 2, 3].map((n) => ({ slug: `slow${n}`, title: `Slow ${n}`, variants: { default: `svg/slow-${n}.svg` } }))
        return res.writeHead(200).end(JSON.stringify({ marks }))
      }
      if (url.startsWith('/svg/slow-')) return void setTimeout(() => res.writeHead(200).end(svg('#000')), 60_000).unref()
      const drawings: Record<string, string> = {
        '/svg/acme.svg': svg('#c0392b', ' onload="alert(1)"').replace('<rect', '<script>alert(1)</script><rect'),
        '/svg/acme-mono.svg': svg('#000000'),
        '/svg/acme-word.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 20"><rect width="120" height="20" fill="#333333"/></svg>`,
        '/svg/globex.svg': svg('#2980b9'),
        '/svg/globex-2.svg': svg('#27ae60'),
        '/svg/initech.svg': svg('#8e44ad'),
      }
      if (drawings[url]) return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(drawings[url])
      res.writeHead(404).end('not here')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => {
    server?.close()
    ws?.cleanup()
  })

  const clean = async () => assert.equal((await ws.git('status', '--porcelain')).trim(), '')
  const deckDir = () => join(ws.dir, 'decks', ws.deckId)
  const refreshEnv = (extra: Record<string, string> = {}) => ({ STUDIO_FETCH_ALLOW_PRIVATE: '1', STUDIO_LOGO_CATALOGUE_URL: `${base}/catalogue.json`, ...extra })

  it('searches the built-in catalogue: prefix, brands first, with variants, licence, site, guidelines and reads', async () => {
    const r = await studio(ws.dir, ['logo', 'search', 'git', '--limit', '3', '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    conforms('logo.search', r.json)
    assert.deepEqual(r.json.marks.map((m: { slug: string }) => m.slug), ['git', 'github', 'gitlab'])
    const github = r.json.marks[1]
    assert.deepEqual(github.variants, ['default', 'mono', 'wordmark'])
    assert.deepEqual(github.readsOn, { paper: true, ink: false })
    assert.equal(github.guidelines, 'https://github.com/logos')
    assert.equal(github.site, 'https://github.com')
    assert.match(github.licence.sentence, /CC0/)
    assert.match(r.json.builtAt, /^\d{4}-\d\d-\d\dT/)
    assert.equal(r.json.lastFailure, null)
    const words = await studio(ws.dir, ['logo', 'search', 'goo', '--kind', 'wordmark', '--limit', '5', '--json'])
    assert.ok(words.json.marks.length > 0 && words.json.marks.every((m: { variants: string[] }) => m.variants.some((v) => v.startsWith('wordmark'))))
    const cloud = await studio(ws.dir, ['logo', 'search', 'aws', '--collection', 'all', '--json'])
    assert.ok(cloud.json.marks.some((m: { collection: string }) => m.collection === 'cloud'))
    const brands = await studio(ws.dir, ['logo', 'search', 'aws', '--json'])
    assert.ok(brands.json.marks.every((m: { collection: string }) => m.collection !== 'cloud'))
  })

  it('inserts a logo in the free area of a slide in one commit: sanitized SVG source, 1x and 3x twins, a record without the catalogue\'s address, drawn by the renderer', async () => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, ['logo', 'insert', 'github', '--slide', 'title-1', '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    conforms('logo.insert', r.json)
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const { asset, block, variant, reads } = r.json
    assert.deepEqual([asset.id, asset.role, asset.alt, variant, reads], ['github', 'logo', 'GitHub logo', 'default', true])
    const recordText = readFileSync(join(deckDir(), 'assets', 'github.json'), 'utf8')
    assert.deepEqual(JSON.parse(recordText), asset)
    assert.doesNotMatch(recordText, /simpleicons|simple-icons|iconify|gilbarbara|sourceUrl/i)
    assert.deepEqual([asset.source.mark, asset.source.title, asset.source.guidelines, asset.source.license], ['github', 'GitHub', 'https://github.com/logos', 'CC0-1.0'])
    const source = readFileSync(join(deckDir(), 'assets', 'github.source.svg'), 'utf8')
    assert.match(source, /^<svg /)
    // The twins are the logo's box and three times it.
    assert.deepEqual(asset.twins, ['github@1x.png', 'github@3x.png'])
    const [one, three] = await Promise.all(asset.twins.map((t: string) => sharp(join(deckDir(), 'assets', t)).metadata()))
    assert.deepEqual([one.width, one.height], [block.pos.w, block.pos.h])
    assert.deepEqual([three.width, three.height], [block.pos.w * 3, block.pos.h * 3])
    // In the free area: below nothing, clear of the title, inside the content area, at most 640 x 200.
    const slide = JSON.parse(readFileSync(join(deckDir(), 'slides', 'title-1.json'), 'utf8'))
    const title = slide.blocks.find((b: { id: string }) => b.id === 'title')
    assert.ok(block.pos.y + block.pos.h <= title.pos.y || block.pos.y >= title.pos.y + title.pos.h, 'the logo does not cover the title')
    assert.ok(block.pos.h <= 200 && block.pos.w <= 640 && block.pos.x >= 80 && block.pos.y >= 56)
    const render = await studio(ws.dir, ['render', 'title-1', '--json'])
    assert.equal(render.code, 0, render.stdout)
    const file = join(ws.dir, render.json.renders[0].file)
    // The Octocat's dark disc at the left of its box, on white paper.
    const [rr, gg, bb] = await meanColour(file, { x: block.pos.x + block.pos.w * 0.1, y: block.pos.y + block.pos.h * 0.45, w: 6, h: 6 })
    assert.ok(rr < 80 && gg < 80 && bb < 80, `dark disc, got ${[rr, gg, bb]}`)
  })

  it('chooses mono in the deck\'s ink where the default does not read (a dark deck), and stores an asset alone with slideId none', async () => {
    const dark = await workspaceWithDeck('Dark')
    try {
      assert.equal((await studio(dark.dir, ['deck', 'set', '/defaults/appearance', 'dark', '--json'])).code, 0)
      const r = await studio(dark.dir, ['logo', 'insert', 'github', '--slide', 'title-1', '--json'])
      assert.equal(r.code, 0, r.stdout)
      assert.deepEqual([r.json.variant, r.json.reads, r.json.asset.id], ['mono', true, 'github-mono'])
      assert.match(readFileSync(join(dark.dir, 'decks', dark.deckId, 'assets', 'github-mono.source.svg'), 'utf8'), /fill="#f4f4f2"/)
      const render = await studio(dark.dir, ['render', 'title-1', '--json'])
      const { pos } = r.json.block
      const [rr] = await meanColour(join(dark.dir, render.json.renders[0].file), { x: pos.x + pos.w * 0.1, y: pos.y + pos.h * 0.45, w: 6, h: 6 })
      assert.ok(rr > 200, `a light mark on the dark paper, got ${rr}`)
      // Alone: the asset and nothing on any slide.
      const slidesBefore = readFileSync(join(dark.dir, 'decks', dark.deckId, 'slides', 'title-1.json'), 'utf8')
      const alone = await studio(dark.dir, ['logo', 'insert', 'vite', '--slide', 'none', '--json'])
      assert.equal(alone.code, 0, alone.stdout)
      assert.deepEqual([alone.json.block, alone.json.variant], [null, 'default'])
      assert.ok(existsSync(join(dark.dir, 'decks', dark.deckId, 'assets', 'vite@3x.png')))
      assert.equal(readFileSync(join(dark.dir, 'decks', dark.deckId, 'slides', 'title-1.json'), 'utf8'), slidesBefore)
      assert.equal((await dark.git('status', '--porcelain')).trim(), '')
    } finally {
      dark.cleanup()
    }
  })

  it('places a logo at a box, replaces a picture\'s asset keeping its box, and takes a variant by name', async () => {
    const boxed = await studio(ws.dir, ['logo', 'insert', 'gitlab', '--slide', 'title-1', '--variant', 'wordmark', '--input', '{"box":{"x":1000,"y":600,"w":400,"h":100}}', '--json'])
    assert.equal(boxed.code, 0, boxed.stdout)
    assert.deepEqual([boxed.json.variant, boxed.json.block.pos], ['wordmark', { x: 1000, y: 600, w: 400, h: 100 }])
    const blockId = boxed.json.block.id
    const replaced = await studio(ws.dir, ['logo', 'insert', 'google', '--slide', 'title-1', '--block', blockId, '--json'])
    assert.equal(replaced.code, 0, replaced.stdout)
    assert.deepEqual([replaced.json.block.id, replaced.json.block.asset, replaced.json.block.pos], [blockId, 'google', { x: 1000, y: 600, w: 400, h: 100 }])
    await clean()
  })

  it('makes it the deck\'s logo on every slide (the kit\'s mark and footer slots), or fills the kit\'s slots alone', async () => {
    const every = await studio(ws.dir, ['logo', 'insert', 'gitlab', '--every-slide', '--json'])
    assert.equal(every.code, 0, every.stdout)
    assert.deepEqual(every.json.brandKit, { logo: every.json.asset.id, footerLogo: every.json.asset.id })
    assert.equal(every.json.block, null)
    const inserted = await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--json'])
    assert.equal(inserted.code, 0, inserted.stdout)
    const render = await studio(ws.dir, ['render', inserted.json.slide.id, '--json'])
    const file = join(ws.dir, render.json.renders[0].file)
    // GitLab's orange tanuki at the right end of the footer band.
    const [rr, gg, bb] = await meanColour(file, { x: 1480, y: 805, w: 40, h: 30 })
    assert.ok(rr > gg + 40 && rr > bb + 40, `orange in the footer, got ${[rr, gg, bb]}`)
    const kit = await studio(ws.dir, ['logo', 'insert', 'google', '--kit', '--json'])
    assert.equal(kit.code, 0, kit.stdout)
    assert.deepEqual(kit.json.brandKit, { logo: kit.json.asset.id, footerLogo: kit.json.asset.id }, 'the footer slot the kit fills takes it too')
    await clean()
  })

  it('keeps the vector of an inserted logo, on a slide and in the footer, in native PPTX beside its PNG; --no-svg-vector writes the PNG alone', async () => {
    const own = await workspaceWithDeck('Vectors')
    try {
      const dir = join(own.dir, 'decks', own.deckId, 'assets')
      const onSlide = await studio(own.dir, ['logo', 'insert', 'github', '--slide', 'title-1', '--json'])
      assert.equal(onSlide.code, 0, onSlide.stdout)
      const footer = await studio(own.dir, ['logo', 'insert', 'gitlab', '--every-slide', '--json'])
      assert.equal(footer.code, 0, footer.stdout)
      const exported = async (extra: string[]) => {
        const r = await studio(own.dir, ['export', 'pptx', '--mode', 'native', '--theme', 'light', '--baseline-target', 'none', ...extra, '--json'])
        assert.equal(r.code, 0, r.stdout + r.stderr)
        return JSZip.loadAsync(readFileSync(join(own.dir, r.json.files[0])))
      }
      const zip = await exported([])
      const slide = await zip.file('ppt/slides/slide1.xml')!.async('string')
      const rels = await zip.file('ppt/slides/_rels/slide1.xml.rels')!.async('string')
      const vectorOf = async (alt: string) => {
        const pic = new RegExp(`<p:pic>(?:(?!</p:pic>)[\\s\\S])*?descr="${alt}"[\\s\\S]*?</p:pic>`).exec(slide)?.[0] ?? ''
        assert.ok(pic, `a picture described "${alt}"`)
        const id = /<asvg:svgBlip [^>]*r:embed="([^"]+)"\/>/.exec(pic)?.[1]
        assert.ok(id, `${alt}: no svgBlip beside the PNG`)
        const target = new RegExp(`<Relationship Id="${id}"[^>]*Target="\\.\\./media/([^"]+)"`).exec(rels)?.[1]
        return zip.file(`ppt/media/${target}`)!.async('nodebuffer')
      }
      assert.ok((await vectorOf('GitHub logo')).equals(readFileSync(join(dir, 'github.source.svg'))), 'the slide logo\'s sanitized SVG')
      assert.ok((await vectorOf('GitLab logo')).equals(readFileSync(join(dir, `${footer.json.asset.id}.source.svg`))), 'the footer logo\'s sanitized SVG')
      const off = await exported(['--no-svg-vector'])
      assert.doesNotMatch(await off.file('ppt/slides/slide1.xml')!.async('string'), /svgBlip/)
      assert.equal(off.file(/\.svg$/).length, 0)
    } finally {
      own.cleanup()
    }
  })

  it('draws a dark wordmark footer logo light on dark slides (the dark appearance, a dark slide background), in renders and native PPTX', async () => {
    const own = await workspaceWithDeck('Wordmark')
    try {
      const r = await studio(own.dir, ['logo', 'insert', 'github', '--every-slide', '--variant', 'wordmark', '--json'])
      assert.equal(r.code, 0, r.stdout)
      assert.deepEqual(r.json.asset.readsOn, { light: true, dark: false })
      const slideId = (await studio(own.dir, ['slide', 'new', '--layout', 'title-body', '--json'])).json.slide.id
      const night = (await studio(own.dir, ['slide', 'new', '--layout', 'title-body', '--json'])).json.slide.id
      assert.equal((await studio(own.dir, ['slide', 'patch', night, '--set', '/background="#101820"', '--json'])).code, 0)
      /** Shares of the footer logo's box that are near white and near black. */
      const tones = async (file: string) => {
        const { data, info } = await sharp(file).extract({ left: 1340, top: 800, width: 200, height: 40 }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
        let light = 0
        let dark = 0
        for (let i = 0; i < data.length; i += info.channels) {
          const v = (data[i] + data[i + 1] + data[i + 2]) / 3
          if (v > 200) light++
          if (v < 60) dark++
        }
        const n = data.length / info.channels
        return { light: light / n, dark: dark / n }
      }
      const render = await studio(own.dir, ['render', `${slideId},${night}`, '--theme', 'both', '--json'])
      assert.equal(render.code, 0, render.stdout)
      const file = (id: string, theme: string) => join(own.dir, render.json.renders.find((x: any) => x.slideId === id && x.theme === theme).file)
      const onPaper = await tones(file(slideId, 'light'))
      assert.ok(onPaper.dark > 0.1 && onPaper.light > 0.5, `the wordmark as drawn on light paper: ${JSON.stringify(onPaper)}`)
      for (const [id, theme] of [[slideId, 'dark'], [night, 'light'], [night, 'dark']]) {
        const onInk = await tones(file(id, theme))
        assert.ok(onInk.light > 0.1, `${id} ${theme}: the wordmark is drawn light on the dark ground: ${JSON.stringify(onInk)}`)
      }
      // Native PPTX in the dark appearance: the footer logo's picture is light where it is opaque, with no vector in the old colours.
      const exported = await studio(own.dir, ['export', 'pptx', '--mode', 'native', '--theme', 'dark', '--baseline-target', 'none', '--input', JSON.stringify({ slideIds: [slideId] }), '--json'])
      assert.equal(exported.code, 0, exported.stdout)
      const zip = await JSZip.loadAsync(readFileSync(join(own.dir, exported.json.files[0])))
      const slide = await zip.file('ppt/slides/slide1.xml')!.async('string')
      const pic = /<p:pic>(?:(?!<\/p:pic>)[\s\S])*?name="footer logo"[\s\S]*?<\/p:pic>/.exec(slide)?.[0] ?? ''
      assert.doesNotMatch(pic, /svgBlip/)
      const rid = /<a:blip r:embed="([^"]+)"/.exec(pic)?.[1]
      const rels = await zip.file('ppt/slides/_rels/slide1.xml.rels')!.async('string')
      const media = new RegExp(`<Relationship Id="${rid}"[^>]*Target="\\.\\./media/([^"]+)"`).exec(rels)?.[1]
      const { data, info } = await sharp(await zip.file(`ppt/media/${media}`)!.async('nodebuffer')).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
      let sum = 0
      let opaque = 0
      for (let i = 0; i < data.length; i += info.channels) if (data[i + 3] > 128) (sum += (data[i] + data[i + 1] + data[i + 2]) / 3), opaque++
      assert.ok(opaque > 0 && sum / opaque > 200, `the footer logo's opaque pixels are light: mean ${sum / opaque}`)
    } finally {
      own.cleanup()
    }
  })

  it('refuses unknown marks, missing variants and a call that names no place, writing nothing', async () => {
    const before = await commitCount(ws.git)
    const unknown = await studio(ws.dir, ['logo', 'insert', 'githu', '--slide', 'none', '--json'])
    assert.deepEqual([unknown.code, unknown.json.code, unknown.json.pointer], [3, 'not_found', '/slug'])
    assert.match(unknown.json.message, /did you mean github/)
    const variant = await studio(ws.dir, ['logo', 'insert', 'github', '--variant', 'dark', '--slide', 'none', '--json'])
    assert.deepEqual([variant.code, variant.json.code, variant.json.pointer], [3, 'not_found', '/variant'])
    const nowhere = await studio(ws.dir, ['logo', 'insert', 'github', '--json'])
    assert.deepEqual([nowhere.code, nowhere.json.code, nowhere.json.pointer], [2, 'invalid_input', '/slideId'])
    const both = await studio(ws.dir, ['logo', 'insert', 'github', '--slide', 'title-1', '--kit', '--json'])
    assert.deepEqual([both.code, both.json.pointer], [2, '/slideId'])
    const notPicture = await studio(ws.dir, ['logo', 'insert', 'github', '--slide', 'title-1', '--block', 'title', '--json'])
    assert.deepEqual([notPicture.code, notPicture.json.pointer], [2, '/blockId'])
    assert.equal(await commitCount(ws.git), before)
    await clean()
  })

  it('answers a dry run with no fetch and no write', async () => {
    const count = requests.length
    const r = await studio(ws.dir, ['logo', 'refresh', '--dry-run', '--json'], { env: refreshEnv() })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    conforms('logo.refresh', r.json)
    assert.deepEqual(r.json, { counts: { added: 0, updated: 0, unavailable: 0, dropped: 0 }, builtAt: null, lastFailure: null, progress: { done: 0, total: 0 } })
    assert.equal(requests.length, count)
    assert.equal(existsSync(join(ws.dir, '.studio', 'cache', 'logos')), false)
  })

  it('is refused on loopback without the guard\'s test switch, and remembers the failure', async () => {
    const count = requests.length
    const r = await studio(ws.dir, ['logo', 'refresh', '--json'], { env: refreshEnv({ STUDIO_FETCH_ALLOW_PRIVATE: '' }) })
    assert.deepEqual([r.code, r.json.code], [2, 'fetch_refused'])
    assert.equal(requests.length, count, 'no request reached the server')
    const search = await studio(ws.dir, ['logo', 'search', 'git', '--limit', '1', '--json'])
    assert.match(search.json.lastFailure, /loopback/)
    assert.equal(search.json.marks[0].slug, 'git', 'the built-in index still answers')
    const settings = await studio(ws.dir, ['logo', 'refresh', '--json'], { env: { STUDIO_LOGO_CATALOGUE_URL: '' } })
    assert.deepEqual([settings.code, settings.json.code], [2, 'refused'])
    assert.match(settings.json.message, /STUDIO_LOGO_CATALOGUE_URL/)
  })

  it('rebuilds the cached index from the manifest: 404 variants unavailable, drawings sanitized, nothing committed; search and insert answer from it', async () => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, ['logo', 'refresh', '--json'], { env: refreshEnv() })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    conforms('logo.refresh', r.json)
    assert.deepEqual(r.json.counts, { added: 3, updated: 0, unavailable: 1, dropped: 0 })
    assert.deepEqual(r.json.progress, { done: 6, total: 6 })
    assert.match(r.json.lastFailure, /1 entry of the manifest/)
    const cache = join(ws.dir, '.studio', 'cache', 'logos')
    const drawing = readFileSync(join(cache, 'svg', 'acme', 'default.svg'), 'utf8')
    assert.doesNotMatch(drawing, /script|onload/)
    assert.equal(existsSync(join(cache, 'svg', 'globex', 'dark.svg')), false)
    assert.equal(await commitCount(ws.git), before)
    await clean()

    const search = await studio(ws.dir, ['logo', 'search', 'rock', '--since', r.json.builtAt, '--json'])
    assert.equal(search.json.builtAt, r.json.builtAt)
    assert.deepEqual(search.json.marks.map((m: { slug: string }) => m.slug), ['acme'])
    const acme = search.json.marks[0]
    assert.deepEqual([acme.name, acme.variants, acme.licence, acme.site, acme.guidelines], ['Acme Rockets', ['default', 'mono', 'wordmark'], { recorded: 'CC0-1.0', sentence: 'Free to use in decks.' }, null, 'https://acme.example/brand'])
    const globex = await studio(ws.dir, ['logo', 'search', 'globex', '--json'])
    assert.deepEqual(globex.json.marks[0].variants, ['default'])

    const inserted = await studio(ws.dir, ['logo', 'insert', 'acme', '--slide', 'none', '--json'])
    assert.equal(inserted.code, 0, inserted.stdout)
    const record = readFileSync(join(deckDir(), 'assets', `${inserted.json.asset.id}.json`), 'utf8')
    assert.equal(record.includes(base), false, "the catalogue's address is never recorded")
    assert.equal(record.includes('127.0.0.1'), false)
    assert.equal(inserted.json.asset.source.catalogue, 'Test marks')
    // A drawing tampered with in the cache is sanitized again on its way into the deck.
    writeFileSync(join(cache, 'svg', 'acme', 'mono.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><script>alert(1)</script><rect width="40" height="20" onclick="x()"/></svg>')
    const mono = await studio(ws.dir, ['logo', 'insert', 'acme', '--variant', 'mono', '--slide', 'none', '--json'])
    assert.equal(mono.code, 0, mono.stdout)
    const stored = readFileSync(join(deckDir(), 'assets', `${mono.json.asset.id}.source.svg`), 'utf8')
    assert.doesNotMatch(stored, /script|onclick/)
    assert.deepEqual(mono.json.asset.sanitized, ['script', 'onclick attribute'])
    const missing = await studio(ws.dir, ['logo', 'insert', 'globex', '--variant', 'dark', '--slide', 'none', '--json'])
    assert.deepEqual([missing.code, missing.json.pointer], [3, '/variant'])
    assert.match(missing.json.message, /404 at the last refresh/)
    await clean()
  })

  it('drops removed marks with their files and counts updated ones on the next refresh', async () => {
    version = 2
    const r = await studio(ws.dir, ['logo', 'refresh', '--json'], { env: refreshEnv() })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.deepEqual(r.json.counts, { added: 0, updated: 1, unavailable: 1, dropped: 1 })
    assert.equal(existsSync(join(ws.dir, '.studio', 'cache', 'logos', 'svg', 'initech')), false)
    const dry = await studio(ws.dir, ['logo', 'refresh', '--dry-run', '--json'])
    assert.deepEqual([dry.json.counts, dry.json.builtAt], [r.json.counts, r.json.builtAt])
    await clean()
  })

  it('stops at its time budget, saying how far it got', async () => {
    const other = await workspace()
    try {
      const started = Date.now()
      const r = await studio(other.dir, ['logo', 'refresh', '--json'], { env: refreshEnv({ STUDIO_LOGO_CATALOGUE_URL: `${base}/slow.json`, STUDIO_LOGO_REFRESH_BUDGET_MS: '1500' }) })
      assert.equal(r.code, 0, r.stdout + r.stderr)
      assert.ok(Date.now() - started < 30_000, 'the slow drawings (a minute each) were not waited for')
      assert.deepEqual(r.json.progress, { done: 0, total: 3 })
      assert.match(r.json.lastFailure, /budget of 1.5 s ran out after 0 of 3/)
    } finally {
      other.cleanup()
    }
  })
})
