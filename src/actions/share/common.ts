/**
 * What every share action does before it reads or writes a deck's access record: open the identity
 * database (sharing needs accounts), know the deck, work out the caller's standing on it (role, how
 * reached, capabilities), and name people by principal or address.
 */
import type { ActionContext } from '../../core/action.js'
import { capabilitiesOf, CAPABILITY_WORDS, DEFAULT_SETTINGS, type Capability, type Role } from '../../core/access.js'
import { fail } from '../../core/errors.js'
import { identityOf, type Identity, type IdentityTx } from '../../identity/db.js'
import { readRecord, recordView, roleOn, settingsOf, accessRow, type CallerRole, type FullRecord, type Who } from '../../identity/access-record.js'
import type { GrantTable } from '../../identity/schema.js'
import { mintSecret, newId } from '../../identity/secrets.js'
import { studioAddress } from '../comment/run.js'

/** The workspace's identity database; sharing needs accounts. */
export async function identityFor(ctx: ActionContext): Promise<Identity> {
  const identity = await identityOf(ctx.ws)
  if (!identity) fail('refused', 'Sharing needs accounts, and this workspace has none: `studio serve --accounts` (or admin.bootstrap) turns them on.')
  return identity
}

export function deckMustExist(ctx: ActionContext, deckId: string): void {
  if (!ctx.ws.deckExists(deckId)) fail('not_found', `No deck "${deckId}" in this workspace.`)
}

export interface Standing {
  role: CallerRole | null
  capabilities: Set<Capability>
  /** The caller's verified address, for grants written to an address. */
  email: string | null
  /** Whether a grant is the caller's own (by principal or verified address). */
  own: (g: Pick<GrantTable, 'principal_id' | 'email'>) => boolean
  /** Whether the caller reads the whole record (owner, editors with the share capability, checkout, deployment). */
  full: boolean
  admin: boolean
}

/** The caller's standing on a deck: no caller is the checkout (the owner of everything). */
export async function standingOn(ctx: ActionContext, db: IdentityTx, deckId: string): Promise<Standing> {
  const caller = ctx.caller
  const role = await roleOn(db, caller, deckId)
  let email: string | null = null
  if (caller?.principalId) {
    const p = await db.selectFrom('principals').select(['email', 'trust']).where('id', '=', caller.principalId).executeTakeFirst()
    email = p?.trust === 'verified' ? p.email : null
  }
  const admin = !caller || Boolean(caller.root || caller.admin)
  const capabilities = role
    ? capabilitiesOf({ role: role.role, linkVisitor: role.linkVisitor, ...(caller?.scopes ? { scopes: caller.scopes } : {}), admin }, role.settings)
    : new Set<Capability>(admin ? ['admin'] : [])
  const own = (g: Pick<GrantTable, 'principal_id' | 'email'>) => Boolean((caller?.principalId && g.principal_id === caller.principalId) || (email && g.email === email))
  return { role, capabilities, email, own, full: capabilities.has('share'), admin }
}

/** Refuses 403 unless the caller's standing gives the capability. */
export function need(standing: Standing, capability: Capability, actionId: string): void {
  if (standing.capabilities.has(capability)) return
  fail('forbidden', `${actionId} needs the right to ${CAPABILITY_WORDS[capability]} on this deck, which your role (${standing.role?.role ?? 'none'}) does not give.`)
}

/** Refuses 403 unless the caller owns the deck (the checkout and the deployment own every deck). */
export function needOwner(standing: Standing, actionId: string): void {
  if (standing.role?.role === 'owner') return
  fail('forbidden', `${actionId} is for the deck's owner only; your role is ${standing.role?.role ?? 'none'}.`)
}

/** The record, or 404 when the deck has no owner yet. */
export async function recordOf(db: IdentityTx, deckId: string): Promise<FullRecord> {
  const record = await readRecord(db, deckId)
  if (!record) fail('not_found', `Deck "${deckId}" has no access record yet (no owner): admin.assignOwner gives it one.`)
  return record
}

/** What a refusal for a stale revision carries: the record as this caller may see it. */
export const viewFor = (standing: Standing) => (record: FullRecord) => recordView(record, standing.full, standing.own)

const lower = (email: string) => email.normalize('NFC').trim().toLowerCase()

/** A `who`: the principal (when it names one that exists, or an address a principal holds) and the address. */
export async function resolveWho(db: IdentityTx, who: Who): Promise<{ principalId: string | null; email: string | null; kind: string | null }> {
  if ('principal' in who) {
    const p = await db.selectFrom('principals').select(['id', 'email', 'kind', 'trust']).where('id', '=', who.principal).executeTakeFirst()
    if (!p) fail('not_found', 'No such principal on this studio.', { pointer: '/who/principal' })
    return { principalId: p.id, email: p.trust === 'verified' ? p.email : null, kind: p.kind }
  }
  const email = lower(who.email)
  const p = await db.selectFrom('principals').select(['id', 'kind']).where('email', '=', email).executeTakeFirst()
  return { principalId: p?.id ?? null, email, kind: p?.kind ?? null }
}

/** The grant a `who` names on the deck (by principal, or by address), or null. */
export async function grantOf(db: IdentityTx, deckId: string, who: Who): Promise<GrantTable | null> {
  const { principalId, email } = await resolveWho(db, who)
  const grants = await db.selectFrom('grants').selectAll().where('deck_id', '=', deckId).execute()
  return grants.find((g) => principalId !== null && g.principal_id === principalId) ?? grants.find((g) => email !== null && g.email === email) ?? null
}

/** Whether `who` names the deck's owner. */
export async function isOwner(db: IdentityTx, deckId: string, who: Who): Promise<boolean> {
  const row = await accessRow(db, deckId)
  if (!row) return false
  const { principalId, email } = await resolveWho(db, who)
  if (principalId === row.owner_id) return true
  if (!email) return false
  const owner = await db.selectFrom('principals').select(['email']).where('id', '=', row.owner_id).executeTakeFirst()
  return owner?.email === email
}

/** Writes or updates the grant of a principal (or, without one, of an address). */
export async function putGrant(db: IdentityTx, deckId: string, to: { principalId?: string | null; email?: string | null }, role: Exclude<Role, 'owner'>, by: string, expiresAt: string | null = null): Promise<GrantTable> {
  const grants = await db.selectFrom('grants').selectAll().where('deck_id', '=', deckId).execute()
  const found = (to.principalId ? grants.find((g) => g.principal_id === to.principalId) : undefined) ?? (to.email ? grants.find((g) => g.email === to.email) : undefined)
  if (found) {
    await db.updateTable('grants').set({ role }).where('id', '=', found.id).execute()
    return { ...found, role }
  }
  const grant: GrantTable = {
    id: newId('g_'),
    deck_id: deckId,
    principal_id: to.principalId ?? null,
    email: to.principalId ? null : (to.email ?? null),
    role,
    expires_at: expiresAt,
    created_at: new Date().toISOString(),
    created_by: by,
  }
  await db.insertInto('grants').values(grant).execute()
  return grant
}

/** Who the record says made a change: the principal, or the deployment / the checkout. */
export const actorOf = (ctx: ActionContext) => ctx.caller?.principalId ?? (ctx.caller?.root ? 'deployment' : 'checkout')

/** The studio's address a link opens: STUDIO_PUBLIC_URL, else the request's origin, else a local serve's default. */
export function studioBase(ctx: ActionContext): string {
  if (process.env.STUDIO_PUBLIC_URL?.trim()) return studioAddress()
  return ctx.caller?.origin?.replace(/\/+$/, '') ?? studioAddress()
}

/** A new link's row and its token (the token goes to the answer once; the row holds its hash). */
export function mintLink(deckId: string, role: Exclude<Role, 'owner'>, by: string, options: { label?: string | null; expiresAt?: string | null; general?: boolean } = {}) {
  const token = mintSecret('link')
  return {
    token: token.secret,
    row: {
      id: newId('l_'),
      deck_id: deckId,
      role,
      label: options.label ?? null,
      token_hash: token.hash,
      general: options.general ? 1 : 0,
      expires_at: options.expiresAt ?? null,
      created_at: new Date().toISOString(),
      created_by: by,
      dead_at: null,
      dead_reason: null,
    },
  }
}

export const linkUrl = (ctx: ActionContext, token: string) => `${studioBase(ctx)}/s/${token}`

export { DEFAULT_SETTINGS, settingsOf }
