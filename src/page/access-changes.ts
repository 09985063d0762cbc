/**
 * The access record as the share dialog reads it (share.get), and what differs between two readings
 * of it: the sentences the dialog shows when a write met a newer record (409).
 */
export type Role = 'viewer' | 'commenter' | 'editor'
export type Who = { principal: string } | { email: string }
export interface Grant {
  who: Who
  role: Role
  expiresAt: string | null
  label?: string
}
export interface ShareLink {
  id: string
  role: Role
  label: string | null
  expiresAt: string | null
  createdAt: string
  endedAt?: string
}
export interface AccessRequest {
  id: string
  requester: string
  email: string | null
  role: Role
  message: string | null
  at: string
}
export type SettingName = 'editorsCanShare' | 'viewersCanDownload' | 'viewersCanSeeComments' | 'showNamesToLinkVisitors' | 'allowHtmlBlocks'
export interface AccessRecord {
  general: { mode: 'restricted' | 'link'; role: Role }
  grants?: Grant[]
  links?: ShareLink[]
  deadLinks?: ShareLink[]
  settings?: Record<SettingName, boolean>
  requests?: AccessRequest[]
  owner: string
  ownerLabel?: string | null
  pendingOwner?: string | null
  revision: number
}
export interface ShareAnswer {
  access: AccessRecord
  role: 'owner' | Role
  capabilities: string[]
  revision: number
}

export const SETTINGS: [SettingName, string][] = [
  ['editorsCanShare', 'Editors can share the deck'],
  ['viewersCanDownload', 'Viewers and commenters can download, print and copy'],
  ['viewersCanSeeComments', 'Viewers can see comments'],
  ['showNamesToLinkVisitors', 'Link visitors see the names of people present'],
  ['allowHtmlBlocks', 'HTML blocks run in this deck'],
]

export const whoText = (who: Who) => ('email' in who ? who.email : who.principal)
export const whoKey = (who: Who) => ('email' in who ? `e:${who.email}` : `p:${who.principal}`)
const a = (role: Role) => `${role === 'editor' ? 'an' : 'a'} ${role}`
const cap = (text: string) => text[0].toUpperCase() + text.slice(1)
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '')

/** Sentences saying what differs between two readings of an access record. */
export function changesBetween(before: AccessRecord, after: AccessRecord): string[] {
  const out: string[] = []
  if (before.general.mode !== after.general.mode || before.general.role !== after.general.role) {
    out.push(after.general.mode === 'restricted' ? 'General access is now restricted.' : `Anyone with the link is now ${a(after.general.role)}.`)
  }
  const grants = (r: AccessRecord) => new Map((r.grants ?? []).map((g) => [whoKey(g.who), g]))
  const [g0, g1] = [grants(before), grants(after)]
  for (const [key, g] of g1) {
    const old = g0.get(key)
    if (!old) out.push(`${whoText(g.who)} was added as ${g.role}.`)
    else if (old.role !== g.role) out.push(`${whoText(g.who)} is now ${g.role} (was ${old.role}).`)
    else if (old.expiresAt !== g.expiresAt) out.push(`${whoText(g.who)}'s access ${g.expiresAt ? `now ends on ${day(g.expiresAt)}` : 'no longer ends'}.`)
  }
  for (const [key, g] of g0) if (!g1.has(key)) out.push(`${whoText(g.who)} was removed.`)
  const links = (r: AccessRecord) => new Map((r.links ?? []).map((l) => [l.id, l]))
  const [l0, l1] = [links(before), links(after)]
  for (const [id, l] of l1) {
    const old = l0.get(id)
    if (!old) out.push(`${cap(a(l.role))} link${l.label ? ` “${l.label}”` : ''} was created.`)
    else if (old.role !== l.role) out.push(`The link${l.label ? ` “${l.label}”` : ''} now gives ${l.role} (was ${old.role}).`)
  }
  for (const [id, l] of l0) if (!l1.has(id)) out.push(`The link${l.label ? ` “${l.label}”` : ''} was revoked.`)
  for (const [name, words] of SETTINGS) {
    if (before.settings && after.settings && before.settings[name] !== after.settings[name]) out.push(`“${words}” is now ${after.settings[name] ? 'on' : 'off'}.`)
  }
  const requests = (r: AccessRecord) => new Set((r.requests ?? []).map((q) => q.id))
  const [q0, q1] = [requests(before), requests(after)]
  const asked = [...q1].filter((id) => !q0.has(id)).length
  const answered = [...q0].filter((id) => !q1.has(id)).length
  if (asked) out.push(`${asked} new access request${asked > 1 ? 's' : ''}.`)
  if (answered) out.push(`${answered} access request${answered > 1 ? 's were' : ' was'} answered.`)
  if (before.owner !== after.owner) out.push(`The deck now belongs to ${after.owner}.`)
  else if ((before.pendingOwner ?? null) !== (after.pendingOwner ?? null)) out.push(after.pendingOwner ? `Ownership is offered to ${after.pendingOwner}.` : 'The ownership offer ended.')
  return out
}

