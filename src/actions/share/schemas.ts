import type { DeckTarget } from '../../core/action.js'
import { BR, DeckId, str, Who } from '../../model/schema.js'

export const ShareDeck = { ...DeckId, description: 'The deck whose access record this reads or writes.' }
export const AccessRevision = { ...BR, description: "baseRevision of the deck's access record; a stale one answers 409." }
export const LinkId = str({ minLength: 1, maxLength: 120, description: 'Share link id.' })
export const PrincipalOrEmail = { ...Who, description: 'A principal id or an email.' }

/**
 * Share writes guard the access record's revision, not the deck's: they guard no deck document
 * and serialize on the deck's access record instead.
 */
export const ACCESS_RECORD: { deck: DeckTarget; locks: (input: { id: string }) => string[] } = {
  deck: { kind: 'none' },
  locks: (input) => [`share-${input.id}`],
}
