import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { Block, Slide } from '../../../src/model/deck.js'
import { blockHeight, drawnBoxes, fitText, measureText, slotBoxes, slotFills, textStyle, SIZE_STEPS } from '../../../src/layout/index.js'

const text = (id: string, t: string, extra: Partial<Block> = {}): Block => ({ id, kind: 'text', slot: 'body', text: t, ...extra })

describe('text style', () => {
  it('sizes a title-slot heading 56, 96 on title and section layouts, and text and lists 28', () => {
    const heading: Block = { id: 'h', kind: 'heading', slot: 'title', text: 'x' }
    assert.equal(textStyle(heading, 'title-body').size, 56)
    assert.equal(textStyle(heading, 'title').size, 96)
    assert.equal(textStyle(heading, 'section').size, 96)
    assert.equal(textStyle(text('t', 'x'), 'title-body').size, 28)
    assert.equal(textStyle({ id: 'l', kind: 'list', slot: 'body', items: [] }, 'title-body').size, 28)
    assert.equal(textStyle(text('t', 'x', { size: 33 }), 'title-body').size, 33)
  })
  it('uses line height 1.25 unless spacing.line sets it, and bold headings', () => {
    assert.equal(textStyle(text('t', 'x')).lineHeight, 1.25)
    assert.equal(textStyle(text('t', 'x', { spacing: { line: 1.5 } })).lineHeight, 1.5)
    assert.equal(textStyle({ id: 'h', kind: 'heading', text: 'x' }).weight, 700)
  })
})

describe('blockHeight', () => {
  it('is the measured text height, rounded up', () => {
    assert.equal(blockHeight(text('t', 'One line'), 1440, 'title-body'), 35)
    assert.equal(blockHeight(text('t', 'One\nTwo'), 1440, 'title-body'), 70)
    assert.equal(blockHeight({ id: 'h', kind: 'heading', slot: 'title', text: 'Why now' }, 1440, 'title-body'), 70)
    assert.equal(blockHeight({ id: 'h', kind: 'heading', slot: 'title', text: 'Why now' }, 1440, 'title'), 120)
  })
  it('adds paragraph spacing before and after', () => {
    assert.equal(blockHeight(text('t', 'One\nTwo', { spacing: { before: 10, after: 5 } }), 1440), 70 + 30)
  })
  it('stacks list items 0.4 em apart, indenting 64 px per level beyond 1', () => {
    const list: Block = { id: 'l', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'a' }, { text: 'b', level: 2 }, { text: 'c' }] }
    assert.equal(blockHeight(list, 1440), 3 * 35 + 2 * 11)
    const word = 'm'.repeat(12)
    const w = measureText(word, { size: 28, width: 5000 }).width
    const fits = Math.ceil(w) + 42 + 1 // marker gutter 1.5 em at 28 px
    assert.equal(blockHeight({ id: 'l', kind: 'list', items: [{ text: word }] }, fits), 35)
    assert.equal(blockHeight({ id: 'l', kind: 'list', items: [{ text: word, level: 2 }] }, fits), 70)
  })
  it('makes a one-line table row 1.6 × the size', () => {
    const table: Block = { id: 't', kind: 'table', slot: 'body', rows: [['Metric', 'Value'], ['Lead time', '2 days']], header: true }
    assert.equal(blockHeight(table, 1440), Math.ceil(2 * 28 * 1.6))
  })
  it('gives pictures their aspect (16:9 without one) plus caption', () => {
    assert.equal(blockHeight({ id: 'p', kind: 'picture', asset: 'a', aspect: 2 }, 800), 400)
    assert.equal(blockHeight({ id: 'p', kind: 'picture', asset: 'a' }, 1600), 900)
    assert.equal(blockHeight({ id: 'p', kind: 'picture', asset: 'a', aspect: 2, caption: 'Acme' }, 800), 400 + 8 + 30)
  })
  it('grows with more text and never grows with more width', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta'), { maxLength: 60 }), fc.integer({ min: 80, max: 1440 }), fc.integer({ min: 0, max: 600 }), (words, width, more) => {
        const t = text('t', words.join(' '))
        const longer = text('t', [...words, 'omega'].join(' '))
        return blockHeight(longer, width) >= blockHeight(t, width) && blockHeight(t, width + more) <= blockHeight(t, width)
      }),
      { numRuns: 200 },
    )
  })
})

describe('stacking', () => {
  const slide: Slide = {
    id: 'title-body-2',
    layout: 'title-body',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
      text('b1', 'Costs fell by half at Acme.\nMargins grew.'),
      { id: 'b2', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'Faster builds' }, { text: 'Fewer incidents', level: 2 }, { text: 'Happier teams' }] },
    ],
  }
  it('stacks a slot top to bottom, 24 px apart, at natural heights, as wide as the slot', () => {
    const boxes = drawnBoxes(slide)
    const body = slotBoxes('title-body').body!
    assert.deepEqual(boxes.get('b1'), { x: body.x, y: body.y, w: body.w, h: 70 })
    assert.deepEqual(boxes.get('b2'), { x: body.x, y: body.y + 70 + 24, w: body.w, h: blockHeight(slide.blocks![2], body.w) })
  })
  it('centres the title in its band', () => {
    const title = slotBoxes('title-body').title!
    const box = drawnBoxes(slide).get('title')!
    assert.equal(box.y - title.y, title.y + title.h - (box.y + box.h))
  })
  it('lets pictures and charts share the room the text leaves', () => {
    const s: Slide = { id: 's', layout: 'picture-caption', blocks: [{ id: 'p', kind: 'picture', asset: 'a', slot: 'media' }] }
    assert.deepEqual(drawnBoxes(s).get('p'), slotBoxes('picture-caption').media)
    const two: Slide = { id: 's', layout: 'title-body', blocks: [text('t', 'Intro'), { id: 'c', kind: 'chart', slot: 'body' }, { id: 'p', kind: 'picture', asset: 'a', slot: 'body' }] }
    const boxes = drawnBoxes(two)
    assert.ok(Math.abs(boxes.get('c')!.h - boxes.get('p')!.h) <= 1)
    assert.equal(boxes.get('p')!.y + boxes.get('p')!.h, 208 + 568)
  })
  it('measures overflow past the slot bottom and draws the whole stack', () => {
    const many = Array.from({ length: 30 }, (_, i) => text(`b${i}`, `Paragraph ${i}`))
    const s: Slide = { id: 's', layout: 'title-body', blocks: many }
    const fill = slotFills(s).find((f) => f.slot === 'body')!
    assert.equal(fill.used, 30 * 35 + 29 * 24)
    assert.equal(fill.overflow, fill.used - 568)
    assert.equal(drawnBoxes(s).get('b29')!.y, 208 + 29 * 59)
    assert.equal(slotFills({ id: 's', layout: 'title-body', blocks: [text('b', 'x')] }).find((f) => f.slot === 'body')!.overflow, 0)
  })
  it('draws a block whose slot the layout lacks in body, and a covering picture over the sheet', () => {
    const s: Slide = { id: 's', layout: 'title-body', blocks: [text('b', 'x', { slot: 'left' }), { id: 'bg', kind: 'picture', asset: 'a', background: true }] }
    assert.equal(drawnBoxes(s).get('b')!.y, 208)
    assert.deepEqual(drawnBoxes(s).get('bg'), { x: 0, y: 0, w: 1600, h: 900 })
  })
  it('draws title-slide fields in their slots, under ids that do not clash', () => {
    const s: Slide = { id: 't', layout: 'title', title: 'Quarterly review', subtitle: 'Q3', byline: 'Ann', blocks: [text('title', 'x', { slot: 'footer' })] }
    const boxes = drawnBoxes(s)
    assert.deepEqual([...boxes.keys()].sort(), ['byline', 'subtitle', 'title', 'title-2'])
    assert.equal(boxes.get('title-2')!.y + boxes.get('title-2')!.h, 216 + 264)
    assert.equal(boxes.get('subtitle')!.y, 504)
    assert.equal(boxes.get('byline')!.y, 640)
  })
  it('draws canvas blocks at their pos', () => {
    const s: Slide = { id: 'f', layout: 'freeform', blocks: [{ id: 'b', kind: 'shape', shape: 'rect', pos: { x: 1, y: 2, w: 3, h: 4 }, z: 0 }] }
    assert.deepEqual(drawnBoxes(s).get('b'), { x: 1, y: 2, w: 3, h: 4 })
  })
})

describe('fitText', () => {
  it('answers the height the text needs at the box width (grow)', () => {
    const b: Block = { id: 'b', kind: 'textbox', text: 'One\nTwo\nThree', pos: { x: 0, y: 0, w: 400, h: 10 } }
    assert.equal(fitText(b, { x: 0, y: 0, w: 400, h: 10 }).height, 105)
  })
  it('answers the current size when the text fits, else the largest step that does (shrink)', () => {
    const b: Block = { id: 'b', kind: 'textbox', text: 'One\nTwo\nThree', size: 28 }
    assert.equal(fitText(b, { x: 0, y: 0, w: 400, h: 200 }).size, 28)
    const fit = fitText(b, { x: 0, y: 0, w: 400, h: 75 })
    assert.equal(fit.size, 20) // 3 lines × 20 × 1.25 = 75
    assert.ok(SIZE_STEPS.includes(fit.size))
  })
  it('never answers a size above the current one and always fits when a step can', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'Acme'), { minLength: 1, maxLength: 40 }), fc.integer({ min: 60, max: 1400 }), fc.integer({ min: 20, max: 800 }), fc.constantFrom(18, 28, 40, 64), (words, w, h, size) => {
        const b: Block = { id: 'b', kind: 'textbox', text: words.join(' '), size }
        const box = { x: 0, y: 0, w, h }
        const fit = fitText(b, box)
        if (fit.size > size) return false
        const at = measureText(b.text as string, { size: fit.size, width: w }).height
        return fit.size === 6 || Math.ceil(at - 1e-6) <= h
      }),
      { numRuns: 150 },
    )
  })
})
