/**
 * The notification inbox: user state, not deck content. Records never ride in git (a branch, a bundle or
 * a clone carries no one's unread marks); they live behind InboxStore, a file in a checkout
 * (`.studio/inbox.json`) and, hosted (a later issue), a database table behind the same interface.
 *
 * One record per recipient and thread, coalesced over COALESCE_MS: an event on the same (recipient,
 * thread) within the window that the record's firstAt opened updates it (count, kinds, actors, read =
 * false); after the window a new record starts. A record's mail is due when its window ends, once, and
 * only if it is still unread then (src/comments/notify.ts sends it).
 *
 * Recipients, deck ids and thread ids come from callers and files: they key Maps, never plain objects.
 */
import { randomBytes } from 'node:crypto'
import { readStateText, updateStateFile } from '../store/state-file.js'
import type { Workspace } from '../store/workspace.js'

/** Notification coalescing: 15 minutes per thread (spec 1, limits). */
export const COALESCE_MS = 15 * 60_000
/** Read records older than this are dropped on the next write. */
const KEEP_READ_MS = 30 * 86_400_000

export const INBOX_KINDS = ['mention', 'reply', 'assignment', 'resolution', 'reaction', 'request', 'grant'] as const
export type InboxKind = (typeof INBOX_KINDS)[number]
export type Level = 'all' | 'forYou' | 'none'

export interface InboxRecord {
  id: string
  /** `principal:<name>` or `email:<address>` (recipientKey). */
  recipient: string
  deckId: string
  deckTitle: string
  threadId: string
  /** Where the thread sits, in words (`slide numbers-2, block b1`). */
  place: string
  /** comment.link's editor URL of the thread. */
  link: string
  kinds: InboxKind[]
  actors: string[]
  count: number
  firstAt: string
  updatedAt: string
  read: boolean
  mailedAt?: string
  last: { actor: string; commentId?: string; excerpt: string }
}

/** One event for one recipient: what notify hands the store. */
export type InboxEvent = Omit<InboxRecord, 'id' | 'kinds' | 'actors' | 'count' | 'firstAt' | 'updatedAt' | 'read' | 'mailedAt'> & { kinds: InboxKind[] }

export interface RecipientSettings {
  level: Level
  email: boolean
}

export interface DeckSettings {
  activityForCommenters: boolean
}

export const DEFAULT_SETTINGS: Readonly<RecipientSettings> = Object.freeze({ level: 'all', email: true })

export interface ListFilter {
  unread?: boolean
  /** Records updated after this time (ms). */
  since?: number
  limit?: number
}

export interface InboxStore {
  /** Adds each event to its recipient's open record of the thread, or starts one; answers the records written. */
  upsert(events: InboxEvent[], now: number): Promise<InboxRecord[]>
  /** A recipient's records (any of their keys), newest first, and their unread count. */
  list(recipients: string[], filter: ListFilter): Promise<{ records: InboxRecord[]; unread: number }>
  /** Marks the named records (of these recipients only), or all of theirs, read; answers the unread count. */
  markRead(recipients: string[], ids: string[] | 'all'): Promise<number>
  settings(recipient: string, deckId: string): Promise<RecipientSettings>
  setSettings(recipient: string, deckId: string, patch: Partial<RecipientSettings>): Promise<RecipientSettings>
  deckSettings(deckId: string): Promise<DeckSettings>
  setDeckSettings(deckId: string, patch: Partial<DeckSettings>): Promise<DeckSettings>
  /** A mail address a principal called from, kept so their mail can reach them. */
  learnAddress(recipient: string, address: string): Promise<void>
  addressOf(recipient: string): Promise<string | undefined>
  /**
   * Claims the records whose mail is due at `now` (window over, unread, never mailed, the recipient's
   * email on and an address known) by setting mailedAt: at most one mail per record, whoever sends it.
   */
  claimDueMail(now: number): Promise<{ record: InboxRecord; to: string }[]>
}

/** The store key of a mention, an assignee or a caller. */
export const recipientKey = (who: { principal: string } | { email: string }) => ('principal' in who ? `principal:${who.principal}` : `email:${who.email.toLowerCase()}`)

interface State {
  records: Map<string, InboxRecord>
  /** recipient → deckId → settings */
  settings: Map<string, Map<string, RecipientSettings>>
  decks: Map<string, DeckSettings>
  addresses: Map<string, string>
}

const LEVELS = new Set<string>(['all', 'forYou', 'none'])
const KINDS = new Set<string>(INBOX_KINDS)
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'
const isTime = (v: unknown): v is string => isString(v) && Number.isFinite(Date.parse(v))

function readRecord(v: unknown): InboxRecord | null {
  if (!isObject(v)) return null
  const { id, recipient, deckId, deckTitle, threadId, place, link, kinds, actors, count, firstAt, updatedAt, read, mailedAt, last } = v
  if (![id, recipient, deckId, threadId].every(isString) || !isTime(firstAt) || !isTime(updatedAt) || typeof read !== 'boolean') return null
  if (!Array.isArray(kinds) || !Array.isArray(actors) || !Number.isInteger(count) || !isObject(last) || !isString(last.actor) || !isString(last.excerpt)) return null
  return {
    id: id as string,
    recipient: recipient as string,
    deckId: deckId as string,
    deckTitle: isString(deckTitle) ? deckTitle : (deckId as string),
    threadId: threadId as string,
    place: isString(place) ? place : '',
    link: isString(link) ? link : '',
    kinds: kinds.filter((k): k is InboxKind => isString(k) && KINDS.has(k)),
    actors: actors.filter(isString),
    count: count as number,
    firstAt,
    updatedAt,
    read,
    ...(isTime(mailedAt) ? { mailedAt } : {}),
    last: { actor: last.actor, ...(isString(last.commentId) ? { commentId: last.commentId } : {}), excerpt: last.excerpt },
  }
}

function parse(text: string): State {
  const state: State = { records: new Map(), settings: new Map(), decks: new Map(), addresses: new Map() }
  const raw = JSON.parse(text) as unknown
  if (!isObject(raw)) return state
  for (const item of Array.isArray(raw.records) ? raw.records : []) {
    const record = readRecord(item)
    if (record) state.records.set(record.id, record)
  }
  for (const [recipient, decks] of isObject(raw.settings) ? Object.entries(raw.settings) : []) {
    const byDeck = new Map<string, RecipientSettings>()
    for (const [deckId, s] of isObject(decks) ? Object.entries(decks) : []) {
      if (!isObject(s)) continue
      byDeck.set(deckId, { level: isString(s.level) && LEVELS.has(s.level) ? (s.level as Level) : DEFAULT_SETTINGS.level, email: typeof s.email === 'boolean' ? s.email : DEFAULT_SETTINGS.email })
    }
    state.settings.set(recipient, byDeck)
  }
  for (const [deckId, s] of isObject(raw.decks) ? Object.entries(raw.decks) : []) state.decks.set(deckId, { activityForCommenters: isObject(s) && s.activityForCommenters === true })
  for (const [recipient, address] of isObject(raw.addresses) ? Object.entries(raw.addresses) : []) if (isString(address)) state.addresses.set(recipient, address)
  return state
}

/** Maps to sorted null-prototype objects, so the file is stable and a key like `__proto__` stays a key. */
function plain<T, U>(map: Map<string, T>, value: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = Object.create(null)
  for (const key of [...map.keys()].sort()) out[key] = value(map.get(key)!)
  return out
}

function serialize(state: State): string {
  const records = [...state.records.values()].sort((a, b) => (a.firstAt < b.firstAt ? -1 : a.firstAt > b.firstAt ? 1 : a.id < b.id ? -1 : 1))
  return JSON.stringify({ records, settings: plain(state.settings, (decks) => plain(decks, (s) => s)), decks: plain(state.decks, (s) => s), addresses: plain(state.addresses, (a) => a) }, null, 1) + '\n'
}

/** The inbox of a file's text; an unreadable file (a hand edit) starts empty, and the next write replaces it. */
function stateOf(text: string | null): State {
  if (text === null) return parse('{}')
  try {
    return parse(text)
  } catch {
    return parse('{}')
  }
}

const byNewest = (a: InboxRecord, b: InboxRecord) => (a.updatedAt > b.updatedAt ? -1 : a.updatedAt < b.updatedAt ? 1 : a.id < b.id ? 1 : -1)

/** The inbox: `.studio/inbox.json`, written whole under the `inbox` lock (src/store/state-file.ts; shared by every instance of a hosted store). */
export class FileInbox implements InboxStore {
  constructor(private readonly ws: Workspace) {}

  private read(): State {
    return stateOf(readStateText(this.ws, 'inbox.json'))
  }

  /** Read and written whole under the `inbox` lock (on the hosted store, inside the shared row's transaction). */
  private async update<T>(change: (state: State) => T): Promise<T> {
    return updateStateFile(this.ws, 'inbox.json', 'inbox', (text) => {
      const state = stateOf(text)
      const before = serialize(state)
      const answer = change(state)
      const after = serialize(state)
      return { text: after !== before ? after : text, answer }
    })
  }

  async upsert(events: InboxEvent[], now: number): Promise<InboxRecord[]> {
    if (!events.length) return []
    return this.update((state) => {
      const at = new Date(now).toISOString()
      for (const [id, r] of state.records) if (r.read && now - Date.parse(r.updatedAt) > KEEP_READ_MS) state.records.delete(id)
      const written: InboxRecord[] = []
      for (const event of events) {
        const open = [...state.records.values()].find(
          (r) => r.recipient === event.recipient && r.deckId === event.deckId && r.threadId === event.threadId && now >= Date.parse(r.firstAt) && now - Date.parse(r.firstAt) < COALESCE_MS,
        )
        const record: InboxRecord = open
          ? {
              ...open,
              ...event,
              kinds: [...new Set([...open.kinds, ...event.kinds])],
              actors: [...new Set([...open.actors, event.last.actor])],
              count: open.count + 1,
              updatedAt: at,
              read: false,
            }
          : { ...event, id: `n-${randomBytes(6).toString('hex')}`, kinds: [...new Set(event.kinds)], actors: [event.last.actor], count: 1, firstAt: at, updatedAt: at, read: false }
        state.records.set(record.id, record)
        written.push(record)
      }
      return written
    })
  }

  async list(recipients: string[], filter: ListFilter): Promise<{ records: InboxRecord[]; unread: number }> {
    const mine = [...this.read().records.values()].filter((r) => recipients.includes(r.recipient))
    const records = mine
      .filter((r) => (!filter.unread || !r.read) && (filter.since === undefined || Date.parse(r.updatedAt) > filter.since))
      .sort(byNewest)
      .slice(0, filter.limit ?? 100)
    return { records, unread: mine.filter((r) => !r.read).length }
  }

  async markRead(recipients: string[], ids: string[] | 'all'): Promise<number> {
    return this.update((state) => {
      const wanted = ids === 'all' ? null : new Set(ids)
      let unread = 0
      for (const [id, r] of state.records) {
        if (!recipients.includes(r.recipient)) continue
        if (!r.read && (!wanted || wanted.has(id))) state.records.set(id, { ...r, read: true })
        else if (!r.read) unread++
      }
      return unread
    })
  }

  async settings(recipient: string, deckId: string): Promise<RecipientSettings> {
    return { ...DEFAULT_SETTINGS, ...this.read().settings.get(recipient)?.get(deckId) }
  }

  async setSettings(recipient: string, deckId: string, patch: Partial<RecipientSettings>): Promise<RecipientSettings> {
    return this.update((state) => {
      const decks = state.settings.get(recipient) ?? new Map<string, RecipientSettings>()
      const next = { ...DEFAULT_SETTINGS, ...decks.get(deckId), ...patch }
      decks.set(deckId, next)
      state.settings.set(recipient, decks)
      return next
    })
  }

  async deckSettings(deckId: string): Promise<DeckSettings> {
    return this.read().decks.get(deckId) ?? { activityForCommenters: false }
  }

  async setDeckSettings(deckId: string, patch: Partial<DeckSettings>): Promise<DeckSettings> {
    return this.update((state) => {
      const next = { activityForCommenters: false, ...state.decks.get(deckId), ...patch }
      state.decks.set(deckId, next)
      return next
    })
  }

  async learnAddress(recipient: string, address: string): Promise<void> {
    if (this.read().addresses.get(recipient) === address) return
    await this.update((state) => void state.addresses.set(recipient, address))
  }

  async addressOf(recipient: string): Promise<string | undefined> {
    return addressIn(this.read(), recipient)
  }

  async claimDueMail(now: number): Promise<{ record: InboxRecord; to: string }[]> {
    // Most calls find nothing due: decide that on a read, without the lock.
    if (!dueIn(this.read(), now).length) return []
    return this.update((state) => {
      const due = dueIn(state, now)
      const at = new Date(now).toISOString()
      for (const { record } of due) state.records.set(record.id, { ...record, mailedAt: at })
      return due
    })
  }
}

function addressIn(state: State, recipient: string): string | undefined {
  return recipient.startsWith('email:') ? recipient.slice(6) : state.addresses.get(recipient)
}

function dueIn(state: State, now: number): { record: InboxRecord; to: string }[] {
  const due: { record: InboxRecord; to: string }[] = []
  for (const record of state.records.values()) {
    if (record.read || record.mailedAt || now - Date.parse(record.firstAt) < COALESCE_MS) continue
    const settings = { ...DEFAULT_SETTINGS, ...state.settings.get(record.recipient)?.get(record.deckId) }
    const to = addressIn(state, record.recipient)
    if (settings.email && to) due.push({ record, to })
  }
  return due
}

/** The inbox of a workspace (hosted mode will choose another store here). */
export const inboxOf = (ws: Workspace): InboxStore => new FileInbox(ws)
