/**
 * git's merge driver for deck files: `studio merge driver %O %A %B %P` (registered by
 * `studio git setup`). git calls it once per file both sides changed, with the base, ours and
 * theirs versions in temporary files; the merged file goes into %A, and the exit code says whether
 * it is clean (0) or conflicted (1).
 *
 * A deck is merged across its files (deck.json's sections name the slides in slides/*.json), so
 * each call first finds the three commits of the merge and merges the whole deck from them
 * (src/history/merge.ts), then writes its own file's part of the result. Every call computes the
 * same merge, so the files agree; a slide file git merges by itself (changed on one side only,
 * added on one side) is the one the whole merge has too.
 *
 * Finding the commits: git does not write MERGE_HEAD before the merge is done. A `git merge` puts
 * theirs in the environment (GITHEAD_<sha>); a rebase names the commit it is replaying in
 * .git/rebase-merge/done, a cherry-pick or revert of several commits in .git/sequencer/todo. Each
 * candidate is checked against the three versions git handed over; when none matches (a lone
 * cherry-pick or revert, `git am`, the virtual base of a criss-cross merge), the file is merged
 * on its own: deck.json without knowing the slides, a slide block by block, versions by number.
 *
 * Nothing read is trusted: every id, layout and slide file name of every side is checked with the
 * model's rules (namingIssues) before anything is named or written, and the files the driver writes
 * besides git's own are created without following links (src/store/merge-state.ts). A value that
 * breaks the rules, or a link in the way, refuses the deck's merge: a 'refused' conflict, ours kept.
 *
 * The conflicts go to `.studio/merge/conflicts.json` (src/store/merge-state.ts). Anything unexpected
 * (a file that is not JSON) falls back to git's own text merge, so the driver never loses a side.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import writeFileAtomic from 'write-file-atomic'
import { toStudioError } from '../core/errors.js'
import { documentIssues, namingIssues } from '../model/check.js'
import type { DeckDoc, Manifest, Slide, Version } from '../model/deck.js'
import { normalizeDoc } from '../model/normalize.js'
import { canonicalJson } from '../store/canonical.js'
import { docFiles } from '../store/decks.js'
import { gitDirOf } from '../store/git.js'
import { createMergedFile, realFolder, recordFileMerge, type MergeIdentity, type MergeOperation } from '../store/merge-state.js'
import { own } from '../model/own.js'
import { statesAt } from './history.js'
import { mergeDecks, mergeSlideAlone, mergeVersions, same, type Conflict, type DeckMerge } from './merge.js'
import { ObjectReader } from './objects.js'
import { COMMENT_FILE, mergeCommentFile } from '../comments/merge.js'

const run = promisify(execFile)

/** A deck file's path in the repository: the workspace prefix, the deck folder, the file inside it. */
export const DECK_FILE = /^(?<prefix>(?:.+\/)?)(?<folder>decks\/(?:templates\/)?[a-z0-9]+(?:-[a-z0-9]+)*)\/(?<file>deck\.json|versions\.json|slides\/[^/]+\.json)$/

export interface DriverCall {
  /** %O, %A, %B: temporary files git wrote; the result goes into `ours`. */
  base: string
  ours: string
  theirs: string
  /** %P: the file's path in the repository. */
  path: string
  /** The repository's top folder (git runs drivers there). */
  gitRoot: string
  now?: string
}

export interface Sides extends MergeIdentity {
  /** Whether the three commits were found and checked against the versions git handed over. */
  known: boolean
}

async function git(gitRoot: string, args: string[]): Promise<string | null> {
  try {
    return (await run('git', args, { cwd: gitRoot, maxBuffer: 64 * 1024 * 1024 })).stdout.trim()
  } catch {
    return null
  }
}

const SHA = /^[0-9a-f]{40,64}$/

/** The commits git may be merging, most likely first: from the environment, the rebase and sequencer files, then the state refs. */
async function candidates(gitRoot: string, head: string): Promise<{ operation: MergeOperation; theirs: string; base: string | null; theirsName: string }[]> {
  const out: { operation: MergeOperation; theirs: string; base: string | null; theirsName: string }[] = []
  const parent = async (sha: string) => (await git(gitRoot, ['rev-parse', '--verify', '-q', `${sha}^{commit}^`])) || null
  const subject = async (sha: string) => `${sha.slice(0, 7)} ${(await git(gitRoot, ['log', '-1', '--format=%s', sha])) ?? ''}`.trim()
  for (const [name, value] of Object.entries(process.env)) {
    const match = /^GITHEAD_([0-9a-f]{40,64})$/.exec(name)
    if (!match) continue
    const bases = (await git(gitRoot, ['merge-base', '--all', head, match[1]]))?.split('\n').filter(Boolean) ?? []
    out.push({ operation: 'merge', theirs: match[1], base: bases[0] ?? null, theirsName: value || match[1].slice(0, 7) })
  }
  const gitDir = gitDirOf(gitRoot)
  const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) : [])
  const done = lines(join(gitDir, 'rebase-merge', 'done'))
  const last = /^(?:pick|p|reword|r|edit|e|squash|s|fixup|f)\s+([0-9a-f]{4,64})\b/.exec(done[done.length - 1] ?? '')
  if (last) {
    const sha = await git(gitRoot, ['rev-parse', '--verify', '-q', `${last[1]}^{commit}`])
    if (sha) out.push({ operation: 'rebase', theirs: sha, base: await parent(sha), theirsName: await subject(sha) })
  }
  const todo = /^(pick|p|revert)\s+([0-9a-f]{4,64})\b/.exec(lines(join(gitDir, 'sequencer', 'todo'))[0] ?? '')
  if (todo) {
    const sha = await git(gitRoot, ['rev-parse', '--verify', '-q', `${todo[2]}^{commit}`])
    if (sha && todo[1] === 'revert') {
      const p = await parent(sha)
      if (p) out.push({ operation: 'revert', theirs: p, base: sha, theirsName: `the revert of ${await subject(sha)}` })
    } else if (sha) out.push({ operation: 'cherry-pick', theirs: sha, base: await parent(sha), theirsName: await subject(sha) })
  }
  for (const [ref, operation] of [['MERGE_HEAD', 'merge'], ['CHERRY_PICK_HEAD', 'cherry-pick'], ['REBASE_HEAD', 'rebase']] as const) {
    const sha = await git(gitRoot, ['rev-parse', '--verify', '-q', ref])
    if (!sha || !SHA.test(sha)) continue
    const base = operation === 'merge' ? ((await git(gitRoot, ['merge-base', head, sha])) || null) : await parent(sha)
    out.push({ operation, theirs: sha, base, theirsName: await subject(sha) })
  }
  return out
}

/**
 * The merge's three commits, checked: the file at ours, theirs and base must be the versions git
 * handed over (absent at base for a file added on both sides). `known` false when none checks out.
 */
export async function findSides(gitRoot: string, path: string, texts: { base: string; ours: string; theirs: string }, reader: ObjectReader): Promise<Sides> {
  const [headSha, branch] = await Promise.all([git(gitRoot, ['rev-parse', '--verify', '-q', 'HEAD']), git(gitRoot, ['symbolic-ref', '--short', '-q', 'HEAD'])])
  const head = headSha ?? ''
  const oursName = branch || head.slice(0, 7)
  const unknown: Sides = { known: false, operation: null, ours: head, theirs: null, base: null, oursName, theirsName: 'theirs' }
  if (!head) return unknown
  for (const candidate of await candidates(gitRoot, head)) {
    const [o, t, b] = await reader.texts([`${head}:${path}`, `${candidate.theirs}:${path}`, candidate.base ? `${candidate.base}:${path}` : ''])
    if (o === texts.ours && t === texts.theirs && (b ?? '') === texts.base) {
      return { known: true, operation: candidate.operation, ours: head, theirs: candidate.theirs, base: candidate.base, oursName, theirsName: candidate.theirsName }
    }
  }
  return unknown
}

/** Whether this call merges the files of HEAD (false in the inner merge of a criss-cross merge's bases): only then are conflicts recorded. */
async function isOuterMerge(gitRoot: string, path: string, ours: string, reader: ObjectReader): Promise<boolean> {
  const [atHead] = await reader.texts([`HEAD:${path}`])
  return atHead === ours
}

/**
 * Makes a merged document valid: a slide (or the manifest) that breaks the model goes back to
 * ours' version, with a conflict that offers theirs.
 */
export async function keepValid(merge: DeckMerge, ours: DeckDoc, theirs: DeckDoc): Promise<DeckDoc> {
  let doc = normalizeDoc(merge.doc)
  for (let round = 0; round < 3; round++) {
    const issues = await documentIssues(doc)
    if (!issues.length) break
    const slides = new Set<string>()
    let manifest = false
    for (const issue of issues) {
      const match = /^\/slides\/([^/]+)/.exec(issue.pointer)
      if (match) slides.add(match[1])
      else manifest = true
    }
    for (const id of slides) {
      const mine = own(ours.slides, id) ?? own(theirs.slides, id)
      if (!mine || same(doc.slides[id], mine)) continue
      merge.conflicts.push({
        id: `${merge.doc.manifest.id}:slide/${id}`, folder: '', deck: merge.doc.manifest.id, file: `slides/${id}.json`, kind: 'whole', path: ['slides', id],
        ours: ours.slides[id], theirs: theirs.slides[id], where: `Slide ${id}: the merged slide breaks the model (${issues.find((i) => i.pointer.startsWith(`/slides/${id}`))!.message}); ours is kept`,
      } as Conflict)
      doc.slides[id] = structuredClone(mine)
    }
    if (manifest) {
      merge.conflicts.push({
        id: `${merge.doc.manifest.id}:deck`, folder: '', deck: merge.doc.manifest.id, file: 'deck.json', kind: 'whole', path: ['manifest'],
        ours: ours.manifest, theirs: theirs.manifest, where: `Deck settings: the merged manifest breaks the model; ours is kept`,
      } as Conflict)
      doc.manifest = { ...structuredClone(ours.manifest), sections: doc.manifest.sections, revision: doc.manifest.revision, stamps: doc.manifest.stamps }
    }
    doc = normalizeDoc(doc)
  }
  return doc
}

const parseJson = <T>(text: string): T => JSON.parse(text) as T

export interface DriverResult {
  exitCode: number
  /** How the file was merged: the whole deck (three commits found), the file alone, or git's text merge. */
  mode: 'deck' | 'file' | 'text'
  conflicts: Conflict[]
  /** Why nothing of the merge was taken (a side names a file or id the model refuses, a link in the way): ours kept, a conflict. */
  refused?: string
}

/** One call of the driver; writes the merged file into `call.ours`. */
export async function runMergeDriver(call: DriverCall): Promise<DriverResult> {
  const comment = COMMENT_FILE.exec(call.path)
  if (comment) return commentFileMerge(call, comment.groups!.name)
  const match = DECK_FILE.exec(call.path)
  if (!match) return textMerge(call)
  try {
    return await deckFileMerge(call, match.groups as { prefix: string; folder: string; file: string })
  } catch {
    return textMerge(call)
  }
}

/** A comment thread or the comments index (src/comments/merge.ts): merged alone, never a conflict unless a side is not one. */
async function commentFileMerge(call: DriverCall, name: string): Promise<DriverResult> {
  try {
    const [base, ours, theirs] = await Promise.all([readFile(call.base, 'utf8'), readFile(call.ours, 'utf8'), readFile(call.theirs, 'utf8')])
    const merged = mergeCommentFile(name, base, ours, theirs)
    if (merged === null) return textMerge(call)
    await writeFile(call.ours, merged)
    return { exitCode: 0, mode: 'file', conflicts: [] }
  } catch {
    return textMerge(call)
  }
}

async function textMerge(call: DriverCall): Promise<DriverResult> {
  try {
    await run('git', ['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', '--', call.ours, call.base, call.theirs], { cwd: call.gitRoot })
    return { exitCode: 0, mode: 'text', conflicts: [] }
  } catch {
    return { exitCode: 1, mode: 'text', conflicts: [] }
  }
}

/** Control characters of a value shown in a message, escaped as JSON escapes them. */
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1))

/**
 * The first value of the sides that would name a file, a folder or an id and breaks the model's rules
 * (src/model/check.ts namingIssues): a slide id like `../../x`, a layout that is not one of the 22,
 * a slide under another id than its own. Checked before anything of the merge is named or written;
 * one found refuses the merge (ours kept, a conflict).
 */
async function refusalOf(sides: [name: string, doc: Partial<DeckDoc> | null][], files: string[] = []): Promise<string | undefined> {
  const fileIssue = (await namingIssues({}, files))[0]
  if (fileIssue) return `the file name ${printable(JSON.stringify(files[0]))} is not a slide id`
  for (const [name, doc] of sides) {
    if (!doc) continue
    const issue = (await namingIssues(doc)).find(Boolean)
    if (issue) return `${name} has ${printable(issue.pointer)} ${printable(issue.message)}`
  }
  return undefined
}

/** The conflict of a refused merge: nothing of it was taken, ours is on disk. */
function refusedConflict(folder: string, file: string, why: string): Conflict {
  const deck = /([^/]+)$/.exec(folder)![1]
  return {
    id: `${deck}:refused/${file}`, folder, deck, file, kind: 'refused', path: [],
    where: `Deck ${deck}: not merged, ${why} (a value that names a file or an id must keep the model's rules); ours is kept`,
  }
}

/** A refusal of the store (a link in the way) in words; any other error is unexpected and goes on (to git's text merge). */
function refusedBy(error: unknown, what: string): string {
  const failure = toStudioError(error)
  if (failure.code !== 'refused') throw error
  return `${what}: ${failure.message}`
}

const emptyPlan: DeckPlan = { key: '', files: {}, conflicts: [], notes: [], renamed: [] }

/** The slide id a deck file is named by (`slides/<id>.json`), as a list of one, or none. */
const slideFile = (file: string) => [/^slides\/(.*)\.json$/.exec(file)?.[1]].filter((id): id is string => id !== undefined)

async function deckFileMerge(call: DriverCall, where: { prefix: string; folder: string; file: string }): Promise<DriverResult> {
  const now = call.now ?? new Date().toISOString()
  const [baseText, oursText, theirsText] = await Promise.all([call.base, call.ours, call.theirs].map((f) => readFile(f, 'utf8')))
  const workspaceRoot = join(call.gitRoot, where.prefix)
  const folderPath = `${where.prefix}${where.folder}`
  const reader = new ObjectReader(call.gitRoot)
  try {
    const sides = await findSides(call.gitRoot, call.path, { base: baseText, ours: oursText, theirs: theirsText }, reader)
    let content: string
    let conflicts: Conflict[]
    let notes: string[] = []
    let renamed: { from: string; to: string }[] = []
    let mode: DriverResult['mode']
    let refused = await refusalOf([], slideFile(where.file))
    if (refused) {
      mode = sides.known ? 'deck' : 'file'
      content = oursText
      conflicts = []
    } else if (sides.known) {
      mode = 'deck'
      const plan = await deckPlan(workspaceRoot, folderPath, where.folder, sides, reader, now).catch((error) => ({ ...emptyPlan, refused: refusedBy(error, 'the merge could not keep its plan') }))
      refused = plan.refused
      content = refused ? oursText : (plan.files[where.file] ?? oursText)
      conflicts = refused ? [] : plan.conflicts
      notes = plan.notes
      renamed = refused ? [] : plan.renamed
      // Slides kept under a fresh id are files git knows nothing of: written here, added by the user.
      try {
        if (!refused) refused = await refusalOf([], renamed.map((r) => r.to))
        for (const r of refused ? [] : renamed) {
          const text = plan.files[`slides/${r.to}.json`]
          if (text) await createMergedFile(workspaceRoot, `${where.folder}/slides/${r.to}.json`, text)
        }
      } catch (error) {
        refused = refusedBy(error, 'a slide kept under a new id could not be written')
      }
      if (refused) renamed = []
    } else {
      mode = 'file'
      ;({ content, conflicts, notes, refused } = await mergeAlone(where, baseText, oursText, theirsText, now, reader, call.path))
    }
    if (refused) {
      conflicts = [refusedConflict(`${where.folder}`, mode === 'deck' ? 'deck.json' : where.file, refused)]
      notes = []
    } else await writeFile(call.ours, content)
    const mine = refused ? conflicts : conflicts.filter((c) => c.file === where.file)
    const ownRename = renamed.some((r) => where.file === `slides/${r.from}.json`)
    if (await isOuterMerge(call.gitRoot, call.path, oursText, reader)) {
      await recordFileMerge(workspaceRoot, sides, where.folder, where.file, {
        conflicts: mode === 'deck' ? conflicts : mine,
        notes,
        renamed: ownRename ? renamed.filter((r) => where.file === `slides/${r.from}.json`) : [],
        wholeDeck: mode === 'deck',
      }).catch((error) => {
        refused ??= refusedBy(error, 'the conflicts could not be recorded')
      })
    }
    return { exitCode: mine.length || ownRename || refused ? 1 : 0, mode, conflicts: mine, ...(refused ? { refused } : {}) }
  } finally {
    reader.close()
  }
}

/** The whole deck's merge: every file's merged text, the conflicts, notes and renamed slides; or why it was refused. */
interface DeckPlan {
  key: string
  files: Record<string, string>
  conflicts: Conflict[]
  notes: string[]
  renamed: { from: string; to: string }[]
  refused?: string
}

/**
 * The deck's merge, computed by the first driver call of a merge and kept in
 * `.studio/merge/plan-<key>.json` for the others (git calls the driver once per file; the three
 * commits decide the merge, so every call would compute the same plan). Plans of other merges are
 * removed when a new one is written.
 */
async function deckPlan(workspaceRoot: string, folderPath: string, folder: string, sides: Sides, reader: ObjectReader, now: string): Promise<DeckPlan> {
  const key = createHash('sha256').update(`${PLAN_VERSION}\n${sides.ours}\n${sides.theirs}\n${sides.base}\n${folderPath}`).digest('hex').slice(0, 24)
  const dir = await realFolder(workspaceRoot, '.studio/merge')
  const file = join(dir, `plan-${key}.json`)
  try {
    const cached = JSON.parse(await readFile(file, 'utf8')) as DeckPlan
    if (cached.key === key) return cached
  } catch {
    // no plan yet
  }
  const [ours, theirs, base] = await statesAt(reader, folderPath, [sides.ours, sides.theirs!, ...(sides.base ? [sides.base] : [])])
  if (!ours || !theirs) throw new Error('deck.json missing on one side')
  const refused = await refusalOf([[`ours (${sides.oursName})`, ours], [`theirs (${sides.theirsName})`, theirs], ['the merge base', base ?? null]])
  let plan: DeckPlan
  if (refused) plan = { key, files: {}, conflicts: [], notes: [], renamed: [], refused }
  else {
    const merge = mergeDecks(base ?? null, ours, theirs, { now, folder })
    const doc = await keepValid(merge, ours, theirs)
    for (const c of merge.conflicts) c.folder = folder
    plan = { key, files: Object.fromEntries(docFiles(doc)), conflicts: merge.conflicts, notes: merge.notes, renamed: merge.renamed }
  }
  for (const name of await readdir(dir).catch(() => [] as string[])) if (/^plan-[0-9a-f]+\.json$/.test(name) && name !== `plan-${key}.json`) await rm(join(dir, name), { force: true })
  await writeFileAtomic(file, JSON.stringify(plan))
  return plan
}

const PLAN_VERSION = 2

/** A file merged without the rest of its deck (the three commits unknown). */
async function mergeAlone(where: { folder: string; file: string }, baseText: string, oursText: string, theirsText: string, now: string, reader: ObjectReader, path: string): Promise<{ content: string; conflicts: Conflict[]; notes: string[]; refused?: string }> {
  const base = baseText.trim() ? baseText : null
  const refuse = (refused: string) => ({ content: oursText, conflicts: [], notes: [], refused })
  if (where.file === 'versions.json') {
    const deck = /([^/]+)$/.exec(where.folder)![1]
    const merged = mergeVersions(base ? parseJson<Version[]>(base) : [], parseJson<Version[]>(oursText), parseJson<Version[]>(theirsText), deck, where.folder)
    return { content: canonicalJson(merged.versions), conflicts: merged.conflicts, notes: [] }
  }
  if (where.file === 'deck.json') {
    const doc = (text: string): DeckDoc => ({ manifest: parseJson<Manifest>(text), slides: {}, versions: [] })
    const ours = doc(oursText)
    const manifestOf = (text: string | null) => (text === null ? null : { manifest: parseJson<Manifest>(text) })
    const refused = await refusalOf([['ours', manifestOf(oursText)], ['theirs', manifestOf(theirsText)], ['the merge base', manifestOf(base)]])
    if (refused) return refuse(refused)
    const merge = mergeDecks(base ? doc(base) : null, ours, doc(theirsText), { now, folder: where.folder, slideContents: false })
    // Normalized with a stand-in for every slide the sections name (normalizing drops ids without a slide).
    const named = Object.fromEntries(merge.doc.manifest.sections.flatMap((s) => s.slides).map((id) => [id, { id, layout: 'title' } as Slide]))
    return { content: canonicalJson(normalizeDoc({ ...merge.doc, slides: named }).manifest), conflicts: merge.conflicts, notes: merge.notes }
  }
  const ours = parseJson<Slide>(oursText)
  const theirs = parseJson<Slide>(theirsText)
  const id = slideFile(where.file)[0]
  const alone = (slide: Slide | null) => slide && { slides: { [id]: slide } }
  const refused = await refusalOf([['ours', alone(ours)], ['theirs', alone(theirs)], ['the merge base', alone(base ? parseJson<Slide>(base) : null)]])
  if (refused) return refuse(refused)
  const deck = /([^/]+)$/.exec(where.folder)![1]
  const merged = mergeSlideAlone(base ? parseJson<Slide>(base) : null, ours, theirs, deck, where.folder)
  let slide = merged.slide
  // Checked against ours' manifest (its palette); a slide that breaks the model keeps ours'.
  const [manifestText] = await reader.texts([`HEAD:${path.replace(/slides\/[^/]+\.json$/, 'deck.json')}`])
  if (manifestText) {
    const manifest = parseJson<Manifest>(manifestText)
    const check = (s: Slide) => documentIssues({ manifest: { ...manifest, sections: [{ id: 'merge', title: 'merge', slides: [s.id] }] }, slides: { [s.id]: s }, versions: [] }, [s.id])
    const issues = await check(normalizeDoc({ manifest, slides: { [slide.id]: slide }, versions: [] }).slides[slide.id])
    if (issues.length && !same(slide, ours)) {
      merged.conflicts.push({ id: `${deck}:slide/${ours.id}`, folder: where.folder, deck, file: where.file, kind: 'whole', path: ['slides', ours.id], ours, theirs, where: `Slide ${ours.id}: the merged slide breaks the model (${issues[0].message}); ours is kept` })
      slide = ours
    }
  }
  return { content: canonicalJson(normalizeDoc({ manifest: { sections: [] } as unknown as Manifest, slides: { [slide.id]: slide }, versions: [] }).slides[slide.id]), conflicts: merged.conflicts, notes: merged.notes }
}
