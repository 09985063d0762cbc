/**
 * Visual tests of the renderer, in real Chromium:
 *
 * - every layout and every block kind (the gallery deck), light and dark, rendered by the pipeline
 *   and compared with the committed references in test/visual/references (half size, pixelmatch,
 *   a small tolerance). `STUDIO_UPDATE_REFERENCES=1` rewrites them; look at what changed before
 *   committing. They are drawn by the Chromium the renderer picks (src/render/browser.ts): a headless
 *   shell where there is one, as on CI. The desktop browser draws the edges of SVG chart labels a
 *   little differently (100-200 pixels of a chart slide at half size), past the tolerance.
 * - every drawing property makes a visible difference: the same slide with and without it must
 *   differ where the block is drawn (a property that stops being drawn fails here by name).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import sharp from 'sharp'
import type { Block, DeckDoc, Slide } from '../../src/model/deck.js'
import { leaseBrowser, type Browser } from '../../src/render/browser.js'
import { renderSlides } from '../../src/render/pipeline.js'
import { THEMES } from '../../src/model/themes.js'
import { ROOT } from '../helpers/studio.js'
import { GALLERY_SLIDES, photo, writeGallery } from '../helpers/gallery.js'
import { CHART_SLIDES, writeChartGallery } from '../helpers/chart-gallery.js'
import { sheetPage } from '../helpers/render.js'

const REFERENCES = join(ROOT, 'test', 'visual', 'references')
const UPDATE = process.env.STUDIO_UPDATE_REFERENCES === '1'
/** Pixels (of 800 × 450) that may differ from a reference, for anti-aliasing noise; and pixelmatch's colour threshold. */
const TOLERANCE = 60
const THRESHOLD = 0.1

/** Pixels as RGBA, decoded by libvips (pngjs's JavaScript decoder costs three times the CPU for the same pixels). */
interface Pixels {
  data: Buffer
  width: number
  height: number
}

const rgba = async (image: ReturnType<typeof sharp>): Promise<Pixels> => {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  assert.equal(info.channels, 4)
  return { data, width: info.width, height: info.height }
}

const halfSize = (file: string | Buffer) => rgba(sharp(file).resize(800, 450, { kernel: 'lanczos3' }).removeAlpha())

function differing(a: Pixels, b: Pixels): number {
  assert.equal(a.width, b.width)
  assert.equal(a.height, b.height)
  return pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: THRESHOLD })
}

/** Compares a render at half size with its committed reference (or rewrites it with STUDIO_UPDATE_REFERENCES=1). */
async function checkReference(name: string, file: string, problems: string[]): Promise<void> {
  const got = await halfSize(file)
  const reference = join(REFERENCES, name)
  if (UPDATE) return writeFileSync(reference, PNG.sync.write(Object.assign(new PNG({ width: got.width, height: got.height }), { data: got.data })))
  if (!existsSync(reference)) return void problems.push(`${name}: no reference (run with STUDIO_UPDATE_REFERENCES=1 and look at it)`)
  const count = differing(got, await rgba(sharp(readFileSync(reference))))
  if (count > TOLERANCE) problems.push(`${name}: ${count} pixels differ`)
}

// One Chromium for the whole file: a lease held from the first test to the last keeps the renderer's shared browser
// running between renders (in a process with no keep period it closes as soon as no lease is left).
let held: Browser | undefined
before(async () => {
  held = await leaseBrowser()
})
after(() => held?.close())

describe('the renderer against the reference pictures', () => {
  let dir: string
  let doc: DeckDoc
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-visual-'))
    doc = await writeGallery(dir)
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('draws every layout and block kind, light and dark, as the references show', async () => {
    const { records } = await renderSlides({
      doc,
      deckDir: join(dir, 'decks', 'gallery'),
      slides: GALLERY_SLIDES,
      appearances: ['light', 'dark'],
      scale: 1,
      format: 'png',
      outDir: join(dir, 'out'),
      root: dir,
    })
    assert.equal(records.length, GALLERY_SLIDES.length * 2)
    mkdirSync(REFERENCES, { recursive: true })
    const problems: string[] = []
    for (const record of records) {
      const name = `${record.slideId}.${record.theme}.png`
      await checkReference(name, join(dir, record.file), problems)
    }
    assert.deepEqual(problems, [])
  })

  it('draws every theme, light and dark, as the references show (a title slide and a content slide each)', async () => {
    const problems: string[] = []
    for (const theme of THEMES) {
      const themed: DeckDoc = { ...doc, manifest: { ...doc.manifest, theme: theme.storedId } }
      const slides = GALLERY_SLIDES.filter((s) => s.id === 'title-1' || s.id === 'title-body-3' || s.id === 'chart-17')
      const { records } = await renderSlides({ doc: themed, deckDir: join(dir, 'decks', 'gallery'), slides, appearances: ['light', 'dark'], scale: 1, format: 'png', outDir: join(dir, `theme-${theme.id}`), root: dir })
      for (const record of records) {
        const name = `theme-${theme.id}-${record.slideId}.${record.theme}.png`
        await checkReference(name, join(dir, record.file), problems)
      }
    }
    assert.deepEqual(problems, [])
  })
})

describe('the chart gallery against the reference pictures', () => {
  it('draws every chart case (negatives, stacks of both signs, long labels, many series) in Simple light and Contrast dark, as the references show', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-visual-charts-'))
    try {
      const problems: string[] = []
      for (const [theme, appearance] of [['studio-simple', 'light'], ['contrast', 'dark']] as const) {
        const doc = writeChartGallery(dir, { theme })
        const { records } = await renderSlides({ doc, deckDir: join(dir, 'decks', 'charts'), slides: CHART_SLIDES, appearances: [appearance], scale: 1, format: 'png', outDir: join(dir, `out-${theme}`), root: dir })
        assert.equal(records.length, CHART_SLIDES.length)
        for (const record of records) await checkReference(`charts-${theme}-${record.slideId}.${record.theme}.png`, join(dir, record.file), problems)
      }
      assert.deepEqual(problems, [])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

/** Each case: a slide, the block to look at, and the property taken away. */
interface PropertyCase {
  name: string
  slide: Slide
  block: string
  without: (block: Block) => Block
}

const drop =
  (...keys: string[]) =>
  (block: Block) =>
    Object.fromEntries(Object.entries(block).filter(([k]) => !keys.includes(k))) as Block

const at = (x: number, y: number, w: number, h: number) => ({ pos: { x, y, w, h }, z: 0 })
const canvas = (block: Block): Slide => ({ id: 'p', layout: 'freeform', blocks: [block] })
const picture = (extra: Partial<Block>): Block => ({ id: 'b', kind: 'picture', asset: 'photo', ...at(400, 200, 800, 450), ...extra })
const text = (extra: Partial<Block>): Block => ({ id: 'b', kind: 'textbox', ...at(200, 200, 1200, 400), text: 'Costs fell by half at Acme while releases went from weekly to daily, and incidents fell too.', ...extra })
const items = [{ text: 'First' }, { text: 'Second', level: 2 }, { text: 'Third', level: 3 }]
const chart = (chartType: string): Block => ({ id: 'b', kind: 'chart', chartType, ...at(300, 100, 1000, 700), data: { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'A', values: [3, 5, 4] }, { name: 'B', values: [2, 1, 3] }] } })

const CASES: PropertyCase[] = [
  { name: 'rotation (angle)', slide: canvas(picture({ angle: 20 })), block: 'b', without: drop('angle') },
  { name: 'flip', slide: canvas(picture({ flip: { h: true } })), block: 'b', without: drop('flip') },
  { name: 'crop', slide: canvas(picture({ crop: { left: 0.4, bottom: 0.3 } })), block: 'b', without: drop('crop') },
  { name: 'mask', slide: canvas(picture({ mask: 'star' })), block: 'b', without: drop('mask') },
  { name: 'transparency', slide: canvas(picture({ transparency: 0.6 })), block: 'b', without: drop('transparency') },
  { name: 'brightness', slide: canvas(picture({ brightness: 0.5 })), block: 'b', without: drop('brightness') },
  { name: 'contrast', slide: canvas(picture({ contrast: -0.7 })), block: 'b', without: drop('contrast') },
  { name: 'fit contain', slide: canvas(picture({ fit: 'contain', ...at(300, 100, 1000, 700) })), block: 'b', without: drop('fit') },
  { name: 'shadow', slide: canvas({ id: 'b', kind: 'shape', shape: 'rect', fill: 'accent', ...at(400, 200, 600, 300), shadow: { distance: 30, blur: 10, opacity: 0.8 } }), block: 'b', without: drop('shadow') },
  { name: 'shape preset', slide: canvas({ id: 'b', kind: 'shape', shape: 'star', fill: 'accent', ...at(400, 200, 600, 400) }), block: 'b', without: (b) => ({ ...b, shape: 'rect' }) },
  { name: 'shape fill', slide: canvas({ id: 'b', kind: 'shape', shape: 'rect', fill: '#e4572e', ...at(400, 200, 600, 400) }), block: 'b', without: drop('fill') },
  { name: 'stroke width', slide: canvas({ id: 'b', kind: 'shape', shape: 'ellipse', stroke: 'ink', strokeWidth: 20, ...at(400, 200, 600, 400) }), block: 'b', without: (b) => ({ ...b, strokeWidth: 2 }) },
  { name: 'italic mark', slide: canvas(text({ text: '<i>Costs fell by half at Acme while releases went from weekly to daily.</i>' })), block: 'b', without: (b) => ({ ...b, text: 'Costs fell by half at Acme while releases went from weekly to daily.' }) },
  { name: 'underline mark', slide: canvas(text({ text: '<u>Costs fell by half.</u>' })), block: 'b', without: (b) => ({ ...b, text: 'Costs fell by half.' }) },
  { name: 'colour mark', slide: canvas(text({ text: '<span style="color:#e4572e">Costs fell by half.</span>' })), block: 'b', without: (b) => ({ ...b, text: 'Costs fell by half.' }) },
  { name: 'size', slide: canvas(text({ size: 48 })), block: 'b', without: drop('size') },
  { name: 'text colour', slide: canvas(text({ color: 'accent' })), block: 'b', without: drop('color') },
  { name: 'align', slide: canvas(text({ align: 'right', text: 'Short' })), block: 'b', without: drop('align') },
  { name: 'valign', slide: canvas(text({ valign: 'bottom', text: 'Short' })), block: 'b', without: drop('valign') },
  { name: 'columns', slide: canvas(text({ columns: 3 })), block: 'b', without: drop('columns') },
  { name: 'line spacing', slide: canvas(text({ spacing: { line: 2 } })), block: 'b', without: drop('spacing') },
  { name: 'indent', slide: canvas(text({ indent: 128 })), block: 'b', without: drop('indent') },
  { name: 'list level', slide: canvas({ id: 'b', kind: 'list', marker: 'bullet', ...at(200, 200, 1000, 400), items }), block: 'b', without: (b) => ({ ...b, items: items.map((i) => ({ text: i.text })) }) },
  { name: 'list marker', slide: canvas({ id: 'b', kind: 'list', marker: 'number', size: 64, ...at(200, 100, 1000, 700), items }), block: 'b', without: (b) => ({ ...b, marker: 'bullet' }) },
  { name: 'list preset', slide: canvas({ id: 'b', kind: 'list', marker: 'number', preset: 'upper-alpha', size: 64, ...at(200, 100, 1000, 700), items }), block: 'b', without: drop('preset') },
  { name: 'table header', slide: canvas({ id: 'b', kind: 'table', header: true, ...at(200, 200, 1000, 300), rows: [['Metric', 'Value'], ['Lead time', '2 days']] }), block: 'b', without: drop('header') },
  { name: 'table column widths', slide: canvas({ id: 'b', kind: 'table', columnWidths: [1, 4], ...at(200, 200, 1000, 300), rows: [['Metric', 'Value'], ['Lead time', '2 days']] }), block: 'b', without: drop('columnWidths') },
  { name: 'line arrow', slide: canvas({ id: 'b', kind: 'line', from: { x: 300, y: 450 }, to: { x: 1300, y: 450 }, strokeWidth: 8, arrow: 'both', ...at(300, 446, 1000, 8) }), block: 'b', without: drop('arrow') },
  {
    name: 'connector attachment',
    slide: {
      id: 'p',
      layout: 'freeform',
      blocks: [
        { id: 'a', kind: 'shape', shape: 'rect', fill: 'accent', ...at(100, 100, 200, 200) },
        { id: 'c', kind: 'shape', shape: 'rect', fill: 'accent', ...at(1200, 600, 200, 200), z: 1 },
        // Its stored box is stale (elsewhere): attached ends follow the blocks, free ends would follow the box.
        { id: 'b', kind: 'line', connector: true, start: { block: 'a' }, end: { block: 'c' }, strokeWidth: 6, ...at(600, 100, 400, 100), z: 2 },
      ],
    },
    block: 'b',
    without: drop('start', 'end', 'connector'),
  },
  ...['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter'].map((type) => ({
    name: `chart type ${type}`,
    slide: canvas(chart(type)),
    block: 'b',
    without: (b: Block) => ({ ...b, chartType: type === 'column' ? 'bar' : 'column' }),
  })),
  { name: 'stacked chart', slide: canvas({ ...chart('column'), stacked: true }), block: 'b', without: drop('stacked') },
  { name: 'chart title', slide: canvas({ ...chart('pie'), title: 'Revenue by quarter' }), block: 'b', without: drop('title') },
]

const SLIDE_CASES: { name: string; slide: Slide; without: (slide: Slide) => Slide }[] = [
  { name: 'slide background', slide: { id: 'p', layout: 'blank', background: '#1d3557', blocks: [] }, without: ({ background: _b, ...rest }) => rest as Slide },
  { name: 'skipped-slide state', slide: { id: 'p', layout: 'blank', skip: true, blocks: [] }, without: ({ skip: _s, ...rest }) => rest as Slide },
  { name: 'layout', slide: { id: 'p', layout: 'picture-left', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'Where am I?' }] }, without: (s) => ({ ...s, layout: 'title-body' }) },
]

describe('every drawing property makes a visible difference', () => {
  let page: Awaited<ReturnType<typeof sheetPage>>
  const doc: DeckDoc = {
    manifest: { id: 'p', title: 'P', theme: 'studio-simple', sections: [{ id: 'main', title: 'Main', slides: ['p'] }], revision: 1, stamps: { createdAt: '', updatedAt: '' } },
    slides: Object.create(null),
    versions: [],
  }
  before(async () => {
    page = await sheetPage(doc, { assets: new Map([['photo', await photo()]]) })
  })
  after(() => page?.close())

  /** The sheet's pixels: Chromium's capture at its fast PNG setting (the same pixels as page.shot(), less CPU). */
  const capture = async (sheet: Awaited<ReturnType<typeof sheetPage>>) => {
    const cdp = await sheet.page.context().newCDPSession(sheet.page)
    try {
      const shot = (await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1600, height: 900, scale: 1 } })) as { data: string }
      return rgba(sharp(Buffer.from(shot.data, 'base64')))
    } finally {
      await cdp.detach()
    }
  }
  const pixels = async (slide: Slide) => {
    await page.show(slide)
    return capture(page)
  }

  for (const c of CASES) {
    it(`draws ${c.name}`, async () => {
      const withIt = await pixels(c.slide)
      const blocks = (c.slide.blocks ?? []).map((b) => (b.id === c.block ? c.without(b) : b))
      const withoutIt = await pixels({ ...c.slide, blocks })
      const changed = differing(withIt, withoutIt)
      assert.ok(changed > 200, `${c.name}: only ${changed} pixels change when it is taken away`)
    })
  }
  for (const c of SLIDE_CASES) {
    it(`draws ${c.name}`, async () => {
      const changed = differing(await pixels(c.slide), await pixels(c.without(c.slide)))
      assert.ok(changed > 200, `${c.name}: only ${changed} pixels change when it is taken away`)
    })
  }
  it('never draws guides', async () => {
    const plain = await pixels({ id: 'p', layout: 'title-body', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'Guides' }] })
    const guided = { ...doc, manifest: { ...doc.manifest, guides: { vertical: [400, 800], horizontal: [300] } } }
    const other = await sheetPage(guided)
    try {
      await other.show({ id: 'p', layout: 'title-body', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'Guides' }] })
      assert.equal(differing(plain, await capture(other)), 0)
    } finally {
      await other.close()
    }
  })
})
