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
import { databaseUrl } from '../identity/database-url.js'

export interface FlagState {
  on: boolean
  changedAt: string | null
  changedBy: string | null
}

const OFF: FlagState = { on: false, changedAt: null, changedBy: null }

export const flagsFile = (ws: Workspace) => join(ws.stateDir, 'flags.json')

const cache = new Map<string, { stamp: string; flags: Map<string, FlagState> }>()

/**
 * A deployment on PostgreSQL (STUDIO_DATABASE_URL) keeps its switches in the database's `flags` table, so
 * a switch turned on at one instance stops every instance: each reads a snapshot of the table that
 * `refreshFlags` renews when it is older than a second — the engine asks before a call's switch check,
 * and `studio serve` polls every second for its rooms — with no reliance on notifications. One snapshot
 * per database URL. A snapshot that cannot be renewed (the database does not answer) fails the call that
 * asked, as every identity read does then.
 */
const shared = new Map<string, { at: number; flags: Map<string, FlagState>; loading?: Promise<void> }>()

/** How old a snapshot of the database's switches may be before a reader renews it (STUDIO_FLAGS_MAX_AGE_MS). */
const maxAge = () => Math.max(0, Number(process.env.STUDIO_FLAGS_MAX_AGE_MS ?? 1000) || 0)

/** Renews the snapshot of a PostgreSQL deployment's switches when it is older than `maxAgeMs` (no-op on a checkout). */
export async function refreshFlags(ws: Workspace, maxAgeMs = maxAge()): Promise<void> {
  const url = databaseUrl()
  if (!url) return
  const entry = shared.get(url)
  if (entry && Date.now() - entry.at < maxAgeMs) return
  if (entry?.loading) return entry.loading
  const loading = (async () => {
    const { identityOf } = await import('../identity/db.js')
    const identity = await identityOf(ws)
    const rows = identity ? await identity.db.selectFrom('flags').selectAll().execute() : []
    const flags = new Map<string, FlagState>(rows.map((r) => [r.name, { on: r.is_on === 1, changedAt: r.changed_at, changedBy: r.changed_by }]))
    shared.set(url, { at: Date.now(), flags })
  })()
  shared.set(url, { at: entry?.at ?? 0, flags: entry?.flags ?? new Map(), loading })
  try {
    await loading
  } catch (error) {
    // Keep the last snapshot; the next reader tries again.
    shared.set(url, { at: entry?.at ?? 0, flags: entry?.flags ?? new Map() })
    throw error
  }
}

/** Every switch that was ever set, by name (a Map: names come from input). */
export function readFlags(ws: Workspace): Map<string, FlagState> {
  const url = databaseUrl()
  if (url) return shared.get(url)?.flags ?? new Map()
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
  if (databaseUrl()) return setSharedFlag(ws, name, on, by)
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

/** setFlag on a PostgreSQL deployment: one row per switch, written in the identity write transaction. */
async function setSharedFlag(ws: Workspace, name: string, on: boolean, by: string): Promise<FlagState> {
  const { identityOf } = await import('../identity/db.js')
  const identity = await identityOf(ws)
  if (!identity) throw new Error('The deployment database did not open.')
  const state = await identity.write(async (tx) => {
    const current = await tx.selectFrom('flags').selectAll().where('name', '=', name).executeTakeFirst()
    if (current && (current.is_on === 1) === on) return { on, changedAt: current.changed_at, changedBy: current.changed_by }
    const next: FlagState = { on, changedAt: new Date().toISOString(), changedBy: by }
    if (current) await tx.updateTable('flags').set({ is_on: on ? 1 : 0, changed_at: next.changedAt!, changed_by: by }).where('name', '=', name).execute()
    else await tx.insertInto('flags').values({ name, is_on: on ? 1 : 0, changed_at: next.changedAt!, changed_by: by }).execute()
    return next
  })
  await refreshFlags(ws, 0)
  return state
}
