/**
 * Who an authenticated request is, before any deck is named: what a transport's edge works out from
 * the credentials it was given (src/identity/auth.ts), and what the engine turns into a role on the
 * deck a call names (src/identity/roles.ts, then the role table in src/core/access.ts).
 *
 * Credentials, in the order the edge reads them:
 * - `Authorization: Bearer <STUDIO_TOKEN>`: the deployment itself (`root`): owner of every deck, admin.
 * - `Authorization: Bearer studio_key_…`: an API key; its owner's roles, cut to the key's scopes.
 * - `Authorization: Bearer studio_lnk_…`: a share link's token: a link visitor on that link's deck.
 * - cookie `studio_session` (`studio_ses_…`): a signed-in person's session, or an anonymous browser's.
 * - cookies `studio_link_<deckId>` (`studio_ses_…` too): sessions opened through a share link's /s/ URL.
 * - none: an anonymous caller (an agent names itself with `x-studio-author: agent:<runId>`).
 *
 * Without an identity database (a checkout) there is no Caller: every caller owns every deck.
 */
import type { Scope } from '../core/access.js'

export const SESSION_COOKIE = 'studio_session'
/** The cookie of a link session for one deck: `studio_link_<deckId>`. */
export const LINK_COOKIE_PREFIX = 'studio_link_'

export interface LinkPass {
  /** The link (a row of `links`); the pass dies when the link does. */
  linkId: string
  deckId: string
  /** The link session it came through; absent when the token itself was presented as a bearer. */
  sessionId?: string
}

export interface Caller {
  /** The deployment's static bearer: every deck's owner and an administrator. */
  root?: boolean
  /** The principal (a row of `principals`); absent for root and for a caller that presented nothing. */
  principalId?: string
  kind: 'person' | 'anonymous' | 'agent' | 'deployment'
  /** Whether the principal is an administrator (principals.is_admin). */
  admin?: boolean
  /** The session the request came with (cookie), for account.sessions' current marker and signOut. */
  sessionId?: string
  /** The API key the request came with, and its scopes (a key never does more than its scopes). */
  keyId?: string
  scopes?: ReadonlySet<Scope>
  /** Share-link passes the request carries, by deck. */
  links?: ReadonlyMap<string, LinkPass>
  /** The request's address, for rate limits (share.requestAccess). */
  ip?: string
  /** The origin the request reached (`http://host:port`), for the links an answer hands back where STUDIO_PUBLIC_URL is unset. */
  origin?: string
}
