/**
 * Applying one accepted write: files, then exactly one git commit, crash-safe, and undone exactly on
 * any refusal.
 *
 * Order: refuse early (a symbolic link on a path, git's index locked) → journal (the exact paths,
 * whether each existed; synced before anything else, and dropped by repair when it does not parse) → a hard link of every file about to be replaced or removed (its
 * pre-image, kept in `.studio/journal/tx-<tx>/`) → file writes (each atomic: temp, fsync, rename) →
 * one commit of the exact paths (made in process, or by `git add` of new files and
 * `git commit -- <exact paths>`: see git-direct.ts) → journal and pre-images removed.
 *
 * A failure anywhere before the commit lands (git's index locked meanwhile, a hook, a full disk) puts
 * every path back from its pre-image at once and resets only the index entries this write added, so
 * a refused write leaves the working tree and the index as they were. A process killed anywhere in
 * between leaves the journal; the next call under the same lock finds it and either sees the commit
 * landed (its transaction id is in a commit trailer) or does the same restore. Only the journal's own
 * paths are touched: the user's uncommitted edits and untracked files elsewhere in the deck folder
 * stay as they are.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { fail, StudioError } from '../core/errors.js'
import { assertOwned, currentGeneration, heldGeneration, LockLost, withLocks } from './lock.js'
import type { Workspace } from './workspace.js'
import { listFiles } from './decks.js'
import { indexLockHolders } from './holders.js'
import { fault } from './fault.js'
import { dropObjectTemps } from './object-temps.js'

export interface FileChange {
  /** Path relative to the workspace root. */
  rel: string
  /**
   * New content, or null to remove the file. `{ move }` names a file (on the same file system, e.g.
   * a checked bundle entry under `.studio/tmp/`) that is renamed into place.
   */
  content: string | Buffer | { move: string } | null
}

export interface CommitMeta {
  subject: string
  author: string
  /** The git author's address; derived from `author` when absent. */
  email?: string
  trailers: Record<string, string | number>
  /** The commit's time; now when absent (a change replayed from the hosted store's log keeps its own). */
  date?: Date
}

interface JournalEntry {
  rel: string
  /** Whether the path held a file before this write; its pre-image is `tx-<tx>/<n>` when it did. */
  existed: boolean
  n: number
}

interface Journal {
  v: 2
  tx: string
  /** When the write began (ms): a commit landing before it is not this write's. */
  started: number
  /** Every lock key held by the write; each has this journal under its name. */
  keys: string[]
  /** The lock generation the write held for each key (same order): a repair never undoes a live owner's write. */
  owners?: (string | null)[]
  entries: JournalEntry[]
}

/**
 * What a write read: the commit HEAD named once its locks were held. The commit lands only if every
 * folder it writes is, in the branch it moves, as it was in that commit (docs/storage.md#fencing).
 */
export interface Fence {
  seen: string | null
}

/** A journal of the first format (folders only), left by an older studio. */
interface LegacyJournal {
  tx: string
  folders: string[]
}

const GIT_LOCK = '~git'

export function journalDir(ws: Workspace): string {
  return join(ws.stateDir, 'journal')
}

export function journalPath(ws: Workspace, key: string): string {
  return join(journalDir(ws), `${key.replace(/[^A-Za-z0-9._-]/g, '_')}.json`)
}

function backupDir(ws: Workspace, tx: string): string {
  return join(journalDir(ws), `tx-${tx}`)
}

export function lexists(abs: string): boolean {
  try {
    lstatSync(abs)
    return true
  } catch {
    return false
  }
}

/**
 * Refuses a path that passes through a symbolic link below the workspace root: a cloned repository
 * can carry `decks/x/slides -> /etc`, and a write must never land outside the workspace.
 */
export function refuseLinks(ws: Workspace, rel: string): void {
  let current = ws.root
  for (const segment of rel.split('/')) {
    current = join(current, segment)
    let stat
    try {
      stat = lstatSync(current)
    } catch {
      return // nothing below a missing component can be a link yet
    }
    if (stat.isSymbolicLink()) {
      fail('refused', `${rel.slice(0, current.length - ws.root.length)} is a symbolic link; studio does not write through links (a link could point outside the workspace). Replace it with a real folder or file.`)
    }
  }
}

/**
 * Waits briefly for git's index lock to go; answers workspace_busy (having touched nothing) when a
 * git command of someone else keeps holding it.
 */
async function waitForIndex(ws: Workspace): Promise<void> {
  const lock = join(ws.git.gitDir, 'index.lock')
  for (let waited = 0; existsSync(lock); waited += 50) {
    if (waited >= 2000) {
      fail('workspace_busy', `git's index is locked (${lock}): another git command is running in this repository. Nothing was written; retry when it is done. If no git command runs, a crashed one left the file: remove it.`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The folder a written path is fenced by: its deck's or template's folder, else the path itself. */
function fencedFolder(rel: string): string {
  const parts = rel.split('/')
  return (parts[0] === 'decks' || parts[0] === 'templates') && parts.length > 2 ? parts.slice(0, 2).join('/') : rel
}

/**
 * Writes the files and commits them; `keys` are the lock keys (already held) whose journals cover it.
 * With a fence, the write checks before its journal, before each file it puts in place and inside the
 * commit that it still holds every key's lock generation, and the commit refuses (stale_revision) when
 * a folder it writes moved in the branch since `fence.seen`.
 */
export async function applyChanges(ws: Workspace, keys: string[], changes: FileChange[], meta: CommitMeta, fence?: Fence): Promise<void> {
  for (const change of changes) refuseLinks(ws, change.rel)
  const live = changes.filter((change) => change.content !== null || lexists(join(ws.root, change.rel)))
  if (!live.length) return
  await waitForIndex(ws)

  const locks = lockDir(ws)
  const owned = () => assertOwned(locks, keys)
  owned()
  const tx = randomBytes(8).toString('hex')
  const entries: JournalEntry[] = live.map((change, n) => ({ rel: change.rel, existed: lexists(join(ws.root, change.rel)), n }))
  const journal: Journal = { v: 2, tx, started: Date.now(), keys, owners: keys.map((key) => heldGeneration(locks, key) ?? null), entries }
  // The journal first, then the pre-image folder: a kill between the two leaves a journal whose
  // pre-images are missing (restore skips them: nothing was written yet), never a folder no journal names.
  await mkdir(journalDir(ws), { recursive: true })
  // Written in place, not renamed in: a kill while it is written leaves a journal that does not parse,
  // which repair drops, and nothing else of this write exists yet (the files come after its sync).
  for (const key of keys) await writeSynced(journalPath(ws, key), JSON.stringify(journal))
  if (entries.some((entry) => entry.existed)) await mkdir(backupDir(ws, tx))
  fault('after-journal')

  const added: string[] = []
  let indexTouched = false
  let placed = 0
  try {
    for (const entry of entries) if (entry.existed) await keepPreImage(join(ws.root, entry.rel), join(backupDir(ws, tx), String(entry.n)))
    for (const [i, change] of live.entries()) {
      const abs = join(ws.root, change.rel)
      const existed = entries[i].existed
      if (i === 0) fault('before-rename')
      if (change.content === null) {
        owned()
        placed++
        await unlink(abs)
      } else {
        await mkdir(dirname(abs), { recursive: true })
        if (typeof change.content === 'object' && !Buffer.isBuffer(change.content)) {
          owned()
          placed++
          await rename(change.content.move, abs)
        } else {
          if (process.env.STUDIO_FAULT === 'in-write' && i === live.map((c) => c.content !== null).lastIndexOf(true)) {
            // A kill inside the atomic writer: its temp file is half written and never renamed.
            writeFileSync(`${abs}.${randomBytes(4).readUInt32BE(0)}`, String(change.content).slice(0, 10))
            fault('in-write')
          }
          await writeAtomic(abs, change.content, () => {
            owned()
            placed++
          })
        }
        if (!existed) added.push(ws.gitPath(change.rel))
      }
      if (i === 0 && live.length > 1) fault('mid-write')
    }
    fault('after-write')
    await withLocks(locks, [GIT_LOCK], async () => {
      fault('index-locked')
      fault('in-commit')
      indexTouched = added.length > 0
      const check = () => assertOwned(locks, [...keys, GIT_LOCK])
      const paths = live.map((c) => ws.gitPath(c.rel))
      const folders = [...new Set(live.map((c) => ws.gitPath(fencedFolder(c.rel))))]
      await ws.git.commit({
        paths,
        added,
        subject: meta.subject,
        author: meta.author,
        email: meta.email,
        trailers: { ...meta.trailers, 'Studio-Tx': tx },
        ...(meta.date ? { date: meta.date } : {}),
        ...(fence ? { fence: { seen: fence.seen, folders, check } } : {}),
      })
    })
  } catch (error) {
    if (error instanceof LockLost) {
      // Taken over while stalled: the files are the new holder's to repair (it rolls this journal
      // back, or already did). A write that put no file in place yet drops its own journal, so no
      // later repair puts back pre-images that are older than the new holder's commit.
      if (placed === 0) await forget(ws, journal)
      throw error
    }
    // Refused before the commit landed: put back exactly what this write touched, then say why. If
    // even that fails, the journal stays and the next call on the deck repairs it.
    const undone = (await landed(ws, journal)) || (await restore(ws, journal, indexTouched).then(() => true, () => false))
    if (undone) await forget(ws, journal)
    throw error
  }
  fault('after-commit')
  for (const change of live) if (change.content === null) await pruneEmpty(dirname(join(ws.root, change.rel)), ws.decksDir)
  await forgetOwn(ws, journal)
}

function lockDir(ws: Workspace): string {
  return join(ws.stateDir, 'locks')
}

/**
 * Writes a file atomically, as write-file-atomic does (a temp file `<name>.<uint32>` beside it, synced,
 * the old file's mode kept, renamed over it), with `beforeRename` called right before the rename: the
 * fence is checked after the slow part (the write and its sync), in the same tick as the rename.
 */
async function writeAtomic(abs: string, content: string | Buffer, beforeRename: () => void): Promise<void> {
  const temp = `${abs}.${randomBytes(4).readUInt32BE(0)}`
  let mode = 0o666 & ~process.umask()
  try {
    mode = statSync(abs).mode & 0o7777
  } catch {
    // a new file
  }
  const handle = await open(temp, 'wx', mode)
  try {
    await handle.writeFile(content)
    await handle.chmod(mode)
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => undefined)
    await rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    beforeRename()
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  renameSync(temp, abs)
}

/** Writes a file in place and syncs it to disk. */
async function writeSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, 'w')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Drops the journal and pre-images of a write that just committed, by their known names (the caller
 * still holds every key, so the journal files are this write's own); anything unexpected there falls
 * back to the general `forget`.
 */
async function forgetOwn(ws: Workspace, journal: Journal): Promise<void> {
  try {
    const kept = journal.entries.filter((entry) => entry.existed)
    for (const entry of kept) await unlink(join(backupDir(ws, journal.tx), String(entry.n)))
    if (kept.length) await rmdir(backupDir(ws, journal.tx))
    for (const key of journal.keys) {
      // A file under the key that is not this write's journal (one written by a stalled, since fenced
      // writer) is left for repair.
      if (readJournal(journalPath(ws, key))?.tx === journal.tx) await unlink(journalPath(ws, key))
    }
  } catch {
    await forget(ws, journal)
  }
}

/** A hard link keeps the old bytes when the atomic rename replaces the name; a copy where links fail. */
async function keepPreImage(abs: string, backup: string): Promise<void> {
  try {
    await link(abs, backup)
  } catch {
    await copyFile(abs, backup)
  }
}

/** Whether the journal's commit is in the history (searched among commits since the write began). */
async function landed(ws: Workspace, journal: { tx: string; started?: number }): Promise<boolean> {
  const since = journal.started ? [`--since=${Math.floor(journal.started / 1000) - 120}`] : []
  const hash = await ws.git.raw(['log', '-n', '1', '--format=%H', ...since, `--grep=Studio-Tx: ${journal.tx}`, '--fixed-strings']).catch(() => '')
  return hash.trim() !== ''
}

/**
 * Puts every path of the journal back as it was before the write: pre-images renamed back, new files
 * (and the atomic writer's temp files beside them) removed, their index entries reset, emptied
 * folders pruned. Idempotent: a second run finds nothing left to do.
 */
async function restore(ws: Workspace, journal: Journal, indexTouched = true, owned: () => void = () => undefined): Promise<void> {
  const backups = backupDir(ws, journal.tx)
  const fresh = journal.entries.filter((e) => !e.existed)
  fault('in-repair')
  if (fresh.length && indexTouched) {
    await withLocks(lockDir(ws), [GIT_LOCK], async () => {
      await waitForIndex(ws)
      owned()
      await ws.git.raw(['reset', '--quiet', '--', ...fresh.map((e) => ws.gitPath(e.rel))])
    })
  }
  for (const entry of journal.entries) {
    const abs = join(ws.root, entry.rel)
    // Each path is put back only while the caller still holds the deck: one that was taken over while
    // this stalled must not undo what the new holder has written since.
    owned()
    if (entry.existed) {
      const backup = join(backups, String(entry.n))
      if (lexists(backup)) {
        await mkdir(dirname(abs), { recursive: true })
        await rename(backup, abs)
      }
    } else {
      await rm(abs, { force: true })
    }
    await removeTempSiblings(abs)
  }
  for (const entry of fresh) await pruneEmpty(dirname(join(ws.root, entry.rel)), ws.decksDir)
}

/** write-file-atomic writes `<name>.<uint32>` beside the target, then renames it: a kill can leave one. */
async function removeTempSiblings(abs: string): Promise<void> {
  const name = basename(abs)
  let siblings: string[]
  try {
    siblings = await readdir(dirname(abs))
  } catch {
    return
  }
  for (const sibling of siblings) {
    if (sibling.length > name.length + 1 && sibling.startsWith(`${name}.`) && /^\d+$/.test(sibling.slice(name.length + 1))) {
      await rm(join(dirname(abs), sibling), { force: true })
    }
  }
}

/** Drops the journal files of a transaction (under every key it held) and its pre-images. */
async function forget(ws: Workspace, journal: { tx: string; keys?: string[] }, key?: string): Promise<void> {
  await rm(backupDir(ws, journal.tx), { recursive: true, force: true })
  for (const k of new Set([...(journal.keys ?? []), ...(key ? [key] : [])])) {
    const file = journalPath(ws, k)
    try {
      if (JSON.parse(readFileSync(file, 'utf8')).tx === journal.tx) await rm(file, { force: true })
    } catch {
      // already gone
    }
  }
}

/** Removes `dir` and its parents while they are empty, stopping at `stop`. */
async function pruneEmpty(dir: string, stop: string): Promise<void> {
  for (let current = dir; current.startsWith(stop + '/'); current = dirname(current)) {
    try {
      await rmdir(current)
    } catch {
      return
    }
  }
}

function readJournal(file: string): Journal | LegacyJournal | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'))
    return value && typeof value.tx === 'string' ? value : null
  } catch {
    return null
  }
}

/**
 * Finds what a crashed write left under `key` (held by the caller) and repairs it; returns a note
 * when it put something back. Repairs of one transaction are serialised on git's lock, so two callers
 * holding two of its keys never restore at once.
 */
export async function repair(ws: Workspace, key: string): Promise<string | null> {
  const file = journalPath(ws, key)
  if (!existsSync(file)) return null
  return withLocks(lockDir(ws), ['~repair'], async () => {
    const journal = readJournal(file)
    if (!journal) {
      await rm(file, { force: true })
      return null
    }
    // The journal of a write whose owner still holds the generation it wrote is a live write, not a
    // crash (a caller that does not hold the key found it): never rolled back.
    if ('owners' in journal && journal.owners?.some((owner, i) => owner !== null && owner !== heldGeneration(lockDir(ws), journal.keys[i]) && owner === currentGeneration(lockDir(ws), journal.keys[i]))) return null
    assertOwned(lockDir(ws), [key])
    // The killed write's own git may still be finishing its commit: settle git's lock before asking.
    await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], () => settleIndexLock(ws, 'started' in journal ? journal : { started: 0 }))
    if (await landed(ws, journal)) {
      // Killed between moving the branch and writing the index, the commit is in but the index may
      // still name the old contents of its paths: set their entries from the commit (git commit has
      // the same window).
      if ('v' in journal) {
        await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], () => ws.git.raw(['reset', '--quiet', '--', ...journal.entries.map((e) => ws.gitPath(e.rel))]).catch(() => ''))
      }
      await forget(ws, journal, key)
      return null
    }
    if (!('v' in journal)) return repairLegacy(ws, journal, key)
    const owned = () => assertOwned(lockDir(ws), [key])
    await restore(ws, journal, true, owned)
    owned()
    await forget(ws, journal, key)
    const paths = journal.entries.map((e) => e.rel)
    return `A write interrupted earlier (transaction ${journal.tx}) was never committed; put back ${paths.length} path${paths.length === 1 ? '' : 's'} it touched (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', ...' : ''}).`
  })
}

/** The first journal format named folders only: those go back to HEAD, as that version promised. */
async function repairLegacy(ws: Workspace, journal: LegacyJournal, key: string): Promise<string> {
  await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], async () => {
    for (const folder of journal.folders) {
      const path = ws.gitPath(folder)
      await ws.git.raw(['reset', '--quiet', '--', path]).catch(() => '')
      await ws.git.restoreToHead(path)
    }
  })
  await forget(ws, journal, key)
  return `A write interrupted earlier (transaction ${journal.tx}) was never committed; ${journal.folders.join(', ')} put back to the last commit.`
}

/**
 * Before a repair touches git's index: an `index.lock` held by a live process (a git command of the
 * user, or the killed write's own git still finishing) is waited for, then answered workspace_busy.
 * One held by nobody and made after the interrupted write began is that write's killed git: removed,
 * and said so. Anything else (made before, or no way to see holders on this system) is doubt:
 * workspace_busy, and nothing touched.
 */
async function settleIndexLock(ws: Workspace, journal: { started?: number }): Promise<void> {
  for (const lock of gitLockFiles(ws)) await settleLock(ws, lock, journal)
}

/**
 * The lock files a killed `git commit` can leave: the index's, HEAD's, the current branch ref's and
 * packed-refs'. (A kill while git updates the ref leaves HEAD.lock or refs/heads/<branch>.lock, and
 * every later commit fails on it.)
 */
function gitLockFiles(ws: Workspace): string[] {
  const dir = ws.git.gitDir
  const locks = [join(dir, 'index.lock'), join(dir, 'HEAD.lock'), join(dir, 'packed-refs.lock')]
  try {
    const head = readFileSync(join(dir, 'HEAD'), 'utf8').trim()
    const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1]
    if (ref && !ref.split('/').includes('..')) locks.push(join(dir, `${ref}.lock`))
  } catch {
    // no HEAD: nothing more to settle
  }
  return locks
}

async function settleLock(ws: Workspace, lock: string, journal: { started?: number }): Promise<void> {
  for (let waited = 0; existsSync(lock); waited += 100) {
    const holders = indexLockHolders(lock, ws.git.gitRoot)
    if (holders === null || holders.length === 0) {
      let mtime: number
      try {
        mtime = statSync(lock).mtimeMs
      } catch {
        continue // went away meanwhile
      }
      if (holders !== null && journal.started && mtime >= journal.started - 1000) {
        await rm(lock, { force: true })
        process.emitWarning(`studio: removed ${lock}, left by the git process of an interrupted studio write`)
        return
      }
      throw new StudioError(
        'workspace_busy',
        `An interrupted studio write needs repair, and git is locked (${lock}) by something studio cannot identify as its own. Nothing was touched. If no git command is running, remove that file and retry.`,
      )
    }
    if (waited >= 3000) {
      throw new StudioError('workspace_busy', `An interrupted studio write needs repair, but a git process (pid ${holders.join(', ')}) holds ${lock}. Nothing was touched; retry when it is done.`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The lock keys of every journal left in the workspace (for reads and `deck repair`). */
export function pendingKeys(ws: Workspace): string[] {
  const names = journalNames(ws)
  const keys = new Set<string>()
  for (const name of names) {
    if (!name.endsWith('.json')) continue
    const journal = readJournal(join(journalDir(ws), name))
    const own = name.slice(0, -5)
    if (journal && 'keys' in journal) {
      // The journal file is named after a sanitized key; the real key is among those it lists.
      const match = journal.keys.find((k) => k.replace(/[^A-Za-z0-9._-]/g, '_') === own)
      keys.add(match ?? own)
    } else keys.add(own)
  }
  return [...keys]
}

/** Repairs every journal left in the workspace, each under its lock; returns the notes. */
export async function repairPending(ws: Workspace): Promise<string[]> {
  const notes: string[] = []
  const pending = pendingKeys(ws)
  for (const key of pending) {
    const note = await withLocks(join(ws.stateDir, 'locks'), [key], () => repair(ws, key))
    if (note) notes.push(note)
  }
  // A killed write (its journal was left) may have left temp object files too: only then are the object folders read.
  if (pending.length) dropObjectTemps(ws.git.gitDir)
  await dropJournalTemps(ws)
  await dropOrphanPreImages(ws)
  return notes
}

/**
 * A kill inside the atomic write of a journal leaves its temp file (`<key>.json.<n>`): the write had
 * not begun. Removed under the key's lock, so no live writer of that key is writing its journal.
 */
async function dropJournalTemps(ws: Workspace): Promise<void> {
  const names = journalNames(ws)
  const temps = new Map<string, string[]>()
  for (const name of names) {
    const match = /^(.+)\.json\.\d+$/.exec(name)
    if (match) temps.set(match[1], [...(temps.get(match[1]) ?? []), name])
  }
  for (const [key, files] of temps) {
    // The lock file is named after the sanitized key, as the journal is: the same lock as the writer's.
    await withLocks(join(ws.stateDir, 'locks'), [key], async () => {
      for (const file of files) await rm(join(journalDir(ws), file), { force: true })
    })
  }
}

/** The names in the journal folder ([] when there is none). */
function journalNames(ws: Workspace): string[] {
  try {
    return readdirSync(journalDir(ws))
  } catch {
    return []
  }
}

/** Pre-image folders older than this that no journal names are left over (a kill inside an older build's write). */
const ORPHAN_AGE_MS = 10 * 60 * 1000

/**
 * Removes `tx-<tx>` pre-image folders that no journal names and that are older than ten minutes
 * (a younger one may belong to a write that is starting right now).
 */
async function dropOrphanPreImages(ws: Workspace): Promise<void> {
  const names = journalNames(ws)
  const folders = names.filter((name) => name.startsWith('tx-'))
  if (!folders.length) return
  const named = new Set(names.filter((name) => name.endsWith('.json')).map((name) => readJournal(join(journalDir(ws), name))?.tx).filter(Boolean))
  for (const folder of folders) {
    if (named.has(folder.slice(3))) continue
    try {
      if (Date.now() - statSync(join(journalDir(ws), folder)).mtimeMs < ORPHAN_AGE_MS) continue
      await rm(join(journalDir(ws), folder), { recursive: true, force: true })
    } catch {
      // gone meanwhile
    }
  }
}

/** File changes that copy a folder's files (relative paths) into another folder. */
export async function copyFolderChanges(ws: Workspace, fromRel: string, toRel: string, filter: (rel: string) => boolean = () => true): Promise<FileChange[]> {
  const files = await listFiles(join(ws.root, fromRel))
  const out: FileChange[] = []
  for (const rel of files.filter(filter)) out.push({ rel: `${toRel}/${rel}`, content: await readFile(join(ws.root, fromRel, rel)) })
  return out
}
