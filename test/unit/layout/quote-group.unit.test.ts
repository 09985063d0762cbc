/**
 * A quote and its attribution are drawn as one group (src/layout/stack.ts GROUPED_SLOTS): the quote
 * sits on its attribution, one gap apart, and the two are centred together where a main point is
 * centred; refile files them back into their own slots though the group moved (src/layout/canvas.ts).
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import type { Slide } from '../../../src/model/deck.js'
import { drawn, GROUPED_SLOTS } from '../../../src/layout/stack.js'
import { refile, toCanvas } from '../../../src/layout/canvas.js'
import { slotBoxes, STACK_GAP } from '../../../src/layout/boxes.js'
import { themeFonts } from '../../../src/model/themes.js'

const SHORT = '“We stopped arguing about the deck and started shipping it.”'
const LONG = '“We stopped arguing about the deck and started shipping it, which changed the team more than any tool before it, and more than any offsite, any reorg, any new hire or any quarterly plan.”'
const quote = (text: string, attribution?: string): Slide => ({ id: 'quote-1', layout: 'quote', ...(attribution ? { attribution } : {}), blocks: [{ id: 'b1', kind: 'text', slot: 'body', text }] })
const boxOf = (slide: Slide, id: string, theme = 'simple') => drawn(slide, themeFonts({ theme })).items.find((item) => item.block.id === id)!.box
/** Where a main point centres its statement. */
const mainPointMiddle = () => {
  const body = slotBoxes('main-point').body!
  return body.y + body.h / 2
}

it('centres a quote and its attribution together where a main point centres its statement, the attribution one gap under the quote', () => {
  for (const theme of ['simple', 'editorial', 'contrast'])
    for (const text of [SHORT, LONG]) {
      const slide = quote(text, 'A customer')
      const q = boxOf(slide, 'b1', theme)
      const a = boxOf(slide, 'attribution', theme)
      assert.equal(a.y, q.y + q.h + STACK_GAP, `${theme}: the attribution is not one gap under the quote`)
      assert.ok(Math.abs((q.y + a.y + a.h) / 2 - mainPointMiddle()) <= 1, `${theme}: the group's middle ${(q.y + a.y + a.h) / 2}, not ${mainPointMiddle()}`)
    }
  // A quote without attribution, and an attribution alone, are centred too.
  const alone = boxOf(quote(SHORT), 'b1')
  assert.ok(Math.abs(alone.y + alone.h / 2 - mainPointMiddle()) <= 1)
  const only: Slide = { id: 'quote-2', layout: 'quote', attribution: 'Someone', blocks: [] }
  const a = boxOf(only, 'attribution')
  assert.ok(Math.abs(a.y + a.h / 2 - mainPointMiddle()) <= 1)
})

it('moves each slot box with its blocks, so that the slot still holds them; a quote that overflows is not moved', () => {
  const { items, slots } = drawn(quote(SHORT, 'A customer'))
  for (const item of items.filter((i) => i.slot && GROUPED_SLOTS.quote.includes(i.slot))) {
    const fill = slots.find((s) => s.slot === item.slot)!
    assert.ok(item.box.y >= fill.box.y && item.box.y + item.box.h <= fill.box.y + fill.box.h, `${item.block.id} outside its slot`)
  }
  const over = drawn(quote(LONG.repeat(4), 'A customer'))
  const body = over.slots.find((s) => s.slot === 'body')!
  assert.ok(body.overflow > 0)
  assert.deepEqual(body.box, slotBoxes('quote').body)
  assert.equal(over.items.find((i) => i.block.id === 'b1')!.box.y, slotBoxes('quote').body!.y)
})

it('files a quote and its attribution back into their slots after toCanvas, though the attribution is drawn inside the body box', () => {
  for (const theme of ['simple', 'mono']) {
    const fonts = themeFonts({ theme })
    // A quote alone or an attribution alone draws the same in either slot: each goes back to its own.
    for (const slide of [quote(SHORT, 'A customer'), quote(LONG, '— Someone who talks at length'), quote('“Ship it.”'), { id: 'q', layout: 'quote', attribution: 'Someone', blocks: [] } as Slide]) {
      const canvas = toCanvas(slide, fonts)
      const pos = canvas.blocks!.find((b) => b.id === 'attribution')?.pos as { y: number; h: number } | undefined
      const body = slotBoxes('quote').body!
      // What the static boxes would say: the attribution's middle is in the body box.
      if (pos && slide.blocks!.length) assert.ok(pos.y + pos.h / 2 < body.y + body.h, 'the test wants an attribution drawn in the body box')
      assert.deepEqual(refile(canvas, 'quote', undefined, fonts), { slide, dropped: [] })
    }
  }
})

it('files a quote canvas arranged by hand by where its blocks stand', () => {
  const canvas: Slide = {
    id: 'q',
    layout: 'freeform',
    blocks: [
      { id: 'b1', kind: 'text', text: SHORT, pos: { x: 160, y: 200, w: 1280, h: 120 }, z: 0 },
      { id: 'attribution', kind: 'text', text: 'A customer', pos: { x: 160, y: 700, w: 600, h: 30 }, z: 1 },
      { id: 'note', kind: 'text', text: 'Beside', pos: { x: 160, y: 400, w: 600, h: 30 }, z: 2 },
    ],
  }
  const { slide } = refile(canvas, 'quote')
  assert.deepEqual(slide.blocks!.map((b) => [b.id, b.slot]), [['b1', 'body'], ['note', 'body']])
  assert.equal(slide.attribution, 'A customer')
})

it('measures a block naming a slot the layout lacks in the slot it is drawn in (its canvas form then draws the same)', () => {
  const slide: Slide = { id: 'q', layout: 'quote', blocks: [{ id: 'l', kind: 'list', slot: 'left', items: [{ text: 'Acme' }, { text: 'grew' }] }] }
  const canvas = toCanvas(slide)
  assert.deepEqual(drawn(canvas).items[0].box, drawn(slide).items[0].box)
  assert.deepEqual(drawn(refile(canvas, 'quote').slide).items[0].box, drawn(slide).items[0].box)
})
