/**
 * Charts as SVG: bar, column, line, area, pie, doughnut and scatter, stacked or not, with a title,
 * value and category (scatter: x) labels, gridlines and a legend when there is more than one series
 * (pie and doughnut: one slice per category of the first series). Where everything goes, and the axes'
 * ranges, come from the layout module (src/layout/chart.ts), which the native PPTX writer reads too.
 * Series take the theme's chart colours (`seriesColour`).
 */
import { along, chartLayout, scatterXs, type ChartLayout, type PlacedLabel } from '../layout/chart.js'
import { colour, escapeHtml, seriesColour, type Paint } from './paint.js'

const r1 = (v: number) => Math.round(v * 10) / 10

function text(label: PlacedLabel, options: { size: number; fill: string; weight?: number; baseline?: string }): string {
  return `<text x="${r1(label.x)}" y="${r1(label.y)}" font-size="${options.size}" fill="${options.fill}" text-anchor="${label.anchor}"${options.weight ? ` font-weight="${options.weight}"` : ''} dominant-baseline="${options.baseline ?? 'alphabetic'}">${escapeHtml(label.text)}</text>`
}

/**
 * A bar as a rectangle between two positions along the value axis. Bars are drawn without
 * anti-aliased edges (`crispEdges`), so two that touch (stacked parts, the series of a cluster) leave no
 * seam of the background between them.
 */
function bar(x: number, y: number, w: number, h: number, fill: string): string {
  return `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}" shape-rendering="crispEdges"/>`
}

/** The chart of a block as an SVG element filling a w × h box, its labels in the theme's body face (`fontFamily`, its CSS stack). */
export function chartSvg(paint: Paint, block: { [key: string]: unknown }, w: number, h: number, fontFamily: string): string {
  const layout = chartLayout(block, w, h, paint.theme.fonts.body)
  const { data, size, inner } = layout
  const ink = colour(paint, 'ink')
  const parts: string[] = []
  if (layout.title) parts.push(text({ text: layout.title.text, x: layout.title.x, y: layout.title.y, anchor: 'middle' }, { size: layout.title.size, fill: ink, weight: 600 }))
  if (layout.legend.length) {
    parts.push('<g class="legend">')
    for (const item of layout.legend) {
      parts.push(`<rect x="${r1(item.x)}" y="${r1(item.y - size * 0.7)}" width="${size * 0.8}" height="${size * 0.8}" rx="2" fill="${seriesColour(paint, item.index)}"/>`)
      parts.push(text({ text: item.name, x: item.x + size * 1.1, y: item.y, anchor: 'start' }, { size, fill: ink }))
    }
    parts.push('</g>')
  }

  if (data.type === 'pie' || data.type === 'doughnut') {
    const values = (data.series[0]?.values ?? []).map((v) => (v !== null && v > 0 ? v : 0))
    const total = values.reduce((a, b) => a + b, 0) || 1
    const r = inner.w / 2
    const cx = inner.x + r
    const cy = inner.y + r
    const hole = data.type === 'doughnut' ? r * 0.55 : 0
    let angle = -Math.PI / 2
    values.forEach((v, i) => {
      const sweep = (v / total) * Math.PI * 2
      if (sweep <= 0) return
      const end = angle + Math.min(sweep, Math.PI * 2 - 1e-4)
      const large = sweep > Math.PI ? 1 : 0
      const p = (a: number, rad: number) => `${r1(cx + rad * Math.cos(a))} ${r1(cy + rad * Math.sin(a))}`
      const d = hole
        ? `M${p(angle, r)} A${r1(r)} ${r1(r)} 0 ${large} 1 ${p(end, r)} L${p(end, hole)} A${r1(hole)} ${r1(hole)} 0 ${large} 0 ${p(angle, hole)} Z`
        : `M${r1(cx)} ${r1(cy)} L${p(angle, r)} A${r1(r)} ${r1(r)} 0 ${large} 1 ${p(end, r)} Z`
      parts.push(`<path d="${d}" fill="${seriesColour(paint, i)}" stroke="${colour(paint, 'paper')}" stroke-width="2"/>`)
      angle += sweep
    })
    return wrap(parts, w, h, fontFamily)
  }

  axes(parts, layout, paint)
  const value = layout.value!
  /** A value's position on the screen along the value axis (y for columns, lines and scatter; x for bars). */
  const at = (v: number) => (layout.horizontal ? inner.x + along(value, v) * inner.w : inner.y + inner.h - along(value, v) * inner.h)
  const zero = at(0)

  if (data.type === 'scatter') {
    const x = layout.x!
    const xs = scatterXs(data)
    data.series.forEach((s, si) => {
      s.values.forEach((v, i) => {
        const xv = xs[i]
        if (v === null || xv === undefined) return
        const px = inner.x + along(x, xv) * inner.w
        parts.push(`<circle cx="${r1(px)}" cy="${r1(at(v))}" r="${r1(size * 0.4)}" fill="${seriesColour(paint, si)}"/>`)
      })
    })
    return wrap(parts, w, h, fontFamily)
  }

  const count = data.count
  const band = layout.band
  if (data.type === 'line' || data.type === 'area') {
    // Stacked: each series draws on the running total of the ones before it, negatives lowering it.
    const base = new Array<number>(count).fill(0)
    data.series.forEach((s, si) => {
      const pts: [number, number, number][] = []
      for (let i = 0; i < count; i++) {
        const v = s.values[i] ?? null
        if (v === null) continue
        pts.push([inner.x + band * (i + 0.5), at(data.stacked ? base[i] + v : v), i])
      }
      const stroke = seriesColour(paint, si)
      if (data.type === 'area' && pts.length) {
        const floor = pts.map(([px, , i]) => [px, data.stacked ? at(base[i]) : zero] as [number, number]).reverse()
        const d = [...pts.map(([px, py]) => [px, py] as [number, number]), ...floor].map(([px, py], k) => `${k ? 'L' : 'M'}${r1(px)} ${r1(py)}`).join(' ') + ' Z'
        parts.push(`<path d="${d}" fill="${stroke}" fill-opacity="0.35" stroke="none"/>`)
      }
      if (pts.length) parts.push(`<polyline points="${pts.map(([px, py]) => `${r1(px)},${r1(py)}`).join(' ')}" fill="none" stroke="${stroke}" stroke-width="${Math.max(2, size / 6)}" stroke-linejoin="round"/>`)
      if (data.type === 'line') for (const [px, py] of pts) parts.push(`<circle cx="${r1(px)}" cy="${r1(py)}" r="${r1(size / 4)}" fill="${stroke}"/>`)
      if (data.stacked) for (let i = 0; i < count; i++) base[i] += s.values[i] ?? 0
    })
    return wrap(parts, w, h, fontFamily)
  }

  // Bars (horizontal) and columns, from zero to the value: up or right for positives, down or left for negatives.
  const groups = data.stacked ? 1 : Math.max(1, data.series.length)
  const thickness = (band * 0.7) / groups
  const up = new Array<number>(count).fill(0)
  const down = new Array<number>(count).fill(0)
  data.series.forEach((s, si) => {
    const fill = seriesColour(paint, si)
    for (let i = 0; i < count; i++) {
      const v = s.values[i] ?? 0
      if (v === 0) continue
      const from = data.stacked ? (v > 0 ? up[i] : down[i]) : 0
      const to = from + v
      if (data.stacked) v > 0 ? (up[i] = to) : (down[i] = to)
      const [a, b] = [at(from), at(to)].sort((p, q) => p - q)
      const across = band * i + band * 0.15 + (data.stacked ? 0 : thickness * si)
      const thick = data.stacked ? band * 0.7 : thickness
      parts.push(layout.horizontal ? bar(a, inner.y + across, b - a, thick, fill) : bar(inner.x + across, a, thick, b - a, fill))
    }
  })
  return wrap(parts, w, h, fontFamily)
}

/** Gridlines at the value ticks (the zero line stronger when the axis holds negatives), and every label. */
function axes(parts: string[], layout: ChartLayout, paint: Paint): void {
  const { inner, size } = layout
  const value = layout.value!
  const rule = colour(paint, 'rule')
  const muted = colour(paint, 'muted')
  for (const t of value.ticks) {
    const stroke = t === 0 && value.min < 0 ? muted : rule
    if (layout.horizontal) {
      const x = inner.x + along(value, t) * inner.w
      parts.push(`<line x1="${r1(x)}" y1="${r1(inner.y)}" x2="${r1(x)}" y2="${r1(inner.y + inner.h)}" stroke="${stroke}" stroke-width="1"/>`)
    } else {
      const y = inner.y + inner.h - along(value, t) * inner.h
      parts.push(`<line x1="${r1(inner.x)}" y1="${r1(y)}" x2="${r1(inner.x + inner.w)}" y2="${r1(y)}" stroke="${stroke}" stroke-width="1"/>`)
    }
  }
  for (const label of layout.valueLabels) parts.push(text(label, { size, fill: muted, baseline: layout.horizontal ? 'alphabetic' : 'middle' }))
  for (const label of layout.categoryLabels) parts.push(text(label, { size, fill: muted, baseline: layout.horizontal ? 'middle' : 'alphabetic' }))
}

function wrap(parts: string[], w: number, h: number, fontFamily: string): string {
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${r1(w)}" height="${r1(h)}" viewBox="0 0 ${r1(w)} ${r1(h)}" font-family="${escapeHtml(fontFamily)}">${parts.join('')}</svg>`
}
