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
import { roleOn, type CallerRole } from './access-record.js'
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
    const role = identity ? await roleOn(identity.db, caller, deckId) : null
    return Boolean(role && (await has(ws, caller, role, 'read', deckId)))
  }
}
