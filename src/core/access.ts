/**
 * What a caller may do on a deck: one table of roles and capabilities, checked by the engine for every
 * action that declares a capability (src/core/engine.ts), whatever the transport. On a checkout every
 * caller owns every deck; sharing (issue 26) gives other callers other roles.
 */
import type { Principal } from './principal.js'
import type { Workspace } from '../store/workspace.js'

export type Role = 'owner' | 'editor' | 'commenter' | 'viewer'

/**
 * readComments: list and read threads; comment: open, reply, react, resolve, assign; readActivity: the
 * deck's activity feed (commenters only where the owner allows it, see `allowed`).
 */
export type Capability = 'readComments' | 'comment' | 'readActivity'

const BY_ROLE: Readonly<Record<Role, ReadonlySet<Capability>>> = {
  owner: new Set(['readComments', 'comment', 'readActivity']),
  editor: new Set(['readComments', 'comment', 'readActivity']),
  commenter: new Set(['readComments', 'comment']),
  // A viewer reads comments only where the owner allows it (share.settings viewersCanSeeComments, issue 26).
  viewer: new Set(),
}

export function can(principal: Pick<Principal, 'role'>, capability: Capability): boolean {
  return BY_ROLE[principal.role]?.has(capability) ?? false
}

/** What a deck's owner switched on for others (notification.settings activityForCommenters). */
export interface DeckGrants {
  activityForCommenters?: boolean
}

/** `can`, with what the deck's owner allows beyond the role: a commenter reads the activity where the deck says so. */
export function canOnDeck(principal: Pick<Principal, 'role'>, capability: Capability, deck: DeckGrants): boolean {
  if (can(principal, capability)) return true
  return capability === 'readActivity' && principal.role === 'commenter' && deck.activityForCommenters === true
}

/**
 * The engine's check (src/core/engine.ts): `canOnDeck`, reading the deck's settings only when the role
 * alone does not decide.
 */
export async function allowed(principal: Pick<Principal, 'role'>, capability: Capability, ws: Workspace, deckId: () => Promise<string>): Promise<boolean> {
  if (can(principal, capability)) return true
  if (capability !== 'readActivity' || principal.role !== 'commenter') return false
  const { inboxOf } = await import('../comments/inbox.js')
  return canOnDeck(principal, capability, await inboxOf(ws).deckSettings(await deckId()))
}

/** The refusal's words: what the capability lets a caller do. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  readComments: 'read comments (the readComments capability)',
  comment: 'comment',
  readActivity: "read the deck's activity (the readActivity capability; commenters where the owner allows it)",
}
