/**
 * Reading order: the order a screen reader, a copy, the PDF's text and `export txt` meet what a slide
 * shows. The title first; then the rest cut into columns where a vertical gap runs the whole height
 * (left column first), else into rows where a horizontal gap runs the whole width (top first), and
 * again inside each part (an XY cut, columns before rows): a comparison reads each column's head, then
 * its points, then the next column; a canvas reads top to bottom, side-by-side boxes left to right.
 * Paint order (`z`) is separate: the renderer keeps it with z-index.
 */
import { LAYOUT_SLOTS, slotBoxes, type Box } from './boxes.js'
import type { LayoutOptions, SlotName } from '../model/layouts.js'
import { canvasTitle, type Block, type Slide } from '../model/deck.js'

/** `items` in reading order: those `isTitle` holds for first (top to bottom), then the XY cut of the rest. */
export function readingOrder<T>(items: readonly T[], boxOf: (item: T) => Box | undefined, isTitle: (item: T) => boolean): T[] {
  const placed = items.map((item, index) => ({ item, index, box: boxOf(item) }))
  const titles = placed.filter((p) => isTitle(p.item))
  const rest = placed.filter((p) => !isTitle(p.item))
  // Items without a box keep their place after those with one, in the order given.
  const boxed = rest.filter((p) => p.box) as { item: T; index: number; box: Box }[]
  const loose = rest.filter((p) => !p.box)
  const byTop = (a: { box?: Box; index: number }, b: { box?: Box; index: number }) => (a.box?.y ?? Infinity) - (b.box?.y ?? Infinity) || (a.box?.x ?? Infinity) - (b.box?.x ?? Infinity) || a.index - b.index
  return [...titles.sort(byTop), ...xyCut(boxed), ...loose].map((p) => p.item)
}

type Placed<T> = { item: T; index: number; box: Box }

/** Splits at the first gap along one axis that runs across all of them; answers the parts in order, or undefined. */
function split<T>(items: Placed<T>[], axis: 'x' | 'y'): Placed<T>[][] | undefined {
  const size = axis === 'x' ? 'w' : 'h'
  const sorted = [...items].sort((a, b) => a.box[axis] - b.box[axis] || a.index - b.index)
  const parts: Placed<T>[][] = [[]]
  let end = -Infinity
  for (const p of sorted) {
    // A gap: this item starts at or after everything before it ends (a pixel of touching allowed).
    if (parts[parts.length - 1].length && p.box[axis] >= end - 1) parts.push([])
    parts[parts.length - 1].push(p)
    end = Math.max(end, p.box[axis] + p.box[size])
  }
  return parts.length > 1 ? parts : undefined
}

function xyCut<T>(items: Placed<T>[]): Placed<T>[] {
  if (items.length <= 1) return items
  const byTop = (a: Placed<T>, b: Placed<T>) => a.box.y - b.box.y || a.box.x - b.box.x || a.index - b.index
  const columns = split(items, 'x')
  if (columns) return columns.flatMap((part) => xyCut(part))
  // A band across the whole width (a footer, a wide caption) above or below everything else does not stop
  // the columns beneath it from reading as columns: it is read before or after them.
  const left = Math.min(...items.map((p) => p.box.x))
  const width = Math.max(...items.map((p) => p.box.x + p.box.w)) - left
  const spanning = items.filter((p) => p.box.w >= width * 0.9)
  const rest = items.filter((p) => p.box.w < width * 0.9)
  if (spanning.length && rest.length > 1) {
    const top = Math.min(...rest.map((p) => p.box.y))
    const bottom = Math.max(...rest.map((p) => p.box.y + p.box.h))
    const above = spanning.filter((p) => p.box.y + p.box.h <= top + 1)
    const below = spanning.filter((p) => p.box.y >= bottom - 1)
    const inner = split(rest, 'x')
    if (inner && above.length + below.length === spanning.length) return [...above.sort(byTop), ...inner.flatMap((part) => xyCut(part)), ...below.sort(byTop)]
  }
  const rows = split(items, 'y')
  if (!rows) return [...items].sort(byTop)
  return rows.flatMap((part) => xyCut(part))
}

/**
 * A slide's blocks in reading order. Slotted layouts: the title slot's, then the slots in the XY cut
 * of their boxes (a comparison: a column's head, its points, then the next column), each slot's blocks
 * in their stacking order; positioned blocks after. A canvas: its topmost heading first, then the XY
 * cut of the blocks' boxes.
 */
export function blocksInReadingOrder(slide: Pick<Slide, 'layout' | 'layoutOptions' | 'blocks'>): Block[] {
  const blocks = slide.blocks ?? []
  const posOf = (b: Block) => {
    const pos = b.pos as Box | undefined
    return pos && [pos.x, pos.y, pos.w, pos.h].every((v) => typeof v === 'number' && Number.isFinite(v)) ? pos : undefined
  }
  if (slide.layout === 'freeform' || !LAYOUT_SLOTS[slide.layout]) {
    const title = canvasTitle(blocks)
    return readingOrder(blocks, posOf, (b) => b === title)
  }
  const boxes = slotBoxes(slide.layout, slide.layoutOptions as LayoutOptions | undefined)
  const slots = readingOrder(Object.keys(boxes) as SlotName[], (s) => boxes[s], (s) => s === 'title')
  const rank = new Map(slots.map((s, i) => [s as string, i]))
  const rankOf = (b: Block) => (typeof b.slot === 'string' && rank.has(b.slot) ? rank.get(b.slot)! : slots.length)
  return blocks.map((block, index) => ({ block, index })).sort((a, b) => rankOf(a.block) - rankOf(b.block) || a.index - b.index).map((p) => p.block)
}

const TEXT_KINDS = new Set(['text', 'heading', 'textbox'])

/**
 * The block that is the slide's title, or undefined: the block read first, when it is a text in the
 * title slot or a heading (a canvas's topmost heading, a big number's figure) with words in it. Slides
 * whose first text is a quote or a main point have none, as `slideTitle` finds none for them.
 */
export function titleBlock(slide: Pick<Slide, 'layout' | 'layoutOptions' | 'blocks'>): Block | undefined {
  const first = blocksInReadingOrder(slide)[0]
  if (!first || !TEXT_KINDS.has(first.kind) || typeof first.text !== 'string' || !first.text.trim()) return undefined
  return first.slot === 'title' || first.kind === 'heading' ? first : undefined
}
