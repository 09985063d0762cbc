/**
 * asset.capture through its CLI form: a page on a loopback server captured in both themes (the guard's
 * test switch lets the server fetch from loopback), every request routed through the host allowlist
 * (a resource on a host outside it is aborted and counted, and its server never sees a connection;
 * one on a host allowHosts names is fetched through the guard and shown), the light and dark twins
 * with the identical region, 2x detail crops, one commit and a clean status. Loopback without the
 * switch, a bad region, an unknown recipe and a taken id are refused with nothing written; a page
 * that never answers ends in one time-out error.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import sharp from 'sharp'
import { findAction } from '../../src/actions/index.js'
import { AJV_OPTIONS } from '../../src/core/validate.js'
import { cliInOneProcess, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const LIGHT_BG = [0xf4, 0xf1, 0xea]
const DARK_BG = [0x10, 0x18, 0x20]
const LIGHT_SWATCH = [0xc0, 0x39, 0x2b]
const DARK_SWATCH = [0x2e, 0x86, 0xde]
const ALLOWED_DOT = [0x11, 0x88, 0x44]

/** Whether a result matches the action's declared result schema (what MCP announces as outputSchema). */
function checkResult(result: unknown): void {
  const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule
  const addFormats = ((addFormatsModule as unknown as { default: unknown }).default ?? addFormatsModule) as (ajv: unknown) => void
  const ajv = new (Ajv as unknown as new (options: object) => import('ajv').default)(AJV_OPTIONS)
  addFormats(ajv)
  const validate = ajv.compile(findAction('asset.capture')!.output)
  assert.ok(validate(result), JSON.stringify(validate.errors))
}

/**
 * The page: its colours follow prefers-color-scheme; it loads a picture from an allowed host
 * (localhost), two resources from a host outside the allowlist (127.0.0.2), and a picture from
 * 127.0.0.3, which the second test allows by allowHosts while the guard's switch does not.
 */
function page(port: number, blockedPort: number, guardedPort: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Capture fixture</title>
<style>
  body { margin: 0; background: #f4f1ea; color: #111; font: 16px sans-serif }
  #swatch { position: absolute; left: 100px; top: 100px; width: 200px; height: 100px; background: #c0392b }
  #allowed { position: absolute; left: 400px; top: 100px; width: 100px; height: 100px }
  .cookie-banner { position: fixed; left: 0; right: 0; top: 0; height: 60px; background: #00ff00 }
  @media (prefers-color-scheme: dark) {
    body { background: #101820; color: #eee }
    #swatch { background: #2e86de }
  }
</style>
<link rel="stylesheet" href="http://127.0.0.2:${blockedPort}/evil.css">
</head><body>
<div id="swatch"></div>
<img id="allowed" src="http://localhost:${port}/dot.png" width="100" height="100" alt="">
<img src="http://127.0.0.2:${blockedPort}/pixel.png" width="1" height="1" alt="">
<img src="http://127.0.0.3:${guardedPort}/dot.png" style="position: absolute; left: 600px; top: 300px" width="100" height="100" alt="">
<div class="cookie-banner">We use cookies</div>
</body></html>`
}

async function rgbAt(file: string, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(file).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return [data[0], data[1], data[2]]
}

function near(actual: number[], expected: number[], what: string, tolerance = 12): void {
  assert.ok(
    actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance),
    `${what}: got rgb(${actual.join(', ')}), expected about rgb(${expected.join(', ')})`,
  )
}

describe('asset.capture', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let origin: Server
  let outside: Server
  let guarded: Server
  let guardedConnections = 0
  let port = 0
  const seen: string[] = []
  let outsideConnections = 0
  const allow = { STUDIO_FETCH_ALLOW_PRIVATE: '1' }
  before(async () => {
    ws = await workspaceWithDeck('Captures')
    const dot = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#118844' } }).png().toBuffer()
    outside = createServer((req, res) => {
      if (req.url === '/evil.css') res.writeHead(200, { 'content-type': 'text/css' }).end('body, body * { background: #ff00ff !important }')
      else res.writeHead(200, { 'content-type': 'image/png' }).end(dot)
    })
    outside.on('connection', () => outsideConnections++)
    await new Promise<void>((r) => outside.listen(0, '127.0.0.2', () => r()))
    const blockedPort = (outside.address() as AddressInfo).port
    guarded = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(dot))
    guarded.on('connection', () => guardedConnections++)
    await new Promise<void>((r) => guarded.listen(0, '127.0.0.3', () => r()))
    const guardedPort = (guarded.address() as AddressInfo).port
    origin = createServer((req, res) => {
      seen.push(req.url ?? '')
      if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(port, blockedPort, guardedPort))
      else if (req.url === '/dot.png') res.writeHead(200, { 'content-type': 'image/png' }).end(dot)
      else if (req.url === '/hang') return // never answers
      else res.writeHead(404).end('no')
    })
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()))
    port = (origin.address() as AddressInfo).port
  })
  after(() => {
    origin?.closeAllConnections()
    origin?.close()
    outside?.close()
    guarded?.close()
    ws?.cleanup()
  })

  const assets = () => join(ws.dir, 'decks', ws.deckId, 'assets')
  const clean = async () => assert.equal((await ws.git('status', '--porcelain')).trim(), '')

  it('captures both themes through the allowlist with an identical region and 2x details, in one commit', async () => {
    const before = await commitCount(ws.git)
    const url = `http://127.0.0.1:${port}/page.html`
    const r = await studio(
      ws.dir,
      ['asset', 'capture', url, '--theme', 'both', '--scale', '2', '--region', '0,0,720,450', '--id', 'fixture', '--details', '[[100,100,200,100],[400,100,100,100]]', '--allow-hosts', 'localhost', '--json'],
      { env: allow },
    )
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()

    // Requests: the page and the allowed picture fetched; the host outside the allowlist never reached.
    assert.deepEqual([r.json.blocked, r.json.blockedHosts, r.json.fetched, r.json.failed], [3, ['127.0.0.2', '127.0.0.3'], 2, 0])
    assert.deepEqual([outsideConnections, guardedConnections], [0, 0])
    assert.deepEqual(seen.filter((u) => u === '/dot.png').length, 1, 'both themes share one fetch of each resource')

    const [asset] = r.json.assets
    assert.deepEqual([asset.id, asset.role, asset.format, asset.width, asset.height], ['fixture', 'capture', 'jpg', 1440, 900])
    assert.deepEqual(asset.twins, ['fixture.jpg', 'fixture.dark.jpg'])
    assert.deepEqual(asset.themes, { light: 'fixture.jpg', dark: 'fixture.dark.jpg' })
    assert.equal(asset.source.sourceUrl, url)
    assert.equal(asset.source.title, 'Capture fixture')
    assert.match(asset.alt, /Capture fixture/)
    assert.deepEqual([asset.capture.viewport, asset.capture.scale, asset.capture.region, asset.capture.recipe], [[1440, 900], 2, [0, 0, 720, 450], 'default'])
    assert.deepEqual(JSON.parse(readFileSync(join(assets(), 'fixture.json'), 'utf8')), asset)
    assert.deepEqual(readdirSync(assets()).sort(), ['fixture-detail-1.dark.jpg', 'fixture-detail-1.jpg', 'fixture-detail-1.json', 'fixture-detail-2.dark.jpg', 'fixture-detail-2.jpg', 'fixture-detail-2.json', 'fixture.dark.jpg', 'fixture.jpg', 'fixture.json'])

    // Both twins: the region at 2x, the same size; the colours of each scheme.
    const light = join(assets(), 'fixture.jpg')
    const dark = join(assets(), 'fixture.dark.jpg')
    for (const file of [light, dark]) {
      const meta = await sharp(file).metadata()
      assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 1440, 900])
    }
    near(await rgbAt(light, 100, 300), LIGHT_BG, 'light background')
    near(await rgbAt(dark, 100, 300), DARK_BG, 'dark background')
    near(await rgbAt(light, 400, 300), LIGHT_SWATCH, 'light swatch')
    near(await rgbAt(dark, 400, 300), DARK_SWATCH, 'dark swatch')
    // The allowed host's picture is in the page, fulfilled from the server's guarded fetch.
    near(await rgbAt(light, 900, 300), ALLOWED_DOT, 'allowed picture (light)')
    near(await rgbAt(dark, 900, 300), ALLOWED_DOT, 'allowed picture (dark)')
    // The default recipe hid the fixed cookie banner (green at the top otherwise).
    near(await rgbAt(light, 1200, 40), LIGHT_BG, 'where the cookie banner was')

    // Details: 2x crops of the same box in both themes, assets of their own.
    const [d1, d2] = r.json.details
    assert.deepEqual([d1.id, d1.role, d1.width, d1.height, d1.detail], ['fixture-detail-1', 'detail', 400, 200, { of: 'fixture', region: [100, 100, 200, 100], scale: 2 }])
    assert.deepEqual([d2.id, d2.width, d2.height], ['fixture-detail-2', 200, 200])
    near(await rgbAt(join(assets(), 'fixture-detail-1.jpg'), 200, 100), LIGHT_SWATCH, 'light detail')
    near(await rgbAt(join(assets(), 'fixture-detail-1.dark.jpg'), 200, 100), DARK_SWATCH, 'dark detail')
    near(await rgbAt(join(assets(), 'fixture-detail-2.dark.jpg'), 100, 100), ALLOWED_DOT, 'detail of the allowed picture')
    const files = r.json.files as string[]
    assert.equal(files.length, 9)
    checkResult(r.json)
    // Placed on a slide, light renders draw the light shot and dark renders the dark one.
    const placed = await studio(ws.dir, ['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [{ kind: 'block.insert', block: { id: 'shot', kind: 'picture', asset: 'fixture', pos: { x: 0, y: 0, w: 1440, h: 900 } } }] }), '--json'])
    assert.equal(placed.code, 0, placed.stdout)
    const rendered = await studio(ws.dir, ['render', 'title-1', '--theme', 'both', '--json'])
    assert.equal(rendered.code, 0, rendered.stdout)
    const [lightRender, darkRender] = rendered.json.renders.map((x: { file: string }) => join(ws.dir, x.file))
    near(await rgbAt(lightRender, 100, 300), LIGHT_BG, 'light render of the capture')
    near(await rgbAt(darkRender, 100, 300), DARK_BG, 'dark render of the capture')
  })

  it('stores one theme, png, with the id slugged from the URL; an allowed host is still fetched only through the guard', async () => {
    // The switch allows 127.0.0.1 alone: 127.0.0.3 is on the allowlist, and the guard refuses it.
    const r = await studio(ws.dir, ['asset', 'capture', `http://127.0.0.1:${port}/page.html`, '--theme', 'dark', '--format', 'png', '--recipe', 'bare', '--allow-hosts', '127.0.0.3', '--json'], {
      env: { STUDIO_FETCH_ALLOW_PRIVATE: '127.0.0.1' },
    })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const [asset] = r.json.assets
    assert.equal(asset.id, `127-0-0-1-${port}-page`)
    assert.deepEqual([asset.file, asset.twins, asset.format, asset.width, asset.height], [`${asset.id}.dark.png`, [`${asset.id}.dark.png`], 'png', 1440, 900])
    const file = join(assets(), asset.file)
    near(await rgbAt(file, 150, 150), DARK_SWATCH, 'dark swatch', 2)
    // The bare recipe leaves the cookie banner alone; the allowed picture is not allowed without allowHosts.
    near(await rgbAt(file, 700, 30), [0, 0xff, 0], 'cookie banner', 2)
    near(await rgbAt(file, 450, 150), DARK_BG, 'no allowed picture', 2)
    assert.deepEqual([r.json.blocked, r.json.blockedHosts, r.json.failed], [3, ['127.0.0.2', 'localhost'], 1])
    assert.equal(guardedConnections, 0)
    near(await rgbAt(file, 650, 350), DARK_BG, 'no picture from the address the guard refused', 2)
    await clean()
  })

  it('refuses a loopback page without the guard test switch, in any spelling, and writes nothing', async () => {
    const before = await commitCount(ws.git)
    const count = seen.length
    for (const url of [`http://127.0.0.1:${port}/page.html`, `http://localhost:${port}/page.html`, `http://2130706433:${port}/page.html`, `http://[::ffff:127.0.0.1]:${port}/page.html`]) {
      const r = await studio(ws.dir, ['asset', 'capture', url, '--theme', 'both', '--id', 'nope', '--json'], { env: { STUDIO_FETCH_ALLOW_PRIVATE: '' } })
      assert.deepEqual([r.code, r.json?.code], [2, 'fetch_refused'], `${url}: ${r.stdout}`)
    }
    assert.equal(seen.length, count, 'the server was never asked')
    assert.equal(await commitCount(ws.git), before)
    assert.equal(existsSync(join(assets(), 'nope.json')), false)
    await clean()
  })

  it('refuses a bad region, detail, recipe, host or a taken id before capturing, with nothing written', async () => {
    const before = await commitCount(ws.git)
    const count = seen.length
    const url = `http://127.0.0.1:${port}/page.html`
    const cases: [string[], string, string][] = [
      [['--region', '1400,0,100,100'], 'invalid_input', '/region'],
      [['--region', '0,0,0,100'], 'invalid_input', '/region'],
      [['--region', '-5,0,100,100'], 'invalid_input', '/region'],
      [['--region', '0,0,100'], 'invalid_input', '/region'],
      [['--viewport', '800,600', '--region', '0,0,1000,500'], 'invalid_input', '/region'],
      [['--details', '[[0,0,100,100],[0,850,100,100]]'], 'invalid_input', '/details/1'],
      [['--recipe', 'no-such-recipe'], 'invalid_input', '/recipe'],
      [['--allow-hosts', 'exa mple.org'], 'invalid_input', '/allowHosts/0'],
      [['--id', 'fixture'], 'id_taken', '/id'],
      [['--id', 'a'.repeat(115), '--details', '[[0,0,10,10]]'], 'invalid_input', '/id'],
    ]
    for (const [flags, code, pointer] of cases) {
      const r = await studio(ws.dir, ['asset', 'capture', url, '--theme', 'both', '--json', ...(flags.includes('--id') ? [] : ['--id', 'bad']), ...flags], { env: allow })
      assert.deepEqual([r.json?.code, r.json?.pointer], [code, pointer], `${flags.join(' ')}: ${r.stdout}`)
    }
    assert.equal(seen.length, count, 'nothing was fetched')
    assert.equal(await commitCount(ws.git), before)
    assert.equal(existsSync(join(assets(), 'bad.json')), false)
    await clean()
  })

  it('ends a page that never answers with one time-out error, writing nothing', async () => {
    const before = await commitCount(ws.git)
    const started = Date.now()
    const r = await studio(ws.dir, ['asset', 'capture', `http://127.0.0.1:${port}/hang`, '--theme', 'light', '--id', 'slow', '--json'], { env: { ...allow, STUDIO_CAPTURE_TIMEOUT_MS: '2000' } })
    assert.deepEqual([r.json?.code, r.json?.message], ['fetch_failed', 'Capturing "127.0.0.1" did not finish within 2 s.'], r.stdout)
    assert.ok(Date.now() - started < 30_000, `a page that never answers ended after ${Date.now() - started} ms`)
    assert.equal(await commitCount(ws.git), before)
    await clean()
  })
})
