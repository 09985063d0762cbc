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
import { sql } from 'kysely'
import { fail } from '../core/errors.js'
import type { Identity, IdentityTx } from './db.js'
import type { AccessRequestTable, DeckAccessTable, GrantTable, LinkTable } from './schema.js'

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

/** How long share.get keeps showing a dead link. */
export const DEAD_LINK_DAYS = 30

/** The whole record as stored, read at one moment (`now`): what share.get and every share write start from. */
export interface FullRecord {
  row: DeckAccessTable
  settings: ShareSettings
  /** Live grants (an expired grant counts as dead at read time and is left out). */
  grants: GrantTable[]
  links: LinkTable[]
  /** Links dead (revoked, rotated, stopped, expired) within the last DEAD_LINK_DAYS days. */
  deadLinks: LinkTable[]
  requests: (AccessRequestTable & { label: string })[]
  /** The owner's name and address, for the people a share dialog lists (never their principal id alone). */
  owner: { name: string | null; email: string | null }
  now: string
}

/** The pending ownership offer stored on the record. */
export interface OwnerOfferRow {
  principalId?: string
  email?: string
  by: string
  at: string
}

export function pendingOfferOf(row: Pick<DeckAccessTable, 'pending_owner'>): OwnerOfferRow | null {
  if (!row.pending_owner) return null
  try {
    const raw = JSON.parse(row.pending_owner) as OwnerOfferRow
    return raw && typeof raw === 'object' && (typeof raw.principalId === 'string' || typeof raw.email === 'string') ? raw : null
  } catch {
    return null
  }
}

/** When a link stopped giving access (its death, or its expiry once past), or null while it is live. */
export function linkEndedAt(link: Pick<LinkTable, 'dead_at' | 'expires_at'>, now: string): string | null {
  if (link.dead_at) return link.dead_at
  if (link.expires_at !== null && link.expires_at <= now) return link.expires_at
  return null
}

/** Reads the deck's whole record, or null when it has none. */
export async function readRecord(db: IdentityTx, deckId: string, now = new Date().toISOString()): Promise<FullRecord | null> {
  const row = await accessRow(db, deckId)
  if (!row) return null
  const since = new Date(Date.parse(now) - DEAD_LINK_DAYS * 86_400_000).toISOString()
  // Grants made together (one share.invite) share a millisecond: their order is the address, then the principal, never a random id.
  const grants = (await db.selectFrom('grants').selectAll().where('deck_id', '=', deckId).orderBy('created_at').orderBy('email').orderBy('principal_id').orderBy('id').execute()).filter((g) => g.expires_at === null || g.expires_at > now)
  const links: LinkTable[] = []
  const deadLinks: LinkTable[] = []
  for (const link of await db.selectFrom('links').selectAll().where('deck_id', '=', deckId).orderBy('created_at').orderBy('id').execute()) {
    const ended = linkEndedAt(link, now)
    if (ended === null) links.push(link)
    else if (ended >= since) deadLinks.push(link)
  }
  const requests = await db
    .selectFrom('access_requests')
    .leftJoin('principals', 'principals.id', 'access_requests.requester_id')
    .selectAll('access_requests')
    .select(['principals.name as pname', 'principals.email as pemail'])
    .where('access_requests.deck_id', '=', deckId)
    .where('access_requests.status', '=', 'pending')
    .orderBy('access_requests.created_at')
    .execute()
  const owner = await db.selectFrom('principals').select(['name', 'email']).where('id', '=', row.owner_id).executeTakeFirst()
  return {
    row,
    owner: { name: owner?.name ?? null, email: owner?.email ?? null },
    settings: settingsOf(row),
    grants,
    links,
    deadLinks,
    requests: requests.map(({ pname, pemail, ...r }) => ({ ...r, label: pname ?? pemail ?? r.email ?? r.requester_id })),
    now,
  }
}

/** A principal or an address, as the share actions' `who` and `to` inputs name one. */
export type Who = { principal: string } | { email: string }

export const whoOfGrant = (g: Pick<GrantTable, 'principal_id' | 'email'>): Who => (g.principal_id ? { principal: g.principal_id } : { email: g.email ?? '' })

export function shownGrant(g: GrantTable) {
  return { who: whoOfGrant(g), role: g.role, expiresAt: g.expires_at }
}

/** A link as results show it: never its token; its hash only where `withHash` (owner and editors). */
export function shownLink(link: LinkTable, now: string, withHash: boolean) {
  const ended = linkEndedAt(link, now)
  return {
    id: link.id,
    role: link.role,
    label: link.label,
    expiresAt: link.expires_at,
    createdAt: link.created_at,
    ...(withHash ? { tokenHash: link.token_hash } : {}),
    ...(ended ? { endedAt: ended } : {}),
  }
}

export function shownRequest(r: FullRecord['requests'][number]) {
  return { id: r.id, requester: r.label, email: r.email, role: r.role, message: r.message, at: r.created_at }
}

export function offerTarget(row: Pick<DeckAccessTable, 'pending_owner'>): string | null {
  const offer = pendingOfferOf(row)
  return offer ? (offer.principalId ?? offer.email ?? null) : null
}

/**
 * The record as a caller may see it: owner and editors (whoever holds the share capability, and the
 * checkout and the deployment) the whole of it with hashed tokens and dead links; anyone else only
 * the owner, the general access mode and their own grant.
 */
export function recordView(record: FullRecord, full: boolean, own?: (g: GrantTable) => boolean) {
  const { row, now } = record
  const general = { mode: row.general_mode, role: row.general_role }
  if (!full) {
    // Someone without the share capability reads the owner's name, never their address.
    return { general, grants: record.grants.filter((g) => own?.(g) ?? false).map(shownGrant), owner: row.owner_id, ownerLabel: record.owner.name ?? null, revision: row.revision }
  }
  return {
    general,
    grants: record.grants.map(shownGrant),
    links: record.links.map((l) => shownLink(l, now, true)),
    deadLinks: record.deadLinks.map((l) => shownLink(l, now, true)),
    settings: record.settings,
    requests: record.requests.map(shownRequest),
    owner: row.owner_id,
    ownerLabel: record.owner.name ?? record.owner.email,
    pendingOwner: offerTarget(row),
    revision: row.revision,
  }
}

/**
 * The one write path of an access record: `change` runs in one IMMEDIATE transaction after the
 * guard, a conditional `UPDATE deck_access SET revision = revision + 1 WHERE deck_id = ? AND
 * revision = ?`. No row updated: the record moved since `baseRevision` was read (or there is none),
 * and the call is refused 409 stale_revision with `currentRevision` and `current` (the record as
 * `view` shows it to this caller); the transaction rolls back, so nothing of `change` lands.
 */
export async function writeAccess<T>(
  identity: Identity,
  deckId: string,
  baseRevision: number,
  view: (record: FullRecord) => unknown,
  change: (tx: IdentityTx, record: FullRecord) => Promise<T>,
  by: string | null = null,
): Promise<{ out: T; revision: number }> {
  return identity.write(async (tx) => {
    const now = new Date().toISOString()
    await guardRevision(tx, deckId, baseRevision, view, by, now)
    const record = (await readRecord(tx, deckId, now))!
    const out = await change(tx, record)
    return { out, revision: baseRevision + 1 }
  })
}

/** The guard itself, inside a transaction already open: bumps the revision from `baseRevision`, or refuses 409. */
export async function guardRevision(tx: IdentityTx, deckId: string, baseRevision: number, view: (record: FullRecord) => unknown, by: string | null, now = new Date().toISOString()): Promise<number> {
  const updated = await tx
    .updateTable('deck_access')
    .set({ revision: sql`revision + 1`, updated_at: now, updated_by: by })
    .where('deck_id', '=', deckId)
    .where('revision', '=', baseRevision)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) > 0) return baseRevision + 1
  const current = await readRecord(tx, deckId, now)
  if (!current) fail('not_found', `Deck "${deckId}" has no access record yet (no owner): admin.assignOwner gives it one.`)
  fail('stale_revision', `baseRevision ${baseRevision} is stale: the access record of deck "${deckId}" is at revision ${current.row.revision}. Re-read and retry.`, {
    currentRevision: current.row.revision,
    current: view(current),
  })
}
