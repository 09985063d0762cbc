/**
 * Writes the shipped template templates/brand-sample: a 95-slide, 8-section sample deck in the
 * Simple theme, made of every common layout. Rerun after a model change: `node --import tsx scripts/brand-sample.ts`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalJson } from '../src/store/canonical.js'
import { toCanvas } from '../src/layout/canvas.js'

/** A title heading as a canvas block: the box and size the title slot of a content layout draws it at. */
const canvasTitle = (text: string) => toCanvas({ id: 'x', layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text }] }).blocks![0]

const dir = new URL('../templates/brand-sample', import.meta.url).pathname
rmSync(join(dir, 'slides'), { recursive: true, force: true })
mkdirSync(join(dir, 'slides'), { recursive: true })

const SECTIONS = ['Opening', 'Market', 'Product', 'Customers', 'Operations', 'Finance', 'Roadmap', 'Closing']
const slides: Record<string, unknown>[] = []
const sections: { id: string; title: string; slides: string[] }[] = []
const counters = new Map<string, number>()
const id = (layout: string) => {
  const n = (counters.get(layout) ?? 0) + 1
  counters.set(layout, n)
  return `${layout}-${n}`
}

SECTIONS.forEach((name, s) => {
  const section = { id: name.toLowerCase(), title: name, slides: [] as string[] }
  sections.push(section)
  const per = s < 7 ? 12 : 11 // 7 × 12 + 11 = 95
  for (let i = 0; i < per; i++) {
    const n = s * 12 + i + 1
    let slide: Record<string, unknown>
    const topic = `${name} ${i + 1}`
    switch (i % 12) {
      case 0:
        slide = s === 0 ? { id: id('title'), layout: 'title', title: 'Brand sample', subtitle: 'A deck of every layout', byline: 'Deck Studio' } : { id: id('section'), layout: 'section', title: name, subtitle: `Part ${s + 1} of 8` }
        break
      case 1:
      case 5:
        slide = { id: id('title-body'), layout: 'title-body', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: what changed` },
          { id: 'b0', kind: 'text', slot: 'body', color: 'muted', text: 'Three things moved this quarter, and one of them moved a lot.' },
          { id: 'b1', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'Costs fell by half' }, { text: 'Lead time is two days', level: 2 }, { text: 'Customers renew earlier' }] },
        ] }
        break
      case 2:
        slide = { id: id('two-columns'), layout: 'two-columns', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: before and after` },
          { id: 'h1', kind: 'heading', level: 3, slot: 'left', text: 'Before' },
          { id: 'b1', kind: 'text', slot: 'left', text: 'Weekly releases, long reviews and a freeze before every launch.' },
          { id: 'h2', kind: 'heading', level: 3, slot: 'right', color: 'accent', text: 'After' },
          { id: 'b2', kind: 'text', slot: 'right', text: 'Daily releases, <i>short</i> reviews, and launches nobody has to schedule.' },
        ] }
        break
      case 3:
        slide = { id: id('big-number'), layout: 'big-number', blocks: [
          { id: 'b1', kind: 'heading', slot: 'body', text: `${30 + (n % 60)}%` },
          { id: 'b2', kind: 'text', slot: 'caption', text: 'of teams ship daily' },
        ] }
        break
      case 4:
        slide = { id: id('quote'), layout: 'quote', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: '“We stopped arguing about the deck and started shipping it.”' }], attribution: 'A customer' }
        break
      case 6:
        slide = { id: id('table'), layout: 'table', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: numbers` },
          { id: 'b1', kind: 'table', slot: 'body', header: true, columnWidths: [2, 1, 1], rows: [['Metric', 'Q2', 'Q3'], ['Revenue ($M)', '1.2', '1.5'], ['Margin', '18%', '22%'], ['Lead time', '5 days', '2 days']] },
          { id: 'c1', kind: 'text', slot: 'caption', color: 'muted', text: 'Source: finance and deployment logs.' },
        ] }
        break
      case 7:
        slide = { id: id('chart'), layout: 'chart', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: trend` },
          { id: 'b1', kind: 'chart', slot: 'media', chartType: 'column', data: { categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: 'Revenue', values: [1, 1.2, 1.5, 1.9] }, { name: 'Costs', values: [0.9, 0.8, 0.7, 0.6] }] }, alt: 'Revenue by quarter rising from 1 to 1.9, costs falling from 0.9 to 0.6' },
          { id: 'c1', kind: 'text', slot: 'caption', color: 'muted', text: 'Revenue and costs, $M.' },
        ] }
        break
      case 8:
        slide = { id: id('main-point'), layout: 'main-point', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: `${topic}: one thing to remember.` }] }
        break
      case 9:
        slide = { id: id('comparison'), layout: 'comparison', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: options` },
          { id: 'h1', kind: 'text', slot: 'subtitle', text: 'Build it' },
          { id: 'h2', kind: 'text', slot: 'caption', text: 'Buy it' },
          { id: 'b1', kind: 'list', slot: 'left', marker: 'bullet', items: [{ text: 'Fits our process exactly' }, { text: 'Six months to first release' }] },
          { id: 'b2', kind: 'list', slot: 'right', marker: 'bullet', items: [{ text: 'Live next month' }, { text: 'We adapt to it' }] },
        ] }
        break
      case 10:
        slide = { id: id('freeform'), layout: 'freeform', blocks: [
          { id: 'b1', kind: 'shape', shape: 'rounded', fill: 'accent', color: 'paper', size: 40, pos: { x: 160, y: 320, w: 360, h: 240 }, z: 0, text: 'Plan' },
          { id: 'b2', kind: 'shape', shape: 'rounded', fill: 'accent', color: 'paper', size: 40, pos: { x: 620, y: 320, w: 360, h: 240 }, z: 1, text: 'Build' },
          { id: 'b3', kind: 'shape', shape: 'rounded', fill: 'accent', color: 'paper', size: 40, pos: { x: 1080, y: 320, w: 360, h: 240 }, z: 2, text: 'Ship' },
          // The title where and as every other layout draws its title: its canvas form (toCanvas of a title slot).
          { ...canvasTitle(`${topic}: how we work`), z: 3 },
          { id: 'l1', kind: 'line', connector: true, arrow: 'end', strokeWidth: 4, start: { block: 'b1', side: 'right' }, end: { block: 'b2', side: 'left' }, pos: { x: 520, y: 440, w: 100, h: 4 }, z: 4 },
          { id: 'l2', kind: 'line', connector: true, arrow: 'end', strokeWidth: 4, start: { block: 'b2', side: 'right' }, end: { block: 'b3', side: 'left' }, pos: { x: 980, y: 440, w: 100, h: 4 }, z: 5 },
        ] }
        break
      default:
        slide = { id: id('agenda'), layout: 'agenda', blocks: [
          { id: 'title', kind: 'heading', slot: 'title', text: `${topic}: next` },
          { id: 'b1', kind: 'list', slot: 'body', marker: 'number', items: [{ text: 'Decide' }, { text: 'Staff' }, { text: 'Review in a month' }] },
        ], notes: 'Keep this short.' }
    }
    slides.push(slide)
    section.slides.push(slide.id as string)
  }
})

const now = '2026-11-22T00:00:00.000Z'
writeFileSync(join(dir, 'deck.json'), canonicalJson({ id: 'brand-sample', title: 'Brand sample', theme: 'studio-simple', defaults: { appearance: 'light', counter: true }, sections, revision: 0, stamps: { createdAt: now, updatedAt: now } }))
for (const slide of slides) writeFileSync(join(dir, 'slides', `${slide.id}.json`), canonicalJson(slide))
writeFileSync(join(dir, 'template.json'), canonicalJson({ id: 'brand-sample', name: 'Brand sample', category: 'sample', sentence: 'A 95-slide deck in 8 sections showing every common layout.', theme: 'simple', appearance: 'light' }))
console.log(`wrote ${slides.length} slides in ${sections.length} sections`)
