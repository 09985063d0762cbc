/**
 * The gallery deck of the visual tests: a slide for every layout and slides holding every block kind
 * with its drawing properties, plus a photo-like asset made with sharp. Written as plain files (the
 * renderer reads decks, it does not need git).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Block, DeckDoc, Manifest, Slide } from '../../src/model/deck.js'
import { LAYOUTS } from '../../src/model/layouts.js'
import { canonicalJson } from '../../src/store/canonical.js'

const para = 'Costs fell by half at Acme while releases went from weekly to daily.'
const list = (id: string, slot: string, extra: Partial<Block> = {}): Block => ({
  id,
  kind: 'list',
  slot,
  marker: 'bullet',
  items: [{ text: 'Faster builds' }, { text: 'Fewer incidents', level: 2 }, { text: 'Happier teams' }],
  ...extra,
})
const chart = (id: string, slot: string | undefined, chartType: string, extra: Partial<Block> = {}): Block => ({
  id,
  kind: 'chart',
  ...(slot ? { slot } : {}),
  chartType,
  data: { categories: ['Q1', 'Q2', 'Q3', 'Q4'], series: [{ name: 'Revenue', values: [4, 6, 5, 9] }, { name: 'Costs', values: [3, 3, 4, 4] }] },
  ...extra,
})

/** One slide per layout, each with content in every slot it has. */
function layoutSlide(layout: string, n: number): Slide {
  const id = `${layout}-${n}`
  const heading: Block = { id: 'title', kind: 'heading', slot: 'title', text: `${layout} layout` }
  switch (layout) {
    case 'title':
      return { id, layout, title: 'Quarterly review', subtitle: 'Q3 results', byline: 'Ada Lovelace · 24 November 2026' }
    case 'section':
      return { id, layout, title: 'Part two', subtitle: 'Where the money went' }
    case 'quote':
      return { id, layout, attribution: '— Grace Hopper', blocks: [{ id: 'q', kind: 'text', slot: 'body', text: '“The most dangerous phrase is: we have always done it this way.”' }] }
    case 'big-number':
      return { id, layout, attribution: 'fewer incidents since March', blocks: [{ id: 'n', kind: 'heading', slot: 'body', text: '71%' }] }
    case 'freeform':
      return {
        id,
        layout,
        blocks: [
          { id: 'h', kind: 'heading', pos: { x: 80, y: 60, w: 900, h: 80 }, z: 0, text: 'Freeform canvas' },
          { id: 's', kind: 'shape', shape: 'rounded', fill: 'accent', color: 'paper', pos: { x: 80, y: 200, w: 400, h: 240 }, z: 1, text: 'Plan' },
          { id: 't', kind: 'textbox', pos: { x: 560, y: 240, w: 400, h: 120 }, z: 2, text: 'Build' },
          { id: 'c', kind: 'line', connector: true, arrow: 'end', start: { block: 's', side: 'right' }, end: { block: 't', side: 'left' }, pos: { x: 480, y: 300, w: 80, h: 4 }, z: 3 },
        ],
      }
  }
  const blocks: Block[] = []
  const slots: Record<string, Block[]> = {
    'title-body': [heading, { id: 'b1', kind: 'text', slot: 'body', text: para }, list('b2', 'body')],
    'title-only': [heading],
    'two-columns': [heading, { id: 'l', kind: 'text', slot: 'left', text: 'Before: weekly releases.' }, { id: 'r', kind: 'text', slot: 'right', text: 'After: daily releases.' }],
    'three-columns': [heading, { id: 'l', kind: 'text', slot: 'left', text: 'Plan' }, { id: 'm', kind: 'text', slot: 'body', text: 'Build' }, { id: 'r', kind: 'text', slot: 'right', text: 'Ship' }],
    comparison: [heading, { id: 'h1', kind: 'text', slot: 'subtitle', text: 'Before' }, { id: 'h2', kind: 'text', slot: 'caption', text: 'After' }, list('l', 'left'), list('r', 'right', { marker: 'number' })],
    'main-point': [{ id: 'p', kind: 'text', slot: 'body', text: 'Ship small changes, every day.' }],
    'picture-caption': [heading, { id: 'p', kind: 'picture', slot: 'media', asset: 'photo' }, { id: 'c', kind: 'text', slot: 'caption', text: 'The new build farm.' }],
    'picture-full': [{ id: 'p', kind: 'picture', slot: 'media', asset: 'photo' }],
    'picture-left': [{ id: 'p', kind: 'picture', slot: 'media', asset: 'photo' }, heading, { id: 'b', kind: 'text', slot: 'body', text: para }],
    agenda: [{ ...heading, text: 'Agenda' }, list('a', 'body', { marker: 'number', items: [{ text: 'Results' }, { text: 'Costs' }, { text: 'Next steps' }] })],
    timeline: [heading, { id: 'd', kind: 'shape', shape: 'chevron', fill: 'accent', slot: 'body' }, { id: 'c', kind: 'text', slot: 'caption', text: 'March: pilot · June: rollout · September: done' }],
    table: [heading, { id: 't', kind: 'table', slot: 'body', header: true, rows: [['Metric', 'Q2', 'Q3'], ['Lead time', '5 days', '2 days'], ['Failure rate', '9%', '4%']] }, { id: 'c', kind: 'text', slot: 'caption', text: 'Source: deployment logs.' }],
    chart: [heading, chart('ch', 'media', 'column'), { id: 'c', kind: 'text', slot: 'caption', text: 'Revenue and costs, $M.' }],
    grid: [heading, { id: 'a', kind: 'text', slot: 'left', text: 'One' }, { id: 'b', kind: 'text', slot: 'right', text: 'Two' }, { id: 'c', kind: 'text', slot: 'body', text: 'Three' }, chart('d', 'media', 'pie')],
    statement: [{ id: 's', kind: 'heading', slot: 'body', text: 'We ship every day.' }, { id: 'sub', kind: 'text', slot: 'subtitle', text: 'Since March, without exceptions.' }],
    closing: [{ ...heading, text: 'Thank you' }, { id: 's', kind: 'text', slot: 'subtitle', text: 'Questions: ada@acme.test' }],
    blank: [{ id: 'b', kind: 'text', slot: 'body', text: 'A blank slide holds its text in the content box.' }],
  }
  blocks.push(...(slots[layout] ?? []))
  return { id, layout, blocks }
}

/** Slides of every block kind and property, on the canvas. */
export const KIND_SLIDES: Slide[] = [
  {
    id: 'kinds-text',
    layout: 'freeform',
    blocks: [
      { id: 'h1', kind: 'heading', level: 1, pos: { x: 80, y: 40, w: 700, h: 70 }, z: 0, text: 'Heading level 1' },
      { id: 'h3', kind: 'heading', level: 3, pos: { x: 820, y: 50, w: 700, h: 50 }, z: 1, text: 'Heading <i>level</i> 3' },
      { id: 'm', kind: 'textbox', pos: { x: 80, y: 140, w: 700, h: 160 }, z: 2, text: 'Marks: <i>italic</i>, <u>underline</u>, <s>strike</s>, x<sup>2</sup>, H<sub>2</sub>O, <span style="color:accent">colour</span>, <span style="background:highlight">highlight</span>, <span style="font-size:40px">size</span>, <a href="https://example.com">link</a>.' },
      { id: 'cols', kind: 'textbox', columns: 2, size: 20, pos: { x: 820, y: 140, w: 700, h: 160 }, z: 3, text: `${para} ${para} ${para}` },
      { id: 'sp', kind: 'textbox', size: 22, spacing: { line: 1.6, before: 6, after: 10 }, indent: 64, align: 'right', pos: { x: 80, y: 330, w: 700, h: 220 }, z: 4, text: `${para}\nSecond paragraph.` },
      { id: 'va', kind: 'textbox', valign: 'bottom', align: 'center', pos: { x: 820, y: 330, w: 700, h: 220 }, z: 5, text: 'Bottom, centred' },
      { id: 'l1', kind: 'list', marker: 'number', preset: 'upper-roman', start: 3, size: 24, pos: { x: 80, y: 580, w: 450, h: 260 }, z: 6, items: [{ text: 'Third' }, { text: 'Nested', level: 2 }, { text: 'Deeper', level: 3 }, { text: 'Fourth' }] },
      { id: 'l2', kind: 'list', marker: 'bullet', preset: 'check', size: 24, pos: { x: 560, y: 580, w: 450, h: 260 }, z: 7, items: [{ text: 'Done' }, { text: 'Also done', level: 2 }] },
      { id: 'l3', kind: 'list', marker: 'rule', size: 24, pos: { x: 1060, y: 580, w: 460, h: 260 }, z: 8, items: [{ text: 'A ruled item' }, { text: 'Another' }] },
    ],
  },
  {
    id: 'kinds-pictures',
    layout: 'freeform',
    blocks: [
      { id: 'p1', kind: 'picture', asset: 'photo', pos: { x: 60, y: 60, w: 440, h: 250 }, z: 0 },
      { id: 'p2', kind: 'picture', asset: 'photo', crop: { left: 0.3, top: 0.2 }, pos: { x: 560, y: 60, w: 440, h: 250 }, z: 1 },
      { id: 'p3', kind: 'picture', asset: 'photo', mask: 'circle', pos: { x: 1060, y: 60, w: 440, h: 250 }, z: 2 },
      { id: 'p4', kind: 'picture', asset: 'photo', angle: 12, flip: { h: true }, pos: { x: 60, y: 380, w: 440, h: 250 }, z: 3 },
      { id: 'p5', kind: 'picture', asset: 'photo', brightness: 0.4, contrast: -0.5, transparency: 0.3, pos: { x: 560, y: 380, w: 440, h: 250 }, z: 4 },
      { id: 'p6', kind: 'picture', asset: 'photo', mask: 'heart', shadow: { distance: 16, blur: 12, opacity: 0.5 }, pos: { x: 1060, y: 380, w: 440, h: 250 }, z: 5 },
      { id: 'p7', kind: 'picture', asset: 'missing', pos: { x: 60, y: 690, w: 440, h: 160 }, z: 6 },
      { id: 'sh', kind: 'shader', materialId: 'paper:grain', pos: { x: 560, y: 690, w: 440, h: 160 }, z: 7 },
      { id: 'html', kind: 'html', html: '<b>hi</b>', pos: { x: 1060, y: 690, w: 440, h: 160 }, z: 8 },
    ],
  },
  {
    id: 'kinds-shapes',
    layout: 'freeform',
    blocks: ['rect', 'rounded', 'ellipse', 'circle', 'triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star', 'arrow', 'chevron', 'heart', 'line'].map((shape, i) => ({
      id: `s-${shape}`,
      kind: 'shape',
      shape,
      fill: i % 3 === 0 ? 'accent' : i % 3 === 1 ? '#e4572e' : undefined,
      stroke: i % 3 === 2 ? 'ink' : undefined,
      strokeWidth: i % 3 === 2 ? 4 : undefined,
      pos: { x: 60 + (i % 5) * 300, y: 60 + Math.floor(i / 5) * 280, w: 240, h: 200 },
      z: i,
      ...(i === 0 ? { text: 'Text in a shape' } : {}),
    })).map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Block),
  },
  {
    id: 'kinds-charts',
    layout: 'freeform',
    blocks: ['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter'].map((type, i) =>
      chart(`c-${type}`, undefined, type, { pos: { x: 40 + (i % 4) * 390, y: 40 + Math.floor(i / 4) * 430, w: 370, h: 400 }, z: i, title: type, ...(i === 1 ? { stacked: true } : {}) }),
    ),
  },
  {
    id: 'kinds-table-lines',
    layout: 'freeform',
    background: '#f3efe6',
    skip: true,
    blocks: [
      { id: 't', kind: 'table', header: true, columnWidths: [2, 1, 1], pos: { x: 80, y: 80, w: 800, h: 300 }, z: 0, rows: [['Metric', 'Q2', 'Q3'], ['Lead time for changes', '5 days', '2 days'], ['Change failure rate', '9%', '4%']] },
      { id: 'a', kind: 'line', from: { x: 960, y: 100 }, to: { x: 1500, y: 380 }, arrow: 'both', stroke: 'accent', strokeWidth: 6, pos: { x: 960, y: 100, w: 540, h: 280 }, z: 1 },
      { id: 'b', kind: 'shape', shape: 'ellipse', fill: 'accent', pos: { x: 200, y: 520, w: 240, h: 160 }, z: 2 },
      { id: 'd', kind: 'shape', shape: 'rect', fill: 'muted', angle: 30, pos: { x: 900, y: 520, w: 240, h: 160 }, z: 3 },
      { id: 'c', kind: 'line', connector: true, start: { block: 'b' }, end: { block: 'd' }, arrow: 'end', pos: { x: 440, y: 600, w: 460, h: 2 }, z: 4 },
    ],
  },
]

export const GALLERY_SLIDES: Slide[] = [...LAYOUTS.map((layout, i) => layoutSlide(layout, i + 1)), ...KIND_SLIDES]

/** A 1200 × 800 photo-like PNG: a gradient with shapes, so crops, masks and flips show. */
export async function photo(): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#e9c46a"/></linearGradient></defs>
    <rect width="1200" height="800" fill="url(#g)"/><circle cx="300" cy="300" r="180" fill="#e63946"/><rect x="700" y="420" width="380" height="260" fill="#2a9d8f"/>
    <path d="M0 800 L400 520 L700 800 Z" fill="#264653"/></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** Writes the gallery deck into `dir/decks/gallery`; answers the document. */
export async function writeGallery(root: string, options: { theme?: string; counter?: boolean } = {}): Promise<DeckDoc> {
  const dir = join(root, 'decks', 'gallery')
  mkdirSync(join(dir, 'slides'), { recursive: true })
  mkdirSync(join(dir, 'assets'), { recursive: true })
  const now = '2026-11-24T00:00:00.000Z'
  const manifest: Manifest = {
    id: 'gallery',
    title: 'Gallery',
    theme: options.theme ?? 'studio-simple',
    defaults: { appearance: 'light', ...(options.counter === false ? {} : { counter: true }) },
    sections: [{ id: 'main', title: 'Main', slides: GALLERY_SLIDES.map((s) => s.id) }],
    revision: 1,
    stamps: { createdAt: now, updatedAt: now },
    brandKit: { footer: 'Acme · Confidential' },
  }
  writeFileSync(join(dir, 'deck.json'), canonicalJson(manifest))
  for (const slide of GALLERY_SLIDES) writeFileSync(join(dir, 'slides', `${slide.id}.json`), canonicalJson(slide))
  writeFileSync(join(dir, 'assets', 'photo.png'), await photo())
  writeFileSync(join(dir, 'assets', 'photo.json'), canonicalJson({ id: 'photo', role: 'picture', alt: 'Shapes on a gradient' }))
  const slides: Record<string, Slide> = Object.create(null)
  for (const slide of GALLERY_SLIDES) slides[slide.id] = slide
  return { manifest, slides, versions: [] }
}
