/**
 * The state files of `.studio/` that people share (slide leases, the notification inbox, the activity
 * feed, principals' profiles and deck preferences), rewritten whole under their lock. On a checkout the
 * file is the state. On the hosted store (src/hosted/deck-store.ts) it is this instance's copy of a row of
 * `studio_state` that every instance shares: the change runs inside a PostgreSQL transaction holding the
 * row, and every instance's copy follows within a second (NOTIFY and the store's poll), before a write.
 */
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { withLocks } from './lock.js'
import type { Workspace } from './workspace.js'

/** What a change makes of the file's text (`null`: no file); `text` equal to the text before writes nothing. */
export interface StateChange<T> {
  text: string | null
  answer: T
}

/** State files the hosted store shares between instances; no other name is taken from a row. */
export const SHARED_STATE_FILES = new Set(['leases.json', 'inbox.json', 'activity.jsonl', 'principals.json'])

export function readStateText(ws: Workspace, name: string): string | null {
  try {
    return readFileSync(join(ws.stateDir, name), 'utf8')
  } catch {
    return null
  }
}

/** Runs `change` on the file's current text and writes what it answers, under the file's lock. */
export async function updateStateFile<T>(ws: Workspace, name: string, lockKey: string, change: (text: string | null) => StateChange<T>): Promise<T> {
  await mkdir(ws.stateDir, { recursive: true })
  return withLocks(join(ws.stateDir, 'locks'), [lockKey], async () => {
    if (ws.store?.engine === 'hosted' && SHARED_STATE_FILES.has(name)) return (ws.store as import('../hosted/deck-store.js').HostedStore).updateShared(name, change)
    const before = readStateText(ws, name)
    const out = change(before)
    if (out.text !== before && out.text !== null) {
      const { default: writeFileAtomic } = await import('write-file-atomic')
      await writeFileAtomic(join(ws.stateDir, name), out.text)
    }
    return out.answer
  })
}
