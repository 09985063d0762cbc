/**
 * History services for the version actions, `studio diff` and `studio review`: ranges of revisions
 * resolved against the version log, deck states at revisions or at git refs, and the comparisons
 * built on them. Every entry point opens one cat-file reader and closes it when done.
 */
import { fail } from '../core/errors.js'
import type { DeckDoc, Version } from '../model/deck.js'
import type { Workspace } from '../store/workspace.js'
import { diffDecks, proseLines, type DeckDiff, type SlideChange } from './diff.js'
import { authorsByDeck, changedDecks, resolveRefs } from './git.js'
import { loadHistory, statesAt, type DeckHistory } from './history.js'
import { ObjectReader } from './objects.js'

export { diffDecks, proseLines, proseDiff } from './diff.js'
export { loadHistory, statesAt, filesAt, DeckHistory } from './history.js'
export { ObjectReader } from './objects.js'

/** Runs `fn` with a cat-file reader for the workspace's repository, closed afterwards. */
export async function withReader<T>(ws: Workspace, fn: (reader: ObjectReader) => Promise<T>): Promise<T> {
  const reader = new ObjectReader(ws.git.gitRoot)
  try {
    return await fn(reader)
  } finally {
    reader.close()
  }
}

export interface RangeInput {
  from?: number
  to?: number
  staged?: boolean
}

export interface Range {
  from: number
  to: number
  /** The named version `from` came from, when it did. */
  fromVersion: Version | null
}

/**
 * The two revisions a diff compares. `to` defaults to the current revision. Without `from`: the
 * newest named version below `to` when `sinceVersion` (diff.run always, version.diff with staged),
 * else — or when no version is below `to` — the oldest revision in the history.
 */
export function resolveRange(doc: DeckDoc, history: DeckHistory, input: RangeInput, sinceVersion: boolean): Range {
  const current = doc.manifest.revision
  const id = doc.manifest.id
  const to = input.to ?? current
  const known = (revision: number) => revision === current || history.has(revision)
  const oldest = history.first() ?? current
  if (to > current) fail('not_found', `Deck "${id}" is at revision ${current}; there is no revision ${to} yet.`, { pointer: '/to' })
  if (!known(to)) fail('not_found', `Revision ${to} of deck "${id}" is not in this repository's history (it starts at revision ${oldest}).`, { pointer: '/to' })
  let from = input.from
  let fromVersion: Version | null = null
  if (from === undefined) {
    if (sinceVersion) {
      const below = doc.versions.filter((v) => v.revision < to && known(v.revision)).sort((a, b) => b.revision - a.revision || b.n - a.n)
      fromVersion = below[0] ?? null
    }
    from = fromVersion ? fromVersion.revision : Math.min(oldest, to)
  }
  if (from > to) fail('invalid_input', `from (${from}) is after to (${to}).`, { pointer: '/from' })
  if (!known(from)) fail('not_found', `Revision ${from} of deck "${id}" is not in this repository's history (it starts at revision ${oldest}).`, { pointer: '/from' })
  return { from, to, fromVersion }
}

/** The deck at a revision: the document on disk for the current one, else the files of its commit. */
export async function stateAtRevision(ws: Workspace, reader: ObjectReader, history: DeckHistory, doc: DeckDoc, revision: number): Promise<DeckDoc> {
  if (revision === doc.manifest.revision) return doc
  const commit = history.commitOf(revision)
  if (!commit) fail('not_found', `Revision ${revision} of deck "${doc.manifest.id}" is not in this repository's history.`)
  const [state] = await statesAt(reader, ws.gitPath(`decks/${doc.manifest.id}`), [commit])
  if (!state) fail('not_found', `Deck "${doc.manifest.id}" has no deck.json at revision ${revision}.`)
  return state
}

export interface ChangeCounts {
  added: number
  removed: number
  moved: number
  changed: number
}

export function counts(diff: DeckDiff): ChangeCounts {
  const count = (kind: SlideChange['kind']) => diff.slides.filter((s) => s.kind === kind).length
  return { added: count('added'), removed: count('removed'), moved: count('moved'), changed: count('changed') }
}

/** The diff.run result of two revisions of one deck. */
/** The two documents a revision diff compared, with the commit each was read from (null: the working state on disk). */
export interface RevisionStates {
  before: DeckDoc
  after: DeckDoc
  fromCommit: string | null
  toCommit: string | null
}

export async function diffRevisions(ws: Workspace, doc: DeckDoc, input: RangeInput, onStates?: (states: RevisionStates) => void) {
  return withReader(ws, async (reader) => {
    const history = await loadHistory(ws, reader, doc.manifest.id)
    const range = resolveRange(doc, history, input, true)
    const before = await stateAtRevision(ws, reader, history, doc, range.from)
    const after = await stateAtRevision(ws, reader, history, doc, range.to)
    const commitOf = (state: DeckDoc, revision: number) => (state === doc ? null : (history.commitOf(revision) ?? null))
    onStates?.({ before, after, fromCommit: commitOf(before, range.from), toCommit: commitOf(after, range.to) })
    const diff = diffDecks(before, after)
    const changes = proseLines(diff)
    return {
      deck: doc.manifest.id,
      from: range.from,
      to: range.to,
      ...(range.fromVersion ? { fromVersion: { n: range.fromVersion.n, note: range.fromVersion.note } } : {}),
      changes,
      text: changes.length ? changes.join('\n') : 'No changes.',
      counts: counts(diff),
      slides: diff.slides,
    }
  })
}

export interface DeckComparison {
  id: string
  title: string
  /** The deck's revision at each side; null where it does not exist there. */
  from: number | null
  to: number | null
  status: 'added' | 'removed' | 'changed' | 'unchanged'
  diff: DeckDiff
  /** The documents compared (for pictures); never serialized. */
  before: DeckDoc | null
  after: DeckDoc | null
  changes: string[]
  counts: ChangeCounts
}

export interface RefComparison {
  fromRef: string
  toRef: string
  /** The commit compared from: the merge base for `A...B` and for a review. */
  fromCommit: string | null
  toCommit: string
  decks: DeckComparison[]
}

/**
 * Compares decks between two git refs: the named decks, or every deck whose folder differs.
 * `mergeBase` compares from the merge base of the two refs (what a pull request shows).
 */
export async function compareRefs(ws: Workspace, options: { fromRef: string; toRef: string; mergeBase: boolean; decks?: string[]; fromPointer?: string; toPointer?: string }): Promise<RefComparison> {
  const refs = await resolveRefs(ws, { ref: options.fromRef, pointer: options.fromPointer ?? '/fromRef' }, { ref: options.toRef, pointer: options.toPointer ?? '/toRef' }, options.mergeBase)
  const ids = options.decks ?? (await changedDecks(ws, refs.base, refs.head))
  const decks = await withReader(ws, async (reader) => {
    const commits = refs.base ? [refs.base, refs.head] : [refs.head]
    const out: DeckComparison[] = []
    for (const id of ids) {
      const states = await statesAt(reader, ws.gitPath(`decks/${id}`), commits)
      const before = refs.base ? states[0] : null
      const after = refs.base ? states[1] : states[0]
      if (!before && !after) continue
      const diff = diffDecks(before, after)
      const changes = proseLines(diff)
      const status = !before ? 'added' : !after ? 'removed' : changes.length ? 'changed' : 'unchanged'
      out.push({
        id,
        title: (after ?? before)!.manifest.title,
        from: before?.manifest.revision ?? null,
        to: after?.manifest.revision ?? null,
        status,
        diff,
        before,
        after,
        changes,
        counts: counts(diff),
      })
    }
    return out
  })
  return { fromRef: options.fromRef, toRef: options.toRef, fromCommit: refs.base, toCommit: refs.head, decks }
}

export interface Review extends RefComparison {
  authors: Map<string, { authors: string[]; commits: number }>
}

/** A review of every deck changed between two refs, compared from their merge base. */
export async function reviewRefs(ws: Workspace, base: string, head: string, decks?: string[]): Promise<Review> {
  const comparison = await compareRefs(ws, { fromRef: base, toRef: head, mergeBase: true, decks, fromPointer: '/base', toPointer: '/head' })
  const authors = await authorsByDeck(ws, comparison.fromCommit, comparison.toCommit)
  comparison.decks = comparison.decks.filter((d) => d.status !== 'unchanged')
  return { ...comparison, authors }
}
