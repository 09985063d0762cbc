import { failed, ok, type Apply, type BlockMoveMutation } from './types.js'
import { blocksOf, isCanvas, placeInSlot } from './slide-ops.js'

export const apply: Apply<BlockMoveMutation> = (slide, mutation) => {
  if (isCanvas(slide)) return failed('A canvas slide has no slots: place the block with block.position, or change the layout first.', '/slot')
  const blocks = blocksOf(slide)
  const index = blocks.findIndex((b) => b.id === mutation.blockId)
  if (index < 0) return failed(`No block "${mutation.blockId}" on slide "${slide.id}".`, '/blockId')
  if (mutation.after === mutation.blockId) return failed('A block cannot follow itself.', '/after')
  const [block] = blocks.splice(index, 1)
  const error = placeInSlot(slide, block, mutation.slot, mutation.after)
  return error ? failed(error, '/after') : ok
}
