import { failed, ok, type Apply, type BlockRemoveMutation } from './types.js'
import { blocksOf } from './slide-ops.js'

export const apply: Apply<BlockRemoveMutation> = (slide, mutation) => {
  const blocks = blocksOf(slide)
  const index = blocks.findIndex((b) => b.id === mutation.blockId)
  if (index < 0) return failed(`No block "${mutation.blockId}" on slide "${slide.id}".`, '/blockId')
  blocks.splice(index, 1)
  // Connectors attached to the removed block lose that attachment and keep their drawn ends.
  for (const block of blocks) {
    for (const end of ['start', 'end'] as const) {
      const attachment = block[end] as { block?: string } | undefined
      if (attachment?.block === mutation.blockId) delete block[end]
    }
  }
  return ok
}
