/**
 * A canvas slide's title (the title.set mutation on a freeform slide without a heading) lands where a
 * content layout's title slot draws a title, at its size, in every theme; and back in slots it is that
 * slot's title again. Which block is a canvas's title is one rule (model/deck.ts `canvasTitle`).
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { slideLabel, slideTitle, type Block, type DeckDoc, type Slide } from '../../../src/model/deck.js'
import { blocksInReadingOrder, titleBlock } from '../../../src/layout/reading.js'
import { applyMutation } from '../../../src/model/mutations/index.js'
import { themeFonts } from '../../../src/model/themes.js'
import { textStyle } from '../../../src/layout/blocks.js'
import { drawn } from '../../../src/layout/stack.js'
import { refile, toCanvas } from '../../../src/layout/canvas.js'

const docOf = (theme: string) => ({ manifest: { id: 'd', title: 'D', theme, sections: [], revision: 0 }, slides: {} }) as unknown as DeckDoc
const canvas = (): Slide => ({ id: 'freeform-1', layout: 'freeform', blocks: [{ id: 'card', kind: 'shape', shape: 'rect', pos: { x: 160, y: 320, w: 360, h: 240 }, z: 0 }] })

for (const theme of ['simple', 'mono', 'contrast']) {
  for (const text of ['How we work', 'A title long enough to wrap onto a second line of the title slot at its size, as titles do']) {
    it(`sets a ${theme} canvas title at the title slot's box and size (${text.length} characters), and refiles it into that slot`, () => {
      const fonts = themeFonts({ theme })
      const slide = canvas()
      assert.deepEqual(applyMutation(slide, { kind: 'title.set', text }, docOf(theme)), { ok: true })
      const title = slide.blocks!.find((b) => b.kind === 'heading')!
      // Where and how big title-body draws the same title.
      const slotted = drawn({ id: 't', layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text }] }, fonts).items[0]
      assert.deepEqual(title.pos, { x: Math.round(slotted.box.x), y: Math.round(slotted.box.y), w: Math.round(slotted.box.w), h: Math.round(slotted.box.h) })
      assert.equal(textStyle(title, 'freeform', undefined, fonts).size, textStyle(slotted.block, 'title-body', 'title', fonts).size)
      // On top of what was there, read first, and nothing else on the slide moved.
      assert.equal(title.z, 1)
      assert.deepEqual(slide.blocks![0], canvas().blocks![0])
      // Refiled, it is the title slot's heading at the slot's own size; and back on the canvas it lands at the same box.
      const back = refile(slide, 'title-body', undefined, fonts).slide
      const filed = back.blocks!.find((b) => b.id === title.id) as Block
      assert.equal(filed.slot, 'title')
      assert.equal(filed.size, undefined)
      assert.deepEqual(toCanvas(back, fonts).blocks!.find((b) => b.id === title.id)!.pos, title.pos)
    })
  }
}

it('retitles a canvas that has a heading in place: the same box, the new text', () => {
  const slide = canvas()
  const heading = { id: 'h', kind: 'heading', text: 'Old', pos: { x: 400, y: 600, w: 300, h: 60 }, z: 1 }
  slide.blocks!.push(heading)
  assert.deepEqual(applyMutation(slide, { kind: 'title.set', text: 'New' }, docOf('simple')), { ok: true })
  assert.deepEqual(slide.blocks![1], { ...heading, text: 'New' })
})

it('is one block everywhere: the topmost heading names the slide, is read first, is the PPTX title, and is what title.set retitles', () => {
  const slide: Slide = {
    id: 'freeform-1',
    layout: 'freeform',
    blocks: [
      // Listed first and drawn last, but lower on the slide: not the title.
      { id: 'sub', kind: 'heading', level: 2, text: 'A subhead', pos: { x: 80, y: 400, w: 900, h: 60 }, z: 2 },
      { id: 'card', kind: 'shape', shape: 'rect', pos: { x: 80, y: 500, w: 300, h: 200 }, z: 0 },
      { id: 'top', kind: 'heading', text: 'The title', pos: { x: 80, y: 81, w: 1440, h: 70 }, z: 1 },
    ],
  }
  assert.equal(slideTitle(slide), 'The title')
  assert.equal(slideLabel(slide, 3), 'The title')
  assert.equal(titleBlock(slide)?.id, 'top')
  assert.equal(blocksInReadingOrder(slide)[0].id, 'top')
  assert.deepEqual(applyMutation(slide, { kind: 'title.set', text: 'Renamed' }, docOf('simple')), { ok: true })
  assert.deepEqual(slide.blocks!.map((b) => [b.id, b.text]), [['sub', 'A subhead'], ['card', undefined], ['top', 'Renamed']])
})
