/**
 * The caller's profile (display name, avatar choice) wherever it lives: with accounts, the principal's
 * row in the identity database; on a checkout, the author's record in `.studio/principals.json`
 * (src/store/principals.ts).
 *
 * Names are unique per deck by UTS #39 skeleton (src/identity/names.ts). Who shares a deck: with
 * accounts, its owner and every principal holding a grant on it (expired or not; email invitations
 * not yet taken up have no name); the check and the write are one transaction. On a checkout every
 * caller owns every deck, so every principal of the checkout shares every deck: names are unique
 * among all of them.
 */
import { sql } from 'kysely'
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import { profileOf, setProfile } from '../store/principals.js'
import { markOf, pictureOf, type AvatarChoice, type MarkSubject } from './avatar.js'
import { identityExists, identityOf, type IdentityTx } from './db.js'
import { checkName, nameKey, refuseName } from './names.js'

export interface Profile {
  /** The principal id with accounts, the author on a checkout. */
  key: string
  kind: 'person' | 'anonymous' | 'agent'
  trust: 'verified' | 'unverified'
  accounts: boolean
  name: string | null
  avatar: AvatarChoice | null
}

/** Who calls, for their own profile: the identity principal with accounts, the author on a checkout. */
function subject(ctx: ActionContext): { accounts: true; id: string } | { accounts: false; author: string } {
  if (ctx.principal.id) return { accounts: true, id: ctx.principal.id }
  if (identityExists(ctx.ws)) fail('forbidden', `${ctx.action.id} changes the caller's own profile: sign in (or use an API key) first; the deployment's static bearer has no profile.`)
  return { accounts: false, author: ctx.principal.author }
}

const parseAvatar = (text: string | null | undefined): AvatarChoice | null => {
  if (!text) return null
  try {
    const value = JSON.parse(text) as AvatarChoice
    return value && typeof value.variant === 'string' ? value : null
  } catch {
    return null
  }
}

/** The caller's profile as stored. */
export async function profileOfCaller(ctx: ActionContext): Promise<Profile> {
  const who = subject(ctx)
  if (!who.accounts) {
    const stored = profileOf(ctx.ws, who.author)
    return { key: who.author, kind: ctx.principal.kind, trust: 'unverified', accounts: false, name: stored.name ?? null, avatar: (stored.avatar as AvatarChoice | undefined) ?? null }
  }
  const identity = (await identityOf(ctx.ws))!
  const row = await identity.db.selectFrom('principals').selectAll().where('id', '=', who.id).executeTakeFirst()
  if (!row) fail('not_found', 'Your principal is not on this studio any more; sign in again.')
  return { key: row.id, kind: row.kind, trust: row.trust, accounts: true, name: row.name, avatar: parseAvatar(row.avatar) }
}

/** The label a mark shows: the name, else the author (checkout) or the kind. */
export const labelOf = (profile: Profile, ctx: ActionContext) => profile.name ?? (profile.accounts ? (profile.kind === 'agent' ? 'Agent' : 'Guest') : ctx.principal.author)

/** The caller's mark (SVG) from a profile. */
export async function markOfProfile(ctx: ActionContext, profile: Profile): Promise<string> {
  const subjectOf: MarkSubject = { key: profile.key, label: labelOf(profile, ctx), avatar: profile.avatar }
  return markOf(subjectOf, profile.avatar?.variant === 'picture' ? await pictureOf(ctx.ws, profile.avatar.picture) : undefined)
}

/** Another principal who shares a deck with `id` and whose name has this key, if any. */
async function sharesWith(tx: IdentityTx, id: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    with mine as (
      select deck_id from deck_access where owner_id = ${id}
      union select deck_id from grants where principal_id = ${id}
    ), others as (
      select owner_id as pid from deck_access where deck_id in (select deck_id from mine)
      union select principal_id as pid from grants where principal_id is not null and deck_id in (select deck_id from mine)
    )
    select id from principals where name_skeleton = ${key} and id <> ${id} and id in (select pid from others) limit 1`.execute(tx)
  return rows.length > 0
}

/** Checks and stores the caller's name (account.setName); answers the stored name. */
export async function setName(ctx: ActionContext, raw: string): Promise<Profile> {
  const { name, key } = checkName(raw)
  const who = subject(ctx)
  if (!who.accounts) {
    await setProfile(ctx.ws, who.author, (current, others) => {
      // Compared by the key of today's rule (a stored key may be an older rule's).
      for (const other of others.values()) if ((other.name ? nameKey(other.name) : other.nameKey) === key) refuseName('taken')
      return { ...current, name, nameKey: key }
    })
    return profileOfCaller(ctx)
  }
  const identity = (await identityOf(ctx.ws))!
  await identity.write(async (tx) => {
    if (await sharesWith(tx, who.id, key)) refuseName('taken')
    await tx.updateTable('principals').set({ name, name_skeleton: key }).where('id', '=', who.id).execute()
  })
  return profileOfCaller(ctx)
}

/** Stores the caller's avatar choice (account.setAvatar). */
export async function setAvatarChoice(ctx: ActionContext, avatar: AvatarChoice): Promise<Profile> {
  const who = subject(ctx)
  if (!who.accounts) {
    await setProfile(ctx.ws, who.author, (current) => ({ ...current, avatar }))
    return profileOfCaller(ctx)
  }
  const identity = (await identityOf(ctx.ws))!
  await identity.write((tx) => tx.updateTable('principals').set({ avatar: JSON.stringify(avatar) }).where('id', '=', who.id).execute())
  return profileOfCaller(ctx)
}

/** Every picture object key a profile names (admin.avatar.sweep keeps these). */
export async function namedPictures(tx: IdentityTx): Promise<Set<string>> {
  const rows = await tx.selectFrom('principals').select('avatar').where('avatar', 'is not', null).execute()
  const out = new Set<string>()
  for (const row of rows) {
    const key = parseAvatar(row.avatar)?.picture
    if (key) out.add(key)
  }
  return out
}
