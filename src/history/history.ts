/**
 * A deck's history as the store wrote it: one commit per accepted write, each carrying the
 * Studio-Deck and Studio-Revision trailers. Read in two git processes whatever its length: one
 * `git log --raw` (commits, authors, trailers, and the blob of every file each commit changed) and
 * one `git cat-file --batch` (the blobs and trees asked for).
 *
 * Commits that carry no revision for this deck (a hand edit, a merge, the commit of a deck.copy,
 * whose trailers name the source deck) get theirs from deck.json at that commit; a hand edit that
 * left deck.json alone belongs to the revision before it. A revision names the newest commit at
 * that revision. History stops where the deck folder was last created (an older deck of the same
 * id, removed since, is another deck).
 */
import { fail } from '../core/errors.js'
import type { DeckDoc, Manifest, Slide, Version } from '../model/deck.js'
import type { Workspace } from '../store/workspace.js'
import { deckLog, type LogEntry, type RawChange } from './git.js'
import { ObjectReader, parseTree, type TreeEntry } from './objects.js'

export interface Mutation {
  revision: number
  commit: string
  author: string
  at: string
  /** The action id from the Studio-Action trailer; null for a commit studio did not make. */
  action: string | null
  changes: RawChange[]
}

export class DeckHistory {
  constructor(
    readonly deckId: string,
    /** Oldest first. */
    readonly mutations: Mutation[],
  ) {}

  /** The oldest revision in the history. */
  first(): number | undefined {
    return this.mutations[0]?.revision
  }

  /** The newest commit at a revision. */
  commitOf(revision: number): string | undefined {
    for (let i = this.mutations.length - 1; i >= 0; i--) if (this.mutations[i].revision === revision) return this.mutations[i].commit
    return undefined
  }

  has(revision: number): boolean {
    return this.commitOf(revision) !== undefined
  }

  /** The mutations after `from` up to and including `to`, oldest first. */
  between(from: number, to: number): Mutation[] {
    const last = (revision: number) => {
      for (let i = this.mutations.length - 1; i >= 0; i--) if (this.mutations[i].revision === revision) return i
      return -1
    }
    const start = last(from)
    const end = last(to)
    if (start < 0 || end < 0) return []
    return this.mutations.slice(start + 1, end + 1)
  }
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T
  } catch (error) {
    fail('storage', `${what} is not valid JSON in git history (${(error as Error).message}).`)
  }
}

function revisionOf(text: string | null): number | null {
  if (!text) return null
  try {
    const value = (JSON.parse(text) as Manifest).revision
    return typeof value === 'number' ? value : null
  } catch {
    return null
  }
}

/** Reads the history of a deck reachable from `rev` (HEAD by default). */
export async function loadHistory(ws: Workspace, reader: ObjectReader, deckId: string, rev = 'HEAD'): Promise<DeckHistory> {
  const newestFirst = await deckLog(ws, deckId, rev)
  const entries: LogEntry[] = []
  for (const entry of newestFirst) {
    const manifest = entry.changes.find((c) => c.path === 'deck.json')
    if (manifest?.status === 'D') break
    entries.push(entry)
    if (manifest?.status === 'A') break
  }
  entries.reverse()

  // Revisions from the trailers, else from deck.json at that commit (read in one round).
  const folder = ws.gitPath(`decks/${deckId}`)
  const revisions: (number | null)[] = entries.map((e) => (e.trailerDeck === deckId && e.trailerRevision !== null ? e.trailerRevision : null))
  const ask: { index: number; name: string }[] = []
  entries.forEach((entry, index) => {
    if (revisions[index] !== null) return
    const manifest = entry.changes.find((c) => c.path === 'deck.json' && c.after)
    if (manifest) ask.push({ index, name: manifest.after! })
    else if (entry.parents.length > 1) ask.push({ index, name: `${entry.commit}:${folder}/deck.json` })
  })
  if (ask.length) {
    const texts = await reader.texts(ask.map((a) => a.name))
    ask.forEach((a, i) => (revisions[a.index] = revisionOf(texts[i])))
  }
  const mutations: Mutation[] = []
  let previous: number | null = null
  entries.forEach((entry, index) => {
    const revision = revisions[index] ?? previous
    if (revision === null) return
    previous = revision
    mutations.push({ revision, commit: entry.commit, author: entry.author, at: entry.at, action: entry.action, changes: entry.changes })
  })
  return new DeckHistory(deckId, mutations)
}

/** Slide files of a `slides` tree, as id → blob sha. */
function slideBlobs(entries: TreeEntry[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const entry of entries) if (!entry.tree && entry.name.endsWith('.json')) out.set(entry.name.slice(0, -5), entry.sha)
  return out
}

/**
 * The deck documents at several commits, read in two rounds of one cat-file process (manifests,
 * logs and slide trees first, then every slide blob not read yet). null where the deck is absent.
 */
export async function statesAt(reader: ObjectReader, folder: string, commits: string[]): Promise<(DeckDoc | null)[]> {
  const names = commits.flatMap((c) => [`${c}:${folder}/deck.json`, `${c}:${folder}/versions.json`, `${c}:${folder}/slides`])
  const first = await reader.read(names)
  const trees = commits.map((_, i) => {
    const tree = first[i * 3 + 2]
    return tree && tree.type === 'tree' ? slideBlobs(parseTree(tree.data)) : new Map<string, string>()
  })
  const shas = [...new Set(trees.flatMap((t) => [...t.values()]))]
  const blobs = new Map<string, Slide>()
  const texts = await reader.texts(shas)
  shas.forEach((sha, i) => {
    if (texts[i] !== null) blobs.set(sha, parseJson<Slide>(texts[i]!, `A slide of ${folder}`))
  })
  return commits.map((commit, i) => {
    const manifestObject = first[i * 3]
    if (!manifestObject || manifestObject.type !== 'blob') return null
    const manifest = parseJson<Manifest>(manifestObject.data.toString('utf8'), `${folder}/deck.json at ${commit.slice(0, 7)}`)
    const versionsObject = first[i * 3 + 1]
    const versions = versionsObject && versionsObject.type === 'blob' ? parseJson<Version[]>(versionsObject.data.toString('utf8'), `${folder}/versions.json`) : []
    // Keyed by the ids the files hold (null prototype: an id like __proto__ is a key like any other).
    const slides: Record<string, Slide> = Object.create(null)
    for (const [id, sha] of trees[i]) {
      const slide = blobs.get(sha)
      if (slide) slides[slide.id ?? id] = structuredClone(slide)
    }
    return { manifest, slides, versions }
  })
}

/** Every file under a folder at a commit (path relative to the folder → blob sha), walking sub-trees. */
export async function filesAt(reader: ObjectReader, commit: string, folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  let level: { prefix: string; name: string }[] = [{ prefix: '', name: `${commit}:${folder}` }]
  while (level.length) {
    const objects = await reader.read(level.map((l) => l.name))
    const next: { prefix: string; name: string }[] = []
    objects.forEach((object, i) => {
      if (!object || object.type !== 'tree') return
      for (const entry of parseTree(object.data)) {
        const rel = `${level[i].prefix}${entry.name}`
        if (entry.tree) next.push({ prefix: `${rel}/`, name: entry.sha })
        else out.set(rel, entry.sha)
      }
    })
    level = next
  }
  return out
}
