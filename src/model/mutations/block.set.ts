import { failed, ok, type Apply, type BlockSetMutation } from './types.js'
import { removeAt, setAt, tokens } from './pointer.js'
import { blocksOf } from './slide-ops.js'

export const apply: Apply<BlockSetMutation> = (slide, mutation) => {
  const block = blocksOf(slide).find((b) => b.id === mutation.blockId)
  if (!block) return failed(`No block "${mutation.blockId}" on slide "${slide.id}".`, '/blockId')
  const path = tokens(mutation.path)
  if (!path.length) return failed('The path names the whole block; use block.replace.', '/path')
  if (path.length === 1 && (path[0] === 'id' || path[0] === 'kind')) return failed(`A block's ${path[0]} cannot change; replace the block instead.`, '/path')
  if (mutation.value === undefined) {
    const error = removeAt(block, path)
    // Deleting what is not there leaves the block as it should be.
    return error && !error.startsWith('No member') ? failed(error, '/path') : ok
  }
  const error = setAt(block, path, structuredClone(mutation.value))
  return error ? failed(error, '/path') : ok
}
