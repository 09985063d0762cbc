import { failed, ok, type Apply, type BlockReplaceMutation } from './types.js'
import { blocksOf, isCanvas } from './slide-ops.js'

export const apply: Apply<BlockReplaceMutation> = (slide, mutation) => {
  const blocks = blocksOf(slide)
  const index = blocks.findIndex((b) => b.id === mutation.block.id)
  if (index < 0) return failed(`No block "${mutation.block.id}" on slide "${slide.id}" to replace.`, '/block/id')
  const old = blocks[index]
  const next = structuredClone(mutation.block)
  // Where the block sits is kept unless the new document says otherwise.
  if (isCanvas(slide)) {
    next.pos ??= old.pos
    next.z ??= old.z
    if (next.slot !== undefined) return failed('A block on a canvas slide has no slot.', '/block/slot')
  } else {
    next.slot ??= old.slot
    if (next.pos !== undefined) return failed('A block on a slotted slide has no box; change the layout to freeform first.', '/block/pos')
  }
  blocks[index] = next
  return ok
}
