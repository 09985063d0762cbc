import { ok, type Apply, type NotesSetMutation } from './types.js'

export const apply: Apply<NotesSetMutation> = (slide, mutation) => {
  if (mutation.notes) slide.notes = mutation.notes
  else delete slide.notes
  return ok
}
