/**
 * Chart geometry: where a chart block's title, legend, plot, axes and labels go inside its box, and
 * the value (and, for a scatter chart, x) scale its data needs. One owner for the renderer
 * (src/render/charts.ts) and the native PPTX writer (src/export/pptx-native.ts), so the bars
 * PowerPoint draws stand where ours do, over the same axis.
 *
 * - Any data: a value axis always holds zero and every value, negatives included (a bar of -3 hangs
 *   below the zero line); stacked bars stack their positive and negative parts apart, stacked lines
 *   and areas add values as they come (a negative lowers the running total), as spreadsheets do.
 * - Labels are measured with the body face's real advances (the layout module's `textWidth`):
 *   value labels get the room the widest needs, the last one of a horizontal axis is not cut at the
 *   edge, category labels that do not fit their band wrap to two lines, then end in an ellipsis, and
 *   when even that leaves too little, only every k-th is written; the legend wraps into rows.
 */
import type { Box } from './boxes.js'
import { stripMarkup, textWidth } from './text.js'

export const CHART_TYPES = ['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter'] as const
export type ChartType = (typeof CHART_TYPES)[number]

export interface ChartSeries {
  name: string
  /** A finite number or null (a gap) per category. */
  values: (number | null)[]
}

/** A chart block's data, read leniently: what the renderer and the PPTX writer draw. */
export interface ChartData {
  type: ChartType
  stacked: boolean
  title: string
  categories: string[]
  series: ChartSeries[]
  /** Categories drawn: the category labels, else the longest series. */
  count: number
}

/** An axis: its ends, the step between ticks, and the ticks from `min` to `max`. */
export interface Scale {
  min: number
  max: number
  step: number
  ticks: number[]
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** The data of a chart block (its `chartType`, `stacked`, `title` and `data`), read leniently. */
export function chartData(block: { [key: string]: unknown }): ChartData {
  const data = (block.data ?? {}) as { categories?: unknown; series?: unknown }
  const categories = Array.isArray(data.categories) ? data.categories.map((c) => String(c ?? '')) : []
  const series = (Array.isArray(data.series) ? data.series : []).map((s: { name?: unknown; values?: unknown } | null) => ({
    name: String(s?.name ?? ''),
    values: Array.isArray(s?.values) ? s.values.map(finite) : [],
  }))
  const type = (CHART_TYPES as readonly unknown[]).includes(block.chartType) ? (block.chartType as ChartType) : 'column'
  const count = categories.length || Math.max(0, ...series.map((s) => s.values.length))
  return { type, stacked: block.stacked === true, title: typeof block.title === 'string' ? stripMarkup(block.title) : '', categories, series, count }
}

/** The top of a value axis: the least of 1, 2, 2.5, 5 or 10 times a power of ten at or above `value`. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1
  const magnitude = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value * (1 - 1e-12)) return step * magnitude
  return 10 * magnitude
}

/** Rounds away binary noise (0.1 * 3) so labels and axis bounds read as written. */
const clean = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(12)))

/**
 * The axis for values from `lo` to `hi`, always holding zero: the smallest round step (1, 2, 2.5 or 5
 * times a power of ten) that covers them in at most six steps from a tick to a tick, zero among them.
 *
 * @example niceScale(-4, 6) // { min: -4, max: 6, step: 2, ticks: [-4, -2, 0, 2, 4, 6] }
 */
export function niceScale(lo: number, hi: number): Scale {
  lo = Math.min(0, Number.isFinite(lo) ? lo : 0)
  hi = Math.max(0, Number.isFinite(hi) ? hi : 0)
  if (lo === 0 && hi === 0) hi = 1
  let step = niceMax((hi - lo) / 6)
  let min = 0
  let max = 0
  for (let guard = 0; guard < 8; guard++) {
    min = Math.floor(lo / step + 1e-9) * step
    max = Math.ceil(hi / step - 1e-9) * step
    if (Math.round((max - min) / step) <= 6) break
    step = niceMax(step * 1.01)
  }
  const n = Math.round((max - min) / step)
  const ticks = Array.from({ length: n + 1 }, (_, k) => clean(min + k * step))
  return { min: clean(min), max: clean(max), step: clean(step), ticks }
}

/** The unit a scale's labels are written in: none below ten thousand, then k, M or B (by the axis's larger end). */
function unitOf(scale: Scale): { unit: number; suffix: string; decimals: number } {
  const top = Math.max(Math.abs(scale.min), Math.abs(scale.max))
  const [unit, suffix] = top >= 1e9 ? [1e9, 'B'] : top >= 1e6 ? [1e6, 'M'] : top >= 1e4 ? [1e3, 'k'] : [1, '']
  const stepText = String(clean(scale.step / unit))
  const decimals = Math.min(6, stepText.includes('e-') ? 6 : (stepText.split('.')[1]?.length ?? 0))
  return { unit, suffix, decimals }
}

/**
 * A tick's label: as many decimals as the step needs, in compact units from ten thousand up (12.5k,
 * 3.0M: one number of decimals along the axis); zero is always "0".
 */
export function tickLabel(value: number, scale: Scale): string {
  const { unit, suffix, decimals } = unitOf(scale)
  if (Math.abs(value) < scale.step * 1e-9) return '0'
  if (unit === 1) return String(clean(Number(value.toFixed(decimals))))
  return `${(value / unit).toFixed(decimals)}${suffix}`
}

/**
 * The number format a spreadsheet writes tickLabel's labels with (the PPTX chart's axis): General
 * below ten thousand, else the unit's thousands scaling with the same decimals.
 */
export function tickFormatCode(scale: Scale): string {
  const { unit, suffix, decimals } = unitOf(scale)
  if (unit === 1) return 'General'
  const number = `0${decimals ? `.${'0'.repeat(decimals)}` : ''}${','.repeat(Math.round(Math.log10(unit) / 3))}"${suffix}"`
  return `${number};-${number};0`
}

/** The lowest and highest value the drawn marks reach (stacked: the running totals). */
export function valueRange(data: ChartData): { lo: number; hi: number } {
  let lo = 0
  let hi = 0
  const see = (v: number) => {
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  if (!data.stacked) {
    for (const s of data.series) for (const v of s.values) if (v !== null) see(v)
    return { lo, hi }
  }
  for (let i = 0; i < data.count; i++) {
    if (data.type === 'bar' || data.type === 'column') {
      let up = 0
      let down = 0
      for (const s of data.series) {
        const v = s.values[i] ?? 0
        if (v >= 0) up += v
        else down += v
      }
      see(up)
      see(down)
    } else {
      let total = 0
      for (const s of data.series) {
        total += s.values[i] ?? 0
        see(total)
      }
    }
  }
  return { lo, hi }
}

/** The x values of a scatter chart: its categories where numeric, else their position counted from 1. */
export function scatterXs(data: ChartData): number[] {
  return data.categories.map((c, i) => (c.trim() !== '' && Number.isFinite(Number(c)) ? Number(c) : i + 1))
}

/** One label line placed by the layout: its text, where its anchor point is, and how it is anchored. */
export interface PlacedLabel {
  text: string
  x: number
  y: number
  anchor: 'start' | 'middle' | 'end'
}

export interface LegendItem {
  name: string
  /** The colour index: the series, or for a pie the slice. */
  index: number
  /** The swatch's left edge and the row's baseline. */
  x: number
  y: number
}

export interface ChartLayout {
  data: ChartData
  /** The label size, px: a 22nd of the box's height, 12 to 22. */
  size: number
  /** The title's baseline centre and size, when there is a title. */
  title?: { text: string; x: number; y: number; size: number }
  legend: LegendItem[]
  /** The room the legend takes at the bottom. */
  legendHeight: number
  /** Below the title, above the legend. */
  plot: Box
  /** The axes' box for bars, columns, lines, areas and scatter; the pie's square. */
  inner: Box
  /** The value axis (vertical; horizontal for bars). Absent for pie and doughnut. */
  value?: Scale
  /** The x axis of a scatter chart. */
  x?: Scale
  horizontal: boolean
  /** A category's share of the category axis. */
  band: number
  /** Category labels are written for every k-th category (1: all). */
  labelEvery: number
  /** Value tick labels, then category (or scatter x) labels, placed. */
  valueLabels: PlacedLabel[]
  categoryLabels: PlacedLabel[]
}

const ELLIPSIS = '…'

/** `text` cut to fit `width` with an ellipsis (the whole text when it fits). */
function ellipsize(text: string, width: number, size: number, family: string): string {
  if (textWidth(text, size, 400, family) <= width) return text
  const chars = [...text]
  let lo = 0
  let hi = chars.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (textWidth(chars.slice(0, mid).join('').trimEnd() + ELLIPSIS, size, 400, family) <= width) lo = mid
    else hi = mid - 1
  }
  return lo ? chars.slice(0, lo).join('').trimEnd() + ELLIPSIS : ''
}

/** A label in at most two lines of `width`: words wrapped, the second line ellipsized. */
function wrapTwo(text: string, width: number, size: number, family: string): string[] {
  if (textWidth(text, size, 400, family) <= width) return [text]
  const words = text.split(/\s+/).filter(Boolean)
  let first = ''
  let k = 0
  for (; k < words.length; k++) {
    const next = first ? `${first} ${words[k]}` : words[k]
    if (textWidth(next, size, 400, family) > width) break
    first = next
  }
  if (!first) return [ellipsize(text, width, size, family)]
  return [first, ellipsize(words.slice(k).join(' '), width, size, family)].filter(Boolean)
}

/**
 * The layout of a chart block in a w × h box, its labels in `family` (the theme's body face).
 *
 * @example chartLayout({ chartType: 'column', data: { categories: ['Q1', 'Q2'], series: [{ name: 'Net', values: [4, -2] }] } }, 600, 400, 'Inter').value
 * // { min: -2, max: 4, step: 1, ticks: [-2, -1, 0, 1, 2, 3, 4] }
 */
export function chartLayout(block: { [key: string]: unknown }, w: number, h: number, family: string): ChartLayout {
  const data = chartData(block)
  const size = Math.max(12, Math.min(22, Math.round(h / 22)))
  const width = (text: string) => textWidth(text, size, 400, family)
  let top = 8
  let title: ChartLayout['title']
  if (data.title) {
    const titleSize = Math.round(size * 1.2)
    title = { text: data.title, x: w / 2, y: top + size * 1.2, size: titleSize }
    top += size * 2
  }
  const pie = data.type === 'pie' || data.type === 'doughnut'
  const names = pie ? data.categories : data.series.length > 1 ? data.series.map((s) => s.name) : []
  // The legend: swatch, gap, name, gap; rows filled left to right, each centred; the last row at the bottom.
  const rows: { items: { name: string; index: number; at: number }[]; width: number }[] = []
  names.forEach((name, index) => {
    const shown = ellipsize(name, Math.max(size * 4, w - size * 3), size, family)
    const itemWidth = size * 1.1 + width(shown)
    let row = rows[rows.length - 1]
    if (!row || (row.items.length && row.width + size * 0.9 + itemWidth > w)) rows.push((row = { items: [], width: 0 }))
    const at = row.items.length ? row.width + size * 0.9 : 0
    row.items.push({ name: shown, index, at })
    row.width = at + itemWidth
  })
  const rowHeight = size * 1.5
  const legendHeight = rows.length ? size * 2 + (rows.length - 1) * rowHeight : 0
  const legend: LegendItem[] = rows.flatMap((row, r) =>
    row.items.map((item) => ({ name: item.name, index: item.index, x: Math.max(0, (w - row.width) / 2) + item.at, y: h - size * 0.5 - (rows.length - 1 - r) * rowHeight })),
  )
  const plot: Box = { x: 0, y: top, w, h: h - top - legendHeight }
  const base = { data, size, title, legend, legendHeight, plot, valueLabels: [] as PlacedLabel[], categoryLabels: [] as PlacedLabel[] }

  if (pie) {
    const r = Math.max(1, Math.min(plot.w, plot.h) / 2 - 4)
    return { ...base, inner: { x: plot.x + plot.w / 2 - r, y: plot.y + plot.h / 2 - r, w: 2 * r, h: 2 * r }, horizontal: false, band: 0, labelEvery: 1 }
  }

  const horizontal = data.type === 'bar'
  const scatter = data.type === 'scatter'
  const xs = scatter ? scatterXs(data) : []
  const range = valueRange(data)
  const value = niceScale(range.lo, range.hi)
  const x = scatter ? niceScale(Math.min(0, ...xs), Math.max(0, ...xs)) : undefined
  const valueTexts = value.ticks.map((t) => tickLabel(t, value))
  const widestValue = Math.max(0, ...valueTexts.map(width))
  const count = data.count
  const lineGap = size * 1.25

  // Horizontal room: the labels left of the axes (values, or a bar chart's categories) and half the last label of a horizontal axis on the right.
  const categoryRoom = horizontal ? Math.min(plot.w * 0.3, Math.max(size * 1.8, ...data.categories.map(width))) : 0
  const left = plot.x + (horizontal ? categoryRoom + 8 : Math.max(size * 3, widestValue + 12))
  const lastAcross = horizontal ? width(valueTexts[valueTexts.length - 1] ?? '') : x ? width(tickLabel(x.max, x)) : 0
  const right = Math.max(8, lastAcross / 2 + 2)
  const innerW = Math.max(1, plot.x + plot.w - left - right)
  const band = (horizontal ? 0 : innerW) / Math.max(1, count)

  // Vertical room: category labels under columns, lines and areas wrap to two lines when any needs it.
  let categoryLines: string[][] = []
  let every = 1
  if (!horizontal && !scatter) {
    categoryLines = data.categories.map((c) => wrapTwo(c, Math.max(1, band - 4), size, family))
    // When most labels are cut to nothing, write every k-th in the room of k bands.
    const widest = Math.max(0, ...data.categories.map(width))
    if (widest > band * 2 && band < size * 3) {
      every = Math.min(Math.max(1, count), Math.ceil(Math.min(widest, size * 8) / Math.max(1, band)))
      categoryLines = data.categories.map((c, i) => (i % every === 0 ? [ellipsize(c, Math.max(1, band * every - 4), size, family)] : []))
    }
  }
  const twoLines = categoryLines.some((l) => l.length > 1)
  const bottom = size * 1.8 + (twoLines ? lineGap : 0)
  const inner: Box = { x: left, y: plot.y + size * 0.6, w: innerW, h: Math.max(1, plot.h - bottom - size * 0.6) }

  const valueLabels: PlacedLabel[] = value.ticks.map((t, k) => {
    const at = (t - value.min) / (value.max - value.min)
    return horizontal
      ? { text: valueTexts[k], x: inner.x + inner.w * at, y: inner.y + inner.h + size * 1.3, anchor: 'middle' }
      : { text: valueTexts[k], x: inner.x - 8, y: inner.y + inner.h - inner.h * at, anchor: 'end' }
  })
  const categoryLabels: PlacedLabel[] = []
  if (scatter && x) {
    for (const t of x.ticks) categoryLabels.push({ text: tickLabel(t, x), x: inner.x + (inner.w * (t - x.min)) / (x.max - x.min), y: inner.y + inner.h + size * 1.3, anchor: 'middle' })
  } else if (horizontal) {
    const rowBand = inner.h / Math.max(1, count)
    data.categories.forEach((c, i) => categoryLabels.push({ text: ellipsize(c, categoryRoom, size, family), x: inner.x - 8, y: inner.y + rowBand * (i + 0.5), anchor: 'end' }))
  } else {
    categoryLines.forEach((lines, i) =>
      lines.forEach((line, n) => categoryLabels.push({ text: line, x: inner.x + band * (i + 0.5), y: inner.y + inner.h + size * 1.3 + n * lineGap, anchor: 'middle' })),
    )
  }
  return { ...base, inner, value, x, horizontal, band: (horizontal ? inner.h : inner.w) / Math.max(1, count), labelEvery: every, valueLabels, categoryLabels }
}

/** Where a value falls along the value axis: 0 at the axis's start (bottom, or left for bars), 1 at its end. */
export const along = (scale: Scale, v: number) => (v - scale.min) / (scale.max - scale.min || 1)
