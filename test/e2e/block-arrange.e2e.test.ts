/**
 * Canvas arrangement on the command line, against the contract fixture: align, distribute, rotate,
 * flip, resize, nudge, connect and disconnect, each through its CLI form as the spec writes it.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, commitCount, studio } from '../helpers/studio.js'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>
type Box = { x: number; y: number; w: number; h: number }

const slideOf = (ws: Ws, id: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`), 'utf8'))
const blockOf = (ws: Ws, slideId: string, blockId: string) => slideOf(ws, slideId).blocks.find((b: { id: string }) => b.id === blockId)
const posOf = (ws: Ws, slideId: string, blockId: string): Box => blockOf(ws, slideId, blockId).pos

async function oneCommit(ws: Ws, args: string[]) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'])
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(await commitCount(ws.git), before + 1, `${args.join(' ')}: one commit`)
  return r.json
}

async function refused(ws: Ws, args: string[], status: number, code: string, pointer?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'])
  assert.equal(r.json?.status, status, `${args.join(' ')}: ${r.stdout}`)
  assert.equal(r.json.code, code)
  if (pointer !== undefined) assert.equal(r.json.pointer, pointer)
  assert.equal(await commitCount(ws.git), before, 'nothing committed')
  assert.equal(await ws.git('status', '--porcelain'), '')
}

describe('canvas arrangement on the command line', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('aligns a selection on its extreme left edge, moving x only; the connector follows', async () => {
    const result = await oneCommit(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1,b2', '--edge', 'left'])
    assert.equal(result.to, 'selection')
    assert.deepEqual(posOf(ws, 'freeform-4', 'b1'), { x: 100, y: 100, w: 300, h: 200 })
    assert.deepEqual(posOf(ws, 'freeform-4', 'b2'), { x: 100, y: 150, w: 400, h: 120 })
    const line = blockOf(ws, 'freeform-4', 'b4')
    assert.deepEqual(line.from, { x: 400, y: 200 }, 'start on the right side of b1')
    assert.deepEqual(line.to, { x: 100, y: 210 }, 'end on the left side of b2, where it moved')
  })

  it('aligns one object to the sheet by default, and several to the content box when asked', async () => {
    await oneCommit(ws, ['block', 'align', 'freeform-4', '--blocks', 'b3', '--edge', 'right'])
    assert.equal(posOf(ws, 'freeform-4', 'b3').x, 1600 - 300)
    await oneCommit(ws, ['block', 'align', 'freeform-4', '--blocks', 'b3,b5', '--edge', 'bottom', '--to', 'content'])
    const content = await import('../../src/layout/index.js').then((m) => m.contentBox())
    assert.equal(posOf(ws, 'freeform-4', 'b3').y + 300, content.y + content.h)
    assert.equal(posOf(ws, 'freeform-4', 'b5').y + 350, content.y + content.h)
    assert.equal(posOf(ws, 'freeform-4', 'b5').x, 100, 'x untouched')
  })

  it("snaps the selection's shared edge to a guide within reach, else to the 8 px grid", async () => {
    await oneCommit(ws, ['deck', 'guides', '--add-vertical', '96'])
    await oneCommit(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1,b2', '--edge', 'left', '--snap'])
    assert.equal(posOf(ws, 'freeform-4', 'b1').x, 96)
    assert.equal(posOf(ws, 'freeform-4', 'b2').x, 96)
    await oneCommit(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1,b2', '--edge', 'top', '--snap'])
    assert.equal(posOf(ws, 'freeform-4', 'b1').y, 104)
  })

  it('converts a slotted slide to the canvas before aligning, in one commit', async () => {
    await oneCommit(ws, ['block', 'align', 'title-body-2', '--blocks', 'b1,b2', '--edge', 'center', '--to', 'sheet'])
    const slide = slideOf(ws, 'title-body-2')
    assert.equal(slide.layout, 'freeform')
    for (const id of ['b1', 'b2']) {
      const pos = posOf(ws, 'title-body-2', id)
      assert.equal(pos.x + pos.w / 2, 800)
    }
  })

  it('refuses an unknown block, a bad edge and a stale revision for align, writing nothing', async () => {
    await refused(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1,zz', '--edge', 'left'], 404, 'not_found', '/blockIds/1')
    await refused(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1', '--edge', 'up'], 400, 'invalid_input', '/edge')
    await refused(ws, ['block', 'align', 'freeform-4', '--blocks', 'b1', '--edge', 'left', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['block', 'align', 'two-columns-3', '--blocks', 'b1,zz', '--edge', 'left'], 404, 'not_found', '/blockIds/1')
    assert.equal(slideOf(ws, 'two-columns-3').layout, 'two-columns', 'a refused call converts nothing')
  })

  it('distributes with equal gaps between the first and the last, or with a fixed gap', async () => {
    await oneCommit(ws, ['block', 'set', 'freeform-4#b3', '/pos', '{"x":1200,"y":100,"w":200,"h":200}'])
    await oneCommit(ws, ['block', 'set', 'freeform-4#b2', '/pos', '{"x":500,"y":150,"w":400,"h":120}'])
    await oneCommit(ws, ['block', 'set', 'freeform-4#b1', '/pos', '{"x":100,"y":100,"w":300,"h":200}'])
    await oneCommit(ws, ['block', 'distribute', 'freeform-4', '--blocks', 'b1,b3,b2', '--axis', 'horizontal'])
    const [a, b, c] = ['b1', 'b2', 'b3'].map((id) => posOf(ws, 'freeform-4', id))
    assert.equal(a.x, 100)
    assert.equal(c.x, 1200)
    assert.equal(b.x - (a.x + a.w), c.x - (b.x + b.w))
    assert.equal(b.y, 150, 'y untouched')
    await oneCommit(ws, ['block', 'distribute', 'freeform-4', '--blocks', 'b1,b2,b3', '--axis', 'horizontal', '--gap', '20'])
    const [d, e, f] = ['b1', 'b2', 'b3'].map((id) => posOf(ws, 'freeform-4', id))
    assert.equal(e.x, d.x + d.w + 20)
    assert.equal(f.x, e.x + e.w + 20)
    await refused(ws, ['block', 'distribute', 'freeform-4', '--blocks', 'b1', '--axis', 'horizontal'], 400, 'invalid_input', '/blockIds')
    await refused(ws, ['block', 'distribute', 'freeform-4', '--blocks', 'b1,b2', '--axis', 'diagonal'], 400, 'invalid_input', '/axis')
    await refused(ws, ['block', 'distribute', 'freeform-4', '--blocks', 'b1,b2', '--axis', 'vertical', '--rev', '0'], 409, 'stale_revision')
  })

  it('rotates objects by degrees and to an angle, normalized to 0 up to 360', async () => {
    const by = await oneCommit(ws, ['block', 'rotate', 'freeform-4#b1', '--by=-30'])
    assert.equal(by.blocks[0].angle, 330)
    await oneCommit(ws, ['block', 'rotate', 'freeform-4#b1', '--to', '0'])
    assert.equal(blockOf(ws, 'freeform-4', 'b1').angle, undefined)
    await refused(ws, ['block', 'rotate', 'freeform-4#b1'], 400, 'invalid_input', '/by')
    await refused(ws, ['block', 'rotate', 'freeform-4#zz', '--by', '5'], 404, 'not_found', '/blockIds/0')
    await refused(ws, ['block', 'rotate', 'freeform-4#b1', '--by', '5', '--rev', '0'], 409, 'stale_revision')
  })

  it('rotates a selection about its union centre: members move around it and the connector follows', async () => {
    await oneCommit(ws, ['block', 'set', 'freeform-4#b1', '/pos', '{"x":100,"y":100,"w":200,"h":100}'])
    await oneCommit(ws, ['block', 'set', 'freeform-4#b2', '/pos', '{"x":500,"y":100,"w":200,"h":100}'])
    await oneCommit(ws, ['block', 'rotate', 'freeform-4#b1,b2', '--by', '90', '--about', 'selection'])
    // Union x 100..700, y 100..200: centre (400, 150). Centres (200,150) and (600,150) turn to (400,-50) and (400,350).
    assert.deepEqual(posOf(ws, 'freeform-4', 'b1'), { x: 300, y: -100, w: 200, h: 100 })
    assert.deepEqual(posOf(ws, 'freeform-4', 'b2'), { x: 300, y: 300, w: 200, h: 100 })
    assert.equal(blockOf(ws, 'freeform-4', 'b1').angle, 90)
    const line = blockOf(ws, 'freeform-4', 'b4')
    // b1's right side, turned 90° clockwise, faces down: (400, 50); b2's left side faces up: (400, 250).
    assert.deepEqual(line.from, { x: 400, y: 50 })
    assert.deepEqual(line.to, { x: 400, y: 250 })
  })

  it('flips about the selection: centres mirror about the union centre, angles become 360 minus themselves, twice is the identity', async () => {
    const before = ['b1', 'b2'].map((id) => blockOf(ws, 'freeform-4', id))
    await oneCommit(ws, ['block', 'flip', 'freeform-4#b1,b2', '--axis', 'v', '--about', 'selection'])
    const b1 = blockOf(ws, 'freeform-4', 'b1')
    assert.deepEqual(b1.flip, { v: true })
    assert.equal(b1.angle, 270)
    assert.deepEqual(b1.pos, before[1].pos)
    await oneCommit(ws, ['block', 'flip', 'freeform-4#b1,b2', '--axis', 'v', '--about', 'selection'])
    assert.deepEqual(['b1', 'b2'].map((id) => blockOf(ws, 'freeform-4', id)), before)
    await oneCommit(ws, ['block', 'flip', 'freeform-4#b5', '--axis', 'h'])
    assert.deepEqual(blockOf(ws, 'freeform-4', 'b5').flip, { h: true })
    await refused(ws, ['block', 'flip', 'freeform-4#b1', '--axis', 'd'], 400, 'invalid_input', '/axis')
    await refused(ws, ['block', 'flip', 'freeform-4#b1', '--axis', 'h', '--rev', '0'], 409, 'stale_revision')
  })

  it('resizes about an anchor and nudges with grid snapping', async () => {
    await oneCommit(ws, ['block', 'resize', 'freeform-4#b5', '--w', '400', '--anchor', 'center'])
    assert.deepEqual(posOf(ws, 'freeform-4', 'b5').w, 400)
    const b3 = posOf(ws, 'freeform-4', 'b3')
    await oneCommit(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '13', '--snap'])
    const moved = posOf(ws, 'freeform-4', 'b3')
    assert.equal(moved.x % 8, 0)
    assert.equal(moved.y, b3.y)
    await oneCommit(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dy=-5'])
    assert.equal(posOf(ws, 'freeform-4', 'b3').y, b3.y - 5)
    await refused(ws, ['block', 'resize', 'freeform-4#b5'], 400, 'invalid_input', '/w')
    await refused(ws, ['block', 'resize', 'freeform-4#b5', '--w', '0'], 400, 'invalid_input', '/w')
    await refused(ws, ['block', 'resize', 'freeform-4#b5', '--w', '10', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b99', '--dx', '1'], 404, 'not_found', '/blockIds/0')
    await refused(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '1', '--rev', '0'], 409, 'stale_revision')
  })

  it('connects two objects with a new connector on top, and detaches it where it is drawn', async () => {
    const connected = await oneCommit(ws, ['block', 'connect', 'freeform-4', '--from', 'b3', '--to', 'b5', '--from-side', 'bottom'])
    const line = connected.line
    assert.equal(line.kind, 'line')
    assert.equal(line.connector, true)
    assert.deepEqual(line.start, { block: 'b3', side: 'bottom' })
    assert.deepEqual(line.end, { block: 'b5' })
    const b3 = posOf(ws, 'freeform-4', 'b3')
    assert.deepEqual(line.from, { x: b3.x + b3.w / 2, y: b3.y + b3.h })
    assert.equal(line.z, Math.max(...slideOf(ws, 'freeform-4').blocks.map((b: { z: number }) => b.z)))
    await oneCommit(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '40'])
    assert.equal(blockOf(ws, 'freeform-4', line.id).from.x, b3.x + 40 + b3.w / 2, 'the connector follows a nudge')

    const before = blockOf(ws, 'freeform-4', line.id)
    const detached = await oneCommit(ws, ['block', 'disconnect', `freeform-4#${line.id}`, '--end', 'start'])
    assert.equal(detached.line.start, undefined)
    assert.deepEqual(detached.line.end, { block: 'b5' })
    assert.deepEqual(detached.line.from, before.from)
    await oneCommit(ws, ['block', 'disconnect', `freeform-4#${line.id}`])
    assert.equal(blockOf(ws, 'freeform-4', line.id).connector, undefined)

    await refused(ws, ['block', 'connect', 'freeform-4', '--from', 'b3', '--to', 'zz'], 404, 'not_found', '/to')
    await refused(ws, ['block', 'connect', 'freeform-4', '--from', 'b3', '--to', 'b3'], 400, 'invalid_input', '/to')
    await refused(ws, ['block', 'connect', 'freeform-4', '--from', 'b3', '--to', 'b5', '--line', 'b1'], 400, 'invalid_input', '/lineId')
    await refused(ws, ['block', 'connect', 'freeform-4', '--from', 'b3', '--to', 'b5', '--rev', '0'], 409, 'stale_revision')
    await refused(ws, ['block', 'disconnect', 'freeform-4#b1'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['block', 'disconnect', 'freeform-4#b4', '--rev', '0'], 409, 'stale_revision')
  })

  it('leaves the deck valid after all of it', async () => {
    const result = await studio(ws.dir, ['validate', '--json'])
    assert.equal(result.json.valid, true, result.stdout)
  })
})
