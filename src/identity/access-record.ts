/**
 * A deck's access record in the identity database, and the caller's role on a deck read from it.
 *
 * The record is one `deck_access` row (owner, general access, settings, pending ownership offer, its
 * revision) beside its `grants`, `links` and `access_requests`. A deck with no record yet has no owner
 * among the principals: only the deployment (the static bearer) and the command line on the workspace
 * reach it, until a record is made (`createAccessRecord`: deck.create by a principal, admin.assignOwner).
 *
 * The role: the owner; else the best of a live grant (to the principal, or to its address once the
 * address is verified by a sign-in) and a live link the caller holds a pass for (a link visitor); with
 * general access in link mode, its link is one such link.
 */
import { DEFAULT_SETTINGS, type Role, type ShareSettings, type Via } from '../core/access.js'
import type { Caller } from './caller.js'
import type { IdentityTx } from './db.js'
import type { DeckAccessTable, LinkTable } from './schema.js'

export interface CallerRole {
  role: Role
  via: Via
  /** The role came through a share link (and no grant gives as much). */
  linkVisitor: boolean
  /** When the grant giving the role expires (null for never, or when not a grant). */
  expiresAt: string | null
  settings: ShareSettings
}

const RANK: Readonly<Record<Role, number>> = { viewer: 1, commenter: 2, editor: 3, owner: 4 }

/** The deck's record row, or null when it has none. */
export async function accessRow(db: IdentityTx, deckId: string): Promise<DeckAccessTable | null> {
  return (await db.selectFrom('deck_access').selectAll().where('deck_id', '=', deckId).executeTakeFirst()) ?? null
}

/** The five switches of a record (stored as JSON; a member missing or of the wrong type takes its default). */
export function settingsOf(row: Pick<DeckAccessTable, 'settings'> | null): ShareSettings {
  const out: ShareSettings = { ...DEFAULT_SETTINGS }
  if (!row) return out
  let raw: unknown
  try {
    raw = JSON.parse(row.settings)
  } catch {
    return out
  }
  if (raw && typeof raw === 'object') {
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof ShareSettings)[]) {
      const value = (raw as Record<string, unknown>)[key]
      if (typeof value === 'boolean') out[key] = value
    }
  }
  return out
}

/** Whether a link gives access now (not revoked, rotated away, stopped or past its expiry). */
export function linkLive(link: Pick<LinkTable, 'dead_at' | 'expires_at'>, now: string): boolean {
  return link.dead_at === null && (link.expires_at === null || link.expires_at > now)
}

/** Makes the deck's record with its owner, at revision 0, if it has none; answers the row. */
export async function createAccessRecord(db: IdentityTx, deckId: string, ownerId: string, now = new Date().toISOString()): Promise<DeckAccessTable> {
  const row: DeckAccessTable = {
    deck_id: deckId,
    owner_id: ownerId,
    revision: 0,
    general_mode: 'restricted',
    general_role: 'viewer',
    general_link_id: null,
    settings: JSON.stringify(DEFAULT_SETTINGS),
    pending_owner: null,
    updated_at: now,
    updated_by: ownerId,
  }
  await db.insertInto('deck_access').values(row).onConflict((c) => c.column('deck_id').doNothing()).execute()
  return (await accessRow(db, deckId)) ?? row
}

/**
 * The caller's role on the deck, or null when it has none. `caller` undefined is a checkout (the
 * owner); the deployment's bearer owns every deck.
 */
export async function roleOn(db: IdentityTx, caller: Caller | undefined, deckId: string, now = new Date().toISOString()): Promise<CallerRole | null> {
  if (!caller) return { role: 'owner', via: 'checkout', linkVisitor: false, expiresAt: null, settings: { ...DEFAULT_SETTINGS } }
  const row = await accessRow(db, deckId)
  const settings = settingsOf(row)
  if (caller.root) return { role: 'owner', via: 'deployment', linkVisitor: false, expiresAt: null, settings }
  if (!row) return null
  if (caller.principalId && row.owner_id === caller.principalId) return { role: 'owner', via: 'owner', linkVisitor: false, expiresAt: null, settings }

  let best: CallerRole | null = null
  const consider = (candidate: CallerRole) => {
    if (!best || RANK[candidate.role] > RANK[best.role] || (RANK[candidate.role] === RANK[best.role] && best.linkVisitor && !candidate.linkVisitor)) best = candidate
  }

  if (caller.principalId) {
    const principal = await db.selectFrom('principals').select(['email', 'trust']).where('id', '=', caller.principalId).executeTakeFirst()
    const email = principal?.trust === 'verified' ? principal.email : null
    let grants = db.selectFrom('grants').select(['role', 'expires_at']).where('deck_id', '=', deckId)
    grants = email ? grants.where((eb) => eb.or([eb('principal_id', '=', caller.principalId!), eb('email', '=', email)])) : grants.where('principal_id', '=', caller.principalId)
    for (const grant of await grants.execute()) {
      if (grant.expires_at !== null && grant.expires_at <= now) continue
      consider({ role: grant.role, via: 'grant', linkVisitor: false, expiresAt: grant.expires_at, settings })
    }
  }

  const pass = caller.links?.get(deckId)
  if (pass) {
    const link = await db.selectFrom('links').select(['role', 'deck_id', 'dead_at', 'expires_at', 'general']).where('id', '=', pass.linkId).executeTakeFirst()
    if (link && link.deck_id === deckId && linkLive(link, now)) {
      consider({ role: link.role, via: link.general ? 'general' : 'link', linkVisitor: true, expiresAt: null, settings })
    }
  }
  return best
}
