/**
 * Picture edits, appearance, tables and charts on the command line, against the contract fixture:
 * crop, mask, reset-image, adjust, alt, shadow, autofit, table.* and chart.*, each through its CLI
 * form as the spec writes it.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, commitCount, studio } from '../helpers/studio.js'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>

const slideOf = (ws: Ws, id: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`), 'utf8'))
const blockOf = (ws: Ws, slideId: string, blockId: string) => slideOf(ws, slideId).blocks.find((b: { id: string }) => b.id === blockId)
const assetOf = (ws: Ws, id: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'assets', `${id}.json`), 'utf8'))

async function oneCommit(ws: Ws, args: string[], stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(await commitCount(ws.git), before + 1, `${args.join(' ')}: one commit`)
  return r.json
}

async function refused(ws: Ws, args: string[], status: number, code: string, pointer?: string, stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.json?.status, status, `${args.join(' ')}: ${r.stdout}`)
  assert.equal(r.json.code, code)
  if (pointer !== undefined) assert.equal(r.json.pointer, pointer)
  assert.equal(await commitCount(ws.git), before, 'nothing committed')
  assert.equal(await ws.git('status', '--porcelain'), '')
}

describe('pictures, appearance, tables and charts on the command line', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('crops a picture by side fractions, and removes the crop when every side is 0', async () => {
    const result = await oneCommit(ws, ['block', 'crop', 'freeform-4#b3', '--left', '0.1', '--right', '0.2'])
    assert.deepEqual(result.block.crop, { left: 0.1, right: 0.2 })
    assert.deepEqual(blockOf(ws, 'freeform-4', 'b3').crop, { left: 0.1, right: 0.2 })
    await refused(ws, ['block', 'crop', 'freeform-4#b3', '--left', '0.6', '--right', '0.5'], 400, 'invalid_input', '/trim/right')
    await refused(ws, ['block', 'crop', 'freeform-4#b3', '--top', '2'], 400, 'invalid_input', '/trim/top')
    await refused(ws, ['block', 'crop', 'freeform-4#b1', '--top', '0.1'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['block', 'crop', 'freeform-4#b3', '--top', '0.1', '--rev', '0'], 409, 'stale_revision')
  })

  it('masks a picture to a shape preset and removes the mask with none', async () => {
    await oneCommit(ws, ['block', 'mask', 'freeform-4#b3', 'circle'])
    assert.equal(blockOf(ws, 'freeform-4', 'b3').mask, 'circle')
    await refused(ws, ['block', 'mask', 'freeform-4#b3', 'blob'], 400, 'invalid_input', '/mask')
    await refused(ws, ['block', 'mask', 'freeform-4#b9', 'circle'], 404, 'not_found', '/blockId')
    await refused(ws, ['block', 'mask', 'freeform-4#b3', 'circle', '--rev', '0'], 409, 'stale_revision')
  })

  it('adjusts brightness, contrast and transparency; null clears one and an absent one stays', async () => {
    await oneCommit(ws, ['block', 'adjust', 'freeform-4#b3', '--brightness', '0.2', '--contrast=-0.1', '--transparency', '0.5'])
    let picture = blockOf(ws, 'freeform-4', 'b3')
    assert.deepEqual([picture.brightness, picture.contrast, picture.transparency], [0.2, -0.1, 0.5])
    await oneCommit(ws, ['block', 'adjust', 'freeform-4#b3', '--contrast', 'null'])
    picture = blockOf(ws, 'freeform-4', 'b3')
    assert.deepEqual([picture.brightness, picture.contrast, picture.transparency], [0.2, undefined, 0.5])
    await refused(ws, ['block', 'adjust', 'freeform-4#b3'], 400, 'invalid_input', '/brightness')
    await refused(ws, ['block', 'adjust', 'freeform-4#b3', '--brightness', '3'], 400, 'invalid_input', '/brightness')
    await refused(ws, ['block', 'adjust', 'freeform-4#b3', '--brightness', '0', '--rev', '0'], 409, 'stale_revision')
  })

  it('resets a picture: crop, mask, adjustments, crop anchor and aspect go in one write', async () => {
    await oneCommit(ws, ['block', 'set', 'freeform-4#b3', '/cropAnchor', '{"x":0.5,"y":0.2}'])
    const result = await oneCommit(ws, ['block', 'reset-image', 'freeform-4#b3'])
    assert.deepEqual(result.removed, ['crop', 'mask', 'brightness', 'transparency', 'cropAnchor'])
    const picture = blockOf(ws, 'freeform-4', 'b3')
    assert.deepEqual(Object.keys(picture).sort(), ['asset', 'id', 'kind', 'pos', 'z'])
    await refused(ws, ['block', 'reset-image', 'freeform-4#b2'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['block', 'reset-image', 'freeform-4#b3', '--rev', '0'], 409, 'stale_revision')
  })

  it('writes alt text on the asset for a picture (shared by every picture of it) and on the block for a shape', async () => {
    const onAsset = await oneCommit(ws, ['block', 'alt', 'freeform-4#b3', 'The Acme logo'])
    assert.equal(onAsset.on, 'asset')
    assert.equal(onAsset.assetId, 'logo')
    assert.equal(onAsset.file, `decks/${FIXTURE_DECK}/assets/logo.json`)
    assert.deepEqual(assetOf(ws, 'logo'), { id: 'logo', role: 'logo', alt: 'The Acme logo' })
    assert.equal(blockOf(ws, 'freeform-4', 'b3').alt, undefined)
    const log = await ws.git('show', '--name-only', '--format=', 'HEAD')
    assert.match(log, /assets\/logo\.json/)
    assert.match(log, /deck\.json/)

    // An asset with a file and no record gets its record made.
    writeFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'assets', 'hero.png'), 'png')
    await ws.git('add', '-A')
    await ws.git('-c', 'user.name=t', '-c', 'user.email=t@studio.invalid', 'commit', '-qm', 'hero file')
    const picture = JSON.stringify({ id: 'p2', kind: 'picture', asset: 'hero', pos: { x: 0, y: 600, w: 200, h: 200 } })
    await oneCommit(ws, ['block', 'insert', 'freeform-4', '--slot', 'media'], picture)
    const created = await oneCommit(ws, ['block', 'alt', 'freeform-4#p2', 'A harbour at dawn'])
    assert.deepEqual(created.pictures, [{ slideId: 'freeform-4', blockId: 'p2' }])
    assert.deepEqual(assetOf(ws, 'hero'), { id: 'hero', role: 'picture', alt: 'A harbour at dawn' })

    const onBlock = await oneCommit(ws, ['block', 'alt', 'freeform-4#b1', 'A plan box'])
    assert.equal(onBlock.on, 'block')
    assert.equal(blockOf(ws, 'freeform-4', 'b1').alt, 'A plan box')
    await refused(ws, ['block', 'alt', 'title-body-2#b1', 'x'], 400, 'invalid_input', '/blockId')

    // A picture naming an asset the deck does not hold (written by hand): no record is made for it.
    const file = join(ws.dir, 'decks', FIXTURE_DECK, 'slides', 'freeform-4.json')
    const slide = JSON.parse(readFileSync(file, 'utf8'))
    slide.blocks.push({ id: 'ghost', kind: 'picture', asset: 'nowhere', pos: { x: 0, y: 0, w: 10, h: 10 }, z: slide.blocks.length })
    writeFileSync(file, JSON.stringify(slide, null, 2) + '\n')
    await ws.git('add', '-A')
    await ws.git('-c', 'user.name=t', '-c', 'user.email=t@studio.invalid', 'commit', '-qm', 'a picture by hand')
    await refused(ws, ['block', 'alt', 'freeform-4#ghost', 'Nothing'], 404, 'not_found', '/blockId')
    assert.equal(existsSync(join(ws.dir, 'decks', FIXTURE_DECK, 'assets', 'nowhere.json')), false)
    slide.blocks.pop()
    writeFileSync(file, JSON.stringify(slide, null, 2) + '\n')
    await ws.git('-c', 'user.name=t', '-c', 'user.email=t@studio.invalid', 'commit', '-qam', 'picture removed by hand')
    await refused(ws, ['block', 'alt', 'freeform-4#b1', 'x', '--rev', '0'], 409, 'stale_revision')
  })

  it('sets a shadow with defaults for absent members, and removes it', async () => {
    await oneCommit(ws, ['block', 'shadow', 'freeform-4#b1,b2', '--on', '--opacity', '0.5'])
    assert.deepEqual(blockOf(ws, 'freeform-4', 'b2').shadow, { color: 'ink', opacity: 0.5, angle: 45, distance: 8, blur: 16 })
    await oneCommit(ws, ['block', 'shadow', 'freeform-4#b2'])
    assert.equal(blockOf(ws, 'freeform-4', 'b2').shadow, undefined)
    assert.ok(blockOf(ws, 'freeform-4', 'b1').shadow)
    await refused(ws, ['block', 'shadow', 'freeform-4#b2', '--opacity', '2'], 400, 'invalid_input', '/shadow/opacity')
    await refused(ws, ['block', 'shadow', 'freeform-4#b2', '--on', '--rev', '0'], 409, 'stale_revision')
  })

  it('sets autofit and applies it: shrink writes a size step, grow writes the box height', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long paragraph that will not fit`).join('\n')
    await oneCommit(ws, ['block', 'set', 'freeform-4#b2', '/text', long])
    const shrunk = await oneCommit(ws, ['block', 'autofit', 'freeform-4#b2', 'shrink', '--apply'])
    assert.deepEqual(shrunk.written, ['/size'])
    assert.ok(shrunk.block.size < 28, `size ${shrunk.block.size}`)
    assert.equal(shrunk.block.autofit, 'shrink')
    await oneCommit(ws, ['block', 'set', 'freeform-4#b2', '/size'])
    const grown = await oneCommit(ws, ['block', 'autofit', 'freeform-4#b2', 'grow', '--apply'])
    assert.deepEqual(grown.written, ['/pos/h'])
    assert.ok(grown.block.pos.h > 120, `height ${grown.block.pos.h}`)
    const set = await oneCommit(ws, ['block', 'autofit', 'title-body-2#b2', 'none'])
    assert.deepEqual(set.written, [])
    assert.equal(blockOf(ws, 'title-body-2', 'b2').autofit, 'none')
    await refused(ws, ['block', 'autofit', 'title-body-2#b1', 'grow'], 400, 'refused', '/autofit')
    await refused(ws, ['block', 'autofit', 'freeform-4#b3', 'shrink'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['block', 'autofit', 'freeform-4#b2', 'tight'], 400, 'invalid_input', '/autofit')
    await refused(ws, ['block', 'autofit', 'freeform-4#b2', 'none', '--rev', '0'], 409, 'stale_revision')
  })

  it('shrinks a slotted block to the room its slot leaves it: after --apply the slot no longer overflows', async () => {
    const overflow = async () => {
      const lint = await studio(ws.dir, ['deck', 'lint', '--json'])
      return lint.json.findings.filter((f: { slideId: string; rule: string }) => f.slideId === 'title-body-2' && f.rule === 'overflow')
    }
    const long = Array.from({ length: 14 }, (_, i) => `Line ${i + 1} of a long paragraph that will not fit`).join('\n')
    await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/text', long])
    assert.equal((await overflow()).length, 1, 'the body slot overflows before the fit')
    const shrunk = await oneCommit(ws, ['block', 'autofit', 'title-body-2#b1', 'shrink', '--apply'])
    assert.deepEqual(shrunk.written, ['/size'])
    assert.ok(shrunk.block.size < 28, `size ${shrunk.block.size}`)
    assert.equal(blockOf(ws, 'title-body-2', 'b1').size, shrunk.block.size)
    assert.deepEqual(await overflow(), [])
  })

  it('inserts and removes table rows and columns, and sets a cell', async () => {
    await oneCommit(ws, ['table', 'insert-rows', 'two-columns-3#b3', '--at', '1', '--count', '2'])
    assert.deepEqual(blockOf(ws, 'two-columns-3', 'b3').rows, [['Metric', 'Value'], ['', ''], ['', ''], ['Lead time', '2 days']])
    await oneCommit(ws, ['table', 'remove-rows', 'two-columns-3#b3', '--rows', '1,2'])
    await oneCommit(ws, ['table', 'insert-columns', 'two-columns-3#b3', '--at', '1'])
    assert.deepEqual(blockOf(ws, 'two-columns-3', 'b3').rows, [['Metric', '', 'Value'], ['Lead time', '', '2 days']])
    await oneCommit(ws, ['table', 'set-cell', 'two-columns-3#b3', '0', '1', 'Before'])
    await oneCommit(ws, ['table', 'remove-columns', 'two-columns-3#b3', '--columns', '2'])
    assert.deepEqual(blockOf(ws, 'two-columns-3', 'b3').rows, [['Metric', 'Before'], ['Lead time', '']])

    await refused(ws, ['table', 'insert-rows', 'two-columns-3#b3', '--at', '9'], 404, 'not_found', '/at')
    await refused(ws, ['table', 'insert-rows', 'two-columns-3#b1'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['table', 'insert-rows', 'two-columns-3#b3', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['table', 'remove-rows', 'two-columns-3#b3', '--rows', '0,1'], 400, 'refused', '/rows')
    await refused(ws, ['table', 'remove-rows', 'two-columns-3#b3', '--rows', '5'], 404, 'not_found', '/rows/0')
    await refused(ws, ['table', 'remove-rows', 'two-columns-3#b3', '--rows', '0', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['table', 'insert-columns', 'two-columns-3#b3', '--at', '3'], 404, 'not_found', '/at')
    await refused(ws, ['table', 'insert-columns', 'two-columns-3#b3', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['table', 'remove-columns', 'two-columns-3#b3', '--columns', '0,1'], 400, 'refused', '/columns')
    await refused(ws, ['table', 'remove-columns', 'two-columns-3#b3', '--columns', '0', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['table', 'set-cell', 'two-columns-3#b3', '4', '0', 'x'], 404, 'not_found', '/row')
    await refused(ws, ['table', 'set-cell', 'two-columns-3#b3', '0', '4', 'x'], 404, 'not_found', '/column')
    await refused(ws, ['table', 'set-cell', 'two-columns-3#b3', '0', '0', 'x', '--rev', '0'], 409, 'stale_revision')
  })

  it('replaces chart data, refuses a series whose length is not the number of categories, and changes the chart type', async () => {
    const uneven = { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'Revenue', values: [12, 15, 19] }, { name: 'Cost', values: [3, 4] }] }
    await refused(ws, ['chart', 'data', 'freeform-4#b5'], 400, 'invalid_input', '/slides/freeform-4/blocks/4/data/series/1/values', JSON.stringify(uneven))
    const data = { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'Revenue', values: [12, 15, 19] }, { name: 'Cost', values: [3, 4, null] }] }
    const result = await oneCommit(ws, ['chart', 'data', 'freeform-4#b5'], JSON.stringify(data))
    assert.deepEqual(blockOf(ws, 'freeform-4', 'b5').data, data)
    assert.deepEqual(result.findings, [])
    await refused(ws, ['chart', 'data', 'freeform-4#b5'], 400, 'invalid_input', '/data/series/0/values/0', JSON.stringify({ categories: [], series: [{ name: 'x', values: ['a'] }] }))
    await refused(ws, ['chart', 'data', 'freeform-4#b1'], 400, 'invalid_input', '/blockId', JSON.stringify(data))
    await refused(ws, ['chart', 'data', 'freeform-4#b5', '--rev', '0'], 409, 'stale_revision', undefined, JSON.stringify(data))

    await oneCommit(ws, ['chart', 'type', 'freeform-4#b5', 'column', '--stacked'])
    let chart = blockOf(ws, 'freeform-4', 'b5')
    assert.equal(chart.chartType, 'column')
    assert.equal(chart.stacked, true)
    assert.deepEqual(chart.data, data, 'the data is kept')
    await oneCommit(ws, ['chart', 'type', 'freeform-4#b5', 'line'])
    chart = blockOf(ws, 'freeform-4', 'b5')
    assert.equal(chart.stacked, undefined)
    await refused(ws, ['chart', 'type', 'freeform-4#b5', 'pie', '--stacked'], 400, 'invalid_input', '/stacked')
    await refused(ws, ['chart', 'type', 'freeform-4#b5', 'radar'], 400, 'invalid_input', '/type')
    await refused(ws, ['chart', 'type', 'freeform-4#b5', 'bar', '--rev', '0'], 409, 'stale_revision')
  })

  it('leaves the deck valid after all of it', async () => {
    const result = await studio(ws.dir, ['validate', '--json'])
    assert.equal(result.json.valid, true, result.stdout)
  })
})
