/**
 * Principal records of a checkout: `.studio/principals.json`, local state outside git. A checkout
 * has no accounts, so a principal is its author name (`x-studio-author`, `--author`, STUDIO_AUTHOR or
 * the local user, see src/core/principal.ts); its record keeps what the spec persists "on the principal
 * record per deck": today the live pointer switch (presence.pointer).
 *
 *   { "principals": { "<author>": { "decks": { "<deckId>": { "pointer": false } } } } }
 *
 * Names come from callers, so they live in Maps and null-prototype objects. Reads re-parse only when
 * the file's stamp moved (one stat per roster message).
 */
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { withLocks } from './lock.js'
import type { Workspace } from './workspace.js'
import { fileStamp } from './file-stamp.js'

export interface DeckPrefs {
  /** Whether the principal's live pointer is shown to others in this deck (default true). */
  pointer: boolean
}

type Records = Map<string, Map<string, DeckPrefs>>

export const principalsFile = (ws: Workspace) => join(ws.stateDir, 'principals.json')

const cache = new Map<string, { stamp: string; records: Records }>()

function read(ws: Workspace): Records {
  const path = principalsFile(ws)
  const stamp = fileStamp(path)
  const hit = cache.get(path)
  if (hit && hit.stamp === stamp) return hit.records
  const records: Records = new Map()
  if (stamp !== 'none') {
    try {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as { principals?: Record<string, { decks?: Record<string, Partial<DeckPrefs>> }> }
      for (const [author, record] of Object.entries(raw.principals ?? {})) {
        const decks = new Map<string, DeckPrefs>()
        for (const [deckId, prefs] of Object.entries(record?.decks ?? {})) decks.set(deckId, { pointer: prefs?.pointer !== false })
        records.set(author, decks)
      }
    } catch {
      // Unreadable: every preference takes its default until the next write rewrites the file.
    }
  }
  cache.set(path, { stamp, records })
  return records
}

/** A principal's preferences in a deck (defaults when none were stored). */
export function deckPrefs(ws: Workspace, author: string, deckId: string): DeckPrefs {
  return read(ws).get(author)?.get(deckId) ?? { pointer: true }
}

/** Stores a principal's preferences in a deck, merged over what is stored. */
export async function setDeckPrefs(ws: Workspace, author: string, deckId: string, prefs: Partial<DeckPrefs>): Promise<DeckPrefs> {
  await mkdir(ws.stateDir, { recursive: true })
  return withLocks(join(ws.stateDir, 'locks'), ['principals'], async () => {
    const records = read(ws)
    const next: DeckPrefs = { ...deckPrefs(ws, author, deckId), ...prefs }
    const out: Record<string, { decks: Record<string, DeckPrefs> }> = Object.create(null)
    for (const [name, decks] of records) {
      out[name] = { decks: Object.create(null) }
      for (const [id, p] of decks) out[name].decks[id] = p
    }
    out[author] ??= { decks: Object.create(null) }
    out[author].decks[deckId] = next
    const sorted = Object.fromEntries(
      Object.keys(out).sort().map((name) => [name, { decks: Object.fromEntries(Object.keys(out[name].decks).sort().map((id) => [id, out[name].decks[id]])) }]),
    )
    const { default: writeFileAtomic } = await import('write-file-atomic')
    await writeFileAtomic(principalsFile(ws), JSON.stringify({ principals: sorted }, null, 2) + '\n')
    return next
  })
}
