/**
 * What a caller may do on a deck: one table of roles and capabilities, checked by the engine for every
 * action that declares a capability (src/core/engine.ts), whatever the transport. On a checkout every
 * caller owns every deck; sharing (issue 26) gives other callers other roles.
 */
import type { Principal } from './principal.js'

export type Role = 'owner' | 'editor' | 'commenter' | 'viewer'

/** readComments: list and read threads; comment: open, reply, react, resolve, assign. */
export type Capability = 'readComments' | 'comment'

const BY_ROLE: Readonly<Record<Role, ReadonlySet<Capability>>> = {
  owner: new Set(['readComments', 'comment']),
  editor: new Set(['readComments', 'comment']),
  commenter: new Set(['readComments', 'comment']),
  // A viewer reads comments only where the owner allows it (share.settings viewersCanSeeComments, issue 26).
  viewer: new Set(),
}

export function can(principal: Pick<Principal, 'role'>, capability: Capability): boolean {
  return BY_ROLE[principal.role]?.has(capability) ?? false
}

/** The refusal's words: what the capability lets a caller do. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  readComments: 'read comments (the readComments capability)',
  comment: 'comment',
}
