/**
 * Overflow as a designer handles it: what the renderer and the native PPTX writer draw of a block
 * whose text does not fit its room. One answer for both, so the render and the file agree.
 *
 * - autofit shrink: the text is drawn at fitText's size step.
 * - A table taller than its room steps its text size down (SIZE_STEPS, not below TABLE_FLOOR px);
 *   when even the floor does not fit, only the whole rows that fit are drawn.
 * - Text (and lists) still taller than the room are drawn to the last whole line that fits, never a
 *   partial line: `clip` is the height of those lines.
 */
import type { Block, Slide } from '../model/deck.js'
import { INDENT_STEP } from '../model/blocks.js'
import type { Box } from './boxes.js'
import { DEFAULT_FONTS, type ThemeFonts } from '../model/fonts.js'
import { fitText, listLayout, listGap, SIZE_STEPS, tableRowBottoms, textStyle, type TextStyle } from './blocks.js'
import { measureText, stripMarkup, type MeasureOptions } from './text.js'
import { drawn, roomFor } from './stack.js'

/** The least size a table steps down to before it drops rows, px. */
export const TABLE_FLOOR = 12

export interface Fit {
  /** The text size drawn, px. */
  size: number
  /** Set when the content does not all fit: the height of the whole lines (or rows) that do, px. */
  clip?: number
  /** A table's rows drawn, when not all of them fit. */
  rows?: number
  /** A text's paragraphs and list's items: how many lines of each are drawn (set with `clip`). */
  lines?: number[]
  /**
   * The characters of each drawn paragraph (item) of plain text in its drawn lines, whole words (set
   * with `clip`): what a writer without a clip (native PPTX) keeps.
   */
  chars?: number[]
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/** How many characters of a plain paragraph its first `lines` lines hold: whole words, white space as written. */
export function lineChars(paragraph: string, lines: number, options: MeasureOptions): number {
  if (lines <= 0) return 0
  if (measureText(paragraph, options).lines <= lines) return paragraph.length
  const ends = [...paragraph.matchAll(/\S+/g)].map((m) => m.index! + m[0].length)
  let lo = 0
  let hi = ends.length
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (measureText(paragraph.slice(0, ends[mid - 1]), options).lines <= lines) lo = mid
    else hi = mid - 1
  }
  return lo ? ends[lo - 1] : 0
}

/** The bottom of every line of a text or list block at `width`, top to bottom, px; paragraph `index` per line. */
function lineBottoms(block: Block, width: number, style: TextStyle, paragraphs: { text: string; options: MeasureOptions }[] = []): { bottom: number; index: number }[] {
  const lh = style.size * style.lineHeight
  const out: { bottom: number; index: number }[] = []
  const measure = (text: string, indent: number) => {
    const options = { size: style.size, width: width - 2 * style.inset, lineHeight: style.lineHeight, weight: style.weight, family: style.family, indent }
    paragraphs.push({ text: stripMarkup(text), options })
    return measureText(text, options).lines
  }
  let y = style.inset
  if (block.kind === 'list') {
    const { items, spacing, explicit, gutter, indent } = listLayout(block, style.size)
    items.forEach((item, i) => {
      y += explicit ? num(spacing.before) ?? 0 : i > 0 ? listGap(style.size) : 0
      const lines = measure(typeof item.text === 'string' ? item.text : '', indent + gutter + INDENT_STEP * ((num(item.level) ?? 1) - 1))
      for (let l = 0; l < lines; l++) out.push({ bottom: (y += lh), index: i })
      y += explicit ? num(spacing.after) ?? 0 : 0
    })
    return out
  }
  const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
  const text = typeof block.text === 'string' ? block.text : ''
  stripMarkup(text).split('\n').forEach((paragraph, i) => {
    y += num(spacing.before) ?? 0
    const lines = measure(paragraph, num(block.indent) ?? 0)
    for (let l = 0; l < lines; l++) out.push({ bottom: (y += lh), index: i })
    y += num(spacing.after) ?? 0
  })
  return out
}

const FITS = 0.5

function tableFit(block: Block, width: number, room: number, style: TextStyle): Fit {
  const bottoms = (size: number) => tableRowBottoms(block, width, { ...style, size })
  if ((bottoms(style.size).at(-1) ?? 0) <= room + FITS) return { size: style.size }
  const floor = block.autofit === 'shrink' ? SIZE_STEPS[0] : Math.min(style.size, TABLE_FLOOR)
  const steps = SIZE_STEPS.filter((s) => s < style.size && s >= floor).reverse()
  for (const size of steps) if ((bottoms(size).at(-1) ?? 0) <= room + FITS) return { size }
  const size = steps.at(-1) ?? style.size
  const at = bottoms(size)
  const rows = at.filter((b) => b <= room + FITS).length
  return { size, rows, clip: rows ? at[rows - 1] : 0 }
}

/**
 * What is drawn of a block in `room` px of height at `box.w` (the canvas `pos`, or in a slot the
 * room from the block's top to the slot's bottom; `shrinkRoom` is the box autofit shrink fits, the
 * one `block.autofit --apply` writes from). Blocks without text answer their size and no clip.
 */
export function drawnFit(block: Block, box: Box, room: number, layout?: string, fonts: ThemeFonts = DEFAULT_FONTS, shrinkRoom: Box = { ...box, h: room }): Fit {
  const style = textStyle(block, layout, block.slot, fonts)
  if (block.kind === 'table') return tableFit(block, box.w, room, style)
  const text = block.kind === 'list' ? Array.isArray(block.items) && block.items.length > 0 : typeof block.text === 'string' && block.text !== ''
  if (!['text', 'heading', 'textbox', 'list'].includes(block.kind) || !text) return { size: style.size }
  const size = block.autofit === 'shrink' ? fitText(block, shrinkRoom, layout, fonts).size : style.size
  // Balanced columns and positioned text grown to fit: no clip.
  if ((num(block.columns) ?? 1) > 1 || block.autofit === 'grow') return { size }
  const paragraphs: { text: string; options: MeasureOptions }[] = []
  const bottoms = lineBottoms(block, box.w, { ...style, size }, paragraphs)
  const last = bottoms.at(-1)?.bottom ?? 0
  if (last <= room + FITS) return { size }
  const shown = bottoms.filter((b) => b.bottom <= room + FITS)
  const lines: number[] = []
  for (const b of shown) lines[b.index] = (lines[b.index] ?? 0) + 1
  const counts = Array.from(lines, (n) => n ?? 0)
  const chars = counts.map((n, i) => lineChars(paragraphs[i].text, n, paragraphs[i].options))
  return { size, clip: shown.at(-1)?.bottom ?? 0, lines: counts, chars }
}

/**
 * The fit of every text-bearing block a slide draws, by block id (the renderer and the PPTX writer
 * read it); blocks that draw all their text at their own size are left out.
 */
export function drawnFits(slide: Slide, fonts: ThemeFonts = DEFAULT_FONTS, at = drawn(slide, fonts)): Map<string, Fit> {
  const out = new Map<string, Fit>()
  for (const item of at.items) {
    const { block, box } = item
    if (!['text', 'heading', 'textbox', 'list', 'table'].includes(block.kind)) continue
    const fill = item.slot ? at.slots.find((s) => s.slot === item.slot) : undefined
    const room = fill ? fill.box.y + fill.box.h - box.y : box.h
    // A slotted block's box is its natural height: one that ends above the slot bottom fits as it is.
    if (fill && box.h <= room + FITS && block.autofit !== 'shrink') continue
    const shrinkRoom = fill && block.autofit === 'shrink' ? roomFor(slide, block.id, fonts) : undefined
    const fit = drawnFit(block, box, room, slide.layout, fonts, shrinkRoom ?? { ...box, h: room })
    if (fit.clip !== undefined || fit.size !== textStyle(block, slide.layout, item.slot, fonts).size) out.set(block.id, fit)
  }
  return out
}
