/**
 * The deck-store interface (docs/storage.md "Two engines"): where an accepted write lands and what
 * fences it. The engine (src/core/engine.ts) stages a write as file changes under the deck's lock and
 * hands them here; every path that commits a deck goes through `commit`.
 *
 * - The git workspace (the default): files and one commit per write in the workspace's repository,
 *   fenced by the branch (a folder the write changes must be as it was in the commit HEAD named when
 *   the write took its locks: transaction.ts, git.ts).
 * - The hosted store (src/hosted/deck-store.ts, `studio serve --store hosted`): each folder's head and
 *   the change log in PostgreSQL, where one conditional UPDATE of the head, inside the transaction that
 *   appends the change, is the revision guard and the fence; file contents as content-addressed objects
 *   in an S3-compatible store. Each instance keeps a git replica of the log in a cache folder it may
 *   lose at any time, so history, diff, versions and review read the same git they read on a checkout.
 */
import type { Workspace } from './workspace.js'
import { StudioError } from '../core/errors.js'
import type { HeadMoved } from './git.js'
import type { CommitMeta, FileChange } from './transaction.js'
import { readHead } from './head.js'

/** What a write read: taken once its locks are held, checked when it commits. */
export interface ReadPoint {
  /** The commit HEAD named (the git engine). */
  readonly commit: string | null
  /** Each folder's head in the store, as this instance held it (the hosted engine). */
  readonly folders?: ReadonlyMap<string, number>
}

export interface DeckStore {
  readonly engine: 'git' | 'hosted'
  /** Brings what this process reads up to the store when it was last checked more than `maxAgeMs` ago (git: always current). */
  refresh(maxAgeMs: number): Promise<void>
  /** The point a write reads from, once its locks are held. */
  readPoint(ws: Workspace): ReadPoint
  /**
   * Lands one write: every change, and exactly one entry in the deck's history. Throws HeadMoved
   * (stale_revision) when a folder it changes moved since `point`; then nothing was written.
   */
  commit(ws: Workspace, keys: string[], changes: FileChange[], meta: CommitMeta, point: ReadPoint): Promise<void>
  close(): Promise<void>
}

/** The git workspace engine. */
export const gitStore: DeckStore = {
  engine: 'git',
  refresh: async () => undefined,
  readPoint: (ws) => ({ commit: readHeadCommit(ws) }),
  async commit(ws, keys, changes, meta, point) {
    // A checkout configured for a hosted store (admin.migrateStorage): a deck moved there takes no write here.
    if (process.env.STUDIO_DATABASE_URL?.trim()) await (await import('../hosted/deck-store.js')).refuseMovedFromCheckout(ws, changes.map((c) => c.rel))
    const { applyChanges } = await import('./transaction.js')
    await applyChanges(ws, keys, changes, meta, { seen: point.commit })
  },
  close: async () => undefined,
}

const readHeadCommit = (ws: Workspace) => readHead(ws.git.gitDir).commit

/** The engine a workspace's decks are stored in. */
export const storeOf = (ws: Workspace): DeckStore => ws.store ?? gitStore

/**
 * A hosted write another instance's change came before (HeadMoved at its commit): the stale-revision
 * refusal with the deck as it is now. Called once the write's locks are released, since the change reaches
 * this instance's replica under them.
 */
export async function refusalAfterMove(ws: Workspace, deckId: string | undefined, error: HeadMoved): Promise<Error> {
  await ws.store?.refresh(0)
  if (!deckId || !ws.deckExists(deckId)) return error
  const [{ readDeck, noteServed }, { plainDoc }] = await Promise.all([import('./deck-cache.js'), import('./deck-state.js')])
  const state = await readDeck(ws, deckId)
  const current = state.doc()
  const tag = state.tag()
  noteServed(ws, tag)
  return new StudioError('stale_revision', error.message, { currentRevision: current.manifest.revision, currentTag: tag, current: plainDoc(current) })
}
