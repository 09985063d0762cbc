/**
 * Charts as SVG: bar, column, line, area, pie, doughnut and scatter, stacked or not, with a title,
 * category and value labels, gridlines and a legend when there is more than one series (pie and
 * doughnut: one slice per category of the first series). Series take the theme's chart colours.
 */
import { colour, escapeHtml, type Paint } from './paint.js'
import { stripMarkup } from '../layout/text.js'

interface Series { name: string; values: (number | null)[] }
interface ChartData { categories: string[]; series: Series[] }

const SERIES_TOKENS = ['accent', 'ink', 'muted', 'highlight', 'rule']
const FALLBACK = ['#2f5bea', '#e4572e', '#17a398', '#f3a712', '#8e44ad', '#6b6b6b']

/** The colour of series (or slice) i: the theme's `chart1`..`chart6` when it has them, else accent, then a fixed set. */
export function seriesColour(paint: Paint, i: number): string {
  const named = colour(paint, `chart${(i % 6) + 1}`, '')
  if (named && named !== '#000000') return named
  if (i === 0) return colour(paint, SERIES_TOKENS[0])
  return FALLBACK[i % FALLBACK.length]
}

const r1 = (v: number) => Math.round(v * 10) / 10

/** The top of a value axis: the least of 1, 2, 2.5, 5 or 10 times a power of ten at or above `value` (charts here and the native PPTX writer). */
export function niceMax(value: number): number {
  if (value <= 0) return 1
  const magnitude = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude
  return 10 * magnitude
}

function label(value: number): string {
  const abs = Math.abs(value)
  if (abs >= 1e9) return `${r1(value / 1e9)}B`
  if (abs >= 1e6) return `${r1(value / 1e6)}M`
  if (abs >= 1e4) return `${r1(value / 1e3)}k`
  return String(Math.round(value * 100) / 100)
}

function text(x: number, y: number, content: string, options: { size: number; fill: string; anchor?: string; weight?: number; baseline?: string }): string {
  return `<text x="${r1(x)}" y="${r1(y)}" font-size="${options.size}" fill="${options.fill}" text-anchor="${options.anchor ?? 'start'}"${options.weight ? ` font-weight="${options.weight}"` : ''} dominant-baseline="${options.baseline ?? 'alphabetic'}">${escapeHtml(content)}</text>`
}

/** The chart of a block as an SVG element filling a w × h box. */
export function chartSvg(paint: Paint, block: { [key: string]: unknown }, w: number, h: number, fontFamily: string): string {
  const data = (block.data ?? { categories: [], series: [] }) as ChartData
  const categories = Array.isArray(data.categories) ? data.categories.map(String) : []
  const series = (Array.isArray(data.series) ? data.series : []).map((s) => ({ name: String(s?.name ?? ''), values: Array.isArray(s?.values) ? s.values : [] }))
  const type = typeof block.chartType === 'string' ? block.chartType : 'column'
  const stacked = block.stacked === true
  const ink = colour(paint, 'ink')
  const muted = colour(paint, 'muted')
  const rule = colour(paint, 'rule')
  const size = Math.max(12, Math.min(22, Math.round(h / 22)))
  const parts: string[] = []
  let top = 8
  if (typeof block.title === 'string' && block.title) {
    parts.push(text(w / 2, top + size * 1.2, stripMarkup(block.title), { size: Math.round(size * 1.2), fill: ink, anchor: 'middle', weight: 600 }))
    top += size * 2
  }
  const legend = type === 'pie' || type === 'doughnut' ? categories : series.length > 1 ? series.map((s) => s.name) : []
  const legendHeight = legend.length ? size * 2 : 0
  if (legend.length) {
    let x = 0
    const items = legend.map((name, i) => {
      const item = `<g transform="translate(${r1(x)},0)"><rect width="${size * 0.8}" height="${size * 0.8}" y="${-size * 0.7}" rx="2" fill="${seriesColour(paint, i)}"/>${text(size * 1.1, 0, name, { size, fill: ink })}</g>`
      x += size * 2 + name.length * size * 0.55
      return item
    })
    parts.push(`<g transform="translate(${r1(Math.max(0, (w - x) / 2))},${r1(h - size * 0.5)})">${items.join('')}</g>`)
  }
  const plot = { x: 0, y: top, w, h: h - top - legendHeight }

  if (type === 'pie' || type === 'doughnut') {
    const values = (series[0]?.values ?? []).map((v) => (typeof v === 'number' && v > 0 ? v : 0))
    const total = values.reduce((a, b) => a + b, 0) || 1
    const r = Math.max(1, Math.min(plot.w, plot.h) / 2 - 4)
    const cx = plot.x + plot.w / 2
    const cy = plot.y + plot.h / 2
    const inner = type === 'doughnut' ? r * 0.55 : 0
    let angle = -Math.PI / 2
    values.forEach((v, i) => {
      const sweep = (v / total) * Math.PI * 2
      if (sweep <= 0) return
      const end = angle + Math.min(sweep, Math.PI * 2 - 1e-4)
      const large = sweep > Math.PI ? 1 : 0
      const p = (a: number, rad: number) => `${r1(cx + rad * Math.cos(a))} ${r1(cy + rad * Math.sin(a))}`
      const d = inner
        ? `M${p(angle, r)} A${r1(r)} ${r1(r)} 0 ${large} 1 ${p(end, r)} L${p(end, inner)} A${r1(inner)} ${r1(inner)} 0 ${large} 0 ${p(angle, inner)} Z`
        : `M${r1(cx)} ${r1(cy)} L${p(angle, r)} A${r1(r)} ${r1(r)} 0 ${large} 1 ${p(end, r)} Z`
      parts.push(`<path d="${d}" fill="${seriesColour(paint, i)}" stroke="${colour(paint, 'paper')}" stroke-width="2"/>`)
      angle += sweep
    })
    return wrap(parts, w, h, fontFamily)
  }

  const numeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
  if (type === 'scatter') {
    // Scatter: the categories are x values when numeric (else their index), each series a set of points.
    const xs = categories.map((c, i) => (Number.isFinite(Number(c)) && c.trim() !== '' ? Number(c) : i))
    const ys = series.flatMap((s) => s.values.map(numeric)).filter((v): v is number => v !== null)
    const xMin = Math.min(0, ...xs)
    const xMax = niceMax(Math.max(...xs, 1))
    const yMax = niceMax(Math.max(...ys, 0))
    const axis = axes(parts, plot, yMax, size, muted, rule)
    series.forEach((s, si) => {
      s.values.forEach((v, i) => {
        const y = numeric(v)
        if (y === null || xs[i] === undefined) return
        const px = axis.x + ((xs[i] - xMin) / (xMax - xMin || 1)) * axis.w
        const py = axis.y + axis.h - (y / yMax) * axis.h
        parts.push(`<circle cx="${r1(px)}" cy="${r1(py)}" r="${r1(size * 0.4)}" fill="${seriesColour(paint, si)}"/>`)
      })
    })
    return wrap(parts, w, h, fontFamily)
  }

  const count = categories.length || Math.max(0, ...series.map((s) => s.values.length))
  const totals = Array.from({ length: count }, (_, i) => series.reduce((sum, s) => sum + Math.max(0, numeric(s.values[i]) ?? 0), 0))
  const peak = stacked ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.values.map((v) => numeric(v) ?? 0)))
  const max = niceMax(peak)
  const horizontal = type === 'bar'
  const axis = axes(parts, plot, max, size, muted, rule, horizontal, categories)
  const band = (horizontal ? axis.h : axis.w) / Math.max(1, count)
  if (type === 'line' || type === 'area') {
    const base = new Array(count).fill(0)
    series.forEach((s, si) => {
      const pts: [number, number][] = []
      for (let i = 0; i < count; i++) {
        const v = numeric(s.values[i])
        if (v === null) continue
        const value = stacked ? base[i] + v : v
        pts.push([axis.x + band * (i + 0.5), axis.y + axis.h - (value / max) * axis.h])
      }
      const stroke = seriesColour(paint, si)
      if (type === 'area' && pts.length) {
        const floor = pts.map(([x], k) => [x, stacked ? axis.y + axis.h - (base[k] / max) * axis.h : axis.y + axis.h] as [number, number]).reverse()
        const d = [...pts, ...floor].map(([x, y], k) => `${k ? 'L' : 'M'}${r1(x)} ${r1(y)}`).join(' ') + ' Z'
        parts.push(`<path d="${d}" fill="${stroke}" fill-opacity="0.35" stroke="none"/>`)
      }
      if (pts.length) parts.push(`<polyline points="${pts.map(([x, y]) => `${r1(x)},${r1(y)}`).join(' ')}" fill="none" stroke="${stroke}" stroke-width="${Math.max(2, size / 6)}" stroke-linejoin="round"/>`)
      if (type === 'line') for (const [x, y] of pts) parts.push(`<circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(size / 4)}" fill="${stroke}"/>`)
      if (stacked) for (let i = 0; i < count; i++) base[i] += Math.max(0, numeric(s.values[i]) ?? 0)
    })
    return wrap(parts, w, h, fontFamily)
  }
  // Bars (horizontal) and columns.
  const groups = stacked ? 1 : Math.max(1, series.length)
  const thickness = (band * 0.7) / groups
  const base = new Array(count).fill(0)
  series.forEach((s, si) => {
    for (let i = 0; i < count; i++) {
      const v = Math.max(0, numeric(s.values[i]) ?? 0)
      const length = (v / max) * (horizontal ? axis.w : axis.h)
      const offset = (stacked ? base[i] : 0) / max * (horizontal ? axis.w : axis.h)
      const along = band * i + band * 0.15 + (stacked ? 0 : thickness * si)
      const rect = horizontal
        ? { x: axis.x + offset, y: axis.y + along, w: length, h: stacked ? band * 0.7 : thickness }
        : { x: axis.x + along, y: axis.y + axis.h - offset - length, w: stacked ? band * 0.7 : thickness, h: length }
      parts.push(`<rect x="${r1(rect.x)}" y="${r1(rect.y)}" width="${r1(rect.w)}" height="${r1(rect.h)}" fill="${seriesColour(paint, si)}"/>`)
      if (stacked) base[i] += v
    }
  })
  return wrap(parts, w, h, fontFamily)
}

/** Draws value gridlines and labels, and category labels; answers the inner plot box. */
function axes(
  parts: string[],
  plot: { x: number; y: number; w: number; h: number },
  max: number,
  size: number,
  muted: string,
  rule: string,
  horizontal = false,
  categories: string[] = [],
): { x: number; y: number; w: number; h: number } {
  const valueLabelWidth = size * 3
  const categoryLabelWidth = horizontal ? Math.min(plot.w * 0.3, size * 0.6 * Math.max(3, ...categories.map((c) => c.length))) : 0
  const left = plot.x + (horizontal ? categoryLabelWidth + 8 : valueLabelWidth)
  const bottom = size * 1.8
  const inner = { x: left, y: plot.y + size * 0.6, w: Math.max(1, plot.x + plot.w - left - 8), h: Math.max(1, plot.h - bottom - size * 0.6) }
  const steps = 4
  for (let k = 0; k <= steps; k++) {
    const value = (max * k) / steps
    if (horizontal) {
      const x = inner.x + (inner.w * k) / steps
      parts.push(`<line x1="${r1(x)}" y1="${r1(inner.y)}" x2="${r1(x)}" y2="${r1(inner.y + inner.h)}" stroke="${rule}" stroke-width="1"/>`)
      parts.push(text(x, inner.y + inner.h + size * 1.3, label(value), { size, fill: muted, anchor: 'middle' }))
    } else {
      const y = inner.y + inner.h - (inner.h * k) / steps
      parts.push(`<line x1="${r1(inner.x)}" y1="${r1(y)}" x2="${r1(inner.x + inner.w)}" y2="${r1(y)}" stroke="${rule}" stroke-width="1"/>`)
      parts.push(text(inner.x - 8, y, label(value), { size, fill: muted, anchor: 'end', baseline: 'middle' }))
    }
  }
  const band = (horizontal ? inner.h : inner.w) / Math.max(1, categories.length)
  categories.forEach((c, i) => {
    if (horizontal) parts.push(text(inner.x - 8, inner.y + band * (i + 0.5), c, { size, fill: muted, anchor: 'end', baseline: 'middle' }))
    else parts.push(text(inner.x + band * (i + 0.5), inner.y + inner.h + size * 1.3, c, { size, fill: muted, anchor: 'middle' }))
  })
  return inner
}

function wrap(parts: string[], w: number, h: number, fontFamily: string): string {
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${r1(w)}" height="${r1(h)}" viewBox="0 0 ${r1(w)} ${r1(h)}" font-family="${escapeHtml(fontFamily)}">${parts.join('')}</svg>`
}
