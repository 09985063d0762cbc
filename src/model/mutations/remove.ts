import { failed, ok, type Apply, type RemoveMutation } from './types.js'
import { removeAt, tokens } from './pointer.js'
import { GUARDED } from './set.js'

export const apply: Apply<RemoveMutation> = (slide, mutation) => {
  const path = tokens(mutation.pointer)
  if (path.length === 1 && GUARDED.has(path[0])) return failed(`/${path[0]} cannot be removed.`, '/pointer')
  if (path.length === 3 && path[0] === 'blocks' && (path[2] === 'id' || path[2] === 'kind')) return failed(`A block keeps its ${path[2]}.`, '/pointer')
  const error = removeAt(slide, path)
  return error ? failed(error, '/pointer') : ok
}
