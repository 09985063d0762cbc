/**
 * Reading order (src/layout/reading.ts): the title first, then columns before rows. What the HTML
 * holds (and so a screen reader, a copy and the PDF's tags), and `export txt`, follow it; paint order
 * stays `z`.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import type { Block, Slide } from '../../../src/model/deck.js'
import { blocksInReadingOrder, titleBlock } from '../../../src/layout/reading.js'
import { slideTextLines } from '../../../src/actions/export/export.js'
import { slideHtml } from '../../../src/render/html.js'

const at = (id: string, x: number, y: number, w: number, h: number, extra: Partial<Block> = {}): Block => ({ id, kind: 'textbox', text: id, pos: { x, y, w, h }, z: 0, ...extra })

it('reads a canvas title first, whatever its z and place in the list, then columns top to bottom', () => {
  const slide: Slide = {
    id: 'freeform-1',
    layout: 'freeform',
    blocks: [
      at('band', 100, 20, 200, 40, { z: 0 }),
      at('shape', 100, 300, 600, 400, { kind: 'shape', shape: 'rect', z: 0 }),
      at('right-top', 900, 300, 600, 150, { z: 1 }),
      at('right-bottom', 900, 500, 600, 150, { z: 2 }),
      { id: 'title', kind: 'heading', text: 'The title', pos: { x: 100, y: 80, w: 1400, h: 120 }, z: 3 },
    ],
  }
  // The band above the title is read after it: a title is read first wherever it stands.
  assert.deepEqual(blocksInReadingOrder(slide).map((b) => b.id), ['title', 'band', 'shape', 'right-top', 'right-bottom'])
  assert.deepEqual(slideTextLines(slide), ['The title', 'band', 'shape', 'right-top', 'right-bottom'])
  // The HTML holds that order; z-index keeps the paint order (the title last, on top).
  const html = slideHtml(slide, { id: 'd', title: 'D', theme: 'studio-simple', sections: [], revision: 0, stamps: { createdAt: '', updatedAt: '' } } as never, { appearance: 'light', asset: () => undefined } as never)
  const ids = [...html.matchAll(/data-block="([^"]+)" style="z-index:(-?\d+);/g)].map((m) => [m[1], Number(m[2])])
  assert.deepEqual(ids, [['title', -1], ['band', -5], ['shape', -4], ['right-top', -3], ['right-bottom', -2]])
})

it('reads a comparison column by column: each head before its points', () => {
  const slide = {
    id: 'comparison-1',
    layout: 'comparison',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Options' },
      { id: 'h1', kind: 'text', slot: 'subtitle', text: 'Build it' },
      { id: 'h2', kind: 'text', slot: 'caption', text: 'Buy it' },
      { id: 'b1', kind: 'list', slot: 'left', items: [{ text: 'Fits exactly' }] },
      { id: 'b2', kind: 'list', slot: 'right', items: [{ text: 'Ready now' }] },
    ],
  } as Slide
  assert.deepEqual(slideTextLines(slide), ['Options', 'Build it', 'Fits exactly', 'Buy it', 'Ready now'])
})

it('names the block read first as the slide\'s title only when it is one: a title slot\'s text or a heading', () => {
  const canvas: Slide = { id: 'f', layout: 'freeform', blocks: [at('note', 100, 20, 200, 40), { id: 'h', kind: 'heading', text: 'Heading', pos: { x: 100, y: 80, w: 900, h: 100 }, z: 1 }] }
  assert.equal(titleBlock(canvas)?.id, 'h')
  // A canvas without a heading, a quote, an empty title: no title.
  assert.equal(titleBlock({ ...canvas, blocks: [at('note', 100, 20, 200, 40)] }), undefined)
  assert.equal(titleBlock({ id: 'q', layout: 'quote', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'A quote' }] } as Slide), undefined)
  assert.equal(titleBlock({ id: 't', layout: 'title-body', blocks: [{ id: 'title', kind: 'text', slot: 'title', text: '  ' }, { id: 'b', kind: 'text', slot: 'body', text: 'Body' }] } as Slide), undefined)
  assert.equal(titleBlock({ id: 't', layout: 'title-body', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'Body' }, { id: 'title', kind: 'text', slot: 'title', text: 'Title' }] } as Slide)?.id, 'title')
  // A big number's figure is a heading in the body: it is the slide's title, as in the PDF's outline.
  assert.equal(titleBlock({ id: 'n', layout: 'big-number', blocks: [{ id: 'b1', kind: 'heading', slot: 'body', text: '44%' }] } as Slide)?.id, 'b1')
})
