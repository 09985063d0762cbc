/**
 * Edits shared by the mutation kinds and the slide actions: where a block lands in a slot or in the
 * canvas stack, canvas conversion in place, and the layout change (slide.setLayout, layout.set,
 * slide.applyLayout). Boxes come from geometry (src/layout), never from here.
 */
import type { ThemeFonts } from '../fonts.js'
import { refile, slotBoxes, toCanvas } from '../../layout/index.js'
import type { Block, Slide } from '../deck.js'
import { SLOTS, type LayoutOptions, type SlotName } from '../layouts.js'
import { freeBlockId } from '../edit.js'

export const CANVAS = 'freeform'

export const isCanvas = (slide: Slide): boolean => slide.layout === CANVAS

/** The slide's block list, created when absent. */
export function blocksOf(slide: Slide): Block[] {
  if (!Array.isArray(slide.blocks)) slide.blocks = []
  return slide.blocks
}

/** Replaces the slide's members by those of `next`, keeping the object (callers hold it). */
export function assignSlide(slide: Slide, next: Slide): void {
  if (next === slide) return
  const copy = structuredClone(next)
  for (const key of Object.keys(slide)) delete slide[key]
  Object.assign(slide, copy)
}

/** Converts a slotted slide to the canvas in place (geometry measures the boxes); true when it converted. */
export function convertToCanvas(slide: Slide, fonts?: ThemeFonts): boolean {
  if (isCanvas(slide)) return false
  assignSlide(slide, { ...toCanvas(structuredClone(slide), fonts), id: slide.id })
  return true
}

/**
 * Files a block into a slot: after `after` (a block of that slot) or first in the slot. Answers an
 * error message when `after` is not a block of the slot.
 */
export function placeInSlot(slide: Slide, block: Block, slot: string, after?: string): string | undefined {
  const blocks = blocksOf(slide)
  block.slot = slot
  delete block.pos
  delete block.z
  if (after !== undefined) {
    const index = blocks.findIndex((b) => b.id === after)
    if (index < 0) return `No block "${after}" on slide "${slide.id}".`
    if (blocks[index].slot !== slot) return `Block "${after}" is in slot "${blocks[index].slot ?? 'none'}", not "${slot}".`
    blocks.splice(index + 1, 0, block)
    return undefined
  }
  const first = blocks.findIndex((b) => b.slot === slot)
  if (first < 0) blocks.push(block)
  else blocks.splice(first, 0, block)
  return undefined
}

/** Puts a positioned block in the canvas stack: just above `after`, else on top. */
export function placeInStack(slide: Slide, block: Block, after?: string): string | undefined {
  const blocks = blocksOf(slide)
  delete block.slot
  const top = blocks.reduce((max, b) => (typeof b.z === 'number' ? Math.max(max, b.z) : max), -1)
  if (after !== undefined) {
    const anchor = blocks.find((b) => b.id === after)
    if (!anchor) return `No block "${after}" on slide "${slide.id}".`
    const z = typeof anchor.z === 'number' ? anchor.z : top
    // Renumber: everything above the anchor moves up one, the block takes the rank above it.
    for (const b of blocks) if (typeof b.z === 'number' && b.z > z) b.z += 1
    block.z = z + 1
    blocks.splice(blocks.indexOf(anchor) + 1, 0, block)
    return undefined
  }
  block.z = top + 1
  blocks.push(block)
  return undefined
}

/** Moves a positioned block to rank `z` (0 at the back) and renumbers the stack densely. */
export function setRank(slide: Slide, block: Block, z: number): void {
  const stack = blocksOf(slide)
    .filter((b) => typeof b.z === 'number' && b !== block)
    .sort((a, b) => (a.z as number) - (b.z as number))
  stack.splice(Math.min(z, stack.length), 0, block)
  stack.forEach((b, i) => (b.z = i))
}

/** The slots a layout draws, in geometry's order. */
export function layoutSlots(layout: string): SlotName[] {
  return Object.keys(slotBoxes(layout)) as SlotName[]
}

/** Layouts whose title, subtitle (and byline) are fields of the slide rather than blocks. */
export const FIELD_LAYOUTS = new Set(['title', 'section'])

/** Layouts that drop what does not fit when applied (slide.applyLayout). */
export const DROPPING_LAYOUTS = new Set(['title', 'main-point'])

/** Layouts with an attribution field (statement variants). */
const ATTRIBUTION_LAYOUTS = new Set(['quote', 'big-number'])

const isCoveringPicture = (block: Block) => block.kind === 'picture' && block.background === true

const posOf = (block: Block) => (block.pos as { x: number; y: number } | undefined) ?? { x: 0, y: 0 }

const TEXTUAL = new Set(['text', 'heading', 'list', 'table', 'textbox'])
const MEDIA = new Set(['picture', 'chart', 'shader'])

/** The slot that takes what matched no placeholder: the first content slot the layout has. */
function mainSlot(slots: SlotName[]): SlotName {
  return (['body', 'left', 'right', 'media', 'caption', 'subtitle', 'footer', 'title'] as const).find((s) => slots.includes(s)) ?? 'body'
}

function strip(block: Block): Block {
  const out = { ...block }
  delete out.pos
  delete out.z
  return out
}

/**
 * Changes the layout as slide.setLayout does: geometry refiles the blocks (to freeform each block
 * gets its measured box; from freeform each block falls into the slot under its centre; a block
 * keeps its slot when the new layout has it). Title slide and Main point keep what geometry says
 * they hold; the rest is named in `dropped`. The slide's region options become `options` (absent:
 * the layout's own), also when the layout stays; the model check refuses options the layout does
 * not take, freeform included.
 */
export function changeLayout(source: Slide, layout: string, options?: LayoutOptions, fonts?: ThemeFonts): { slide: Slide; dropped: string[] } {
  const given = options && Object.keys(options).length ? structuredClone(options) : undefined
  if (source.layout === layout) {
    const slide = structuredClone(source)
    delete slide.layoutOptions
    if (given) slide.layoutOptions = given
    return { slide, dropped: [] }
  }
  const { slide, dropped } = refile(structuredClone(source), layout, given, fonts)
  const next: Slide = { ...slide, id: source.id, layout }
  if (given) next.layoutOptions = given
  return { slide: next, dropped }
}

/**
 * Re-files a slide into another layout by content (slide.applyLayout): its title, subtitle, body
 * text, lists, tables and pictures go to the matching placeholders of the target, the rest is
 * appended to the main slot. With `drop`, a Title slide or a Main point keeps only what fits its
 * placeholders (one block each) and names the rest in `dropped`. To freeform is geometry's toCanvas.
 */
export function restructure(source: Slide, layout: string, options: { drop?: boolean; fonts?: ThemeFonts } = {}): { slide: Slide; dropped: string[] } {
  if (source.layout === layout) return { slide: structuredClone(source), dropped: [] }
  if (layout === CANVAS) return { slide: { ...toCanvas(structuredClone(source), options.fonts), id: source.id }, dropped: [] }
  const drop = Boolean(options.drop) && DROPPING_LAYOUTS.has(layout)
  const slots = layoutSlots(layout)
  const main = mainSlot(slots)
  const fromCanvas = isCanvas(source)
  const blocks = (source.blocks ?? []).map((b) => structuredClone(b))
  // On the canvas, reading order is top to bottom, then left to right.
  if (fromCanvas) blocks.sort((a, b) => posOf(a).y - posOf(b).y || posOf(a).x - posOf(b).x)
  // Covering pictures stay at the back, in no slot.
  const covering = blocks.filter(isCoveringPicture).map(strip)
  blocks.splice(0, blocks.length, ...blocks.filter((b) => !isCoveringPicture(b)))
  const dropped: string[] = []
  const next: Slide = { id: source.id, layout }
  for (const key of ['notes', 'skip', 'background'] as const) if (source[key] !== undefined) (next as Record<string, unknown>)[key] = structuredClone(source[key])

  // The title: a field of the source, else the title slot's text (first heading on a canvas).
  const take = (test: (b: Block) => boolean): Block | undefined => {
    const index = blocks.findIndex(test)
    return index < 0 ? undefined : blocks.splice(index, 1)[0]
  }
  const hasText = (b: Block) => typeof b.text === 'string'
  const titleBlock = FIELD_LAYOUTS.has(source.layout) ? undefined : take((b) => hasText(b) && (fromCanvas ? b.kind === 'heading' : b.slot === 'title'))
  const titleText = typeof source.title === 'string' ? source.title : (titleBlock?.text as string | undefined)
  const subtitleBlock = FIELD_LAYOUTS.has(source.layout) || fromCanvas ? undefined : take((b) => hasText(b) && b.slot === 'subtitle')
  const subtitleText = typeof source.subtitle === 'string' ? source.subtitle : (subtitleBlock?.text as string | undefined)
  const out: Block[] = []
  const taken = new Set(blocks.map((b) => b.id))
  const fresh = (base: string) => {
    const id = freeBlockId({ id: source.id, layout, blocks: [...out, ...blocks] }, base, taken)
    taken.add(id)
    return id
  }
  const textBlock = (base: string, text: string, kind = 'text'): Block => ({ id: fresh(base), kind, text })
  const append: Block[] = []
  const leftover = (block: Block) => (drop ? dropped.push(block.id) : append.push(block))

  if (FIELD_LAYOUTS.has(layout)) {
    next.title = titleText ?? ''
    if (subtitleText !== undefined) next.subtitle = subtitleText
    if (layout === 'title' && typeof source.byline === 'string') next.byline = source.byline
    else if (typeof source.byline === 'string') leftover(textBlock('byline', source.byline))
  } else {
    if (titleText !== undefined) {
      const heading: Block = titleBlock ? strip(titleBlock) : { id: fresh('title'), kind: 'heading', text: titleText }
      if (slots.includes('title')) out.push({ ...heading, slot: 'title' })
      else leftover(heading)
    }
    if (subtitleText !== undefined) {
      const sub: Block = subtitleBlock ? strip(subtitleBlock) : textBlock('subtitle', subtitleText)
      const slot = slots.includes('subtitle') ? 'subtitle' : slots.includes('caption') ? 'caption' : undefined
      if (slot && !(drop && out.some((b) => b.slot === slot))) out.push({ ...sub, slot })
      else leftover(sub)
    }
    if (typeof source.byline === 'string') {
      const byline = textBlock('byline', source.byline)
      if (slots.includes('caption') && !(drop && out.some((b) => b.slot === 'caption'))) out.push({ ...byline, slot: 'caption' })
      else leftover(byline)
    }
  }
  if (typeof source.attribution === 'string') {
    if (ATTRIBUTION_LAYOUTS.has(layout)) next.attribution = source.attribution
    else {
      const attribution = textBlock('attribution', source.attribution)
      if (slots.includes('caption') && !FIELD_LAYOUTS.has(layout)) out.push({ ...attribution, slot: 'caption' })
      else leftover(attribution)
    }
  }

  // Body blocks: a block whose slot the target also has stays there; text, lists and tables go to
  // the body (or split over left and right), pictures and charts to the media slot.
  const textual = blocks.filter((b) => TEXTUAL.has(b.kind) && (fromCanvas || !b.slot || !slots.includes(b.slot as SlotName)))
  const split = !slots.includes('body') && slots.includes('left') && slots.includes('right')
  const leftCount = Math.ceil(textual.length / 2)
  for (const original of blocks) {
    const block = strip(original)
    const own = !fromCanvas && typeof original.slot === 'string' && slots.includes(original.slot as SlotName) && original.slot !== 'title' ? original.slot : undefined
    let slot: string | undefined = own
    if (!slot && TEXTUAL.has(block.kind)) {
      if (slots.includes('body')) slot = 'body'
      else if (split) slot = textual.indexOf(original) < leftCount ? 'left' : 'right'
      else if (slots.includes('left')) slot = 'left'
    }
    if (!slot && MEDIA.has(block.kind) && slots.includes('media')) slot = 'media'
    if (!slot || (FIELD_LAYOUTS.has(layout) && slot !== 'footer')) {
      leftover(block)
      continue
    }
    // A dropping layout holds one block per placeholder.
    if (drop && out.some((b) => b.slot === slot)) {
      dropped.push(block.id)
      continue
    }
    out.push({ ...block, slot })
  }
  for (const block of append) out.push({ ...strip(block), slot: FIELD_LAYOUTS.has(layout) ? (slots.includes('footer') ? 'footer' : main) : main })
  // Keep slot order stable: blocks grouped by the layout's slot order, document order inside a slot.
  const order = [...slots, ...SLOTS.filter((s) => !slots.includes(s))]
  out.sort((a, b) => order.indexOf(a.slot as SlotName) - order.indexOf(b.slot as SlotName))
  const all = [...covering, ...out]
  if (all.length || !FIELD_LAYOUTS.has(layout)) next.blocks = all
  return { slide: next, dropped }
}

/** The placeholder a new slide gets in a slot: a heading in the title slot, a list on an agenda, a table on a table slide, a chart on a chart slide, else text. */
function placeholder(layout: string, slot: SlotName): Block {
  if (slot === 'title') return { id: slot, kind: 'heading', slot, text: '' }
  if (slot === 'media' && layout === 'chart') return { id: slot, kind: 'chart', slot, chartType: 'column', data: { categories: ['', ''], series: [{ name: '', values: [null, null] }] } }
  if (slot === 'media') return { id: slot, kind: 'picture', slot }
  if (slot === 'body' && layout === 'agenda') return { id: slot, kind: 'list', slot, items: [{ text: '' }] }
  if (slot === 'body' && layout === 'table') return { id: slot, kind: 'table', slot, header: true, rows: [['', ''], ['', '']] }
  return { id: slot, kind: 'text', slot, text: '' }
}

/**
 * A new slide of a layout with empty placeholders: a title slide's title and subtitle fields, a
 * section header's title, an empty canvas, else one empty block per text slot of the layout, an
 * empty chart in the media slot of a chart slide and a picture placeholder (no asset) in any other
 * media slot. The footer stays empty.
 */
export function blankSlide(id: string, layout: string): Slide {
  if (layout === 'title') return { id, layout, title: '', subtitle: '' }
  if (layout === 'section') return { id, layout, title: '' }
  if (layout === CANVAS) return { id, layout, blocks: [] }
  const blocks = layoutSlots(layout)
    .filter((slot) => slot !== 'footer')
    .map((slot) => placeholder(layout, slot))
  return { id, layout, blocks }
}

/**
 * The picture placeholder slide.insert adds to a slide document whose layout has a media slot that
 * the document leaves empty (a chart slide's media slot stays as given): the slide an agent inserts
 * shows where its picture goes, and block.set /asset fills it.
 */
export function withPicturePlaceholder(slide: Slide): Slide {
  if (slide.layout === 'chart' || slide.layout === CANVAS || !layoutSlots(slide.layout).includes('media')) return slide
  const blocks = slide.blocks ?? []
  if (blocks.some((b) => b.slot === 'media' || (b.kind === 'picture' && b.background === true))) return slide
  return { ...slide, blocks: [...blocks, { id: freeBlockId(slide, 'media'), kind: 'picture', slot: 'media' }] }
}
