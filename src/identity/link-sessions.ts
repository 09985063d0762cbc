/**
 * Link sessions: what a /s/<token> visit opens. The edge (src/identity/auth.ts) turns their cookies
 * (`studio_link_<deckId>`) into the Caller's passes only while the session and its link are both
 * live; revoking, rotating or stopping a link also revokes its sessions (src/actions/share/run.ts),
 * so a visitor is refused on the very next request.
 */
import { linkLive } from './access-record.js'
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
