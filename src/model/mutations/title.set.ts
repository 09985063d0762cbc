import { contentBox } from '../../layout/index.js'
import { freeBlockId } from '../edit.js'
import { failed, ok, type Apply, type TitleSetMutation } from './types.js'
import { blocksOf, FIELD_LAYOUTS, isCanvas, placeInSlot, placeInStack } from './slide-ops.js'

/** Height of a title object created on the canvas, sheet px. */
const TITLE_HEIGHT = 120

export const apply: Apply<TitleSetMutation> = (slide, mutation) => {
  const field = mutation.field ?? 'title'
  if (FIELD_LAYOUTS.has(slide.layout)) {
    if (field === 'byline' && slide.layout !== 'title') return failed('Only a title slide has a byline.', '/field')
    slide[field] = mutation.text
    return ok
  }
  if (field !== 'title') return failed(`Only a title slide has a ${field} field; this slide is "${slide.layout}".`, '/field')
  const blocks = blocksOf(slide)
  const existing = isCanvas(slide) ? blocks.find((b) => b.kind === 'heading') : blocks.find((b) => b.slot === 'title' && typeof b.text === 'string')
  if (existing) {
    existing.text = mutation.text
    return ok
  }
  const heading = { id: freeBlockId(slide, 'title'), kind: 'heading', text: mutation.text }
  if (isCanvas(slide)) {
    const box = contentBox()
    placeInStack(slide, { ...heading, pos: { x: box.x, y: box.y, w: box.w, h: TITLE_HEIGHT } })
  } else {
    placeInSlot(slide, heading, 'title')
  }
  return ok
}
