/**
 * Layout changes: to the freeform canvas (toCanvas) and back into slots (refile).
 */
import type { Block, Slide } from '../model/deck.js'
import { LAYOUTS, type SlotName } from '../model/layouts.js'
import { layoutSlots, type Box, type LayoutOptions, type SlotSpec } from './boxes.js'
import { defaultSize, TEXT_BEARING } from './blocks.js'
import { drawn, FIELDS, GROUPED_SLOTS, isCovering, type Drawn } from './stack.js'
import { DEFAULT_FONTS, type ThemeFonts } from '../model/fonts.js'

const round = (box: Box): Box => ({ x: Math.round(box.x), y: Math.round(box.y), w: Math.round(box.w), h: Math.round(box.h) })

function withoutFields(slide: Slide): Slide {
  const out: Slide = { ...slide }
  for (const field of FIELDS) delete out[field]
  return out
}

/**
 * A freeform copy of a slotted slide: every block gets `pos` (the box it is drawn at) and `z` (its
 * drawing order, covering pictures at the back), loses `slot`, and keeps its look: a text block
 * whose size came from its slot gets that size written. The fields of title, section, quote and
 * big-number slides become blocks (title → heading `title`, subtitle → text `subtitle`, byline →
 * text `byline`, attribution → text `attribution`). A freeform slide is returned as is.
 */
export function toCanvas(slide: Slide, fonts: ThemeFonts = DEFAULT_FONTS): Slide {
  if (slide.layout === 'freeform') return slide
  const blocks = drawn(slide, fonts).items.map((item, z) => {
    const block: Block = { ...structuredClone(item.block), pos: round(item.box), z }
    delete block.slot
    if (TEXT_BEARING.has(block.kind) && block.size === undefined) {
      const size = defaultSize(item.block, slide.layout, item.slot, fonts.scale ?? 1)
      if (size !== defaultSize(block, undefined, undefined, fonts.scale ?? 1)) block.size = size
    }
    return block
  })
  const out: Slide = { ...withoutFields(slide), layout: 'freeform', blocks }
  delete out.layoutOptions
  return out
}

function distance(x: number, y: number, box: Box): number {
  const dx = Math.max(box.x - x, 0, x - (box.x + box.w))
  const dy = Math.max(box.y - y, 0, y - (box.y + box.h))
  return Math.hypot(dx, dy)
}

/** The slot whose box holds a box's centre, else the nearest slot (first in reading order on ties); `options` are the layout's region options. */
export function slotAt(layout: string, box: Box, options?: LayoutOptions): SlotName | undefined {
  const cx = box.x + box.w / 2
  const cy = box.y + box.h / 2
  let best: SlotName | undefined
  let bestDistance = Infinity
  for (const [slot, spec] of Object.entries(layoutSlots(layout, options)) as [SlotName, SlotSpec][]) {
    const d = distance(cx, cy, spec.box)
    if (d < bestDistance) {
      best = slot
      bestDistance = d
    }
  }
  return best
}

const TEXT_FIELD_KINDS = new Set(['heading', 'text', 'textbox'])
const hasText = (block: Block) => TEXT_FIELD_KINDS.has(block.kind) && typeof block.text === 'string'

/**
 * Files a slide's blocks into the slots of `layout`: `pos` and `z` dropped, each block filed into
 * the slot whose box holds the centre of the box it is drawn at now (else the nearest slot; a block
 * of a slotted slide keeps its slot when the new layout has it), each slot's blocks ordered by y
 * then x (a grouped pair of slots, drawn moved together, is split anew: `regroup`). Title and section layouts take a heading (the title slot's first, else the first on the
 * slide) into their title field and the first text of the subtitle slot (and, on a Title slide, of
 * the caption slot) into subtitle (and byline); quote and big number take a text block
 * `attribution` filed in their caption slot into their attribution field. A Title slide keeps only
 * those fields and its footer; a Main point keeps one statement (the body's first text, else the
 * slide's) and its footer: every other block is dropped and named in `dropped`. Covering pictures
 * stay at the back. On a canvas slide, a size equal to the new slot's default (as toCanvas writes
 * it) is removed again. The refiled slide carries `options` as its region options (the source's
 * are dropped): blocks fall into the slots those options draw.
 * To `freeform`, refile is toCanvas.
 */
export function refile(slide: Slide, layout: string, options?: LayoutOptions, fonts: ThemeFonts = DEFAULT_FONTS): { slide: Slide; dropped: string[] } {
  if (layout === 'freeform') return { slide: toCanvas(slide, fonts), dropped: [] }
  if (!(LAYOUTS as readonly string[]).includes(layout)) throw new Error(`Unknown layout "${layout}".`)
  const specs = layoutSlots(layout, options)
  const slotted = slide.layout !== 'freeform'
  const { items } = drawn(slide, fonts)
  const covering: Block[] = []
  const filed = new Map<SlotName, Drawn[]>()
  for (const item of items) {
    if (isCovering(item.block)) {
      covering.push(item.block)
      continue
    }
    const slot = slotted && item.slot && item.slot in specs ? item.slot : slotAt(layout, item.box, options)!
    if (!filed.has(slot)) filed.set(slot, [])
    filed.get(slot)!.push(item)
  }
  const byPlace = (a: Drawn, b: Drawn) => a.box.y - b.box.y || a.box.x - b.box.x
  for (const list of filed.values()) list.sort(byPlace)
  if (!slotted) regroup(slide.id, layout, options, filed, fonts)

  const fields: Partial<Record<(typeof FIELDS)[number], string>> = {}
  const take = (slot: SlotName, test: (b: Block) => boolean): Block | undefined => {
    const list = filed.get(slot) ?? []
    const i = list.findIndex((d) => test(d.block))
    return i < 0 ? undefined : list.splice(i, 1)[0].block
  }
  if (layout === 'title' || layout === 'section') {
    let title = take('title', (b) => b.kind === 'heading' && typeof b.text === 'string')
    if (!title) {
      const all = [...filed.entries()].flatMap(([slot, list]) => list.map((d) => ({ slot, d }))).sort((a, b) => byPlace(a.d, b.d))
      const hit = all.find(({ d }) => d.block.kind === 'heading' && typeof d.block.text === 'string')
      if (hit) title = take(hit.slot, (b) => b === hit.d.block)
    }
    title ??= take('title', hasText)
    fields.title = (title?.text as string | undefined) ?? ''
    const subtitle = take('subtitle', hasText)
    if (subtitle) fields.subtitle = subtitle.text as string
    if (layout === 'title') {
      const byline = take('caption', hasText)
      if (byline) fields.byline = byline.text as string
    }
  }
  if (layout === 'quote' || layout === 'big-number') {
    const attribution = take('caption', (b) => b.id === 'attribution' && b.kind === 'text' && typeof b.text === 'string')
    if (attribution) fields.attribution = attribution.text as string
  }

  const dropped: string[] = []
  if (layout === 'title' || layout === 'main-point') {
    let statement: Drawn | undefined
    if (layout === 'main-point') {
      statement = (filed.get('body') ?? []).find((d) => hasText(d.block))
      statement ??= [...filed.entries()].filter(([slot]) => slot !== 'footer').flatMap(([, list]) => list).sort(byPlace).find((d) => hasText(d.block))
    }
    for (const [slot, list] of filed) {
      if (slot === 'footer') continue
      for (const d of list) if (d !== statement) dropped.push(d.block.id)
      filed.set(slot, [])
    }
    if (statement) filed.set('body', [statement])
  }

  const blocks: Block[] = [...covering.map((b) => clean(b))]
  for (const slot of Object.keys(specs) as SlotName[]) {
    for (const d of filed.get(slot) ?? []) {
      const block = clean(d.block)
      block.slot = slot
      if (!slotted && typeof block.size === 'number' && block.size === defaultSize(block, layout, slot, fonts.scale ?? 1)) delete block.size
      blocks.push(block)
    }
  }
  const next: Slide = { ...withoutFields(slide), layout, ...fields }
  delete next.layoutOptions
  if (options && Object.keys(options).length) next.layoutOptions = structuredClone(options)
  if (blocks.length || (layout !== 'title' && layout !== 'section')) next.blocks = blocks
  else delete next.blocks
  return { slide: next, dropped }
}

/**
 * Grouped slots (a quote on its attribution, stack.ts `GROUPED_SLOTS`) are drawn moved together, so a
 * block of the lower one can be drawn inside the upper one's box. Filed by where they stand, the
 * pair's blocks are split anew, top to bottom: a split whose drawing puts every one of them where the
 * canvas has it (to the pixel) is theirs, the one that leaves fewest sizes other than the slot's own
 * when several do (an attribution at 24 px draws alike in either slot: it is the caption's); when none
 * does (a canvas arranged by hand), the filing by boxes stands.
 */
function regroup(id: string, layout: string, options: LayoutOptions | undefined, filed: Map<SlotName, Drawn[]>, fonts: ThemeFonts): void {
  const pair = Object.hasOwn(GROUPED_SLOTS, layout) ? GROUPED_SLOTS[layout] : undefined
  if (!pair) return
  const [upper, lower] = pair
  const group = [...(filed.get(upper) ?? []), ...(filed.get(lower) ?? [])].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
  if (!group.length) return
  const slotOf = (split: number, i: number) => (i < split ? upper : lower)
  const draws = (split: number) => {
    const blocks = group.map((d, i) => ({ ...clean(d.block), slot: slotOf(split, i) }))
    const at = new Map(drawn({ id, layout, ...(options ? { layoutOptions: options } : {}), blocks }, fonts).items.map((item) => [item.block.id, item.box]))
    return group.every((d) => {
      const box = at.get(d.block.id)
      return box && [box.x - d.box.x, box.y - d.box.y, box.w - d.box.w, box.h - d.box.h].every((v) => Math.abs(v) <= 1)
    })
  }
  const foreignSizes = (split: number) =>
    group.filter((d, i) => typeof d.block.size === 'number' && d.block.size !== defaultSize(d.block, layout, slotOf(split, i), fonts.scale ?? 1)).length
  let best: number | undefined
  for (let split = 0; split <= group.length; split++) {
    if (draws(split) && (best === undefined || foreignSizes(split) < foreignSizes(best))) best = split
  }
  if (best === undefined) return
  filed.set(upper, group.slice(0, best))
  filed.set(lower, group.slice(best))
}

function clean(block: Block): Block {
  const out = structuredClone(block)
  delete out.pos
  delete out.z
  delete out.slot
  return out
}
