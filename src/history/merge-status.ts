/**
 * `studio merge status` and `studio merge resolve`: the conflicts a merge left, in prose, and
 * settling them one at a time by rewriting the deck's files validly. Neither stages nor commits:
 * `git add` and `git commit` finish the merge as usual.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fail } from '../core/errors.js'
import { documentIssues } from '../model/check.js'
import type { DeckDoc, Manifest, Slide } from '../model/deck.js'
import { normalizeDoc } from '../model/normalize.js'
import { readDeckFolder } from '../store/decks.js'
import { gitDirOf } from '../store/git.js'
import { readMergeRecord, writeDeckFiles, writeMergeRecord, type MergeRecord, type RecordedConflict } from '../store/merge-state.js'
import type { Workspace } from '../store/workspace.js'
import { describe, setAt, type Conflict } from './merge.js'

export { describe }

const run = promisify(execFile)

export interface ConflictView {
  n: number
  id: string
  deck: string
  file: string
  kind: Conflict['kind']
  where: string
  base?: unknown
  ours?: unknown
  theirs?: unknown
  state: 'open' | 'settled'
  settled?: RecordedConflict['settled']
  text: string
}

export interface MergeStatus {
  /** What git is doing: merge, rebase, cherry-pick, revert; null when nothing is in progress. */
  inProgress: string | null
  ours: string | null
  theirs: string | null
  /** Whether the recorded conflicts belong to the merge in progress. */
  current: boolean
  conflicts: ConflictView[]
  notes: string[]
  /** Files the merge wrote that git does not track yet, and files git still marks unmerged (workspace-relative). */
  toAdd: string[]
  unmerged: string[]
  text: string
}

async function git(ws: Workspace, args: string[]): Promise<string | null> {
  try {
    return (await run('git', args, { cwd: ws.git.gitRoot, maxBuffer: 16 * 1024 * 1024 })).stdout
  } catch {
    return null
  }
}

async function inProgress(ws: Workspace): Promise<{ what: string | null; theirs: string | null }> {
  const dir = gitDirOf(ws.git.gitRoot)
  for (const [ref, what] of [['MERGE_HEAD', 'merge'], ['CHERRY_PICK_HEAD', 'cherry-pick'], ['REVERT_HEAD', 'revert'], ['REBASE_HEAD', 'rebase']] as const) {
    if (existsSync(join(dir, ref))) return { what, theirs: (await git(ws, ['rev-parse', '--verify', '-q', ref]))?.trim().split('\n')[0] ?? null }
  }
  if (existsSync(join(dir, 'rebase-merge')) || existsSync(join(dir, 'rebase-apply'))) return { what: 'rebase', theirs: null }
  return { what: null, theirs: null }
}

function conflictText(c: RecordedConflict, names: { ours: string; theirs: string }): string {
  if (c.kind === 'refused') return `${c.where}. ${c.settled ? `Settled with ${names.ours}` : 'Open: ours is on disk; git merge --abort, or settle it with --ours'}.`
  const values = `${names.ours} ${describe(c.ours, c.kind)}, ${names.theirs} ${describe(c.theirs, c.kind)}${c.base !== undefined && c.kind === 'value' ? ` (was ${describe(c.base, c.kind)})` : ''}`
  const state = c.settled ? `settled with ${c.settled.with === 'value' ? `the value ${describe(c.settled.value, c.kind)}` : names[c.settled.with]}` : 'open: ours is on disk'
  return `${c.where}: ${values}. ${state[0].toUpperCase()}${state.slice(1)}.`
}

/** The conflicts and notes of the merge in progress, in prose. */
export async function mergeStatus(ws: Workspace): Promise<MergeStatus> {
  const progress = await inProgress(ws)
  const record = await readMergeRecord(ws.root)
  const unmergedOut = (await git(ws, ['ls-files', '-u', '--full-name', '--', ws.prefix ? ws.prefix : '.'])) ?? ''
  const strip = (p: string) => (ws.prefix && p.startsWith(`${ws.prefix}/`) ? p.slice(ws.prefix.length + 1) : p)
  const unmerged = [...new Set(unmergedOut.split('\n').filter(Boolean).map((l) => strip(l.split('\t')[1])))].sort()
  const current = Boolean(record && progress.what && (!progress.theirs || !record.merge.theirs || record.merge.theirs === progress.theirs))
  const names = { ours: record ? `ours (${record.merge.oursName})` : 'ours', theirs: record ? `theirs (${record.merge.theirsName})` : 'theirs' }
  const views: ConflictView[] = []
  if (record && current) {
    record.conflicts.forEach((c, i) => {
      // A file-alone merge cannot tell its merge apart from another one from the same HEAD: only entries of files git still marks unmerged, or settled ones.
      if (!record.merge.theirs && !c.settled && !unmerged.includes(`${c.folder}/${c.file}`)) return
      views.push({ n: i + 1, id: c.id, deck: c.deck, file: `${c.folder}/${c.file}`, kind: c.kind, where: c.where, base: c.base, ours: c.ours, theirs: c.theirs, state: c.settled ? 'settled' : 'open', settled: c.settled, text: conflictText(c, names) })
    })
  }
  const notes = record && current ? [...new Set(record.notes.map((n) => n.text))] : []
  const toAdd = record && current ? record.renamed.map((r) => `${r.folder}/slides/${r.to}.json`) : []
  const lines: string[] = []
  if (!progress.what) lines.push(record?.conflicts.some((c) => !c.settled) ? 'No merge in progress (the conflicts file is from a merge that has ended).' : 'No merge in progress.')
  else {
    const open = views.filter((v) => v.state === 'open').length
    const head = `${progress.what[0].toUpperCase()}${progress.what.slice(1)} in progress${record && current ? `: ours is ${record.merge.oursName}, theirs is ${record.merge.theirsName}` : ''}.`
    lines.push(head)
    if (!record || !current) lines.push('No deck conflicts recorded for it.')
    else lines.push(views.length ? `${views.length} deck conflict${views.length === 1 ? '' : 's'}, ${open} open:` : 'No deck conflicts: every deck file merged cleanly.')
    for (const v of views) lines.push(`  ${v.n}. [${v.id}] ${v.text}`)
    for (const note of notes) lines.push(`  Note: ${note}`)
    if (open) lines.push(`Settle each with: studio merge resolve <n or id> --ours | --theirs | --value <json>`)
    const pending = [...new Set([...unmerged, ...toAdd])]
    if (pending.length) lines.push(`${open ? 'Then' : 'Next'}: git add ${pending.join(' ')} && git commit`)
    else if (!open) lines.push('Next: git commit')
  }
  return { inProgress: progress.what, ours: record?.merge.ours ?? null, theirs: record?.merge.theirs ?? null, current, conflicts: views, notes, toAdd, unmerged, text: lines.join('\n') + '\n' }
}

function findConflict(record: MergeRecord, ref: string): RecordedConflict {
  const byNumber = /^\d+$/.test(ref) ? record.conflicts[Number(ref) - 1] : undefined
  const found = byNumber ?? record.conflicts.find((c) => c.id === ref) ?? record.conflicts.find((c) => c.id.endsWith(`:${ref}`))
  if (!found) fail('not_found', `No conflict "${ref}" in this merge; \`studio merge status\` lists them by number and id.`, { pointer: '/conflict' })
  return found
}

/** The document with one conflict settled to `value` (undefined: the unit absent). */
export function settle(doc: DeckDoc, conflict: Conflict, value: unknown): DeckDoc {
  const next = structuredClone(doc)
  const slideId = typeof conflict.path[1] === 'string' && conflict.path[0] === 'slides' ? conflict.path[1] : null
  switch (conflict.kind) {
    case 'slide': {
      if (value === undefined) {
        delete next.slides[slideId!]
        for (const s of next.manifest.sections) s.slides = s.slides.filter((id) => id !== slideId)
      } else {
        next.slides[slideId!] = { ...(structuredClone(value) as Slide), id: slideId! }
        if (!next.manifest.sections.some((s) => s.slides.includes(slideId!))) next.manifest.sections[next.manifest.sections.length - 1]?.slides.push(slideId!)
      }
      return next
    }
    case 'place': {
      const place = value as { section?: unknown; after?: unknown } | undefined
      const section = next.manifest.sections.find((s) => s.id === place?.section)
      if (!section) fail('invalid_input', `A place is { "section": <section id>, "after": <slide id or null> }; the deck has no section ${JSON.stringify(place?.section)}.`, { pointer: '/value' })
      for (const s of next.manifest.sections) s.slides = s.slides.filter((id) => id !== slideId)
      const at = typeof place!.after === 'string' ? section.slides.indexOf(place!.after) + 1 : 0
      section.slides.splice(at, 0, slideId!)
      return next
    }
    case 'whole': {
      if (conflict.path.length === 1) {
        const manifest = value as Manifest
        next.manifest = { ...structuredClone(manifest), sections: next.manifest.sections, revision: next.manifest.revision, stamps: next.manifest.stamps }
      } else next.slides[slideId!] = { ...(structuredClone(value) as Slide), id: slideId! }
      return next
    }
    default: {
      if (!setAt(next, conflict.path, value)) fail('invalid_input', `The place of this conflict (${conflict.where}) is no longer in the deck; settle it by hand and git add the file.`)
      return next
    }
  }
}

export interface ResolveResult {
  conflict: ConflictView
  written: string[]
  removed: string[]
  open: number
  text: string
}

/** Rewrites a deck folder with one conflict settled, valid, or refuses writing nothing. */
async function settleOnDisk(dir: string, conflict: RecordedConflict, value: unknown): Promise<{ written: string[]; removed: string[] }> {
  const before = await readDeckFolder(dir, conflict.folder)
  const next = normalizeDoc(settle(before, conflict, value))
  const issues = await documentIssues(next)
  if (issues.length) fail('invalid_input', `Settled that way the deck would break the model: ${issues[0].pointer} ${issues[0].message}. Nothing was written.`, { pointer: issues[0].pointer })
  return writeDeckFiles(dir, before, next)
}

/** Settles one conflict: the unit takes ours', theirs' or the given value; the files are rewritten valid. */
export async function resolveConflict(ws: Workspace, ref: string, choice: { with: 'ours' | 'theirs' } | { with: 'value'; value: unknown }): Promise<ResolveResult> {
  const record = await readMergeRecord(ws.root)
  if (!record || !record.conflicts.length) fail('not_found', 'No deck conflicts are recorded: `studio merge status` shows the merge in progress.')
  const conflict = findConflict(record, ref)
  if (conflict.kind === 'refused' && choice.with !== 'ours') fail('refused', `Conflict ${conflict.id} is a merge studio refused: theirs holds a value the model does not allow where it names a file or an id. Keep ours (--ours) or abort the merge (git merge --abort).`)
  const value = choice.with === 'value' ? choice.value : choice.with === 'ours' ? conflict.ours : conflict.theirs
  // A refused merge settled with ours: ours is on disk already, nothing to write.
  const { written, removed } = conflict.kind === 'refused' ? { written: [], removed: [] } : await settleOnDisk(join(ws.root, conflict.folder), conflict, value)
  conflict.settled = { with: choice.with, ...(choice.with === 'value' ? { value: choice.value } : {}), at: new Date().toISOString() }
  await writeMergeRecord(ws.root, record)
  const open = record.conflicts.filter((c) => !c.settled).length
  const names = { ours: `ours (${record.merge.oursName})`, theirs: `theirs (${record.merge.theirsName})` }
  const n = record.conflicts.indexOf(conflict) + 1
  const view: ConflictView = { n, id: conflict.id, deck: conflict.deck, file: `${conflict.folder}/${conflict.file}`, kind: conflict.kind, where: conflict.where, base: conflict.base, ours: conflict.ours, theirs: conflict.theirs, state: 'settled', settled: conflict.settled, text: conflictText(conflict, names) }
  const paths = [...written, ...removed].map((p) => `${conflict.folder}/${p}`)
  const lines = [conflict.kind === 'refused' ? `Settled ${n} [${conflict.id}]: ours is kept as it is on disk.` : `Settled ${n} [${conflict.id}]: ${conflict.where} is now ${describe(value, conflict.kind)}.`]
  if (paths.length) lines.push(`Rewrote ${paths.join(', ')}.`)
  lines.push(open ? `${open} conflict${open === 1 ? '' : 's'} still open (studio merge status).` : `No conflict left. Next: git add ${conflict.folder} && git commit`)
  return { conflict: view, written: written.map((p) => `${conflict.folder}/${p}`), removed: removed.map((p) => `${conflict.folder}/${p}`), open, text: lines.join('\n') + '\n' }
}
