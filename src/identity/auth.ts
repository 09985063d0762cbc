/**
 * Authentication: what every network edge (HTTP actions, the page, MCP over HTTP, the /auth/ routes)
 * turns a request's credentials into, before any action runs (src/identity/caller.ts lists them).
 *
 * Accounts are on once the workspace has an identity database (`studio serve --accounts`,
 * `admin.bootstrap`); without one `authenticate` answers undefined and every caller owns every deck,
 * as on a checkout. With accounts a bearer that is not the static token, a well-formed key or a live
 * link token is 401; a cookie that opens nothing is ignored (the caller is anonymous).
 *
 * A write authenticated by a cookie must come from this server's own page (CSRF): the browser's
 * `Sec-Fetch-Site` says same-origin or none, or an `Origin` the edge already found to be this server.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Scope } from '../core/access.js'
import { StudioError } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'
import { LINK_COOKIE_PREFIX, SESSION_COOKIE, type Caller, type LinkPass } from './caller.js'
import { identityOf, type IdentityTx } from './db.js'
import { scopesOf } from './keys.js'
import { linkLive } from './access-record.js'
import { hashOf, kindOf, wellFormed } from './secrets.js'
import { accountsOn, bearer, cookiesOf } from './credentials.js'

export { accountsOn, cookiesOf, presentsAccountCredential } from './credentials.js'

export interface RequestLike {
  headers: IncomingHttpHeaders
  method?: string
  remoteAddress?: string
}

const MINUTE = 60_000
const invalid = () => new StudioError('unauthorized', 'The bearer token is not valid here (unknown, revoked or expired).')

/** Writes `last_used_at` at most once a minute per row: a busy key costs one read per request, not a write. */
async function touch(db: IdentityTx, table: 'api_keys' | 'sessions', id: string, last: string | null, now: Date): Promise<void> {
  if (last !== null && now.getTime() - Date.parse(last) < MINUTE) return
  await db.updateTable(table).set({ last_used_at: now.toISOString() }).where('id', '=', id).execute()
}

/**
 * The caller of a request, or undefined without accounts. `token` is the static deployment bearer
 * (STUDIO_TOKEN), compared by the edge (src/transports/http/edge.ts `tokenMatches`) before this runs:
 * `staticBearer` says it matched. Throws 401 for a bearer that opens nothing, 403 for a cookie write
 * from another site.
 */
export async function authenticate(ws: Workspace, req: RequestLike, options: { staticBearer?: boolean } = {}): Promise<Caller | undefined> {
  if (!accountsOn(ws)) return undefined
  const ip = req.remoteAddress
  if (options.staticBearer) return { root: true, kind: 'deployment', admin: true, ...(ip ? { ip } : {}) }
  const identity = await identityOf(ws)
  if (!identity) return undefined
  const db = identity.db
  const now = new Date()
  const at = now.toISOString()
  const presented = bearer(req.headers)
  if (presented !== undefined) {
    const kind = kindOf(presented)
    if (kind === 'key' && wellFormed(presented, 'key')) {
      const key = await db.selectFrom('api_keys').selectAll().where('secret_hash', '=', hashOf(presented)).executeTakeFirst()
      if (!key || key.revoked_at !== null || (key.expires_at !== null && key.expires_at <= at)) throw invalid()
      const principal = await db.selectFrom('principals').select(['id', 'kind', 'is_admin']).where('id', '=', key.principal_id).executeTakeFirst()
      if (!principal) throw invalid()
      await touch(db, 'api_keys', key.id, key.last_used_at, now)
      return { principalId: principal.id, kind: principal.kind, admin: principal.is_admin === 1, keyId: key.id, scopes: new Set<Scope>(scopesOf(key)), ...(ip ? { ip } : {}) }
    }
    if (kind === 'link' && wellFormed(presented, 'link')) {
      const link = await db.selectFrom('links').select(['id', 'deck_id', 'dead_at', 'expires_at']).where('token_hash', '=', hashOf(presented)).executeTakeFirst()
      if (!link || !linkLive(link, at)) throw invalid()
      const links = new Map<string, LinkPass>([[link.deck_id, { linkId: link.id, deckId: link.deck_id }]])
      return { kind: 'anonymous', links, ...(ip ? { ip } : {}) }
    }
    throw invalid()
  }

  const cookies = cookiesOf(req.headers)
  const caller: Caller = { kind: 'anonymous', ...(ip ? { ip } : {}) }
  let byCookie = false
  const secret = cookies.get(SESSION_COOKIE)
  if (secret && wellFormed(secret, 'session')) {
    const session = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', hashOf(secret)).executeTakeFirst()
    if (session && session.kind !== 'link' && session.revoked_at === null && session.expires_at > at) {
      const principal = await db.selectFrom('principals').select(['id', 'kind', 'is_admin']).where('id', '=', session.principal_id).executeTakeFirst()
      if (principal) {
        caller.principalId = principal.id
        caller.kind = principal.kind
        if (principal.is_admin === 1) caller.admin = true
        caller.sessionId = session.id
        authenticatedAt.set(caller, session.authenticated_at)
        byCookie = true
        await touch(db, 'sessions', session.id, session.last_used_at, now)
      }
    }
  }
  const passes = new Map<string, LinkPass>()
  for (const [name, value] of cookies) {
    if (!name.startsWith(LINK_COOKIE_PREFIX) || !wellFormed(value, 'session')) continue
    const session = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', hashOf(value)).executeTakeFirst()
    if (!session || session.kind !== 'link' || session.revoked_at !== null || session.expires_at <= at || !session.link_id || !session.deck_id) continue
    if (name !== LINK_COOKIE_PREFIX + session.deck_id) continue
    const link = await db.selectFrom('links').select(['id', 'deck_id', 'dead_at', 'expires_at']).where('id', '=', session.link_id).executeTakeFirst()
    if (!link || !linkLive(link, at)) continue
    passes.set(session.deck_id, { linkId: link.id, deckId: session.deck_id, sessionId: session.id })
    byCookie = true
  }
  if (passes.size) caller.links = passes
  if (byCookie) refuseCrossSite(req)
  if (caller.kind === 'anonymous' && typeof req.headers['x-studio-author'] === 'string' && req.headers['x-studio-author'].startsWith('agent:')) caller.kind = 'agent'
  return caller
}

/**
 * CSRF: a write (any method but GET and HEAD) carried by a cookie must come from this server's page.
 * The edge has already refused an Origin that is not this server; a present Origin is therefore ours.
 */
function refuseCrossSite(req: RequestLike): void {
  const method = (req.method ?? 'GET').toUpperCase()
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return
  const site = req.headers['sec-fetch-site']
  if (site === 'same-origin' || site === 'none') return
  if (site === undefined && typeof req.headers.origin === 'string') return
  throw new StudioError('forbidden', 'A write with a session cookie must come from this studio\'s own page (Sec-Fetch-Site same-origin, or its Origin).')
}

const authenticatedAt = new WeakMap<Caller, string | null>()

/**
 * Whether the caller's session signed in (or re-authenticated) within `minutes`: share.settings on
 * the page asks for 10. A caller without a session (a key, the static bearer) answers false.
 */
export function recentlyAuthenticated(caller: Caller | undefined, minutes: number, now = Date.now()): boolean {
  const at = caller ? authenticatedAt.get(caller) : undefined
  return typeof at === 'string' && now - Date.parse(at) <= minutes * MINUTE
}

/**
 * Closers of open MCP sessions by the credential that opened them (src/transports/mcp/http.ts registers
 * them): `key:<id>` for an API key, `session:<id>` for a sign-in session cookie. Revoking the credential
 * (account.tokens.revoke, account.signOut) closes its sessions at once, streams included.
 */
const credentialSessions = new Map<string, Set<() => Promise<void>>>()

/** The credential an MCP session is held by: the caller's key, else its sign-in session, else none. */
export function credentialOf(caller: Caller | undefined): string | undefined {
  if (caller?.keyId) return `key:${caller.keyId}`
  if (caller?.sessionId) return `session:${caller.sessionId}`
  return undefined
}

/** Registers an MCP session opened with a credential (see credentialOf); answers the function that unregisters it. */
export function holdMcpSession(credential: string, close: () => Promise<void>): () => void {
  let set = credentialSessions.get(credential)
  if (!set) credentialSessions.set(credential, (set = new Set()))
  set.add(close)
  return () => {
    set!.delete(close)
    if (!set!.size) credentialSessions.delete(credential)
  }
}

/** Closes every MCP session a credential opened in this process (it was revoked); answers how many. */
export async function closeMcpSessions(credential: string): Promise<number> {
  const set = credentialSessions.get(credential)
  if (!set) return 0
  credentialSessions.delete(credential)
  const closers = [...set]
  await Promise.all(closers.map((close) => close().catch(() => undefined)))
  return closers.length
}
