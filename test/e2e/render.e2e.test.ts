/**
 * render.slide and render.sheet through the CLI and HTTP: images and sidecars where the docs say,
 * reuse when nothing changed, slide.get's newest matching record, contact sheets with their cell
 * map, paths confined to the workspace over the network, and the error when no Chromium exists.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { request } from 'undici'
import { cliInOneProcess, serve, type Served, studio } from '../helpers/studio.js'
import { fixtureWorkspace } from '../helpers/fixture.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('render.slide and render.sheet', () => {
  let ws: Awaited<ReturnType<typeof fixtureWorkspace>>
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws?.cleanup())

  it('renders slides to PNG with a sidecar each, and reuses them while nothing changed', async () => {
    const first = await studio(ws.dir, ['render', 'title-1,title-body-2', '--theme', 'light,dark', '--json'])
    assert.equal(first.code, 0, first.stdout)
    const renders = first.json.renders as { slideId: string; theme: string; file: string; width: number; height: number; revision: number; reused: boolean; hash: string }[]
    assert.deepEqual(
      renders.map((r) => [r.slideId, r.theme, r.file, r.reused]),
      [
        ['title-1', 'light', '.studio/render/quarterly-review/title-1.light@1x.png', false],
        ['title-1', 'dark', '.studio/render/quarterly-review/title-1.dark@1x.png', false],
        ['title-body-2', 'light', '.studio/render/quarterly-review/title-body-2.light@1x.png', false],
        ['title-body-2', 'dark', '.studio/render/quarterly-review/title-body-2.dark@1x.png', false],
      ],
    )
    for (const r of renders) {
      const meta = await sharp(join(ws.dir, r.file)).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1600, 900])
      const sidecar = JSON.parse(readFileSync(join(ws.dir, `${r.file}.json`), 'utf8'))
      assert.equal(sidecar.hash, r.hash)
      assert.equal(sidecar.revision, 3)
      assert.equal(sidecar.deck, 'quarterly-review')
      assert.equal(sidecar.deckTheme, 'studio-simple')
    }
    // Light and dark are different pictures.
    const [light, dark] = await Promise.all(renders.slice(0, 2).map((r) => sharp(join(ws.dir, r.file)).stats()))
    assert.ok(light.channels[0].mean > dark.channels[0].mean + 100)

    const mtime = statSync(join(ws.dir, renders[0].file)).mtimeMs
    const again = await studio(ws.dir, ['render', 'title-1,title-body-2', '--theme', 'light,dark', '--json'])
    assert.deepEqual(again.json.renders.map((r: { reused: boolean }) => r.reused), [true, true, true, true])
    assert.equal(statSync(join(ws.dir, renders[0].file)).mtimeMs, mtime)

    // A change to one slide redraws that slide only.
    const patched = await studio(ws.dir, ['slide', 'patch', 'title-1', '--set', '/subtitle="Q3, revised"', '--json'])
    assert.equal(patched.code, 0, patched.stdout)
    const third = await studio(ws.dir, ['render', 'title-1,title-body-2', '--json'])
    assert.deepEqual(third.json.renders.map((r: { slideId: string; reused: boolean }) => [r.slideId, r.reused]), [['title-1', false], ['title-body-2', true]])
  })

  it('renders at scale 2 and as JPG', async () => {
    const r = await studio(ws.dir, ['render', 'freeform-4', '--input', '{"scale":2,"format":"jpg"}', '--json'])
    assert.equal(r.code, 0, r.stdout)
    const meta = await sharp(join(ws.dir, r.json.renders[0].file)).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 3200, 1800])
  })

  it("answers slide.get's render with the newest render that still shows the slide, null once it changed", async () => {
    await studio(ws.dir, ['render', 'two-columns-3', '--json'])
    const got = await studio(ws.dir, ['slide', 'get', 'two-columns-3', '--json'])
    assert.equal(got.json.render.file, '.studio/render/quarterly-review/two-columns-3.light@1x.png')
    assert.equal(got.json.render.slideId, 'two-columns-3')
    const changed = await studio(ws.dir, ['block', 'set', 'two-columns-3#b1', '/text', 'Before: monthly releases.', '--json'])
    assert.equal(changed.code, 0, changed.stdout)
    assert.equal((await studio(ws.dir, ['slide', 'get', 'two-columns-3', '--json'])).json.render, null)
    assert.equal((await studio(ws.dir, ['slide', 'get', 'freeform-4', '--json'])).json.render.format, 'jpg')
  })

  it('refuses an unknown slide with its pointer', async () => {
    const r = await studio(ws.dir, ['render', 'title-1,nope', '--json'])
    assert.equal(r.code, 3)
    assert.equal(r.json.code, 'not_found')
    assert.equal(r.json.pointer, '/slideIds/1')
  })

  it('builds a contact sheet per appearance with its cell map', async () => {
    const r = await studio(ws.dir, ['sheet', 'all', '--cols', '2', '--thumb', '320', '--overlay', 'lint', '--input', '{"themes":["light","dark"],"numbered":true}', '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(r.json.sheets.map((s: { theme: string }) => s.theme), ['light', 'dark'])
    const sheet = r.json.sheets[0]
    assert.deepEqual(sheet.cells.map((c: { slideId: string; number: number }) => [c.slideId, c.number]), [['title-1', 1], ['title-body-2', 2], ['two-columns-3', 3], ['freeform-4', 4]])
    assert.deepEqual(sheet.cells[1].box, { x: 24 + 320 + 16, y: 24, w: 320, h: 180 })
    const meta = await sharp(join(ws.dir, sheet.file)).metadata()
    assert.deepEqual([meta.width, meta.height], [sheet.width, sheet.height])
    // Numbered: a 26 px strip under each row of thumbnails holds the numbers and labels.
    assert.deepEqual(sheet.cells[2].box, { x: 24, y: 24 + 180 + 26 + 16, w: 320, h: 180 })
    assert.deepEqual([sheet.width, sheet.height], [24 * 2 + 320 * 2 + 16, 24 * 2 + (180 + 26) * 2 + 16])
    assert.deepEqual(JSON.parse(readFileSync(join(ws.dir, sheet.map), 'utf8')).cells, sheet.cells)
  })

  it('prints slide numbers under the thumbnails, never over the slide', async () => {
    const r = await studio(ws.dir, ['sheet', 'all', '--cols', '2', '--thumb', '320', '--out', 'sheets-numbered', '--input', '{"numbered":true}', '--json'])
    assert.equal(r.code, 0, r.stdout)
    const sheet = r.json.sheets[0]
    const cell = sheet.cells[0]
    // The thumbnail's pixels are the slide's render resized, untouched (the badge once covered its lower left corner).
    const thumb = await sharp(join(ws.dir, '.studio', 'render', 'quarterly-review', `${cell.slideId}.light@1x.png`)).resize(320, 180, { fit: 'fill' }).png().toBuffer().then((png) => sharp(png).removeAlpha().raw().toBuffer())
    const inSheet = await sharp(join(ws.dir, sheet.file)).extract({ left: cell.box.x, top: cell.box.y, width: 320, height: 180 }).removeAlpha().raw().toBuffer()
    assert.ok(thumb.equals(inSheet), 'the thumbnail is drawn over')
    // The strip under it is not the sheet's bare background: the number and the label are there.
    const { data, info } = await sharp(join(ws.dir, sheet.file)).extract({ left: cell.box.x, top: cell.box.y + 180, width: 320, height: 26 }).raw().toBuffer({ resolveWithObject: true })
    let ink = 0
    for (let i = 0; i < data.length; i += info.channels) if (data[i] < 128) ink++
    assert.ok(ink > 100, `${ink} dark pixels in the strip under the first thumbnail`)
  })

  describe('over HTTP', () => {
    let server: Served
    before(async () => {
      server = await serve(ws.dir)
    })
    after(() => server?.stop())

    const call = async (id: string, body: unknown) => {
      const r = await request(`${server.url}/api/actions/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { status: r.statusCode, json: (await r.body.json()) as any }
    }

    it('keeps out paths inside the workspace', async () => {
      for (const out of ['/tmp', '../outside', '.studio/../../x']) {
        const r = await call('render.slide', { slideIds: ['title-1'], out })
        assert.equal(r.status, 403, `${out}: ${JSON.stringify(r.json)}`)
        assert.equal(r.json.code, 'forbidden')
        assert.equal(r.json.pointer, '/out')
        assert.doesNotMatch(r.json.message, new RegExp(ws.dir))
      }
      // Inside the workspace but where decks, templates, git or studio's state live: a write there would bypass the commit.
      for (const [id, body] of [
        ['render.slide', { slideIds: ['title-1'], out: 'decks' }],
        ['render.slide', { slideIds: ['title-1'], out: '.git/hooks' }],
        ['build.run', { out: 'decks/quarterly-review/deck.json' }],
        ['build.run', { out: 'studio.json' }],
        ['diff.run', { from: 0, to: 3, render: true, out: 'templates/x' }],
      ] as const) {
        const r = await call(id, body)
        assert.deepEqual([r.status, r.json.code, r.json.pointer], [403, 'forbidden', '/out'], `${id} ${JSON.stringify(body)}`)
      }
      assert.equal(readFileSync(join(ws.dir, 'studio.json'), 'utf8').startsWith('{'), true)
      const inside = await call('render.slide', { slideIds: ['title-1'], out: 'renders' })
      assert.equal(inside.status, 200, JSON.stringify(inside.json))
      assert.equal(inside.json.renders[0].file, 'renders/quarterly-review/title-1.light@1x.png')
      assert.equal(existsSync(join(ws.dir, inside.json.renders[0].file)), true)
    })
  })

  it('says where it looked when there is no Chromium', async () => {
    const r = await studio(ws.dir, ['render', 'title-body-2', '--theme', 'dark', '--input', '{"scale":2}', '--json'], { env: { STUDIO_CHROMIUM: '/nonexistent/chromium' } })
    assert.equal(r.code, 1)
    assert.equal(r.json.code, 'render_failed')
    assert.match(r.json.message, /STUDIO_CHROMIUM/)
  })
})
