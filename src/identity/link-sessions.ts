/**
 * Share links at a transport's edge: opening a link session from a /s/<token> visit, and turning the
 * link credentials a request carries (cookies `studio_link_<deckId>`, a `studio_lnk_…` bearer) into
 * the passes of its Caller. A pass is given only while its link is live and, for a cookie, while its
 * session is: revoking, rotating or stopping a link ends both (share.revokeLink, rotateLink, stop),
 * so a visitor is refused on the very next request.
 */
import { linkLive } from './access-record.js'
import { LINK_COOKIE_PREFIX, type LinkPass } from './caller.js'
import type { IdentityTx } from './db.js'
import { hashOf, mintSecret, newId, wellFormed } from './secrets.js'

/** How long a link session lasts when its link has no expiry. */
const LINK_SESSION_DAYS = 30

/** The live link a token opens, or null (unknown, malformed, revoked, rotated away or expired: all alike). */
export async function liveLinkOf(db: IdentityTx, token: string, now = new Date().toISOString()) {
  if (!wellFormed(token, 'link')) return null
  const link = await db.selectFrom('links').selectAll().where('token_hash', '=', hashOf(token)).executeTakeFirst()
  return link && linkLive(link, now) ? link : null
}

/**
 * Opens a link session for a visit of a live link's URL: the visitor's principal when signed in, else
 * a new anonymous one. Answers the deck and the session's secret (for the cookie, shown nowhere else),
 * or null when the token opens nothing.
 */
export async function openLinkSession(db: IdentityTx, token: string, principalId: string | undefined, userAgent: string | null): Promise<{ deckId: string; secret: string; expiresAt: string } | null> {
  const now = new Date().toISOString()
  const link = await liveLinkOf(db, token, now)
  if (!link) return null
  let principal = principalId
  if (!principal) {
    principal = newId('p_')
    await db.insertInto('principals').values({ id: principal, kind: 'anonymous', email: null, name: null, name_skeleton: null, avatar: null, trust: 'unverified', is_admin: 0, created_at: now, last_seen_at: now }).execute()
  }
  const secret = mintSecret('session')
  const cap = new Date(Date.parse(now) + LINK_SESSION_DAYS * 86_400_000).toISOString()
  const expiresAt = link.expires_at !== null && link.expires_at < cap ? link.expires_at : cap
  await db
    .insertInto('sessions')
    .values({ id: newId('s_'), principal_id: principal, kind: 'link', secret_hash: secret.hash, link_id: link.id, deck_id: link.deck_id, method: null, user_agent: userAgent?.slice(0, 300) ?? null, created_at: now, last_used_at: now, authenticated_at: null, expires_at: expiresAt, revoked_at: null })
    .execute()
  return { deckId: link.deck_id, secret: secret.secret, expiresAt }
}

/**
 * The link passes of a request: one per `studio_link_<deckId>` cookie whose session is live and whose
 * link is still live, and one for a link token presented as the bearer. Answers the principal of the
 * link sessions too (a visitor's anonymous principal), for a request that carries no other.
 */
export async function linkPassesOf(db: IdentityTx, cookies: ReadonlyMap<string, string>, bearer: string | undefined): Promise<{ passes: Map<string, LinkPass>; principalId?: string }> {
  const now = new Date().toISOString()
  const passes = new Map<string, LinkPass>()
  let principalId: string | undefined
  for (const [name, value] of cookies) {
    if (!name.startsWith(LINK_COOKIE_PREFIX) || !wellFormed(value, 'session')) continue
    const deckId = name.slice(LINK_COOKIE_PREFIX.length)
    const session = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', hashOf(value)).where('kind', '=', 'link').executeTakeFirst()
    if (!session || session.deck_id !== deckId || !session.link_id || session.revoked_at !== null || session.expires_at <= now) continue
    const link = await db.selectFrom('links').select(['deck_id', 'dead_at', 'expires_at']).where('id', '=', session.link_id).executeTakeFirst()
    if (!link || link.deck_id !== deckId || !linkLive(link, now)) continue
    passes.set(deckId, { linkId: session.link_id, deckId, sessionId: session.id })
    principalId ??= session.principal_id
  }
  if (bearer) {
    const link = await liveLinkOf(db, bearer, now)
    if (link) passes.set(link.deck_id, { linkId: link.id, deckId: link.deck_id })
  }
  return { passes, ...(principalId ? { principalId } : {}) }
}

/** A Cookie header as a Map (names and values as sent; a repeated name keeps its first value). */
export function cookiesOf(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim())
  }
  return out
}
