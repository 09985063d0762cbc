/**
 * The logo catalogue at run time: the index loaded once per process, search, the SVG of a mark's
 * variant, and the appearance rule that picks a variant for a deck.
 *
 * Which index answers: the workspace's refreshed index (`.studio/cache/logos/index.json`, written by
 * logo.refresh) when there is one, else the one built with the package (dist/logos/index.json; built
 * in process from the installed packages when running from source without a build). Each file is read
 * once per process; `since` (a refresh's builtAt) re-reads the cache when the index in memory is older.
 *
 * Ranking (docs/media.md#logos): every mark is matched on its title, slug, aliases and categories,
 * lower-cased with accents folded. A match is a prefix (a field starts with the query, or the slug with
 * the query's letters and digits), else a word start (the query starts a word inside a field: after a
 * space or punctuation, or at a capital inside a title, so "hub" starts a word of GitHub), else a
 * substring. Marks sort by that tier, then brands before community (before cloud icons and auth
 * badges), then an exact match first, then prominence (the mark is in both catalogues, has a wordmark,
 * has brand guidelines), then the shorter title, then the title.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, normalize } from 'node:path'
import { packageRoot, type Workspace } from '../store/workspace.js'
import {
  buildPackageIndex,
  CATALOGUE_ADDRESS,
  COLLECTION_NAMES,
  contrast,
  coverage,
  iconifySvg,
  isLightGround,
  READS_CONTRAST,
  readsOnPixels,
  simpleIconSvg,
  SYMBOL_VARIANTS,
  VARIANTS,
  WORDMARK_VARIANTS,
  type CollectionName,
  type IndexMark,
  type LogoIndex,
  type Variant,
} from './logo-index.js'

export { VARIANTS, type Variant } from './logo-index.js'

export const builtInIndexFile = () => join(packageRoot(), 'dist', 'logos', 'index.json')
export const cacheDir = (ws: Workspace) => join(ws.stateDir, 'cache', 'logos')
export const cacheIndexFile = (ws: Workspace) => join(cacheDir(ws), 'index.json')
export const cacheStateFile = (ws: Workspace) => join(cacheDir(ws), 'state.json')

/** What the refresh remembers between runs (`.studio/cache/logos/state.json`). */
export interface RefreshState {
  /** The last upstream failure: when, and one sentence. */
  lastFailure: { at: string; message: string } | null
  /** How far the last refresh got. */
  progress: { done: number; total: number }
  lastRefreshAt?: string
}

interface Field {
  text: string
  /** Where words start in `text`. */
  starts: number[]
}

interface Prepared {
  mark: IndexMark
  fields: Field[]
  slug: string
  title: string
  symbol: boolean
  wordmark: boolean
}

export interface LoadedIndex {
  index: LogoIndex
  /** Where it was read from: `cache` (a refresh in this workspace) or `built-in`. */
  origin: 'cache' | 'built-in'
  file: string | null
  prepared: Prepared[]
  bySlug: Map<string, IndexMark>
}

const fold = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
const compact = (text: string) => text.replace(/[^a-z0-9]/g, '')

/** The field as matched, with its word starts (after a non-letter-or-digit, and at a capital after a small letter). */
function field(original: string): Field {
  const text = fold(original)
  const starts: number[] = []
  // Folding can change length (ligatures): word starts are found on the folded text, capitals on the original when lengths agree.
  const sameLength = text.length === original.length
  for (let i = 0; i < text.length; i++) {
    const here = /[\p{L}\p{N}]/u.test(text[i])
    if (!here) continue
    if (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1])) starts.push(i)
    else if (sameLength && /\p{Lu}/u.test(original[i]) && /\p{Ll}/u.test(original[i - 1])) starts.push(i)
  }
  return { text, starts }
}

function prepare(index: LogoIndex): LoadedIndex['prepared'] {
  return index.marks.map((mark) => {
    const texts = [mark.t, mark.s, ...(mark.a ?? []), ...(mark.k ?? [])]
    const variants = Object.keys(mark.v) as Variant[]
    return {
      mark,
      fields: texts.map(field),
      slug: mark.s,
      title: fold(mark.t),
      symbol: variants.some((v) => SYMBOL_VARIANTS.includes(v)),
      wordmark: variants.some((v) => WORDMARK_VARIANTS.includes(v)),
    }
  })
}

/** An index ready to search (its fields folded and word starts found once). */
export function loaded(index: LogoIndex, origin: LoadedIndex['origin'] = 'built-in', file: string | null = null): LoadedIndex {
  return { index, origin, file, prepared: prepare(index), bySlug: new Map(index.marks.map((m) => [m.s, m])) }
}

let builtIn: LoadedIndex | undefined
const caches = new Map<string, { loaded: LoadedIndex; mtimeMs: number }>()

/** The index built with the package (read once), or built now from the packages when running from source. */
export async function builtInIndex(): Promise<LoadedIndex> {
  if (builtIn) return builtIn
  const file = builtInIndexFile()
  if (existsSync(file)) builtIn = loaded(JSON.parse(readFileSync(file, 'utf8')) as LogoIndex, 'built-in', file)
  else builtIn = loaded(await buildPackageIndex(), 'built-in', null)
  return builtIn
}

/** Reads the workspace's refreshed index (once per file version), or null when there is none. */
function cachedIndex(ws: Workspace, reread: boolean): LoadedIndex | null {
  const file = cacheIndexFile(ws)
  const known = caches.get(file)
  if (known && !reread) return known.loaded
  if (!existsSync(file)) return null
  const mtimeMs = statSync(file).mtimeMs
  if (known && known.mtimeMs === mtimeMs) return known.loaded
  try {
    const next = loaded(JSON.parse(readFileSync(file, 'utf8')) as LogoIndex, 'cache', file)
    caches.set(file, { loaded: next, mtimeMs })
    return next
  } catch {
    return null
  }
}

/** Forgets what this process read (after a refresh wrote a new index). */
export function forgetIndex(ws?: Workspace): void {
  if (ws) caches.delete(cacheIndexFile(ws))
  else caches.clear()
}

/**
 * The index that answers in a workspace: its refreshed index when it has one, else the built-in one.
 * With `since`, an index in memory older than `since` is read again from the cache.
 */
export async function currentIndex(ws: Workspace | null, options: { since?: string } = {}): Promise<LoadedIndex> {
  if (ws && !ws.embedded) {
    let cached = cachedIndex(ws, false)
    if (options.since !== undefined && (!cached || cached.index.builtAt < options.since)) cached = cachedIndex(ws, true)
    if (cached) return cached
  }
  return builtInIndex()
}

export function refreshState(ws: Workspace | null): RefreshState {
  const empty: RefreshState = { lastFailure: null, progress: { done: 0, total: 0 } }
  if (!ws || ws.embedded) return empty
  try {
    return { ...empty, ...(JSON.parse(readFileSync(cacheStateFile(ws), 'utf8')) as Partial<RefreshState>) }
  } catch {
    return empty
  }
}

export interface SearchOptions {
  limit?: number
  kind?: 'symbol' | 'wordmark'
  collection?: 'brands' | 'all'
}

export interface Ranked {
  mark: IndexMark
  /** 0 prefix, 1 word start, 2 substring. */
  tier: number
  exact: boolean
}

/** Where a mark matches the query: [tier, exact], or null. */
function matchOf(p: Prepared, q: string, qc: string): [number, boolean] | null {
  let tier = 3
  let exact = false
  for (const f of p.fields) {
    if (f.text.startsWith(q)) {
      tier = 0
      if (f.text === q) exact = true
      continue
    }
    if (tier <= 1) continue
    const at = f.text.indexOf(q, 1)
    if (at < 0) continue
    tier = Math.min(tier, f.starts.some((s) => s > 0 && f.text.startsWith(q, s)) ? 1 : 2)
  }
  if (qc && qc !== q) {
    if (p.slug.startsWith(qc)) {
      tier = 0
      if (p.slug === qc) exact = true
    } else if (tier > 2 && p.slug.includes(qc)) tier = 2
  }
  return tier < 3 ? [tier, exact] : null
}

const collectionRank = (c: number) => (c <= 1 ? c : 2)

/**
 * Ranks the marks of an index for a query (see the module comment): at most `limit` (20) marks of the
 * kind and collection asked. Pure: the same index and query give the same list.
 */
export function searchLogos(index: LoadedIndex, query: string, options: SearchOptions = {}): Ranked[] {
  const q = fold(query).trim().replace(/\s+/g, ' ')
  const qc = compact(q)
  if (!q) return []
  const limit = options.limit ?? 20
  const all = options.collection === 'all'
  const hits: (Ranked & { p: Prepared })[] = []
  for (const p of index.prepared) {
    if (!all && p.mark.c > 1) continue
    if (options.kind === 'symbol' && !p.symbol) continue
    if (options.kind === 'wordmark' && !p.wordmark) continue
    const m = matchOf(p, q, qc)
    if (m) hits.push({ mark: p.mark, tier: m[0], exact: m[1], p })
  }
  hits.sort(
    (a, b) =>
      a.tier - b.tier ||
      collectionRank(a.mark.c) - collectionRank(b.mark.c) ||
      Number(b.exact) - Number(a.exact) ||
      b.mark.p - a.mark.p ||
      a.p.title.length - b.p.title.length ||
      (a.p.title < b.p.title ? -1 : a.p.title > b.p.title ? 1 : 0),
  )
  return hits.slice(0, limit).map(({ mark, tier, exact }) => ({ mark, tier, exact }))
}

/**
 * The licence of a mark's drawing, as recorded, with the catalogue's sentence: an SVG Logos drawing
 * carries its set's licence; a Simple Icons path or a refreshed file the mark's own record.
 */
export function licenceOf(index: LogoIndex, mark: IndexMark, variant?: Variant): { recorded: string; sentence: string } {
  const ref = mark.v[variant ?? (mark.v.default ? 'default' : 'wordmark')] ?? ''
  if (ref.startsWith('@') && index.setLicence) return { recorded: index.setLicence.l, sentence: index.sentences[index.setLicence.n] ?? '' }
  return { recorded: mark.l ?? 'not recorded', sentence: index.sentences[mark.n] ?? '' }
}

/** A mark as logo.search answers it. */
export function describeMark(index: LogoIndex, mark: IndexMark) {
  return {
    slug: mark.s,
    name: mark.t,
    collection: COLLECTION_NAMES[mark.c] as CollectionName,
    variants: VARIANTS.filter((v) => mark.v[v] !== undefined),
    licence: licenceOf(index, mark),
    site: mark.w ?? null,
    guidelines: mark.g ?? null,
    readsOn: { paper: (mark.r & 1) === 1, ink: (mark.r & 2) === 2 },
  }
}

/** The catalogue a mark's variant comes from, by name (never an address). */
export function catalogueOf(index: LogoIndex, ref: string): string {
  if (ref === 'S' || ref === 'M') return 'Simple Icons'
  if (ref.startsWith('@')) return 'SVG Logos'
  return index.sources.catalogue ?? 'the refreshed catalogue'
}

/** Whether a string is (or holds) an address of a catalogue itself, which no asset record may carry. */
export function isCatalogueAddress(value: string, _index?: LoadedIndex): boolean {
  return CATALOGUE_ADDRESS.test(value)
}

/**
 * Colours every painted colour of an SVG with `colour` (fills, strokes, gradient stops; a root without
 * a fill gets one), keeping `none`: a one-colour (mono) drawing in the deck's ink.
 */
export function recolour(svg: string, colour: string): string {
  const paint = (value: string) => (/^\s*(none|transparent)\s*$/i.test(value) ? value : colour)
  let out = svg
    .replace(/\b(fill|stroke|stop-color|color)\s*=\s*"([^"]*)"/gi, (_m, name: string, value: string) => `${name}="${paint(value)}"`)
    .replace(/\b(fill|stroke|stop-color|color)\s*=\s*'([^']*)'/gi, (_m, name: string, value: string) => `${name}='${paint(value)}'`)
    .replace(/\b(fill|stroke|stop-color)\s*:\s*([^;"'}]+)/gi, (_m, name: string, value: string) => `${name}:${paint(value)}`)
  out = out.replace(/<svg\b([^>]*)>/i, (whole, attrs: string) => (/\sfill\s*=/.test(attrs) ? whole : `<svg${attrs} fill="${colour}">`))
  return out
}

/**
 * The SVG text of a mark's variant, before sanitizing: from the packages (`S`, `M`, `@name`) or the
 * refresh cache (`f:<file>`). `mono` is the colour a one-colour variant is drawn in.
 */
export function variantSvg(ws: Workspace | null, mark: IndexMark, variant: Variant, mono: string): string | null {
  const ref = mark.v[variant]
  if (!ref) return null
  let svg: string | null
  if (ref === 'S' || ref === 'M') svg = simpleIconSvg(mark.s)
  else if (ref.startsWith('@')) svg = iconifySvg(ref.slice(1))
  else if (ref.startsWith('f:') && ws) {
    const rel = normalize(ref.slice(2))
    if (rel.startsWith('..') || rel.startsWith('/')) return null
    const file = join(cacheDir(ws), rel)
    svg = existsSync(file) ? readFileSync(file, 'utf8') : null
  } else svg = null
  if (svg === null) return null
  if (ref === 'S') return recolour(svg, `#${mark.h ?? '000000'}`)
  if (variant === 'mono') return recolour(svg, mono)
  return svg
}

/** Whether an SVG drawing reads on a ground colour (the index's test, against any ground). */
export async function svgReadsOn(svg: string | Buffer, ground: string): Promise<boolean> {
  try {
    return readsOnPixels(await coverage(svg), ground)
  } catch {
    return false
  }
}

/** The colour a mono variant takes on a ground: the deck's ink when it reads there, else its paper. */
export function monoColour(ground: string, ink: string, paper: string): string {
  return contrast(ink, ground) >= READS_CONTRAST ? ink : paper
}

/**
 * The appearance rule: which variant of a mark to insert on a ground (the deck's paper, or the
 * slide's background) when the caller names none.
 *
 * 1. The mark's own drawing (`default`; `wordmark` for a mark that has no symbol) when it reads on
 *    the ground.
 * 2. Else the variant drawn for that kind of ground: `light` on a light ground, `dark` on a dark one
 *    (`wordmarkLight`, `wordmarkDark` for a wordmark).
 * 3. Else `mono`, drawn in the deck's ink (so it reads by construction).
 * 4. Else the drawing itself, and `reads: false` says it may not stand out.
 */
export async function chooseVariant(mark: IndexMark, ground: string, svgOf: (variant: Variant) => string | null): Promise<{ variant: Variant; reads: boolean }> {
  const symbol = mark.v.default !== undefined
  const base: Variant = symbol ? 'default' : 'wordmark'
  const own = svgOf(base)
  if (own && (await svgReadsOn(own, ground))) return { variant: base, reads: true }
  const light = isLightGround(ground)
  const drawnFor: Variant = symbol ? (light ? 'light' : 'dark') : light ? 'wordmarkLight' : 'wordmarkDark'
  if (mark.v[drawnFor] !== undefined) {
    const alt = svgOf(drawnFor)
    if (alt) return { variant: drawnFor, reads: await svgReadsOn(alt, ground) }
  }
  if (mark.v.mono !== undefined) return { variant: 'mono', reads: true }
  return { variant: base, reads: false }
}
