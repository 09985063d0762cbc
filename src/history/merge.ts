/**
 * The three-way merge of a deck at the model's level: base, ours and theirs in, one deck and the
 * conflicts out. Pure (no I/O, no clock: `now` is an input); the git merge driver
 * (merge-driver.ts), `studio merge resolve` and the review of a merge commit all call it.
 *
 *   manifest      field by field (title, theme, defaults, background, guides as sets, brand kit);
 *                 revision = max(ours, theirs) + 1; stamps: the earlier createdAt, updatedAt = now
 *   sections      ordered lists (merged by placement, below); titles field by field
 *   slides        membership by id: added on either side kept; removed on one side and untouched
 *                 on the other removed; removed on one side and edited on the other a conflict
 *                 (kept, edited, until settled); added on both sides under one id with different
 *                 content: theirs kept under a fresh id (`renamed`)
 *   slide content field by field; Text paragraph by paragraph; blocks matched by id (as slides),
 *                 their order and stacking merged by placement, their properties field by field,
 *                 list items and table rows as sequences (cell by cell where both sides edited the
 *                 same rows), chart data series by series
 *   versions      by number, like slides: additions kept, removals honoured, an edit against a
 *                 removal or two different edits a conflict; theirs' new versions numbered after ours'
 *
 * Placement (an element's place in an ordered list, or in a list of lists for slides in sections):
 * a side "moved" an element when it changed list or left the longest run it keeps in common with
 * the base. The result starts as ours' order; every element theirs added, or moved while ours did
 * not, is then put after the element that precedes it in theirs' list (the nearest one present),
 * so slides added after the same slide on both sides are both kept, ours' first. An element both
 * sides moved to different places is a conflict (ours' place kept).
 *
 * A conflict keeps ours' value in the result (a valid document) and records base, ours and theirs
 * values of its unit: a leaf value, a Text, a table cell, a list's items, a chart's data, a slide or
 * block removed on one side and edited on the other, or a slide's place. Its ours and theirs values
 * are the unit as each choice leaves it (other, non-conflicting edits inside the unit kept).
 */
import type { Block, DeckDoc, Manifest, Section, Slide, Version } from '../model/deck.js'
import { has, own } from '../model/own.js'
import { parse } from '../model/text.js'
import { canonicalize } from '../store/canonical.js'
import { plain, quote, titleOf } from './diff.js'

/** A step of a conflict's path from the document root: a member name, an array index, or the array element with this id. */
export type PathStep = string | number | { id: string }

export type ConflictKind =
  /** Both sides changed one value differently: `path` names it. */
  | 'value'
  /** A slide removed on one side and edited on the other (kept, edited, until settled). */
  | 'slide'
  /** A block removed on one side and edited on the other (kept until settled). */
  | 'block'
  /** A slide both sides moved, to different places: values are `{ section, after }`. */
  | 'place'
  /** A whole slide or manifest whose merge could not be made valid, or both sides added one slide id with different content where the other files could not be read: ours kept. */
  | 'whole'
  /** Nothing of the merge taken (the driver's): a side holds an id, layout or file name the model refuses, or a link is in the way; ours kept, no values. */
  | 'refused'

export interface Conflict {
  /** Stable id inside the merge: `<deck>:<where>`, e.g. `q3:deck/title`, `q3:slide/intro-1#b1/text`. */
  id: string
  /** The deck's folder relative to the workspace (`decks/q3`). */
  folder: string
  deck: string
  /** The file the conflict is recorded against, inside the deck folder (`deck.json`, `slides/<id>.json`). */
  file: string
  kind: ConflictKind
  /** Where the unit lives, from the document root (`['manifest', 'title']`, `['slides', 'x', 'blocks', { id: 'b1' }, 'text']`). */
  path: PathStep[]
  /** The unit's values; a member is absent where the unit is absent on that side (removed). */
  base?: unknown
  ours?: unknown
  theirs?: unknown
  /** The place in words: "Deck title", "Slide 'Pricing' (title-body-2), block b1 text". */
  where: string
}

export interface DeckMerge {
  doc: DeckDoc
  conflicts: Conflict[]
  /** Slides both sides added under one id with different content: theirs' is kept as `to`. */
  renamed: { from: string; to: string }[]
  /** What the merge decided that a reader should hear about (renamed ids, sections kept). */
  notes: string[]
}

export interface MergeOptions {
  /** The updatedAt stamp of the merged manifest (ISO time). */
  now: string
  /** The deck's folder relative to the workspace, for conflict records (default `decks/<id>`). */
  folder?: string
  /**
   * Whether the slides maps hold every slide (true, the default). False when only the manifests
   * are known (a deck.json merged on its own): then no slide counts as edited and slides added
   * on both sides under one id count as one.
   */
  slideContents?: boolean
}

// ------------------------------------------------------------------------------------- values

type Json = unknown
const ABSENT = undefined

function key(value: Json): string {
  return value === undefined ? '\u0000absent' : JSON.stringify(canonicalize(value))
}

export function same(a: Json, b: Json): boolean {
  return key(a) === key(b)
}

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value))

type Prefer = 'ours' | 'theirs'

/** The outcome of merging one unit with one preference: the value, and whether a real conflict was met. */
interface Outcome {
  value: Json
  conflicted: boolean
}

/** Members merged as one value, never member by member (their members only make sense together). */
const ATOMIC = new Set(['link', 'start', 'end', 'from', 'to', 'uniforms', 'cropAnchor', 'columnWidths', 'dither', 'layoutOptions'])
/** Text members: merged paragraph by paragraph. */
const TEXT_FIELDS = new Set(['text', 'caption', 'title', 'subtitle', 'byline', 'attribution', 'notes'])

function merge3(base: Json, ours: Json, theirs: Json): Outcome | null {
  if (same(ours, theirs)) return { value: clone(ours), conflicted: false }
  if (same(base, ours)) return { value: clone(theirs), conflicted: false }
  if (same(base, theirs)) return { value: clone(ours), conflicted: false }
  return null
}

// ------------------------------------------------------------------------------------- diff3

type Chunk<T> = { ok: T[] } | { base: T[]; ours: T[]; theirs: T[] }

/**
 * Pairs of equal keys of a and b in a longest common subsequence: for each index of a, its partner
 * in b or -1. Among subsequences of the longest length, one keeping the most `preferred` keys.
 */
function lcsMatch(a: string[], b: string[], preferred?: Set<string>): number[] {
  const n = a.length
  const m = b.length
  // A kept key counts (n + 1); a preferred one one more, so preference only breaks ties of length.
  const weight = (k: string) => n + 1 + (preferred?.has(k) ? 1 : 0)
  const table: Float64Array[] = Array.from({ length: n + 1 }, () => new Float64Array(m + 1))
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[i][j] = Math.max(a[i] === b[j] ? table[i + 1][j + 1] + weight(a[i]) : 0, table[i + 1][j], table[i][j + 1])
  const match = new Array<number>(n).fill(-1)
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j] && table[i][j] === table[i + 1][j + 1] + weight(a[i])) {
      match[i++] = j++
    } else if (table[i + 1][j] >= table[i][j + 1]) i++
    else j++
  }
  return match
}

/**
 * The classic diff3 of three sequences: stable runs (equal on all sides) and the changed regions
 * between them, each taken from the one side that changed it, or left as a conflict.
 */
export function diff3<T>(base: T[], ours: T[], theirs: T[], keyOf: (t: T) => string = key): Chunk<T>[] {
  const kb = base.map(keyOf)
  const ko = ours.map(keyOf)
  const kt = theirs.map(keyOf)
  const mo = lcsMatch(kb, ko)
  const mt = lcsMatch(kb, kt)
  const chunks: Chunk<T>[] = []
  const ok = (items: T[]) => {
    if (!items.length) return
    const last = chunks[chunks.length - 1]
    if (last && 'ok' in last) last.ok.push(...items)
    else chunks.push({ ok: [...items] })
  }
  const sameRun = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i])
  let ib = 0
  let io = 0
  let it = 0
  for (;;) {
    let i = ib
    while (i < kb.length && (mo[i] < 0 || mt[i] < 0)) i++
    const eo = i < kb.length ? mo[i] : ko.length
    const et = i < kb.length ? mt[i] : kt.length
    if (i > ib || eo > io || et > it) {
      const b = kb.slice(ib, i)
      const o = ko.slice(io, eo)
      const t = kt.slice(it, et)
      if (sameRun(o, b)) ok(theirs.slice(it, et))
      else if (sameRun(t, b)) ok(ours.slice(io, eo))
      else if (sameRun(o, t)) ok(ours.slice(io, eo))
      else chunks.push({ base: base.slice(ib, i), ours: ours.slice(io, eo), theirs: theirs.slice(it, et) })
    }
    if (i >= kb.length) break
    ok([ours[eo]])
    ib = i + 1
    io = eo + 1
    it = et + 1
  }
  return chunks
}

/** A region as long on every side, merged element by element (edits of neighbouring elements do not collide). */
function elementwise<T>(base: T[], ours: T[], theirs: T[], prefer: Prefer): { items: T[]; conflicted: boolean } | null {
  if (ours.length !== base.length || theirs.length !== base.length) return null
  let conflicted = false
  const items = base.map((b, i) => {
    const one = merge3(b, ours[i], theirs[i])
    if (one) return one.value as T
    conflicted = true
    return clone(prefer === 'ours' ? ours[i] : theirs[i])
  })
  return { items, conflicted }
}

/**
 * diff3's regions of three sequences, the settled ones already pushed to `out` (stable runs, and
 * regions where both sides only inserted: ours' first); yields the regions left to decide.
 */
function* openRegions<T>(base: T[], ours: T[], theirs: T[], out: T[]): Generator<{ base: T[]; ours: T[]; theirs: T[] }> {
  for (const chunk of diff3(base, ours, theirs)) {
    if ('ok' in chunk) out.push(...clone(chunk.ok))
    else if (!chunk.base.length) out.push(...clone(chunk.ours), ...clone(chunk.theirs))
    else yield chunk
  }
}

/**
 * A sequence merged with diff3; a conflicting region where both sides only inserted keeps both
 * (ours' first); other conflicting regions go to `refine` (by default: regions as long on every
 * side are merged element by element) or take the preferred side.
 */
function mergeSequence<T>(base: T[], ours: T[], theirs: T[], prefer: Prefer, refine?: (b: T[], o: T[], t: T[], prefer: Prefer) => { items: T[]; conflicted: boolean } | null): { items: T[]; conflicted: boolean } {
  const out: T[] = []
  let conflicted = false
  for (const chunk of openRegions(base, ours, theirs, out)) {
    const refined = refine ? refine(chunk.base, chunk.ours, chunk.theirs, prefer) : elementwise(chunk.base, chunk.ours, chunk.theirs, prefer)
    if (refined) {
      out.push(...refined.items)
      conflicted ||= refined.conflicted
      continue
    }
    conflicted = true
    out.push(...clone(prefer === 'ours' ? chunk.ours : chunk.theirs))
  }
  return { items: out, conflicted }
}

// ------------------------------------------------------------------------------------- the collector

interface Sides {
  base: DeckDoc | null
  ours: DeckDoc
  theirs: DeckDoc
}

class Collector {
  readonly conflicts: Conflict[] = []
  readonly notes: string[] = []
  constructor(
    readonly deck: string,
    readonly folder: string,
    private readonly sides: Sides,
  ) {}

  add(conflict: Omit<Conflict, 'deck' | 'folder'>): void {
    this.conflicts.push({ deck: this.deck, folder: this.folder, ...conflict })
  }

  /** "Slide 'Pricing' (title-body-2)". */
  slideName(id: string): string {
    const slide = own(this.sides.ours.slides, id) ?? own(this.sides.theirs.slides, id) ?? (this.sides.base ? own(this.sides.base.slides, id) : undefined)
    const title = slide ? titleOf(slide) : ''
    return title ? `Slide '${title}' (${id})` : `Slide ${id}`
  }
}

/** Words for a path inside a block or slide: "text", "shadow colour", "cell 2,3", "item 1". */
function pathWords(steps: PathStep[]): string {
  const words: string[] = []
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]
    if (step === 'rows' && typeof steps[i + 1] === 'number' && typeof steps[i + 2] === 'number') {
      words.push(`cell ${(steps[i + 1] as number) + 1},${(steps[i + 2] as number) + 1}`)
      i += 2
    } else if (typeof step === 'number') words.push(String(step + 1))
    else if (typeof step === 'object') words.push(step.id)
    else words.push(step)
  }
  return words.join(' ')
}

function idPath(steps: PathStep[]): string {
  return steps.map((s) => (typeof s === 'object' ? s.id : String(s))).join('/')
}

/** Where a unit of the document lives: the file that holds it, its conflict id and its name in words. */
interface Site {
  file: string
  /** Root path of the object whose members are being merged. */
  root: PathStep[]
  /** The id part naming the object (`deck`, `slide/x`, `slide/x#b1`). */
  idBase: string
  /** The object in words ("Deck", "Slide 'x' (x), block b1"). */
  words: string
}

// ------------------------------------------------------------------------------------- texts, tables, charts

/**
 * A Text merged paragraph by paragraph; markup that breaks once merged makes the field one value.
 * `markup` false: plain text (speaker notes), paragraphs all the same.
 */
function mergeText(base: Json, ours: Json, theirs: Json, prefer: Prefer, markup = true): Outcome {
  const whole = merge3(base, ours, theirs)
  if (whole) return whole
  if (typeof ours !== 'string' || typeof theirs !== 'string' || (base !== undefined && typeof base !== 'string')) {
    return { value: clone(prefer === 'ours' ? ours : theirs), conflicted: true }
  }
  const lines = (s: string | undefined) => (s === undefined || s === '' ? [] : s.split('\n'))
  const merged = mergeSequence(lines(base as string | undefined), lines(ours), lines(theirs), prefer)
  const text = merged.items.join('\n')
  if (markup) {
    try {
      parse(text)
    } catch {
      return { value: clone(prefer === 'ours' ? ours : theirs), conflicted: true }
    }
  }
  return { value: text, conflicted: merged.conflicted }
}

function isGrid(value: Json): value is Json[][] {
  return Array.isArray(value) && value.every((row) => Array.isArray(row))
}

/**
 * Table rows: merged as a sequence of rows; where both sides changed the same rows (as many on
 * every side, of one width), cell by cell, each cell its own conflict unit.
 */
function mergeRows(base: Json, ours: Json, theirs: Json, site: Site, path: PathStep[], c: Collector): Json {
  const whole = merge3(base, ours, theirs)
  if (whole) return whole.value
  if (!isGrid(ours) || !isGrid(theirs) || (base !== undefined && !isGrid(base))) return mergeLeaf(base, ours, theirs, site, path, c)
  const b = (base as Json[][] | undefined) ?? []
  const pending: { row: number; col: number; base: Json; ours: Json; theirs: Json }[] = []
  const out: Json[][] = []
  for (const chunk of openRegions(b, ours, theirs, out)) {
    const n = chunk.base.length
    const width = (rows: Json[][]) => new Set(rows.map((r) => r.length))
    const widths = new Set([...width(chunk.base), ...width(chunk.ours), ...width(chunk.theirs)])
    if (chunk.ours.length !== n || chunk.theirs.length !== n || widths.size !== 1) {
      // Rows added, removed or resized against the other side's edits: the rows as one unit.
      return mergeLeaf(base, ours, theirs, site, path, c)
    }
    for (let r = 0; r < n; r++) {
      const row: Json[] = []
      for (let col = 0; col < chunk.base[r].length; col++) {
        const cell = mergeText(chunk.base[r][col], chunk.ours[r][col], chunk.theirs[r][col], 'ours')
        if (cell.conflicted) pending.push({ row: out.length, col, base: chunk.base[r][col], ours: cell.value, theirs: mergeText(chunk.base[r][col], chunk.ours[r][col], chunk.theirs[r][col], 'theirs').value })
        row.push(cell.value)
      }
      out.push(row)
    }
  }
  for (const cell of pending) {
    const at = [...path, cell.row, cell.col]
    c.add({
      id: `${c.deck}:${site.idBase}/${idPath(at)}`,
      file: site.file,
      kind: 'value',
      path: [...site.root, ...at],
      base: clone(cell.base),
      ours: clone(cell.ours),
      theirs: clone(cell.theirs),
      where: `${site.words} ${pathWords(at)}`,
    })
  }
  return out
}

interface Series {
  name: string
  values: Json[]
}
interface ChartData {
  categories: string[]
  series: Series[]
}

function isChartData(value: Json): value is ChartData {
  return isObject(value) && Array.isArray(value.categories) && Array.isArray(value.series) && value.series.every((s) => isObject(s) && typeof s.name === 'string' && Array.isArray(s.values))
}

/** Chart data with one preference: categories as a sequence, series matched by name, their values index by index. */
function mergeChartOnce(base: ChartData | undefined, ours: ChartData, theirs: ChartData, prefer: Prefer): Outcome {
  let conflicted = false
  const categories = mergeSequence(base?.categories ?? [], ours.categories, theirs.categories, prefer)
  conflicted ||= categories.conflicted
  const unique = (list: string[]) => new Set(list).size === list.length
  // Series values line up with categories; with unique category names each value is merged by its category.
  const byCategory = [base?.categories ?? [], ours.categories, theirs.categories, categories.items].every(unique) &&
    [base, ours, theirs].every((d) => !d || d.series.every((s) => s.values.length === d.categories.length))
  const byName = (data: ChartData | undefined) => new Map((data?.series ?? []).map((s) => [s.name, s]))
  const b = byName(base)
  const o = byName(ours)
  const t = byName(theirs)
  const keep = new Set<string>()
  for (const name of new Set([...o.keys(), ...t.keys()])) {
    const kept = o.get(name) ?? t.get(name)
    if ((o.has(name) && t.has(name)) || !b.has(name) || !same(b.get(name), kept)) keep.add(name)
  }
  const names = mergeIdList(
    (base?.series ?? []).map((s) => s.name),
    ours.series.map((s) => s.name),
    theirs.series.map((s) => s.name),
    keep,
  )
  const series: Series[] = []
  for (const name of names) {
    const [bs, os, ts] = [b.get(name), o.get(name), t.get(name)]
    if (os && ts) {
      const values = (() => {
        const whole = merge3(bs?.values, os.values, ts.values)
        if (whole) return whole.value as Json[]
        if (byCategory) {
          // Values belong to categories: each category's value merged on its own.
          const at = (data: ChartData | undefined, s: Series | undefined) => new Map((data?.categories ?? []).map((cat, i) => [cat, s?.values[i]]))
          const [bm, om, tm] = [at(base, bs), at(ours, os), at(theirs, ts)]
          return categories.items.map((cat) => {
            const one = merge3(bm.get(cat), om.get(cat), tm.get(cat))
            if (one) return one.value ?? null
            conflicted = true
            return clone((prefer === 'ours' ? om.get(cat) : tm.get(cat)) ?? null)
          })
        }
        const bv = bs?.values ?? []
        if (bv.length === os.values.length && bv.length === ts.values.length) {
          return bv.map((_, i) => {
            const one = merge3(bv[i], os.values[i], ts.values[i])
            if (one) return one.value
            conflicted = true
            return clone(prefer === 'ours' ? os.values[i] : ts.values[i])
          })
        }
        const merged = mergeSequence(bv, os.values, ts.values, prefer)
        conflicted ||= merged.conflicted
        return merged.items
      })()
      series.push({ ...clone(prefer === 'ours' ? os : ts), name, values })
      continue
    }
    const kept = os ?? ts!
    const other = os ? 'theirs' : 'ours'
    if (bs && !same(bs, kept)) {
      // Removed on one side, edited on the other.
      conflicted = true
      if (prefer !== other) series.push(clone(kept))
      continue
    }
    if (bs) continue // removed on one side, untouched on the other
    series.push(clone(kept))
  }
  return { value: { ...clone(prefer === 'ours' ? ours : theirs), categories: categories.items, series }, conflicted }
}

function mergeChartData(base: Json, ours: Json, theirs: Json, site: Site, path: PathStep[], c: Collector): Json {
  const whole = merge3(base, ours, theirs)
  if (whole) return whole.value
  if (!isChartData(ours) || !isChartData(theirs) || (base !== undefined && !isChartData(base))) return mergeLeaf(base, ours, theirs, site, path, c)
  const first = mergeChartOnce(base as ChartData | undefined, ours, theirs, 'ours')
  if (!first.conflicted) return first.value
  return record(site, path, c, base, first.value, mergeChartOnce(base as ChartData | undefined, ours, theirs, 'theirs').value)
}

/** List items: a sequence; where both sides edited the same items (as many on every side), item by item. */
function mergeItemsOnce(base: Json[], ours: Json[], theirs: Json[], prefer: Prefer): Outcome {
  const merged = mergeSequence(base, ours, theirs, prefer, (b, o, t, p) => {
    if (o.length !== b.length || t.length !== b.length) return null
    let conflicted = false
    const items = b.map((item, i) => {
      if (!isObject(item) || !isObject(o[i]) || !isObject(t[i])) return null
      const text = mergeText(item.text, o[i].text, t[i].text, p)
      const level = merge3(item.level, o[i].level, t[i].level)
      conflicted ||= text.conflicted || !level
      return canonicalize({ ...clone(p === 'ours' ? o[i] : t[i]), text: text.value, level: level ? level.value : clone(p === 'ours' ? o[i].level : t[i].level) })
    })
    if (items.some((i) => i === null)) return null
    return { items: items as Json[], conflicted }
  })
  return { value: merged.items, conflicted: merged.conflicted }
}

function mergeItems(base: Json, ours: Json, theirs: Json, site: Site, path: PathStep[], c: Collector): Json {
  const whole = merge3(base, ours, theirs)
  if (whole) return whole.value
  if (!Array.isArray(ours) || !Array.isArray(theirs) || (base !== undefined && !Array.isArray(base))) return mergeLeaf(base, ours, theirs, site, path, c)
  const b = (base as Json[] | undefined) ?? []
  const first = mergeItemsOnce(b, ours, theirs, 'ours')
  if (!first.conflicted) return first.value
  return record(site, path, c, base, first.value, mergeItemsOnce(b, ours, theirs, 'theirs').value)
}

// ------------------------------------------------------------------------------------- objects

function record(site: Site, path: PathStep[], c: Collector, base: Json, ours: Json, theirs: Json): Json {
  c.add({
    id: `${c.deck}:${site.idBase}/${idPath(path)}`,
    file: site.file,
    kind: 'value',
    path: [...site.root, ...path],
    ...(base === undefined ? {} : { base: clone(base) }),
    ...(ours === undefined ? {} : { ours: clone(ours) }),
    ...(theirs === undefined ? {} : { theirs: clone(theirs) }),
    where: `${site.words} ${pathWords(path)}`.trim(),
  })
  return clone(ours)
}

/** One value: the side that changed it, or a conflict (ours kept). */
function mergeLeaf(base: Json, ours: Json, theirs: Json, site: Site, path: PathStep[], c: Collector): Json {
  const whole = merge3(base, ours, theirs)
  if (whole) return whole.value
  return record(site, path, c, base, ours, theirs)
}

/** A member: by its kind of content. */
function mergeMember(name: string, base: Json, ours: Json, theirs: Json, site: Site, path: PathStep[], c: Collector, kind?: string): Json {
  if (kind !== 'manifest' && path.length === 1 && TEXT_FIELDS.has(name) && (typeof ours === 'string' || typeof theirs === 'string')) {
    const markup = name !== 'notes'
    const first = mergeText(base, ours, theirs, 'ours', markup)
    if (!first.conflicted) return first.value
    return record(site, path, c, base, first.value, mergeText(base, ours, theirs, 'theirs', markup).value)
  }
  if (name === 'rows' && kind === 'table') return mergeRows(base, ours, theirs, site, path, c)
  if (name === 'items' && kind === 'list') return mergeItems(base, ours, theirs, site, path, c)
  if (name === 'data' && kind === 'chart') return mergeChartData(base, ours, theirs, site, path, c)
  if (!ATOMIC.has(name) && isObject(ours) && isObject(theirs) && (base === undefined || isObject(base))) {
    return mergeObject((base as Record<string, Json> | undefined) ?? {}, ours, theirs, site, path, c)
  }
  return mergeLeaf(base, ours, theirs, site, path, c)
}

function mergeObject(base: Record<string, Json>, ours: Record<string, Json>, theirs: Record<string, Json>, site: Site, path: PathStep[], c: Collector, skip: Set<string> = new Set(), kind?: string): Record<string, Json> {
  const out: Record<string, Json> = Object.create(null)
  const names = [...new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])].filter((n) => !skip.has(n))
  for (const name of names) {
    const value = mergeMember(name, own(base, name), own(ours, name), own(theirs, name), site, [...path, name], c, kind)
    if (value !== undefined) out[name] = value
  }
  return { ...out }
}

// ------------------------------------------------------------------------------------- placement

interface Container {
  id: string
  items: string[]
}

/**
 * Whether each element of `side` moved against `base`: changed container, or left the longest run
 * kept in order. Where several runs are as long (two neighbours swapped: either one moved), the run
 * keeping the most `stayed` elements wins, so a move the other side made is not blamed on this one.
 */
function movedSet(base: Container[], side: Container[], stayed?: Set<string>): Set<string> {
  const where = (containers: Container[]) => new Map(containers.flatMap((c) => c.items.map((id) => [id, c.id] as const)))
  const inBase = where(base)
  const inSide = where(side)
  const moved = new Set<string>()
  for (const [id, container] of inSide) if (inBase.has(id) && inBase.get(id) !== container) moved.add(id)
  for (const container of side) {
    const old = base.find((b) => b.id === container.id)
    if (!old) continue
    const stays = (id: string) => inBase.get(id) === container.id && inSide.get(id) === container.id
    const a = old.items.filter(stays)
    const b = container.items.filter(stays)
    const match = lcsMatch(a, b, stayed)
    const kept = new Set(a.filter((_, i) => match[i] >= 0))
    for (const id of b) if (!kept.has(id)) moved.add(id)
  }
  return moved
}

/**
 * What a side's edits rest on, for the other side's tie-breaks: the elements it moved, and the
 * element before each one it moved or added (its anchor).
 */
function settled(base: Container[], side: Container[]): Set<string> {
  const moved = movedSet(base, side)
  const inBase = new Set(base.flatMap((c) => c.items))
  const out = new Set(moved)
  for (const container of side) {
    container.items.forEach((id, i) => {
      if (i > 0 && (moved.has(id) || !inBase.has(id))) out.add(container.items[i - 1])
    })
  }
  return out
}

/** Where an element sits: its container and the element before it among `present`. */
function placeOf(containers: Container[], id: string, present: (id: string) => boolean): { section: string; after: string | null } | null {
  for (const container of containers) {
    const at = container.items.indexOf(id)
    if (at < 0) continue
    let after: string | null = null
    for (let i = at - 1; i >= 0; i--) if (present(container.items[i])) {
      after = container.items[i]
      break
    }
    return { section: container.id, after }
  }
  return null
}

interface PlacementConflict {
  id: string
  ours: { section: string; after: string | null }
  theirs: { section: string; after: string | null }
}

/**
 * The merged order of elements in containers (slides in sections; one container for a plain list).
 * `keep` is the set of elements in the result; `order` the result's containers in order. Returns the
 * containers and the elements both sides moved to different places (ours' place kept).
 */
function mergePlacement(base: Container[], ours: Container[], theirs: Container[], keep: Set<string>, order: string[]): { containers: Container[]; conflicts: PlacementConflict[] } {
  const movedOurs = movedSet(base, ours, settled(base, theirs))
  const movedTheirs = movedSet(base, theirs, settled(base, ours))
  const inOurs = new Set(ours.flatMap((c) => c.items))
  const inTheirs = new Set(theirs.flatMap((c) => c.items))
  const inBase = new Set(base.flatMap((c) => c.items))
  const result = order.map((id) => ({ id, items: (ours.find((c) => c.id === id)?.items ?? []).filter((x) => keep.has(x)) }))
  const conflicts: PlacementConflict[] = []
  const theirsPlaced = new Set<string>()
  for (const container of theirs) {
    for (const id of container.items) {
      if (!keep.has(id)) continue
      if (!inOurs.has(id)) theirsPlaced.add(id)
      else if (movedTheirs.has(id) && !movedOurs.has(id)) theirsPlaced.add(id)
      else if (movedTheirs.has(id) && movedOurs.has(id) && inBase.has(id)) {
        const present = (x: string) => keep.has(x) && x !== id
        const o = placeOf(ours, id, present)!
        const t = placeOf(theirs, id, present)!
        if (o.section !== t.section || o.after !== t.after) conflicts.push({ id, ours: o, theirs: t })
      }
    }
  }
  // Elements ours kept in a container the result has not (theirs removed it): treated as theirs-placed when theirs has them.
  const placed = new Set(result.flatMap((c) => c.items))
  for (const container of ours) for (const id of container.items) if (keep.has(id) && !placed.has(id)) theirsPlaced.add(id)
  for (const container of theirs) {
    const target = result.find((c) => c.id === container.id)
    container.items.forEach((id, index) => {
      if (!theirsPlaced.has(id)) return
      for (const c of result) {
        const at = c.items.indexOf(id)
        if (at >= 0) c.items.splice(at, 1)
      }
      const into = target ?? result[result.length - 1]
      if (!into) return
      let at = 0
      for (let i = index - 1; i >= 0; i--) {
        const found = into.items.indexOf(container.items[i])
        if (found >= 0) {
          at = found + 1
          break
        }
      }
      // Past what ours put after the same element (its additions, its moves): ours' first.
      while (at < into.items.length && !theirsPlaced.has(into.items[at]) && (movedOurs.has(into.items[at]) || (!inTheirs.has(into.items[at]) && !inBase.has(into.items[at])))) at++
      into.items.splice(at, 0, id)
    })
  }
  // Anything kept that neither side placed into a container of the result (ours' container gone, theirs never had it): last container.
  const final = new Set(result.flatMap((c) => c.items))
  for (const container of ours) for (const id of container.items) if (keep.has(id) && !final.has(id) && result.length) result[result.length - 1].items.push(id)
  return { containers: result, conflicts }
}

/** A plain list of unique ids (section ids, series names) merged by placement: removals from either side, additions from both. */
function mergeIdList(base: string[], ours: string[], theirs: string[], keep?: Set<string>): string[] {
  const b = new Set(base)
  const o = new Set(ours)
  const t = new Set(theirs)
  const kept = keep ?? new Set([...ours, ...theirs].filter((id) => !b.has(id) || (o.has(id) && t.has(id))))
  return mergePlacement([{ id: '', items: base }], [{ id: '', items: ours }], [{ id: '', items: theirs }], kept, ['']).containers[0].items
}

// ------------------------------------------------------------------------------------- slides and blocks

/** Ids of blocks that connectors and links of `blocks` name, renamed. */
function renameRefs(block: Block, from: string, to: string): void {
  for (const end of ['start', 'end'] as const) {
    const attachment = block[end] as { block?: string } | undefined
    if (attachment && attachment.block === from) attachment.block = to
  }
}

function freshId(base: string, used: Set<string>): string {
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** A slide's blocks merged: membership by id, content field by field, order and stacking by placement. */
function mergeBlocks(base: Block[] | undefined, ours: Block[] | undefined, theirs: Block[] | undefined, site: Site, c: Collector): Block[] | undefined {
  if (same(ours, theirs)) return clone(ours)
  if (same(base, ours)) return clone(theirs)
  if (same(base, theirs)) return clone(ours)
  const b = new Map((base ?? []).map((x) => [x.id, x]))
  const o = new Map((ours ?? []).map((x) => [x.id, x]))
  const t = new Map((theirs ?? []).map((x) => [x.id, x]))
  const theirsList = (theirs ?? []).map((x) => clone(x))
  // Both sides added a block under one id, with different content: theirs' takes a fresh id.
  const used = new Set([...b.keys(), ...o.keys(), ...t.keys()])
  for (const block of theirsList) {
    const mine = o.get(block.id)
    if (!mine || b.has(block.id) || same(mine, t.get(block.id))) continue
    const to = freshId(block.id, used)
    used.add(to)
    const from = block.id
    for (const other of theirsList) if (!b.has(other.id) && !o.has(other.id)) renameRefs(other, from, to)
    block.id = to
    c.notes.push(`${site.words}: both sides added a block "${from}"; theirs is kept as "${to}".`)
  }
  const tt = new Map(theirsList.map((x) => [x.id, x]))
  const keep = new Set<string>()
  const content = new Map<string, Block>()
  for (const id of new Set([...o.keys(), ...tt.keys(), ...b.keys()])) {
    const [bb, ob, tb] = [b.get(id), o.get(id), tt.get(id)]
    const blockSite: Site = { file: site.file, root: [...site.root, 'blocks', { id }], idBase: `${site.idBase}#${id}`, words: `${site.words}, block ${id}` }
    if (ob && tb) {
      keep.add(id)
      content.set(id, mergeBlock(bb, ob, tb, blockSite, c))
    } else if (ob || tb) {
      const kept = (ob ?? tb)!
      if (!bb) {
        keep.add(id)
        content.set(id, clone(kept))
      } else if (!same(bb, kept)) {
        keep.add(id)
        content.set(id, clone(kept))
        c.add({
          id: `${c.deck}:${blockSite.idBase}`,
          file: site.file,
          kind: 'block',
          path: blockSite.root,
          base: clone(bb),
          ...(ob ? { ours: clone(ob) } : {}),
          ...(tb ? { theirs: clone(tb) } : {}),
          where: `${blockSite.words}: ${ob ? 'edited on ours, removed on theirs' : 'removed on ours, edited on theirs'}`,
        })
      }
    }
  }
  const list = (blocks: Block[] | undefined) => [{ id: '', items: (blocks ?? []).map((x) => x.id) }]
  const order = mergePlacement(list(base), list(ours), [{ id: '', items: theirsList.map((x) => x.id) }], keep, ['']).containers[0].items
  const blocks = order.map((id) => content.get(id)!)
  // Stacking on the canvas: the z order merged as a list, then numbered densely.
  const stack = (list: Block[] | undefined) => [{ id: '', items: (list ?? []).filter((x) => typeof x.z === 'number').sort((x, y) => (x.z as number) - (y.z as number)).map((x) => x.id) }]
  const positioned = blocks.filter((x) => typeof x.z === 'number')
  if (positioned.length) {
    const zKeep = new Set(positioned.map((x) => x.id))
    const zOrder = mergePlacement(stack(base), stack(ours), stack(theirsList), zKeep, ['']).containers[0].items
    zOrder.forEach((id, z) => (content.get(id)!.z = z))
  }
  return blocks
}

function mergeBlock(base: Block | undefined, ours: Block, theirs: Block, site: Site, c: Collector): Block {
  if (ours.kind !== theirs.kind || (base && base.kind !== ours.kind)) {
    const whole = merge3(base, ours, theirs)
    if (whole) return whole.value as Block
    c.add({ id: `${c.deck}:${site.idBase}`, file: site.file, kind: 'block', path: site.root, ...(base ? { base: clone(base) } : {}), ours: clone(ours), theirs: clone(theirs), where: `${site.words}: replaced differently on both sides` })
    return clone(ours)
  }
  const merged = mergeObject((base ?? {}) as Record<string, Json>, ours, theirs, site, [], c, new Set(['id', 'z']), ours.kind) as Block
  return { ...merged, id: ours.id, ...(typeof ours.z === 'number' || typeof theirs.z === 'number' ? { z: (ours.z ?? theirs.z) as number } : {}) }
}

/** One slide's documents merged (base null: both sides added it under one id). */
export function mergeSlide(base: Slide | null, ours: Slide, theirs: Slide, site: Site, c: Collector): Slide {
  const merged = mergeObject((base ?? {}) as Record<string, Json>, ours, theirs, site, [], c, new Set(['id', 'blocks'])) as Slide
  const blocks = mergeBlocks(base?.blocks, ours.blocks, theirs.blocks, site, c)
  return canonicalize({ ...merged, id: ours.id, ...(blocks ? { blocks } : {}) })
}

function slideSite(id: string, c: Collector): Site {
  return { file: `slides/${id}.json`, root: ['slides', id], idBase: `slide/${id}`, words: c.slideName(id) }
}

// ------------------------------------------------------------------------------------- manifest and versions

/**
 * The named-version log, merged like slides with the version number as the id: a version added on
 * one side is kept; removed on one side and untouched on the other, removed; removed on one side and
 * edited on the other, kept (edited) with a conflict; changed on both sides, the same change once, a
 * different one a conflict (ours kept). Versions both sides added under one number with different
 * content keep ours' number; theirs' new versions are numbered after ours', oldest first.
 */
function versionsMerged(base: Version[], ours: Version[], theirs: Version[], c: Collector): Version[] {
  const byN = (list: Version[]) => new Map(list.map((v) => [v.n, v]))
  const [b, o, t] = [byN(base), byN(ours), byN(theirs)]
  const kept: Version[] = []
  const added: Version[] = []
  const disputed: { n: number; base?: Version; ours?: Version; theirs?: Version; why: string }[] = []
  for (const n of new Set([...o.keys(), ...t.keys()])) {
    const [bv, ov, tv] = [b.get(n), o.get(n), t.get(n)]
    if (ov && tv) {
      if (!bv && !same(ov, tv)) {
        kept.push(clone(ov))
        added.push(tv)
        continue
      }
      const one = merge3(bv, ov, tv)
      kept.push(clone(one ? (one.value as Version) : ov))
      if (!one) disputed.push({ n, base: bv, ours: ov, theirs: tv, why: 'changed differently on both sides' })
      continue
    }
    const side = (ov ?? tv)!
    if (!bv) {
      if (ov) kept.push(clone(ov))
      else added.push(side)
    } else if (!same(bv, side)) {
      kept.push(clone(side))
      disputed.push({ n, base: bv, ...(ov ? { ours: ov } : { theirs: tv }), why: ov ? 'edited on ours, removed on theirs' : 'removed on ours, edited on theirs' })
    }
  }
  kept.sort((x, y) => x.n - y.n)
  let n = Math.max(0, ...kept.map((v) => v.n))
  const oldestFirst = added.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : x.n - y.n))
  const out = [...kept, ...oldestFirst.map((v) => ({ ...clone(v), n: ++n }))]
  for (const d of disputed) {
    c.add({
      id: `${c.deck}:versions/${d.n}`,
      file: 'versions.json',
      kind: 'value',
      path: ['versions', out.findIndex((v) => v.n === d.n)],
      ...(d.base ? { base: clone(d.base) } : {}),
      ...(d.ours ? { ours: clone(d.ours) } : {}),
      ...(d.theirs ? { theirs: clone(d.theirs) } : {}),
      where: `Named version ${d.n}: ${d.why}`,
    })
  }
  return out
}

/** The named-version log merged on its own (versions.json without the rest of its deck): see versionsMerged. */
export function mergeVersions(base: Version[], ours: Version[], theirs: Version[], deck = '', folder = `decks/${deck}`): { versions: Version[]; conflicts: Conflict[] } {
  const c = new Collector(deck, folder, { base: null, ours: { manifest: { id: deck } as Manifest, slides: {}, versions: ours }, theirs: { manifest: { id: deck } as Manifest, slides: {}, versions: theirs } })
  return { versions: versionsMerged(base, ours, theirs, c), conflicts: c.conflicts }
}

const GUIDE_AXES = ['vertical', 'horizontal'] as const

function mergeSet(base: number[] = [], ours: number[] = [], theirs: number[] = []): number[] {
  const b = new Set(base)
  const o = new Set(ours)
  const t = new Set(theirs)
  const out = new Set<number>()
  for (const x of [...o, ...t]) if (!b.has(x) || (o.has(x) && t.has(x))) out.add(x)
  return [...out].sort((x, y) => x - y)
}

// ------------------------------------------------------------------------------------- the deck

function sectionsOf(manifest: Manifest, rename: Map<string, string> = new Map()): Container[] {
  return manifest.sections.map((s) => ({ id: s.id, items: s.slides.map((id) => rename.get(id) ?? id) }))
}

/**
 * The merge of a deck's three states (base null: the deck was added on both sides; then every
 * slide counts as added on both). See the head of this file for the rules.
 */
export function mergeDecks(base: DeckDoc | null, ours: DeckDoc, theirs: DeckDoc, options: MergeOptions): DeckMerge {
  const deck = ours.manifest.id
  const contents = options.slideContents !== false
  const c = new Collector(deck, options.folder ?? `decks/${deck}`, { base, ours, theirs })
  const b = base ?? { manifest: { ...ours.manifest, sections: [] }, slides: {}, versions: [] }
  const ids = (doc: DeckDoc) => new Set(doc.manifest.sections.flatMap((s) => s.slides))
  const inBase = ids(b)
  const inOurs = ids(ours)
  const inTheirs = ids(theirs)
  const slide = (doc: DeckDoc, id: string) => own(doc.slides, id)

  // Slides both sides added under one id with different content: theirs' gets a fresh id.
  const renamed: { from: string; to: string }[] = []
  const rename = new Map<string, string>()
  const theirsSlides: Record<string, Slide> = Object.create(null)
  for (const [id, s] of Object.entries(theirs.slides)) theirsSlides[id] = s
  const used = new Set([...inBase, ...inOurs, ...inTheirs, ...Object.keys(ours.slides), ...Object.keys(theirs.slides)])
  if (contents) {
    for (const id of inTheirs) {
      if (inBase.has(id) || !inOurs.has(id)) continue
      const mine = slide(ours, id)
      const yours = slide(theirs, id)
      if (!mine || !yours || same(mine, yours)) continue
      const layout = typeof yours.layout === 'string' ? yours.layout : 'slide'
      let n = 1
      while (used.has(`${layout}-${n}`)) n++
      const to = `${layout}-${n}`
      used.add(to)
      rename.set(id, to)
      renamed.push({ from: id, to })
      theirsSlides[to] = { ...clone(yours), id: to }
      delete theirsSlides[id]
      c.notes.push(`Both sides added a slide "${id}"; theirs is kept as "${to}".`)
    }
    for (const [from, to] of rename) {
      // Links to the renamed slide from slides only theirs has.
      for (const [id, s] of Object.entries(theirsSlides)) {
        if (inOurs.has(id) && !rename.has(id) && id !== to) continue
        for (const block of s.blocks ?? []) {
          const link = block.link as { slide?: string } | undefined
          if (link?.slide === from) block.link = { slide: to }
        }
      }
    }
  }
  const inTheirsR = new Set([...inTheirs].map((id) => rename.get(id) ?? id))
  const edited = (doc: DeckDoc, id: string) => contents && !same(slide(doc, id), slide(b, id))

  const keep = new Set<string>()
  const slides: Record<string, Slide> = {}
  for (const id of new Set([...inOurs, ...inTheirsR, ...inBase])) {
    const o = inOurs.has(id)
    const t = inTheirsR.has(id)
    const was = inBase.has(id)
    if (o && t) {
      keep.add(id)
      if (!contents) continue
      const bs = was ? slide(b, id) ?? null : null
      const os = slide(ours, id)
      const ts = own(theirsSlides, id)
      if (os && ts) slides[id] = mergeSlide(bs, os, ts, slideSite(id, c), c)
      else if (os ?? ts) slides[id] = clone((os ?? ts)!)
      continue
    }
    if (!o && !t) continue
    const side = o ? ours : theirs
    if (!was) {
      keep.add(id)
      const s = o ? slide(ours, id) : own(theirsSlides, id)
      if (s) slides[id] = clone(s)
      continue
    }
    if (!edited(side, id)) continue // removed on one side, untouched on the other
    keep.add(id)
    const s = slide(side, id)!
    slides[id] = clone(s)
    c.add({
      id: `${deck}:slide/${id}`,
      file: 'deck.json',
      kind: 'slide',
      path: ['slides', id],
      base: clone(slide(b, id)),
      ...(o ? { ours: clone(s) } : { theirs: clone(s) }),
      where: `${c.slideName(id)}: ${o ? 'edited on ours, removed on theirs' : 'removed on ours, edited on theirs'}`,
    })
  }

  // Sections: membership, titles, order; then the slides in them.
  const manifestSite: Site = { file: 'deck.json', root: ['manifest'], idBase: 'deck', words: 'Deck' }
  const sec = (m: Manifest) => new Map(m.sections.map((s) => [s.id, s]))
  const [bs, os, ts] = [sec(b.manifest), sec(ours.manifest), sec(theirs.manifest)]
  const sectionKeep = new Set<string>()
  for (const id of new Set([...os.keys(), ...ts.keys()])) {
    const [x, y, z] = [bs.get(id), os.get(id), ts.get(id)]
    if (y && z) sectionKeep.add(id)
    else if (!x) sectionKeep.add(id)
    else if (!same((y ?? z)!.title, x.title)) {
      sectionKeep.add(id)
      c.notes.push(`Section '${(y ?? z)!.title}' was removed on ${y ? 'theirs' : 'ours'} and renamed on ${y ? 'ours' : 'theirs'}; it is kept.`)
    }
  }
  const placement = (m: Manifest, rn?: Map<string, string>) => sectionsOf(m, rn)
  // A section one side removed still holds what the other side put in it: kept.
  const theirsC = placement(theirs.manifest, rename)
  const oursC = placement(ours.manifest)
  for (const container of [...oursC, ...theirsC]) {
    if (sectionKeep.has(container.id)) continue
    const fresh = container.items.filter((id) => keep.has(id) && !inBase.has(id))
    if (fresh.length) {
      sectionKeep.add(container.id)
      c.notes.push(`Section '${(os.get(container.id) ?? ts.get(container.id))!.title}' was removed on one side and given slides on the other; it is kept.`)
    }
  }
  const sectionOrder = mergeIdList(b.manifest.sections.map((s) => s.id), ours.manifest.sections.map((s) => s.id), theirs.manifest.sections.map((s) => s.id), sectionKeep)
  const placed = mergePlacement(placement(b.manifest), oursC, theirsC, keep, sectionOrder)
  for (const conflict of placed.conflicts) {
    c.add({
      id: `${deck}:slide/${conflict.id}/place`,
      file: 'deck.json',
      kind: 'place',
      path: ['slides', conflict.id],
      ours: conflict.ours,
      theirs: conflict.theirs,
      where: `${c.slideName(conflict.id)}: moved on both sides, to different places`,
    })
  }
  const sections: Section[] = placed.containers.map((container) => {
    const [x, y, z] = [bs.get(container.id), os.get(container.id), ts.get(container.id)]
    let title = (y ?? z)!.title
    const titles = y && z ? merge3(x?.title, y.title, z.title) : null
    if (y && z && titles) title = titles.value as string
    else if (y && z) {
      c.add({
        id: `${deck}:deck/sections/${container.id}/title`,
        file: 'deck.json',
        kind: 'value',
        path: ['manifest', 'sections', { id: container.id }, 'title'],
        ...(x ? { base: x.title } : {}),
        ours: y.title,
        theirs: z.title,
        where: `Section '${x?.title ?? y.title}' (${container.id}) title`,
      })
      title = y.title
    }
    return { ...clone((y ?? z)!), id: container.id, title, slides: container.items }
  })

  // The manifest's other members.
  const skip = new Set(['id', 'sections', 'revision', 'stamps', 'guides'])
  const rest = mergeObject(b.manifest as unknown as Record<string, Json>, ours.manifest as unknown as Record<string, Json>, theirs.manifest as unknown as Record<string, Json>, manifestSite, [], c, skip, 'manifest')
  const guides: Record<string, number[]> = {}
  for (const axis of GUIDE_AXES) {
    const merged = mergeSet(b.manifest.guides?.[axis], ours.manifest.guides?.[axis], theirs.manifest.guides?.[axis])
    if (merged.length) guides[axis] = merged
  }
  const created = [base?.manifest.stamps?.createdAt, ours.manifest.stamps?.createdAt, theirs.manifest.stamps?.createdAt].filter((s): s is string => typeof s === 'string').sort()[0] ?? options.now
  const manifest = canonicalize({
    ...(rest as unknown as Manifest),
    id: ours.manifest.id,
    ...(Object.keys(guides).length ? { guides } : {}),
    sections,
    revision: Math.max(ours.manifest.revision, theirs.manifest.revision) + 1,
    stamps: { createdAt: created, updatedAt: options.now },
  }) as Manifest
  if (!Object.keys(guides).length) delete manifest.guides

  const versions = versionsMerged(b.versions, ours.versions, theirs.versions, c)
  const doc: DeckDoc = { manifest, slides: contents ? slides : {}, versions }
  // One order however the files were visited: the manifest's first, then the slides' in deck order.
  const position = new Map(sections.flatMap((s) => s.slides).map((id, i) => [id, i]))
  const rank = (x: Conflict) => (x.file === 'deck.json' ? -1 : (position.get(String(x.path[1])) ?? Number.MAX_SAFE_INTEGER))
  const conflicts = c.conflicts.map((x, i) => ({ x, i })).sort((p, q) => rank(p.x) - rank(q.x) || p.i - q.i).map(({ x }) => x)
  return { doc, conflicts, renamed, notes: c.notes }
}

/** A slide file merged on its own (the other files of the deck unknown); base null: added on both sides. */
export function mergeSlideAlone(base: Slide | null, ours: Slide, theirs: Slide, deck: string, folder = `decks/${deck}`): { slide: Slide; conflicts: Conflict[]; notes: string[] } {
  const sides: Sides = { base: null, ours: { manifest: { id: deck } as Manifest, slides: { [ours.id]: ours }, versions: [] }, theirs: { manifest: { id: deck } as Manifest, slides: { [theirs.id]: theirs }, versions: [] } }
  const c = new Collector(deck, folder, sides)
  const site = slideSite(ours.id, c)
  if (!base && !same(ours, theirs)) {
    // Both sides added this slide id; without the deck's other files it cannot be renamed.
    c.add({ id: `${deck}:${site.idBase}`, file: site.file, kind: 'whole', path: site.root, ours: clone(ours), theirs: clone(theirs), where: `${site.words}: added on both sides with different content` })
    return { slide: clone(ours), conflicts: c.conflicts, notes: c.notes }
  }
  return { slide: mergeSlide(base, ours, theirs, site, c), conflicts: c.conflicts, notes: c.notes }
}

/** The value at a path of a document; undefined where it is absent. */
export function valueAt(doc: DeckDoc, path: PathStep[]): unknown {
  let node: unknown = doc
  for (const step of path) {
    if (node === undefined || node === null) return undefined
    if (typeof step === 'object') node = Array.isArray(node) ? node.find((x) => isObject(x) && x.id === step.id) : undefined
    else if (typeof step === 'number') node = Array.isArray(node) ? node[step] : undefined
    else node = isObject(node) && has(node, step) ? node[step] : undefined
  }
  return node
}

/** Sets (or, with undefined, removes) the value at a path; false when the path's parent is absent. */
export function setAt(doc: DeckDoc, path: PathStep[], value: unknown): boolean {
  const parent = valueAt(doc, path.slice(0, -1))
  const last = path[path.length - 1]
  if (Array.isArray(parent)) {
    const index = typeof last === 'number' ? last : typeof last === 'object' ? parent.findIndex((x) => isObject(x) && x.id === last.id) : -1
    if (value === undefined) {
      if (index >= 0) parent.splice(index, 1)
      return true
    }
    if (index >= 0) parent[index] = clone(value)
    else if (typeof last === 'object') parent.push(clone(value))
    else return false
    return true
  }
  if (!isObject(parent) || typeof last !== 'string') return false
  if (value === undefined) delete parent[last]
  else parent[last] = clone(value)
  return true
}

/** A value in a sentence: Texts quoted as plain text, absent as "removed", others as short JSON. */
export function describe(value: unknown, kind: ConflictKind): string {
  if (value === undefined) return kind === 'slide' || kind === 'block' ? 'removed' : 'absent'
  if (kind === 'slide' || kind === 'block') return 'kept, edited'
  if (kind === 'whole' || kind === 'refused') return 'its own version'
  if (kind === 'place') {
    const place = value as { section: string; after: string | null }
    return place.after ? `in section ${place.section} after ${place.after}` : `first in section ${place.section}`
  }
  if (typeof value === 'string') return quote(plain(value) || value)
  const json = JSON.stringify(value)
  return json.length > 80 ? `${json.slice(0, 77)}...` : json
}
