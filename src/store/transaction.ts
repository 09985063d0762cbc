/**
 * Applying one accepted write: files, then exactly one git commit, crash-safe.
 *
 * Order: journal (atomic) → file writes (each atomic: temp, fsync, rename) → `git add` of new files →
 * `git commit -- <exact paths>` → journal removed. A process killed anywhere in between leaves the
 * journal behind; the next call on the same deck (under its lock) finds it and either sees the
 * commit landed (its transaction id is in a commit trailer) or puts the touched folders back to
 * HEAD. An acknowledged revision is committed, so it is never lost; an unacknowledged one is undone.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, readFile, rm, rmdir, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { withLocks } from './lock.js'
import type { Workspace } from './workspace.js'
import { listFiles } from './decks.js'

export interface FileChange {
  /** Path relative to the workspace root. */
  rel: string
  /** New content, or null to remove the file. */
  content: string | Buffer | null
}

export interface CommitMeta {
  subject: string
  author: string
  trailers: Record<string, string | number>
}

interface Journal {
  tx: string
  /** Folders (relative to the workspace root) whose files this transaction touches. */
  folders: string[]
}

const GIT_LOCK = '~git'

/**
 * Fault injection for the crash tests: STUDIO_FAULT=after-journal|after-write|after-commit makes the
 * process kill itself with SIGKILL at that point of a write, as a power cut or `kill -9` would.
 */
function fault(point: string): void {
  if (process.env.STUDIO_FAULT === point) process.kill(process.pid, 'SIGKILL')
}

export function journalPath(ws: Workspace, key: string): string {
  return join(ws.stateDir, 'journal', `${key.replace(/[^A-Za-z0-9._-]/g, '_')}.json`)
}

/** Writes the files and commits them; `keys` are the lock keys (already held) whose journals cover it. */
export async function applyChanges(ws: Workspace, keys: string[], folders: string[], changes: FileChange[], meta: CommitMeta): Promise<void> {
  const tx = randomBytes(8).toString('hex')
  const journal: Journal = { tx, folders }
  await mkdir(join(ws.stateDir, 'journal'), { recursive: true })
  for (const key of keys) await writeFileAtomic(journalPath(ws, key), JSON.stringify(journal), { fsync: true })
  fault('after-journal')

  const added: string[] = []
  const paths: string[] = []
  const emptied = new Set<string>()
  for (const change of changes) {
    const abs = join(ws.root, change.rel)
    const existed = existsSync(abs)
    if (change.content === null) {
      if (!existed) continue
      await unlink(abs)
      emptied.add(dirname(abs))
    } else {
      await mkdir(dirname(abs), { recursive: true })
      await writeFileAtomic(abs, change.content, { fsync: true })
      if (!existed) added.push(ws.gitPath(change.rel))
    }
    paths.push(ws.gitPath(change.rel))
  }
  fault('after-write')
  if (paths.length) {
    await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], () =>
      ws.git.commit({ paths, added, subject: meta.subject, author: meta.author, trailers: { ...meta.trailers, 'Studio-Tx': tx } }),
    )
  }
  fault('after-commit')
  for (const dir of emptied) await pruneEmpty(dir, ws.decksDir)
  for (const key of keys) await rm(journalPath(ws, key), { force: true })
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

/** Finds what a crashed write left under `key` and repairs it; returns a note when it did. */
export async function repair(ws: Workspace, key: string): Promise<string | null> {
  const file = journalPath(ws, key)
  if (!existsSync(file)) return null
  let journal: Journal
  try {
    journal = JSON.parse(readFileSync(file, 'utf8')) as Journal
  } catch {
    await rm(file, { force: true })
    return null
  }
  await clearCrashedIndexLock(ws)
  const landed = (await ws.git.raw(['log', '-n', '1', '--format=%H', `--grep=Studio-Tx: ${journal.tx}`, '--fixed-strings']).catch(() => '')).trim()
  if (!landed) {
    await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], async () => {
      for (const folder of journal.folders) {
        const path = ws.gitPath(folder)
        await ws.git.raw(['reset', '--quiet', '--', path]).catch(() => '')
        await ws.git.restoreToHead(path)
      }
    })
  }
  await rm(file, { force: true })
  return landed ? null : `A write interrupted earlier (transaction ${journal.tx}) was never committed; ${journal.folders.join(', ')} put back to the last commit.`
}

/**
 * A studio write was killed (its journal is here), and git's index.lock may be the lock of the git
 * it was running, killed with it. A live git holds that lock for milliseconds; one older than a
 * second, while we hold studio's git lock, is the crashed one: removed, and said so.
 */
async function clearCrashedIndexLock(ws: Workspace): Promise<void> {
  const lock = join(ws.git.gitRoot, '.git', 'index.lock')
  await withLocks(join(ws.stateDir, 'locks'), [GIT_LOCK], async () => {
    for (let waited = 0; existsSync(lock); waited += 100) {
      const age = Date.now() - statSync(lock).mtimeMs
      if (age > 1000 || waited >= 1500) {
        await rm(lock, { force: true })
        process.emitWarning(`studio: removed ${lock}, left by a git process killed with an interrupted studio write`)
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
}

/** File changes that copy a folder's files (relative paths) into another folder. */
export async function copyFolderChanges(ws: Workspace, fromRel: string, toRel: string, filter: (rel: string) => boolean = () => true): Promise<FileChange[]> {
  const files = await listFiles(join(ws.root, fromRel))
  const out: FileChange[] = []
  for (const rel of files.filter(filter)) out.push({ rel: `${toRel}/${rel}`, content: await readFile(join(ws.root, fromRel, rel)) })
  return out
}

export { copyFile }
