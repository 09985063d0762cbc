import { failed, ok, type Apply, type TextReplaceMutation } from './types.js'
import { getAt, setAt, tokens } from './pointer.js'

export const apply: Apply<TextReplaceMutation> = (slide, mutation) => {
  const path = tokens(mutation.pointer)
  const at = getAt(slide, path)
  if (!at.found) return failed(`No Text at ${mutation.pointer}.`, '/pointer')
  if (typeof at.value !== 'string') return failed(`${mutation.pointer} is not a Text.`, '/pointer')
  const error = setAt(slide, path, mutation.text)
  return error ? failed(error, '/pointer') : ok
}
