/**
 * The notification actions' handlers: the caller's inbox (src/comments/inbox.ts) under their keys, their
 * principal name and, where the transport knows it, their address. Inbox records are user state: these
 * writes commit nothing.
 */
import type { ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { inboxOf, type InboxRecord, type Level } from '../../comments/inbox.js'
import { callerKeys, sendDueMail } from '../../comments/notify.js'
import { recipientKey } from '../../comments/inbox.js'

/** Mentions lead a record's kinds: what a reader most needs to see first. */
const ORDER = ['mention', 'assignment', 'reply', 'resolution', 'reaction', 'request', 'grant']

function shown(record: InboxRecord) {
  const kinds = [...record.kinds].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
  return {
    id: record.id,
    kind: kinds[0] ?? 'reply',
    kinds,
    deckId: record.deckId,
    deckTitle: record.deckTitle,
    threadId: record.threadId,
    place: record.place,
    link: record.link,
    actors: record.actors,
    count: record.count,
    excerpt: record.last.excerpt,
    ...(record.last.commentId ? { commentId: record.last.commentId } : {}),
    read: record.read,
    firstAt: record.firstAt,
    updatedAt: record.updatedAt,
  }
}

/** Keeps a real address a principal calls with (git's user.email), so their mail can reach them. */
async function learn(ctx: ActionContext): Promise<void> {
  const email = ctx.principal.email
  if (!email || ctx.ws.embedded || email.endsWith('.invalid')) return
  await inboxOf(ctx.ws).learnAddress(recipientKey({ principal: ctx.principal.author }), email)
}

export async function list(ctx: ActionContext, input: { unread?: boolean; since?: string; limit?: number }) {
  if (!ctx.ws.embedded) {
    await learn(ctx)
    await sendDueMail(ctx.ws)
  }
  const { records, unread } = await inboxOf(ctx.ws).list(callerKeys(ctx.principal), {
    unread: input.unread,
    since: input.since === undefined ? undefined : Date.parse(input.since),
    limit: input.limit,
  })
  return { notifications: records.map(shown), unread }
}

export async function markRead(ctx: ActionContext, input: { ids?: string[]; all?: true }) {
  const inbox = inboxOf(ctx.ws)
  const keys = callerKeys(ctx.principal)
  if (!input.all && input.ids) {
    const mine = new Set((await inbox.list(keys, { limit: Number.MAX_SAFE_INTEGER })).records.map((r) => r.id))
    const unknown = input.ids.find((id) => !mine.has(id))
    if (unknown !== undefined) fail('not_found', `Your inbox has no notification "${unknown}"; notification.list names them.`, { pointer: `/ids/${input.ids.indexOf(unknown)}` })
  }
  return { unread: await inbox.markRead(keys, input.all ? 'all' : input.ids!) }
}

export async function settings(ctx: ActionContext, input: { level?: Level; email?: boolean; activityForCommenters?: boolean }) {
  const inbox = inboxOf(ctx.ws)
  const deckId = await ctx.deckId()
  const me = recipientKey({ principal: ctx.principal.author })
  await learn(ctx)
  const patch = { ...(input.level !== undefined ? { level: input.level } : {}), ...(input.email !== undefined ? { email: input.email } : {}) }
  const mine = Object.keys(patch).length ? await inbox.setSettings(me, deckId, patch) : await inbox.settings(me, deckId)
  const deck = input.activityForCommenters !== undefined ? await inbox.setDeckSettings(deckId, { activityForCommenters: input.activityForCommenters }) : await inbox.deckSettings(deckId)
  return { level: mine.level, email: mine.email, activityForCommenters: deck.activityForCommenters }
}
