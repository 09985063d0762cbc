/**
 * The engine's access check for a call with a Caller (src/core/engine.ts): the caller's role on the
 * deck the call names, read from its access record (access-record.ts `roleOn`), then the role table
 * (src/core/access.ts `capabilitiesOf`) with the deck's settings, a link visitor's limits and a
 * key's scopes. Runs under no lock, before the input's revision is looked at.
 *
 * A caller with no role on a deck is told one fixed sentence whether or not the deck exists, so a
 * refusal never says which decks there are.
 */
import type { Action } from '../core/action.js'
import { capabilitiesOf, CAPABILITY_WORDS, DEFAULT_SETTINGS, type Capability } from '../core/access.js'
import { fail } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'
import { accessRow, createAccessRecord, roleOn, type CallerRole } from './access-record.js'
import type { Caller } from './caller.js'
import { identityOf } from './db.js'

/** The one answer to a caller with no role on the deck it names (whether or not that deck exists). */
export const NO_ACCESS = 'You do not have access to this deck (or there is no such deck). Ask its owner to share it with you.'

/** What an administrator-only call answers to anyone else. */
export const ADMIN_ONLY = 'Only an administrator of this studio may do this (the admin capability).'

/** Whether the caller may use the admin capability: the static bearer, or an administrator (a key only with its admin scope). */
export function isAdmin(caller: Caller): boolean {
  return Boolean(caller.root || (caller.admin && (!caller.scopes || caller.scopes.has('admin'))))
}

/**
 * Checks the action's capability for the caller on `deckId` (undefined: the call names none). Answers
 * the caller's role on the deck, or undefined where the capability is not a deck's (admin, none).
 */
export async function checkAccess(ws: Workspace, action: Pick<Action, 'id' | 'capability'>, caller: Caller, deckId: string | undefined): Promise<CallerRole | undefined> {
  const capability = action.capability
  if (!capability) return undefined
  if (capability === 'admin') {
    if (!isAdmin(caller)) fail('forbidden', ADMIN_ONLY)
    return undefined
  }
  const identity = await identityOf(ws)
  if (identity && deckId !== undefined) await adoptOrphan(ws, identity, deckId)
  const role: CallerRole | null =
    identity && deckId !== undefined
      ? await roleOn(identity.db, caller, deckId)
      : caller.root
        ? { role: 'owner', via: 'deployment', linkVisitor: false, expiresAt: null, settings: { ...DEFAULT_SETTINGS } }
        : null
  if (!role) fail('forbidden', NO_ACCESS)
  if (!(await has(ws, caller, role, capability, deckId))) {
    fail('forbidden', `${action.id} needs the right to ${CAPABILITY_WORDS[capability]} on this deck, which your ${role.linkVisitor ? 'link' : 'role'} (${role.role}${caller.scopes ? `, a key with scopes ${[...caller.scopes].join(', ')}` : ''}) does not give.`)
  }
  return role
}

async function has(ws: Workspace, caller: Caller, role: CallerRole, capability: Capability, deckId: string | undefined): Promise<boolean> {
  const caps = { role: role.role, linkVisitor: role.linkVisitor, ...(caller.scopes ? { scopes: caller.scopes } : {}), ...(caller.admin || caller.root ? { admin: true } : {}) }
  if (capabilitiesOf(caps, role.settings).has(capability)) return true
  if (capability !== 'readActivity' || role.role !== 'commenter' || deckId === undefined) return false
  const { inboxOf } = await import('../comments/inbox.js')
  return capabilitiesOf(caps, role.settings, await inboxOf(ws).deckSettings(deckId)).has(capability)
}

/** Refuses a caller that is not a signed-in person or the deployment (deck.create, account.tokens.create). */
export function requirePerson(caller: Caller | undefined, what: string): void {
  if (!caller || caller.root) return
  if (!caller.principalId || caller.kind !== 'person') fail('forbidden', `Sign in to ${what}.`)
}

/** A test of whether the caller may read a deck (deck.list's filter), reading the identity database once per deck. */
export async function canRead(ws: Workspace, caller: Caller): Promise<(deckId: string) => Promise<boolean>> {
  const identity = await identityOf(ws)
  return async (deckId) => {
    if (identity) await adoptOrphan(ws, identity, deckId)
    const role = identity ? await roleOn(identity.db, caller, deckId) : null
    return Boolean(role && (await has(ws, caller, role, 'read', deckId)))
  }
}

/** Decks found with no access record and no owner in their history (made on the checkout). */
const ownerless = new Set<string>()

/** The trailer naming who a deck.create or deck.copy commit made the new deck for (src/core/engine.ts). */
export const OWNER_TRAILER = 'Studio-Owner'

/**
 * A deck that exists with no access record: the process that committed its creation died before it
 * wrote the record (the record is written after the commit). The creating commit names its owner in a
 * trailer, so the record is written now, from the newest such commit of the deck's folder; a deck made
 * on the checkout (no trailer) stays without one, as before: the checkout and administrators own it.
 */
async function adoptOrphan(ws: Workspace, identity: NonNullable<Awaited<ReturnType<typeof identityOf>>>, deckId: string): Promise<void> {
  const key = `${ws.root}\0${deckId}`
  if (ownerless.has(key) || !ws.deckExists(deckId) || (await accessRow(identity.db, deckId))) return
  const log = await ws.git.raw(['log', '-1', '--no-color', `--format=%(trailers:key=${OWNER_TRAILER},valueonly,separator=%x2C)`, `--grep=^${OWNER_TRAILER}: `, '--', ws.gitPath(`decks/${deckId}`)]).catch(() => '')
  const owner = log.trim()
  // A deck made on the checkout names no owner: asked once per process, not at every call.
  if (!owner || owner.includes(',')) return void ownerless.add(key)
  const known = await identity.db.selectFrom('principals').select('id').where('id', '=', owner).executeTakeFirst()
  if (known) await identity.write((tx) => createAccessRecord(tx, deckId, owner))
}
