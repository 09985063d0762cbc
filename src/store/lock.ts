/**
 * One writer at a time per key (a deck, a template, git's index), across processes and inside one.
 *
 * Inside a process a promise chain per key queues callers (proper-lockfile is not re-entrant);
 * across processes proper-lockfile holds `<dir>/<key>.lock` (an atomic mkdir whose mtime it keeps
 * fresh). A holder killed with SIGKILL stops refreshing it, and the lock counts as stale after
 * STALE_MS, so the next writer takes over instead of waiting forever.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fail } from '../core/errors.js'

const STALE_MS = 3000
/** How long a writer waits for a busy lock before answering workspace_busy. */
const WAIT_MS = 30_000

const chains = new Map<string, Promise<unknown>>()

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

async function acquireFileLock(dir: string, key: string): Promise<() => Promise<void>> {
  // Loaded on first use: reads never lock, and a CLI start should not pay for it.
  const { default: lockfile } = await import('proper-lockfile')
  mkdirSync(dir, { recursive: true })
  const target = join(dir, key.replace(/[^A-Za-z0-9._-]/g, '_'))
  const started = Date.now()
  for (let attempt = 0; ; attempt++) {
    try {
      return await lockfile.lock(target, {
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 3,
        retries: 0,
        onCompromised: () => {
          // Our lock was taken over as stale (the process stalled past STALE_MS). The commit that
          // follows is still guarded by the revision check of the next writer, so we only report it.
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
