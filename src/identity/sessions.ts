/**
 * Browser sessions: signed in (mail link, passkey), anonymous, or opened through a share link. The
 * cookie holds the secret (`studio_ses_…`); the database holds its SHA-256 only.
 */
import type { IdentityTx } from './db.js'
import type { SessionTable } from './schema.js'
import { hashOf, mintSecret, newId } from './secrets.js'

const DAY = 24 * 60 * 60 * 1000
/** How long a session lives: signed-in sessions 30 days, anonymous browsers a year, link sessions 30 days. */
export const SESSION_TTL: Readonly<Record<SessionTable['kind'], number>> = { signin: 30 * DAY, anonymous: 365 * DAY, link: 30 * DAY }

export interface OpenSession {
  /** The cookie's value: shown once (Set-Cookie), never stored. */
  secret: string
  row: SessionTable
}

export async function openSession(
  db: IdentityTx,
  principalId: string,
  kind: SessionTable['kind'],
  options: { method?: string; userAgent?: string; linkId?: string; deckId?: string } = {},
  now = new Date(),
): Promise<OpenSession> {
  const minted = mintSecret('session')
  const at = now.toISOString()
  const row: SessionTable = {
    id: newId('s_'),
    principal_id: principalId,
    kind,
    secret_hash: minted.hash,
    link_id: options.linkId ?? null,
    deck_id: options.deckId ?? null,
    method: options.method ?? null,
    user_agent: options.userAgent?.slice(0, 200) ?? null,
    created_at: at,
    last_used_at: at,
    authenticated_at: kind === 'signin' ? at : null,
    expires_at: new Date(now.getTime() + SESSION_TTL[kind]).toISOString(),
    revoked_at: null,
  }
  await db.insertInto('sessions').values(row).execute()
  return { secret: minted.secret, row }
}

/** A live session by its secret (not revoked, not expired), or undefined. */
export async function sessionBySecret(db: IdentityTx, secret: string, now = new Date().toISOString()): Promise<SessionTable | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', hashOf(secret)).executeTakeFirst()
  if (!row || row.revoked_at !== null || row.expires_at <= now) return undefined
  return row
}

/** The principal's live sessions (signed in and anonymous; link sessions belong to their links), newest first. */
export async function sessionsOf(db: IdentityTx, principalId: string, now = new Date().toISOString()): Promise<SessionTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('principal_id', '=', principalId)
    .where('kind', '!=', 'link')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute()
}

/** Ends sessions by id (only the principal's own); answers the ids ended. */
export async function revokeSessions(db: IdentityTx, principalId: string, ids: string[], now = new Date().toISOString()): Promise<string[]> {
  if (!ids.length) return []
  const live = await db.selectFrom('sessions').select('id').where('principal_id', '=', principalId).where('id', 'in', ids).where('revoked_at', 'is', null).execute()
  const ended = live.map((r) => r.id)
  if (ended.length) await db.updateTable('sessions').set({ revoked_at: now }).where('id', 'in', ended).execute()
  return ended
}

/** A short description of the browser a session came from, for lists ("Chrome on Linux"). */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Chrome\//.test(userAgent) ? 'Chrome' : /Firefox\//.test(userAgent) ? 'Firefox' : /Safari\//.test(userAgent) ? 'Safari' : /curl|node|undici/i.test(userAgent) ? 'A program' : 'A browser'
  const os = /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Linux/.test(userAgent) ? 'Linux' : undefined
  return os ? `${browser} on ${os}` : browser
}
