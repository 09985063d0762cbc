/**
 * logo.refresh: rebuilds the workspace's cached logo index (`.studio/cache/logos/`, git-ignored, never
 * committed) from a catalogue manifest, every fetch through the SSRF guard (src/net/guarded-fetch.ts),
 * within a time budget.
 *
 * The manifest's URL: STUDIO_LOGO_CATALOGUE_URL, else `logos.catalogueUrl` in studio.json. The budget:
 * STUDIO_LOGO_REFRESH_BUDGET_MS, else `logos.refreshBudgetMs`, else 60 s; the manifest and every
 * drawing share it, and a fetch still running when it ends is aborted. The manifest (docs/media.md#refresh):
 *
 *   { "name": "Example marks", "sentence": "…licence sentence…",
 *     "marks": [{ "slug": "acme", "title": "Acme", "aliases": [], "categories": [],
 *                 "collection": "brands" | "community" | "cloud" | "auth",
 *                 "licence": "CC0-1.0", "sentence": "…", "site": "https://…", "guidelines": "https://…",
 *                 "hex": "ff0000", "variants": { "default": "acme.svg", "mono": "acme-mono.svg", … } }] }
 *
 * Variant URLs are resolved against the manifest's URL. Each drawing (1 MiB at most) is sanitized and
 * stored as `svg/<slug>/<variant>.svg`; one answering 404 is marked unavailable; one that fails
 * otherwise, or is not reached within the budget, keeps the file of the previous refresh when there is
 * one. Marks the manifest no longer lists are dropped with their files. The new index is written
 * atomically (temporary file, rename) after the drawings, and `state.json` keeps the last upstream
 * failure, the progress and the counts for `--dry-run` and logo.search.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fail, StudioError } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'
import { CATALOGUE_ADDRESS, canonicalMark, COLLECTION_NAMES, readsBitsOfColour, readsBitsOfSvg, VARIANTS, type IndexMark, type LogoIndex, type Variant } from './logo-index.js'
import { cacheDir, cacheIndexFile, cacheStateFile, forgetIndex, refreshState, type RefreshState } from './logos.js'

export const DEFAULT_BUDGET_MS = 60_000
const MANIFEST_LIMIT = 16 * 1024 * 1024
const DRAWING_LIMIT = 1024 * 1024
const CONCURRENCY = 4
const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/

export interface RefreshCounts {
  added: number
  updated: number
  unavailable: number
  dropped: number
}

export interface RefreshAnswer {
  counts: RefreshCounts
  builtAt: string | null
  lastFailure: string | null
  progress: { done: number; total: number }
}

interface StoredState extends RefreshState {
  counts?: RefreshCounts
}

/** The manifest URL and budget of a workspace: environment first, then studio.json. */
export function refreshSettings(ws: Workspace, env: NodeJS.ProcessEnv = process.env): { url: string | null; budgetMs: number } {
  const config = ws.config().logos ?? {}
  const url = (env.STUDIO_LOGO_CATALOGUE_URL ?? '').trim() || config.catalogueUrl || null
  const fromEnv = Number(env.STUDIO_LOGO_REFRESH_BUDGET_MS)
  const budgetMs = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : config.refreshBudgetMs && config.refreshBudgetMs > 0 ? config.refreshBudgetMs : DEFAULT_BUDGET_MS
  return { url, budgetMs }
}

/** A budget for people: `1.5 s`, `60 s`. */
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`

const failureText = (state: RefreshState) => (state.lastFailure ? `${state.lastFailure.at}: ${state.lastFailure.message}` : null)

function readCachedIndex(ws: Workspace): LogoIndex | null {
  try {
    return JSON.parse(readFileSync(cacheIndexFile(ws), 'utf8')) as LogoIndex
  } catch {
    return null
  }
}

/** What `--dry-run` answers: the last refresh's counts, the index date, the last failure and progress; nothing fetched or written. */
export function dryRun(ws: Workspace): RefreshAnswer {
  const state = refreshState(ws) as StoredState
  return {
    counts: state.counts ?? { added: 0, updated: 0, unavailable: 0, dropped: 0 },
    builtAt: readCachedIndex(ws)?.builtAt ?? null,
    lastFailure: failureText(state),
    progress: state.progress,
  }
}

interface ManifestMark {
  slug: string
  title: string
  aliases: string[]
  categories: string[]
  collection: number
  licence?: string
  sentence: string
  site?: string
  guidelines?: string
  hex?: string
  variants: [Variant, string][]
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200).slice(0, 50) : [])

/** An https or http URL that is not the catalogue's own address, else undefined (never written into a record). */
function brandUrl(value: unknown, catalogue: URL): string | undefined {
  if (typeof value !== 'string') return undefined
  try {
    const url = new URL(value)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    if (url.host === catalogue.host || CATALOGUE_ADDRESS.test(url.href)) return undefined
    return url.href
  } catch {
    return undefined
  }
}

/** The manifest's marks, each checked; entries that are not marks are skipped and counted. */
function parseManifest(text: string, base: URL): { name: string; marks: ManifestMark[]; skipped: number } {
  let doc: { name?: unknown; sentence?: unknown; marks?: unknown }
  try {
    doc = JSON.parse(text)
  } catch {
    throw new StudioError('fetch_failed', `The catalogue manifest at "${base.hostname}" is not JSON.`)
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.marks)) throw new StudioError('fetch_failed', `The catalogue manifest at "${base.hostname}" has no marks list.`)
  const sentence = typeof doc.sentence === 'string' ? doc.sentence.slice(0, 500) : ''
  const marks: ManifestMark[] = []
  const seen = new Set<string>()
  let skipped = 0
  for (const raw of doc.marks as Record<string, unknown>[]) {
    const slug = raw && typeof raw.slug === 'string' ? raw.slug : ''
    const variants = raw && raw.variants && typeof raw.variants === 'object' ? Object.entries(raw.variants as Record<string, unknown>) : []
    const usable = variants.filter((entry): entry is [Variant, string] => (VARIANTS as readonly string[]).includes(entry[0]) && typeof entry[1] === 'string')
    if (!SLUG.test(slug) || seen.has(slug) || typeof raw.title !== 'string' || !raw.title || !usable.length) {
      skipped++
      continue
    }
    seen.add(slug)
    const collection = COLLECTION_NAMES.indexOf(raw.collection as (typeof COLLECTION_NAMES)[number])
    marks.push({
      slug,
      title: raw.title.slice(0, 200),
      aliases: strings(raw.aliases),
      categories: strings(raw.categories),
      collection: collection >= 0 ? collection : 1,
      licence: typeof raw.licence === 'string' ? raw.licence.slice(0, 300) : undefined,
      sentence: typeof raw.sentence === 'string' ? raw.sentence.slice(0, 500) : sentence,
      site: brandUrl(raw.site, base),
      guidelines: brandUrl(raw.guidelines, base),
      hex: typeof raw.hex === 'string' && /^#?[0-9a-fA-F]{6}$/.test(raw.hex) ? raw.hex.replace('#', '').toLowerCase() : undefined,
      variants: usable,
    })
  }
  return { name: typeof doc.name === 'string' ? doc.name.slice(0, 120) : 'the refreshed catalogue', marks, skipped }
}

function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, content)
  renameSync(tmp, file)
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * Rebuilds the cached index from the manifest at `url` within `budgetMs`. Throws fetch_refused or
 * fetch_failed when the manifest cannot be had (the old cache stays, and the failure is remembered).
 */
export async function refreshLogos(
  ws: Workspace,
  options: { url: string; budgetMs: number; onProgress?: (done: number, total: number) => void },
): Promise<RefreshAnswer> {
  const { fetchBytes } = await import('../net/guarded-fetch.js')
  const { sanitizeSvg } = await import('./svg.js')
  const dir = cacheDir(ws)
  const state = refreshState(ws) as StoredState
  const started = Date.now()
  const deadline = started + options.budgetMs
  // The budget aborts every fetch still running when it ends; each fetch's own timeout is set a second
  // later, so a fetch cut by the budget is told from one that failed.
  const budget = new AbortController()
  const timer = setTimeout(() => budget.abort(new Error('budget')), options.budgetMs)
  timer.unref()
  const remember = (message: string) => {
    state.lastFailure = { at: new Date().toISOString(), message }
  }
  const saveState = () => {
    mkdirSync(dir, { recursive: true })
    writeAtomic(cacheStateFile(ws), `${JSON.stringify(state, null, 2)}\n`)
  }
  try {
    let base: URL
    let manifest: ReturnType<typeof parseManifest>
    try {
      base = new URL(options.url)
      const text = (await fetchBytes(options.url, { limit: MANIFEST_LIMIT, timeoutMs: Math.max(1, deadline - Date.now()) + 1000, signal: budget.signal })).toString('utf8')
      manifest = parseManifest(text, base)
    } catch (error) {
      const failure = error instanceof StudioError ? error : new StudioError('fetch_refused', 'The catalogue manifest URL is not a valid absolute URL.')
      const message = budget.signal.aborted ? `The catalogue manifest did not arrive within the budget of ${seconds(options.budgetMs)}.` : failure.message
      remember(message)
      saveState()
      throw budget.signal.aborted ? new StudioError('fetch_failed', message) : failure
    }
    const previous = readCachedIndex(ws)
    const before = new Map((previous?.marks ?? []).map((m) => [m.s, m]))
    const tasks = manifest.marks.flatMap((mark) => mark.variants.map(([variant, ref]) => ({ mark, variant, ref })))
    const total = tasks.length
    let done = 0
    const got = new Map<string, { file: string; digest: string } | 'gone'>()
    const key = (slug: string, variant: Variant) => `${slug}/${variant}`
    let failed: string | null = manifest.skipped ? `${manifest.skipped} entr${manifest.skipped === 1 ? 'y' : 'ies'} of the manifest were not marks and were skipped.` : null
    const queue = [...tasks]
    const worker = async () => {
      for (let task = queue.shift(); task; task = queue.shift()) {
        if (budget.signal.aborted || Date.now() >= deadline) return
        const { mark, variant, ref } = task
        try {
          const url = new URL(ref, base).href
          const bytes = await fetchBytes(url, { limit: DRAWING_LIMIT, timeoutMs: Math.min(20_000, Math.max(1, deadline - Date.now()) + 1000), signal: budget.signal })
          const clean = sanitizeSvg(bytes, { maxBytes: DRAWING_LIMIT }).svg
          const file = `svg/${mark.slug}/${variant}.svg`
          mkdirSync(join(dir, 'svg', mark.slug), { recursive: true })
          writeAtomic(join(dir, file), clean)
          got.set(key(mark.slug, variant), { file, digest: digest(clean) })
        } catch (error) {
          if (budget.signal.aborted) return
          const status = (error as StudioError).extra?.details as { status?: number } | undefined
          if (status?.status === 404) got.set(key(mark.slug, variant), 'gone')
          else failed = `${mark.slug} ${variant}: ${(error as Error).message}`
        }
        done++
        options.onProgress?.(done, total)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    if (done < total) failed = `The budget of ${seconds(options.budgetMs)} ran out after ${done} of ${total} drawings; the rest keep the previous refresh's files where there are any.`

    const sentences: string[] = []
    const sentenceIndex = (text: string) => {
      const at = sentences.indexOf(text)
      return at >= 0 ? at : sentences.push(text) - 1
    }
    const counts: RefreshCounts = { added: 0, updated: 0, unavailable: 0, dropped: 0 }
    const marks: IndexMark[] = []
    for (const m of manifest.marks) {
      const old = before.get(m.slug)
      const v: Partial<Record<Variant, string>> = {}
      const u: Variant[] = []
      const digests: string[] = []
      for (const [variant] of m.variants) {
        const result = got.get(key(m.slug, variant))
        if (result === 'gone') {
          u.push(variant)
          counts.unavailable++
          continue
        }
        if (result) {
          v[variant] = `f:${result.file}`
          digests.push(`${variant}:${result.digest}`)
          continue
        }
        // Not fetched this time (failure or budget): the previous refresh's file, when it has one.
        const kept = old?.v[variant]
        if (kept?.startsWith('f:') && existsSync(join(dir, kept.slice(2)))) {
          v[variant] = kept
          digests.push(`${variant}:${digest(readFileSync(join(dir, kept.slice(2)), 'utf8'))}`)
        }
      }
      if (!Object.keys(v).length) continue
      const shown = v.default ?? v.wordmark ?? Object.values(v)[0]!
      const reads = v.default === undefined && v.wordmark === undefined && m.hex ? readsBitsOfColour(`#${m.hex}`) : await readsBitsOfSvg(readFileSync(join(dir, shown.slice(2))))
      const mark = canonicalMark({
        s: m.slug,
        t: m.title,
        a: m.aliases,
        k: m.categories,
        c: m.collection,
        v,
        h: m.hex,
        r: reads,
        l: m.licence,
        n: sentenceIndex(m.sentence),
        g: m.guidelines,
        w: m.site,
        p: 1 + (v.wordmark || v.wordmarkLight || v.wordmarkDark ? 1 : 0) + (m.guidelines ? 1 : 0),
        u,
        d: digest(digests.sort().join(' ')),
      })
      const same = (a: IndexMark, sentencesA: string[], b: IndexMark, sentencesB: string[]) => JSON.stringify({ ...a, n: sentencesA[a.n] }) === JSON.stringify({ ...b, n: sentencesB[b.n] })
      if (!old) counts.added++
      else if (!same(old, previous?.sentences ?? [], mark, sentences)) counts.updated++
      marks.push(mark)
    }
    const kept = new Set(marks.map((m) => m.s))
    const droppedSlugs = [...before.keys()].filter((slug) => !kept.has(slug))
    counts.dropped = droppedSlugs.length
    const builtAt = new Date().toISOString()
    const index: LogoIndex = { v: 1, builtAt, from: 'manifest', sources: { catalogue: manifest.name }, sentences, marks: marks.sort((a, b) => (a.s < b.s ? -1 : 1)) }
    mkdirSync(dir, { recursive: true })
    writeAtomic(cacheIndexFile(ws), JSON.stringify(index))
    // Dropped marks' files, and drawings of this refresh's marks that no longer have a variant, go.
    for (const slug of droppedSlugs) if (SLUG.test(slug)) rmSync(join(dir, 'svg', slug), { recursive: true, force: true })
    for (const [k, result] of got) if (result === 'gone') rmSync(join(dir, 'svg', `${k}.svg`), { force: true })
    if (failed) remember(failed)
    state.progress = { done, total }
    state.counts = counts
    state.lastRefreshAt = builtAt
    saveState()
    forgetIndex(ws)
    return { counts, builtAt, lastFailure: failureText(state), progress: state.progress }
  } finally {
    clearTimeout(timer)
  }
}

/** The URL and budget of a workspace, or a 400 naming where to set the URL. */
export function requireSettings(ws: Workspace): { url: string; budgetMs: number } {
  const { url, budgetMs } = refreshSettings(ws)
  if (!url) fail('refused', 'No logo catalogue manifest is configured: set STUDIO_LOGO_CATALOGUE_URL, or "logos": { "catalogueUrl": "https://…" } in studio.json (docs/media.md#refresh).')
  return { url: url!, budgetMs }
}
