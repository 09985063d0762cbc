/**
 * Kill switches of a checkout: `.studio/flags.json` ({ "<name>": { on, changedAt, changedBy } }),
 * local state outside git like the leases. admin.flag writes it under the `flags` lock; every process
 * reads it. A read re-parses the file only when its size, mtime or inode moved, so asking before every
 * WebSocket upgrade or presence message costs one stat. Another process's change is seen by the next
 * read; `studio serve` also watches the file (src/realtime/watch.ts) to close the room at once.
 */
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { withLocks } from './lock.js'
import type { Workspace } from './workspace.js'
import { fileStamp } from './file-stamp.js'

export interface FlagState {
  on: boolean
  changedAt: string | null
  changedBy: string | null
}

const OFF: FlagState = { on: false, changedAt: null, changedBy: null }

export const flagsFile = (ws: Workspace) => join(ws.stateDir, 'flags.json')

const cache = new Map<string, { stamp: string; flags: Map<string, FlagState> }>()

/** Every switch that was ever set, by name (a Map: names come from input). */
export function readFlags(ws: Workspace): Map<string, FlagState> {
  const path = flagsFile(ws)
  const stamp = fileStamp(path)
  const hit = cache.get(path)
  if (hit && hit.stamp === stamp) return hit.flags
  const flags = new Map<string, FlagState>()
  if (stamp !== 'none') {
    try {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
          const v = value as Partial<FlagState> | null
          if (v && typeof v === 'object') flags.set(name, { on: v.on === true, changedAt: typeof v.changedAt === 'string' ? v.changedAt : null, changedBy: typeof v.changedBy === 'string' ? v.changedBy : null })
        }
      }
    } catch {
      // A file that does not parse turns nothing off; admin.flag rewrites it whole.
    }
  }
  cache.set(path, { stamp, flags })
  return flags
}

export function flagState(ws: Workspace, name: string): FlagState {
  return readFlags(ws).get(name) ?? OFF
}

/** Whether a kill switch is on. */
export function flagOn(ws: Workspace, name: string): boolean {
  return flagState(ws, name).on
}

/** Turns a switch on or off; answers its new state (unchanged, with its old stamp, when it already was). */
export async function setFlag(ws: Workspace, name: string, on: boolean, by: string): Promise<FlagState> {
  await mkdir(ws.stateDir, { recursive: true })
  return withLocks(join(ws.stateDir, 'locks'), ['flags'], async () => {
    const flags = readFlags(ws)
    const current = flags.get(name) ?? OFF
    if (current.on === on && current.changedAt) return current
    const next: FlagState = { on, changedAt: new Date().toISOString(), changedBy: by }
    const all: Record<string, FlagState> = Object.create(null)
    for (const [key, value] of flags) all[key] = value
    all[name] = next
    const sorted = Object.fromEntries(Object.keys(all).sort().map((key) => [key, all[key]]))
    const { default: writeFileAtomic } = await import('write-file-atomic')
    await writeFileAtomic(flagsFile(ws), JSON.stringify(sorted, null, 2) + '\n')
    return next
  })
}
