import { applyDeckSet, DECK_SET_PATHS } from '../../actions/deck/settings.js'
import { StudioError } from '../../core/errors.js'
import { failed, ok, type Apply, type DeckSetMutation } from './types.js'

export const apply: Apply<DeckSetMutation> = (_slide, mutation, doc) => {
  if (!(DECK_SET_PATHS as readonly string[]).includes(mutation.path)) return failed(`deck.set takes one of ${DECK_SET_PATHS.join(', ')}.`, '/path')
  try {
    applyDeckSet(doc.manifest, mutation.path as (typeof DECK_SET_PATHS)[number], mutation.value)
    return ok
  } catch (error) {
    // applyDeckSet answers a bad value with the one error type; here it is a failed step.
    if (error instanceof StudioError) return failed(error.message, error.extra.pointer ?? '/value')
    throw error
  }
}
