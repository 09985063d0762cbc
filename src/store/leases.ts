/**
 * Slide leases: a per-slide lock an author takes for a while (default 10 minutes). Stored outside
 * git in `.studio/leases.json` ({ deckId: { slideId: { author, until } } }), read by the engine before
 * every write that names slides, and written under the deck's lock.
 */
import { existsSync, readFileSync } from 'node:fs'
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
  return leasesOf(readFileSync(path, 'utf8'))
}

function leasesOf(text: string | null): LeaseFile {
  if (text === null) return {}
  try {
    const parsed = JSON.parse(text) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as LeaseFile) : {}
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
  // Under the leases' own lock (the hosted store: inside the shared row's transaction), so two decks'
  // leases written at once both land.
  const { updateStateFile } = await import('./state-file.js')
  await updateStateFile(ws, 'leases.json', 'leases', (text) => ({ text: withLease(leasesOf(text), deckId, slideId, lease), answer: undefined }))
}

function withLease(all: LeaseFile, deckId: string, slideId: string, lease: Lease | null): string {
  const now = Date.now()
  const deck = Object.fromEntries(Object.entries(all[deckId] ?? {}).filter(([, l]) => Date.parse(l.until) > now))
  if (lease) deck[slideId] = lease
  else delete deck[slideId]
  if (Object.keys(deck).length) all[deckId] = deck
  else delete all[deckId]
  return JSON.stringify(all, null, 2) + '\n'
}
