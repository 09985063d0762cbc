import { failed, ok, type Apply, type BlocksReorderMutation } from './types.js'
import { blocksOf } from './slide-ops.js'

export const apply: Apply<BlocksReorderMutation> = (slide, mutation) => {
  const blocks = blocksOf(slide)
  const inSlot = blocks.filter((b) => b.slot === mutation.slot)
  const ids = new Set(inSlot.map((b) => b.id))
  const given = new Set(mutation.blockIds)
  const stray = mutation.blockIds.findIndex((id) => !ids.has(id))
  if (stray >= 0) return failed(`Block "${mutation.blockIds[stray]}" is not in slot "${mutation.slot}".`, `/blockIds/${stray}`)
  if (given.size !== mutation.blockIds.length) return failed('A block is named twice.', '/blockIds')
  if (given.size !== ids.size) {
    const missing = inSlot.filter((b) => !given.has(b.id)).map((b) => b.id)
    return failed(`Name every block of slot "${mutation.slot}"; missing: ${missing.join(', ')}.`, '/blockIds')
  }
  const byId = new Map(inSlot.map((b) => [b.id, b]))
  let next = 0
  slide.blocks = blocks.map((b) => (b.slot === mutation.slot ? byId.get(mutation.blockIds[next++])! : b))
  return ok
}
