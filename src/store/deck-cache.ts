/**
 * Where every call gets its deck: `readDeck(ws, id)` answers a DeckState that is true of the files
 * at the moment it answers.
 *
 * A one-shot process (the CLI) reads a fresh state per call: the manifest, the version log and the
 * slide list, slides on demand, summaries from the derived index (deck-index.ts).
 *
 * A long-lived process (`studio serve`, `studio mcp`) calls `enableDeckCache()` and keeps each deck's
 * state between calls. It is never stale, because before every use:
 *
 * 1. **Barrier.** The deck folder and its `slides/` folder are watched (inotify, through fs.watch),
 *    and so is a private folder holding one file. The call touches that file and waits for its event.
 *    inotify delivers the events of one instance in the order they happened, and libuv reads every
 *    watch of the process through one instance, so once that event is in, every change made to the
 *    deck's files before the call began has been seen: an edit by hand, a CLI write, a checkout.
 * 2. **Changed files are read again**: each file an event named is read and its hash compared with
 *    the state's; a changed or new slide replaces its record, a removed one leaves. An edit of the
 *    same size within the same clock tick is found too: it is the bytes that are compared.
 * 3. **Doubt drops the state**: an event without a name, an event on the `slides` folder itself, a
 *    watcher error, a deck or slides folder whose inode changed, or a barrier that does not come
 *    back: the deck is read again from the files (the derived index vouching only for settled files).
 * 4. **HEAD** is read from git's files on every call; when it moved by a commit this process did not
 *    make (a checkout, a reset, another process's write), every cached deck of the workspace is swept:
 *    every slide file stat'ed against its record, so a change the watcher could have missed (inotify
 *    drops events when its queue of 16,384 overflows) is still found.
 *
 * Memory: the states hold records (about 200 bytes a slide); slide bodies live in the size-bounded
 * body cache of deck-state.ts (STUDIO_CACHE_MB, default 256). At most MAX_DECKS decks are kept.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync, utimesSync, watch, writeFileSync, type FSWatcher } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DeckDoc } from '../model/deck.js'
import { DerivedIndex, indexFileOf } from './deck-index.js'
import {
  bodies,
  deepFreeze,
  DeckState,
  dirStamp,
  fileHash,
  listSlideIds,
  loadDeckState,
  readSlideFile,
  refreshStateFiles,
  settledAt,
  stampOf,
  summarize,
  type SlideRecord,
  type StateFiles,
} from './deck-state.js'
import { readHead, sameHead, type Head } from './head.js'
import type { Workspace } from './workspace.js'

const MAX_DECKS = 64

let barrier: Barrier | undefined
/** A long-lived process (serve, mcp): it watches HEAD for moves of the checkout between calls. */
let longLived = false

/**
 * Keeps deck states between calls in this process (long-lived servers), and watches the checkout's
 * HEAD between calls (the revision guard's moves). The cache is Linux only: elsewhere (and with
 * STUDIO_CACHE=off) every call reads a fresh state, as the CLI does. Answers whether it is on.
 */
export function enableDeckCache(): boolean {
  longLived = true
  if (barrier) return true
  if (process.platform !== 'linux' || process.env.STUDIO_CACHE === 'off') return false
  try {
    barrier = new Barrier()
  } catch {
    return false
  }
  return true
}

export function deckCacheEnabled(): boolean {
  return Boolean(barrier && !barrier.broken)
}

/**
 * Removes the beat folders of servers that are gone (`studio-beat-<pid>-*` whose process no longer
 * runs): a server killed outright never reaches its exit handler, and each would leave one behind.
 */
export function sweepStaleBeats(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const pid = /^studio-beat-(\d+)-[A-Za-z0-9]{6}$/.exec(name)?.[1]
    if (!pid || alive(Number(pid))) continue
    rmSync(join(dir, name), { recursive: true, force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Waits until every file event queued before the call has been delivered. The file is touched with
 * a new time each beat; one beat is in flight at a time, and callers that arrive during a beat wait
 * for the next (the one in flight may have been queued before their own predecessors).
 */
class Barrier {
  private readonly dir: string
  private readonly file: string
  private readonly watcher: FSWatcher
  private inFlight: ((ok: boolean) => void)[] | null = null
  private waiting: ((ok: boolean) => void)[] = []
  private beat = 0
  private timer: NodeJS.Timeout | undefined
  broken = false

  constructor() {
    sweepStaleBeats(tmpdir())
    this.dir = mkdtempSync(join(tmpdir(), `studio-beat-${process.pid}-`))
    this.file = join(this.dir, 'beat')
    writeFileSync(this.file, '')
    this.watcher = watch(this.dir, (_type, name) => {
      if (name === 'beat') this.settle(true)
    })
    this.watcher.on('error', () => this.fail())
    this.watcher.unref()
    process.once('exit', () => rmSync(this.dir, { recursive: true, force: true }))
  }

  wait(): Promise<boolean> {
    if (this.broken) return Promise.resolve(false)
    return new Promise((resolve) => {
      this.waiting.push(resolve)
      if (!this.inFlight) this.fire()
    })
  }

  private fire(): void {
    this.inFlight = this.waiting
    this.waiting = []
    const at = new Date(1_000_000_000_000 + ++this.beat * 1000)
    try {
      utimesSync(this.file, at, at)
    } catch {
      this.fail()
      return
    }
    // After the timer, one more turn through the poll phase: a loop blocked past the timer still
    // delivers the event before the check runs.
    this.timer = setTimeout(() => setImmediate(() => this.inFlight && this.fail()), 2000)
    this.timer.unref()
  }

  private settle(ok: boolean): void {
    if (!this.inFlight) return
    clearTimeout(this.timer)
    const done = this.inFlight
    this.inFlight = null
    for (const resolve of done) resolve(ok)
    if (this.waiting.length) this.fire()
  }

  /** A beat that never came back: every later event could be early, so the cache stops for good. */
  private fail(): void {
    this.broken = true
    this.watcher.close()
    const all = [...(this.inFlight ?? []), ...this.waiting]
    this.inFlight = null
    this.waiting = []
    for (const resolve of all) resolve(false)
    for (const entry of entries.values()) dispose(entry)
    entries.clear()
  }
}

interface Entry {
  key: string
  dir: string
  state: DeckState
  index: DerivedIndex
  watchers: FSWatcher[]
  /** Files events named since the last use: 'deck.json', 'versions.json', 'slides/<id>'. */
  suspects: Set<string>
  doubt: boolean
  /** Stat every file at the next use (HEAD moved under us). */
  sweep: boolean
  deckIno: string
  slidesIno: string
}

const entries = new Map<string, Entry>()

function ino(path: string): string {
  try {
    return String(lstatSync(path).ino)
  } catch {
    return ''
  }
}

function stampIfAny(path: string): string {
  try {
    return stampOf(lstatSync(path))
  } catch {
    return ''
  }
}

function dispose(entry: Entry): void {
  for (const watcher of entry.watchers) watcher.close()
  entry.watchers = []
}

function indexFor(ws: Workspace, deckId: string): DerivedIndex {
  return new DerivedIndex(ws.embedded ? null : indexFileOf(ws.stateDir, deckId))
}

function shownOf(deckId: string): string {
  return `decks/${deckId}`
}

/** Watches the deck folder and its slides folder; events only mark files to check at the next use. */
function watchEntry(entry: Entry): void {
  const onDeck = (_type: string, name: string | Buffer | null) => {
    const file = name === null ? null : String(name)
    if (file === null || file === 'slides') entry.doubt = true
    else if (file === 'deck.json' || file === 'versions.json') entry.suspects.add(file)
  }
  const onSlides = (_type: string, name: string | Buffer | null) => {
    const file = name === null ? null : String(name)
    if (file === null) entry.doubt = true
    else if (file.endsWith('.json')) entry.suspects.add(`slides/${file.slice(0, -5)}`)
  }
  for (const [path, listener] of [
    [entry.dir, onDeck],
    [join(entry.dir, 'slides'), onSlides],
  ] as const) {
    let watcher: FSWatcher
    try {
      watcher = watch(path, { persistent: false }, listener)
    } catch (error) {
      if (path !== entry.dir && (error as NodeJS.ErrnoException).code === 'ENOENT') continue // no slides folder yet: its creation is an event on the deck folder
      entry.doubt = true
      continue
    }
    watcher.on('error', () => (entry.doubt = true))
    entry.watchers.push(watcher)
  }
}

function createEntry(ws: Workspace, deckId: string, key: string): Entry {
  const dir = ws.deckDir(deckId)
  const entry: Entry = {
    key,
    dir,
    state: undefined as unknown as DeckState,
    index: indexFor(ws, deckId),
    watchers: [],
    suspects: new Set(),
    doubt: false,
    sweep: false,
    deckIno: '',
    slidesIno: '',
  }
  // Watch first, then read: a change made while reading is an event checked at the next use.
  watchEntry(entry)
  entry.deckIno = ino(dir)
  entry.slidesIno = ino(join(dir, 'slides'))
  try {
    entry.state = loadDeckState(dir, shownOf(deckId), entry.index)
  } catch (error) {
    dispose(entry)
    throw error
  }
  return entry
}

/** Applies what events named: each file read again and compared by hash. */
function applySuspects(entry: Entry): void {
  const state = entry.state
  const suspects = [...entry.suspects]
  const files = suspects.includes('deck.json') || suspects.includes('versions.json') ? refreshStateFiles(state) : undefined
  const slides = new Map<string, SlideRecord | null>()
  for (const name of suspects) {
    if (!name.startsWith('slides/')) continue
    const id = name.slice(7)
    const file = join(entry.dir, 'slides', `${id}.json`)
    const stamp = stampIfAny(file)
    if (!stamp) {
      if (state.has(id)) slides.set(id, null)
      continue
    }
    const known = state.knownRecords().get(id)
    if (known && known.settled && known.stamp === stamp) continue
    const read = readSlideFile(entry.dir, id, state.shown)
    if (!known || known.hash !== read.record.hash || known.stamp !== read.record.stamp || !state.has(id)) slides.set(id, read.record)
  }
  const listingChanged = [...slides].some(([id, record]) => (record === null) === state.has(id))
  entry.state = state.patched({ files, slides, slidesDirStamp: listingChanged ? dirStamp(join(entry.dir, 'slides')) : undefined })
  entry.suspects.clear()
}

/** Stats every file of the deck against its record; reads the ones that moved or are not settled. */
function sweepEntry(entry: Entry): void {
  const state = entry.state
  const files = refreshStateFiles(state)
  const listed = listSlideIds(entry.dir, state.shown)
  const slides = new Map<string, SlideRecord | null>()
  const now = new Set(listed.ids)
  for (const id of state.ids) if (!now.has(id)) slides.set(id, null)
  for (const id of listed.ids) {
    const known = state.knownRecords().get(id)
    if (!state.has(id)) {
      slides.set(id, readSlideFile(entry.dir, id, state.shown).record)
      continue
    }
    if (!known) continue
    const stamp = stampIfAny(`${entry.dir}/slides/${id}.json`)
    if (known.settled && known.stamp === stamp) continue
    const read = readSlideFile(entry.dir, id, state.shown).record
    if (read.hash !== known.hash || read.stamp !== known.stamp || read.settled !== known.settled) slides.set(id, read)
  }
  entry.state = state.patched({ files, slides, slidesDirStamp: listed.stamp })
  entry.sweep = false
  entry.suspects.clear()
}

// ---- HEAD: moves of the checkout ---------------------------------------------------------------

interface Checkout {
  head: Head
  /** Counts the changes of HEAD this process did not make. */
  seq: number
  /** The `seq` of the last move (a branch switch, a reset, history rewritten); -1 while none. */
  movedAt: number
  /** A same-branch change not yet judged (move or not): judged when a write needs to know. */
  unjudged?: { from: string; to: string; seq: number }
  /** Commits this process made (HEAD after each of its writes), newest last. */
  own: string[]
  /** Version tags this process gave out (in results and 409s), with the `seq` they were given out at. */
  served: Map<string, number>
}

const checkouts = new Map<string, Checkout>()

/**
 * Reads HEAD for a call. When it changed by a commit this process did not make, every cached deck of
 * the workspace is marked for a sweep, and the change is counted: a move when the branch changed,
 * else judged later (does the new commit descend from the old?) by the first write that needs it.
 */
export function checkoutOf(ws: Workspace): Checkout {
  const key = ws.git.gitDir
  const head = readHead(key)
  let checkout = checkouts.get(key)
  if (!checkout) {
    checkout = { head, seq: 0, movedAt: -1, own: [], served: new Map() }
    checkouts.set(key, checkout)
    return checkout
  }
  if (sameHead(checkout.head, head)) return checkout
  const before = checkout.head
  checkout.head = head
  if (head.commit && before.ref === head.ref && checkout.own.includes(head.commit)) return checkout
  for (const entry of entries.values()) if (entry.key.startsWith(`${ws.root}\0`)) entry.sweep = true
  checkout.seq++
  if (before.ref !== head.ref || !before.commit || !head.commit) {
    checkout.movedAt = checkout.seq
    checkout.unjudged = undefined
  } else if (checkout.unjudged) checkout.unjudged.to = head.commit
  else checkout.unjudged = { from: before.commit, to: head.commit, seq: checkout.seq }
  return checkout
}

/** Notes a version tag given out to a caller (a long-lived process only). */
export function noteServed(ws: Workspace, tag: string): void {
  const checkout = longLived ? checkouts.get(ws.git.gitDir) : undefined
  if (!checkout) return
  if (checkout.served.size > 100_000) checkout.served.clear()
  checkout.served.set(tag, checkout.seq)
}

/**
 * Whether content with this tag may have been read before the checkout last moved: the process saw
 * a move, and has not given this tag to anyone since. (A revision number alone cannot tell one
 * branch's revision 5 from another's.) A same-branch change of HEAD is judged here, once: a move
 * unless the new commit descends from the old (one git process).
 */
export async function readBeforeMove(ws: Workspace, tagOf: () => string): Promise<boolean> {
  const checkout = longLived ? checkouts.get(ws.git.gitDir) : undefined
  if (!checkout || (checkout.movedAt < 0 && !checkout.unjudged)) return false
  const change = checkout.unjudged
  if (change) {
    checkout.unjudged = undefined
    const descends = await ws.git.raw(['merge-base', '--is-ancestor', change.from, change.to]).then(
      () => true,
      () => false,
    )
    if (!descends) checkout.movedAt = Math.max(checkout.movedAt, change.seq)
  }
  return checkout.movedAt >= 0 && (checkout.served.get(tagOf()) ?? -1) < checkout.movedAt
}

/** Records HEAD after a commit of this process, so it is not taken for a move. */
export function ownCommit(ws: Workspace): void {
  const key = ws.git.gitDir
  const head = readHead(key)
  const checkout = checkouts.get(key)
  if (!checkout || !head.commit) return
  // Only a commit on the branch we knew, one step on: anything else is left for checkoutOf to judge.
  if (head.ref !== checkout.head.ref) return
  checkout.own.push(head.commit)
  if (checkout.own.length > 64) checkout.own.shift()
  checkout.head = head
}

// ---- Reading and committing ------------------------------------------------------------------

/** The state of a deck, true of its files now (the caller has checked that the deck exists). */
export async function readDeck(ws: Workspace, deckId: string): Promise<DeckState> {
  const shown = shownOf(deckId)
  if (longLived && !ws.embedded) checkoutOf(ws)
  if (!barrier || barrier.broken || ws.embedded) return loadDeckState(ws.deckDir(deckId), shown, indexFor(ws, deckId))
  const settled = await barrier.wait()
  if (!settled) return loadDeckState(ws.deckDir(deckId), shown, indexFor(ws, deckId))
  const key = `${ws.root}\0${deckId}`
  let entry = entries.get(key)
  if (entry) {
    entries.delete(key)
    entries.set(key, entry)
    const dir = entry.dir
    if (entry.doubt || ino(dir) !== entry.deckIno || ino(join(dir, 'slides')) !== entry.slidesIno) {
      dispose(entry)
      entries.delete(key)
      entry = undefined
    }
  }
  if (!entry) {
    entry = createEntry(ws, deckId, key)
    entries.set(key, entry)
    for (const [k, old] of entries) {
      if (entries.size <= MAX_DECKS) break
      dispose(old)
      entries.delete(k)
    }
    return entry.state
  }
  try {
    if (stampIfAny(join(entry.dir, 'deck.json')) !== entry.state.files.manifestStamp) entry.suspects.add('deck.json')
    if (stampIfAny(join(entry.dir, 'versions.json')) !== entry.state.files.versionsStamp) entry.suspects.add('versions.json')
    if (entry.sweep) sweepEntry(entry)
    else if (entry.suspects.size) applySuspects(entry)
  } catch (error) {
    entry.doubt = true
    throw error
  }
  return entry.state
}

/**
 * After a commit: the cached state of the deck becomes the written one, built from the texts the
 * commit wrote (no file read back). `written` maps paths inside the deck folder to their new text,
 * null for a removal. A deck removed, or a state that was not the one the write started from, is
 * dropped and read again at the next use.
 */
export function committedDeck(ws: Workspace, deckId: string, before: DeckState | undefined, next: DeckDoc | null, written: Map<string, string | null>): DeckState | undefined {
  const key = `${ws.root}\0${deckId}`
  const entry = barrier ? entries.get(key) : undefined
  if (next === null || !before) {
    if (entry) {
      dispose(entry)
      entries.delete(key)
      if (next === null) bodies.dropDeck(entry.dir)
    }
    return undefined
  }
  const dir = before.dir
  let files: Partial<StateFiles> | undefined
  const manifestText = written.get('deck.json')
  const versionsText = written.get('versions.json')
  if (typeof manifestText === 'string' || versionsText !== undefined) {
    files = {}
    if (typeof manifestText === 'string') {
      Object.assign(files, { manifest: JSON.parse(manifestText), manifestText, manifestStamp: stampIfAny(join(dir, 'deck.json')) })
    }
    if (versionsText !== undefined) {
      Object.assign(files, {
        versions: versionsText === null ? [] : JSON.parse(versionsText),
        versionsText,
        versionsStamp: versionsText === null ? '' : stampIfAny(join(dir, 'versions.json')),
      })
    }
  }
  const slides = new Map<string, SlideRecord | null>()
  for (const [rel, text] of written) {
    const match = /^slides\/(.+)\.json$/.exec(rel)
    if (!match) continue
    const id = match[1]
    if (text === null) {
      slides.set(id, null)
      continue
    }
    const body = deepFreeze(JSON.parse(text))
    const stat = lstatSync(join(dir, rel))
    const record: SlideRecord = { stamp: stampOf(stat), settled: settledAt(stat), hash: fileHash(rel, text), bytes: text.length, summary: summarize(body) }
    bodies.set(`${dir}\0${id}\0${record.hash}`, body, text.length)
    slides.set(id, record)
  }
  const listingChanged = [...slides].some(([id, record]) => (record === null) === before.has(id))
  const after = before.patched({ files, slides, slidesDirStamp: listingChanged ? dirStamp(join(dir, 'slides')) : undefined })
  if (entry) {
    if (entry.state !== before || entry.doubt) {
      // The write did not start from the cached state: read the deck again at the next use.
      dispose(entry)
      entries.delete(key)
    } else {
      entry.state = after
      // A write that made the slides folder: watch it from now on (by reading the deck again).
      if (listingChanged && !entry.slidesIno) entry.doubt = true
    }
  }
  return after
}

/** What the cache holds, for tests and `npm run bench`. */
export function deckCacheStats() {
  return { decks: entries.size, ...bodies.stats() }
}

/**
 * After a commit this process made for another (the hosted store's replica applying a change another
 * instance committed, src/hosted/deck-store.ts): those decks are read again at their next use, and the
 * new HEAD is the same branch one step on, not a move of the checkout.
 */
export function foreignCommit(ws: Workspace, deckIds: Iterable<string>): void {
  for (const deckId of deckIds) {
    const entry = entries.get(`${ws.root}\0${deckId}`)
    if (entry) entry.sweep = true
  }
  ownCommit(ws)
}
