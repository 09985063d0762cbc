/**
 * The slot boxes of the 22 layouts on the 1600 × 900 sheet (docs/layouts.md draws them as a table).
 *
 * The grid: 80 px side margins, 56 px top and 60 px bottom margins (the content box), a 120 px title band
 * at the top of content layouts, the body from y 208 to 776, a 40 px footer band at y 800. Every
 * number is a multiple of the 8 px grid. Title slide, section header and closing centre their text;
 * main point, statement, quote and big number centre one big body.
 */
import { LAYOUTS, SHEET, type SlotName } from '../model/layouts.js'

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
const LEFT: Box = { x: 80, y: 208, w: 688, h: 568 }
const RIGHT: Box = { x: 832, y: 208, w: 688, h: 568 }

const top = (box: Box): SlotSpec => ({ box, anchor: 'top' })
const middle = (box: Box): SlotSpec => ({ box, anchor: 'middle' })
const bottom = (box: Box): SlotSpec => ({ box, anchor: 'bottom' })

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
  'two-columns': { title: middle(TITLE), left: top(LEFT), right: top(RIGHT), footer: top(FOOTER) },
  'three-columns': {
    title: middle(TITLE),
    left: top({ x: 80, y: 208, w: 448, h: 568 }),
    body: top({ x: 576, y: 208, w: 448, h: 568 }),
    right: top({ x: 1072, y: 208, w: 448, h: 568 }),
    footer: top(FOOTER),
  },
  comparison: {
    title: middle(TITLE),
    subtitle: bottom({ x: 80, y: 208, w: 688, h: 72 }),
    caption: bottom({ x: 832, y: 208, w: 688, h: 72 }),
    left: top({ x: 80, y: 304, w: 688, h: 472 }),
    right: top({ x: 832, y: 304, w: 688, h: 472 }),
    footer: top(FOOTER),
  },
  'main-point': { body: middle({ x: 160, y: 160, w: 1280, h: 584 }), footer: top(FOOTER) },
  'big-number': {
    body: middle({ x: 160, y: 120, w: 1280, h: 440 }),
    caption: top({ x: 160, y: 584, w: 1280, h: 160 }),
    footer: top(FOOTER),
  },
  quote: {
    body: middle({ x: 160, y: 136, w: 1280, h: 480 }),
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
  'picture-left': {
    media: top({ x: 0, y: 0, w: 760, h: 900 }),
    title: middle({ x: 840, y: 56, w: 680, h: 120 }),
    body: top({ x: 840, y: 208, w: 680, h: 568 }),
    footer: top({ x: 840, y: 800, w: 680, h: 40 }),
  },
  agenda: {
    title: top({ x: 80, y: 56, w: 448, h: 720 }),
    body: top({ x: 592, y: 56, w: 928, h: 720 }),
    footer: top(FOOTER),
  },
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
  grid: {
    title: middle(TITLE),
    left: top({ x: 80, y: 208, w: 688, h: 272 }),
    right: top({ x: 832, y: 208, w: 688, h: 272 }),
    body: top({ x: 80, y: 504, w: 688, h: 272 }),
    media: top({ x: 832, y: 504, w: 688, h: 272 }),
    footer: top(FOOTER),
  },
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

/** The slot boxes of a layout on the sheet ({} for freeform and unknown layouts). */
export function slotBoxes(layout: string): Partial<Record<SlotName, Box>> {
  const specs = LAYOUT_SLOTS[layout] ?? {}
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
