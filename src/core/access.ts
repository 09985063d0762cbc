/**
 * The one role table (docs/access.md): what a caller may do on a deck, checked by the engine for every
 * action (src/core/engine.ts), whatever the transport. Each action declares the capability it needs
 * (src/core/action.ts `capability`); a caller has it when its role on the deck gives it, the deck's
 * settings allow it, and, for an API key, the key's scopes include it.
 *
 * On a checkout (no identity database) every caller owns every deck. With accounts the role comes
 * from the deck's access record (src/identity/), resolved before this table is read.
 */
import type { Principal } from './principal.js'
import type { Workspace } from '../store/workspace.js'
import { SCOPES, type Scope } from './scopes.js'

export type Role = 'owner' | 'editor' | 'commenter' | 'viewer'
/** The roles a grant, a link or general access can give (the owner is not given, it is transferred). */
export const GIVEN_ROLES = ['viewer', 'commenter', 'editor'] as const
export type GivenRole = (typeof GIVEN_ROLES)[number]

/**
 * read: the deck, its slides, renders of it on screen; readComments: list and read threads;
 * comment: open, reply, react, resolve, assign; write: change the deck; export: PPTX, PDF, HTML and
 * image files of it; download: take its files away (bundles, exports handed back, assets); share:
 * change who has access; admin: the deployment's switches, owners and mail (not a deck role);
 * readActivity: the deck's activity feed (editors and the owner; commenters where the owner allows).
 */
export const CAPABILITIES = ['read', 'readComments', 'comment', 'write', 'export', 'download', 'share', 'admin', 'readActivity'] as const
export type Capability = (typeof CAPABILITIES)[number]

export { SCOPES, type Scope }

/** The five switches of a deck's access record (share.settings), with their defaults. */
export interface ShareSettings {
  editorsCanShare: boolean
  viewersCanDownload: boolean
  viewersCanSeeComments: boolean
  showNamesToLinkVisitors: boolean
  allowHtmlBlocks: boolean
}
export const DEFAULT_SETTINGS: Readonly<ShareSettings> = Object.freeze({
  editorsCanShare: true,
  viewersCanDownload: true,
  viewersCanSeeComments: false,
  showNamesToLinkVisitors: false,
  allowHtmlBlocks: false,
})

/** What each role gives before the deck's settings. */
const BY_ROLE: Readonly<Record<Role, ReadonlySet<Capability>>> = {
  owner: new Set(['read', 'readComments', 'comment', 'write', 'export', 'download', 'share', 'readActivity']),
  editor: new Set(['read', 'readComments', 'comment', 'write', 'export', 'download', 'share', 'readActivity']),
  commenter: new Set(['read', 'readComments', 'comment', 'export', 'download']),
  viewer: new Set(['read', 'export', 'download']),
}

/** What each API-key scope lets the key's owner use of their role (a key never adds to the role). */
const BY_SCOPE: Readonly<Record<Scope, readonly Capability[]>> = {
  read: ['read', 'readComments', 'readActivity'],
  comment: ['comment'],
  write: ['write'],
  export: ['export', 'download'],
  share: ['share'],
  admin: ['admin'],
}

/** How a caller reached its role on a deck. */
export type Via = 'owner' | 'grant' | 'link' | 'general' | 'checkout' | 'deployment'

export interface RoleOnDeck {
  role: Role
  via: Via
}

export interface Caps {
  role: Role
  /** A caller that came through a share link (a link visitor): never shares, whatever the link's role. */
  linkVisitor?: boolean
  /** The API key's scopes, where the caller is a key; absent for sessions, the CLI and the static bearer. */
  scopes?: ReadonlySet<string>
  /** An administrator of the deployment (admin.bootstrap, the static bearer). */
  admin?: boolean
}

/**
 * Every capability a caller has on a deck: the role's, adjusted by the deck's settings (editors share
 * only where editorsCanShare; viewers download and export only where viewersCanDownload, read
 * comments only where viewersCanSeeComments; commenters read the activity where the owner allows),
 * minus what a link visitor never has, intersected with an API key's scopes.
 */
export function capabilitiesOf(caller: Caps, settings: Partial<ShareSettings> = {}, grants: DeckGrants = {}): Set<Capability> {
  const s = { ...DEFAULT_SETTINGS, ...settings }
  const out = new Set(BY_ROLE[caller.role] ?? [])
  if (caller.role === 'editor' && !s.editorsCanShare) out.delete('share')
  if (caller.role === 'viewer') {
    if (!s.viewersCanDownload) {
      out.delete('download')
      out.delete('export')
    }
    if (s.viewersCanSeeComments) out.add('readComments')
  }
  if (caller.role === 'commenter' && grants.activityForCommenters === true) out.add('readActivity')
  if (caller.linkVisitor) out.delete('share')
  if (caller.admin) out.add('admin')
  if (caller.scopes) {
    const allowed = new Set<Capability>()
    for (const scope of caller.scopes) for (const c of BY_SCOPE[scope as Scope] ?? []) allowed.add(c)
    for (const c of [...out]) if (!allowed.has(c)) out.delete(c)
  }
  return out
}

/** Whether the role alone (default settings, no key) gives the capability. */
export function can(principal: Pick<Principal, 'role'>, capability: Capability): boolean {
  return BY_ROLE[principal.role]?.has(capability) ?? false
}

/** What a deck's owner switched on for others (notification.settings activityForCommenters). */
export interface DeckGrants {
  activityForCommenters?: boolean
}

/** `can`, with what the deck's owner allows beyond the role: a commenter reads the activity where the deck says so. */
export function canOnDeck(principal: Pick<Principal, 'role'>, capability: Capability, deck: DeckGrants): boolean {
  return capabilitiesOf({ role: principal.role }, {}, deck).has(capability)
}

/**
 * The engine's check (src/core/engine.ts) for a caller whose role is known: the role table, reading
 * the deck's notification settings only when the role alone does not decide.
 */
export async function allowed(principal: Pick<Principal, 'role' | 'id'>, capability: Capability, ws: Workspace, deckId: () => Promise<string>): Promise<boolean> {
  if (can(principal, capability)) return true
  // Administration is no deck role: on a checkout (no identity principal) the caller, owner of every deck, administers it too.
  if (capability === 'admin') return principal.role === 'owner' && principal.id === undefined
  if (capability !== 'readActivity' || principal.role !== 'commenter') return false
  const { inboxOf } = await import('../comments/inbox.js')
  return canOnDeck(principal, capability, await inboxOf(ws).deckSettings(await deckId()))
}

/** The refusal's words: what the capability lets a caller do. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  read: 'read the deck (the read capability)',
  readComments: 'read comments (the readComments capability)',
  comment: 'comment',
  write: 'change the deck (the write capability)',
  export: 'export the deck (the export capability)',
  download: "download the deck's files (the download capability)",
  share: 'change who has access (the share capability)',
  admin: 'administer this studio (the admin capability)',
  readActivity: "read the deck's activity (the readActivity capability; commenters where the owner allows it)",
}
