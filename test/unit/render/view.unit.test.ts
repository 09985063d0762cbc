import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { DeckDoc, Slide } from '../../../src/model/deck.js'
import { drawnBoxes } from '../../../src/layout/stack.js'
import { paintFor } from '../../../src/render/paint.js'
import { slideHtml } from '../../../src/render/html.js'
import { slideViews } from '../../../src/render/view.js'
import { Variants } from '../../../src/render/variants.js'

const slides: Slide[] = [
  { id: 'title-1', layout: 'title', title: 'Quarterly <i>review</i>', subtitle: 'Q3' },
  {
    id: 'freeform-2',
    layout: 'freeform',
    blocks: [
      { id: 'b1', kind: 'shape', shape: 'rect', pos: { x: 100, y: 100, w: 300, h: 200 }, z: 0, angle: 30, text: 'Plan', group: 'g' },
      { id: 'c1', kind: 'chart', chartType: 'bar', data: { categories: ['a'], series: [{ name: 's', values: [1] }] }, pos: { x: 500, y: 100, w: 400, h: 300 }, z: 1 },
      { id: 'c2', kind: 'chart', chartType: 'bar', data: { categories: ['a'], series: [{ name: 's', values: [1] }] }, pos: { x: 1000, y: 100, w: 400, h: 300 }, z: 2, alt: 'Sales by region', locked: true },
    ],
  },
]
const doc = {
  manifest: { id: 'd', title: 'D', theme: 'studio-simple', sections: [{ id: 'main', title: 'Main', slides: slides.map((s) => s.id) }], revision: 3, stamps: { createdAt: '', updatedAt: '' } },
  slides: Object.fromEntries(slides.map((s) => [s.id, s])),
  versions: [],
} as unknown as DeckDoc

describe('slide views for the page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-view-'))
  const views = slideViews(doc, slides, { deckDir: dir, root: dir, appearance: 'light', assetBase: '/a', variantBase: '/v', variants: new Variants(dir, doc.manifest), records: {} })
  rmSync(dir, { recursive: true, force: true })

  it('is the renderer’s own HTML, and every block at the box geometry drew it', () => {
    for (const [i, slide] of slides.entries()) {
      const fonts = paintFor(doc.manifest, 'light').theme.fonts
      assert.equal(views[i].html, slideHtml(slide, doc.manifest, { appearance: 'light', number: i + 1, markSkipped: false, asset: () => undefined }))
      assert.deepEqual(new Map(views[i].items.map((item) => [item.id, item.box])), drawnBoxes(slide, fonts))
    }
  })

  it('names the pointer of each block, or of the slide field it stands for', () => {
    assert.deepEqual(views[0].items.map((i) => [i.id, i.field, i.pointer]), [['title', 'title', '/title'], ['subtitle', 'subtitle', '/subtitle']])
    assert.deepEqual(views[1].items.map((i) => i.pointer), ['/blocks/0', '/blocks/1', '/blocks/2'])
    assert.equal(views[0].items[0].label, 'Quarterly review')
  })

  it('carries what the canvas turns and locks, and which blocks lack the alt text they need', () => {
    const [shape, bare, described] = views[1].items
    assert.deepEqual([shape.angle, shape.group, shape.locked, shape.missingAlt, shape.label], [30, 'g', false, false, 'Plan'])
    assert.deepEqual([bare.missingAlt, bare.alt], [true, ''])
    assert.deepEqual([described.missingAlt, described.alt, described.label, described.locked], [false, 'Sales by region', 'Sales by region', true])
    assert.equal(views[1].canvas, true)
    assert.equal(views[0].canvas, false)
  })
})
