/**
 * Stacking: where every block of a slide is drawn.
 *
 * On a slotted layout the blocks of a slot stack top to bottom, 24 px apart, at their natural
 * heights (blockHeight); pictures, charts, shaders, HTML and text-less shapes share the room the
 * text leaves (at least 96 px each, or their natural height when smaller). A stack shorter than its
 * slot sits at the slot's anchor (top, middle or bottom); a longer one starts at the top and runs
 * past the bottom: the renderer clips it to the slot and `overflow` says by how much. A quote and
 * its attribution are one group (`GROUPED_SLOTS`), centred together. A covering
 * picture (`background: true`) is drawn over the whole sheet. On the freeform canvas every block is
 * drawn at its `pos`.
 *
 * The fields of title, section, quote and big-number slides (title, subtitle, byline, attribution)
 * are drawn as blocks too: a heading in the title slot, texts in the subtitle and caption slots,
 * ahead of the slot's own blocks. They take the ids toCanvas gives them: the field name, or
 * `<name>-2`, `-3`... when a block already has that id.
 */
import type { Block, Slide } from '../model/deck.js'
import { SHEET, type SlotName } from '../model/layouts.js'
import { LAYOUT_SLOTS, layoutSlots, STACK_GAP, type Box, type SlotSpec } from './boxes.js'
import { blockHeight, isFlexible } from './blocks.js'
import { DEFAULT_FONTS, type ThemeFonts } from '../model/fonts.js'

export type Field = 'title' | 'subtitle' | 'byline' | 'attribution'
export const FIELDS: Field[] = ['title', 'subtitle', 'byline', 'attribution']
const FIELD_SLOT: Record<Field, SlotName> = { title: 'title', subtitle: 'subtitle', byline: 'caption', attribution: 'caption' }

/** The gap between the blocks of a slot: the theme's, else 24 px. */
const gapOf = (fonts: ThemeFonts) => fonts.gap ?? STACK_GAP

/** The least room a flexible block gets in a stack. */
export const MIN_FLEX = 96

export interface Drawn {
  block: Block
  box: Box
  /** The slot it is drawn in (slotted layouts; none for covering pictures and canvas blocks). */
  slot?: SlotName
  /** Set when the block stands for a slide field. */
  field?: Field
}

export interface SlotFill {
  slot: SlotName
  box: Box
  /** Ids of the blocks stacked in it, top to bottom. */
  blocks: string[]
  /** Height of the stack, gaps included. */
  used: number
  /** How far the stack runs past the slot's bottom (0 when it fits). */
  overflow: number
}

export function isCovering(block: Block): boolean {
  return block.kind === 'picture' && block.background === true
}

/** A block id not used on the slide (nor in `taken`): `base`, else `base-2`, `base-3`... */
export function freeId(used: Set<string>, base: string): string {
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** The slide's fields as blocks (title → heading, the others → text), with fresh ids. */
export function fieldBlocks(slide: Slide): { block: Block; field: Field }[] {
  const used = new Set((slide.blocks ?? []).map((b) => b.id))
  const out: { block: Block; field: Field }[] = []
  for (const field of FIELDS) {
    const text = slide[field]
    if (typeof text !== 'string' || !text) continue
    const id = freeId(used, field)
    used.add(id)
    out.push({ field, block: { id, kind: field === 'title' ? 'heading' : 'text', slot: FIELD_SLOT[field], text } })
  }
  return out
}

/** The slot a block is drawn in on a layout: its own, else body, else the layout's first slot. */
export function slotFor(layout: string, slot: string | undefined): SlotName | undefined {
  const specs = LAYOUT_SLOTS[layout] ?? {}
  if (slot && slot in specs) return slot as SlotName
  if ('body' in specs) return 'body'
  return Object.keys(specs)[0] as SlotName | undefined
}

function canvasBox(block: Block): Box {
  const pos = block.pos as Partial<Box> | undefined
  if (pos && typeof pos === 'object') return { x: pos.x ?? 0, y: pos.y ?? 0, w: pos.w ?? 0, h: pos.h ?? 0 }
  const from = block.from as { x: number; y: number } | undefined
  const to = block.to as { x: number; y: number } | undefined
  if (from && to) return { x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), w: Math.abs(to.x - from.x), h: Math.abs(to.y - from.y) }
  return { x: 0, y: 0, w: 0, h: 0 }
}

/** Heights of a slot's blocks: natural for text, the shared room for flexible blocks. */
function heights(blocks: Block[], spec: SlotSpec, layout: string, fonts: ThemeFonts): number[] {
  const natural = blocks.map((b) => blockHeight(b, spec.box.w, layout, fonts))
  const flexible = blocks.map(isFlexible)
  const count = flexible.filter(Boolean).length
  if (!count) return natural
  const fixed = natural.reduce((sum, h, i) => sum + (flexible[i] ? 0 : h), 0) + gapOf(fonts) * (blocks.length - 1)
  const room = spec.box.h - fixed
  const share = Math.floor(room / count)
  const last = flexible.lastIndexOf(true)
  // The last flexible block takes the pixels the even split leaves, so the stack ends on the slot bottom.
  return natural.map((h, i) => (!flexible[i] ? h : Math.max(i === last ? room - share * (count - 1) : share, Math.min(h, MIN_FLEX))))
}

/** Everything a slide draws, in drawing order (back to front), with its box and slot. */
export function drawn(slide: Slide, fonts: ThemeFonts = DEFAULT_FONTS): { items: Drawn[]; slots: SlotFill[] } {
  const blocks = slide.blocks ?? []
  if (slide.layout === 'freeform' || !LAYOUT_SLOTS[slide.layout]) {
    return { items: blocks.map((block) => ({ block, box: canvasBox(block) })), slots: [] }
  }
  const layout = slide.layout
  const specs = layoutSlots(layout, slide.layoutOptions)
  const covering: Drawn[] = []
  const bySlot = new Map<SlotName, Drawn[]>()
  const entries: { block: Block; field?: Field }[] = [...fieldBlocks(slide), ...blocks.map((block) => ({ block }))]
  const ordered: Drawn[] = []
  for (const { block, field } of entries) {
    if (isCovering(block)) {
      covering.push({ block, box: { x: 0, y: 0, w: SHEET.width, h: SHEET.height } })
      continue
    }
    const slot = slotFor(layout, block.slot)
    if (!slot) continue
    const item: Drawn = { block, box: { x: 0, y: 0, w: 0, h: 0 }, slot, ...(field ? { field } : {}) }
    if (!bySlot.has(slot)) bySlot.set(slot, [])
    bySlot.get(slot)!.push(item)
    ordered.push(item)
  }
  const slots: SlotFill[] = []
  for (const [slot, spec] of Object.entries(specs) as [SlotName, SlotSpec][]) {
    const items = bySlot.get(slot) ?? []
    // Measured in the slot they are drawn in (a block naming a slot this layout lacks is drawn in another), as the renderer sizes them.
    const hs = heights(items.map((d) => (d.block.slot === slot ? d.block : { ...d.block, slot })), spec, layout, fonts)
    const used = hs.reduce((a, b) => a + b, 0) + gapOf(fonts) * Math.max(0, items.length - 1)
    const { box } = spec
    let y = box.y
    if (used <= box.h && spec.anchor === 'middle') y += Math.round((box.h - used) / 2)
    if (used <= box.h && spec.anchor === 'bottom') y += box.h - used
    items.forEach((item, i) => {
      item.box = { x: box.x, y, w: box.w, h: hs[i] }
      y += hs[i] + gapOf(fonts)
    })
    slots.push({ slot, box: { ...box }, blocks: items.map((d) => d.block.id), used, overflow: Math.max(0, used - box.h) })
  }
  centreGroup(layout, slots, ordered)
  return { items: [...covering, ...ordered], slots }
}

/**
 * Slots drawn as one group: the upper slot's stack sits on the lower's (the upper anchored at its
 * bottom, the lower at its top, one gap between the boxes), and the two together are centred between
 * the upper box's top and the lower box's bottom. A quote and its attribution read as one.
 */
export const GROUPED_SLOTS: Readonly<Record<string, readonly [SlotName, SlotName]>> = { quote: ['body', 'caption'] }

/** Moves a grouped pair of slots (their boxes with their blocks) so that what they hold is centred in their joint room; a pair that overflows stays. */
function centreGroup(layout: string, slots: SlotFill[], items: Drawn[]): void {
  const pair = Object.hasOwn(GROUPED_SLOTS, layout) ? GROUPED_SLOTS[layout] : undefined
  if (!pair) return
  const fills = slots.filter((fill) => pair.includes(fill.slot))
  const held = items.filter((item) => item.slot && pair.includes(item.slot))
  if (fills.length !== 2 || !held.length || fills.some((fill) => fill.overflow > 0)) return
  const top = Math.min(...held.map((item) => item.box.y))
  const bottom = Math.max(...held.map((item) => item.box.y + item.box.h))
  const roomTop = Math.min(...fills.map((fill) => fill.box.y))
  const roomBottom = Math.max(...fills.map((fill) => fill.box.y + fill.box.h))
  const shift = Math.round((roomTop + roomBottom) / 2 - (top + bottom) / 2)
  if (!shift) return
  for (const fill of fills) fill.box = { ...fill.box, y: fill.box.y + shift }
  for (const item of held) item.box = { ...item.box, y: item.box.y + shift }
}

/** The box every block is drawn at, by block id (slide fields under the ids toCanvas gives them). */
export function drawnBoxes(slide: Slide, fonts: ThemeFonts = DEFAULT_FONTS): Map<string, Box> {
  const out = new Map<string, Box>()
  for (const item of drawn(slide, fonts).items) out.set(item.block.id, item.box)
  return out
}

/**
 * The box a block's text has to fit (autofit): on the canvas its `pos`; in a slot the slot's width
 * and the height the slot leaves it below and above the other blocks of its stack (their natural
 * heights; flexible ones at the least they shrink to) and the gaps. Undefined for a block the slide
 * does not draw.
 */
export function roomFor(slide: Slide, blockId: string, fonts: ThemeFonts = DEFAULT_FONTS): Box | undefined {
  const { items, slots } = drawn(slide, fonts)
  const item = items.find((d) => d.block.id === blockId)
  if (!item) return undefined
  if (!item.slot) return { ...item.box }
  const fill = slots.find((s) => s.slot === item.slot)!
  const others = items.filter((d) => d.slot === item.slot && d !== item)
  const taken = others.reduce((sum, d) => sum + (isFlexible(d.block) ? Math.min(blockHeight(d.block, fill.box.w, slide.layout, fonts), MIN_FLEX) : d.box.h), 0)
  return { x: fill.box.x, y: item.box.y, w: fill.box.w, h: Math.max(0, fill.box.h - taken - gapOf(fonts) * others.length) }
}

/** Each slot's stack on a slotted slide, with its overflow past the slot's bottom ([] on freeform). */
export function slotFills(slide: Slide, fonts: ThemeFonts = DEFAULT_FONTS): SlotFill[] {
  return drawn(slide, fonts).slots
}
