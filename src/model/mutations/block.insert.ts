import { failed, ok, type Apply, type BlockInsertMutation } from './types.js'
import { blocksOf, convertToCanvas, isCanvas, placeInSlot, placeInStack } from './slide-ops.js'
import { themeFonts } from '../themes.js'

export const apply: Apply<BlockInsertMutation> = (slide, mutation, doc) => {
  const block = structuredClone(mutation.block)
  if (blocksOf(slide).some((b) => b.id === block.id)) return failed(`Slide "${slide.id}" already has a block "${block.id}".`, '/block/id', 'id_taken')
  if (block.pos !== undefined) convertToCanvas(slide, themeFonts(doc.manifest))
  if (isCanvas(slide)) {
    if (block.pos === undefined) return failed('A block on a canvas slide needs its box (pos).', '/block/pos')
    const error = placeInStack(slide, block, mutation.after)
    return error ? failed(error, '/after') : ok
  }
  const slot = mutation.slot ?? block.slot
  if (typeof slot !== 'string') return failed('Name the slot the block is filed into (slot), or give the block a slot.', '/slot')
  const error = placeInSlot(slide, block, slot, mutation.after)
  return error ? failed(error, '/after') : ok
}
