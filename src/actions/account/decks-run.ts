import type { ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { accessRow, roleOn } from '../../identity/access-record.js'
import { identityOf } from '../../identity/db.js'

type View = 'owned' | 'shared' | 'recent' | 'trash' | 'all'

/** How many decks the recent view lists. */
const RECENT = 20

/**
 * account.decks: the caller's deck index. On a checkout (no identity database, or the command line
 * on the workspace) every deck counts as owned; with accounts each row's role is the caller's role
 * on it from the deck's access record.
 */
export async function decks(ctx: ActionContext, input: { view: View }) {
  const identity = await identityOf(ctx.ws)
  const caller = identity ? ctx.caller : undefined
  const admin = !caller || Boolean(caller.root || caller.admin)
  if (input.view === 'all' && !admin) fail('forbidden', 'The all view needs the right to administer this studio (the admin capability).')
  const rows = []
  for (const id of await ctx.ws.deckIds()) {
    const m = (await ctx.load(id)).manifest
    const found = identity ? await roleOn(identity.db, caller, id) : { role: 'owner' as const, via: 'checkout' as const }
    const owner = identity ? ((await accessRow(identity.db, id))?.owner_id ?? '') : ctx.principal.author
    const trashed = Boolean(m.trashedAt)
    const role = found?.role ?? null
    const keep =
      input.view === 'all' ? true
      : input.view === 'trash' ? trashed && role === 'owner'
      : trashed ? false
      : input.view === 'owned' ? role === 'owner'
      : input.view === 'shared' ? role !== null && role !== 'owner'
      : role !== null
    if (!keep) continue
    rows.push({ id, title: m.title, owner, role: role ?? 'owner', revision: m.revision, stamps: { createdAt: m.stamps.createdAt, updatedAt: m.stamps.updatedAt } })
  }
  if (input.view === 'recent') rows.sort((a, b) => (a.stamps.updatedAt < b.stamps.updatedAt ? 1 : a.stamps.updatedAt > b.stamps.updatedAt ? -1 : 0))
  return { decks: input.view === 'recent' ? rows.slice(0, RECENT) : rows }
}
