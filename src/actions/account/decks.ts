import { defineAction } from '../../core/action.js'
import { obj, oneOf, outline } from '../../model/schema.js'

export const accountDecks = defineAction({
  id: 'account.decks',
  label: 'My decks',
  doc: "The caller's deck index with the owner and the caller's role per row; all needs an admin. On a checkout every deck counts as owned.",
  group: 'account',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ view: oneOf(['owned', 'shared', 'recent', 'trash', 'all'], { description: 'Which decks: owned, shared with the caller, recent, trash, or all (admins).' }) }),
  output: outline({ decks: "rows with id, title, owner, the caller's role, revision, stamps" }),
  cli: 'account decks --view <view>',
  mcp: 'deck_list_my_decks',
  example: { view: 'owned' },
})
