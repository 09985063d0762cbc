import type { Action } from '../../core/action.js'
import { accountDecks } from './decks.js'
import { accountMe, accountSetAvatar, accountSetName } from './me.js'
import { accountForget, accountSessions, accountSignOut } from './sessions.js'
import { accountTokensCreate, accountTokensList, accountTokensRevoke } from './tokens.js'

export default [
  accountDecks,
  accountTokensCreate,
  accountTokensList,
  accountTokensRevoke,
  accountMe,
  accountSetName,
  accountSetAvatar,
  accountSessions,
  accountSignOut,
  accountForget,
] as Action[]
