/**
 * Slide leases: a per-slide lock an author takes for a while (default 10 minutes). Stored outside
 * git in `.studio/leases.json` ({ deckId: { slideId: { author, until } } }), read by the engine before
 * every write that names slides, and written under the deck's lock.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace } from './workspace.js'
import { own } from '../model/own.js'

export interface Lease {
  author: string
  until: string
}

type LeaseFile = Record<string, Record<string, Lease>>

const file = (ws: Workspace) => join(ws.stateDir, 'leases.json')

export function readLeases(ws: Workspace): LeaseFile {
  const path = file(ws)
  if (!existsSync(path)) return {}
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LeaseFile
  } catch {
    return {}
  }
}

/** The live lease on a slide, if any (expired ones count as free). */
export function leaseOf(ws: Workspace, deckId: string, slideId: string, now = Date.now()): Lease | undefined {
  const lease = own(own(readLeases(ws), deckId), slideId)
  return lease && Date.parse(lease.until) > now ? lease : undefined
}

/** Sets (or with `null` clears) a slide's lease; expired leases of the deck are dropped on the way. */
export async function writeLease(ws: Workspace, deckId: string, slideId: string, lease: Lease | null): Promise<void> {
  const all = readLeases(ws)
  const now = Date.now()
  const deck = Object.fromEntries(Object.entries(all[deckId] ?? {}).filter(([, l]) => Date.parse(l.until) > now))
  if (lease) deck[slideId] = lease
  else delete deck[slideId]
  if (Object.keys(deck).length) all[deckId] = deck
  else delete all[deckId]
  await mkdir(ws.stateDir, { recursive: true })
  const { default: writeFileAtomic } = await import('write-file-atomic')
  await writeFileAtomic(file(ws), JSON.stringify(all, null, 2) + '\n')
}
