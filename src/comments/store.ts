/**
 * Comment threads on disk: one file per thread, `decks/<id>/comments/<threadId>.json`, and the deck's
 * comments revision in `decks/<id>/comments/index.json` (decision 014, docs/comments.md). Threads live
 * beside the slides, never inside them: they travel with git, bundles, branches and the merge driver,
 * and an edit of the content and a comment never write the same file (except an anchor the edit moves).
 *
 * Every file read here is hostile input (a cloned repository, a merged branch): read through no link,
 * parsed, and checked member by member; a file that is not a thread is skipped, never half-trusted.
 */
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { DeckDoc } from '../model/deck.js'
import { canonicalJson } from '../store/canonical.js'
import { lstatInside, readInsideSync } from '../store/safe-open.js'
import type { Workspace } from '../store/workspace.js'
import { follow, settle, type Anchor, type AnchorStatus, type Placed, type Quote } from './anchor.js'

export type Who = { principal: string } | { email: string }

export interface Body {
  text: string
  mentions?: Who[]
}

export interface StoredComment {
  id: string
  body: Body
  author: string
  at: string
  editedAt?: string
  /** Principals per palette emoji. */
  reactions: Record<string, string[]>
  deletedAt?: string
}

/** An assistant's proposal a thread carries (assist.propose): slide.update mutations per slide, for assist.apply. */
export interface Proposal {
  kind: 'shorten' | 'notes' | 'ask'
  ask?: string
  summary: string
  slides: { slideId: string; mutations: Record<string, unknown>[] }[]
  /** The deck revision it was made against. */
  revision: number
  /** Which assistant answered: `mcp-sampling` or the configured endpoint's model. */
  by: string
  /** The deck revision assist.apply made of it. */
  appliedAt?: number
}

export interface Thread {
  id: string
  anchor: Anchor
  quote?: Quote
  status: AnchorStatus
  /** The deck revision the thread was opened at. */
  madeAt: number
  comments: StoredComment[]
  assignee: Who | null
  state: 'open' | 'resolved'
  done: boolean
  createdAt: string
  updatedAt: string
  /** The comments revision of the thread's last change (comment.list `since`). */
  revision: number
  proposal?: Proposal
}

/** A comment as reads answer it: a tombstone without its body. */
export type ShownComment = Omit<StoredComment, 'body'> & { body?: Body }

/** A thread as reads and writes answer it (comment.list, comment.get, the page, MCP resources). */
export type ShownThread = Omit<Thread, 'comments'> & { comments: ShownComment[] }

export const COMMENTS_DIR = 'comments'
const INDEX = 'index.json'
export const THREAD_ID = /^t-[a-z0-9]{8,16}$/
export const COMMENT_ID = /^c[1-9][0-9]{0,5}$/

/** Days a deleted comment can be restored. */
export const RESTORE_DAYS = 30

/** The workspace-relative folder of a deck's threads, and a thread's file. */
export const commentsRel = (deckId: string) => `decks/${deckId}/${COMMENTS_DIR}`
export const threadRel = (deckId: string, threadId: string) => `${commentsRel(deckId)}/${threadId}.json`
export const indexRel = (deckId: string) => `${commentsRel(deckId)}/${INDEX}`


const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'

function readWho(v: unknown): Who | null {
  if (!isObject(v)) return null
  if (isString(v.principal)) return { principal: v.principal }
  if (isString(v.email)) return { email: v.email }
  return null
}

function readAnchor(v: unknown): Anchor | null {
  if (!isObject(v)) return null
  const id = (k: string) => (isString(v[k]) && (v[k] as string).length > 0 ? (v[k] as string) : null)
  const n = (k: string) => (Number.isInteger(v[k]) && (v[k] as number) >= 0 ? (v[k] as number) : null)
  switch (v.kind) {
    case 'deck':
      return { kind: 'deck' }
    case 'slide':
    case 'notes':
      return id('slideId') ? { kind: v.kind, slideId: id('slideId')! } : null
    case 'block':
      return id('slideId') && id('blockId') ? { kind: 'block', slideId: id('slideId')!, blockId: id('blockId')! } : null
    case 'cell':
      return id('slideId') && id('blockId') && n('row') !== null && n('col') !== null ? { kind: 'cell', slideId: id('slideId')!, blockId: id('blockId')!, row: n('row')!, col: n('col')! } : null
    case 'range': {
      const range = v.range
      if (!id('slideId') || !id('blockId') || !isString(v.path) || !v.path.startsWith('/')) return null
      if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => Number.isInteger(x) && x >= 0)) return null
      return { kind: 'range', slideId: id('slideId')!, blockId: id('blockId')!, path: v.path, range: [range[0], range[1]] }
    }
    default:
      return null
  }
}

function readComment(v: unknown): StoredComment | null {
  if (!isObject(v) || !isString(v.id) || !COMMENT_ID.test(v.id) || !isString(v.author) || !isString(v.at)) return null
  const body = v.body
  if (!isObject(body) || !isString(body.text)) return null
  const mentions = Array.isArray(body.mentions) ? body.mentions.map(readWho).filter((w): w is Who => w !== null) : undefined
  // Keyed by emoji names from the file: a null-prototype object, so `__proto__` is just a key.
  const reactions: Record<string, string[]> = Object.create(null)
  if (isObject(v.reactions)) {
    for (const [emoji, who] of Object.entries(v.reactions)) if (Array.isArray(who)) reactions[emoji] = who.filter(isString)
  }
  return {
    id: v.id,
    body: { text: body.text, ...(mentions ? { mentions } : {}) },
    author: v.author,
    at: v.at,
    ...(isString(v.editedAt) ? { editedAt: v.editedAt } : {}),
    reactions,
    ...(isString(v.deletedAt) ? { deletedAt: v.deletedAt } : {}),
  }
}

function readProposal(v: unknown): Proposal | undefined {
  if (!isObject(v) || !['shorten', 'notes', 'ask'].includes(v.kind as string) || !isString(v.summary) || !isString(v.by) || !Number.isInteger(v.revision) || !Array.isArray(v.slides)) return undefined
  const slides: Proposal['slides'] = []
  for (const slide of v.slides) {
    if (!isObject(slide) || !isString(slide.slideId) || !Array.isArray(slide.mutations) || !slide.mutations.every(isObject)) return undefined
    slides.push({ slideId: slide.slideId, mutations: slide.mutations as Record<string, unknown>[] })
  }
  return {
    kind: v.kind as Proposal['kind'],
    ...(isString(v.ask) ? { ask: v.ask } : {}),
    summary: v.summary,
    slides,
    revision: v.revision as number,
    by: v.by,
    ...(Number.isInteger(v.appliedAt) ? { appliedAt: v.appliedAt as number } : {}),
  }
}

/** A thread from its file's text, or null when it is not one (the file is then left alone). */
export function parseThread(text: string, expectedId: string): Thread | null {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return null
  }
  if (!isObject(v) || v.id !== expectedId || !THREAD_ID.test(expectedId)) return null
  const anchor = readAnchor(v.anchor)
  const comments = Array.isArray(v.comments) ? v.comments.map(readComment) : null
  if (!anchor || !comments || comments.some((c) => c === null) || !isString(v.updatedAt) || !isString(v.createdAt)) return null
  const quote = isObject(v.quote) && isString(v.quote.exact) && isString(v.quote.prefix) && isString(v.quote.suffix) ? { exact: v.quote.exact, prefix: v.quote.prefix, suffix: v.quote.suffix } : undefined
  const status: AnchorStatus = v.status === 'detached' || v.status === 'removed' ? v.status : 'attached'
  return {
    id: expectedId,
    anchor,
    ...(quote ? { quote } : {}),
    status,
    madeAt: Number.isInteger(v.madeAt) ? (v.madeAt as number) : 0,
    comments: comments as StoredComment[],
    assignee: readWho(v.assignee),
    state: v.state === 'resolved' ? 'resolved' : 'open',
    done: v.done === true,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    revision: Number.isInteger(v.revision) ? (v.revision as number) : 0,
    ...(readProposal(v.proposal) ? { proposal: readProposal(v.proposal) } : {}),
  }
}

/** A thread's file text (canonical JSON, so two writers of the same thread write the same bytes). */
export function threadText(thread: Thread): string {
  const comments = thread.comments.map((c) => ({ ...c, reactions: Object.fromEntries(Object.entries(c.reactions).filter(([, who]) => who.length)) }))
  return canonicalJson({ ...thread, comments })
}

/** The threads of a deck as its folder holds them now (files that are not threads skipped), by id. */
export function readThreads(ws: Workspace, deckId: string): Map<string, Thread> {
  const threads = new Map<string, Thread>()
  const dir = join(ws.root, commentsRel(deckId))
  if (!lstatInside(ws.root, dir)?.isDirectory()) return threads
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const match = /^(t-[a-z0-9]+)\.json$/.exec(entry.name)
    if (!match || !entry.isFile()) continue
    const thread = parseThread(readInsideSync(ws.root, join(dir, entry.name)).toString('utf8'), match[1])
    if (thread) threads.set(thread.id, thread)
  }
  return threads
}

/** The deck's comments revision (0 before the first comment write). */
export function commentsRevision(ws: Workspace, deckId: string): number {
  const file = join(ws.root, indexRel(deckId))
  if (!lstatInside(ws.root, file)?.isFile()) return 0
  try {
    const value = JSON.parse(readInsideSync(ws.root, file).toString('utf8')) as { revision?: unknown }
    return Number.isInteger(value.revision) && (value.revision as number) >= 0 ? (value.revision as number) : 0
  } catch {
    return 0
  }
}

export const indexText = (revision: number) => canonicalJson({ revision })

/**
 * A new thread's id: `t-` and ten base36 characters of a digest of the deck, the anchor, the text and
 * the comments revision it is made at. Two branches opening threads at once mint different ids (the
 * merge keeps both files); the same call repeated on a new deck mints the same id, so examples and
 * scripts can name it.
 */
export function mintThreadId(deckId: string, anchor: Anchor, text: string, revision: number, taken: (id: string) => boolean): string {
  for (let salt = 0; ; salt++) {
    const digest = createHash('sha256').update(canonicalJson([deckId, anchor, text, revision, salt])).digest()
    const id = `t-${BigInt(`0x${digest.subarray(0, 8).toString('hex')}`).toString(36).padStart(10, '0').slice(0, 10)}`
    if (!taken(id)) return id
  }
}

/** The next comment id of a thread: c1, c2, … (tombstones keep theirs). */
export function nextCommentId(thread: Thread): string {
  let max = 0
  for (const c of thread.comments) max = Math.max(max, Number(c.id.slice(1)))
  return `c${max + 1}`
}

/** A thread's anchor as placed: what `follow` and `settle` take. */
export const placedOf = (thread: Thread): Placed => ({ anchor: thread.anchor, ...(thread.quote ? { quote: thread.quote } : {}), status: thread.status })

function withPlaced(thread: Thread, placed: Placed): Thread {
  const { quote: _old, ...rest } = thread
  return { ...rest, anchor: placed.anchor, ...(placed.quote ? { quote: placed.quote } : {}), status: placed.status }
}

const samePlaced = (a: Placed, b: Placed) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The engine's part of every accepted write of a deck's content: each thread's anchor moved through
 * the change, answered as the thread files that change (none when no anchor moved). Resolved threads
 * follow too: a reopened thread must still point at its text.
 */
export function followThreads(ws: Workspace, deckId: string, before: DeckDoc, after: DeckDoc): { rel: string; content: string }[] {
  const out: { rel: string; content: string }[] = []
  for (const thread of readThreads(ws, deckId).values()) {
    const old = placedOf(thread)
    const moved = follow(before, after, old)
    if (!samePlaced(old, moved)) out.push({ rel: threadRel(deckId, thread.id), content: threadText(withPlaced(thread, moved)) })
  }
  return out
}

/** A thread as a read answers it: its anchor resolved against the current document. */
export function resolvedThread(doc: DeckDoc, thread: Thread): Thread {
  return withPlaced(thread, settle(doc, placedOf(thread)))
}

/**
 * deck.copy with copyComments: the threads of `from` as files of `to` (ids kept), only those on slides
 * the copy keeps (deck threads always), and the comments revision.
 */
export function copiedThreads(ws: Workspace, from: string, to: string, keeps: (slideId: string) => boolean): [string, string][] {
  const out: [string, string][] = []
  for (const thread of readThreads(ws, from).values()) {
    if ('slideId' in thread.anchor && !keeps(thread.anchor.slideId)) continue
    out.push([threadRel(to, thread.id), threadText(thread)])
  }
  if (out.length) out.push([indexRel(to), indexText(commentsRevision(ws, from))])
  return out
}
