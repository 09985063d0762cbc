/**
 * The derived index of a deck: per slide file its stamp, hash and summary (and lint counts by hash),
 * in `.studio/cache/decks/<deck>.json`, so a process that lists a deck (`studio info`, `studio
 * slides`) stats the slide files instead of reading and parsing them.
 *
 * It can never disagree with the files: an entry is used only when its file's stamp (inode, size,
 * mtime and ctime in nanoseconds) is what it was when the entry was made, and the entry was made
 * from bytes read after the file had been unchanged for SETTLE_MS; any other file is read again.
 * (A change always moves mtime or ctime unless it lands within the file system's clock tick of the
 * change before it; such a file is young, so it is read.) The index is git-ignored local state,
 * never committed; deleting it costs one full read. Writes of it are atomic (temp file, rename);
 * two processes writing it at once each write entries true for the stamps they carry.
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { LintCounts } from '../model/lint.js'
import { readSlideFile, stampOf, type DeckState, type RecordSource, type SlideRecord } from './deck-state.js'

const VERSION = 2

type StoredRecord = [stamp: string, settled: 0 | 1, hash: string, bytes: number, title: string, layout: string, skip: 0 | 1, charts: number]

interface StoredIndex {
  v: number
  slides: Record<string, StoredRecord>
  /** Lint counts by `<slide hash>:<lint context>`. */
  lint?: Record<string, [number, number, number]>
}

export class DerivedIndex implements RecordSource {
  private stored: Map<string, SlideRecord> | undefined
  private readonly lint = new Map<string, LintCounts>()
  private dirty = false

  /** `file` null keeps the index in memory only (a read-only workspace, a folder outside one). */
  constructor(readonly file: string | null) {}

  private load(): Map<string, SlideRecord> {
    if (this.stored) return this.stored
    this.stored = new Map()
    if (!this.file) return this.stored
    let parsed: StoredIndex
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8')) as StoredIndex
    } catch {
      return this.stored
    }
    if (!parsed || parsed.v !== VERSION || !parsed.slides || typeof parsed.slides !== 'object') return this.stored
    for (const [id, row] of Object.entries(parsed.slides)) {
      if (!Array.isArray(row) || row.length !== 8) continue
      const [stamp, settled, hash, bytes, title, layout, skip, charts] = row
      this.stored.set(id, { stamp, settled: settled === 1, hash, bytes, summary: { title, layout, skip: skip === 1, charts } })
    }
    for (const [key, counts] of Object.entries(parsed.lint ?? {})) {
      if (Array.isArray(counts) && counts.length === 3) this.lint.set(key, { error: counts[0], warning: counts[1], info: counts[2] })
    }
    return this.stored
  }

  fill(state: DeckState, ids: string[]): Map<string, SlideRecord> {
    const stored = this.load()
    const out = new Map<string, SlideRecord>()
    for (const id of ids) {
      const entry = stored.get(id)
      if (entry?.settled) {
        let stamp = ''
        try {
          stamp = stampOf(lstatSync(`${state.dir}/slides/${id}.json`))
        } catch {
          // gone: read below, which says so
        }
        if (stamp === entry.stamp) {
          out.set(id, entry)
          continue
        }
      }
      const read = readSlideFile(state.dir, id, state.shown)
      out.set(id, read.record)
      // Only a settled record is worth writing down: an unsettled one is read again next time anyway.
      if (read.record.settled && (!entry || entry.hash !== read.record.hash || entry.stamp !== read.record.stamp || !entry.settled)) {
        stored.set(id, read.record)
        this.dirty = true
      }
    }
    if (this.dirty) this.save(state)
    return out
  }

  /** Lint counts of a slide's bytes under a lint context, when known. */
  lintCounts(hash: string, context: string): LintCounts | undefined {
    this.load()
    return this.lint.get(`${hash}:${context}`)
  }

  setLintCounts(hash: string, context: string, counts: LintCounts): void {
    this.load()
    this.lint.set(`${hash}:${context}`, counts)
    this.dirty = true
  }

  /** Writes the index when something new was learnt: the entries of the state's slides only. */
  save(state: DeckState): void {
    if (!this.dirty || !this.file) return
    this.dirty = false
    const stored = this.load()
    for (const [id, record] of state.knownRecords()) if (record.stamp) stored.set(id, record)
    const slides: Record<string, StoredRecord> = {}
    const hashes = new Set<string>()
    for (const id of state.ids) {
      const r = stored.get(id)
      if (!r) continue
      slides[id] = [r.stamp, r.settled ? 1 : 0, r.hash, r.bytes, r.summary.title, r.summary.layout, r.summary.skip ? 1 : 0, r.summary.charts]
      hashes.add(r.hash)
    }
    for (const id of [...stored.keys()]) if (!state.has(id)) stored.delete(id)
    const lint: Record<string, [number, number, number]> = {}
    for (const [key, counts] of this.lint) {
      if (hashes.has(key.slice(0, key.indexOf(':')))) lint[key] = [counts.error, counts.warning, counts.info]
      else this.lint.delete(key)
    }
    const body: StoredIndex = { v: VERSION, slides, lint }
    try {
      mkdirSync(dirname(this.file), { recursive: true })
      const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`
      writeFileSync(temp, JSON.stringify(body))
      renameSync(temp, this.file)
    } catch {
      // Best effort: without the index the next process reads the files.
    }
  }
}

/** Where a workspace keeps the derived index of a deck. */
export function indexFileOf(stateDir: string, deckId: string): string {
  return join(stateDir, 'cache', 'decks', `${deckId}.json`)
}
