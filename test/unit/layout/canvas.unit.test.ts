import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { Block, Slide } from '../../../src/model/deck.js'
import { LAYOUTS, SHEET, SLOTS } from '../../../src/model/layouts.js'
import { drawnBoxes, refile, slotBoxes, slotFills, toCanvas, type Box } from '../../../src/layout/index.js'
import { slotFor } from '../../../src/layout/stack.js'

const SLOTTED = LAYOUTS.filter((l) => l !== 'freeform')
const words = fc.array(fc.constantFrom('Acme', 'grew', 'margins', 'quarterly', 'review', 'costs', 'fell'), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '))

function blockArb(slots: string[]): fc.Arbitrary<Omit<Block, 'id'>> {
  const slot = fc.constantFrom(...slots, ...slots, ...SLOTS)
  return fc.oneof(
    fc.record({ kind: fc.constant('text'), slot, text: words }),
    fc.record({ kind: fc.constant('heading'), slot, text: words }),
    fc.record({ kind: fc.constant('list'), slot, items: fc.array(fc.record({ text: words, level: fc.integer({ min: 1, max: 3 }) }), { maxLength: 4 }) }),
    fc.record({ kind: fc.constant('table'), slot, rows: fc.array(fc.array(words, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('picture'), slot, asset: fc.constant('logo') }),
    fc.record({ kind: fc.constant('chart'), slot, chartType: fc.constant('bar'), data: fc.constant({ categories: [], series: [] }) }),
    fc.record({ kind: fc.constant('shape'), slot, shape: fc.constant('rect'), text: words }),
  )
}

const slottedSlide: fc.Arbitrary<Slide> = fc.constantFrom(...SLOTTED).chain((layout) => {
  const slots = Object.keys(slotBoxes(layout))
  return fc
    .record({
      blocks: fc.array(blockArb(slots), { maxLength: 7 }),
      title: fc.option(words, { nil: undefined }),
      subtitle: fc.option(words, { nil: undefined }),
      byline: fc.option(words, { nil: undefined }),
      attribution: fc.option(words, { nil: undefined }),
      covering: fc.boolean(),
    })
    .map(({ blocks, title, subtitle, byline, attribution, covering }) => {
      // JSON round trip: fast-check records have no prototype, stored slides do.
      const slide: Slide = JSON.parse(JSON.stringify({ id: `${layout}-1`, layout, blocks: blocks.map((b, i) => ({ id: `b${i}`, ...b })) }))
      if (covering) slide.blocks!.push({ id: 'bg', kind: 'picture', asset: 'logo', background: true })
      if (layout === 'title' || layout === 'section') {
        slide.title = title ?? 'Untitled'
        if (subtitle) slide.subtitle = subtitle
      }
      if (layout === 'title' && byline) slide.byline = byline
      if ((layout === 'quote' || layout === 'big-number') && attribution) slide.attribution = attribution
      return slide
    })
})

const ids = (slide: Slide) => (slide.blocks ?? []).map((b) => b.id)
const fieldsOf = (slide: Slide) => ['title', 'subtitle', 'byline', 'attribution'].filter((f) => typeof slide[f] === 'string' && slide[f])
const overflows = (slide: Slide) => slotFills(slide).some((f) => f.overflow > 0)
const inside = (outer: Box, x: number, y: number) => x >= outer.x && x <= outer.x + outer.w && y >= outer.y && y <= outer.y + outer.h

describe('toCanvas', () => {
  it('keeps every block id, adds the fields as blocks, places each on the sheet, with dense z', () => {
    fc.assert(
      fc.property(slottedSlide, (slide) => {
        const canvas = toCanvas(slide)
        assert.equal(canvas.layout, 'freeform')
        assert.deepEqual(new Set(ids(canvas)), new Set([...ids(slide), ...fieldsOf(slide)]))
        assert.deepEqual(canvas.blocks!.map((b) => b.z), canvas.blocks!.map((_, i) => i))
        for (const field of ['title', 'subtitle', 'byline', 'attribution']) assert.equal(canvas[field], undefined)
        const spill = Math.max(0, ...slotFills(slide).map((f) => f.overflow))
        for (const block of canvas.blocks!) {
          const pos = block.pos as Box
          assert.equal(block.slot, undefined)
          assert.ok(pos.x >= 0 && pos.y >= 0 && pos.x + pos.w <= SHEET.width && pos.y <= SHEET.height + spill, JSON.stringify(pos))
          if (!spill) assert.ok(pos.y + pos.h <= SHEET.height)
          for (const v of [pos.x, pos.y, pos.w, pos.h]) assert.ok(Number.isInteger(v))
        }
        return true
      }),
      { numRuns: 300 },
    )
  })

  it('puts each block at the box it is drawn at, covering pictures at the back', () => {
    const slide: Slide = {
      id: 'two-columns-3',
      layout: 'two-columns',
      blocks: [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Before and after' },
        { id: 'b1', kind: 'text', slot: 'left', text: 'Before: weekly releases.' },
        { id: 'b2', kind: 'text', slot: 'right', text: 'After: daily releases.' },
        { id: 'b3', kind: 'table', slot: 'right', header: true, rows: [['Metric', 'Value'], ['Lead time', '2 days']] },
        { id: 'bg', kind: 'picture', asset: 'logo', background: true },
      ],
    }
    const canvas = toCanvas(slide)
    const boxes = drawnBoxes(slide)
    for (const block of canvas.blocks!) assert.deepEqual(block.pos, boxes.get(block.id))
    assert.deepEqual(canvas.blocks![0], { id: 'bg', kind: 'picture', asset: 'logo', background: true, pos: { x: 0, y: 0, w: 1600, h: 900 }, z: 0 })
    assert.equal(canvas.blocks!.find((b) => b.id === 'title')!.size, 56)
    assert.equal(canvas.blocks!.find((b) => b.id === 'b1')!.size, undefined)
  })

  it('returns a freeform slide as is and leaves its input unchanged', () => {
    const free: Slide = { id: 'f', layout: 'freeform', blocks: [{ id: 'b', kind: 'textbox', text: 'x', pos: { x: 1, y: 1, w: 10, h: 10 }, z: 0 }] }
    assert.equal(toCanvas(free), free)
    const slotted: Slide = { id: 's', layout: 'title-body', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'x' }] }
    const copy = structuredClone(slotted)
    toCanvas(slotted)
    refile(slotted, 'two-columns')
    assert.deepEqual(slotted, copy)
  })
})

describe('refile', () => {
  it('files every block into a slot after toCanvas and back (dropping only on Title slide and Main point)', () => {
    fc.assert(
      fc.property(slottedSlide, (slide) => {
        const canvas = toCanvas(slide)
        const { slide: back, dropped } = refile(canvas, slide.layout)
        const boxes = slotBoxes(slide.layout)
        assert.equal(back.layout, slide.layout)
        for (const block of back.blocks ?? []) {
          assert.equal(block.pos, undefined)
          assert.equal(block.z, undefined)
          if (block.background === true) assert.equal(block.slot, undefined)
          else assert.ok(block.slot && block.slot in boxes, `${block.id} in ${block.slot}`)
        }
        const kept = [...ids(back), ...fieldsOf(back)]
        if (slide.layout !== 'title' && slide.layout !== 'main-point') assert.deepEqual(dropped, [])
        assert.equal(kept.length + dropped.length, ids(canvas).length)
        return true
      }),
      { numRuns: 300 },
    )
  })

  it('gives back the original slide when nothing overflows', () => {
    fc.assert(
      fc.property(slottedSlide, (slide) => {
        if (overflows(slide) || ['title', 'section', 'main-point'].includes(slide.layout)) return true
        const { slide: back } = refile(toCanvas(slide), slide.layout)
        const expected = (slide.blocks ?? []).map((b) => (b.background ? b : { ...b, slot: slotFor(slide.layout, b.slot) }))
        const byId = (a: Block, b: Block) => a.id.localeCompare(b.id)
        assert.deepEqual([...back.blocks!].sort(byId), [...expected].sort(byId))
        assert.equal(back.attribution, slide.attribution)
        return true
      }),
      { numRuns: 300 },
    )
  })

  it('puts a canvas block whose centre lies in a slot box into that slot', () => {
    const layouts = SLOTTED.filter((l) => !['title', 'section', 'main-point'].includes(l))
    const arb = fc.constantFrom(...layouts).chain((layout) =>
      fc.record({
        layout: fc.constant(layout),
        slot: fc.constantFrom(...Object.keys(slotBoxes(layout))),
        fx: fc.double({ min: 0, max: 1, noNaN: true }),
        fy: fc.double({ min: 0, max: 1, noNaN: true }),
        w: fc.integer({ min: 0, max: 900 }),
        h: fc.integer({ min: 0, max: 600 }),
        others: fc.array(fc.record({ x: fc.integer({ min: -100, max: 1600 }), y: fc.integer({ min: -100, max: 900 }), w: fc.integer({ min: 0, max: 800 }), h: fc.integer({ min: 0, max: 500 }) }), { maxLength: 5 }),
      }),
    )
    fc.assert(
      fc.property(arb, ({ layout, slot, fx, fy, w, h, others }) => {
        const box = slotBoxes(layout)[slot as keyof ReturnType<typeof slotBoxes>]!
        const cx = box.x + fx * box.w
        const cy = box.y + fy * box.h
        const target: Block = { id: 'target', kind: 'textbox', text: 'x', pos: { x: cx - w / 2, y: cy - h / 2, w, h }, z: 0 }
        const rest = others.map((pos, i) => ({ id: `o${i}`, kind: 'textbox', text: 'y', pos, z: i + 1 }) as Block)
        const { slide, dropped } = refile({ id: 'freeform-1', layout: 'freeform', blocks: [target, ...rest] }, layout)
        assert.deepEqual(dropped, [])
        const filed = slide.blocks!.find((b) => b.id === 'target')!
        const owner = Object.entries(slotBoxes(layout)).find(([, b]) => inside(b as Box, cx, cy))![0]
        assert.equal(filed.slot, owner)
        return true
      }),
      { numRuns: 300 },
    )
  })

  it('files a block outside every slot into the nearest, and orders a slot by y then x', () => {
    const canvas: Slide = {
      id: 'freeform-4',
      layout: 'freeform',
      blocks: [
        { id: 'low', kind: 'textbox', text: 'c', pos: { x: 100, y: 600, w: 300, h: 50 }, z: 0 },
        { id: 'right', kind: 'textbox', text: 'b', pos: { x: 900, y: 300, w: 300, h: 50 }, z: 1 },
        { id: 'left', kind: 'textbox', text: 'a', pos: { x: 100, y: 300, w: 300, h: 50 }, z: 2 },
        { id: 'corner', kind: 'textbox', text: 'd', pos: { x: 0, y: 0, w: 10, h: 10 }, z: 3 },
      ],
    }
    const { slide } = refile(canvas, 'title-body')
    assert.deepEqual(slide.blocks!.map((b) => [b.id, b.slot]), [['corner', 'title'], ['left', 'body'], ['right', 'body'], ['low', 'body']])
  })

  it('keeps title-slide fields through toCanvas and refile to title', () => {
    const slide: Slide = { id: 'title-1', layout: 'title', title: 'Quarterly review', subtitle: 'Q3 results', byline: 'Ann Lee', notes: 'Welcome everyone to Acme.' }
    const canvas = toCanvas(slide)
    assert.deepEqual(canvas.blocks!.map((b) => [b.id, b.kind, b.text]), [['title', 'heading', 'Quarterly review'], ['subtitle', 'text', 'Q3 results'], ['byline', 'text', 'Ann Lee']])
    assert.deepEqual(refile(canvas, 'title'), { slide, dropped: [] })
    assert.deepEqual(refile(slide, 'title'), { slide, dropped: [] })
  })

  it('takes a heading into the title field of title and section layouts', () => {
    const canvas: Slide = {
      id: 'freeform-4',
      layout: 'freeform',
      blocks: [
        { id: 'note', kind: 'textbox', text: 'Small print', pos: { x: 100, y: 820, w: 400, h: 20 }, z: 0 },
        { id: 'h', kind: 'heading', text: 'Big idea', pos: { x: 100, y: 700, w: 800, h: 60 }, z: 1 },
        { id: 'shape', kind: 'shape', shape: 'rect', pos: { x: 100, y: 100, w: 200, h: 200 }, z: 2 },
      ],
    }
    const section = refile(canvas, 'section')
    assert.equal(section.slide.title, 'Big idea')
    assert.deepEqual(section.dropped, [])
    assert.deepEqual(section.slide.blocks!.map((b) => b.id).sort(), ['note', 'shape'])
    const title = refile(canvas, 'title')
    assert.equal(title.slide.title, 'Big idea')
    assert.deepEqual(title.slide.blocks!.map((b) => [b.id, b.slot]), [['note', 'footer']])
    assert.deepEqual(title.dropped, ['shape'])
    assert.equal(refile({ id: 'f', layout: 'freeform', blocks: [] }, 'title').slide.title, '')
  })

  it('keeps one statement on a Main point layout and names what it drops', () => {
    const slide: Slide = {
      id: 'title-body-2',
      layout: 'title-body',
      blocks: [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
        { id: 'b1', kind: 'text', slot: 'body', text: 'Costs fell by half at Acme.' },
        { id: 'b2', kind: 'list', slot: 'body', items: [{ text: 'Faster builds' }] },
        { id: 'f', kind: 'text', slot: 'footer', text: 'Acme' },
      ],
    }
    const { slide: next, dropped } = refile(slide, 'main-point')
    assert.deepEqual(next.blocks!.map((b) => [b.id, b.slot]), [['title', 'body'], ['f', 'footer']])
    assert.deepEqual(dropped.sort(), ['b1', 'b2'])
  })

  it('keeps a block in its slot when the new layout has it, and files the rest by geometry', () => {
    const slide: Slide = {
      id: 'two-columns-3',
      layout: 'two-columns',
      blocks: [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Before and after' },
        { id: 'b1', kind: 'text', slot: 'left', text: 'Before' },
        { id: 'b2', kind: 'text', slot: 'right', text: 'After' },
      ],
    }
    assert.deepEqual(refile(slide, 'three-columns').slide.blocks!.map((b) => [b.id, b.slot]), [['title', 'title'], ['b1', 'left'], ['b2', 'right']])
    assert.deepEqual(refile(slide, 'title-body').slide.blocks!.map((b) => [b.id, b.slot]), [['title', 'title'], ['b1', 'body'], ['b2', 'body']])
    const title: Slide = { id: 'title-1', layout: 'title', title: 'Quarterly review', subtitle: 'Q3 results' }
    const body = refile(title, 'title-body').slide
    assert.equal(body.title, undefined)
    assert.deepEqual(body.blocks!.map((b) => [b.id, b.kind, b.slot]), [['title', 'heading', 'title'], ['subtitle', 'text', 'body']])
  })

  it('is toCanvas when the target is freeform, and refuses an unknown layout', () => {
    const slide: Slide = { id: 's', layout: 'title-body', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'x' }] }
    assert.deepEqual(refile(slide, 'freeform'), { slide: toCanvas(slide), dropped: [] })
    assert.throws(() => refile(slide, 'nope'), /Unknown layout/)
  })
})
