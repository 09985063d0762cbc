/**
 * The two-tone pipeline through its CLI forms: asset.add --two-tone (source kept, 1-bit twins,
 * treatment and plate metrics), asset.dither (re-tone, fromRecorded, verifyCells, allTwoTone),
 * replaceSource, picture.dither (the non-destructive field, held by the model on every path),
 * picture.materialize (dry run, write, prune), background pictures with a dither, and the renderer
 * drawing the screen. Each write is one commit with a clean `git status`.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { cliInOneProcess, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

/** A 1200 × 800 photo-like picture: a dark left half fading to a light right half, with bands. */
async function gradient(width = 1200, height = 800): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = Math.max(0, Math.min(255, Math.round(255 * (x / width) + 40 * Math.sin(y / 50))))
      raw.set([v, Math.max(0, v - 20), Math.min(255, v + 20)], (y * width + x) * 3)
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer()
}

/** Bit depth and colour type of a PNG (IHDR). */
const pngKind = (bytes: Buffer) => ({ depth: bytes[24], colourType: bytes[25] })

describe('two-tone pictures', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let assets = ''
  before(async () => {
    ws = await workspaceWithDeck('Two tone')
    writeFileSync(join(ws.dir, 'harbour.jpg'), await gradient())
    writeFileSync(join(ws.dir, 'night.jpg'), await gradient(600, 400))
    assets = join(ws.dir, 'decks', ws.deckId, 'assets')
  })
  after(() => ws?.cleanup())

  const clean = async () => assert.deepEqual((await ws.git('status', '--porcelain')).trim().split('\n').sort(), ['?? harbour.jpg', '?? night.jpg'])
  const run = async (args: string[]) => {
    const r = await studio(ws.dir, [...args, '--json'])
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
    return r.json
  }

  it('asset add --two-tone keeps the source and stores 1-bit twins with the treatment and plate clearance, in one commit', async () => {
    const before = await commitCount(ws.git)
    const r = await run(['asset', 'add', 'harbour.jpg', '--role', 'picture', '--alt', 'Cranes at dusk', '--two-tone', '--plate', 'lower-right'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const { asset, metrics, twins } = r
    assert.deepEqual(twins, [`decks/${ws.deckId}/assets/harbour@1x.png`, `decks/${ws.deckId}/assets/harbour@2x.png`])
    assert.equal(asset.sourceFile, 'harbour.source.jpg')
    assert.ok(existsSync(join(assets, 'harbour.source.jpg')))
    assert.equal(existsSync(join(assets, 'harbour.jpg')), false, 'a two-tone asset is drawn from its twins')
    assert.deepEqual(asset.treatment, { pattern: 'bayer8', tone: 'two', cell: 2, black: 0, white: 1, gamma: 1, polarity: 'normal' })
    for (const [i, twin] of twins.entries()) {
      const bytes = readFileSync(join(ws.dir, twin))
      assert.deepEqual(pngKind(bytes), { depth: 1, colourType: 3 }, 'a 1-bit palette PNG')
      assert.deepEqual([(await sharp(bytes).metadata()).width, (await sharp(bytes).metadata()).height], [1600 * (i + 1), 1067 * (i + 1) - i])
    }
    // The right of the picture is light: the lower-right plate is mostly paper; the ink share is about half.
    assert.equal(metrics.plate.name, 'lower-right')
    assert.ok(metrics.plate.clearance > 0.6, JSON.stringify(metrics))
    assert.ok(metrics.coverage[0] > 0.3 && metrics.coverage[0] < 0.7, JSON.stringify(metrics))
    assert.deepEqual(JSON.parse(readFileSync(join(assets, 'harbour.json'), 'utf8')), asset)
  })

  it('asset dither re-tones from the kept source, and verifies committed twins cell for cell without writing', async () => {
    const before = await commitCount(ws.git)
    const lighter = await run(['asset', 'dither', 'harbour', '--gamma', '2', '--pattern', 'blue64', '--cell', '3'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const [asset] = lighter.assets
    assert.deepEqual([asset.treatment.gamma, asset.treatment.pattern, asset.treatment.cell], [2, 'blue64', 3])
    assert.ok(asset.metrics.coverage[0] < 0.4, 'gamma 2 lightens the picture')
    assert.equal(lighter.clearance.harbour, asset.metrics.plate.clearance)
    // Verifying answers 0 differing cells and writes nothing.
    const verified = await run(['asset', 'dither', 'harbour', '--from-recorded', '--verify-cells'])
    assert.deepEqual(verified.cells, { harbour: 0 })
    assert.equal(await commitCount(ws.git), before + 1)
    // A twin changed by hand (one pixel of a 3 × 3 cell, committed) is caught both ways.
    const file = join(assets, 'harbour@1x.png')
    const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true })
    const at = (10 * info.width + 10) * info.channels
    for (let c = 0; c < 3; c++) data[at + c] = 255 - data[at + c]
    writeFileSync(file, await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer())
    await ws.git('commit', '-qam', 'hand edit')
    const recorded = await run(['asset', 'dither', 'harbour', '--from-recorded'])
    assert.equal(recorded.cells.harbour, 1)
    const regenerated = await run(['asset', 'dither', 'harbour', '--verify-cells'])
    assert.equal(regenerated.cells.harbour, 1)
  })

  it('asset dither turns a plain picture two-tone, and --all-two-tone re-tones every two-tone asset', async () => {
    await run(['asset', 'add', 'night.jpg', '--role', 'picture', '--alt', 'The quay at night'])
    const before = await commitCount(ws.git)
    const r = await run(['asset', 'dither', 'night', '--tone', 'three'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    assert.deepEqual(readdirSync(assets).filter((n) => n.startsWith('night')).sort(), ['night.json', 'night.source.jpg', 'night@1x.png', 'night@2x.png'])
    assert.deepEqual(pngKind(readFileSync(join(assets, 'night@1x.png'))), { depth: 2, colourType: 3 }, 'three tones: a 2-bit palette PNG')
    assert.equal(r.assets[0].metrics.coverage.length, 3)
    const all = await run(['asset', 'dither', '--all-two-tone', '--input', '{"params":{"black":0.2}}'])
    assert.deepEqual(all.assets.map((a: { id: string }) => a.id), ['harbour', 'night'])
    assert.ok(all.assets.every((a: { treatment: { black: number } }) => a.treatment.black === 0.2))
    assert.equal(all.assets[1].treatment.tone, 'three', 'params merge over each recorded treatment')
  })

  it('asset add --replace-source attaches a continuous source to an existing asset instead of adding one', async () => {
    const before = await commitCount(ws.git)
    const r = await run(['asset', 'add', 'harbour.jpg', '--role', 'picture', '--alt', 'unused', '--replace-source', 'night'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    assert.equal(r.asset.id, 'night')
    assert.equal(r.asset.sourceFile, 'night.source.jpg')
    assert.equal(r.asset.sourceDigest, (await import('node:crypto')).createHash('sha256').update(readFileSync(join(assets, 'night.source.jpg'))).digest('hex'))
    assert.equal((await sharp(join(assets, 'night.source.jpg')).metadata()).width, 1200, 'the new source replaced the old one')
    const missing = await studio(ws.dir, ['asset', 'add', 'harbour.jpg', '--role', 'picture', '--alt', 'x', '--replace-source', 'nope', '--json'])
    assert.deepEqual([missing.json.code, missing.json.pointer], ['not_found', '/replaceSource'])
    assert.equal(await commitCount(ws.git), before + 1)
  })

  it('block dither writes the field, answers the variant and its metrics; the model refuses a bad screen on every path', async () => {
    await run(['asset', 'add', 'harbour.jpg', '--id', 'photo', '--role', 'picture', '--alt', 'The harbour'])
    await run(['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [{ kind: 'block.insert', block: { id: 'p', kind: 'picture', asset: 'photo', pos: { x: 700, y: 150, w: 800, h: 600 } } }] })])
    const before = await commitCount(ws.git)
    const r = await run(['block', 'dither', 'title-1#p', '--pattern', 'bayer4', '--cell', '2', '--strength', '1'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    assert.deepEqual(r.block.dither, { pattern: 'bayer4', cell: 2, strength: 1 })
    assert.match(r.variant, /^[0-9a-f]{16}$/)
    // Cover fit of a 3:2 picture in an 800 × 600 box: drawn at 900 × 600.
    assert.deepEqual([r.metrics.width, r.metrics.height], [900, 600])
    // black at or above white: refused by block dither and by block set alike, nothing written.
    const bad = await studio(ws.dir, ['block', 'dither', 'title-1#p', '--black', '0.8', '--white', '0.3', '--json'])
    assert.deepEqual([bad.code, bad.json.code], [2, 'invalid_input'])
    assert.match(bad.json.pointer, /\/blocks\/\d+\/dither\/black$/)
    const viaSet = await studio(ws.dir, ['block', 'set', 'title-1#p', '/dither', '{"black":0.9,"white":0.1}', '--json'])
    assert.deepEqual([viaSet.json.code, viaSet.json.pointer?.replace(/\/blocks\/\d+/, '/blocks/N')], ['invalid_input', '/slides/title-1/blocks/N/dither/black'], viaSet.stdout)
    const unknown = await studio(ws.dir, ['block', 'set', 'title-1#p', '/dither', '{"pattern":"zigzag"}', '--json'])
    assert.equal(unknown.json.code, 'invalid_input', unknown.stdout)
    assert.match(unknown.json.pointer, /dither\/pattern$/, unknown.stdout)
    // The same path sets a good screen.
    const good = await studio(ws.dir, ['block', 'set', 'title-1#p', '/dither/pattern', '"random"', '--json'])
    assert.equal(good.code, 0, good.stdout)
    assert.equal(await commitCount(ws.git), before + 2)
    await clean()
  })

  it('the renderer draws a dithered picture in ink and paper only, and materialize writes the same variant', async () => {
    const rendered = await run(['render', 'title-1'])
    const png = join(ws.dir, rendered.renders[0].file)
    // The picture's box (700,150 800×600): every pixel ink (#111111) or paper (#ffffff) of the theme.
    const { data, info } = await sharp(png).extract({ left: 710, top: 160, width: 780, height: 580 }).raw().toBuffer({ resolveWithObject: true })
    let twoTone = 0
    for (let i = 0; i < data.length; i += info.channels) if ((data[i] === 0x11 && data[i + 1] === 0x11 && data[i + 2] === 0x11) || (data[i] === 255 && data[i + 1] === 255 && data[i + 2] === 255)) twoTone++
    assert.ok(twoTone / (info.width * info.height) > 0.99, `${twoTone} of ${info.width * info.height} pixels in ink or paper`)
    const dry = await run(['picture', 'materialize', 'all', '--dry-run'])
    const before = await commitCount(ws.git)
    assert.equal(dry.missing.length, 1)
    assert.match(dry.missing[0], new RegExp(`assets/photo\\.dither-[0-9a-f]{16}@2x\\.png$`))
    assert.equal(existsSync(join(ws.dir, dry.missing[0])), false, 'a dry run writes nothing')
    const real = await run(['picture', 'materialize', 'all'])
    assert.deepEqual(real.written, dry.missing)
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const variant = await sharp(join(ws.dir, real.written[0])).metadata()
    assert.deepEqual([variant.width, variant.height], [1800, 1200])
    const record = JSON.parse(readFileSync(join(assets, 'photo.json'), 'utf8'))
    assert.equal(record.variants.length, 1)
    // Once written, nothing is missing; a changed dither leaves the old file to prune.
    assert.deepEqual((await run(['picture', 'materialize', 'all', '--dry-run'])).missing, [])
    await run(['block', 'dither', 'title-1#p', '--pattern', 'blue64'])
    const pruned = await run(['picture', 'materialize', 'all', '--prune'])
    assert.deepEqual(pruned.pruned, real.written)
    assert.equal(existsSync(join(ws.dir, real.written[0])), false)
    assert.equal(pruned.written.length, 1)
    await clean()
    // --off removes the field; the old variant stays in history and goes with the next prune.
    const off = await run(['block', 'dither', 'title-1#p', '--off'])
    assert.equal(off.block.dither, undefined)
    assert.equal(off.variant, null)
    assert.deepEqual((await run(['picture', 'materialize', 'all', '--prune'])).pruned, pruned.written)
  })

  it('material capture --two-tone keeps the frame as the source and screens it; background-material --dither screens the frame', async () => {
    const before = await commitCount(ws.git)
    const r = await run(['material', 'capture', 'paper:mesh-gradient', '--anchor', '0', '--two-tone', '--plate', 'lower-left'])
    assert.equal(await commitCount(ws.git), before + 1)
    await clean()
    const asset = r.asset
    assert.equal(asset.sourceFile, `${asset.id}.source.png`)
    assert.deepEqual(asset.twins, [`${asset.id}@1x.png`, `${asset.id}@2x.png`])
    assert.equal(asset.source.materialId, 'paper:mesh-gradient', 'the frame record is kept')
    assert.equal(asset.metrics.plate.name, 'lower-left')
    assert.deepEqual(pngKind(readFileSync(join(assets, `${asset.id}@2x.png`))), { depth: 1, colourType: 3 })
    const placed = await run(['slide', 'background-material', 'title-1', 'paper:mesh-gradient', '--dither'])
    const slide = (await run(['slide', 'get', 'title-1'])).slide
    const covering = slide.blocks.find((b: { id: string }) => b.id === placed.slides[0].blockId)
    assert.deepEqual([covering.background, covering.dither, covering.asset], [true, {}, placed.asset.id])
    // A frame has only its @2x file: the screen is drawn from it.
    const drawn = await run(['picture', 'materialize', 'all', '--dry-run'])
    assert.ok(drawn.missing.some((f: string) => f.includes(`${placed.asset.id}.dither-`)), drawn.missing.join(' '))
    await clean()
  })

  it('a two-tone shader block draws its frame under the screen, and materialize writes it', async () => {
    await run(['deck', 'create', 'Shaders', '--from', 'blank', '--id', 'shaders'])
    const deck = ['--deck', 'shaders']
    const inserted = await run(['shader', 'insert', 'title-1', 'paper:mesh-gradient', '--at', '{"x":800,"y":100,"w":700,"h":700}', ...deck])
    const id = inserted.block.id
    await run(['shader', 'capture', 'title-1', id, ...deck])
    await run(['shader', 'set', 'title-1', id, '/twoTone', 'true', ...deck])
    const rendered = await run(['render', 'title-1', ...deck])
    const { data, info } = await sharp(join(ws.dir, rendered.renders[0].file)).extract({ left: 820, top: 120, width: 660, height: 660 }).raw().toBuffer({ resolveWithObject: true })
    let twoTone = 0
    for (let i = 0; i < data.length; i += info.channels) if ((data[i] === 0x11 && data[i + 1] === 0x11 && data[i + 2] === 0x11) || (data[i] === 255 && data[i + 1] === 255 && data[i + 2] === 255)) twoTone++
    assert.ok(twoTone / (info.width * info.height) > 0.99, `${twoTone} of ${info.width * info.height} pixels in ink or paper`)
    const written = await run(['picture', 'materialize', 'all', ...deck])
    assert.equal(written.written.length, 1)
    assert.match(written.written[0], /assets\/frame-[0-9a-f]{16}\.dither-[0-9a-f]{16}@2x\.png$/)
    await clean()
  })

  it('background-picture --dither places a screened covering picture', async () => {
    const r = await run(['slide', 'background-picture', 'title-1', '--asset', 'photo', '--dither', '--deck', ws.deckId])
    const slide = (await run(['slide', 'get', 'title-1', '--deck', ws.deckId])).slide
    const covering = slide.blocks.find((b: { id: string }) => b.id === r.slides[0].blockId)
    assert.deepEqual([covering.background, covering.dither], [true, {}])
    await clean()
  })
})
