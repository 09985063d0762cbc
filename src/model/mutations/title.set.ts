import { toCanvas } from '../../layout/index.js'
import { canvasTitle, type Block } from '../deck.js'
import { freeBlockId } from '../edit.js'
import { themeFonts } from '../themes.js'
import { failed, ok, type Apply, type TitleSetMutation } from './types.js'
import { blocksOf, FIELD_LAYOUTS, isCanvas, placeInSlot, placeInStack } from './slide-ops.js'

export const apply: Apply<TitleSetMutation> = (slide, mutation, doc) => {
  const field = mutation.field ?? 'title'
  if (FIELD_LAYOUTS.has(slide.layout)) {
    if (field === 'byline' && slide.layout !== 'title') return failed('Only a title slide has a byline.', '/field')
    slide[field] = mutation.text
    return ok
  }
  if (field !== 'title') return failed(`Only a title slide has a ${field} field; this slide is "${slide.layout}".`, '/field')
  const blocks = blocksOf(slide)
  const existing = isCanvas(slide) ? (canvasTitle(blocks) ?? blocks.find((b) => b.kind === 'heading')) : blocks.find((b) => b.slot === 'title' && typeof b.text === 'string')
  if (existing) {
    existing.text = mutation.text
    return ok
  }
  const heading: Block = { id: freeBlockId(slide, 'title'), kind: 'heading', text: mutation.text }
  if (isCanvas(slide)) {
    // A canvas title lands where a content layout's title slot draws it, at its size: the canvas form of that title (as toCanvas writes it).
    const [placed] = toCanvas({ id: slide.id, layout: 'title-body', blocks: [{ ...heading, slot: 'title' }] }, themeFonts(doc.manifest)).blocks!
    placeInStack(slide, placed)
  } else {
    placeInSlot(slide, heading, 'title')
  }
  return ok
}
