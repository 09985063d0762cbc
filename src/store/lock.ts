/**
 * One writer at a time per key (a deck, a template, git's index), across processes and inside one.
 *
 * Inside a process a promise chain per key queues callers (proper-lockfile is not re-entrant);
 * across processes proper-lockfile holds `<dir>/<key>.lock` (an atomic mkdir whose mtime it keeps
 * fresh). A holder killed with SIGKILL stops refreshing it, and the lock counts as stale after
 * STALE_MS, so the next writer takes over instead of waiting forever.
 *
 * A holder that is alive but stalled (stopped, a paused laptop, a loaded machine) is taken over the
 * same way, so holding the lock is not proof of owning the deck. Each acquisition writes a fresh
 * generation token beside the lock (`<key>.owner`) before it does anything else; `assertOwned` reads
 * it back, and a write checks it before its journal, before each file it replaces and inside the
 * commit (docs/storage.md#fencing). The commit's compare-and-swap of the branch is the final arbiter.
 */
import { randomBytes } from 'node:crypto'
import * as fs from 'node:fs'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fail, StudioError } from '../core/errors.js'

export const STALE_MS = 3000
/** How long a writer waits for a busy lock before answering workspace_busy. */
const WAIT_MS = 30_000

const chains = new Map<string, Promise<unknown>>()
/** The generation token of every file lock this process holds, by lock target path. */
const generations = new Map<string, string>()

async function withProcessLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = chains.get(key) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  const chained = previous.then(() => mine)
  chains.set(key, chained)
  await previous
  try {
    return await fn()
  } finally {
    release()
    if (chains.get(key) === chained) chains.delete(key)
  }
}

/** The file a lock key is held under (without proper-lockfile's `.lock`). */
export function lockTarget(dir: string, key: string): string {
  return join(dir, key.replace(/[^A-Za-z0-9._-]/g, '_'))
}

function ownerFile(target: string): string {
  return `${target}.owner`
}

/** The generation token written by the current holder of a lock, or null (none, or being replaced). */
export function currentGeneration(dir: string, key: string): string | null {
  try {
    return readFileSync(ownerFile(lockTarget(dir, key)), 'utf8')
  } catch {
    return null
  }
}

/** The generation this process holds for a key, or undefined when it does not hold it. */
export function heldGeneration(dir: string, key: string): string | undefined {
  return generations.get(lockTarget(dir, key))
}

/**
 * The error of a write whose lock was taken over while it stalled: retryable, and raised before it
 * renamed a file or moved the branch, so nothing of it landed.
 */
export class LockLost extends StudioError {
  constructor(key: string) {
    super(
      'workspace_busy',
      `This write stalled for more than ${STALE_MS / 1000} s and another writer took over "${key.replace(/^deck:/, 'deck ')}" meanwhile; nothing of this write was kept. Re-read and retry.`,
    )
  }
}

/**
 * Throws LockLost unless this process still holds the generation it took for every key: the fence a
 * write checks before each step that would change what another writer sees.
 */
export function assertOwned(dir: string, keys: string[]): void {
  for (const key of keys) {
    const mine = heldGeneration(dir, key)
    if (mine === undefined || currentGeneration(dir, key) !== mine) throw new LockLost(key)
  }
}

async function acquireFileLock(dir: string, key: string): Promise<() => Promise<void>> {
  // Loaded on first use: reads never lock, and a CLI start should not pay for it.
  const { default: lockfile } = await import('proper-lockfile')
  mkdirSync(dir, { recursive: true })
  const target = lockTarget(dir, key)
  const started = Date.now()
  // proper-lockfile removes its lock folder on release and at exit; once this holder was taken over,
  // that folder is the new holder's, so the removal is skipped (a stale one's, before we hold, is not).
  let generation: string | undefined
  const stillMine = () => generation === undefined || currentGeneration(dir, key) === generation
  const guardedFs = {
    ...fs,
    rmdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => (stillMine() ? fs.rmdir(path, callback) : callback(null)),
    rmdirSync: (path: string) => {
      if (stillMine()) fs.rmdirSync(path)
    },
  }
  for (let attempt = 0; ; attempt++) {
    let release: () => Promise<void>
    try {
      release = await lockfile.lock(target, {
        fs: guardedFs,
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 3,
        retries: 0,
        onCompromised: () => {
          // Taken over as stale while this process stalled: the fence (assertOwned, the commit's
          // compare-and-swap) refuses whatever this holder still tries to write.
          process.emitWarning(`studio: lock ${key} was taken over while held`)
        },
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() - started > WAIT_MS) {
        fail('workspace_busy', `"${key}" stayed locked for ${WAIT_MS / 1000} s by another studio process (${target}.lock). Retry; if no studio process runs, remove that folder.`)
      }
      const delay = Math.min(5 + attempt * 2, 40) * (0.5 + Math.random())
      await new Promise((resolve) => setTimeout(resolve, delay))
      continue
    }
    // A new generation, renamed in whole before this holder does anything under the lock.
    const mine = `${process.pid}.${randomBytes(8).toString('hex')}`
    const temp = `${ownerFile(target)}.${mine}`
    writeFileSync(temp, mine)
    renameSync(temp, ownerFile(target))
    generation = mine
    generations.set(target, mine)
    return async () => {
      // The owner file stays: the next holder renames its own over it, and no holder has this generation now.
      generations.delete(target)
      await release()
    }
  }
}

/** Runs `fn` holding every key's lock; keys are taken in sorted order so two writers never deadlock. */
export async function withLocks<T>(dir: string, keys: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort()
  const run = async (index: number): Promise<T> => {
    if (index === sorted.length) return fn()
    const key = sorted[index]
    return withProcessLock(`${dir}\u0000${key}`, async () => {
      const release = await acquireFileLock(dir, key)
      try {
        return await run(index + 1)
      } finally {
        await release().catch(() => undefined)
      }
    })
  }
  return run(0)
}
