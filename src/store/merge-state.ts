/**
 * The conflicts file of a merge in progress: `.studio/merge/conflicts.json` in the workspace
 * (local state, git-ignored, never committed). The merge driver writes it, once per file git hands
 * it; `studio merge status` reads it and `studio merge resolve` marks what it settled.
 *
 * It names the merge it belongs to (ours, theirs, base, operation): a driver call of another merge
 * starts it afresh, a call of the same merge replaces the entries of its own file.
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
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
  const file = mergeRecordPath(workspaceRoot)
  await mkdir(dirname(file), { recursive: true })
  await writeFileAtomic(file, JSON.stringify(record, null, 2) + '\n')
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
