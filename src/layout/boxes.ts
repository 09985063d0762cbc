/**
 * The slot boxes of the 22 layouts on the 1600 × 900 sheet (docs/layouts.md draws them as a table).
 *
 * The grid: 80 px side margins, 56 px top and 60 px bottom margins (the content box), a 120 px title band
 * at the top of content layouts, the body from y 208 to 776, a 40 px footer band at y 800. Every
 * number is a multiple of the 8 px grid. Title slide, section header and closing centre their text;
 * main point, statement, quote and big number centre one big body.
 */
import { LAYOUTS, SHEET, type Arrangement, type LayoutOption, type LayoutOptions, type SlotName } from '../model/layouts.js'

export type { Arrangement, LayoutOption, LayoutOptions }

export interface Box { x: number; y: number; w: number; h: number }

/** Where a slot's stack sits when it is shorter than the slot (it starts at the top when it overflows). */
export type Anchor = 'top' | 'middle' | 'bottom'

export interface SlotSpec { box: Box; anchor: Anchor }

export const MARGIN_X = 80
export const MARGIN_TOP = 56
/** 60, not 56: the sheet's 900 px put a symmetric bottom edge off the 8 px grid. */
export const MARGIN_BOTTOM = 60
/** The gap between blocks stacked in one slot. */
export const STACK_GAP = 24

const CONTENT: Box = { x: MARGIN_X, y: MARGIN_TOP, w: SHEET.width - 2 * MARGIN_X, h: SHEET.height - MARGIN_TOP - MARGIN_BOTTOM }
const TITLE: Box = { x: 80, y: 56, w: 1440, h: 120 }
const BODY: Box = { x: 80, y: 208, w: 1440, h: 568 }
const FOOTER: Box = { x: 80, y: 800, w: 1440, h: 40 }

const top = (box: Box): SlotSpec => ({ box, anchor: 'top' })
const middle = (box: Box): SlotSpec => ({ box, anchor: 'middle' })
const bottom = (box: Box): SlotSpec => ({ box, anchor: 'bottom' })

interface Resolved {
  ratio: number
  gap: number
  layout: Arrangement
}

/** A layout whose slots are regions of one area, split by its options. */
export interface RegionLayout {
  /** The options the layout takes; the model check refuses the others. */
  takes: readonly LayoutOption[]
  /** The layout's own options (what an absent member means). */
  own: Resolved
  /** What the regions are, for docs/layouts.md. */
  regions: string
  /** The slots at resolved options. */
  slots: (options: Resolved) => Partial<Record<SlotName, SlotSpec>>
}

const snap = (v: number) => Math.round(v / 8) * 8

/**
 * Splits `area` into `count` regions along the arrangement's axis, `gap` apart: the first takes
 * `ratio` of the room the gaps leave, the others share the rest equally (the last takes what
 * rounding leaves). Region sizes are rounded to the 8 px grid, so a gap on the grid keeps every
 * edge on it.
 */
export function splitRegions(area: Box, count: number, ratio: number, gap: number, layout: Arrangement): Box[] {
  const rows = layout === 'rows'
  const length = rows ? area.h : area.w
  const room = length - gap * (count - 1)
  const sizes = [snap(room * ratio)]
  for (let i = 1; i < count; i++) {
    const left = room - sizes.reduce((a, b) => a + b, 0)
    sizes.push(i === count - 1 ? left : snap(left / (count - i)))
  }
  let at = rows ? area.y : area.x
  return sizes.map((size) => {
    const box = rows ? { x: area.x, y: at, w: area.w, h: size } : { x: at, y: area.y, w: size, h: area.h }
    at += size + gap
    return box
  })
}

/** The column heads of comparison: a 72 px band at the top of each region, the column 24 px below. */
const HEAD = 72

/**
 * The layouts that take region options, with their own values. Their default boxes (LAYOUT_SLOTS,
 * the table of docs/layouts.md) are these functions at their own options.
 */
export const REGIONS: Record<string, RegionLayout> = {
  'two-columns': {
    takes: ['ratio', 'gap', 'layout'],
    own: { ratio: 0.5, gap: 64, layout: 'columns' },
    regions: 'left, right',
    slots: ({ ratio, gap, layout }) => {
      const [left, right] = splitRegions(BODY, 2, ratio, gap, layout)
      return { title: middle(TITLE), left: top(left), right: top(right), footer: top(FOOTER) }
    },
  },
  'three-columns': {
    takes: ['ratio', 'gap', 'layout'],
    own: { ratio: 1 / 3, gap: 48, layout: 'columns' },
    regions: 'left, body, right (body and right share what left leaves)',
    slots: ({ ratio, gap, layout }) => {
      const [left, body, right] = splitRegions(BODY, 3, ratio, gap, layout)
      return { title: middle(TITLE), left: top(left), body: top(body), right: top(right), footer: top(FOOTER) }
    },
  },
  comparison: {
    takes: ['ratio', 'gap', 'layout'],
    own: { ratio: 0.5, gap: 64, layout: 'columns' },
    regions: 'subtitle over left, caption over right',
    slots: ({ ratio, gap, layout }) => {
      const [a, b] = splitRegions(BODY, 2, ratio, gap, layout)
      const head = (r: Box): Box => ({ x: r.x, y: r.y, w: r.w, h: HEAD })
      const column = (r: Box): Box => ({ x: r.x, y: r.y + HEAD + STACK_GAP, w: r.w, h: r.h - HEAD - STACK_GAP })
      return { title: middle(TITLE), subtitle: bottom(head(a)), caption: bottom(head(b)), left: top(column(a)), right: top(column(b)), footer: top(FOOTER) }
    },
  },
  'picture-left': {
    takes: ['ratio', 'gap'],
    own: { ratio: 760 / 1440, gap: 80, layout: 'columns' },
    regions: 'media (full bleed at the left edge), then title, body and footer',
    slots: ({ ratio, gap }) => {
      const [media, text] = splitRegions({ x: 0, y: 0, w: SHEET.width - MARGIN_X, h: SHEET.height }, 2, ratio, gap, 'columns')
      const band = (y: number, h: number): Box => ({ x: text.x, y, w: text.w, h })
      return { media: top(media), title: middle(band(TITLE.y, TITLE.h)), body: top(band(BODY.y, BODY.h)), footer: top(band(FOOTER.y, FOOTER.h)) }
    },
  },
  agenda: {
    takes: ['ratio', 'gap'],
    own: { ratio: 448 / 1376, gap: 64, layout: 'columns' },
    regions: 'title, body',
    slots: ({ ratio, gap }) => {
      const [title, body] = splitRegions({ x: MARGIN_X, y: MARGIN_TOP, w: CONTENT.w, h: 720 }, 2, ratio, gap, 'columns')
      return { title: top(title), body: top(body), footer: top(FOOTER) }
    },
  },
  grid: {
    takes: ['ratio', 'gap'],
    own: { ratio: 0.5, gap: 64, layout: 'columns' },
    regions: 'left over body, right over media (two columns, each two equal rows 24 px apart)',
    slots: ({ ratio, gap }) => {
      const [a, b] = splitRegions(BODY, 2, ratio, gap, 'columns')
      const [left, body] = splitRegions(a, 2, 0.5, STACK_GAP, 'rows')
      const [right, media] = splitRegions(b, 2, 0.5, STACK_GAP, 'rows')
      return { title: middle(TITLE), left: top(left), right: top(right), body: top(body), media: top(media), footer: top(FOOTER) }
    },
  },
}

/** A region layout's slots at its own options. */
function regionSlots(layout: string): Partial<Record<SlotName, SlotSpec>> {
  return REGIONS[layout].slots(REGIONS[layout].own)
}

/** Each layout's slots, in reading order. */
export const LAYOUT_SLOTS: Record<string, Partial<Record<SlotName, SlotSpec>>> = {
  title: {
    title: bottom({ x: 160, y: 216, w: 1280, h: 264 }),
    subtitle: top({ x: 160, y: 504, w: 1280, h: 112 }),
    caption: top({ x: 160, y: 640, w: 1280, h: 64 }),
    footer: top(FOOTER),
  },
  section: {
    title: bottom({ x: 160, y: 200, w: 1280, h: 280 }),
    subtitle: top({ x: 160, y: 504, w: 1280, h: 144 }),
    footer: top(FOOTER),
  },
  'title-body': { title: middle(TITLE), body: top(BODY), footer: top(FOOTER) },
  'title-only': { title: middle(TITLE), footer: top(FOOTER) },
  'two-columns': regionSlots('two-columns'),
  'three-columns': regionSlots('three-columns'),
  comparison: regionSlots('comparison'),
  'main-point': { body: middle({ x: 160, y: 160, w: 1280, h: 584 }), footer: top(FOOTER) },
  'big-number': {
    body: middle({ x: 160, y: 120, w: 1280, h: 440 }),
    caption: top({ x: 160, y: 584, w: 1280, h: 160 }),
    footer: top(FOOTER),
  },
  // The quote sits on its attribution (bottom of its box, one gap above the caption), the two read as one
  // and are centred together between 160 and 744, as a main point is (stack.ts GROUPED_SLOTS).
  quote: {
    body: bottom({ x: 160, y: 160, w: 1280, h: 456 }),
    caption: top({ x: 160, y: 640, w: 1280, h: 104 }),
    footer: top(FOOTER),
  },
  'picture-caption': {
    title: middle(TITLE),
    media: top({ x: 80, y: 208, w: 1440, h: 480 }),
    caption: top({ x: 80, y: 712, w: 1440, h: 64 }),
    footer: top(FOOTER),
  },
  'picture-full': { media: top({ x: 0, y: 0, w: SHEET.width, h: SHEET.height }) },
  'picture-left': regionSlots('picture-left'),
  agenda: regionSlots('agenda'),
  timeline: {
    title: middle(TITLE),
    body: middle({ x: 80, y: 208, w: 1440, h: 400 }),
    caption: top({ x: 80, y: 632, w: 1440, h: 144 }),
    footer: top(FOOTER),
  },
  table: {
    title: middle(TITLE),
    body: top({ x: 80, y: 208, w: 1440, h: 512 }),
    caption: top({ x: 80, y: 736, w: 1440, h: 40 }),
    footer: top(FOOTER),
  },
  chart: {
    title: middle(TITLE),
    media: top({ x: 80, y: 208, w: 1440, h: 512 }),
    caption: top({ x: 80, y: 736, w: 1440, h: 40 }),
    footer: top(FOOTER),
  },
  grid: regionSlots('grid'),
  statement: {
    body: middle({ x: 160, y: 152, w: 1280, h: 400 }),
    subtitle: top({ x: 160, y: 576, w: 1280, h: 192 }),
    footer: top(FOOTER),
  },
  closing: {
    title: bottom({ x: 160, y: 216, w: 1280, h: 264 }),
    subtitle: top({ x: 160, y: 504, w: 1280, h: 200 }),
    footer: top(FOOTER),
  },
  blank: { body: top(CONTENT) },
  freeform: {},
}

for (const layout of LAYOUTS) if (!LAYOUT_SLOTS[layout]) throw new Error(`layout ${layout} has no slot boxes`)

/**
 * A slide's footer band, where the renderer and the exports draw its furniture (the slide number, the
 * brand kit's footer text and footer logo): its layout's footer slot, the sheet's band on the canvas;
 * none for a layout without a footer slot (blank).
 */
export function footerBand(layout: string): Box | undefined {
  if (layout === 'freeform' || !Object.hasOwn(LAYOUT_SLOTS, layout)) return FOOTER
  return LAYOUT_SLOTS[layout].footer?.box
}

/** Whether a slide shows the brand kit's footer text and footer logo: it has a footer band and no block fills it. */
export function showsKitFooter(slide: { layout: string; blocks?: { slot?: unknown }[] }): boolean {
  return footerBand(slide.layout) !== undefined && !(slide.blocks ?? []).some((b) => b.slot === 'footer')
}

/**
 * A layout's slots with a slide's region options (docs/layouts.md#region-options): the layout's own
 * boxes when it takes no options or none is given. Options a layout does not take are ignored here
 * (the model check refuses them on write).
 */
export function layoutSlots(layout: string, options?: LayoutOptions): Partial<Record<SlotName, SlotSpec>> {
  const regions = Object.hasOwn(REGIONS, layout) ? REGIONS[layout] : undefined
  const own = Object.hasOwn(LAYOUT_SLOTS, layout) ? LAYOUT_SLOTS[layout] : undefined
  if (!regions || !options) return own ?? {}
  const resolved = { ...regions.own }
  for (const name of regions.takes) if (options[name] !== undefined) (resolved as Record<LayoutOption, unknown>)[name] = options[name]
  return regions.slots(resolved)
}

/** The slot boxes of a layout on the sheet ({} for freeform and unknown layouts), with a slide's region options. */
export function slotBoxes(layout: string, options?: LayoutOptions): Partial<Record<SlotName, Box>> {
  const specs = layoutSlots(layout, options)
  const out: Partial<Record<SlotName, Box>> = {}
  for (const [slot, spec] of Object.entries(specs) as [SlotName, SlotSpec][]) out[slot] = { ...spec.box }
  return out
}

/** The content area: the sheet minus its margins (align and distribute `to: content`). */
export function contentBox(): Box {
  return { ...CONTENT }
}

/** Layouts whose own fields (title, subtitle, byline, attribution) are drawn in slots. */
export const FIELD_SLOTS: Record<string, Partial<Record<'title' | 'subtitle' | 'byline' | 'attribution', SlotName>>> = {
  title: { title: 'title', subtitle: 'subtitle', byline: 'caption' },
  section: { title: 'title', subtitle: 'subtitle' },
  quote: { attribution: 'caption' },
  'big-number': { attribution: 'caption' },
}
