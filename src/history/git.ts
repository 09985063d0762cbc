/**
 * The git reads of history: refs, the log of a deck folder, the paths changed between two commits.
 *
 * Each function is ONE git process (through the store's Git class), whatever the number of
 * revisions: history is read in a few calls, never one per revision. User strings reach git only
 * after validation against REF (no leading dash, no spaces), so none can be read as an option.
 */
import { fail, StudioError } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'

function git(ws: Workspace, args: string[]): Promise<string> {
  return ws.git.raw(args)
}

/** A pathspec from the top of the repository, whatever folder git runs in. */
const top = (path: string) => `:(top)${path}`

/** A ref, a sha or a rev expression (`HEAD~2`, `origin/main`, `v1.0^`); never an option, never a range. */
export const REF = '^(?!-)(?!.*\\.\\.)[A-Za-z0-9_@{}~^./+-]{1,200}$'
/** `<ref>..<ref>` or `<ref>...<ref>`. */
export const RANGE = '^(?!-)[A-Za-z0-9_@{}~^/+-]+(?:\\.[A-Za-z0-9_@{}~^/+-]+)*\\.\\.\\.?(?!-)[A-Za-z0-9_@{}~^/+-]+(?:\\.[A-Za-z0-9_@{}~^/+-]+)*$'

export interface ResolvedRefs {
  /** The commit the comparison starts from (the merge base for `A...B`). */
  base: string | null
  head: string
}

/**
 * Resolves two refs to commits in one `git rev-parse`; with `mergeBase`, the base becomes the merge
 * base of the two (what a pull request compares: `A...B`). A ref git does not know is a 404 whose
 * pointer names the input field.
 */
export async function resolveRefs(ws: Workspace, from: { ref: string; pointer: string }, to: { ref: string; pointer: string }, mergeBase = false): Promise<ResolvedRefs> {
  for (const { ref, pointer } of [from, to]) {
    if (!new RegExp(REF).test(ref)) fail('invalid_input', `"${ref}" is not a git ref.`, { pointer })
  }
  const args = ['rev-parse', `${from.ref}^{commit}`, `${to.ref}^{commit}`]
  if (mergeBase) args.push(`${from.ref}...${to.ref}`)
  let out: string
  try {
    out = await git(ws, args)
  } catch (error) {
    if (!(error instanceof StudioError) || error.code !== 'storage') throw error
    const unknown = /ambiguous argument '([^']*)'|bad revision '([^']*)'|Needed a single revision/.exec(error.message)
    const named = unknown?.[1] ?? unknown?.[2] ?? ''
    const which = named.startsWith(`${to.ref}^`) && !named.startsWith(`${from.ref}^`) ? to : from
    fail('not_found', `git knows no commit "${which.ref}" in ${ws.git.gitRoot}.`, { pointer: which.pointer })
  }
  const lines = out.split('\n').map((l) => l.trim()).filter(Boolean)
  const [fromSha, toSha] = lines
  if (!mergeBase) return { base: fromSha, head: toSha }
  const bases = lines.slice(2).filter((l) => l.startsWith('^')).map((l) => l.slice(1))
  return { base: bases[0] ?? null, head: toSha }
}

/** Splits `A..B` / `A...B` into its two refs and whether it compares from the merge base. */
export function splitRange(range: string, pointer = '/gitRange'): { from: string; to: string; mergeBase: boolean } {
  if (!new RegExp(RANGE).test(range)) fail('invalid_input', `"${range}" is not a git range (A..B or A...B).`, { pointer })
  const three = range.indexOf('...')
  if (three >= 0) return { from: range.slice(0, three), to: range.slice(three + 3), mergeBase: true }
  const two = range.indexOf('..')
  return { from: range.slice(0, two), to: range.slice(two + 2), mergeBase: false }
}

/** One file change of a commit, as `git log --raw` reports it. */
export interface RawChange {
  /** Path inside the deck folder (`deck.json`, `slides/title-1.json`, `assets/logo.png`). */
  path: string
  status: 'A' | 'M' | 'D' | 'T'
  /** Blob sha before and after; null where the file did not exist. */
  before: string | null
  after: string | null
}

/** One commit that touched a deck folder. */
export interface LogEntry {
  commit: string
  parents: string[]
  author: string
  at: string
  action: string | null
  /** The Studio-Deck and Studio-Revision trailers, when the commit has them. */
  trailerDeck: string | null
  trailerRevision: number | null
  changes: RawChange[]
}

const NULL_SHA = /^0+$/
const FIELD = '\x1f'
const RECORD = '\x1e'

/**
 * Every commit touching `decks/<id>` reachable from `rev` (HEAD by default; `a..b` limits it), newest
 * first, with its author, trailers and the blobs of every file it changed: one `git log`.
 */
export async function deckLog(ws: Workspace, deckId: string, rev = 'HEAD'): Promise<LogEntry[]> {
  const folder = ws.gitPath(`decks/${deckId}`)
  const format = [
    '%x1e%H', '%P', '%an', '%aI',
    '%(trailers:key=Studio-Action,valueonly,separator=%x2C)',
    '%(trailers:key=Studio-Deck,valueonly,separator=%x2C)',
    '%(trailers:key=Studio-Revision,valueonly,separator=%x2C)',
  ].join('%x1f')
  let out: string
  try {
    out = await git(ws, ['log', '--topo-order', '--raw', '--no-abbrev', '--no-renames', '--no-color', `--format=${format}%x1f`, rev, '--', top(`${folder}/`)])
  } catch (error) {
    // A repository without commits has no history yet.
    if (error instanceof StudioError && /does not have any commits|unknown revision|bad (default )?revision/.test(error.message)) return []
    throw error
  }
  return parseDeckLog(out, `${folder}/`)
}

/** Parses the output of deckLog's `git log` (exported for tests). */
export function parseDeckLog(out: string, folderPrefix: string): LogEntry[] {
  const entries: LogEntry[] = []
  for (const record of out.split(RECORD)) {
    if (!record.trim()) continue
    const fields = record.split(FIELD)
    const [commit, parents, author, at, action, deck, revision] = fields
    const rest = fields.slice(7).join(FIELD)
    const changes: RawChange[] = []
    for (const line of rest.split('\n')) {
      // :100644 100644 <sha> <sha> M\tpath
      const match = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([AMDT])[0-9]*\t(.+)$/.exec(line)
      if (!match || !match[4].startsWith(folderPrefix)) continue
      changes.push({
        path: match[4].slice(folderPrefix.length),
        status: match[3] as RawChange['status'],
        before: NULL_SHA.test(match[1]) ? null : match[1],
        after: NULL_SHA.test(match[2]) ? null : match[2],
      })
    }
    const revisionNumber = revision && /^\d+$/.test(revision.split(',')[0].trim()) ? Number(revision.split(',')[0].trim()) : null
    entries.push({
      commit,
      parents: parents ? parents.split(' ').filter(Boolean) : [],
      author,
      at,
      action: action ? action.split(',')[0].trim() || null : null,
      trailerDeck: deck ? deck.split(',')[0].trim() || null : null,
      trailerRevision: revisionNumber,
      changes,
    })
  }
  return entries
}

/** Deck ids whose folders differ between two commits (one `git diff --name-only`). */
export async function changedDecks(ws: Workspace, base: string | null, head: string): Promise<string[]> {
  const decks = ws.gitPath('decks') + '/'
  const args = base
    ? ['diff', '--name-only', '--no-renames', '--no-color', base, head, '--', top(decks)]
    : ['ls-tree', '-r', '--name-only', '--full-tree', head, '--', decks]
  const out = await git(ws, args)
  const ids = new Set<string>()
  for (const line of out.split('\n')) {
    if (!line.startsWith(decks)) continue
    const [id, file] = line.slice(decks.length).split('/')
    if (id && file && id !== 'templates') ids.add(id)
  }
  return [...ids].sort()
}

/** Authors of the commits in `base..head` touching each deck (one `git log --name-only`). */
export async function authorsByDeck(ws: Workspace, base: string | null, head: string): Promise<Map<string, { authors: string[]; commits: number }>> {
  const decks = ws.gitPath('decks') + '/'
  const out = await git(ws, ['log', '--no-renames', '--name-only', '--no-color', '--format=%x1e%an', base ? `${base}..${head}` : head, '--', top(decks)])
  const byDeck = new Map<string, { authors: string[]; commits: number }>()
  for (const record of out.split(RECORD)) {
    if (!record.trim()) continue
    const [author, ...paths] = record.split('\n')
    const touched = new Set<string>()
    for (const line of paths) {
      if (!line.startsWith(decks)) continue
      const id = line.slice(decks.length).split('/')[0]
      if (id && id !== 'templates') touched.add(id)
    }
    for (const id of touched) {
      const entry = byDeck.get(id) ?? { authors: [], commits: 0 }
      entry.commits++
      if (!entry.authors.includes(author)) entry.authors.push(author)
      byDeck.set(id, entry)
    }
  }
  for (const entry of byDeck.values()) entry.authors.reverse()
  return byDeck
}
