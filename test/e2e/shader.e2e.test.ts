/**
 * Shader materials through their CLI forms: the catalogue and the gallery, a shader block inserted
 * and set, its frame captured in headless Chromium (WebGL on SwiftShader), drawn by shader.render
 * and stored by shader.frame (409 when the recipe moved on), frames captured per anchor, a material
 * as a slide background, and the renderer showing a stored frame in place of the placeholder.
 *
 * Frames are drawn at a long side of 3200 (the spec's) but short: the blocks here are wide strips,
 * so a frame is 3200 × 200 and a test stays quick.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { cliInOneProcess, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('shader materials', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  const assets = () => join(ws.dir, 'decks', ws.deckId, 'assets')
  const slide = (id: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', ws.deckId, 'slides', `${id}.json`), 'utf8'))
  const block = (slideId: string, id: string) => slide(slideId).blocks.find((b: { id: string }) => b.id === id)
  /** git status, without the files the test itself writes outside the deck. */
  const clean = async () => assert.deepEqual((await ws.git('status', '--porcelain')).split('\n').filter((l) => l && !/ (out|frames)\//.test(l)), [])
  /** Runs a write: exactly one commit and a clean status, or none with `commits: 0`. */
  const write = async (args: string[], options: { stdin?: Buffer | string; env?: Record<string, string>; commits?: number } = {}) => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, [...args, '--json'], options)
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.equal(await commitCount(ws.git), before + (options.commits ?? 1), args.join(' '))
    await clean()
    return r.json
  }
  /** Runs a write that must be refused with nothing written. */
  const refused = async (args: string[], code: string, status: number, options: { stdin?: Buffer | string; env?: Record<string, string> } = {}) => {
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, [...args, '--json'], options)
    assert.equal(r.json?.code, code, r.stdout + r.stderr)
    assert.equal(r.json.status, status)
    assert.equal(await commitCount(ws.git), before)
    await clean()
    return r.json
  }

  before(async () => {
    ws = await workspaceWithDeck('Materials')
  })
  after(() => ws?.cleanup())

  it('lists the catalogue and the gallery: five chips, eleven controls, brand presets from the deck\'s brand kit', async () => {
    await write(['deck', 'brand-kit'], { stdin: JSON.stringify({ name: 'Acme', palette: { accent: '#ff3366', paper: '#fffaf0' } }) })
    const gallery = await studio(ws.dir, ['shader', 'list', '--json'])
    assert.equal(gallery.code, 0, gallery.stdout)
    const { shaders, controls, categories } = gallery.json
    assert.equal(shaders[0].id, 'paper:mesh-gradient')
    assert.ok(shaders.length >= 20 && shaders.every((s: { id: string }) => /^paper:[a-z0-9-]+$/.test(s.id)))
    assert.deepEqual(categories.map((c: { id: string }) => c.id), ['gradient', 'flow', 'pattern', 'light', 'texture'])
    assert.equal(controls.length, 11)
    for (const c of controls) assert.ok(typeof c.min === 'number' && c.max > c.min && c.sentence.endsWith('.'), c.name)
    const mesh = shaders[0]
    assert.deepEqual([mesh.featured, mesh.stills], ['dusk', ['docs/images/shaders/mesh-gradient.webp']])
    assert.deepEqual(mesh.uniforms.distortion, { type: 'number', minimum: 0, maximum: 1, default: 0.8, uniform: 'u_distortion', glslType: 'float', description: 'Organic noise distortion.' })
    const brand = mesh.presets.find((p: { name: string }) => p.name === 'brand')
    assert.deepEqual([brand.source, brand.uniforms.colors[0]], ['brand', '#ff3366'])
    const catalogue = await studio(ws.dir, ['material', 'list', '--json'])
    assert.equal(catalogue.json.materials.length, shaders.length)
    assert.equal(catalogue.json.materials[0].featured, undefined, 'material.list is shader.list without gallery fields')
    assert.ok(catalogue.json.engines.length && catalogue.json.engines.every((e: { id: string; available: boolean }) => e.id.startsWith('proto:') && e.available === false))
    assert.equal((await studio(ws.dir, ['material', 'list', '--material-id', 'paper:nothing', '--json'])).json.code, 'not_found')
  })

  it('inserts a shader block on a converted slide, in the largest free rectangle of the body, with controls and resolved uniforms', async () => {
    const r = await write(['shader', 'insert', 'title-1', 'paper:grain-gradient', '--preset', 'ember', '--controls', '{"speed":0.5,"grain":0}'])
    const s = slide('title-1')
    assert.equal(s.layout, 'freeform', 'a title slide converts to the canvas first')
    const b = r.block
    assert.deepEqual([b.id, b.kind, b.materialId, b.preset, b.motion, b.anchor], ['b1', 'shader', 'paper:grain-gradient', 'ember', 'play', 2400])
    assert.deepEqual([b.controls.speed, b.uniforms.speed, b.controls.grain, b.uniforms.noise, b.uniforms.shape], [0.5, 0.5, 0, 0, 'corners'])
    assert.equal(b.uniforms.colorBack, '#160804')
    assert.equal(Object.keys(b.controls).length, 11)
    // It takes the free room of the body: below the title, inside the content area, overlapping nothing.
    for (const other of s.blocks.filter((o: { id: string }) => o.id !== 'b1')) {
      const [p, q] = [b.pos, other.pos]
      assert.ok(p.x >= q.x + q.w || q.x >= p.x + p.w || p.y >= q.y + q.h || q.y >= p.y + p.h, `overlaps ${other.id}`)
    }
    assert.ok(b.pos.w * b.pos.h > 1440 * 784 * 0.25, JSON.stringify(b.pos))
    // A box given is where it lands.
    const strip = await write(['shader', 'insert', 'title-1', 'paper:mesh-gradient', '--at', '{"x":0,"y":800,"w":1600,"h":100}'])
    assert.deepEqual([strip.id, strip.block.pos, strip.block.preset], ['b2', { x: 0, y: 800, w: 1600, h: 100 }, 'dusk'])
    await refused(['shader', 'insert', 'title-1', 'paper:nothing'], 'not_found', 404)
    await refused(['shader', 'insert', 'title-1', 'paper:mesh-gradient', '--controls', '{"blend":0.5}'], 'invalid_input', 400)
  })

  it('sets a shader: a control writes controls and uniforms together, a preset clears both, other pointers are a plain set', async () => {
    let b = (await write(['shader', 'set', 'title-1', 'b2', '/controls/intensity', '0.3'])).block
    assert.deepEqual([b.controls.intensity, b.uniforms.distortion], [0.3, 0.3])
    b = (await write(['shader', 'set', 'title-1', 'b2', '/controls/hue', '90'])).block
    assert.deepEqual([b.controls.hue, b.uniforms.distortion], [90, 0.3], 'a second control keeps the first')
    assert.notEqual(b.uniforms.colors[0], '#ff6b6b')
    b = (await write(['shader', 'set', 'title-1', 'b2', '/preset', 'lagoon'])).block
    assert.deepEqual([b.preset, b.controls, b.uniforms], ['lagoon', undefined, undefined])
    b = (await write(['shader', 'set', 'title-1', 'b2', '/anchor', '1000'])).block
    assert.equal(b.anchor, 1000)
    await refused(['shader', 'set', 'title-1', 'b2', '/controls/blend', '0.5'], 'invalid_input', 400)
    await refused(['shader', 'set', 'title-1', 'b2', '/uniforms/nope', '1'], 'unknown_field', 400)
    await refused(['shader', 'set', 'title-1', 'b2', '/preset', 'nope'], 'invalid_input', 400)
    await refused(['shader', 'set', 'title-1', 'title', '/anchor', '1'], 'invalid_input', 400)
  })

  let placeholder: Buffer
  it('captures a block\'s frame server side as assets/frame-<frameKey>@2x.png, and again stores nothing', async () => {
    const drawn = await studio(ws.dir, ['render', 'title-1', '--out', 'out/before', '--json'])
    assert.equal(drawn.code, 0, drawn.stdout)
    placeholder = readFileSync(join(ws.dir, drawn.json.renders[0].file))
    const r = await write(['shader', 'capture', 'title-1', 'b2'])
    const key = r.asset.source.frameKey
    assert.match(key, /^[0-9a-f]{16}$/)
    assert.deepEqual([r.asset.id, r.asset.role, r.asset.width, r.asset.height, r.block.asset, r.stored], [`frame-${key}`, 'frame', 3200, 200, `frame-${key}`, true])
    const file = join(assets(), `frame-${key}@2x.png`)
    const meta = await sharp(file).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 3200, 200])
    assert.deepEqual(JSON.parse(readFileSync(join(assets(), `frame-${key}.json`), 'utf8')), r.asset)
    const again = await write(['shader', 'capture', 'title-1', 'b2'], { commits: 0 })
    assert.equal(again.stored, false)
  })

  it('shows the stored frame in the slide render where the placeholder was', async () => {
    const r = await studio(ws.dir, ['render', 'title-1', '--out', 'out/after', '--json'])
    assert.equal(r.code, 0, r.stdout)
    const rendered = readFileSync(join(ws.dir, r.json.renders[0].file))
    const region = { left: 0, top: 800, width: 1600, height: 100 }
    const pixels = (input: Buffer) => sharp(input).extract(region).removeAlpha().raw().toBuffer()
    const frame = await sharp(join(assets(), `${block('title-1', 'b2').asset}@2x.png`)).resize(1600, 100).removeAlpha().raw().toBuffer()
    const distance = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length
    const shown = await pixels(rendered)
    assert.ok(distance(shown, frame) < 6, `the block shows its frame (mean difference ${distance(shown, frame).toFixed(1)})`)
    assert.ok(distance(await pixels(placeholder), frame) > 20, 'the placeholder did not')
  })

  it('stores a frame drawn by shader.render with shader.frame, and answers 409 when the recipe moved on', async () => {
    const stale = block('title-1', 'b2').asset.slice('frame-'.length)
    await write(['shader', 'set', 'title-1', 'b2', '/anchor', '1200'])
    // The key of the recipe as it reads now: shader.render of the same recipe at the block's aspect.
    const drawn = await studio(ws.dir, ['shader', 'render', 'paper:mesh-gradient', '--preset', 'lagoon', '--time', '1200', '--size', '3200,200', '--out', 'frames/b2.png', '--json'])
    assert.equal(drawn.code, 0, drawn.stdout)
    assert.deepEqual([drawn.json.file, drawn.json.width, drawn.json.height], ['frames/b2.png', 3200, 200])
    const png = readFileSync(join(ws.dir, 'frames/b2.png'))
    const error = await refused(['shader', 'frame', 'title-1', 'b2', '--frame-key', stale], 'frame_stale', 409, { stdin: png })
    assert.equal(error.details.frameKey, drawn.json.frameKey)
    assert.equal(typeof error.currentRevision, 'number')
    assert.ok(error.current.slides['title-1'])
    const r = await write(['shader', 'frame', 'title-1', 'b2', '--frame-key', drawn.json.frameKey], { stdin: png })
    assert.deepEqual([r.block.asset, r.stored, r.removed], [`frame-${drawn.json.frameKey}`, true, [`frame-${stale}`]])
    assert.equal(readFileSync(join(assets(), `frame-${drawn.json.frameKey}@2x.png`)).equals(png), true)
    assert.equal(existsSync(join(assets(), `frame-${stale}@2x.png`)), false, 'the superseded frame is removed')
    assert.equal(existsSync(join(assets(), `frame-${stale}.json`)), false)
    // The same bytes under the same id store nothing; bytes that are no picture are refused.
    assert.equal((await write(['shader', 'frame', 'title-1', 'b2', '--frame-key', drawn.json.frameKey], { stdin: png, commits: 0 })).stored, false)
    await refused(['shader', 'frame', 'title-1', 'b2', '--frame-key', drawn.json.frameKey], 'invalid_input', 400, { stdin: Buffer.from('not a picture') })
    await refused(['shader', 'render', 'paper:mesh-gradient', '--size', '320,180'], 'invalid_input', 400)
    await refused(['shader', 'render', 'paper:mesh-gradient', '--size', '3200,100', '--out', 'frames'], 'invalid_input', 400)
  })

  it('captures a material at several anchors as assets <id>-<anchor>, one commit', async () => {
    const r = await write(['material', 'capture', 'paper:dot-orbit', '--anchor', '0,1200', '--size', '3200,200', '--input', '{"role":"mood","alt":"Orbiting dots"}'])
    assert.deepEqual(r.assets.map((a: { id: string }) => a.id), ['dot-orbit-dusk-0', 'dot-orbit-dusk-1200'])
    assert.deepEqual(r.assets.map((a: { role: string; alt: string }) => [a.role, a.alt]), [['mood', 'Orbiting dots'], ['mood', 'Orbiting dots']])
    const [a, b] = await Promise.all(['dot-orbit-dusk-0', 'dot-orbit-dusk-1200'].map((id) => readFileSync(join(assets(), `${id}@2x.png`))))
    assert.equal(a.equals(b), false, 'two anchors, two frames')
    await refused(['material', 'capture', 'paper:dot-orbit', '--anchor', '0', '--size', '3200,200', '--id', 'dot-orbit-dusk-0'], 'id_taken', 409)
  })

  it('sets a material as the background of slides: captured server side, or stored from the editor with no browser', async () => {
    const r = await write(['slide', 'background-material', 'title-1', 'paper:static-radial-gradient', '--preset', 'brand', '--anchor', '0'])
    assert.deepEqual(r.slides, [{ slideId: 'title-1', blockId: 'background' }])
    assert.match(r.asset.id, /^frame-[0-9a-f]{16}$/)
    assert.deepEqual([r.asset.width, r.asset.height], [3200, 1800])
    const cover = block('title-1', 'background')
    assert.deepEqual([cover.kind, cover.asset, cover.background, cover.pos, cover.z], ['picture', r.asset.id, true, { x: 0, y: 0, w: 1600, h: 900 }, 0])
    // The editor's frame: no Chromium (a broken one would fail the call), a key checked against the recipe.
    const frame = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#336699' } }).png().toBuffer()
    const noBrowser = { STUDIO_CHROMIUM: '/nonexistent/chromium' }
    const input = (frameKey: string) => JSON.stringify({ frame: { frameKey, bytes: frame.toString('base64') } })
    const args = ['slide', 'background-material', 'title-1', 'paper:mesh-gradient', '--preset', 'ember', '--input']
    const moved = await refused([...args, input('0000000000000000')], 'frame_stale', 409, { env: noBrowser })
    const placed = await write([...args, input(moved.details.frameKey)], { env: noBrowser })
    assert.equal(placed.asset.id, `frame-${moved.details.frameKey}`)
    assert.deepEqual(placed.removed, [r.asset.id], 'the replaced background frame goes')
    assert.equal(block('title-1', 'background').asset, placed.asset.id)
  })
})
