/**
 * The realtime room across instances of the hosted store (issue 27, part 3; docs/hosting.md): two
 * people on one deck whose pages are connected to different instances see each other in the roster,
 * their pointers and selections, and can follow each other. Edits need nothing of this: every instance
 * replays the store's log into its replica, and the room's watcher announces each replayed commit as it
 * announces another process's (`changed`, with the writer's transport from the commit's trailers).
 *
 * Each instance keeps one row per deck whose room it holds in `studio_presence` (its own entries:
 * pages, and agents bound to the deck), written at most every 50 ms per deck, renewed every 15 s, and
 * deleted when the room empties or the instance stops; a row not renewed for 45 s (an instance killed)
 * is ignored. A write notifies `studio_room` with the deck id; every instance also re-reads the rows of
 * the decks it holds rooms for every second, so the roster agrees with notifications off.
 */
import { randomBytes } from 'node:crypto'
import type { RosterEntry } from '../realtime/registry.js'
import type { HostedStore } from './deck-store.js'

const ROOM_CHANNEL = 'studio_room'
const PUBLISH_MS = 50
const BEAT_MS = 15_000
const EXPIRE_S = 45
const POLL_MS = 1000
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/
const DECK_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export interface PresenceRelay {
  /** This instance's entries of a deck's room (empty once the room is gone). */
  publish(deckId: string, entries: RosterEntry[]): void
  /** Other instances' entries of a deck, as last read. */
  remote(deckId: string): RosterEntry[]
  /** Called when other instances' entries of a deck moved, with the entries before and after. */
  onChange(fn: (deckId: string, before: RosterEntry[], after: RosterEntry[]) => void): void
  /** The decks this instance holds rooms for (what the poll reads). */
  watch(decks: () => string[]): void
  close(): Promise<void>
}

/** An entry another instance wrote, kept only in the shape the room sends (the row is read as hostile). */
function entryFrom(value: unknown): RosterEntry | undefined {
  if (!value || typeof value !== 'object') return undefined
  const e = value as Record<string, unknown>
  const str = (v: unknown, max = 200) => (typeof v === 'string' && v.length <= max ? v : undefined)
  const clientId = str(e.clientId, 64)
  const name = str(e.name)
  const mark = str(e.mark, 8)
  if (!clientId || !/^[a-z0-9:_-]{1,64}$/i.test(clientId) || name === undefined || mark === undefined) return undefined
  const slideId = e.slideId === null ? null : str(e.slideId, 120)
  const pointer = e.pointer && typeof e.pointer === 'object' && Number.isFinite((e.pointer as { x: unknown }).x) && Number.isFinite((e.pointer as { y: unknown }).y) ? { x: (e.pointer as { x: number }).x, y: (e.pointer as { y: number }).y } : null
  return {
    clientId,
    name,
    mark,
    slideId: slideId !== undefined && (slideId === null || ID_RE.test(slideId)) ? slideId : null,
    selection: Array.isArray(e.selection) ? e.selection.filter((id): id is string => typeof id === 'string' && ID_RE.test(id)).slice(0, 500) : [],
    pointer,
    follow: typeof e.follow === 'string' && e.follow.length <= 64 ? e.follow : null,
    kind: e.kind === 'agent' ? 'agent' : 'page',
  }
}

export async function openPresenceRelay(store: HostedStore): Promise<PresenceRelay> {
  const instance = randomBytes(8).toString('hex')
  const pool = store.pool
  const remote = new Map<string, RosterEntry[]>()
  const seen = new Map<string, string>()
  const pending = new Map<string, RosterEntry[]>()
  const listeners: ((deckId: string, before: RosterEntry[], after: RosterEntry[]) => void)[] = []
  let decks: () => string[] = () => []
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const flush = async () => {
    timer = undefined
    const batch = [...pending]
    pending.clear()
    for (const [deckId, entries] of batch) {
      if (entries.length) {
        await pool.query('insert into studio_presence (instance, deck, entries, at) values ($1, $2, $3::jsonb, now()) on conflict (instance, deck) do update set entries = excluded.entries, at = now()', [instance, deckId, JSON.stringify(entries)])
      } else await pool.query('delete from studio_presence where instance = $1 and deck = $2', [instance, deckId])
      await pool.query('select pg_notify($1, $2)', [ROOM_CHANNEL, deckId])
    }
  }

  /** Reads other instances' rows of these decks; tells the room of each deck whose entries moved. */
  const read = async (deckIds: string[]) => {
    const wanted = deckIds.filter((id) => DECK_RE.test(id))
    if (!wanted.length || closed) return
    const { rows } = await pool.query<{ deck: string; entries: unknown }>(
      `select deck, entries from studio_presence where deck = any($1::text[]) and instance <> $2 and at > now() - interval '${EXPIRE_S} seconds' order by instance`,
      [wanted, instance],
    )
    const next = new Map<string, RosterEntry[]>(wanted.map((id) => [id, []]))
    for (const row of rows) for (const value of Array.isArray(row.entries) ? row.entries : []) {
      const entry = entryFrom(value)
      if (entry) next.get(row.deck)?.push(entry)
    }
    for (const [deckId, entries] of next) {
      const text = JSON.stringify(entries)
      if (seen.get(deckId) === text) continue
      const before = remote.get(deckId) ?? []
      seen.set(deckId, text)
      if (entries.length) remote.set(deckId, entries)
      else remote.delete(deckId)
      for (const fn of listeners) fn(deckId, before, entries)
    }
  }

  await store.subscribe(ROOM_CHANNEL, (deckId) => {
    if (decks().includes(deckId)) void read([deckId]).catch(() => undefined)
  })
  const poll = setInterval(() => void read(decks()).catch(() => undefined), POLL_MS)
  poll.unref()
  const beat = setInterval(() => void pool.query('update studio_presence set at = now() where instance = $1', [instance]).catch(() => undefined), BEAT_MS)
  beat.unref()

  return {
    publish(deckId, entries) {
      if (closed || !DECK_RE.test(deckId)) return
      pending.set(deckId, entries)
      timer ??= setTimeout(() => void flush().catch(() => undefined), PUBLISH_MS)
    },
    remote: (deckId) => remote.get(deckId) ?? [],
    onChange(fn) {
      listeners.push(fn)
    },
    watch(fn) {
      decks = fn
    },
    async close() {
      closed = true
      clearInterval(poll)
      clearInterval(beat)
      if (timer) clearTimeout(timer)
      await pool.query('delete from studio_presence where instance = $1', [instance]).catch(() => undefined)
    },
  }
}
