import { failed, ok, type Apply, type SetMutation } from './types.js'
import { setAt, tokens } from './pointer.js'

/** Members a raw write may not touch: the id names the file, the layout decides the geometry. */
export const GUARDED = new Map([
  ['id', 'The slide id cannot change (copy it with slide.duplicate).'],
  ['layout', 'Change the layout with a layout.set mutation (or slide.setLayout), which refiles the blocks.'],
])

export const apply: Apply<SetMutation> = (slide, mutation) => {
  const path = tokens(mutation.pointer)
  if (path.length && GUARDED.has(path[0]) && path.length === 1) return failed(GUARDED.get(path[0])!, '/pointer')
  if (path.length === 3 && path[0] === 'blocks' && path[2] === 'id') return failed('A block id cannot change; replace the block instead.', '/pointer')
  const error = setAt(slide, path, structuredClone(mutation.value))
  return error ? failed(error, '/pointer') : ok
}
