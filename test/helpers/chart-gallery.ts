/**
 * The chart gallery: one chart slide per case a chart must draw right whatever its data: negatives,
 * mixed signs, every chart type stacked and not, long labels, many series and categories, large and
 * small numbers. Written as plain files like the gallery deck (test/helpers/gallery.ts); the visual
 * and export tests render it in every theme and hold LibreOffice's reading of its PPTX to our render.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Block, DeckDoc, Manifest, Slide } from '../../src/model/deck.js'
import { canonicalJson } from '../../src/store/canonical.js'

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

interface Case {
  id: string
  title: string
  chart: Omit<Block, 'id' | 'kind' | 'slot'>
}

export const CHART_CASES: Case[] = [
  { id: 'column-mixed', title: 'Net margin swings below zero', chart: { chartType: 'column', title: 'Net margin, %', data: { categories: QUARTERS, series: [{ name: 'Margin', values: [-4, 2.5, -1.2, 6] }] } } },
  { id: 'column-clustered', title: 'Three regions, gains and losses', chart: { chartType: 'column', data: { categories: QUARTERS, series: [{ name: 'North', values: [12, -3, 8, 15] }, { name: 'South', values: [-6, 4, 9, -2] }, { name: 'West', values: [3, 7, -8, 11] }] } } },
  { id: 'column-stacked', title: 'Stacked, both signs', chart: { chartType: 'column', stacked: true, data: { categories: QUARTERS, series: [{ name: 'New', values: [30, 42, 38, 51] }, { name: 'Expansion', values: [12, 9, 15, 18] }, { name: 'Churn', values: [-8, -14, -6, -11] }] } } },
  { id: 'column-negative', title: 'All below zero', chart: { chartType: 'column', data: { categories: QUARTERS, series: [{ name: 'Cash burn', values: [-2.4, -1.8, -1.1, -0.4] }] } } },
  { id: 'bar-long', title: 'Long category names, both signs', chart: { chartType: 'bar', data: { categories: ['Customer support satisfaction', 'Time to first response', 'Resolution within a day', 'Escalations'], series: [{ name: 'This year', values: [18, -7, 24, -12] }, { name: 'Last year', values: [9, 3, 15, -4] }] } } },
  { id: 'bar-stacked', title: 'Stacked bars', chart: { chartType: 'bar', stacked: true, data: { categories: ['Design', 'Build', 'Test', 'Ship'], series: [{ name: 'Done', values: [8, 13, 5, 2] }, { name: 'In progress', values: [2, 6, 7, 3] }, { name: 'Blocked', values: [1, 2, 4, 6] }] } } },
  { id: 'line-mixed', title: 'Lines across zero', chart: { chartType: 'line', data: { categories: MONTHS.slice(0, 6), series: [{ name: 'Cash flow', values: [-120, -40, 35, 80, -15, 140] }, { name: 'Plan', values: [-100, -50, 0, 50, 100, 150] }] } } },
  { id: 'line-stacked', title: 'Stacked lines, running totals', chart: { chartType: 'line', stacked: true, data: { categories: QUARTERS, series: [{ name: 'Base', values: [10, 12, 11, 14] }, { name: 'Upsell', values: [3, 5, -2, 6] }] } } },
  { id: 'area-mixed', title: 'An area below zero', chart: { chartType: 'area', data: { categories: QUARTERS, series: [{ name: 'Balance', values: [5, -3, -6, 4] }] } } },
  { id: 'area-stacked', title: 'Stacked areas', chart: { chartType: 'area', stacked: true, data: { categories: MONTHS.slice(0, 6), series: [{ name: 'Web', values: [40, 45, 52, 60, 58, 66] }, { name: 'Mobile', values: [20, 26, 31, 35, 44, 50] }, { name: 'API', values: [5, 8, 9, 15, 18, 25] }] } } },
  { id: 'pie', title: 'Where the time goes', chart: { chartType: 'pie', data: { categories: ['Meetings', 'Building', 'Reviews', 'Support', 'Planning'], series: [{ name: 'Hours', values: [9, 18, 6, 4, 3] }] } } },
  { id: 'doughnut-long', title: 'A legend that wraps', chart: { chartType: 'doughnut', data: { categories: ['Enterprise customers', 'Mid-market customers', 'Small businesses', 'Individual developers', 'Education and non-profit'], series: [{ name: 'Revenue', values: [46, 27, 14, 9, 4] }] } } },
  { id: 'scatter', title: 'Scatter with negative x and y', chart: { chartType: 'scatter', data: { categories: ['-30', '-12', '0', '8', '21', '35', '50'], series: [{ name: 'Change', values: [-14, -5, 2, 6, 3, 11, 18] }, { name: 'Forecast', values: [-10, -4, 0, 4, 8, 12, 16] }] } } },
  { id: 'many-series', title: 'Seven series: the seventh repeats the first colour', chart: { chartType: 'column', data: { categories: ['2024', '2025'], series: ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf'].map((name, i) => ({ name, values: [3 + i, 4 + ((i * 3) % 5)] })) } } },
  { id: 'many-categories', title: 'Twenty-four months', chart: { chartType: 'column', data: { categories: [...MONTHS, ...MONTHS].map((m, i) => `${m} ${2025 + Math.floor(i / 12)}`), series: [{ name: 'Signups', values: Array.from({ length: 24 }, (_, i) => 20 + ((i * 7) % 13) - (i % 5)) }] } } },
  { id: 'large-small', title: 'Millions and fractions', chart: { chartType: 'line', data: { categories: QUARTERS, series: [{ name: 'Revenue', values: [1_250_000, 2_400_000, 1_900_000, 3_150_000] }] } } },
]

/** The gallery's slides: a chart slide per case, the chart in the media slot. */
export const CHART_SLIDES: Slide[] = CHART_CASES.map((c) => ({
  id: c.id,
  layout: 'chart',
  blocks: [
    { id: 'title', kind: 'heading', slot: 'title', text: c.title },
    { id: 'chart', kind: 'chart', slot: 'media', alt: c.title, ...c.chart } as Block,
  ],
}))

/** Writes the chart gallery as `decks/charts` under `root`, in a theme. */
export function writeChartGallery(root: string, options: { theme?: string } = {}): DeckDoc {
  const dir = join(root, 'decks', 'charts')
  mkdirSync(join(dir, 'slides'), { recursive: true })
  const now = '2026-11-27T00:00:00.000Z'
  const manifest: Manifest = {
    id: 'charts',
    title: 'Chart gallery',
    theme: options.theme ?? 'studio-simple',
    defaults: { appearance: 'light' },
    sections: [{ id: 'main', title: 'Main', slides: CHART_SLIDES.map((s) => s.id) }],
    revision: 1,
    stamps: { createdAt: now, updatedAt: now },
  }
  writeFileSync(join(dir, 'deck.json'), canonicalJson(manifest))
  for (const slide of CHART_SLIDES) writeFileSync(join(dir, 'slides', `${slide.id}.json`), canonicalJson(slide))
  const slides: Record<string, Slide> = Object.create(null)
  for (const slide of CHART_SLIDES) slides[slide.id] = slide
  return { manifest, slides, versions: [] }
}
