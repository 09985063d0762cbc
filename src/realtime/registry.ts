import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The rooms of the workspaces this process serves, for the presence actions: `studio serve` registers
 * its room hub (src/realtime/room.ts) under the workspace root; a process that serves none (a `studio`
 * command, `studio mcp`) has no rooms here and asks a live `studio serve` of the workspace instead
 * (`liveServes`). Kept apart from the hub so the actions load no WebSocket code.
 */

/** One participant as the room and presence.list show it. */
export interface RosterEntry {
  clientId: string
  /** The principal's label (its author name on a checkout). */
  name: string
  /** The computed avatar mark: the label's initials. */
  mark: string
  slideId: string | null
  selection: string[]
  /** In sheet units of the slide; null while off, outside, or hidden by presence.pointer. */
  pointer: { x: number; y: number } | null
  /** The client id this participant follows. */
  follow: string | null
  kind: 'page' | 'agent'
}

/** Whose page(s) an action steers: the calling tab (window transport), else every page of the author. */
export interface Steering {
  author: string
  clientId?: string
}

export interface Rooms {
  roster(deckId: string): RosterEntry[]
  /** Makes the caller's page(s) follow `target`; answers the followed participant and the pages that now follow. */
  follow(deckId: string, who: Steering, target: string): { following: RosterEntry; followers: string[] }
  /** Stops the caller's page(s) following; answers the pages that stopped. */
  unfollow(deckId: string, who: Steering): string[]
}

const served = new Map<string, Rooms>()

export function roomsFor(root: string): Rooms | undefined {
  return served.get(root)
}

/** Registers a hub for a workspace root; the returned function unregisters it. */
export function registerRooms(root: string, rooms: Rooms): () => void {
  served.set(root, rooms)
  return () => {
    if (served.get(root) === rooms) served.delete(root)
  }
}

/** Initials of a label (`Ada Lovelace` → `AL`, `agent:run-7` → `R7`), at most two, never empty. */
export function markOf(name: string): string {
  const words = name.replace(/^agent:/, '').split(/[\s._@:-]+/u).filter(Boolean)
  const letters = words.slice(0, 2).map((w) => [...w][0]!.toUpperCase())
  return letters.join('') || '?'
}

/**
 * Where a `studio serve` of this workspace can be reached from this machine, so a command in another
 * process (`studio presence list`, `follow`, `unfollow`) asks the process that has the rooms:
 * `.studio/serve/<pid>.json` = { pid, url }, written once the server listens on a loopback-reachable
 * address and removed when it stops. A file whose process is gone (killed) is skipped.
 */
export interface ServeRecord {
  pid: number
  url: string
}

const LOOPBACK_URL = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost):\d+$/

export function serveRecordPath(stateDir: string, pid = process.pid): string {
  return join(stateDir, 'serve', `${pid}.json`)
}

/** Records this process's server; answers the function that removes the record. */
export function advertiseServe(stateDir: string, url: string): () => void {
  const path = serveRecordPath(stateDir)
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, JSON.stringify({ pid: process.pid, url } satisfies ServeRecord) + '\n')
  } catch {
    return () => undefined
  }
  return () => rmSync(path, { force: true })
}

/** The live servers of a workspace (their process still runs), reachable on loopback. */
export function liveServes(stateDir: string): ServeRecord[] {
  let names: string[]
  try {
    names = readdirSync(join(stateDir, 'serve')).filter((name) => /^\d+\.json$/.test(name))
  } catch {
    return []
  }
  const out: ServeRecord[] = []
  for (const name of names) {
    try {
      const record = JSON.parse(readFileSync(join(stateDir, 'serve', name), 'utf8')) as ServeRecord
      if (!Number.isInteger(record.pid) || record.pid === process.pid || typeof record.url !== 'string' || !LOOPBACK_URL.test(record.url)) continue
      process.kill(record.pid, 0)
      out.push(record)
    } catch {
      // unreadable, or its process is gone
    }
  }
  return out
}
