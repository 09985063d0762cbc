/**
 * Who hears of a comment write, and the mail that follows. Every comment write calls notifyThread
 * after its commit (src/actions/comment/run.ts `write`), with the thread before and after: the event is
 * read from what changed, so every handler (and any later one) notifies the same way.
 *
 *   a new thread      → its mentions (mention), its assignee (assignment)
 *   a reply           → the reply's mentions (mention); the thread's comment authors, earlier mentions
 *                       and assignee (reply)
 *   an edit           → mentions it adds (mention)
 *   a new assignee    → the assignee (assignment)
 *   resolve / reopen  → the thread's comment authors (resolution)
 *   a reaction added  → the comment's author (reaction)
 *
 * The actor never notifies themself. A recipient's level on the deck filters: `none` hears nothing,
 * `forYou` only mentions, assignments and replies, `all` everything above. Mail is sent by
 * sendDueMail, at the end of a record's 15-minute window, once, if the record is still unread.
 */
import type { DeckDoc } from '../model/deck.js'
import { own } from '../model/own.js'
import type { Workspace } from '../store/workspace.js'
import type { Principal } from '../core/principal.js'
import { studioAddress } from '../actions/comment/run.js'
import { inboxOf, recipientKey, type InboxEvent, type InboxKind, type InboxRecord, type InboxStore } from './inbox.js'
import { sendMail, mailConfigured } from './mail.js'
import type { Anchor } from './anchor.js'
import type { Body, Thread, Who } from './store.js'

export type Clock = () => number

const FOR_YOU = new Set<InboxKind>(['mention', 'assignment', 'reply'])
const EXCERPT_CHARS = 160

/** A caller's keys in the inbox: their principal name and, where known, their address. */
export function callerKeys(principal: Pick<Principal, 'author' | 'email'>): string[] {
  return [recipientKey({ principal: principal.author }), ...(principal.email ? [recipientKey({ email: principal.email })] : [])]
}

/** The body's text with each `{@n}` token written as the one it names. */
function plainText(body: Body): string {
  return body.text.replace(/\{@(\d+)\}/g, (token, n) => {
    const who = body.mentions?.[Number(n)]
    return who ? `@${'principal' in who ? who.principal : who.email}` : token
  })
}

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat
}

/** Where a thread sits, in words. */
export function placeOf(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'deck':
      return 'the deck'
    case 'slide':
      return `slide ${anchor.slideId}`
    case 'notes':
      return `the notes of slide ${anchor.slideId}`
    case 'block':
      return `slide ${anchor.slideId}, block ${anchor.blockId}`
    case 'range':
      return `slide ${anchor.slideId}, block ${anchor.blockId}, characters ${anchor.range[0]}-${anchor.range[1]}`
    case 'cell':
      return `slide ${anchor.slideId}, block ${anchor.blockId}, row ${anchor.row + 1} column ${anchor.col + 1}`
  }
}

/** comment.link's editor URL (src/actions/comment/run.ts `link`). */
function linkOf(deckId: string, doc: DeckDoc, thread: Thread): string {
  const slide = 'slideId' in thread.anchor && own(doc.slides, thread.anchor.slideId) ? `/${encodeURIComponent(thread.anchor.slideId)}` : ''
  return `${studioAddress()}/d/${deckId}${slide}?thread=${encodeURIComponent(thread.id)}`
}

/** Recipients and their kinds for one change of a thread (before undefined: a new thread). */
export function eventsOf(before: Thread | undefined, after: Thread, actor: string): { recipients: Map<string, Set<InboxKind>>; commentId?: string; excerpt: string } {
  const recipients = new Map<string, Set<InboxKind>>()
  const add = (who: Who | string, kind: InboxKind) => {
    const key = typeof who === 'string' ? recipientKey({ principal: who }) : recipientKey(who)
    const kinds = recipients.get(key) ?? new Set<InboxKind>()
    kinds.add(kind)
    recipients.set(key, kinds)
  }
  const earlier = new Map((before?.comments ?? []).map((c) => [c.id, c]))
  const authors = (before ?? after).comments.map((c) => c.author)
  let commentId: string | undefined
  let excerpt = ''
  for (const comment of after.comments) {
    const old = earlier.get(comment.id)
    if (comment.deletedAt) continue
    if (!old) {
      commentId = comment.id
      excerpt = excerptOf(plainText(comment.body))
      for (const who of comment.body.mentions ?? []) add(who, 'mention')
      if (before) {
        for (const author of authors) add(author, 'reply')
        for (const c of before.comments) for (const who of c.body.mentions ?? []) add(who, 'reply')
        if (after.assignee) add(after.assignee, 'reply')
      }
      continue
    }
    const had = new Set((old.body.mentions ?? []).map(recipientKey))
    const added = (comment.body.mentions ?? []).filter((who) => !had.has(recipientKey(who)))
    if (added.length || comment.editedAt !== old.editedAt) {
      commentId ??= comment.id
      if (!excerpt) excerpt = excerptOf(plainText(comment.body))
    }
    for (const who of added) add(who, 'mention')
    for (const [emoji, by] of Object.entries(comment.reactions)) {
      if (by.includes(actor) && !(own(old.reactions, emoji) ?? []).includes(actor)) {
        add(comment.author, 'reaction')
        commentId ??= comment.id
        if (!excerpt) excerpt = `reacted ${emoji} to: ${excerptOf(plainText(comment.body))}`
      }
    }
  }
  if (after.assignee && (!before || JSON.stringify(before.assignee) !== JSON.stringify(after.assignee))) {
    add(after.assignee, 'assignment')
    if (before && !excerpt) excerpt = `assigned the thread to ${'principal' in after.assignee ? after.assignee.principal : after.assignee.email}`
  }
  if (before && before.state !== after.state) {
    for (const author of authors) add(author, 'resolution')
    if (!excerpt) excerpt = after.state === 'resolved' ? 'resolved the thread' : 'reopened the thread'
  }
  if (!excerpt) excerpt = excerptOf(plainText(after.comments[0]?.body ?? { text: '' }))
  return { recipients, ...(commentId ? { commentId } : {}), excerpt }
}

/** The events for the inbox after a recipient's level on the deck, without the actor. */
export async function inboxEvents(inbox: InboxStore, change: { deckId: string; doc: DeckDoc; before: Thread | undefined; after: Thread; actor: Pick<Principal, 'author' | 'email'> }): Promise<InboxEvent[]> {
  const { recipients, commentId, excerpt } = eventsOf(change.before, change.after, change.actor.author)
  const self = new Set(callerKeys(change.actor))
  const events: InboxEvent[] = []
  for (const [recipient, kinds] of recipients) {
    if (self.has(recipient)) continue
    const { level } = await inbox.settings(recipient, change.deckId)
    const heard = [...kinds].filter((kind) => level === 'all' || (level === 'forYou' && FOR_YOU.has(kind)))
    if (!heard.length) continue
    events.push({
      recipient,
      deckId: change.deckId,
      deckTitle: change.doc.manifest.title,
      threadId: change.after.id,
      place: placeOf(change.after.anchor),
      link: linkOf(change.deckId, change.doc, change.after),
      kinds: heard,
      last: { actor: change.actor.author, ...(commentId ? { commentId } : {}), excerpt },
    })
  }
  return events
}

/**
 * Notifies everyone a thread's change concerns, then sends the mail due by now. Runs after the commit:
 * a failure here is reported as a warning and never undoes the write.
 */
export async function notifyThread(
  ws: Workspace,
  change: { deckId: string; doc: DeckDoc; before: Thread | undefined; after: Thread; actor: Pick<Principal, 'author' | 'email'> },
  clock: Clock = Date.now,
): Promise<InboxRecord[]> {
  try {
    const inbox = inboxOf(ws)
    const written = await inbox.upsert(await inboxEvents(inbox, change), clock())
    await sendDueMail(ws, clock)
    return written
  } catch (error) {
    process.emitWarning(`studio: notifications of thread ${change.after.id} were not recorded: ${(error as Error).message}`)
    return []
  }
}

const KIND_WORDS: Record<InboxKind, string> = {
  mention: 'mentioned you',
  reply: 'replied',
  assignment: 'assigned you',
  resolution: 'resolved or reopened the thread',
  reaction: 'reacted',
  request: 'asked for access',
  grant: 'gave you access',
}

/** A record's mail: plain text naming the deck, the thread's place, the excerpt and the link. */
export function mailOf(record: InboxRecord): { subject: string; text: string } {
  const who = record.actors.join(', ')
  const subject = `${record.deckTitle}: ${who} ${KIND_WORDS[record.kinds[0]] ?? 'commented'}${record.count > 1 ? ` (${record.count} updates)` : ''}`
  const text = [
    `${who} ${record.kinds.map((k) => KIND_WORDS[k]).join(', ')} on "${record.deckTitle}", ${record.place}.`,
    '',
    `${record.last.actor}: ${record.last.excerpt}`,
    '',
    ...(record.count > 1 ? [`${record.count} updates in this thread since ${record.firstAt.slice(0, 16).replace('T', ' ')} UTC.`, ''] : []),
    `Open the thread: ${record.link}`,
    '',
    'You get this mail because your Deck Studio notifications for this deck have email on; notification.settings turns it off.',
  ].join('\n')
  return { subject, text }
}

/** Sends every mail due at `clock()` (claimed first: at most one mail per record, whoever runs this). */
export async function sendDueMail(ws: Workspace, clock: Clock = Date.now): Promise<number> {
  if (ws.embedded || !mailConfigured()) return 0
  const due = await inboxOf(ws).claimDueMail(clock())
  for (const { record, to } of due) await sendMail(ws, { to, ...mailOf(record) }, clock)
  return due.length
}
