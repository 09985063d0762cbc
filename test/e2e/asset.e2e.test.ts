/**
 * asset.add through its CLI form and HTTP: a picture from a file, a data: URL or a URL (through the
 * SSRF guard), cleaned and stored with its record and twins in one commit, drawn by the renderer;
 * bombs and non-pictures refused with nothing written; an upload without an object store answers 501 saying what to set
 * (uploads themselves: test/e2e/uploads.e2e.test.ts).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { cliInOneProcess, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'
import { claimedPng } from '../helpers/images.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('asset.add', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let photo: Buffer
  let origin: Server
  let base = ''
  before(async () => {
    ws = await workspaceWithDeck('Pictures')
    photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#35607a' } })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg()
      .toBuffer()
    writeFileSync(join(ws.dir, 'harbour.jpg'), photo)
    origin = createServer((req, res) => {
      if (req.url === '/pics/dock.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo)
      else res.writeHead(404).end('secret internal page')
    })
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()))
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`
  })
  after(() => {
    origin?.close()
    ws?.cleanup()
  })

  const clean = async () => assert.deepEqual((await ws.git('status', '--porcelain')).trim().split('\n').filter((l) => !l.includes('sunset.png') && !l.includes('mark.svg')), ['?? harbour.jpg'])

  it('stores a photo from a file, oriented and stripped, with its record and twins, in one commit', async () => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, ['asset', 'add', 'harbour.jpg', '--role', 'picture', '--alt', 'Cranes at the harbour', '--input', '{"artist":"A. Photographer","license":"CC BY 4.0"}', '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const { asset, twins } = r.json
    assert.deepEqual([asset.id, asset.role, asset.alt, asset.format, asset.width, asset.height], ['harbour', 'picture', 'Cranes at the harbour', 'jpg', 1600, 2400])
    assert.deepEqual(asset.source, { artist: 'A. Photographer', license: 'CC BY 4.0', credit: 'A. Photographer, CC BY 4.0' })
    const dir = join(ws.dir, 'decks', ws.deckId, 'assets')
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'harbour.json'), 'utf8')), asset)
    const stored = readFileSync(join(dir, 'harbour.jpg'))
    assert.equal(stored.includes(Buffer.from('PhoneCo')), false)
    assert.equal((await sharp(stored).metadata()).orientation, undefined)
    assert.deepEqual(twins, [`decks/${ws.deckId}/assets/harbour@1x.jpg`, `decks/${ws.deckId}/assets/harbour@2x.jpg`])
    assert.deepEqual(await Promise.all(twins.map(async (t: string) => (await sharp(join(ws.dir, t)).metadata()).width)), [1600, 1600])
    // A picture block may now name it, and the renderer draws it.
    const block = await studio(ws.dir, ['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [{ kind: 'block.insert', block: { id: 'p', kind: 'picture', asset: 'harbour', pos: { x: 100, y: 100, w: 600, h: 400 } } }] }), '--json'])
    assert.equal(block.code, 0, block.stdout)
    const render = await studio(ws.dir, ['render', 'title-1', '--json'])
    assert.equal(render.code, 0, render.stdout)
    const { data, info } = await sharp(join(ws.dir, render.json.renders[0].file)).extract({ left: 300, top: 250, width: 10, height: 10 }).raw().toBuffer({ resolveWithObject: true })
    assert.equal(info.channels >= 3, true)
    assert.deepEqual([data[0], data[1], data[2]].map((v) => Math.round(v / 16)), [0x35, 0x60, 0x7a].map((v) => Math.round(v / 16)))
  })

  it('refuses an id already taken with 409, and writes nothing', async () => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, ['asset', 'add', 'harbour.jpg', '--role', 'picture', '--alt', 'Again', '--json'])
    assert.deepEqual([r.code, r.json.code, r.json.pointer], [4, 'id_taken', '/id'])
    assert.equal(await commitCount(ws.git), before)
    await clean()
  })

  it('takes a data: URL', async () => {
    const png = await sharp({ create: { width: 64, height: 32, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toBuffer()
    const r = await studio(ws.dir, ['asset', 'add', `data:image/png;base64,${png.toString('base64')}`, '--id', 'dot', '--role', 'icon', '--alt', 'A red dot', '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual([r.json.asset.format, r.json.asset.width, r.json.asset.height], ['png', 64, 32])
  })

  it('fetches a URL only through the SSRF guard: loopback refused in every spelling unless allowed', async () => {
    const port = new URL(base).port
    for (const url of [`${base}/pics/dock.jpg`, `http://2130706433:${port}/pics/dock.jpg`, `http://0x7f.1:${port}/pics/dock.jpg`, `http://0177.0.0.1:${port}/pics/dock.jpg`, `http://127.1:${port}/pics/dock.jpg`, `http://[::ffff:127.0.0.1]:${port}/pics/dock.jpg`, `http://localhost:${port}/pics/dock.jpg`]) {
      const r = await studio(ws.dir, ['asset', 'add', url, '--id', 'dock', '--role', 'picture', '--alt', 'Dock', '--json'])
      assert.equal(r.json.code, 'fetch_refused', `${url}: ${r.stdout}`)
      assert.doesNotMatch(r.stdout, /secret/)
    }
    for (const url of [`http://[::1]:${port}/pics/dock.jpg`, 'http://169.254.169.254/latest/meta-data/', 'http://[fd00::1]/x.jpg', 'http://10.0.0.1/x.jpg']) {
      const r = await studio(ws.dir, ['asset', 'add', url, '--id', 'dock', '--role', 'picture', '--alt', 'Dock', '--json'])
      assert.equal(r.json.code, 'fetch_refused', `${url}: ${r.stdout}`)
    }
    // A redirect to loopback from an address the switch allows (127.0.0.2 only) is refused at the hop.
    const hop = createServer((_req, res) => res.writeHead(302, { location: `${base}/pics/dock.jpg` }).end())
    await new Promise<void>((r) => hop.listen(0, '127.0.0.2', () => r()))
    try {
      const hopUrl = `http://127.0.0.2:${(hop.address() as AddressInfo).port}/moved.jpg`
      const redirected = await studio(ws.dir, ['asset', 'add', hopUrl, '--id', 'dock', '--role', 'picture', '--alt', 'Dock', '--json'], { env: { STUDIO_FETCH_ALLOW_PRIVATE: '127.0.0.2' } })
      assert.equal(redirected.json.code, 'fetch_refused', redirected.stdout)
      assert.doesNotMatch(redirected.stdout, /secret/)
    } finally {
      hop.close()
    }
    const allowed = await studio(ws.dir, ['asset', 'add', `${base}/pics/dock.jpg`, '--role', 'picture', '--alt', 'Dock', '--json'], { env: { STUDIO_FETCH_ALLOW_PRIVATE: '127.0.0.1' } })
    assert.equal(allowed.code, 0, allowed.stdout)
    assert.equal(allowed.json.asset.id, 'dock')
    await clean()
  })

  it('refuses a decompression bomb and bytes that are no picture, writing nothing', async () => {
    const before = await commitCount(ws.git)
    writeFileSync(join(ws.dir, 'bomb.png'), claimedPng(50_000, 50_000))
    const r = await studio(ws.dir, ['asset', 'add', 'bomb.png', '--role', 'picture', '--alt', 'Bomb', '--json'])
    assert.deepEqual([r.code, r.json.code, r.json.pointer], [2, 'invalid_input', '/file'])
    writeFileSync(join(ws.dir, 'page.jpg'), '<html>not a picture</html>')
    const page = await studio(ws.dir, ['asset', 'add', 'page.jpg', '--role', 'picture', '--alt', 'Page', '--json'])
    assert.equal(page.json.code, 'invalid_input')
    assert.equal(await commitCount(ws.git), before)
    assert.equal(existsSync(join(ws.dir, 'decks', ws.deckId, 'assets', 'bomb.png')), false)
  })

  it('answers 501 for an upload where no object store is set, naming what to set', async () => {
    const upload = await studio(ws.dir, ['asset', 'add', '--input', JSON.stringify({ upload: 'uploads/p1/big.jpg', id: 'tt', role: 'picture', alt: 'x' }), '--json'])
    assert.deepEqual([upload.code, upload.json.code, upload.json.pointer], [6, 'not_implemented', '/upload'])
    assert.match(upload.json.message, /STUDIO_S3_BUCKET/)
  })

  it('stores an SVG only after sanitizing it, with PNG twins drawn from the clean file', async () => {
    writeFileSync(join(ws.dir, 'mark.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" onload="alert(1)"><script>alert(2)</script><rect width="40" height="20" fill="#0a7d5a"/><image href="http://169.254.169.254/x"/></svg>')
    const r = await studio(ws.dir, ['asset', 'add', 'mark.svg', '--role', 'logo', '--alt', 'Mark', '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual([r.json.asset.format, r.json.asset.width, r.json.asset.height], ['svg', 40, 20])
    const removed = r.json.asset.sanitized as string[]
    assert.ok(removed.includes('script') && removed.includes('onload attribute') && removed.some((l) => /href|external/.test(l)), removed.join(', '))
    const stored = readFileSync(join(ws.dir, 'decks', ws.deckId, 'assets', 'mark.svg'), 'utf8')
    assert.doesNotMatch(stored, /script|onload|169\.254/)
    const twin = await sharp(join(ws.dir, r.json.twins[0])).metadata()
    assert.deepEqual([twin.format, twin.width, twin.height], ['png', 1600, 800])
    writeFileSync(join(ws.dir, 'mark.svg'), '<!DOCTYPE svg [<!ENTITY a "a">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>')
    const bomb = await studio(ws.dir, ['asset', 'add', 'mark.svg', '--id', 'mark-2', '--role', 'logo', '--alt', 'Mark', '--json'])
    assert.deepEqual([bomb.code, bomb.json.code], [2, 'invalid_input'])
  })

  it('sets a covering background picture from an asset or a file, replacing it in place, and the renderer draws it', async () => {
    const before = await commitCount(ws.git)
    const byAsset = await studio(ws.dir, ['slide', 'background-picture', 'title-1', '--asset', 'harbour', '--json'])
    assert.equal(byAsset.code, 0, byAsset.stdout)
    assert.deepEqual(byAsset.json.slides, [{ slideId: 'title-1', blockId: 'background' }])
    assert.equal(await commitCount(ws.git), before + 1)
    const slide = (await studio(ws.dir, ['slide', 'get', 'title-1', '--json'])).json.slide
    const covering = slide.blocks.filter((b: { background?: boolean }) => b.background)
    assert.equal(covering.length, 1)
    assert.equal(covering[0].asset, 'harbour')
    // From a file: asset.add runs first, in the same commit, and the covering picture is replaced in place.
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#d94f30' } }).png().toBuffer()
    writeFileSync(join(ws.dir, 'sunset.png'), png)
    const byFile = await studio(ws.dir, ['slide', 'background-picture', 'title-1', '--file', 'sunset.png', '--alt', 'A red sky', '--json'])
    assert.equal(byFile.code, 0, byFile.stdout)
    assert.equal(await commitCount(ws.git), before + 2)
    assert.deepEqual([byFile.json.asset.id, byFile.json.asset.role, byFile.json.slides[0].blockId], ['sunset', 'background', 'background'])
    const render = await studio(ws.dir, ['render', 'title-1', '--json'])
    const { data } = await sharp(join(ws.dir, render.json.renders[0].file)).extract({ left: 1500, top: 40, width: 4, height: 4 }).raw().toBuffer({ resolveWithObject: true })
    assert.deepEqual([data[0], data[1], data[2]].map((v) => Math.round(v / 16)), [0xd9, 0x4f, 0x30].map((v) => Math.round(v / 16)))
    const missing = await studio(ws.dir, ['slide', 'background-picture', 'title-1', '--asset', 'nope', '--json'])
    assert.deepEqual([missing.code, missing.json.code, missing.json.pointer], [3, 'not_found', '/assetId'])
    writeFileSync(join(ws.dir, 'sunset.png'), png)
    await ws.git('status', '--porcelain')
  })
})

