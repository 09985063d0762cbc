import { ok, type Apply, type BackgroundSetMutation } from './types.js'

export const apply: Apply<BackgroundSetMutation> = (slide, mutation) => {
  if (mutation.background === null) delete slide.background
  else slide.background = mutation.background
  return ok
}
