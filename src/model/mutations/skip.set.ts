import { ok, type Apply, type SkipSetMutation } from './types.js'

export const apply: Apply<SkipSetMutation> = (slide, mutation) => {
  if (mutation.skip) slide.skip = true
  else delete slide.skip
  return ok
}
