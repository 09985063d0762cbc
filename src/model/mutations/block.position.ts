import { failed, ok, type Apply, type BlockPositionMutation } from './types.js'
import { blocksOf, convertToCanvas, setRank } from './slide-ops.js'
import { themeFonts } from '../themes.js'

export const apply: Apply<BlockPositionMutation> = (slide, mutation, doc) => {
  if (!blocksOf(slide).some((b) => b.id === mutation.blockId)) return failed(`No block "${mutation.blockId}" on slide "${slide.id}".`, '/blockId')
  convertToCanvas(slide, themeFonts(doc.manifest))
  const block = blocksOf(slide).find((b) => b.id === mutation.blockId)
  if (!block) return failed(`Block "${mutation.blockId}" did not survive the conversion to the canvas.`, '/blockId')
  block.pos = { ...mutation.pos }
  if (mutation.z !== undefined) setRank(slide, block, mutation.z)
  return ok
}
