/**
 * A deck as the store knows it: the manifest and version log (always read), the slide ids (the file
 * names under `slides/`), and per slide a record (its stat stamp, a hash of its bytes, the summary
 * listings show) filled only when a call needs it. Slide bodies are read on first use and kept,
 * frozen, in a process-wide cache bounded by size (`bodies`).
 *
 * A state is a snapshot: its records never change once known (a commit or a revalidation makes a
 * new state that shares the unchanged ones). `doc()` is the document handlers see: the manifest and
 * version log frozen, `slides` a lazy record (src/model/slide-map.ts), so a read of one slide reads
 * one file and a write that changes one slide serializes and compares one slide.
 *
 * Hashes cover a file's path and bytes (`fileHash`); the deck's version tag (`tag()`) folds the
 * hashes of every file of the document together, so any change of content changes it and the same
 * content always gives the same tag, in every process.
 */
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs'
import { basename, join } from 'node:path'
import { fail } from '../core/errors.js'
import { sameJson, slideTitle, type DeckDoc, type Manifest, type Slide, type Version } from '../model/deck.js'
import { lazySlides } from '../model/slide-map.js'
import { jsonProblem } from './decks.js'

/** What listings need of a slide without reading it (deck.info, slide.list, deck.list). */
export interface SlideSummary {
  title: string
  layout: string
  skip: boolean
  /** Chart blocks on the slide. */
  charts: number
}

/** What the store knows of one slide file. */
export interface SlideRecord {
  /** `ino:size:mtimeMs:ctimeMs` of the file when it was read ('' when not known; times to the microsecond). */
  stamp: string
  /**
   * Whether the bytes were read when the file had been unchanged for a while (SETTLE_MS), so that
   * the stamp alone vouches for them: a change after that always moves mtime or ctime. A record that
   * is not settled is checked by its bytes.
   */
  settled: boolean
  hash: string
  bytes: number
  summary: SlideSummary
}

/** A file younger than this (by mtime or ctime) is checked by its bytes, whatever its stamp says. */
export const SETTLE_MS = 3000
/** The settle time in force (tests shorten it to exercise the index with files just written). */
export const settle = { ms: SETTLE_MS }

/** Hash of one file of a deck: its path inside the deck folder and its bytes (96 bits, hex). */
export function fileHash(rel: string, text: string): string {
  return createHash('sha1').update(rel).update('\0').update(text).digest('hex').slice(0, 24)
}

export function stampOf(stat: Stats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
}

/** Whether bytes read after `stat` was taken can be vouched for by the stamp alone. */
export function settledAt(stat: Stats, now = Date.now()): boolean {
  return now - Math.max(stat.mtimeMs, stat.ctimeMs) >= settle.ms
}

export function summarize(slide: Slide): SlideSummary {
  let charts = 0
  for (const block of Array.isArray(slide?.blocks) ? slide.blocks : []) if (block?.kind === 'chart') charts++
  return { title: slideTitle(slide), layout: String(slide?.layout ?? ''), skip: slide?.skip === true, charts }
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** Refuses a symbolic link where a deck keeps its files: it could point anywhere on the machine. */
function refuseLink(stat: Stats | undefined, name: string): void {
  if (stat?.isSymbolicLink()) fail('refused', `${name} is a symbolic link; studio does not follow links inside a deck folder. Replace it with the real file or folder.`)
}

function lstat(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

/** Reads a text file of the deck with `name` in messages (never the absolute path). */
function readText(file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') fail('not_found', `Missing file ${name}`)
    fail('storage', `Cannot read ${name}${code ? ` (${code})` : ''}.`)
  }
}

function parseJson<T>(text: string, name: string): T {
  try {
    return JSON.parse(text) as T
  } catch (error) {
    fail('storage', `${name} is not valid JSON (${jsonProblem(error)}). Fix it by hand or restore it with git.`)
  }
}

// ---- Slide bodies: one cache for the process, bounded by size ----------------------------------

/** Parsed JSON takes about this many bytes of heap per byte of canonical file (0.95 measured on the brand sample, frozen). */
export const HEAP_PER_BYTE = 1
const DEFAULT_BODY_BUDGET_MB = 128

/**
 * Slide bodies by deck folder, slide id and hash, least recently used first. A body is only ever
 * found under the hash of the bytes it was parsed from, so a changed file can never answer with an
 * old body. Evicting a body costs a re-read; every record stays.
 */
class BodyCache {
  private readonly entries = new Map<string, { body: Slide; cost: number }>()
  private used = 0
  budget = (Number(process.env.STUDIO_CACHE_MB) || DEFAULT_BODY_BUDGET_MB) * 1024 * 1024

  get(key: string): Slide | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.body
  }

  set(key: string, body: Slide, bytes: number): void {
    const cost = bytes * HEAP_PER_BYTE
    if (cost > this.budget) return
    const old = this.entries.get(key)
    if (old) {
      this.used -= old.cost
      this.entries.delete(key)
    }
    this.entries.set(key, { body, cost })
    this.used += cost
    for (const [k, entry] of this.entries) {
      if (this.used <= this.budget) break
      this.entries.delete(k)
      this.used -= entry.cost
    }
  }

  /** Drops every body of a deck folder. */
  dropDeck(dir: string): void {
    const prefix = `${dir}\0`
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(prefix)) continue
      this.entries.delete(key)
      this.used -= entry.cost
    }
  }

  stats() {
    return { bodies: this.entries.size, bytes: this.used, budget: this.budget }
  }
}

export const bodies = new BodyCache()

const bodyKey = (dir: string, id: string, hash: string) => `${dir}\0${id}\0${hash}`

// ---- Reading one slide file ------------------------------------------------------------------

export interface ReadSlide {
  record: SlideRecord
  body: Slide
}

/** Reads `slides/<id>.json` of a deck folder: stat first, then bytes (so the stamp never vouches for newer bytes). */
export function readSlideFile(dir: string, id: string, shown: string): ReadSlide {
  const file = join(dir, 'slides', `${id}.json`)
  const name = `${shown}/slides/${id}.json`
  const stat = lstat(file)
  refuseLink(stat, name)
  const text = readText(file, name)
  const body = deepFreeze(parseJson<Slide>(text, name))
  const record: SlideRecord = {
    stamp: stat ? stampOf(stat) : '',
    settled: stat ? settledAt(stat) : false,
    hash: fileHash(`slides/${id}.json`, text),
    bytes: text.length,
    summary: summarize(body),
  }
  bodies.set(bodyKey(dir, id, record.hash), body, text.length)
  return { record, body }
}

// ---- The state -------------------------------------------------------------------------------

/** Where records of slides not yet read come from: the derived index (deck-index.ts) or the files. */
export interface RecordSource {
  /** Records for every id given, reading what it must; may return fewer on a file that vanished. */
  fill(state: DeckState, ids: string[]): Map<string, SlideRecord>
}

export interface StateFiles {
  manifest: Manifest
  manifestText: string
  manifestStamp: string
  versions: Version[]
  versionsText: string | null
  versionsStamp: string
}

const docStates = new WeakMap<DeckDoc, DeckState>()
let slidesVersions = 0

export class DeckState {
  readonly manifest: Manifest
  readonly versions: Version[]
  private manifestHashValue: string | undefined
  private versionsHashValue: string | undefined
  private readonly idSet: Set<string>
  private tagValue: string | undefined
  private view: DeckDoc | undefined
  /** Every id has its record (no more filling needed). */
  private complete = false
  /** Derived answers kept with the state they were computed from (deck.info's). */
  readonly memo = new Map<string, unknown>()
  /** Changes whenever a slide record changes (shared by states with the same slides). */
  slidesVersion = ++slidesVersions

  constructor(
    readonly dir: string,
    /** How messages name the folder (`decks/<id>`). */
    readonly shown: string,
    readonly files: StateFiles,
    /** Slide ids, sorted. */
    readonly ids: readonly string[],
    /** Known records; the rest are read when asked for. Never changed for a key once set. */
    private readonly records: Map<string, SlideRecord>,
    /** `ino:mtimeMs` of the slides folder when listed ('' when it did not exist). */
    readonly slidesDirStamp: string,
    /** Where unknown records come from (the derived index), which also keeps lint counts by hash. */
    readonly source?: RecordSource,
    /** The set of `ids`, when a state with the same listing already has it. */
    idSet?: Set<string>,
  ) {
    this.manifest = deepFreeze(files.manifest)
    this.versions = deepFreeze(files.versions)
    this.idSet = idSet ?? new Set(ids)
  }

  get manifestHash(): string {
    return (this.manifestHashValue ??= fileHash('deck.json', this.files.manifestText))
  }

  get versionsHash(): string {
    return (this.versionsHashValue ??= this.files.versionsText === null ? '' : fileHash('versions.json', this.files.versionsText))
  }

  has(id: string): boolean {
    return this.idSet.has(id)
  }

  /** The record of a slide (reading its file when no record is known); undefined for an unknown id. */
  record(id: string): SlideRecord | undefined {
    if (!this.idSet.has(id)) return undefined
    let record = this.records.get(id)
    if (!record) {
      const read = readSlideFile(this.dir, id, this.shown)
      record = read.record
      this.records.set(id, record)
    }
    return record
  }

  /** The records known without reading a file. */
  knownRecords(): ReadonlyMap<string, SlideRecord> {
    return this.records
  }

  /** Every record, filled from the derived index or the files. */
  allRecords(): ReadonlyMap<string, SlideRecord> {
    if (this.complete) return this.records
    const missing = this.ids.filter((id) => !this.records.has(id))
    if (missing.length) {
      const filled = this.source ? this.source.fill(this, missing) : new Map<string, SlideRecord>()
      for (const id of missing) {
        const record = filled.get(id) ?? readSlideFile(this.dir, id, this.shown).record
        this.records.set(id, record)
      }
    }
    this.complete = true
    return this.records
  }

  summary(id: string): SlideSummary | undefined {
    return this.record(id)?.summary
  }

  /** A slide's body, frozen: from the body cache, else read (a file changed since gives its new bytes). */
  slide(id: string): Slide {
    const record = this.record(id)
    if (!record) fail('not_found', `No slide "${id}" in ${this.shown}.`)
    const hit = bodies.get(bodyKey(this.dir, id, record.hash))
    if (hit) return hit
    return readSlideFile(this.dir, id, this.shown).body
  }

  /**
   * The opaque version tag of this content: the hashes of deck.json, versions.json and every slide
   * file folded together (XOR, so a commit updates it from the files it changed).
   */
  tag(): string {
    if (this.tagValue === undefined) {
      const acc = lanes(this.manifestHash)
      if (this.versionsHash) xorInto(acc, this.versionsHash)
      for (const record of this.allRecords().values()) xorInto(acc, record.hash)
      this.tagValue = hexOf(acc)
    }
    return this.tagValue
  }

  /** The document handlers see: manifest and version log frozen, slides read lazily. */
  doc(): DeckDoc {
    if (!this.view) {
      const view: DeckDoc = {
        manifest: this.manifest,
        versions: this.versions,
        slides: lazySlides({ ids: () => this.ids, has: (id) => this.idSet.has(id), get: (id) => this.slide(id), idSet: () => this.idSet }),
      }
      Object.freeze(view)
      docStates.set(view, this)
      this.view = view
    }
    return this.view
  }

  /** A new state with these changes (files written by a commit, or found changed on disk). */
  patched(changes: { files?: Partial<StateFiles>; slides?: Map<string, SlideRecord | null>; slidesDirStamp?: string }): DeckState {
    const manifest = changes.files?.manifest
    if (manifest && Array.isArray(manifest.sections) && sameJson(manifest.sections, this.manifest.sections)) {
      // The same section list keeps the same (frozen) object, so what is kept by it stays (deck.info's sections).
      changes = { ...changes, files: { ...changes.files, manifest: { ...manifest, sections: this.manifest.sections } } }
    }
    // Records are shared while no slide changed (a rename): they are facts about files, filled in only.
    const records = changes.slides?.size ? new Map(this.records) : this.records
    let ids = this.ids
    const added: string[] = []
    const removed = new Set<string>()
    for (const [id, record] of changes.slides ?? []) {
      if (record === null) {
        records.delete(id)
        if (this.idSet.has(id)) removed.add(id)
      } else {
        records.set(id, record)
        if (!this.idSet.has(id)) added.push(id)
      }
    }
    const listing = added.length > 0 || removed.size > 0
    if (listing) ids = [...this.ids.filter((id) => !removed.has(id)), ...added].sort()
    const next = new DeckState(this.dir, this.shown, { ...this.files, ...changes.files }, ids, records, changes.slidesDirStamp ?? this.slidesDirStamp, this.source, listing ? undefined : this.idSet)
    next.complete = this.complete
    if (!changes.slides?.size) next.slidesVersion = this.slidesVersion
    if (next.files.manifestText === this.files.manifestText) next.manifestHashValue = this.manifestHashValue
    if (next.files.versionsText === this.files.versionsText) next.versionsHashValue = this.versionsHashValue
    if (this.tagValue !== undefined && [...(changes.slides?.keys() ?? [])].every((id) => !this.idSet.has(id) || this.records.has(id))) {
      // Fold out what changed and fold in the new hashes.
      const acc = lanes(this.tagValue)
      xorInto(acc, this.manifestHash)
      xorInto(acc, next.manifestHash)
      if (this.versionsHash) xorInto(acc, this.versionsHash)
      if (next.versionsHash) xorInto(acc, next.versionsHash)
      for (const [id, record] of changes.slides ?? []) {
        const old = this.records.get(id)
        if (old) xorInto(acc, old.hash)
        if (record) xorInto(acc, record.hash)
      }
      next.tagValue = hexOf(acc)
    }
    return next
  }
}

/** A 96-bit hash (24 hex digits) as three 32-bit lanes, folded with XOR. */
function lanes(hex: string): number[] {
  return [0, 0, 0].map((_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16) >>> 0)
}

function xorInto(acc: number[], hex: string): void {
  acc[0] = (acc[0] ^ parseInt(hex.slice(0, 8), 16)) >>> 0
  acc[1] = (acc[1] ^ parseInt(hex.slice(8, 16), 16)) >>> 0
  acc[2] = (acc[2] ^ parseInt(hex.slice(16, 24), 16)) >>> 0
}

function hexOf(acc: number[]): string {
  return acc.map((lane) => lane.toString(16).padStart(8, '0')).join('')
}

/** The state behind a document `doc()` answered (undefined for any other document). */
export function stateOf(doc: DeckDoc): DeckState | undefined {
  return docStates.get(doc)
}

/** `ino:mtimeMs` of a folder, '' when it does not exist. */
export function dirStamp(dir: string): string {
  const stat = lstat(dir)
  return stat ? `${stat.ino}:${stat.mtimeMs}` : ''
}

/** Reads the manifest and version log of a deck folder (refusing links), with their stamps. */
export function readStateFiles(dir: string, shown: string): StateFiles {
  const name = (rel: string) => `${shown}/${rel}`
  refuseLink(lstat(dir), shown)
  const manifestStat = lstat(join(dir, 'deck.json'))
  refuseLink(manifestStat, name('deck.json'))
  const manifestText = readText(join(dir, 'deck.json'), name('deck.json'))
  const manifest = parseJson<Manifest>(manifestText, name('deck.json'))
  const versionsStat = lstat(join(dir, 'versions.json'))
  refuseLink(versionsStat, name('versions.json'))
  const versionsText = versionsStat ? readText(join(dir, 'versions.json'), name('versions.json')) : null
  const versions = versionsText === null ? [] : parseJson<Version[]>(versionsText, name('versions.json'))
  return {
    manifest,
    manifestText,
    manifestStamp: manifestStat ? stampOf(manifestStat) : '',
    versions,
    versionsText,
    versionsStamp: versionsStat ? stampOf(versionsStat) : '',
  }
}

/**
 * The manifest and version log read again for a state: only their stamps when the bytes are the
 * same (the usual case after this process's own write), parsed again when they differ.
 */
export function refreshStateFiles(state: DeckState): Partial<StateFiles> {
  const read = (rel: string) => {
    const stat = lstat(join(state.dir, rel))
    refuseLink(stat, `${state.shown}/${rel}`)
    return { stat, text: stat ? readText(join(state.dir, rel), `${state.shown}/${rel}`) : null }
  }
  const out: Partial<StateFiles> = {}
  const manifest = read('deck.json')
  if (manifest.text === null) fail('not_found', `Missing file ${state.shown}/deck.json`)
  out.manifestStamp = stampOf(manifest.stat!)
  if (manifest.text !== state.files.manifestText) {
    out.manifestText = manifest.text
    out.manifest = parseJson<Manifest>(manifest.text, `${state.shown}/deck.json`)
  }
  const versions = read('versions.json')
  out.versionsStamp = versions.stat ? stampOf(versions.stat) : ''
  if (versions.text !== state.files.versionsText) {
    out.versionsText = versions.text
    out.versions = versions.text === null ? [] : parseJson<Version[]>(versions.text, `${state.shown}/versions.json`)
  }
  return out
}

/** The slide ids of a deck folder: the `.json` files under `slides/` (links refused), sorted. */
export function listSlideIds(dir: string, shown: string): { ids: string[]; stamp: string } {
  const slidesDir = join(dir, 'slides')
  const stat = lstat(slidesDir)
  refuseLink(stat, `${shown}/slides`)
  if (!stat) return { ids: [], stamp: '' }
  let entries
  try {
    entries = readdirSync(slidesDir, { withFileTypes: true })
  } catch {
    return { ids: [], stamp: '' }
  }
  const ids: string[] = []
  for (const entry of entries) {
    if (!entry.name.endsWith('.json')) continue
    if (entry.isSymbolicLink()) refuseLink(lstat(join(slidesDir, entry.name)), `${shown}/slides/${entry.name}`)
    if (entry.isFile()) ids.push(entry.name.slice(0, -5))
  }
  return { ids: ids.sort(), stamp: `${stat.ino}:${stat.mtimeMs}` }
}

/** Reads a deck folder into a state: the manifest, the version log and the slide ids; slides on demand. */
export function loadDeckState(dir: string, shown: string = basename(dir), source?: RecordSource): DeckState {
  const files = readStateFiles(dir, shown)
  const listed = listSlideIds(dir, shown)
  return new DeckState(dir, shown, files, listed.ids, new Map(), listed.stamp, source)
}

/**
 * The summary of every slide of a document, by id: from the store's records when the document is
 * one the store answered (the derived index vouches for unread files), else from the slides.
 */
export function slideSummaries(doc: DeckDoc): ReadonlyMap<string, SlideSummary> {
  const state = stateOf(doc)
  const out = new Map<string, SlideSummary>()
  if (state) {
    const records = state.allRecords()
    return { get: (id: string) => records.get(id)?.summary } as ReadonlyMap<string, SlideSummary>
  }
  for (const id of Object.keys(doc.slides)) out.set(id, summarize(doc.slides[id]))
  return out
}

/** A plain document holding every slide (for whole-deck work: validation, bundles, templates). */
export function plainDoc(doc: DeckDoc): DeckDoc {
  const slides: Record<string, Slide> = {}
  for (const id of Object.keys(doc.slides)) slides[id] = doc.slides[id]
  return { manifest: doc.manifest, slides, versions: doc.versions }
}
