/**
 * The conflicts file of a merge in progress: `.studio/merge/conflicts.json` in the workspace
 * (local state, git-ignored, never committed). The merge driver writes it, once per file git hands
 * it; `studio merge status` reads it and `studio merge resolve` marks what it settled.
 *
 * It names the merge it belongs to (ours, theirs, base, operation): a driver call of another merge
 * starts it afresh, a call of the same merge replaces the entries of its own file.
 */
import { constants, existsSync } from 'node:fs'
import { lstat, mkdir, open, readFile, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { fail } from '../core/errors.js'
import type { Conflict } from '../history/merge.js'
import type { DeckDoc } from '../model/deck.js'
import { docFiles } from './decks.js'

export type MergeOperation = 'merge' | 'rebase' | 'cherry-pick' | 'revert'

/** The merge a record belongs to. `theirs` and `base` are null when the driver could not tell (the file was merged on its own). */
export interface MergeIdentity {
  operation: MergeOperation | null
  ours: string
  theirs: string | null
  base: string | null
  /** How the sides are called in messages: a branch name, else a short sha and subject. */
  oursName: string
  theirsName: string
}

export interface Settlement {
  with: 'ours' | 'theirs' | 'value'
  value?: unknown
  at: string
}

export interface RecordedConflict extends Conflict {
  settled?: Settlement
}

export interface MergeRecord {
  version: 1
  merge: MergeIdentity
  conflicts: RecordedConflict[]
  /** What the merge decided on its own (renamed ids, sections kept), per file. */
  notes: { folder: string; file: string; text: string }[]
  /** Slides kept under a fresh id: files the driver wrote that git does not know yet (`git add` them). */
  renamed: { folder: string; from: string; to: string }[]
}

export function mergeRecordPath(workspaceRoot: string): string {
  return join(workspaceRoot, '.studio', 'merge', 'conflicts.json')
}

export async function readMergeRecord(workspaceRoot: string): Promise<MergeRecord | null> {
  const file = mergeRecordPath(workspaceRoot)
  if (!existsSync(file)) return null
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as MergeRecord
    return record && record.version === 1 && Array.isArray(record.conflicts) ? record : null
  } catch {
    return null
  }
}

export async function writeMergeRecord(workspaceRoot: string, record: MergeRecord): Promise<void> {
  await realFolder(workspaceRoot, '.studio/merge')
  await writeFileAtomic(mergeRecordPath(workspaceRoot), JSON.stringify(record, null, 2) + '\n')
}

/**
 * Makes `rel` (slash-separated, under `root`) a folder, one segment at a time, refusing a symbolic
 * link or a file anywhere on the way: a merge writes only inside the repository, and a link a branch
 * or a hand put in the way could point anywhere.
 */
export async function realFolder(root: string, rel: string): Promise<string> {
  let at = root
  let shown = ''
  for (const segment of rel.split('/').filter(Boolean)) {
    at = join(at, segment)
    shown = shown ? `${shown}/${segment}` : segment
    let stat = await lstat(at).catch(() => null)
    if (!stat) {
      await mkdir(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error
      })
      stat = await lstat(at)
    }
    if (stat.isSymbolicLink()) fail('refused', `${shown} is a symbolic link; a merge does not write through links. Replace it with a real folder.`)
    if (!stat.isDirectory()) fail('refused', `${shown} is a file where a folder is expected.`)
  }
  return at
}

/**
 * Creates the file `rel` under `root` (a slide the merge kept under a fresh id): never through a link
 * (on the way, or at the file's place: O_NOFOLLOW and O_EXCL), never over another file. A regular
 * file already there is left alone (another driver call of the same merge wrote it). Returns whether
 * it wrote.
 */
export async function createMergedFile(root: string, rel: string, text: string): Promise<boolean> {
  const folder = await realFolder(root, rel.split('/').slice(0, -1).join('/'))
  const file = join(folder, rel.split('/').pop()!)
  const stat = await lstat(file).catch(() => null)
  if (stat?.isSymbolicLink()) fail('refused', `${rel} is a symbolic link; a merge does not write through links. Remove it and merge again.`)
  if (stat) return false
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST' || error.code === 'ELOOP') fail('refused', `${rel} appeared while the merge wrote it; merge again.`)
    throw error
  })
  try {
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
  return true
}

function sameMerge(a: MergeIdentity, b: MergeIdentity): boolean {
  return a.ours === b.ours && a.theirs === b.theirs && a.base === b.base && a.operation === b.operation
}

/**
 * What one driver call found: `file` null when it merged the whole deck (its list replaces the
 * deck's entries: every call of one merge computes the same list, in one order), else the file it
 * merged on its own (replaces that file's entries). A call of another merge starts the record afresh.
 */
export async function recordFileMerge(
  workspaceRoot: string,
  merge: MergeIdentity,
  folder: string,
  file: string,
  found: { conflicts: Conflict[]; notes: string[]; renamed: { from: string; to: string }[]; wholeDeck: boolean },
): Promise<void> {
  const current = await readMergeRecord(workspaceRoot)
  const record: MergeRecord = current && sameMerge(current.merge, merge) ? current : { version: 1, merge, conflicts: [], notes: [], renamed: [] }
  const other = (entry: { folder: string; file: string }) => entry.folder !== folder || entry.file !== file
  const otherDeck = (entry: { folder: string }) => entry.folder !== folder
  record.conflicts = [...record.conflicts.filter(found.wholeDeck ? otherDeck : other), ...found.conflicts]
  // Every call of one merge sees the deck's notes: each is kept once.
  const fresh = new Set(found.notes)
  record.notes = [...record.notes.filter((n) => other(n) && !(n.folder === folder && fresh.has(n.text))), ...[...fresh].map((text) => ({ folder, file, text }))]
  const renamed = new Map(record.renamed.map((r) => [`${r.folder}\n${r.from}`, r]))
  for (const r of found.renamed) renamed.set(`${folder}\n${r.from}`, { folder, ...r })
  record.renamed = [...renamed.values()]
  await writeMergeRecord(workspaceRoot, record)
}

/**
 * Writes a deck folder's JSON files from `after` where they differ from disk, and removes the slide
 * files `before` had and `after` has not (a merge in progress: no journal, no commit; git stages them).
 */
export async function writeDeckFiles(dir: string, before: DeckDoc, after: DeckDoc): Promise<{ written: string[]; removed: string[] }> {
  const written: string[] = []
  const removed: string[] = []
  const next = docFiles(after)
  for (const [rel, text] of next) {
    const file = join(dir, rel)
    const current = existsSync(file) ? await readFile(file, 'utf8') : null
    if (current === text) continue
    await mkdir(dirname(file), { recursive: true })
    await writeFileAtomic(file, text)
    written.push(rel)
  }
  for (const rel of docFiles(before).keys()) {
    if (next.has(rel) || !existsSync(join(dir, rel))) continue
    await unlink(join(dir, rel))
    removed.push(rel)
  }
  return { written, removed }
}
