/**
 * Slide lint: findings an author should see before presenting, computed from the slide, the deck
 * and (for pictures) the asset records. Pure: the caller reads the asset records
 * (`decks/<id>/assets/<asset>.json`) and passes them in.
 *
 * Rules (docs/model.md lists them with examples):
 *
 * | rule              | severity        | when |
 * |-------------------|-----------------|------|
 * | empty-placeholder | warning         | a title slot (or a title slide's title) without text; a text, heading, list or text box with no text; a picture placeholder (no asset) |
 * | missing-alt       | warning         | a picture whose asset has no alt text; a chart or shape carrying no text and no alt |
 * | off-sheet         | error / warning | a positioned block entirely (error) or partly (warning) outside the 1600 × 900 sheet |
 * | overlap           | warning         | two positioned text boxes overlapping (reported on the upper one) |
 * | overflow          | error           | text taller than its box (canvas) or running past its slot (slotted layouts) |
 * | too-many-words    | warning         | more than 120 words of visible text on the slide |
 * | low-contrast      | warning         | text colour against its background below 3:1 (colours the theme resolves) |
 * | notes-only        | info            | a skipped slide whose only content is its speaker notes |
 * | invalid-markup    | error           | a Text the Text reader refuses (a tag outside the subset, tags that do not nest) |
 * | chart-colours     | warning         | two series (pie: slices) of a chart drawn in the same or a barely different colour, in light or dark |
 * | cover-crop        | warning         | a picture drawn with fit cover in a box so unlike it that less than half of it shows |
 * | missing-glyph     | warning         | a character no shipped face draws (theme faces, Noto Arabic/Hebrew/CJK, emoji): each machine would draw it differently, or as a box |
 */
import { blockHeight, drawnBoxes, fitText, slotBoxes, slotFills, type Box } from '../layout/index.js'
import { pictureHeight } from '../layout/blocks.js'
import { drawnFit } from '../layout/fit.js'
import { missingGlyphs } from '../layout/text.js'
import { isPicturePlaceholder } from './blocks.js'
import type { Block, DeckDoc, Slide } from './deck.js'
import { SHEET } from './layouts.js'
import { blockTexts, plainText, slideTexts } from './text.js'
import { findTheme, paletteEntry, themeFonts } from './themes.js'
import type { ThemeFonts } from './fonts.js'
import { chartData } from '../layout/chart.js'
import { paintFor, seriesColour } from '../render/paint.js'

export type Severity = 'error' | 'warning' | 'info'

export interface Finding {
  rule: string
  severity: Severity
  blockId?: string
  message: string
}

export interface AssetRecord {
  id?: string
  alt?: string
  [key: string]: unknown
}

export interface LintOptions {
  /** Asset records by asset id. Without them the picture alt rule is not checked. */
  assets?: Record<string, AssetRecord>
  /** The appearance colours are judged in (low-contrast): the deck's default when absent (a dark contact sheet asks for dark). */
  appearance?: 'light' | 'dark'
}

export const WORD_LIMIT = 120
/** Contrast ratio below which text is reported (WCAG's large-text threshold; slide text is large). */
export const CONTRAST_MIN = 3
/** Measured heights may differ from the box by rounding; less than this is not an overflow. */
const TOLERANCE = 1

const TEXT_BEARING = new Set(['text', 'heading', 'textbox', 'list', 'table', 'shape'])

/**
 * The plain text of stored markup. Stored Text is not re-checked on read, so markup the Text reader
 * refuses (a tag outside the subset) is read leniently here: the subset's tags dropped, anything
 * else kept as written, entities decoded.
 */
export function plainOf(markup: string): string {
  try {
    return plainText(markup)
  } catch {
    return markup
      .replace(/<\/?(i|u|s|sup|sub|span|a)(\s[^>]*)?>/gi, '')
      .replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!)
  }
}

/** The plain texts a block shows (its Texts: paragraphs, list items, cells, caption, chart title). */
export function visibleBlockTexts(block: Block): string[] {
  return blockTexts(block).map((site) => plainOf(site.value))
}

/** The plain texts a slide shows: its title fields, then its blocks. */
export function visibleSlideTexts(slide: Slide): string[] {
  return slideTexts(slide).map((site) => plainOf(site.value))
}

export function wordCount(texts: string[]): number {
  let n = 0
  for (const text of texts) n += text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length
  return n
}

const hasText = (block: Block) => visibleBlockTexts(block).some((t) => t.trim() !== '')

function area(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

function posOf(block: Block): Box | undefined {
  const pos = block.pos as Box | undefined
  return pos && [pos.x, pos.y, pos.w, pos.h].every((v) => typeof v === 'number') ? pos : undefined
}

function emptyPlaceholders(slide: Slide, out: Finding[]): void {
  if (slide.layout === 'title' || slide.layout === 'section') {
    if (typeof slide.title !== 'string' || !plainOf(slide.title).trim()) {
      out.push({ rule: 'empty-placeholder', severity: 'warning', message: `The ${slide.layout} slide has no title.` })
    }
  } else if (slide.layout !== 'freeform') {
    const slots = slotBoxes(slide.layout, slide.layoutOptions)
    const titled = (slide.blocks ?? []).some((b) => b.slot === 'title')
    if (slots.title && !titled) out.push({ rule: 'empty-placeholder', severity: 'warning', message: 'The title slot is empty.' })
  }
  for (const block of slide.blocks ?? []) {
    const empty =
      ((block.kind === 'text' || block.kind === 'heading' || block.kind === 'textbox') && !hasText(block)) ||
      (block.kind === 'list' && !hasText(block))
    if (isPicturePlaceholder(block)) {
      out.push({ rule: 'empty-placeholder', severity: 'warning', blockId: block.id, message: 'This picture placeholder has no picture: add one (asset.add, then block.set /asset on this block) or remove the block.' })
      continue
    }
    if (!empty) continue
    const where = block.slot === 'title' ? 'The title slot holds' : 'This'
    out.push({ rule: 'empty-placeholder', severity: 'warning', blockId: block.id, message: `${where} ${block.kind === 'list' ? 'list' : 'text'} placeholder has no text.` })
  }
}

function missingAlt(slide: Slide, options: LintOptions, out: Finding[]): void {
  for (const block of slide.blocks ?? []) {
    const alt = typeof block.alt === 'string' ? block.alt.trim() : ''
    if (block.kind === 'picture') {
      if (!options.assets || block.background === true || isPicturePlaceholder(block)) continue
      const asset = String(block.asset)
      const record = Object.hasOwn(options.assets, asset) ? options.assets[asset] : undefined
      if (!record || typeof record.alt !== 'string' || !record.alt.trim()) {
        out.push({ rule: 'missing-alt', severity: 'warning', blockId: block.id, message: `The picture's asset "${asset}" has no alt text (block.setAlt writes it on the asset).` })
      }
    } else if ((block.kind === 'chart' || block.kind === 'shape') && !alt && !hasText(block)) {
      out.push({ rule: 'missing-alt', severity: 'warning', blockId: block.id, message: `This ${block.kind} carries no text and no alt text.` })
    }
  }
}

function offSheet(slide: Slide, out: Finding[]): void {
  const sheet = { x: 0, y: 0, w: SHEET.width, h: SHEET.height }
  for (const block of slide.blocks ?? []) {
    const pos = posOf(block)
    if (!pos) continue
    const inside = pos.x >= 0 && pos.y >= 0 && pos.x + pos.w <= SHEET.width && pos.y + pos.h <= SHEET.height
    if (inside) continue
    const visible = area(pos, sheet) > 0
    out.push({
      rule: 'off-sheet',
      severity: visible ? 'warning' : 'error',
      blockId: block.id,
      message: visible
        ? `The box (${pos.x}, ${pos.y}, ${pos.w} × ${pos.h}) runs past the ${SHEET.width} × ${SHEET.height} sheet.`
        : `The box (${pos.x}, ${pos.y}, ${pos.w} × ${pos.h}) lies entirely outside the ${SHEET.width} × ${SHEET.height} sheet.`,
    })
  }
}

function overlaps(slide: Slide, out: Finding[]): void {
  const boxes = (slide.blocks ?? []).filter((b) => TEXT_BEARING.has(b.kind) && hasText(b) && posOf(b))
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]]
      if (area(posOf(a)!, posOf(b)!) <= 0) continue
      const [lower, upper] = ((a.z as number) ?? i) <= ((b.z as number) ?? j) ? [a, b] : [b, a]
      out.push({ rule: 'overlap', severity: 'warning', blockId: upper.id, message: `This text box overlaps "${lower.id}".` })
    }
  }
}

function overflow(slide: Slide, out: Finding[], fonts: ThemeFonts): void {
  // The canvas: text taller than its box (autofit grow makes the box follow the text; shrink steps the size down first).
  for (const block of slide.blocks ?? []) {
    const box = posOf(block)
    if (!box || !TEXT_BEARING.has(block.kind) || !hasText(block) || block.autofit === 'grow') continue
    if (block.kind === 'table' && block.autofit !== 'shrink') {
      // A table steps its size down to fit (src/layout/fit.ts); an overflow only when whole rows are left out at its floor.
      const fit = drawnFit(block, box, box.h, slide.layout, fonts)
      const rows = Array.isArray(block.rows) ? block.rows.length : 0
      if (fit.rows !== undefined) out.push({ rule: 'overflow', severity: 'error', blockId: block.id, message: `The table does not fit its box even at ${fit.size} px: ${fit.rows} of its ${rows} rows are drawn.` })
      continue
    }
    const size = block.autofit === 'shrink' ? fitText(block, box, slide.layout, fonts).size : undefined
    const need = blockHeight(size === undefined ? block : { ...block, size }, box.w, slide.layout, fonts)
    if (need > box.h + TOLERANCE) {
      out.push({
        rule: 'overflow',
        severity: 'error',
        blockId: block.id,
        message: `The text needs ${need} px${size === undefined ? '' : ` even at ${size} px`} but its box is ${Math.round(box.h)} px high.`,
      })
    }
  }
  // Slotted layouts: a slot whose stack runs past its bottom (the renderer clips it there).
  if (slide.layout === 'freeform') return
  const real = new Set((slide.blocks ?? []).map((b) => b.id))
  const boxes = drawnBoxes(slide, fonts)
  for (const fill of slotFills(slide, fonts)) {
    if (fill.overflow <= TOLERANCE) continue
    const bottom = fill.box.y + fill.box.h
    const first = fill.blocks.find((id) => {
      const box = boxes.get(id)
      return box !== undefined && box.y + box.h > bottom + TOLERANCE
    })
    out.push({
      rule: 'overflow',
      severity: 'error',
      ...(first && real.has(first) ? { blockId: first } : {}),
      message: `The ${fill.slot} slot overflows by ${Math.ceil(fill.overflow)} px (${fill.used} px of content in ${fill.box.h} px).`,
    })
  }
}

function tooManyWords(slide: Slide, out: Finding[]): void {
  const words = wordCount(visibleSlideTexts(slide))
  if (words > WORD_LIMIT) out.push({ rule: 'too-many-words', severity: 'warning', message: `${words} words on the slide (more than ${WORD_LIMIT}).` })
}

function notesOnly(slide: Slide, out: Finding[]): void {
  if (!slide.skip || typeof slide.notes !== 'string' || !slide.notes.trim()) return
  const shown = visibleSlideTexts(slide).some((t) => t.trim()) || (slide.blocks ?? []).some((b) => !TEXT_BEARING.has(b.kind) || b.kind === 'shape')
  if (!shown) out.push({ rule: 'notes-only', severity: 'info', message: 'This skipped slide holds only speaker notes.' })
}

/** `#rgb` / `#rrggbb` or a palette token of the deck's theme, as [r, g, b] in 0..255. */
function resolveColour(value: unknown, doc: DeckDoc, appearance: 'light' | 'dark'): [number, number, number] | undefined {
  if (typeof value !== 'string') return undefined
  let hex = value
  if (!hex.startsWith('#')) {
    const entry = paletteEntry(findTheme(doc.manifest.theme), value)
    if (!entry) return undefined
    hex = entry[appearance]
  }
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex)
  if (!m) return undefined
  const digits = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1]
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number]
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

function lowContrast(slide: Slide, doc: DeckDoc, out: Finding[], appearance: 'light' | 'dark'): void {
  const page = slide.background ?? doc.manifest.background ?? 'paper'
  for (const block of slide.blocks ?? []) {
    if (!TEXT_BEARING.has(block.kind) || !hasText(block)) continue
    const fg = resolveColour(block.color ?? 'ink', doc, appearance)
    const bg = resolveColour(block.kind === 'shape' && block.fill ? block.fill : page, doc, appearance)
    if (!fg || !bg) continue
    const ratio = contrastRatio(fg, bg)
    if (ratio < CONTRAST_MIN) {
      out.push({ rule: 'low-contrast', severity: 'warning', blockId: block.id, message: `Text contrast ${ratio.toFixed(2)}:1 against its background (at least ${CONTRAST_MIN}:1).` })
    }
  }
}

function invalidMarkup(slide: Slide, out: Finding[]): void {
  for (const site of slideTexts(slide)) {
    try {
      plainText(site.value)
    } catch (error) {
      const blockIndex = /^\/blocks\/(\d+)/.exec(site.pointer)
      const blockId = blockIndex ? slide.blocks?.[Number(blockIndex[1])]?.id : undefined
      out.push({ rule: 'invalid-markup', severity: 'error', ...(blockId ? { blockId } : {}), message: `${site.pointer}: ${(error as Error).message} Write "<" as &lt; and "&" as &amp;.` })
    }
  }
}

/** Colours closer than this (RGB distance, of 441) read as one on a slide. */
const SAME_COLOUR = 24

/** Series (pie: slices) a reader cannot tell apart: the first pair per chart, in light, else in dark. */
function chartColours(slide: Slide, doc: DeckDoc, out: Finding[]): void {
  for (const block of slide.blocks ?? []) {
    if (block.kind !== 'chart') continue
    const data = chartData(block)
    const pie = data.type === 'pie' || data.type === 'doughnut'
    const names = pie ? data.categories : data.series.map((s) => s.name)
    if (names.length < 2) continue
    const found = (['light', 'dark'] as const).flatMap((appearance) => {
      const paint = paintFor(doc.manifest, appearance)
      const colours = names.map((_, i) => seriesColour(paint, i))
      for (let b = 1; b < colours.length; b++) {
        for (let a = 0; a < b; a++) {
          const [p, q] = [resolveColour(colours[a], doc, appearance), resolveColour(colours[b], doc, appearance)]
          if (p && q && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < SAME_COLOUR) return [{ a, b, appearance, colour: colours[a], other: colours[b] }]
        }
      }
      return []
    })[0]
    if (!found) continue
    const what = pie ? 'Slices' : 'Series'
    const same = found.colour === found.other ? `the same colour (${found.colour})` : `nearly the same colour (${found.colour}, ${found.other})`
    const fix = names.length > 6 ? `a chart shows at most 6 ${pie ? 'slices' : 'series'} in distinct colours` : 'set distinct chart1..chart6 colours in the brand kit'
    out.push({ rule: 'chart-colours', severity: 'warning', blockId: block.id, message: `${what} ${found.a + 1} and ${found.b + 1} ("${names[found.a]}", "${names[found.b]}") draw in ${same} in ${found.appearance}: a reader cannot tell them apart; ${fix}.` })
  }
}

/** Below this share of a picture showing, a cover crop is reported. */
export const COVER_SHOWN_MIN = 0.5

/**
 * Pictures a cover crop cuts most of away: the box's shape so unlike the picture's (after its own crop)
 * that less than half of it shows, as a tall photo in a wide slot. Needs the asset's size (its record).
 */
function coverCrop(slide: Slide, doc: DeckDoc, options: LintOptions, out: Finding[]): void {
  if (!options.assets) return
  const fonts = themeFonts(doc.manifest)
  let boxes: Map<string, Box> | undefined
  for (const block of slide.blocks ?? []) {
    if (block.kind !== 'picture' || block.fit === 'contain' || block.background === true || isPicturePlaceholder(block)) continue
    const asset = String(block.asset)
    const record = Object.hasOwn(options.assets, asset) ? options.assets[asset] : undefined
    const [nw, nh] = [Number(record?.width), Number(record?.height)]
    if (!(nw > 0 && nh > 0)) continue
    boxes ??= drawnBoxes(slide, fonts)
    const box = boxes.get(block.id)
    if (!box) continue
    const h = pictureHeight(block, box, fonts.body)
    if (!(box.w > 0 && h > 0)) continue
    const crop = (block.crop ?? {}) as { left?: number; right?: number; top?: number; bottom?: number }
    const part = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
    const picture = (nw * Math.max(0.01, 1 - part(crop.left) - part(crop.right))) / (nh * Math.max(0.01, 1 - part(crop.top) - part(crop.bottom)))
    const area = box.w / h
    const shown = Math.min(picture / area, area / picture)
    if (shown >= COVER_SHOWN_MIN) continue
    const lost = area > picture ? 'top and bottom' : 'sides'
    out.push({ rule: 'cover-crop', severity: 'warning', blockId: block.id, message: `Only ${Math.round(shown * 100)} % of the picture shows: its box is ${area > picture ? 'much wider' : 'much taller'} than the picture, so the cover crop cuts its ${lost}. Set fit contain, crop it yourself, or use a layout whose box has its shape (picture-left for a tall picture).` })
  }
}

/** Characters no shipped face has a glyph for, by block (what each reader's machine would substitute, or draw as a box). */
function missingGlyph(slide: Slide, doc: DeckDoc, out: Finding[]): void {
  const fonts = themeFonts(doc.manifest)
  for (const block of slide.blocks ?? []) {
    const missing = missingGlyphs(visibleBlockTexts(block).join('\n'), block.kind === 'heading' ? fonts.heading : fonts.body)
    if (!missing.length) continue
    const shown = missing.slice(0, 8).map((ch) => `"${ch}" (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`).join(', ')
    out.push({ rule: 'missing-glyph', severity: 'warning', blockId: block.id, message: `No face Deck Studio ships draws ${shown}${missing.length > 8 ? ` and ${missing.length - 8} more` : ''}: each reader's machine would draw ${missing.length > 1 ? 'them' : 'it'} in a face of its own, or as an empty box. Use another character, or a picture.` })
  }
}

/** Every finding on one slide, in rule order. */
export function lintSlide(slide: Slide, doc: DeckDoc, options: LintOptions = {}): Finding[] {
  const out: Finding[] = []
  emptyPlaceholders(slide, out)
  missingAlt(slide, options, out)
  offSheet(slide, out)
  overlaps(slide, out)
  overflow(slide, out, themeFonts(doc.manifest))
  tooManyWords(slide, out)
  lowContrast(slide, doc, out, options.appearance ?? (doc.manifest.defaults?.appearance === 'dark' ? 'dark' : 'light'))
  notesOnly(slide, out)
  invalidMarkup(slide, out)
  chartColours(slide, doc, out)
  coverCrop(slide, doc, options, out)
  missingGlyph(slide, doc, out)
  return out
}

export interface LintCounts {
  error: number
  warning: number
  info: number
}

/** Findings counted per severity (what slide.list shows). */
export function countFindings(findings: readonly Finding[]): LintCounts {
  const counts: LintCounts = { error: 0, warning: 0, info: 0 }
  for (const finding of findings) counts[finding.severity]++
  return counts
}
