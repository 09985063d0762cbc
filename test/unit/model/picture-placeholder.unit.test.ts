import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Manifest, Slide } from '../../../src/model/deck.js'
import { blankSlide, withPicturePlaceholder } from '../../../src/model/mutations/slide-ops.js'
import { slideHtml } from '../../../src/render/html.js'

const manifest = {
  id: 'd',
  title: 'D',
  theme: 'studio-simple',
  defaults: { appearance: 'light' },
  sections: [],
  revision: 0,
  stamps: { createdAt: '', updatedAt: '' },
} as unknown as Manifest

const media = (slide: Slide) => slide.blocks?.filter((b) => b.slot === 'media')

describe('picture placeholders', () => {
  it('are what a new slide of a layout with a picture slot gets there; a chart slide keeps its chart', () => {
    for (const layout of ['picture-caption', 'picture-left', 'picture-full', 'grid']) {
      assert.deepEqual(media(blankSlide('s', layout)), [{ id: 'media', kind: 'picture', slot: 'media' }], layout)
    }
    assert.equal(media(blankSlide('s', 'chart'))![0].kind, 'chart')
    assert.deepEqual(media(blankSlide('s', 'title-body')), [])
  })

  it('are added to an inserted slide document only where its picture slot is empty', () => {
    const bare: Slide = { id: 's', layout: 'picture-caption', blocks: [{ id: 'media', kind: 'text', slot: 'caption', text: 'The harbour' }] }
    assert.deepEqual(media(withPicturePlaceholder(bare)), [{ id: 'media-2', kind: 'picture', slot: 'media' }])
    const pictured: Slide = { id: 's', layout: 'picture-caption', blocks: [{ id: 'p', kind: 'picture', slot: 'media', asset: 'harbour' }] }
    assert.equal(withPicturePlaceholder(pictured), pictured)
    const covered: Slide = { id: 's', layout: 'picture-full', blocks: [{ id: 'bg', kind: 'picture', slot: 'body', asset: 'harbour', background: true }] }
    assert.equal(withPicturePlaceholder(covered), covered)
    for (const slide of [{ id: 's', layout: 'title-body' }, { id: 's', layout: 'chart' }, { id: 's', layout: 'freeform', blocks: [] }] as Slide[]) assert.equal(withPicturePlaceholder(slide), slide)
  })

  it('draw nothing in the renderer: no picture, no "no file" plate, the same sheet as without the block but for its empty slot and frame', () => {
    const slide = blankSlide('s', 'picture-caption')
    const html = slideHtml(slide, manifest, { appearance: 'light', number: 1, markSkipped: false, asset: () => undefined })
    const without = slideHtml({ ...slide, blocks: slide.blocks!.filter((b) => b.id !== 'media') }, manifest, { appearance: 'light', number: 1, markSkipped: false, asset: () => undefined })
    assert.doesNotMatch(html, /<img|has no file|class="ph"/)
    const frame = /<div class="slot" data-slot="media" style="[^"]*"><div class="b k-picture" data-block="media" style="[^"]*"><\/div><\/div>/
    assert.match(html, frame)
    assert.equal(html.replace(frame, ''), without)
  })
})
