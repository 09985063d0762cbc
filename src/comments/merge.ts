/**
 * Comment files merged at the model level (the merge driver, src/history/merge-driver.ts): two
 * branches that each add threads write different files; two that reply to one thread keep both
 * replies; nothing said on either side is lost.
 *
 *   index.json   the comments revision: base + what each side added (o + t − b), above both.
 *   <thread>.json  comments by id: a comment on one side only is kept; one both sides changed takes
 *                each member from the side that changed it (both: the later edit); two different new
 *                comments under one id (both replied c2) keep ours and number theirs after the last.
 *                Reactions merge as sets. The thread's own members (state, assignee, done, anchor)
 *                take the side that changed them, both: the later write (the last writer wins).
 *
 * Every side is parsed as hostile input (parseThread); a side that is not a thread leaves the file to
 * git's text merge.
 */
import { canonicalJson } from '../store/canonical.js'
import { COMMENT_ID, indexText, parseThread, threadText, type StoredComment, type Thread } from './store.js'

export const COMMENT_FILE = /^(?:.+\/)?decks\/[a-z0-9]+(?:-[a-z0-9]+)*\/comments\/(?<name>t-[a-z0-9]+|index)\.json$/

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null)

/** One value merged three ways: the side that changed it; both changed differently: `later`'s. */
function pick<T>(base: T | undefined, ours: T, theirs: T, theirsLater: boolean): T {
  if (same(ours, theirs)) return ours
  if (same(base, ours)) return theirs
  if (same(base, theirs)) return ours
  return theirsLater ? theirs : ours
}

function revisionOf(text: string): number {
  try {
    const value = JSON.parse(text) as { revision?: unknown }
    return Number.isInteger(value.revision) && (value.revision as number) >= 0 ? (value.revision as number) : 0
  } catch {
    return 0
  }
}

function mergeReactions(base: Record<string, string[]> | undefined, ours: Record<string, string[]>, theirs: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null)
  const emoji = new Set([...Object.keys(ours), ...Object.keys(theirs)])
  for (const e of emoji) {
    const b = new Set(base?.[e] ?? [])
    const o = new Set(ours[e] ?? [])
    const t = new Set(theirs[e] ?? [])
    // Kept on both sides, or added on one: a reaction removed on one side and untouched on the other goes.
    const who = [...new Set([...o, ...t])].filter((p) => (o.has(p) && t.has(p)) || (o.has(p) && !b.has(p)) || (t.has(p) && !b.has(p)))
    if (who.length) out[e] = who.sort()
  }
  return out
}

function mergeComment(base: StoredComment | undefined, ours: StoredComment, theirs: StoredComment): StoredComment {
  const theirsLater = (theirs.editedAt ?? theirs.deletedAt ?? theirs.at) > (ours.editedAt ?? ours.deletedAt ?? ours.at)
  const body = pick(base?.body, ours.body, theirs.body, theirsLater)
  const editedAt = pick(base?.editedAt, ours.editedAt, theirs.editedAt, theirsLater)
  const deletedAt = pick(base?.deletedAt, ours.deletedAt, theirs.deletedAt, theirsLater)
  return {
    id: ours.id,
    body,
    author: ours.author,
    at: ours.at,
    ...(editedAt ? { editedAt } : {}),
    reactions: mergeReactions(base?.reactions, ours.reactions, theirs.reactions),
    ...(deletedAt ? { deletedAt } : {}),
  }
}

/** Two versions of one thread merged over their base (absent: both sides added it). */
export function mergeThreads(base: Thread | undefined, ours: Thread, theirs: Thread): Thread {
  const baseComments = new Map((base?.comments ?? []).map((c) => [c.id, c]))
  const theirsById = new Map(theirs.comments.map((c) => [c.id, c]))
  const merged: StoredComment[] = []
  const renumber: StoredComment[] = []
  for (const o of ours.comments) {
    const t = theirsById.get(o.id)
    if (!t) {
      merged.push(o)
      continue
    }
    theirsById.delete(o.id)
    const b = baseComments.get(o.id)
    // The same id for two different comments: both sides wrote a new one (a reply on each branch).
    if (!b && (o.author !== t.author || o.at !== t.at)) {
      merged.push(o)
      renumber.push(t)
    } else merged.push(mergeComment(b, o, t))
  }
  for (const t of theirsById.values()) {
    // A comment theirs has and ours lost: ours deleted nothing (comments are tombstoned, never removed).
    merged.push(t)
  }
  let last = Math.max(0, ...merged.map((c) => Number(c.id.slice(1))))
  for (const t of renumber.sort((a, b) => (a.at < b.at ? -1 : 1))) merged.push({ ...t, id: `c${++last}` })
  merged.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : Number(a.id.slice(1)) - Number(b.id.slice(1))))
  const theirsLater = theirs.updatedAt > ours.updatedAt
  const placeOurs = { anchor: ours.anchor, quote: ours.quote, status: ours.status }
  const placeTheirs = { anchor: theirs.anchor, quote: theirs.quote, status: theirs.status }
  const placed = pick(base ? { anchor: base.anchor, quote: base.quote, status: base.status } : undefined, placeOurs, placeTheirs, theirsLater)
  return {
    id: ours.id,
    anchor: placed.anchor,
    ...(placed.quote ? { quote: placed.quote } : {}),
    status: placed.status,
    madeAt: Math.min(ours.madeAt, theirs.madeAt),
    comments: merged.filter((c) => COMMENT_ID.test(c.id)),
    assignee: pick(base?.assignee, ours.assignee, theirs.assignee, theirsLater),
    state: pick(base?.state, ours.state, theirs.state, theirsLater),
    done: pick(base?.done, ours.done, theirs.done, theirsLater),
    createdAt: ours.createdAt < theirs.createdAt ? ours.createdAt : theirs.createdAt,
    updatedAt: theirsLater ? theirs.updatedAt : ours.updatedAt,
    revision: Math.max(ours.revision, theirs.revision),
    ...((ours.proposal ?? theirs.proposal) ? { proposal: pick(base?.proposal, ours.proposal, theirs.proposal, theirsLater)! } : {}),
  }
}

/**
 * A comment file's merge from the three texts git hands over: the merged text, or null when a side is
 * not what a comment file holds (git's text merge then decides).
 */
export function mergeCommentFile(name: string, baseText: string, oursText: string, theirsText: string): string | null {
  if (name === 'index') return indexText(Math.max(revisionOf(oursText), revisionOf(theirsText), revisionOf(oursText) + revisionOf(theirsText) - revisionOf(baseText)))
  const ours = parseThread(oursText, name)
  const theirs = parseThread(theirsText, name)
  if (!ours || !theirs) return null
  const base = baseText.trim() ? parseThread(baseText, name) : undefined
  if (base === null) return null
  return threadText(mergeThreads(base, ours, theirs))
}
