/**
 * The deck document in memory: the manifest (deck.json) and its slides (slides/<id>.json).
 *
 * Section order in the manifest is the only place slide order lives. Sidecars (the version log)
 * travel with the document so that one write can change them together.
 */
import { SHEET, type LayoutOptions } from './layouts.js'
import { plainText as markupPlainText, slideTexts } from './text.js'
import { cowSlides } from './slide-map.js'
import { arr, bool, Colour, DeckId, int, num, obj, oneOf, opt, SectionId, SlideId, str, nullable, type Schema, anyOf } from './schema.js'

export interface Section {
  id: string
  title: string
  slides: string[]
}

export interface Guides {
  vertical?: number[]
  horizontal?: number[]
}

export interface Manifest {
  id: string
  title: string
  theme: string
  defaults?: { appearance?: 'light' | 'dark'; counter?: boolean; notes?: string }
  background?: string
  guides?: Guides
  sections: Section[]
  revision: number
  trashedAt?: string
  stamps: { createdAt: string; updatedAt: string }
  template?: string
  brandKit?: { name?: string; logo?: string; footerLogo?: string; footer?: string; palette?: Record<string, string> }
}

export interface Block {
  id: string
  kind: string
  slot?: string
  [key: string]: unknown
}

export interface Slide {
  id: string
  layout: string
  /** Region options of the layout (ratio, gap, arrangement); absent: the layout's own. */
  layoutOptions?: LayoutOptions
  title?: string
  subtitle?: string
  byline?: string
  blocks?: Block[]
  notes?: string
  skip?: boolean
  background?: string
  [key: string]: unknown
}

export interface Version {
  n: number
  author: string
  note: string
  revision: number
  at: string
}

export interface DeckDoc {
  manifest: Manifest
  slides: Record<string, Slide>
  versions: Version[]
}

/** The block and slide schemas live in blocks.ts; these names are kept for the declarations that use them. */
export { AnyBlock as BlockSchema, SlideDocument as SlideSchema } from './blocks.js'
import { StoredSlide } from './blocks.js'

export const SectionSchema: Schema = obj({ id: SectionId, title: str(), slides: arr(SlideId) })

export const GuidesSchema: Schema = obj({
  vertical: opt(arr(num({ minimum: 0, maximum: SHEET.width }))),
  horizontal: opt(arr(num({ minimum: 0, maximum: SHEET.height }))),
})

/**
 * The deck's brand kit: name, its two logo slots (the mark, and the footer logo drawn in the footer
 * band of every slide), footer text, palette overrides by token (hex colours).
 */
export const BrandKit: Schema = obj({
  name: opt(str({ maxLength: 120 })),
  logo: opt(str({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: "Asset id of the kit's mark: the deck's logo." })),
  footerLogo: opt(str({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'Asset id of the footer logo, drawn at the right of the footer band of every slide that has one.' })),
  footer: opt(str({ maxLength: 200 })),
  palette: opt({ type: 'object', propertyNames: { pattern: '^[a-z][a-zA-Z0-9]*$' }, additionalProperties: str({ pattern: '^#[0-9a-fA-F]{6}$' }), maxProperties: 16 }),
})

export const ManifestSchema: Schema = obj({
  id: DeckId,
  title: str({ minLength: 1, maxLength: 200 }),
  theme: str({ minLength: 1 }),
  defaults: opt(obj({ appearance: opt(oneOf(['light', 'dark'])), counter: opt(bool()), notes: opt(str()) })),
  background: opt(Colour),
  guides: opt(GuidesSchema),
  sections: arr(SectionSchema),
  revision: int({ minimum: 0 }),
  trashedAt: opt(str()),
  stamps: obj({ createdAt: str(), updatedAt: str() }),
  template: opt(str()),
  brandKit: opt(BrandKit),
})

export const VersionSchema: Schema = obj({ n: int({ minimum: 1 }), author: str(), note: str(), revision: int({ minimum: 0 }), at: str() })

/** The whole deck as one JSON value: what 409s carry as `current` and what validate.run checks. */
export const DeckDocSchema: Schema = obj({
  manifest: ManifestSchema,
  slides: { type: 'object', additionalProperties: StoredSlide },
  versions: arr(VersionSchema),
})

export const background = anyOf([Colour, { type: 'null' }])
export const nullableColour = nullable(Colour)

/** Slides in deck order (section by section). */
export function orderedSlides(doc: DeckDoc): Slide[] {
  const out: Slide[] = []
  for (const section of doc.manifest.sections) for (const id of section.slides) if (Object.hasOwn(doc.slides, id)) out.push(doc.slides[id])
  return out
}

/**
 * A canvas slide's title block: its topmost heading (the leftmost of those at one height), wherever it
 * is listed and whatever its z. Reading order reads it first (src/layout/reading.ts), listings and the
 * PDF's outline name the slide by it, title.set retitles it.
 */
export function canvasTitle(blocks: readonly Block[]): Block | undefined {
  const posOf = (b: Block) => {
    const pos = b.pos as { x?: unknown; y?: unknown } | undefined
    return pos && typeof pos.x === 'number' && Number.isFinite(pos.x) && typeof pos.y === 'number' && Number.isFinite(pos.y) ? { x: pos.x, y: pos.y } : undefined
  }
  let best: { block: Block; x: number; y: number } | undefined
  for (const block of blocks) {
    const pos = block.kind === 'heading' ? posOf(block) : undefined
    if (pos && (!best || pos.y < best.y || (pos.y === best.y && pos.x < best.x))) best = { block, ...pos }
  }
  return best?.block
}

/** The title a listing shows for a slide: its own title field, else its first title-slot or heading text (a canvas's topmost heading). */
export function slideTitle(slide: Slide): string {
  if (typeof slide.title === 'string' && slide.title) return slide.title
  if (slide.layout === 'freeform') {
    const title = canvasTitle(slide.blocks ?? [])
    if (title && typeof title.text === 'string') return plainText(title.text)
  }
  for (const block of slide.blocks ?? []) {
    if ((block.slot === 'title' || block.kind === 'heading') && typeof block.text === 'string') return plainText(block.text)
  }
  return ''
}

/**
 * What a slide is called where it needs a name even without a title (a PDF's outline, the HTML build's
 * slide list): its title, else the first of its texts (a quote, a big number), cut at a word within 80
 * characters, else "Slide <n>".
 */
export function slideLabel(slide: Slide, n: number): string {
  const title = plainText(slideTitle(slide))
  if (title) return title
  // What the slide says (its blocks) before what is said about it (a subtitle, byline, attribution).
  const sites = slideTexts(slide)
  for (const site of [...sites.filter((s) => s.pointer.startsWith('/blocks/')), ...sites.filter((s) => !s.pointer.startsWith('/blocks/'))]) {
    const text = plainText(site.value)
    if (text) return text.length > 80 ? `${text.slice(0, 80).replace(/\s+\S*$/, '')}…` : text
  }
  return `Slide ${n}`
}

/** Listings show a Text as one line of plain text (marks dropped; markup a listing cannot read shows as written). */
export function plainText(text: string): string {
  let plain: string
  try {
    plain = markupPlainText(text)
  } catch {
    plain = text
  }
  return plain.replace(/\s+/g, ' ').trim()
}

export function slideCount(doc: DeckDoc): number {
  return doc.manifest.sections.reduce((n, section) => n + section.slides.length, 0)
}

/**
 * A copy of a document to change, for handlers that build the next state from the current one: the
 * manifest and version log copied, the slides copied on first use (src/model/slide-map.ts), so a
 * handler that changes one slide of 1,400 copies one. Use it rather than structuredClone, which
 * refuses the store's lazy slide records.
 */
export function cloneDoc(doc: DeckDoc): DeckDoc {
  return { manifest: cloneManifest(doc.manifest), slides: cowSlides(doc.slides), versions: structuredClone(doc.versions) }
}

/** A deep copy of a manifest (JSON data: a plain copy is several times faster than structuredClone on a long section list). */
export function cloneManifest(manifest: Manifest): Manifest {
  return copyJson(manifest)
}

/** A deep copy of JSON data (plain objects, arrays, primitives). */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    const out = new Array(value.length)
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i])
    return out as T
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key])
  return out as T
}

/**
 * Whether two JSON values are the same value as JSON sees them (members whose value is undefined
 * count as absent): stops at the first difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    if (a.length !== other.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], other[i])) return false
    return true
  }
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  let count = 0
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue
    count++
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) count--
  return count === 0
}
