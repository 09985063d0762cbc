/**
 * The share actions' handlers. Every write goes through `writeAccess` (src/identity/access-record.ts):
 * one IMMEDIATE transaction whose conditional revision bump is the guard. Nothing here touches git:
 * the access record is deployment state, never deck content.
 */
import { clientKey, consumeHourly, LIMITS } from '../../identity/limits.js'
import type { ActionContext } from '../../core/action.js'
import { capabilitiesOf, type Role } from '../../core/access.js'
import { fail } from '../../core/errors.js'
import { sendMail, mailConfigured } from '../../comments/mail.js'
import { flagOn } from '../../store/flags.js'
import { createAccessRecord, guardRevision, pendingOfferOf, readRecord, recordView, roleOn, shownGrant, shownLink, shownRequest, writeAccess, type FullRecord, type Who } from '../../identity/access-record.js'
import type { IdentityTx } from '../../identity/db.js'
import type { GrantTable, LinkTable } from '../../identity/schema.js'
import { newId } from '../../identity/secrets.js'
import { actorOf, deckMustExist, grantOf, identityFor, isOwner, linkUrl, mintLink, need, needOwner, putGrant, recordOf, resolveWho, standingOn, studioBase, viewFor, type Standing } from './common.js'

type Given = Exclude<Role, 'owner'>
const iso = () => new Date().toISOString()

/** Opens the record for a write: identity, deck, standing, and the record (404 when none). */
async function opening(ctx: ActionContext, deckId: string) {
  deckMustExist(ctx, deckId)
  const identity = await identityFor(ctx)
  const standing = await standingOn(ctx, identity.db, deckId)
  return { identity, standing }
}

/** Runs one guarded write as `standing`: the record after it answers beside `out`. */
async function write<T>(ctx: ActionContext, deckId: string, base: number, standing: Standing, change: (tx: IdentityTx, record: FullRecord) => Promise<T>) {
  const identity = await identityFor(ctx)
  return writeAccess(identity, deckId, base, viewFor(standing), change, actorOf(ctx))
}

async function accessAfter(ctx: ActionContext, deckId: string, standing: Standing) {
  const identity = await identityFor(ctx)
  return recordView((await recordOf(identity.db, deckId))!, standing.full, standing.own)
}

async function liveLink(tx: IdentityTx, deckId: string, linkId: string, record: FullRecord): Promise<LinkTable> {
  const link = record.links.find((l) => l.id === linkId)
  if (link) return link
  const any = await tx.selectFrom('links').select('id').where('id', '=', linkId).where('deck_id', '=', deckId).executeTakeFirst()
  if (any) fail('refused', `Link ${linkId} no longer works (revoked, rotated or expired).`, { pointer: '/linkId' })
  fail('not_found', `No link ${linkId} on deck "${deckId}".`, { pointer: '/linkId' })
}

async function killLinks(tx: IdentityTx, ids: string[], reason: LinkTable['dead_reason'], at: string) {
  if (ids.length === 0) return
  await tx.updateTable('links').set({ dead_at: at, dead_reason: reason }).where('id', 'in', ids).where('dead_at', 'is', null).execute()
  // Sessions opened through a dead link end with it (roleOn ignores a dead link too).
  await tx.updateTable('sessions').set({ revoked_at: at }).where('link_id', 'in', ids).where('revoked_at', 'is', null).execute()
}

function futureIso(value: string, pointer: string, maxDays?: number): string {
  const at = Date.parse(value)
  if (Number.isNaN(at)) fail('invalid_input', 'Not an ISO time.', { pointer })
  if (at <= Date.now()) fail('invalid_input', 'The expiry must lie in the future.', { pointer })
  if (maxDays !== undefined && at > Date.now() + maxDays * 86_400_000) fail('invalid_input', `The expiry must lie at most ${maxDays === 366 ? 'one year' : `${maxDays} days`} ahead.`, { pointer })
  return new Date(at).toISOString()
}

// share.get, share.check

export async function get(ctx: ActionContext, input: { id: string }) {
  deckMustExist(ctx, input.id)
  const identity = await identityFor(ctx)
  const standing = await standingOn(ctx, identity.db, input.id)
  if (!standing.role) fail('forbidden', `You have no access to deck "${input.id}"; share.requestAccess asks its owner.`)
  const record = await recordOf(identity.db, input.id)
  const via = standing.role.via === 'checkout' || standing.role.via === 'deployment' ? 'owner' : standing.role.via
  return { access: recordView(record, standing.full, standing.own), role: standing.role.role, via, capabilities: [...standing.capabilities].sort(), revision: record.row.revision }
}

export async function check(ctx: ActionContext, input: { id: string; who?: Who }) {
  deckMustExist(ctx, input.id)
  const identity = await identityFor(ctx)
  const standing = await standingOn(ctx, identity.db, input.id)
  if (!input.who) {
    const r = standing.role
    return { role: r?.role ?? null, via: r ? (r.via === 'checkout' || r.via === 'deployment' ? 'owner' : r.via) : null, expiresAt: r?.expiresAt ?? null, capabilities: [...standing.capabilities].sort() }
  }
  need(standing, 'share', 'share.check of someone else')
  const db = identity.db
  const { principalId, email } = await resolveWho(db, input.who)
  const record = await recordOf(db, input.id)
  let role: Role | null = null
  let via: 'owner' | 'grant' | null = null
  let expiresAt: string | null = null
  if (await isOwner(db, input.id, input.who)) {
    role = 'owner'
    via = 'owner'
  } else if (principalId) {
    const found = await roleOn(db, { principalId, kind: 'person' }, input.id)
    if (found) ({ role, expiresAt } = found), (via = 'grant')
  }
  if (!role && email) {
    const g = record.grants.find((x) => x.email === email)
    if (g) ((role = g.role), (via = 'grant'), (expiresAt = g.expires_at))
  }
  return { role, via, expiresAt, capabilities: role ? [...capabilitiesOf({ role }, record.settings)].sort() : [] }
}

// General access, stop, settings

export async function setGeneralAccess(ctx: ActionContext, input: { id: string; mode: 'restricted' | 'link'; role?: Given; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.setGeneralAccess')
  const role = input.role ?? 'viewer'
  const by = actorOf(ctx)
  const { out: token, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const now = iso()
    const current = record.row.general_link_id ? record.links.find((l) => l.id === record.row.general_link_id) : undefined
    if (input.mode === 'restricted') {
      if (record.row.general_link_id) await killLinks(tx, [record.row.general_link_id], 'revoked', now)
      await tx.updateTable('deck_access').set({ general_mode: 'restricted', general_role: role, general_link_id: null }).where('deck_id', '=', input.id).execute()
      return null
    }
    if (current) {
      await tx.updateTable('links').set({ role }).where('id', '=', current.id).execute()
      await tx.updateTable('deck_access').set({ general_mode: 'link', general_role: role }).where('deck_id', '=', input.id).execute()
      return null
    }
    const minted = mintLink(input.id, role, by, { general: true, label: 'General access' })
    await tx.insertInto('links').values(minted.row).execute()
    await tx.updateTable('deck_access').set({ general_mode: 'link', general_role: role, general_link_id: minted.row.id }).where('deck_id', '=', input.id).execute()
    return minted.token
  })
  return { access: await accessAfter(ctx, input.id, standing), ...(token ? { url: linkUrl(ctx, token) } : {}), revision }
}

export async function stop(ctx: ActionContext, input: { id: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.stop')
  const { out: revoked, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const ids = record.links.map((l) => l.id)
    await killLinks(tx, ids, 'stopped', iso())
    await tx.updateTable('deck_access').set({ general_mode: 'restricted', general_link_id: null }).where('deck_id', '=', input.id).execute()
    return ids
  })
  return { access: await accessAfter(ctx, input.id, standing), revoked, revision }
}

const SETTING_KEYS = ['editorsCanShare', 'viewersCanDownload', 'viewersCanSeeComments', 'showNamesToLinkVisitors', 'allowHtmlBlocks'] as const

/** How recent a sign-in share.settings asks for on the page. */
export const REAUTH_MS = 10 * 60_000

export async function settings(ctx: ActionContext, input: { id: string; baseRevision: number } & Partial<Record<(typeof SETTING_KEYS)[number], boolean>>) {
  const { identity, standing } = await opening(ctx, input.id)
  needOwner(standing, 'share.settings')
  if (ctx.transport === 'P' && ctx.caller && !ctx.caller.root) {
    const session = ctx.caller.sessionId ? await identity.db.selectFrom('sessions').select(['authenticated_at']).where('id', '=', ctx.caller.sessionId).executeTakeFirst() : undefined
    const at = session?.authenticated_at ? Date.parse(session.authenticated_at) : NaN
    if (!(at > Date.now() - REAUTH_MS)) fail('reauth_required', 'Changing these settings needs a sign-in within the last 10 minutes: sign in again, then retry.')
  }
  const { out: next, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const next = { ...record.settings }
    for (const key of SETTING_KEYS) if (typeof input[key] === 'boolean') next[key] = input[key]!
    await tx.updateTable('deck_access').set({ settings: JSON.stringify(next) }).where('deck_id', '=', input.id).execute()
    return next
  })
  return { settings: next, revision }
}

// Links

export async function createLink(ctx: ActionContext, input: { id: string; role: Given; label?: string; expiresAt?: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.createLink')
  const expiresAt = input.expiresAt === undefined ? null : futureIso(input.expiresAt, '/expiresAt')
  const minted = mintLink(input.id, input.role, actorOf(ctx), { label: input.label ?? null, expiresAt })
  const { revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx) => {
    await tx.insertInto('links').values(minted.row).execute()
  })
  return { link: shownLink(minted.row, iso(), true), url: linkUrl(ctx, minted.token), revision }
}

export async function listLinks(ctx: ActionContext, input: { id: string }) {
  const { identity, standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.listLinks')
  const record = await recordOf(identity.db, input.id)
  const shown = (l: LinkTable) => {
    const { tokenHash: _hash, ...rest } = shownLink(l, record.now, true)
    return rest
  }
  return { links: record.links.map(shown), deadLinks: record.deadLinks.map(shown), revision: record.row.revision }
}

export async function revokeLink(ctx: ActionContext, input: { id: string; linkId: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.revokeLink')
  const { out: link, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const found = await tx.selectFrom('links').selectAll().where('id', '=', input.linkId).where('deck_id', '=', input.id).executeTakeFirst()
    if (!found) fail('not_found', `No link ${input.linkId} on deck "${input.id}".`, { pointer: '/linkId' })
    const at = iso()
    if (found.dead_at === null) await killLinks(tx, [found.id], 'revoked', at)
    if (record.row.general_link_id === found.id) await tx.updateTable('deck_access').set({ general_mode: 'restricted', general_link_id: null }).where('deck_id', '=', input.id).execute()
    return { ...found, dead_at: found.dead_at ?? at, dead_reason: found.dead_reason ?? 'revoked' }
  })
  return { link: shownLink(link, iso(), true), revision }
}

export async function rotateLink(ctx: ActionContext, input: { id: string; linkId: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.rotateLink')
  const by = actorOf(ctx)
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const old = await liveLink(tx, input.id, input.linkId, record)
    // The old token dies with its row (and the sessions opened through it); the new row takes its place.
    const minted = mintLink(input.id, old.role, by, { label: old.label, expiresAt: old.expires_at, general: old.general === 1 })
    await killLinks(tx, [old.id], 'rotated', iso())
    await tx.insertInto('links').values(minted.row).execute()
    if (record.row.general_link_id === old.id) await tx.updateTable('deck_access').set({ general_link_id: minted.row.id }).where('deck_id', '=', input.id).execute()
    return minted
  })
  return { link: shownLink(out.row, iso(), true), url: linkUrl(ctx, out.token), revision }
}

export async function setLinkRole(ctx: ActionContext, input: { id: string; linkId: string; role: Given; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.setLinkRole')
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const link = await liveLink(tx, input.id, input.linkId, record)
    await tx.updateTable('links').set({ role: input.role }).where('id', '=', link.id).execute()
    if (record.row.general_link_id === link.id) await tx.updateTable('deck_access').set({ general_role: input.role }).where('deck_id', '=', input.id).execute()
    return { ...link, role: input.role }
  })
  return { link: shownLink(out, iso(), true), revision }
}

// Grants

async function mailOutcome(ctx: ActionContext, to: string, subject: string, text: string): Promise<'sent' | 'no-mail'> {
  if (flagOn(ctx.ws, 'email') || !mailConfigured()) return 'no-mail'
  try {
    await sendMail(ctx.ws, { to, subject, text })
    return 'sent'
  } catch {
    return 'no-mail'
  }
}

export async function invite(ctx: ActionContext, input: { id: string; emails: string[]; role: Given; message?: string; notify?: boolean; baseRevision: number }) {
  if (flagOn(ctx.ws, 'invites')) fail('switched_off', 'Invitations are switched off on this studio (the invites switch).', { details: { flag: 'invites' } })
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.invite')
  const emails = [...new Set(input.emails.map((e) => e.normalize('NFC').trim().toLowerCase()))]
  const by = actorOf(ctx)
  const { revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const ownerEmail = (await tx.selectFrom('principals').select('email').where('id', '=', record.row.owner_id).executeTakeFirst())?.email
    for (const email of emails) {
      if (email === ownerEmail) continue
      // One grant per address, whether or not an account holds it: the answer is the same either way.
      await putGrant(tx, input.id, { email }, input.role, by)
    }
  })
  const link = `${studioBase(ctx)}/d/${input.id}`
  const results = []
  for (const email of emails) {
    const outcome = input.notify === false ? 'no-mail' : await mailOutcome(ctx, email, `You were invited to a deck (${input.id})`, `You were given ${input.role} access to the deck "${input.id}".${input.message ? `\n\n${input.message}` : ''}\n\nOpen it: ${link}\n`)
    results.push({ email, outcome })
  }
  return { results, link, revision }
}

async function grantToChange(tx: IdentityTx, deckId: string, who: Who): Promise<GrantTable> {
  if (await isOwner(tx, deckId, who)) fail('refused', "The owner's access cannot be changed here (share.transferOwnership gives the deck away).", { pointer: '/who' })
  const grant = await grantOf(tx, deckId, who)
  if (!grant) fail('not_found', 'No grant on this deck for that principal or address.', { pointer: '/who' })
  return grant
}

export async function setRole(ctx: ActionContext, input: { id: string; who: Who; role: Given; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.setRole')
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx) => {
    const grant = await grantToChange(tx, input.id, input.who)
    await tx.updateTable('grants').set({ role: input.role }).where('id', '=', grant.id).execute()
    return { ...grant, role: input.role }
  })
  return { grant: shownGrant(out), revision }
}

export async function remove(ctx: ActionContext, input: { id: string; who: Who; baseRevision: number }) {
  const { identity, standing } = await opening(ctx, input.id)
  const target = await grantOf(identity.db, input.id, input.who)
  // Anyone may leave a deck; removing someone else needs the right to share.
  if (!(target && standing.own(target))) need(standing, 'share', 'share.remove')
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx) => {
    const grant = await grantToChange(tx, input.id, input.who)
    await tx.deleteFrom('grants').where('id', '=', grant.id).execute()
    return grant
  })
  return { removed: shownGrant(out), revision }
}

export async function setExpiry(ctx: ActionContext, input: { id: string; who: Who; expiresAt: string | null; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.setExpiry')
  const expiresAt = input.expiresAt === null ? null : futureIso(input.expiresAt, '/expiresAt', 366)
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx) => {
    const grant = await grantToChange(tx, input.id, input.who)
    await tx.updateTable('grants').set({ expires_at: expiresAt }).where('id', '=', grant.id).execute()
    return { ...grant, expires_at: expiresAt }
  })
  return { grant: shownGrant(out), revision }
}

// Access requests

/** The one answer share.requestAccess gives, whatever happened. */
export const REQUEST_SENTENCE = 'If this deck exists and you do not have that access yet, its owner has been asked; you will hear back by mail if you gave an address.'

export async function requestAccess(ctx: ActionContext, input: { id: string; role: Given; message?: string; email?: string }) {
  const caller = ctx.caller
  if (!caller?.principalId && !caller?.root && ctx.caller && !input.email) fail('invalid_input', 'An anonymous request needs an email to answer to.', { pointer: '/email' })
  await consumeHourly([[LIMITS.accessRequestsPerClient, clientKey(caller?.ip)]], 'Too many access requests from this address')
  const identity = await identityOf0(ctx)
  if (!identity || !ctx.ws.deckExists(input.id) || !caller || caller.root) return { message: REQUEST_SENTENCE }
  const email = input.email?.normalize('NFC').trim().toLowerCase() ?? null
  let ownerMail: string | null = null
  await identity.write(async (tx) => {
    const record = await readRecord(tx, input.id)
    if (!record) return
    const existing = await roleOn(tx, caller, input.id)
    if (existing) return
    let requester = caller.principalId
    if (!requester) {
      requester = newId('p_')
      await tx.insertInto('principals').values({ id: requester, kind: 'anonymous', email: null, name: null, name_skeleton: null, avatar: null, trust: 'unverified', is_admin: 0, created_at: iso(), last_seen_at: null }).execute()
    }
    const inserted = await tx
      .insertInto('access_requests')
      .values({ id: newId('r_'), deck_id: input.id, requester_id: requester, email, role: input.role, message: input.message ?? null, created_at: iso(), status: 'pending', answered_at: null, answered_by: null, granted_role: null })
      .onConflict((c) => c.doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) ownerMail = (await tx.selectFrom('principals').select('email').where('id', '=', record.row.owner_id).executeTakeFirst())?.email ?? null
  })
  if (ownerMail) await mailOutcome(ctx, ownerMail, `Access requested to ${input.id}`, `Someone asked for ${input.role} access to the deck "${input.id}". Answer it: ${studioBase(ctx)}/d/${input.id}\n`)
  return { message: REQUEST_SENTENCE }
}

async function identityOf0(ctx: ActionContext) {
  const { identityOf } = await import('../../identity/db.js')
  return identityOf(ctx.ws)
}

export async function listRequests(ctx: ActionContext, input: { id: string }) {
  const { identity, standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.listRequests')
  const record = await recordOf(identity.db, input.id)
  return { requests: record.requests.map(shownRequest) }
}

export async function respond(ctx: ActionContext, input: { id: string; requestId: string; grant: Given | null; notify?: boolean; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  need(standing, 'share', 'share.respond')
  const by = actorOf(ctx)
  const { out, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    const request = record.requests.find((r) => r.id === input.requestId)
    if (!request) fail('not_found', `No pending request ${input.requestId} on deck "${input.id}".`, { pointer: '/requestId' })
    const now = iso()
    const grant = input.grant === null ? null : await putGrant(tx, input.id, { principalId: request.requester_id }, input.grant, by)
    await tx.updateTable('access_requests').set({ status: input.grant === null ? 'declined' : 'approved', answered_at: now, answered_by: by, granted_role: input.grant }).where('id', '=', request.id).execute()
    const to = request.email ?? (await tx.selectFrom('principals').select('email').where('id', '=', request.requester_id).executeTakeFirst())?.email ?? null
    return { request, grant, to }
  })
  if (input.notify && out.to) {
    const text = input.grant === null ? `Your request for access to the deck "${input.id}" was declined.\n` : `You were given ${input.grant} access to the deck "${input.id}": ${studioBase(ctx)}/d/${input.id}\n`
    await mailOutcome(ctx, out.to, `Your access request for ${input.id}`, text)
  }
  return { request: shownRequest(out.request), grant: out.grant ? shownGrant(out.grant) : null, revision }
}

// Ownership

const offerOut = async (ctx: ActionContext, deckId: string, revision: number) => {
  const identity = await identityFor(ctx)
  const record = (await readRecord(identity.db, deckId))!
  const offer = pendingOfferOf(record.row)
  return { owner: record.row.owner_id, pendingOwner: offer ? (offer.principalId ?? offer.email ?? null) : null, revision }
}

export async function transferOwnership(ctx: ActionContext, input: { id: string; to: Who; baseRevision: number }) {
  const { identity, standing } = await opening(ctx, input.id)
  needOwner(standing, 'share.transferOwnership')
  const target = await resolveWho(identity.db, input.to)
  if ('principal' in input.to && target.kind !== 'person') fail('refused', 'Ownership goes to a signed-in person or an email address, never to an anonymous browser or an agent.', { pointer: '/to' })
  if (await isOwner(identity.db, input.id, input.to)) fail('refused', 'That is already the owner.', { pointer: '/to' })
  const { revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx) => {
    const offer = { ...(target.principalId && 'principal' in input.to ? { principalId: target.principalId } : { email: target.email! }), by: actorOf(ctx), at: iso() }
    await tx.updateTable('deck_access').set({ pending_owner: JSON.stringify(offer) }).where('deck_id', '=', input.id).execute()
  })
  return offerOut(ctx, input.id, revision)
}

/** Whether the caller is the one the pending offer names (by principal, or by verified address). */
function isPendingOwner(record: FullRecord, standing: Standing, ctx: ActionContext): boolean {
  const offer = pendingOfferOf(record.row)
  if (!offer || !ctx.caller?.principalId) return false
  return offer.principalId === ctx.caller.principalId || (offer.email !== undefined && offer.email === standing.email)
}

export async function acceptOwnership(ctx: ActionContext, input: { id: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  const { revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    if (!isPendingOwner(record, standing, ctx)) fail('forbidden', 'Only the person the ownership offer names may accept it.')
    const me = ctx.caller!.principalId!
    const previous = record.row.owner_id
    await tx.deleteFrom('grants').where('deck_id', '=', input.id).where((eb) => eb.or([eb('principal_id', '=', me), ...(standing.email ? [eb('email', '=', standing.email)] : [])])).execute()
    await tx.updateTable('deck_access').set({ owner_id: me, pending_owner: null }).where('deck_id', '=', input.id).execute()
    await putGrant(tx, input.id, { principalId: previous }, 'editor', me)
  })
  return offerOut(ctx, input.id, revision)
}

export async function declineOwnership(ctx: ActionContext, input: { id: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  const { out: ownerId, revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    if (!isPendingOwner(record, standing, ctx)) fail('forbidden', 'Only the person the ownership offer names may decline it.')
    await tx.updateTable('deck_access').set({ pending_owner: null }).where('deck_id', '=', input.id).execute()
    return record.row.owner_id
  })
  const identity = await identityFor(ctx)
  const owner = await identity.db.selectFrom('principals').select('email').where('id', '=', ownerId).executeTakeFirst()
  if (owner?.email) await mailOutcome(ctx, owner.email, `Ownership of ${input.id} declined`, `Your offer to hand over the deck "${input.id}" was declined; you keep it.\n`)
  return offerOut(ctx, input.id, revision)
}

export async function cancelOwnership(ctx: ActionContext, input: { id: string; baseRevision: number }) {
  const { standing } = await opening(ctx, input.id)
  needOwner(standing, 'share.cancelOwnership')
  const { revision } = await write(ctx, input.id, input.baseRevision, standing, async (tx, record) => {
    if (!record.row.pending_owner) fail('refused', 'There is no pending ownership offer to cancel.')
    await tx.updateTable('deck_access').set({ pending_owner: null }).where('deck_id', '=', input.id).execute()
  })
  return offerOut(ctx, input.id, revision)
}

// admin.assignOwner

export async function assignOwner(ctx: ActionContext, input: { id: string; to: Who; baseRevision: number }) {
  deckMustExist(ctx, input.id)
  const identity = await identityFor(ctx)
  const caller = ctx.caller
  if (caller && !caller.root && !caller.admin) fail('forbidden', 'admin.assignOwner needs the right to administer this studio (the admin capability).')
  const by = actorOf(ctx)
  const standing = await standingOn(ctx, identity.db, input.id)
  let target = await resolveWho(identity.db, input.to)
  if ('principal' in input.to && target.kind !== 'person') fail('refused', 'An owner is a person: a signed-in principal or an email address.', { pointer: '/to' })
  return identity.write(async (tx) => {
    let ownerId = target.principalId
    if (!ownerId) {
      // An address nobody signed in with yet: the person it names owns the deck once they do.
      ownerId = newId('p_')
      await tx.insertInto('principals').values({ id: ownerId, kind: 'person', email: target.email, name: null, name_skeleton: null, avatar: null, trust: 'unverified', is_admin: 0, created_at: iso(), last_seen_at: null }).execute()
      target = { ...target, principalId: ownerId }
    }
    const existing = await readRecord(tx, input.id)
    if (!existing) {
      if (input.baseRevision !== 0) fail('stale_revision', `baseRevision ${input.baseRevision} is stale: deck "${input.id}" has no access record yet (revision 0).`, { currentRevision: 0, current: null })
      await createAccessRecord(tx, input.id, ownerId)
      return { owner: ownerId, previousOwner: null, revision: 0 }
    }
    const revision = await guardRevision(tx, input.id, input.baseRevision, viewFor(standing), by)
    const previous = existing.row.owner_id
    if (previous !== ownerId) {
      await tx.deleteFrom('grants').where('deck_id', '=', input.id).where('principal_id', '=', ownerId).execute()
      await tx.updateTable('deck_access').set({ owner_id: ownerId, pending_owner: null }).where('deck_id', '=', input.id).execute()
      await putGrant(tx, input.id, { principalId: previous }, 'editor', by)
    }
    return { owner: ownerId, previousOwner: previous, revision }
  })
}
