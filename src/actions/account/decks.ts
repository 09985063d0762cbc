import { defineAction } from '../../core/action.js'
import { arr, DeckId, int, obj, oneOf, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { decks } from './decks-run.js'

export const accountDecks = defineAction({
  id: 'account.decks',
  label: 'My decks',
  doc: "The caller's deck index with the owner and the caller's role per row; all needs an admin. On a checkout every deck counts as owned.",
  group: 'account',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ view: oneOf(['owned', 'shared', 'recent', 'trash', 'all'], { description: 'Which decks: owned, shared with the caller, recent, trash, or all (admins).' }) }),
  output: result({
      decks: arr(
        obj({
          id: DeckId,
          title: str(),
          owner: str(),
          role: oneOf(['owner', 'viewer', 'commenter', 'editor'], { description: "The caller's role." }),
          revision: int({ minimum: 0 }),
          stamps: obj({ createdAt: str(), updatedAt: str() }),
        }),
        { description: "The caller's deck index." },
      ),
    }),
  cli: 'account decks --view <view>',
  mcp: 'deck_list_my_decks',
  example: { view: 'owned' },
  capability: null,
  run: decks,
})
