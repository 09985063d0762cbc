/**
 * The comment actions' handlers (declarations in add.ts, edit.ts, state.ts, list.ts). A comment write
 * stages the thread's file and the comments index and commits like any write, under the deck's lock,
 * without comparing a revision: comment writes never refuse a stale one (spec 1, rules). Reads resolve
 * every anchor against the current document (src/comments/anchor.ts).
 */
import type { ActionContext } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { emitComments } from '../../core/events.js'
import type { DeckDoc } from '../../model/deck.js'
import { own } from '../../model/own.js'
import { place, type Anchor } from '../../comments/anchor.js'
import type { ProposeInput } from '../../comments/assist.js'
import {
  commentsRevision,
  indexRel,
  indexText,
  mintThreadId,
  nextCommentId,
  readThreads,
  resolvedThread,
  RESTORE_DAYS,
  threadRel,
  threadText,
  type Body,
  type Proposal,
  type StoredComment,
  type Thread,
  type Who,
} from '../../comments/store.js'

interface Loaded {
  deckId: string
  doc: DeckDoc
  threads: Map<string, Thread>
  revision: number
}

async function loaded(ctx: ActionContext): Promise<Loaded> {
  const deckId = await ctx.deckId()
  const doc = await ctx.load(deckId)
  return { deckId, doc, threads: readThreads(ctx.ws, deckId), revision: commentsRevision(ctx.ws, deckId) }
}

function threadOf(state: Loaded, threadId: string): Thread {
  const thread = state.threads.get(threadId)
  if (!thread) fail('not_found', `Deck "${state.deckId}" has no comment thread "${threadId}".`, { pointer: '/threadId' })
  return thread
}

function commentOf(thread: Thread, commentId: string): StoredComment {
  const comment = thread.comments.find((c) => c.id === commentId)
  if (!comment) fail('not_found', `Thread "${thread.id}" has no comment "${commentId}".`, { pointer: '/commentId' })
  return comment
}

/** An ISO time after `previous`: updatedAt moves on every write, so expectedUpdatedAt tells two writes apart. */
function nextTime(previous?: string): string {
  const now = Date.now()
  const last = previous ? Date.parse(previous) : NaN
  return new Date(Number.isFinite(last) && now <= last ? last + 1 : now).toISOString()
}

/** `{@n}` tokens must name mentions the body lists. */
function checkBody(body: Body, pointer = '/body'): Body {
  const count = body.mentions?.length ?? 0
  for (const match of body.text.matchAll(/\{@(\d+)\}/g)) {
    const n = Number(match[1])
    if (n >= count) fail('invalid_input', `The text names mention {@${n}}, but the body lists ${count} mention${count === 1 ? '' : 's'} (mentions[${n}] is missing).`, { pointer: `${pointer}/text` })
  }
  return { text: body.text, ...(body.mentions?.length ? { mentions: body.mentions.map(whoValue) } : {}) }
}

const whoValue = (who: Who): Who => ('principal' in who ? { principal: who.principal } : { email: who.email })

/** Whether `who` names the caller (its principal, or its address). */
export function isCaller(ctx: ActionContext, who: Who | null | undefined): boolean {
  if (!who) return false
  if ('principal' in who) return who.principal === ctx.principal.author
  return Boolean(ctx.principal.email) && who.email.toLowerCase() === ctx.principal.email!.toLowerCase()
}

/** A comment as a read shows it: a tombstone without its text. */
function shownComment(comment: StoredComment): Record<string, unknown> {
  const { body, ...rest } = comment
  return comment.deletedAt ? rest : { ...rest, body }
}

function shownThread(doc: DeckDoc, thread: Thread, includeDeleted = true): Record<string, unknown> {
  const resolved = resolvedThread(doc, thread)
  return { ...resolved, comments: resolved.comments.filter((c) => includeDeleted || !c.deletedAt).map(shownComment) }
}

/** Stages the thread and the next comments revision; the answer is the thread as stored. */
function write(ctx: ActionContext, state: Loaded, thread: Thread): { thread: Record<string, unknown>; baseRevision: number } {
  const revision = state.revision + 1
  const stored: Thread = { ...thread, revision }
  ctx.stageFile(threadRel(state.deckId, thread.id), threadText(stored))
  ctx.stageFile(indexRel(state.deckId), indexText(revision))
  ctx.trailer('Studio-Thread', thread.id)
  ctx.trailer('Studio-Comments-Revision', String(revision))
  // The deck's revision does not move: this event is what tells the room (src/realtime/room.ts).
  ctx.after(() => emitComments({ root: ctx.ws.root, deckId: state.deckId, revision, threadId: thread.id, action: ctx.action.id, author: ctx.principal.author, transport: ctx.transport, ...(ctx.clientId ? { clientId: ctx.clientId } : {}) }))
  // After the commit: the inbox is the recipients' state, not the deck's; a failure to write it does not undo the comment.
  ctx.after(async () => {
    const { notifyThread } = await import('../../comments/notify.js')
    await notifyThread(ctx.ws, { deckId: state.deckId, doc: state.doc, before: state.threads.get(thread.id), after: stored, actor: ctx.principal }).catch(() => undefined)
  })
  return { thread: shownThread(state.doc, stored), baseRevision: revision }
}

/** A write that changes nothing answers the thread as it is, with no commit. */
const unchanged = (state: Loaded, thread: Thread) => ({ thread: shownThread(state.doc, thread), baseRevision: state.revision })

/** Tombstones older than the restore window lose their text on the thread's next write. */
function purged(thread: Thread, now: string): Thread {
  const cutoff = Date.parse(now) - RESTORE_DAYS * 86_400_000
  const comments = thread.comments.map((c) => (c.deletedAt && Date.parse(c.deletedAt) < cutoff && c.body.text ? { ...c, body: { text: '' } } : c))
  return { ...thread, comments }
}

export async function add(ctx: ActionContext, input: { anchor: Anchor; body: Body; assignee?: Who }) {
  const state = await loaded(ctx)
  const placed = place(state.doc, input.anchor)
  if ('problem' in placed) fail(placed.code, placed.problem, { pointer: '/anchor' })
  const body = checkBody(input.body)
  const now = nextTime()
  const id = mintThreadId(state.deckId, placed.anchor, body.text, state.revision, (t) => state.threads.has(t))
  const thread: Thread = {
    id,
    anchor: placed.anchor,
    ...(placed.quote ? { quote: placed.quote } : {}),
    status: 'attached',
    madeAt: state.doc.manifest.revision,
    comments: [{ id: 'c1', body, author: ctx.principal.author, at: now, reactions: {} }],
    assignee: input.assignee ? whoValue(input.assignee) : null,
    state: 'open',
    done: false,
    createdAt: now,
    updatedAt: now,
    revision: state.revision + 1,
  }
  return write(ctx, state, thread)
}

export async function reply(ctx: ActionContext, input: { threadId: string; body: Body }) {
  const state = await loaded(ctx)
  const thread = threadOf(state, input.threadId)
  const body = checkBody(input.body)
  const now = nextTime(thread.updatedAt)
  const comment: StoredComment = { id: nextCommentId(thread), body, author: ctx.principal.author, at: now, reactions: {} }
  return write(ctx, state, { ...purged(thread, now), comments: [...thread.comments, comment], updatedAt: now })
}

export async function edit(ctx: ActionContext, input: { threadId: string; commentId: string; body: Body; expectedUpdatedAt: string }) {
  const state = await loaded(ctx)
  const thread = threadOf(state, input.threadId)
  // The thread moved since the caller read it: a write after the time the caller names.
  if (Date.parse(thread.updatedAt) > Date.parse(input.expectedUpdatedAt)) {
    throw new StudioError('stale_revision', `Thread "${thread.id}" changed since ${input.expectedUpdatedAt} (it was updated at ${thread.updatedAt}). Read the current thread (it is in this answer) and edit again.`, {
      pointer: '/expectedUpdatedAt',
      current: shownThread(state.doc, thread),
      currentRevision: state.revision,
    })
  }
  const comment = commentOf(thread, input.commentId)
  if (comment.author !== ctx.principal.author) fail('forbidden', `Only its author (${comment.author}) can edit comment "${comment.id}".`, { pointer: '/commentId' })
  if (comment.deletedAt) fail('refused', `Comment "${comment.id}" is deleted; restore it first (comment.delete with restore true).`, { pointer: '/commentId' })
  const body = checkBody(input.body)
  if (JSON.stringify(body) === JSON.stringify(comment.body)) return unchanged(state, thread)
  const now = nextTime(thread.updatedAt)
  return write(ctx, state, { ...purged(thread, now), comments: thread.comments.map((c) => (c === comment ? { ...c, body, editedAt: now } : c)), updatedAt: now })
}

export async function remove(ctx: ActionContext, input: { threadId: string; commentId: string; restore?: boolean }) {
  const state = await loaded(ctx)
  const thread = threadOf(state, input.threadId)
  const comment = commentOf(thread, input.commentId)
  if (comment.author !== ctx.principal.author && ctx.principal.role !== 'owner') fail('forbidden', `Only its author (${comment.author}) or the deck's owner can delete comment "${comment.id}".`, { pointer: '/commentId' })
  const now = nextTime(thread.updatedAt)
  let next: StoredComment
  if (input.restore) {
    if (!comment.deletedAt) return unchanged(state, thread)
    if (Date.parse(now) - Date.parse(comment.deletedAt) > RESTORE_DAYS * 86_400_000 || !comment.body.text) {
      fail('refused', `Comment "${comment.id}" was deleted on ${comment.deletedAt.slice(0, 10)}, more than ${RESTORE_DAYS} days ago: it can no longer be restored.`, { pointer: '/restore' })
    }
    const { deletedAt: _gone, ...live } = comment
    next = live
  } else {
    if (comment.deletedAt) return unchanged(state, thread)
    next = { ...comment, deletedAt: now }
  }
  return write(ctx, state, { ...purged(thread, now), comments: thread.comments.map((c) => (c === comment ? next : c)), updatedAt: now })
}

/** resolve, reopen, assign, done: a change of the thread's own members (the last writer wins). */
async function setThread(ctx: ActionContext, threadId: string, change: (thread: Thread) => Partial<Thread>) {
  const state = await loaded(ctx)
  const thread = threadOf(state, threadId)
  const members = change(thread)
  const next = { ...thread, ...members }
  if (threadText(next) === threadText(thread)) return unchanged(state, thread)
  const now = nextTime(thread.updatedAt)
  return write(ctx, state, { ...purged(next, now), updatedAt: now })
}

export const resolve = (ctx: ActionContext, input: { threadId: string }) => setThread(ctx, input.threadId, () => ({ state: 'resolved' }))
export const reopen = (ctx: ActionContext, input: { threadId: string }) => setThread(ctx, input.threadId, () => ({ state: 'open' }))
export const assign = (ctx: ActionContext, input: { threadId: string; assignee: Who | null }) =>
  // A new assignee starts undone.
  setThread(ctx, input.threadId, (thread) => (JSON.stringify(thread.assignee) === JSON.stringify(input.assignee) ? {} : { assignee: input.assignee ? whoValue(input.assignee) : null, done: false }))

export const done = (ctx: ActionContext, input: { threadId: string }) =>
  setThread(ctx, input.threadId, (thread) => {
    if (!thread.assignee) fail('refused', `Thread "${thread.id}" is not assigned; comment.assign names who marks it done.`, { pointer: '/threadId' })
    // The assignee, or the deck's owner for them (on a checkout every caller owns the deck).
    if (!isCaller(ctx, thread.assignee) && ctx.principal.role !== 'owner') fail('forbidden', `Only the thread's assignee (${'principal' in thread.assignee ? thread.assignee.principal : thread.assignee.email}) or the deck's owner marks it done.`, { pointer: '/threadId' })
    return { done: true }
  })

export async function react(ctx: ActionContext, input: { threadId: string; commentId: string; emoji: string; on: boolean }) {
  const state = await loaded(ctx)
  const thread = threadOf(state, input.threadId)
  const comment = commentOf(thread, input.commentId)
  if (comment.deletedAt) fail('refused', `Comment "${comment.id}" is deleted.`, { pointer: '/commentId' })
  const who = ctx.principal.author
  const current = own(comment.reactions, input.emoji) ?? []
  if (current.includes(who) === input.on) return unchanged(state, thread)
  const reactions: Record<string, string[]> = Object.assign(Object.create(null), comment.reactions)
  reactions[input.emoji] = input.on ? [...current, who].sort() : current.filter((p) => p !== who)
  const now = nextTime(thread.updatedAt)
  return write(ctx, state, { ...purged(thread, now), comments: thread.comments.map((c) => (c === comment ? { ...c, reactions } : c)), updatedAt: now })
}

/** Slides in deck order: threads list by where they sit, then by when they were opened. */
function slideOrder(doc: DeckDoc): Map<string, number> {
  const order = new Map<string, number>()
  for (const section of doc.manifest.sections) for (const id of section.slides) if (!order.has(id)) order.set(id, order.size)
  return order
}

export interface ListInput {
  slideId?: string
  blockId?: string
  state?: 'open' | 'resolved' | 'all'
  forMe?: boolean
  author?: string
  search?: string
  includeDeleted?: boolean
  since?: number
  limit?: number
}

export async function list(ctx: ActionContext, input: ListInput) {
  const state = await loaded(ctx)
  const wanted = input.state ?? 'open'
  const search = input.search?.toLowerCase()
  const order = slideOrder(state.doc)
  const rows = [...state.threads.values()]
    .map((thread) => resolvedThread(state.doc, thread))
    .filter((thread) => {
      const anchor = thread.anchor
      if (wanted !== 'all' && thread.state !== wanted) return false
      if (input.slideId !== undefined && (!('slideId' in anchor) || anchor.slideId !== input.slideId)) return false
      if (input.blockId !== undefined && (!('blockId' in anchor) || anchor.blockId !== input.blockId)) return false
      if (input.since !== undefined && thread.revision <= input.since) return false
      const live = thread.comments.filter((c) => !c.deletedAt)
      if (input.author !== undefined && !thread.comments.some((c) => c.author === input.author)) return false
      if (search && !live.some((c) => c.body.text.toLowerCase().includes(search))) return false
      if (input.forMe && !isCaller(ctx, thread.assignee) && !live.some((c) => c.body.mentions?.some((m) => isCaller(ctx, m)))) return false
      return true
    })
    .sort((a, b) => {
      const at = (t: Thread) => ('slideId' in t.anchor ? (order.get(t.anchor.slideId) ?? order.size) : -1)
      return at(a) - at(b) || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1)
    })
    .slice(0, input.limit ?? 100)
  return { threads: rows.map((t) => ({ ...t, comments: t.comments.filter((c) => input.includeDeleted || !c.deletedAt).map(shownComment) })), baseRevision: state.revision }
}

export async function get(ctx: ActionContext, input: { threadId: string }) {
  const state = await loaded(ctx)
  return { thread: shownThread(state.doc, threadOf(state, input.threadId)), baseRevision: state.revision }
}

/** The address of the studio a link opens: STUDIO_PUBLIC_URL, else a local `studio serve`'s default. */
export const studioAddress = () => (process.env.STUDIO_PUBLIC_URL?.trim() || 'http://localhost:4321').replace(/\/+$/, '')

export async function link(ctx: ActionContext, input: { threadId: string }) {
  const state = await loaded(ctx)
  const thread = resolvedThread(state.doc, threadOf(state, input.threadId))
  const slide = 'slideId' in thread.anchor && own(state.doc.slides, thread.anchor.slideId) ? `/${encodeURIComponent(thread.anchor.slideId)}` : ''
  const base = `${studioAddress()}/d/${state.deckId}${slide}?thread=${encodeURIComponent(thread.id)}`
  return { editorUrl: base, viewUrl: `${base}&view=1` }
}

/** assist.propose's slow half, before the deck's lock: the slides checked, the assistant asked, its answer checked. */
export async function prepareProposal(ctx: ActionContext, input: ProposeInput): Promise<Proposal> {
  const deckId = await ctx.deckId()
  const doc = await ctx.load(deckId)
  input.slideIds.forEach((id, i) => {
    if (!own(doc.slides, id)) fail('not_found', `Deck "${deckId}" has no slide "${id}".`, { pointer: `/slideIds/${i}` })
  })
  if (input.kind === 'ask' && !input.ask?.trim()) fail('invalid_input', 'kind "ask" needs the ask itself in `ask` (what to do with these slides).', { pointer: '/ask' })
  const { assistantFor, promptOf, proposalOf, SYSTEM_PROMPT } = await import('../../comments/assist.js')
  const { ask, by } = assistantFor(ctx)
  const answer = await ask({ system: SYSTEM_PROMPT, user: promptOf(doc, input), maxTokens: 2000 })
  return proposalOf(doc, input, answer.text, answer.model ? `${by} (${answer.model})` : by)
}

/** assist.propose under the lock: the proposal stored as a thread on the first slide. */
export async function propose(ctx: ActionContext, input: ProposeInput, proposal: Proposal) {
  const state = await loaded(ctx)
  const { proposalText } = await import('../../comments/assist.js')
  const anchor: Anchor = { kind: 'slide', slideId: input.slideIds[0] }
  const text = proposalText(input)
  const now = nextTime()
  const id = mintThreadId(state.deckId, anchor, text, state.revision, (t) => state.threads.has(t))
  const thread: Thread = {
    id,
    anchor,
    status: 'attached',
    madeAt: state.doc.manifest.revision,
    comments: [{ id: 'c1', body: { text }, author: ctx.principal.author, at: now, reactions: {} }],
    assignee: null,
    state: 'open',
    done: false,
    createdAt: now,
    updatedAt: now,
    revision: state.revision + 1,
    proposal,
  }
  const written = write(ctx, state, thread)
  return { proposalId: id, summary: proposal.summary, mutations: proposal.slides, thread: written.thread, baseRevision: written.baseRevision }
}

/** assist.apply: the proposal's mutations as one write of the deck; the thread resolved, saying so. */
export async function applyProposal(ctx: ActionContext, input: { proposalId: string }) {
  const state = await loaded(ctx)
  const thread = state.threads.get(input.proposalId)
  if (!thread) fail('not_found', `Deck "${state.deckId}" has no proposal "${input.proposalId}".`, { pointer: '/proposalId' })
  const proposal = thread.proposal
  if (!proposal) fail('invalid_input', `Thread "${thread.id}" is a comment thread, not a proposal (assist.propose makes those).`, { pointer: '/proposalId' })
  if (proposal.appliedAt !== undefined) fail('refused', `Proposal "${thread.id}" was applied already, as revision ${proposal.appliedAt}.`, { pointer: '/proposalId' })
  const { applyAll } = await import('../slide/update.js')
  const { cloneDoc } = await import('../../model/deck.js')
  const doc = cloneDoc(await ctx.target())
  for (const slide of proposal.slides) {
    if (!own(doc.slides, slide.slideId)) fail('not_found', `Proposal "${thread.id}" changes slide "${slide.slideId}", which the deck no longer has.`, { pointer: '/proposalId' })
    await applyAll(doc, slide.slideId, slide.mutations as never)
  }
  ctx.stage(doc.manifest.id, doc)
  const revision = doc.manifest.revision + 1
  const now = nextTime(thread.updatedAt)
  const reply: StoredComment = { id: nextCommentId(thread), body: { text: `Applied as revision ${revision}.` }, author: ctx.principal.author, at: now, reactions: {} }
  write(ctx, state, { ...purged(thread, now), comments: [...thread.comments, reply], state: 'resolved', proposal: { ...proposal, appliedAt: revision }, updatedAt: now })
  return (docs: Map<string, DeckDoc | null>) => ({ changed: proposal.slides.map((s) => s.slideId), revision: docs.get(doc.manifest.id)!.manifest.revision })
}
