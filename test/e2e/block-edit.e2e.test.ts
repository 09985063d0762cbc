/**
 * Block editing on the command line, against the contract fixture: get, set, insert, remove, move,
 * duplicate, order, group, ungroup, regroup and lock, each through its CLI form as the spec writes it.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, commitCount, studio } from '../helpers/studio.js'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>

const slideOf = (ws: Ws, id: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`), 'utf8'))
const blockOf = (ws: Ws, slideId: string, blockId: string) => slideOf(ws, slideId).blocks.find((b: { id: string }) => b.id === blockId)

/** Runs a mutating command that must succeed with exactly one commit; answers its JSON result. */
async function oneCommit(ws: Ws, args: string[], stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(await commitCount(ws.git), before + 1, `${args.join(' ')}: one commit`)
  return r.json
}

/** Runs a command that must fail with this status, code and pointer, writing nothing. */
async function refused(ws: Ws, args: string[], status: number, code: string, pointer?: string, stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.json?.status, status, `${args.join(' ')}: ${r.stdout}`)
  assert.equal(r.json.code, code)
  if (pointer !== undefined) assert.equal(r.json.pointer, pointer)
  assert.equal(await commitCount(ws.git), before, 'nothing committed')
  assert.equal(await ws.git('status', '--porcelain'), '')
  return r.json
}

describe('block editing on the command line', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('reads a block with the box it is drawn at, its slot and its assets', async () => {
    const text = await studio(ws.dir, ['block', 'get', 'title-body-2#b1', '--json'])
    assert.equal(text.code, 0, text.stdout)
    assert.equal(text.json.block.text, 'Costs fell by half at Acme.\nMargins grew.')
    assert.equal(text.json.slot, 'body')
    assert.equal(typeof text.json.box.w, 'number')
    assert.equal(text.json.revision, 3)
    const picture = await studio(ws.dir, ['block', 'get', 'freeform-4#b3', '--json'])
    assert.deepEqual(picture.json.box, { x: 1000, y: 100, w: 300, h: 300 })
    assert.deepEqual(picture.json.assets, [{ id: 'logo', role: 'logo', alt: 'Acme logo' }])
    const missing = await studio(ws.dir, ['block', 'get', 'title-body-2#zz', '--json'])
    assert.equal(missing.json.status, 404)
    assert.equal(missing.json.pointer, '/blockId')
  })

  it('sets a property at a pointer inside the block, and deletes it when the value is omitted', async () => {
    const set = await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/text', 'New'])
    assert.equal(set.block.text, 'New')
    assert.equal(set.slide.id, 'title-body-2')
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, 'New')
    await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/spacing/line', '1.5'])
    assert.deepEqual(blockOf(ws, 'title-body-2', 'b1').spacing, { line: 1.5 })
    await oneCommit(ws, ['block', 'set', 'title-body-2#b2', '/items/1/level', '3'])
    assert.equal(blockOf(ws, 'title-body-2', 'b2').items[1].level, 3)
    await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/spacing'])
    assert.equal(blockOf(ws, 'title-body-2', 'b1').spacing, undefined)
  })

  it('renames a block and the connector ends attached to it', async () => {
    await oneCommit(ws, ['block', 'set', 'freeform-4#b2', '/id', 'build'])
    const line = blockOf(ws, 'freeform-4', 'b4')
    assert.equal(line.end.block, 'build')
    await oneCommit(ws, ['block', 'set', 'freeform-4#build', '/id', 'b2'])
    await refused(ws, ['block', 'set', 'freeform-4#b2', '/id', 'b1'], 409, 'id_taken', '/value')
  })

  it('refuses a member the block schema does not have, and a stale revision, writing nothing', async () => {
    const bad = await refused(ws, ['block', 'set', 'title-body-2#b1', '/colour', 'red'], 400, 'invalid_input')
    assert.match(bad.pointer, /\/colour$/)
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/text', 'x', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/text/0', 'x'], 400, 'invalid_input', '/path')
    await refused(ws, ['block', 'set', 'title-body-2#b2', '/items/7/text', 'x'], 400, 'invalid_input', '/path')
    await refused(ws, ['block', 'set', 'nope#b1', '/text', 'x'], 404, 'not_found', '/slideId')
  })

  it('inserts a block into a slot after a sibling, and answers 409 id_taken for an id the slide already uses', async () => {
    const taken = await refused(ws, ['block', 'insert', 'title-body-2', '--slot', 'body', '--after', 'b1'], 409, 'id_taken', '/block/id', JSON.stringify({ id: 'b2', kind: 'text', text: 'x' }))
    assert.match(taken.message, /already has a block "b2".*b3 is free/)
    const block = JSON.stringify({ id: 'b3', kind: 'text', text: 'Margins grew by a third.' })
    const result = await oneCommit(ws, ['block', 'insert', 'title-body-2', '--slot', 'body', '--after', 'b1'], block)
    assert.equal(result.id, 'b3')
    const ids = slideOf(ws, 'title-body-2').blocks.map((b: { id: string }) => b.id)
    assert.deepEqual(ids, ['title', 'b1', 'b3', 'b2'])
    assert.equal(blockOf(ws, 'title-body-2', 'b3').slot, 'body')
    const first = await oneCommit(ws, ['block', 'insert', 'two-columns-3', '--slot', 'right'], JSON.stringify({ id: 'lead', kind: 'heading', text: 'After' }))
    assert.deepEqual(first.slide.blocks.map((b: { id: string }) => b.id), ['title', 'b1', 'lead', 'b2', 'b3'])
  })

  it('inserts a positioned block on a slotted slide: the slide becomes a canvas and the block lands on top, in one commit', async () => {
    const block = JSON.stringify({ id: 'note', kind: 'textbox', text: 'Draft', pos: { x: 1200, y: 40, w: 300, h: 80 } })
    const result = await oneCommit(ws, ['block', 'insert', 'title-1', '--slot', 'body'], block)
    const slide = slideOf(ws, 'title-1')
    assert.equal(slide.layout, 'freeform')
    assert.equal(slide.title, undefined, 'the title field became a block')
    const note = slide.blocks.find((b: { id: string }) => b.id === 'note')
    assert.deepEqual(note.pos, { x: 1200, y: 40, w: 300, h: 80 })
    assert.equal(note.slot, undefined)
    assert.equal(note.z, slide.blocks.length - 1)
    for (const b of slide.blocks) assert.ok(b.pos, `${b.id} has a box`)
    assert.equal(result.block.id, 'note')
  })

  it('gives a block inserted on a canvas without a box the content box width and its text height, on top', async () => {
    const result = await oneCommit(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], JSON.stringify({ id: 'caption', kind: 'text', text: 'Plan, then build.' }))
    const { contentBox } = await import('../../src/layout/index.js')
    assert.equal(result.block.pos.x, contentBox().x)
    assert.equal(result.block.pos.w, contentBox().w)
    assert.ok(result.block.pos.h > 0)
    assert.equal(result.block.slot, undefined)
    assert.equal(result.block.z, 5)
    await oneCommit(ws, ['block', 'remove', 'freeform-4#caption'])
  })

  it('refuses an insert after a block of another slot, an unknown sibling and a stale revision', async () => {
    const block = JSON.stringify({ id: 'x1', kind: 'text', text: 'x' })
    await refused(ws, ['block', 'insert', 'two-columns-3', '--slot', 'left', '--after', 'b2'], 400, 'invalid_input', '/after', block)
    await refused(ws, ['block', 'insert', 'two-columns-3', '--slot', 'left', '--after', 'zz'], 404, 'not_found', '/after', block)
    await refused(ws, ['block', 'insert', 'two-columns-3', '--slot', 'left', '--rev', '0'], 409, 'stale_revision', undefined, block)
    await refused(ws, ['block', 'insert', 'two-columns-3', '--slot', 'left'], 400, 'invalid_input', undefined, JSON.stringify({ id: 'x1', kind: 'text' }))
  })

  it('moves a block to another slot, after a sibling or first', async () => {
    await oneCommit(ws, ['block', 'move', 'two-columns-3#b1', '--slot', 'right', '--after', 'b2'])
    let slide = slideOf(ws, 'two-columns-3')
    assert.deepEqual(slide.blocks.map((b: { id: string }) => b.id), ['title', 'lead', 'b2', 'b1', 'b3'])
    assert.equal(blockOf(ws, 'two-columns-3', 'b1').slot, 'right')
    await oneCommit(ws, ['block', 'move', 'two-columns-3#b1', '--slot', 'left'])
    slide = slideOf(ws, 'two-columns-3')
    assert.equal(blockOf(ws, 'two-columns-3', 'b1').slot, 'left')
    await refused(ws, ['block', 'move', 'two-columns-3#b1', '--slot', 'left', '--after', 'b1'], 400, 'invalid_input', '/after')
    await refused(ws, ['block', 'move', 'two-columns-3#b9', '--slot', 'left'], 404, 'not_found', '/blockId')
    await refused(ws, ['block', 'move', 'two-columns-3#b1', '--slot', 'right', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['block', 'move', 'freeform-4#b1', '--slot', 'body'], 400, 'refused', '/slot')
  })

  it('removes a block', async () => {
    await refused(ws, ['block', 'remove', 'freeform-4#b9'], 404, 'not_found', '/blockId')
    await refused(ws, ['block', 'remove', 'freeform-4#b2', '--rev', '0'], 409, 'stale_revision')
    const result = await oneCommit(ws, ['block', 'remove', 'two-columns-3#lead'])
    assert.equal(result.removed, 'lead')
    assert.equal(blockOf(ws, 'two-columns-3', 'lead'), undefined)
  })

  it('duplicates objects: fresh ids after the originals, 16 px right and down, on top, connectors on the copies', async () => {
    const result = await oneCommit(ws, ['block', 'duplicate', 'freeform-4', '--blocks', 'b1,b2,b4'])
    assert.deepEqual(result.blocks, [
      { id: 'b6', from: 'b1' },
      { id: 'b7', from: 'b2' },
      { id: 'b8', from: 'b4' },
    ])
    const slide = slideOf(ws, 'freeform-4')
    assert.deepEqual(slide.blocks.map((b: { id: string }) => b.id), ['b1', 'b6', 'b2', 'b7', 'b3', 'b4', 'b8', 'b5'])
    const b1 = blockOf(ws, 'freeform-4', 'b1')
    const b6 = blockOf(ws, 'freeform-4', 'b6')
    assert.deepEqual(b6.pos, { ...b1.pos, x: b1.pos.x + 16, y: b1.pos.y + 16 })
    const top = Math.max(...slide.blocks.map((b: { z: number }) => b.z))
    assert.deepEqual([b6.z, blockOf(ws, 'freeform-4', 'b7').z, blockOf(ws, 'freeform-4', 'b8').z], [top - 2, top - 1, top])
    const copy = blockOf(ws, 'freeform-4', 'b8')
    assert.equal(copy.start.block, 'b6')
    assert.equal(copy.end.block, 'b7')
    assert.deepEqual(copy.from, { x: b6.pos.x + b6.pos.w, y: b6.pos.y + b6.pos.h / 2 })
    await refused(ws, ['block', 'duplicate', 'freeform-4', '--blocks', 'b1,b99'], 404, 'not_found', '/blockIds/1')
    await refused(ws, ['block', 'duplicate', 'freeform-4', '--blocks', 'b1', '--rev', '0'], 409, 'stale_revision')

    // Removing a connector's target: the connector lets go of it and stays where it is drawn.
    const removed = await oneCommit(ws, ['block', 'remove', 'freeform-4#b7'])
    assert.deepEqual(removed.detached, ['b8'])
    const line = blockOf(ws, 'freeform-4', 'b8')
    assert.equal(line.end, undefined)
    assert.equal(line.start.block, 'b6')
    assert.deepEqual(line.to, copy.to)
  })

  it('orders the stack densely: front, back, forward, backward and a rank', async () => {
    const front = await oneCommit(ws, ['block', 'order', 'freeform-4#b1', '--move', 'front'])
    assert.equal(front.order.at(-1), 'b1')
    const zs = slideOf(ws, 'freeform-4').blocks.map((b: { z: number }) => b.z).sort((a: number, b: number) => a - b)
    assert.deepEqual(zs, [...zs.keys()])
    await oneCommit(ws, ['block', 'order', 'freeform-4#b1', '--z', '0'])
    assert.equal(blockOf(ws, 'freeform-4', 'b1').z, 0)
    await oneCommit(ws, ['block', 'order', 'freeform-4#b1', '--move', 'forward'])
    assert.equal(blockOf(ws, 'freeform-4', 'b1').z, 1)
    await refused(ws, ['block', 'order', 'freeform-4#b1'], 400, 'invalid_input', '/move')
    await refused(ws, ['block', 'order', 'freeform-4#zz', '--move', 'back'], 404, 'not_found', '/blockId')
    await refused(ws, ['block', 'order', 'freeform-4#b1', '--move', 'back', '--rev', '0'], 409, 'stale_revision')
  })

  it('groups objects under a generated tag, ungroups them, and regroups the remembered set from one former member', async () => {
    const grouped = await oneCommit(ws, ['block', 'group', 'freeform-4', '--blocks', 'b1,b2,b3'])
    assert.equal(grouped.group, 'group-1')
    assert.deepEqual(grouped.blockIds, ['b1', 'b2', 'b3'])
    assert.equal(blockOf(ws, 'freeform-4', 'b3').group, 'group-1')
    await refused(ws, ['block', 'group', 'freeform-4', '--blocks', 'b1'], 400, 'invalid_input', '/blockIds')
    await refused(ws, ['block', 'group', 'freeform-4', '--blocks', 'b1,b2', '--rev', '0'], 409, 'stale_revision')

    const ungrouped = await oneCommit(ws, ['block', 'ungroup', 'freeform-4', '--group', 'group-1'])
    assert.deepEqual(ungrouped.ungrouped, [{ group: 'group-1', blockIds: ['b1', 'b2', 'b3'] }])
    for (const id of ['b1', 'b2', 'b3']) assert.equal(blockOf(ws, 'freeform-4', id).group, undefined)
    const memory = JSON.parse(readFileSync(join(ws.dir, '.studio', 'ungrouped.json'), 'utf8'))
    assert.deepEqual(memory[FIXTURE_DECK]['freeform-4']['group-1'], ['b1', 'b2', 'b3'])
    assert.equal(await ws.git('status', '--porcelain'), '', 'the memory is local state, never committed')
    await refused(ws, ['block', 'ungroup', 'freeform-4', '--group', 'nope'], 404, 'not_found', '/group')
    await refused(ws, ['block', 'ungroup', 'freeform-4', '--blocks', 'b1', '--rev', '0'], 409, 'stale_revision')

    const regrouped = await oneCommit(ws, ['block', 'regroup', 'freeform-4', '--blocks', 'b2', '--as', 'group-1'])
    assert.deepEqual(regrouped.blockIds, ['b1', 'b2', 'b3'])
    assert.deepEqual(regrouped.remembered, ['b1', 'b2', 'b3'])
    assert.equal(blockOf(ws, 'freeform-4', 'b1').group, 'group-1')
    assert.equal(existsSync(join(ws.dir, '.studio', 'ungrouped.json')) && JSON.parse(readFileSync(join(ws.dir, '.studio', 'ungrouped.json'), 'utf8'))[FIXTURE_DECK], undefined)
    await refused(ws, ['block', 'regroup', 'freeform-4', '--blocks', 'b5', '--as', 'solo'], 400, 'invalid_input', '/blockIds')
    await refused(ws, ['block', 'regroup', 'freeform-4', '--blocks', 'b1', '--as', 'x', '--rev', '0'], 409, 'stale_revision')

    // Named objects only: the others keep their tag, even one left alone.
    const one = await oneCommit(ws, ['block', 'ungroup', 'freeform-4', '--blocks', 'b1'])
    assert.deepEqual(one.blockIds, ['b1'])
    assert.deepEqual([blockOf(ws, 'freeform-4', 'b1').group, blockOf(ws, 'freeform-4', 'b2').group, blockOf(ws, 'freeform-4', 'b3').group], [undefined, 'group-1', 'group-1'])
    await oneCommit(ws, ['block', 'ungroup', 'freeform-4', '--blocks', 'b2'])
    assert.deepEqual([blockOf(ws, 'freeform-4', 'b2').group, blockOf(ws, 'freeform-4', 'b3').group], [undefined, 'group-1'])
    await oneCommit(ws, ['block', 'ungroup', 'freeform-4', '--group', 'group-1'])
    assert.equal(blockOf(ws, 'freeform-4', 'b3').group, undefined)
  })

  it('groups on a slotted slide by converting it to a canvas first, in one commit', async () => {
    await oneCommit(ws, ['block', 'group', 'two-columns-3', '--blocks', 'b1,b2', '--as', 'pair'])
    const slide = slideOf(ws, 'two-columns-3')
    assert.equal(slide.layout, 'freeform')
    assert.equal(blockOf(ws, 'two-columns-3', 'b2').group, 'pair')
    assert.ok(blockOf(ws, 'two-columns-3', 'b3').pos)
  })

  it('locks and unlocks objects', async () => {
    const locked = await oneCommit(ws, ['block', 'lock', 'freeform-4', '--blocks', 'b3,b5'])
    assert.deepEqual(locked.blocks, [
      { id: 'b3', locked: true },
      { id: 'b5', locked: true },
    ])
    assert.equal(blockOf(ws, 'freeform-4', 'b5').locked, true)
    await oneCommit(ws, ['block', 'lock', 'freeform-4', '--blocks', 'b5', '--off'])
    assert.equal(blockOf(ws, 'freeform-4', 'b5').locked, undefined)
    await refused(ws, ['block', 'lock', 'freeform-4', '--blocks', 'b5,b5'], 400, 'invalid_input', '/blockIds/1')
    await refused(ws, ['block', 'lock', 'freeform-4', '--blocks', 'b5', '--rev', '0'], 409, 'stale_revision')
  })

  it('leaves the deck valid after all of it', async () => {
    const result = await studio(ws.dir, ['validate', '--json'])
    assert.equal(result.json.valid, true, result.stdout)
  })
})
