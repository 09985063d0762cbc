/**
 * Charts that draw any data right: the axis the layout module gives a chart's data (negatives,
 * mixed signs, stacks), where its labels go (never cut at the box's edges, never over each other),
 * and what the renderer draws from it: bars from zero, in distinct colours in every theme.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { chartLayout, niceScale, tickFormatCode, tickLabel, valueRange, chartData } from '../../../src/layout/chart.js'
import { textWidth } from '../../../src/layout/text.js'
import { chartSvg } from '../../../src/render/charts.js'
import { paintFor, seriesColour } from '../../../src/render/paint.js'
import { THEMES } from '../../../src/model/themes.js'
import { CHART_CASES } from '../../helpers/chart-gallery.js'

const FACE = 'Inter'

/** The rectangles an SVG chart draws for its bars (the gridlines are lines, the legend's swatches have rx). */
function bars(svg: string): { x: number; y: number; w: number; h: number; fill: string }[] {
  return [...svg.matchAll(/<rect x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)" fill="([^"]+)" shape-rendering="crispEdges"\/>/g)].map((m) => ({ x: +m[1], y: +m[2], w: +m[3], h: +m[4], fill: m[5] }))
}

/** The y of the gridline drawn for a value tick, from the layout. */
const tickY = (layout: ReturnType<typeof chartLayout>, value: number) => {
  const scale = layout.value!
  return layout.inner.y + layout.inner.h - ((value - scale.min) / (scale.max - scale.min)) * layout.inner.h
}

describe('the value axis', () => {
  it('holds zero and every value, in at most six round steps with zero on a tick', () => {
    for (const [lo, hi] of [[0, 9], [0, 25], [-2.4, 0], [-4, 6], [-14, 18], [0, 0.07], [-30, 50], [0, 3_150_000], [-0.003, 0.011], [0, 0], [-1e9, 2.5e9]]) {
      const s = niceScale(lo, hi)
      assert.ok(s.min <= Math.min(0, lo) && s.max >= Math.max(0, hi), `${lo}..${hi}: ${JSON.stringify(s)}`)
      assert.ok(s.ticks.length >= 3 && s.ticks.length <= 7, `${lo}..${hi}: ${s.ticks}`)
      assert.ok(s.ticks.includes(0), `${lo}..${hi}: zero is a tick`)
      const mantissa = s.step / 10 ** Math.floor(Math.log10(s.step))
      assert.ok([1, 2, 2.5, 5].some((m) => Math.abs(m - mantissa) < 1e-9), `${lo}..${hi}: step ${s.step}`)
    }
    assert.deepEqual(niceScale(-4, 6).ticks, [-4, -2, 0, 2, 4, 6])
    assert.deepEqual(niceScale(-2.4, 0).ticks, [-2.5, -2, -1.5, -1, -0.5, 0])
    assert.deepEqual(niceScale(0, 25).ticks, [0, 5, 10, 15, 20, 25])
  })

  it('writes labels as short as the step allows: 0.02, 2.5, 12.5k, 3M, negatives with their sign', () => {
    const labels = (lo: number, hi: number) => niceScale(lo, hi).ticks.map((t) => tickLabel(t, niceScale(lo, hi)))
    assert.deepEqual(labels(0, 0.07), ['0', '0.02', '0.04', '0.06', '0.08'])
    assert.deepEqual(labels(0, 3_150_000), ['0', '1M', '2M', '3M', '4M'])
    assert.deepEqual(labels(-2.4, 0), ['-2.5', '-2', '-1.5', '-1', '-0.5', '0'])
    assert.deepEqual(labels(0, 60_000), ['0', '10k', '20k', '30k', '40k', '50k', '60k'])
    assert.deepEqual(labels(0, 2_400_000), ['0', '0.5M', '1.0M', '1.5M', '2.0M', '2.5M'])
    // The PPTX axis writes the same labels with a spreadsheet number format.
    assert.equal(tickFormatCode(niceScale(0, 2_400_000)), '0.0,,"M";-0.0,,"M";0')
    assert.equal(tickFormatCode(niceScale(0, 60_000)), '0,"k";-0,"k";0')
    assert.equal(tickFormatCode(niceScale(-4, 6)), 'General')
  })

  it('stacks bars\' positive and negative parts apart, and lines by running total', () => {
    const data = (type: string) => chartData({ chartType: type, stacked: true, data: { categories: ['a', 'b'], series: [{ name: 'p', values: [5, 1] }, { name: 'n', values: [-3, 2] }, { name: 'q', values: [4, -6] }] } })
    assert.deepEqual(valueRange(data('column')), { lo: -6, hi: 9 })
    assert.deepEqual(valueRange(data('line')), { lo: -3, hi: 6 })
    assert.deepEqual(valueRange(chartData({ chartType: 'column', data: { categories: ['a'], series: [{ name: 'p', values: [-7, 3] }] } })), { lo: -7, hi: 3 })
  })
})

describe('the chart layout', () => {
  it('keeps every label inside the box, whatever the data (the gallery\'s cases at three sizes)', () => {
    for (const c of CHART_CASES) {
      for (const [w, h] of [[1440, 560], [700, 420], [370, 300]]) {
        const layout = chartLayout(c.chart as Record<string, unknown>, w, h, FACE)
        const size = layout.size
        for (const label of [...layout.valueLabels, ...layout.categoryLabels]) {
          const width = textWidth(label.text, size, 400, FACE)
          const left = label.anchor === 'end' ? label.x - width : label.anchor === 'middle' ? label.x - width / 2 : label.x
          assert.ok(left >= -0.5 && left + width <= w + 0.5, `${c.id} at ${w}×${h}: "${label.text}" runs from ${left.toFixed(1)} to ${(left + width).toFixed(1)}`)
          assert.ok(label.y <= h - layout.legendHeight + 0.5, `${c.id} at ${w}×${h}: "${label.text}" reaches into the legend`)
        }
        for (const item of layout.legend) {
          assert.ok(item.x >= 0 && item.x + size * 1.1 + textWidth(item.name, size, 400, FACE) <= w + 0.5, `${c.id} at ${w}×${h}: legend item "${item.name}" leaves the box`)
        }
      }
    }
  })

  it('writes category labels that do not overlap: two lines, then an ellipsis, then every k-th', () => {
    for (const c of CHART_CASES.filter((k) => ['column', 'line', 'area'].includes(String(k.chart.chartType)))) {
      const layout = chartLayout(c.chart as Record<string, unknown>, 700, 420, FACE)
      const rows = new Map<number, { from: number; to: number; text: string }[]>()
      for (const label of layout.categoryLabels) {
        const width = textWidth(label.text, layout.size, 400, FACE)
        const row = rows.get(label.y) ?? []
        row.push({ from: label.x - width / 2, to: label.x + width / 2, text: label.text })
        rows.set(label.y, row)
      }
      for (const row of rows.values()) {
        row.sort((a, b) => a.from - b.from)
        for (let i = 1; i < row.length; i++) assert.ok(row[i].from >= row[i - 1].to, `${c.id}: "${row[i - 1].text}" and "${row[i].text}" overlap`)
      }
    }
    const months = chartLayout(CHART_CASES.find((c) => c.id === 'many-categories')!.chart as Record<string, unknown>, 700, 420, FACE)
    assert.ok(months.categoryLabels.length < 24 && months.categoryLabels.length >= 3, `every k-th month: ${months.categoryLabels.map((l) => l.text)}`)
    const long = chartLayout({ chartType: 'column', data: { categories: ['Customer support satisfaction', 'Time to first response'], series: [{ name: 's', values: [1, 2] }] } }, 420, 300, FACE)
    assert.ok(long.categoryLabels.length > 2, 'a long label wraps to a second line')
  })

  it('puts a scatter chart\'s x values on an axis of their own, labelled, negatives included', () => {
    const layout = chartLayout(CHART_CASES.find((c) => c.id === 'scatter')!.chart as Record<string, unknown>, 900, 500, FACE)
    assert.deepEqual(layout.x!.ticks, [-40, -20, 0, 20, 40, 60])
    assert.deepEqual(layout.categoryLabels.map((l) => l.text), ['-40', '-20', '0', '20', '40', '60'])
    assert.ok(layout.value!.min < 0)
  })
})

describe('the chart drawn', () => {
  const paint = paintFor({ theme: 'studio-simple' }, 'light')

  it('draws columns from zero: a negative one below the zero line, its height its value', () => {
    const block = { chartType: 'column', data: { categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: 'Margin', values: [-4, 2.5, -1.2, 6] }] } }
    const layout = chartLayout(block, 800, 450, FACE)
    const zero = tickY(layout, 0)
    const drawn = bars(chartSvg(paint, block, 800, 450, FACE))
    assert.equal(drawn.length, 4)
    const perUnit = layout.inner.h / (layout.value!.max - layout.value!.min)
    block.data.series[0].values.forEach((v, i) => {
      const r = drawn[i]
      if (v < 0) assert.ok(Math.abs(r.y - zero) <= 0.1, `Q${i + 1} hangs from the zero line (${r.y} vs ${zero})`)
      else assert.ok(Math.abs(r.y + r.h - zero) <= 0.1, `Q${i + 1} stands on the zero line`)
      assert.ok(Math.abs(r.h - Math.abs(v) * perUnit) <= 0.2, `Q${i + 1}: height ${r.h} for ${v}`)
    })
  })

  it('draws bars left of zero for negatives, and stacks a stacked chart\'s signs apart', () => {
    const block = { chartType: 'bar', stacked: true, data: { categories: ['a'], series: [{ name: 'up', values: [6] }, { name: 'down', values: [-3] }, { name: 'more', values: [2] }] } }
    const layout = chartLayout(block, 800, 450, FACE)
    const zeroX = layout.inner.x + ((0 - layout.value!.min) / (layout.value!.max - layout.value!.min)) * layout.inner.w
    const [up, down, more] = bars(chartSvg(paint, block, 800, 450, FACE))
    assert.ok(Math.abs(up.x - zeroX) <= 0.1 && Math.abs(down.x + down.w - zeroX) <= 0.1, 'the positive part starts at zero, the negative one ends there')
    assert.ok(Math.abs(more.x - (up.x + up.w)) <= 0.1, 'the next positive part starts where the last one ended')
  })

  it('draws touching bars without anti-aliased edges, so no seam of the background shows between them', () => {
    const svg = chartSvg(paint, { chartType: 'column', stacked: true, data: { categories: ['a'], series: [{ name: 'x', values: [1] }, { name: 'y', values: [2] }] } }, 800, 450, FACE)
    assert.equal(bars(svg).length, 2)
  })

  it('gives every theme\'s first six series six distinct colours in light and dark (Contrast\'s black is a colour)', () => {
    for (const theme of THEMES) {
      for (const appearance of ['light', 'dark'] as const) {
        const p = paintFor({ theme: theme.storedId }, appearance)
        const colours = Array.from({ length: 6 }, (_, i) => seriesColour(p, i))
        assert.equal(new Set(colours).size, 6, `${theme.id} ${appearance}: ${colours}`)
        assert.equal(colours[0], p.theme.palette.chart1[appearance].toLowerCase())
      }
    }
  })
})
