/** The 22 layouts and 8 slots. The names are ours (the spec does not show them); docs/model.md explains each. */
export const LAYOUTS = [
  'title', // Title slide: its own title, subtitle and byline fields
  'section', // Section header: starts a section
  'title-body', // Title and body
  'title-only', // Title only
  'two-columns', // Two columns
  'three-columns', // Three columns
  'comparison', // Comparison: two headed columns
  'main-point', // Main point: one statement
  'big-number', // Big number with a caption
  'quote', // Quote with attribution
  'picture-caption', // Picture with caption
  'picture-full', // Full-bleed picture
  'picture-left', // Picture beside text
  'agenda', // Agenda list
  'timeline', // Timeline
  'table', // Title and table
  'chart', // Title and chart
  'grid', // Four-up grid
  'statement', // Statement with supporting text
  'closing', // Closing / thank-you
  'blank', // Blank, slotted
  'freeform', // The canvas: every block positioned
] as const

export const SLOTS = ['title', 'subtitle', 'body', 'left', 'right', 'media', 'caption', 'footer'] as const

export type LayoutName = (typeof LAYOUTS)[number]
export type SlotName = (typeof SLOTS)[number]

/** The sheet every box is measured on, in sheet pixels. */
export const SHEET = { width: 1600, height: 900 } as const

/** How the regions of a layout sit: side by side (columns) or stacked (rows). */
export type Arrangement = 'columns' | 'rows'

/**
 * A slide's region options (its `layoutOptions`, written by slide.setLayout): `ratio` is the first
 * region's share of the room the gaps leave, `gap` the space between regions in sheet px, `layout`
 * the arrangement. An absent member takes the layout's own. Which layouts take which options, and
 * what their regions are: src/layout/boxes.ts (REGIONS), docs/layouts.md#region-options.
 */
export interface LayoutOptions {
  ratio?: number
  gap?: number
  layout?: Arrangement
}

export type LayoutOption = keyof LayoutOptions
