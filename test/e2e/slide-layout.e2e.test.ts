/**
 * Layout changes and canvas work in the slide group: slide.setLayout (geometry refiles), slide.applyLayout
 * (content moves to matching placeholders), slide.toCanvas and diagram.insert.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

let fixture: Awaited<ReturnType<typeof fixtureWorkspace>>
const copies: string[] = []

function ws() {
  const dir = mkdtempSync(join(tmpdir(), 'studio-slide-layout-'))
  cpSync(fixture.dir, dir, { recursive: true })
  copies.push(dir)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
  return {
    dir,
    run: (args: string[]) => studio(dir, [...args, '--json']),
    commits: () => Number(git('rev-list', '--count', 'HEAD').trim()),
    status: () => git('status', '--porcelain'),
    slide: (id: string) => JSON.parse(readFileSync(join(dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`), 'utf8')),
  }
}
type Ws = ReturnType<typeof ws>

async function oneCommit(w: Ws, args: string[]) {
  const before = w.commits()
  const r = await w.run(args)
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(w.commits(), before + 1, 'one commit')
  assert.equal(w.status(), '')
  return r.json
}

async function refused(w: Ws, args: string[], expected: { status: number; pointer?: string; code?: string }) {
  const before = w.commits()
  const r = await w.run(args)
  assert.equal(r.json?.status, expected.status, `${args.join(' ')}: ${r.stdout}`)
  if (expected.pointer !== undefined) assert.equal(r.json.pointer, expected.pointer, r.stdout)
  if (expected.code) assert.equal(r.json.code, expected.code)
  assert.equal(w.commits(), before)
  assert.equal(w.status(), '')
}

const slots = (slide: any) => slide.blocks.map((b: any) => `${b.id}:${b.slot}`)

before(async () => {
  fixture = await fixtureWorkspace()
})
after(() => {
  fixture.cleanup()
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

describe('slide.setLayout', () => {
  it('refiles blocks into the new slots by geometry, keeping a slot the new layout has', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'title-body'])
    assert.equal(r.slide.layout, 'title-body')
    const slide = w.slide('two-columns-3')
    assert.equal(slide.blocks.find((b: any) => b.id === 'title').slot, 'title')
    for (const b of slide.blocks.filter((b: any) => b.id !== 'title')) assert.equal(b.slot, 'body')
    assert.deepEqual(r.dropped, [])
  })

  it('goes to the canvas with measured boxes and back into slots', async () => {
    const w = ws()
    await oneCommit(w, ['slide', 'set-layout', 'title-body-2', '--type', 'freeform'])
    const canvas = w.slide('title-body-2')
    assert.equal(canvas.layout, 'freeform')
    for (const b of canvas.blocks) {
      assert.ok(b.pos && b.pos.w > 0, JSON.stringify(b))
      assert.equal(b.slot, undefined)
    }
    assert.deepEqual(canvas.blocks.map((b: any) => b.z), [0, 1, 2])
    await oneCommit(w, ['slide', 'set-layout', 'title-body-2', '--type', 'title-body'])
    assert.deepEqual(slots(w.slide('title-body-2')), ['title:title', 'b1:body', 'b2:body'])
    for (const b of w.slide('title-body-2').blocks) assert.equal(b.pos, undefined)
  })

  it('stores ratio, gap and layout on the slide, and geometry draws the regions by them', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--ratio', '0.7', '--gap', '32'])
    assert.deepEqual(r.slide.layoutOptions, { ratio: 0.7, gap: 32 })
    assert.deepEqual(w.slide('two-columns-3').layoutOptions, { gap: 32, ratio: 0.7 })
    // The canvas gets the boxes the options draw: 0.7 of the 1408 px the 32 px gap leaves, on the 8 px grid.
    const canvas = await oneCommit(w, ['slide', 'to-canvas', 'two-columns-3'])
    const pos = (id: string) => canvas.slides[0].blocks.find((b: any) => b.id === id).pos
    assert.equal(pos('b1').w, 984)
    assert.equal(pos('b2').x, 80 + 984 + 32)
    assert.equal(pos('b2').w, 1440 - 984 - 32)
    assert.equal(w.slide('two-columns-3').layoutOptions, undefined)
  })

  it('stacks the regions as rows with --layout rows, and a later set-layout without options takes the layout\'s own again', async () => {
    const w = ws()
    await oneCommit(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--layout', 'rows'])
    assert.deepEqual(w.slide('two-columns-3').layoutOptions, { layout: 'rows' })
    const rows = await oneCommit(w, ['slide', 'to-canvas', 'two-columns-3'])
    const pos = (id: string) => rows.slides[0].blocks.find((b: any) => b.id === id).pos
    assert.equal(pos('b1').w, 1440)
    assert.ok(pos('b2').y > pos('b1').y + 200, JSON.stringify(rows.slides[0].blocks))
    const w2 = ws()
    await oneCommit(w2, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--ratio', '0.3'])
    await oneCommit(w2, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns'])
    assert.equal(w2.slide('two-columns-3').layoutOptions, undefined)
  })

  it('refuses out-of-range options and options the layout does not take, with pointers, on every path', async () => {
    const w = ws()
    await refused(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--ratio', '0.95'], { status: 400, pointer: '/layout/ratio' })
    await refused(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--gap', '20'], { status: 400, pointer: '/layout/gap' })
    await refused(w, ['slide', 'set-layout', 'two-columns-3', '--type', 'two-columns', '--layout', 'diagonal'], { status: 400, pointer: '/layout/layout' })
    // The model's write-time check: options a layout does not take, whatever wrote them.
    await refused(w, ['slide', 'set-layout', 'title-body-2', '--type', 'title-body', '--ratio', '0.6'], { status: 400, pointer: '/slides/title-body-2/layoutOptions/ratio' })
    await refused(w, ['slide', 'set-layout', 'title-body-2', '--type', 'grid', '--layout', 'rows'], { status: 400, pointer: '/slides/title-body-2/layoutOptions/layout' })
    await refused(w, ['slide', 'set-layout', 'title-body-2', '--type', 'freeform', '--gap', '16'], { status: 400, pointer: '/slides/title-body-2/layoutOptions/gap' })
    const patched = await w.run(['slide', 'patch', 'two-columns-3', '--set', '/layoutOptions={"ratio":2}'])
    assert.equal(patched.json.status, 400, patched.stdout)
    assert.match(patched.json.message, /layoutOptions\/ratio/)
    assert.equal(w.status(), '')
  })

  it('refuses an unknown layout, a stale revision and an unknown slide', async () => {
    const w = ws()
    await refused(w, ['slide', 'set-layout', 'title-body-2', '--type', 'nope'], { status: 400, pointer: '/layout/type' })
    await refused(w, ['slide', 'set-layout', 'title-body-2', '--type', 'freeform', '--rev', '2'], { status: 409 })
    await refused(w, ['slide', 'set-layout', 'nope-1', '--type', 'freeform'], { status: 404, pointer: '/slideId' })
  })
})

describe('slide.applyLayout', () => {
  it('moves title, text and lists to matching placeholders (two columns split the body)', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'apply-layout', 'title-body-2', 'two-columns'])
    assert.deepEqual(slots(w.slide('title-body-2')), ['title:title', 'b1:left', 'b2:right'])
    assert.deepEqual(r.dropped, {})
  })

  it('Main point and Title slide drop what does not fit and name it', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'apply-layout', 'title-body-2,two-columns-3', 'main-point'])
    assert.deepEqual(r.dropped, { 'title-body-2': ['title', 'b2'], 'two-columns-3': ['title', 'b2', 'b3'] })
    assert.deepEqual(slots(w.slide('title-body-2')), ['b1:body'])
    const title = await oneCommit(w, ['slide', 'apply-layout', 'two-columns-3', 'title'])
    assert.deepEqual(title.dropped, { 'two-columns-3': ['b1'] })
    assert.deepEqual(w.slide('two-columns-3'), { id: 'two-columns-3', layout: 'title', title: '' })
    const t = await oneCommit(w, ['slide', 'apply-layout', 'freeform-4', 'title'])
    assert.deepEqual(t.dropped['freeform-4'].sort(), ['b1', 'b2', 'b3', 'b4', 'b5'])
    assert.equal(w.slide('freeform-4').layout, 'title')
    assert.equal(w.slide('freeform-4').blocks, undefined)
  })

  it('other layouts keep everything: a title slide onto title-body appends its subtitle, a canvas loses its boxes', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'apply-layout', 'title-1,freeform-4', 'title-body'])
    assert.deepEqual(r.dropped, {})
    const title = w.slide('title-1')
    assert.deepEqual(title.blocks.map((b: any) => [b.kind, b.slot, b.text]), [['heading', 'title', 'Quarterly review'], ['text', 'body', 'Q3 results']])
    assert.equal(title.title, undefined)
    assert.equal(title.notes, 'Welcome everyone to Acme.')
    const canvas = w.slide('freeform-4')
    assert.equal(canvas.blocks.length, 5)
    for (const b of canvas.blocks) {
      assert.equal(b.pos, undefined)
      assert.equal(b.z, undefined)
      assert.ok(b.slot)
    }
    await refused(w, ['slide', 'apply-layout', 'title-1,nope-2', 'title'], { status: 404, pointer: '/slideIds/1' })
    await refused(w, ['slide', 'apply-layout', 'title-1', 'nope'], { status: 400, pointer: '/layout' })
    await refused(w, ['slide', 'apply-layout', 'title-1', 'title', '--rev', '3'], { status: 409 })
  })
})

describe('slide.toCanvas', () => {
  it('converts slotted slides to the canvas in one write and leaves a canvas as is', async () => {
    const w = ws()
    const before = w.slide('freeform-4')
    const r = await oneCommit(w, ['slide', 'to-canvas', 'title-1,title-body-2,freeform-4'])
    assert.deepEqual(r.converted, ['title-1', 'title-body-2'])
    assert.deepEqual(w.slide('freeform-4'), before)
    const title = w.slide('title-1')
    assert.equal(title.layout, 'freeform')
    assert.equal(title.title, undefined)
    assert.ok(title.blocks.some((b: any) => b.kind === 'heading' && b.text === 'Quarterly review' && b.pos))
    await refused(w, ['slide', 'to-canvas', 'nope-1'], { status: 404, pointer: '/slideIds/0' })
    await refused(w, ['slide', 'to-canvas', 'title-1', '--rev', '3'], { status: 409 })
  })
})

describe('diagram.insert', () => {
  it('inserts one group of shapes and connectors centred on the sheet, on top of the stack', async () => {
    const w = ws()
    const r = await oneCommit(w, ['diagram', 'insert', 'freeform-4', '--kind', 'process', '--count', '4', '--style', 'plate'])
    assert.equal(r.group, 'process-1')
    const made = r.slide.blocks.filter((b: any) => r.blockIds.includes(b.id))
    assert.equal(made.length, 7)
    assert.ok(made.every((b: any) => b.group === 'process-1'))
    const shapes = made.filter((b: any) => b.kind === 'shape')
    const lines = made.filter((b: any) => b.kind === 'line')
    assert.equal(shapes.length, 4)
    assert.equal(lines.length, 3)
    assert.deepEqual(lines.map((l: any) => [l.start.block, l.end.block]), [[shapes[0].id, shapes[1].id], [shapes[1].id, shapes[2].id], [shapes[2].id, shapes[3].id]])
    // centred: the union of the shapes has its centre at the sheet's
    const left = Math.min(...shapes.map((s: any) => s.pos.x))
    const right = Math.max(...shapes.map((s: any) => s.pos.x + s.pos.w))
    const top = Math.min(...shapes.map((s: any) => s.pos.y))
    const bottom = Math.max(...shapes.map((s: any) => s.pos.y + s.pos.h))
    assert.ok(Math.abs((left + right) / 2 - 800) <= 1 && Math.abs((top + bottom) / 2 - 450) <= 1, JSON.stringify({ left, right, top, bottom }))
    // on top of the five existing objects, dense
    assert.deepEqual(made.map((b: any) => b.z).sort((a: number, b: number) => a - b), [5, 6, 7, 8, 9, 10, 11])
  })

  it('draws every kind inside a given box, converting a slotted slide first', async () => {
    const w = ws()
    for (const [kind, count] of [['grid', 5], ['hierarchy', 4], ['timeline', 3], ['relationship', 3], ['cycle', 5]] as const) {
      const r = await oneCommit(w, ['diagram', 'insert', 'title-body-2', '--kind', kind, '--count', String(count), '--pos', '100,120,800,400'])
      const made = r.slide.blocks.filter((b: any) => r.blockIds.includes(b.id))
      assert.ok(made.filter((b: any) => b.kind === 'shape').length === count, kind)
      for (const b of made) {
        assert.ok(b.pos.x >= 100 - 1 && b.pos.y >= 120 - 1 && b.pos.x + b.pos.w <= 900 + 1 && b.pos.y + b.pos.h <= 520 + 1, `${kind} ${JSON.stringify(b.pos)}`)
      }
    }
    const slide = w.slide('title-body-2')
    assert.equal(slide.layout, 'freeform')
    assert.deepEqual([...new Set(slide.blocks.map((b: any) => b.group).filter(Boolean))], ['grid-1', 'hierarchy-1', 'timeline-1', 'relationship-1', 'cycle-1'])
  })

  it('lands just above the block named by after, and refuses bad input', async () => {
    const w = ws()
    const r = await oneCommit(w, ['diagram', 'insert', 'freeform-4', '--kind', 'grid', '--count', '2', '--after', 'b1'])
    const z = Object.fromEntries(r.slide.blocks.map((b: any) => [b.id, b.z]))
    assert.equal(z.b1, 0)
    assert.deepEqual(r.blockIds.map((id: string) => z[id]), [1, 2])
    assert.equal(z.b2, 3)
    await refused(w, ['diagram', 'insert', 'freeform-4', '--kind', 'grid', '--count', '2', '--after', 'zz'], { status: 404, pointer: '/after' })
    await refused(w, ['diagram', 'insert', 'freeform-4', '--kind', 'grid', '--count', '0'], { status: 400, pointer: '/count' })
    await refused(w, ['diagram', 'insert', 'freeform-4', '--kind', 'star', '--count', '2'], { status: 400, pointer: '/kind' })
    await refused(w, ['diagram', 'insert', 'freeform-4', '--kind', 'grid', '--count', '2', '--pos', '0,0,10,10'], { status: 400, pointer: '/pos/w' })
    await refused(w, ['diagram', 'insert', 'freeform-4', '--kind', 'grid', '--count', '2', '--rev', '3'], { status: 409 })
  })
})
