/**
 * Block sizes: the text style a block is drawn with, its natural height at a width, and autofit.
 *
 * The renderer draws text with exactly these sizes, weights and line heights (docs/layouts.md,
 * "Text"), so that a measured height is the drawn height.
 */
import type { Block } from '../model/deck.js'
import { INDENT_STEP } from '../model/blocks.js'
import type { Box } from './boxes.js'
import { DEFAULT_FONTS, type ThemeFonts } from '../model/fonts.js'
import { measureText, stripMarkup, LINE_HEIGHT, type Weight } from './text.js'

export interface TextStyle {
  size: number
  weight: Weight
  /** The font family: the theme's heading family for headings, its body family for the rest. */
  family: string
  /** Line height factor. */
  lineHeight: number
  /** Padding inside the block on every side (shapes), px. */
  inset: number
}

/** Layouts whose title slot holds a display title (96 px). */
const DISPLAY_TITLE = new Set(['title', 'section', 'closing'])
/** Layouts whose body holds one big statement. */
const STATEMENT_BODY = new Set(['main-point', 'statement', 'quote'])

export const TEXT_SIZE = 28
export const SHAPE_INSET = 16
/** The aspect (w / h) of blocks without an intrinsic one: pictures without `aspect`, charts, shaders, HTML. */
export const MEDIA_ASPECT = 16 / 9

const HEADING_SIZES: Record<number, number> = { 1: 48, 2: 40, 3: 32 }

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/**
 * The size a block's text takes when it sets none, on `layout` in `slot` (no slot: a canvas block).
 *
 * Headings: 56 in the title slot (96 on title, section and closing layouts), 64 in a statement
 * body, 160 in a big-number body, else 48 / 40 / 32 by level. Other text: 28, except 96 / 56 in a
 * title slot, 40 in the subtitle slot of title, section and closing, 36 for the comparison column
 * heads (subtitle, caption), 32 for statement support text, 24 in captions, 20 in footers, 48 in a
 * statement body and 160 in a big-number body.
 */
export function defaultSize(block: Block, layout?: string, slot: string | undefined = block.slot, scale = 1): number {
  const base = baseSize(block, layout, slot)
  return scale === 1 ? base : Math.round(base * scale)
}

function baseSize(block: Block, layout: string | undefined, slot: string | undefined): number {
  const heading = block.kind === 'heading'
  if (slot === 'title') return layout && DISPLAY_TITLE.has(layout) ? 96 : 56
  if (slot === 'body' && layout === 'big-number') return 160
  if (slot === 'body' && layout && STATEMENT_BODY.has(layout)) return heading ? 64 : 48
  if (heading) return HEADING_SIZES[num(block.level) ?? 1] ?? 48
  if (slot === 'subtitle' && layout && DISPLAY_TITLE.has(layout)) return 40
  if ((slot === 'subtitle' || slot === 'caption') && layout === 'comparison') return 36
  if (slot === 'subtitle' && layout === 'statement') return 32
  if (slot === 'caption') return 24
  if (slot === 'footer') return 20
  return TEXT_SIZE
}

/** The style a block's text is drawn with: its own size and line spacing, else the defaults; headings bold (700), the rest regular (400). */
export function textStyle(block: Block, layout?: string, slot: string | undefined = block.slot, fonts: ThemeFonts = DEFAULT_FONTS): TextStyle {
  const spacing = (block.spacing ?? {}) as { line?: number }
  return {
    size: num(block.size) ?? defaultSize(block, layout, slot, fonts.scale ?? 1),
    weight: block.kind === 'heading' ? 700 : 400,
    family: block.kind === 'heading' ? fonts.heading : fonts.body,
    lineHeight: num(spacing.line) ?? LINE_HEIGHT,
    inset: block.kind === 'shape' ? SHAPE_INSET : 0,
  }
}

/** Kinds that fill the room left in their slot (see stack.ts) rather than keep a text height. */
export function isFlexible(block: Block): boolean {
  if (block.kind === 'shape') return typeof block.text !== 'string' || block.text === ''
  return block.kind === 'picture' || block.kind === 'chart' || block.kind === 'shader' || block.kind === 'html'
}

/** The marker gutter of a list: 1.5 em, none for the rule marker. */
export function listGutter(block: Block, size: number): number {
  return block.marker === 'rule' ? 0 : Math.round(size * 1.5)
}

/** How a list block lays out its items, read once for every drawing of it (renderer, native export). */
export interface ListLayout {
  items: { text?: unknown; level?: unknown }[]
  spacing: { before?: number; after?: number }
  /** Spacing sets the space before or after items (else items are `listGap` apart). */
  explicit: boolean
  gutter: number
  indent: number
  /** The rule marker: a line instead of a bullet or number. */
  rule: boolean
  /** The first number of a numbered list. */
  start: number
}

export function listLayout(block: Block, size: number): ListLayout {
  const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
  return {
    items: Array.isArray(block.items) ? (block.items as { text?: unknown; level?: unknown }[]) : [],
    spacing,
    explicit: num(spacing.before) !== undefined || num(spacing.after) !== undefined,
    gutter: listGutter(block, size),
    indent: num(block.indent) ?? 0,
    rule: block.marker === 'rule' || block.preset === 'rule',
    start: num(block.start) ?? 1,
  }
}

/** The gap between list items when spacing sets none: 0.4 em. */
export function listGap(size: number): number {
  return Math.round(size * 0.4)
}

/** Paragraph spacing (before + after) times the paragraphs of a text. */
function paragraphSpacing(block: Block, text: string): number {
  const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
  const each = (num(spacing.before) ?? 0) + (num(spacing.after) ?? 0)
  return each ? each * stripMarkup(text).split('\n').length : 0
}

function textHeight(block: Block, text: string, width: number, style: TextStyle): number {
  const m = measureText(text, {
    size: style.size,
    width: width - 2 * style.inset,
    lineHeight: style.lineHeight,
    weight: style.weight,
    family: style.family,
    indent: num(block.indent) ?? 0,
    columns: num(block.columns) ?? 1,
  })
  return m.height + paragraphSpacing(block, text) + 2 * style.inset
}

function listHeight(block: Block, width: number, style: TextStyle): number {
  const items = Array.isArray(block.items) ? (block.items as { text?: unknown; level?: unknown }[]) : []
  const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
  const explicit = num(spacing.before) !== undefined || num(spacing.after) !== undefined
  const gap = explicit ? (num(spacing.before) ?? 0) + (num(spacing.after) ?? 0) : listGap(style.size)
  const base = (num(block.indent) ?? 0) + listGutter(block, style.size)
  let height = 0
  items.forEach((item, i) => {
    const level = num(item.level) ?? 1
    const m = measureText(typeof item.text === 'string' ? item.text : '', {
      size: style.size,
      width,
      lineHeight: style.lineHeight,
      weight: style.weight,
      family: style.family,
      indent: base + INDENT_STEP * (level - 1),
    })
    height += m.height + (explicit || i > 0 ? gap : 0)
  })
  return height
}

/**
 * The bottom of each row of a table at `width` with `style`, px from the table's top: a row is its
 * tallest cell's lines × line height plus 0.35 em, so a one-line row at line height 1.25 is 1.6 em.
 */
export function tableRowBottoms(block: Block, width: number, style: TextStyle): number[] {
  const rows = Array.isArray(block.rows) ? (block.rows as unknown[][]) : []
  const count = Math.max(0, ...rows.map((r) => (Array.isArray(r) ? r.length : 0)))
  if (!count) return []
  const weights = Array.from({ length: count }, (_, i) => {
    const w = Array.isArray(block.columnWidths) ? num((block.columnWidths as unknown[])[i]) : undefined
    return w !== undefined && w > 0 ? w : 1
  })
  const total = weights.reduce((a, b) => a + b, 0)
  const pad = Math.round(style.size * 0.5)
  let y = 0
  return rows.map((row, r) => {
    let lines = 1
    const weight: Weight = r === 0 && block.header === true ? 600 : 400
    ;(Array.isArray(row) ? row : []).forEach((cell, c) => {
      const cellWidth = (width * weights[c]) / total - 2 * pad
      const m = measureText(typeof cell === 'string' ? cell : '', { size: style.size, width: cellWidth, weight, family: style.family })
      lines = Math.max(lines, m.lines)
    })
    return (y += style.size * (lines * style.lineHeight + 0.35))
  })
}

/** The height a block's content needs at `width` with `style`, px (not rounded). */
function contentHeight(block: Block, width: number, style: TextStyle): number {
  switch (block.kind) {
    case 'text':
    case 'heading':
    case 'textbox':
      return textHeight(block, typeof block.text === 'string' ? block.text : '', width, style)
    case 'shape':
      return isFlexible(block) ? width / MEDIA_ASPECT : textHeight(block, block.text as string, width, style)
    case 'list':
      return listHeight(block, width, style)
    case 'table':
      return tableRowBottoms(block, width, style).at(-1) ?? 0
    case 'picture': {
      const aspect = num(block.aspect)
      const caption = typeof block.caption === 'string' && block.caption ? 8 + measureText(block.caption, { size: 24, width, family: style.family }).height : 0
      return width / (aspect && aspect > 0 ? aspect : MEDIA_ASPECT) + caption
    }
    case 'line':
      return Math.max(2, num(block.strokeWidth) ?? 2)
    default:
      return width / MEDIA_ASPECT
  }
}

/**
 * The natural height of a slotted block at a width, px, rounded up: text at its measured height,
 * pictures at their aspect (16:9 without one) plus caption, charts, shaders and HTML at 16:9.
 * `layout` picks the default text size of the block's slot (a title-slot heading is 56 px, 96 on
 * title and section layouts).
 */
export function blockHeight(block: Block, width: number, layout?: string, fonts: ThemeFonts = DEFAULT_FONTS): number {
  return Math.ceil(contentHeight(block, Math.max(0, width), textStyle(block, layout, block.slot, fonts)) - 1e-6)
}

/** Size steps autofit shrinks through (px). */
export const SIZE_STEPS = [6, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 32, 36, 40, 44, 48, 54, 60, 64, 72, 80, 88, 96, 112, 128, 144, 160, 192, 224, 256, 288, 320, 360, 400]

export const TEXT_BEARING = new Set(['text', 'heading', 'textbox', 'shape', 'list', 'table'])

/**
 * Autofit: `height` is what the text needs at the box width at its current size (grow writes it as
 * the box height); `size` is the largest size step, not above the current size, at which the text
 * fits the box height (shrink writes it; the smallest step when nothing fits). Blocks without text
 * answer the box height and their current size.
 */
export function fitText(block: Block, box: Box, layout?: string, fonts: ThemeFonts = DEFAULT_FONTS): { height: number; size: number } {
  const style = textStyle(block, layout, block.slot, fonts)
  if (!TEXT_BEARING.has(block.kind) || isFlexible(block)) return { height: box.h, size: style.size }
  const needs = (size: number) => Math.ceil(contentHeight(block, box.w, { ...style, size }) - 1e-6)
  const height = needs(style.size)
  if (height <= box.h) return { height, size: style.size }
  const steps = SIZE_STEPS.filter((s) => s < style.size).reverse()
  for (const size of steps) if (needs(size) <= box.h) return { height, size }
  return { height, size: steps.at(-1) ?? style.size }
}

/** The height of a picture block's picture: its box less the caption a slotted picture holds. */
export function pictureHeight(block: Block, box: Box, bodyFamily: string): number {
  const caption = typeof block.caption === 'string' ? block.caption : undefined
  // In a slot the box holds the picture and its caption (geometry measured both); on the canvas the box is the picture's and the caption hangs below.
  const slotted = !(block.pos && typeof block.pos === 'object')
  const captionHeight = caption && slotted ? 8 + measureText(caption, { size: 24, width: box.w, family: bodyFamily }).height : 0
  return Math.max(0, box.h - captionHeight)
}

/** A table cell that reads as a number: a sign, a currency, digits with separators, a fraction, a %, k, M, B or x. */
const NUMERIC = /^[-+−]?\s?[$€£¥]?\s?\d[\d,.\u202f\u00a0 ]*(?:%|[kKMBx])?$/

/**
 * Each column's alignment in a table (the renderer and the PPTX writer read this): `columnAlign`'s entry,
 * and for auto (the default) right when every body cell of the column that holds text reads as a
 * number, left otherwise. The header row takes its column's alignment.
 */
export function tableColumnAlign(block: Block): ('left' | 'center' | 'right')[] {
  const rows = Array.isArray(block.rows) ? (block.rows as unknown[][]) : []
  const count = Math.max(0, ...rows.map((r) => (Array.isArray(r) ? r.length : 0)))
  const body = block.header === true ? rows.slice(1) : rows
  const asked = Array.isArray(block.columnAlign) ? (block.columnAlign as unknown[]) : []
  return Array.from({ length: count }, (_, c) => {
    const own = asked[c]
    if (own === 'left' || own === 'center' || own === 'right') return own
    const cells = body.map((row) => (Array.isArray(row) && typeof row[c] === 'string' ? stripMarkup(row[c] as string).trim() : '')).filter(Boolean)
    return cells.length > 0 && cells.every((cell) => NUMERIC.test(cell)) ? 'right' : 'left'
  })
}
