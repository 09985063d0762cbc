/**
 * Principal records of a checkout: `.studio/principals.json`, local state outside git. A checkout
 * has no accounts, so a principal is its author name (`x-studio-author`, `--author`, STUDIO_AUTHOR or
 * the local user, see src/core/principal.ts); its record keeps what the spec persists "on the principal
 * record per deck" (the live pointer switch, presence.pointer) and its profile: the display name
 * (account.setName) with its UTS #39 key, and the avatar choice (account.setAvatar). With accounts the
 * profile lives in the identity database's `principals` table instead (src/identity/profile.ts).
 *
 *   { "principals": { "<author>": { "name": "Ana Lima", "nameKey": "ana lirna", "avatar": { "variant": "glyph", "salt": 3 },
 *                                   "decks": { "<deckId>": { "pointer": false } } } } }
 *
 * Names come from callers, so they live in Maps and null-prototype objects. Reads re-parse only when
 * the file's stamp moved (one stat per roster message).
 */
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import type { Workspace } from './workspace.js'
import { fileStamp } from './file-stamp.js'

export interface DeckPrefs {
  /** Whether the principal's live pointer is shown to others in this deck (default true). */
  pointer: boolean
}

/** A principal's display name and avatar choice on a checkout. */
export interface Profile {
  name?: string
  /** The name's UTS #39 key (src/identity/names.ts nameKey): unique among the checkout's principals. */
  nameKey?: string
  avatar?: { variant: string; initials?: string; salt?: number }
}

interface PrincipalRecord {
  decks: Map<string, DeckPrefs>
  profile: Profile
}

type Records = Map<string, PrincipalRecord>

export const principalsFile = (ws: Workspace) => join(ws.stateDir, 'principals.json')

const cache = new Map<string, { stamp: string; records: Records }>()

function read(ws: Workspace): Records {
  const path = principalsFile(ws)
  const stamp = fileStamp(path)
  const hit = cache.get(path)
  if (hit && hit.stamp === stamp) return hit.records
  const records = stamp === 'none' ? new Map() : recordsOf(readText(path))
  cache.set(path, { stamp, records })
  return records
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

function recordsOf(text: string | null): Records {
  const records: Records = new Map()
  if (text !== null) {
    try {
      const raw = JSON.parse(text) as { principals?: Record<string, { decks?: Record<string, Partial<DeckPrefs>> } & Profile> }
      for (const [author, record] of Object.entries(raw.principals ?? {})) {
        const decks = new Map<string, DeckPrefs>()
        for (const [deckId, prefs] of Object.entries(record?.decks ?? {})) decks.set(deckId, { pointer: prefs?.pointer !== false })
        const profile: Profile = {}
        if (typeof record?.name === 'string') profile.name = record.name
        if (typeof record?.nameKey === 'string') profile.nameKey = record.nameKey
        if (record?.avatar && typeof record.avatar === 'object' && typeof record.avatar.variant === 'string') profile.avatar = record.avatar
        records.set(author, { decks, profile })
      }
    } catch {
      // Unreadable: every preference takes its default until the next write rewrites the file.
    }
  }
  return records
}

/** A principal's preferences in a deck (defaults when none were stored). */
export function deckPrefs(ws: Workspace, author: string, deckId: string): DeckPrefs {
  return read(ws).get(author)?.decks.get(deckId) ?? { pointer: true }
}

/** A principal's profile on a checkout (empty when none was stored). */
export function profileOf(ws: Workspace, author: string): Profile {
  return read(ws).get(author)?.profile ?? {}
}

/** Every principal with a profile on the checkout, by author (a Map: names come from callers). */
export function profiles(ws: Workspace): Map<string, Profile> {
  return new Map([...read(ws)].map(([author, record]) => [author, record.profile]))
}

/** Stores a principal's preferences in a deck, merged over what is stored. */
export async function setDeckPrefs(ws: Workspace, author: string, deckId: string, prefs: Partial<DeckPrefs>): Promise<DeckPrefs> {
  return update(ws, author, (record) => {
    const next: DeckPrefs = { ...(record.decks.get(deckId) ?? { pointer: true }), ...prefs }
    record.decks.set(deckId, next)
    return next
  })
}

/**
 * Changes a principal's profile under the principals lock: `change` sees every record as stored (to
 * check a name against the others) and returns the new profile, or throws to store nothing.
 */
export async function setProfile(ws: Workspace, author: string, change: (current: Profile, all: Map<string, Profile>) => Profile): Promise<Profile> {
  return update(ws, author, (record, records) => {
    record.profile = change(record.profile, new Map([...records].filter(([name]) => name !== author).map(([name, r]) => [name, r.profile])))
    return record.profile
  })
}

async function update<T>(ws: Workspace, author: string, change: (record: PrincipalRecord, records: Records) => T): Promise<T> {
  // Read and written whole under its lock (on the hosted store, inside the shared row's transaction).
  const { updateStateFile } = await import('./state-file.js')
  return updateStateFile(ws, 'principals.json', 'principals', (text) => {
    const records: Records = recordsOf(text)
    const record = records.get(author) ?? { decks: new Map(), profile: {} }
    records.set(author, record)
    const out = change(record, records)
    const sorted: Record<string, unknown> = Object.create(null)
    for (const name of [...records.keys()].sort()) {
      const r = records.get(name)!
      sorted[name] = { ...r.profile, decks: Object.fromEntries([...r.decks.keys()].sort().map((id) => [id, r.decks.get(id)])) }
    }
    return { text: JSON.stringify({ principals: sorted }, null, 2) + '\n', answer: out }
  })
}
