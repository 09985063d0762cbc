/**
 * The native PPTX writer on the brand sample (plus two slides made here for what the sample lacks:
 * pictures, marks, list presets, columns, a shader, a skipped slide): the written package is opened
 * and read back, and what it says is compared with the deck.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import yauzl from 'yauzl'
import { nativePptx, SHRINK_ROOM, type NativeReport } from '../../../src/export/pptx-native.js'
import { readDeckFolder } from '../../../src/store/decks.js'
import { orderedSlides, slideTitle, type Block, type DeckDoc, type Slide } from '../../../src/model/deck.js'
import { plainText } from '../../../src/model/text.js'
import { drawn, fieldBlocks } from '../../../src/layout/stack.js'
import { findTheme, themeFonts } from '../../../src/model/themes.js'
import { ROOT } from '../../helpers/studio.js'
import { skipUnlessPresent } from '../../helpers/system.js'
import { writeChartGallery } from '../../helpers/chart-gallery.js'
import { chartLayout } from '../../../src/layout/chart.js'
import { drawnFit } from '../../../src/layout/fit.js'
import { measureText } from '../../../src/layout/text.js'
import { officeFontsOnce } from '../../../src/export/office-fonts.js'
import { officeProfile } from '../../../src/export/office.js'
import { EXPORT_FACES, exportFacePath } from '../../../src/export/fonts.js'
import { createRequire } from 'node:module'
import type { Box } from '../../../src/layout/boxes.js'
import { LONG_TEXT, overflowSlides, WIDE_TABLE } from '../../helpers/overflow.js'

const EMU = 7620

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error)
      const out = new Map<string, Buffer>()
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err)
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks))
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(out))
      zip.readEntry()
    })
  })
}

const decode = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/&amp;/g, '&')

/** The object (sp, pic, graphicFrame, cxnSp) of a slide named `name`. */
function objectXml(slide: string, name: string): string | undefined {
  const at = slide.search(new RegExp(`<p:cNvPr id="\\d+" name="${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`))
  if (at < 0) return undefined
  let start = -1
  let tag = ''
  for (const t of ['p:sp', 'p:pic', 'p:graphicFrame', 'p:cxnSp']) {
    const s = slide.lastIndexOf(`<${t}>`, at)
    if (s > start) [start, tag] = [s, t]
  }
  return slide.slice(start, slide.indexOf(`</${tag}>`, at) + tag.length + 3)
}

/** The paragraphs of a text body (or of a table cell), as plain text. */
function paragraphsOf(xml: string): string[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map((p) => [...p[1].matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => decode(t[1])).join(''))
}

function relsOf(pkg: Map<string, Buffer>, part: string): Map<string, { target: string; type: string; external: boolean }> {
  const dir = part.slice(0, part.lastIndexOf('/'))
  const file = `${dir}/_rels/${part.slice(part.lastIndexOf('/') + 1)}.rels`
  const out = new Map<string, { target: string; type: string; external: boolean }>()
  const xml = pkg.get(file)?.toString('utf8') ?? ''
  for (const m of xml.matchAll(/<Relationship ([^>]*)\/>/g)) {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1] ?? ''
    const external = attr('TargetMode') === 'External'
    const target = attr('Target')
    const resolved = external ? target : target.startsWith('/') ? target.slice(1) : join(dir, target).replace(/\\/g, '/')
    out.set(attr('Id'), { target: resolved, type: attr('Type').split('/').pop()!, external })
  }
  return out
}

describe('native PPTX of the brand sample', () => {
  let work: string
  let deckDir: string
  let doc: DeckDoc
  let slides: Slide[]
  let pkg: Map<string, Buffer>
  let report: NativeReport
  let bytes: Buffer
  let unshifted: Map<string, Buffer>
  const slideXml = (n: number) => pkg.get(`ppt/slides/slide${n}.xml`)!.toString('utf8')
  const numberOf = (id: string) => slides.findIndex((s) => s.id === id) + 1

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'studio-native-'))
    deckDir = join(work, 'deck')
    cpSync(join(ROOT, 'templates', 'brand-sample'), deckDir, { recursive: true })
    mkdirSync(join(deckDir, 'assets'), { recursive: true })
    // A 400 × 200 picture: left half red, right half blue, so a crop shows which side was kept.
    const raw = Buffer.alloc(400 * 200 * 3)
    for (let y = 0; y < 200; y++) for (let x = 0; x < 400; x++) raw.set(x < 200 ? [220, 30, 30] : [30, 30, 220], (y * 400 + x) * 3)
    writeFileSync(join(deckDir, 'assets', 'photo.png'), await sharp(raw, { raw: { width: 400, height: 200, channels: 3 } }).png().toBuffer())
    writeFileSync(join(deckDir, 'assets', 'photo.json'), JSON.stringify({ id: 'photo', role: 'picture', alt: 'Red and blue', file: 'photo.png', format: 'png', width: 400, height: 200 }))
    doc = await readDeckFolder(deckDir)
    const extras: Slide[] = [
      {
        id: 'extras-1',
        layout: 'freeform',
        notes: 'Two lines\nof notes',
        blocks: [
          { id: 'ph1', kind: 'picture', asset: 'photo', pos: { x: 100, y: 100, w: 300, h: 300 }, z: 0, crop: { left: 0.1 }, flip: { h: true }, mask: 'ellipse', angle: 30, brightness: 0.2 },
          { id: 'tt1', kind: 'picture', asset: 'photo', pos: { x: 450, y: 100, w: 320, h: 160 }, z: 1, dither: {} },
          {
            id: 'marks',
            kind: 'textbox',
            pos: { x: 100, y: 500, w: 1400, h: 120 },
            z: 2,
            columns: 2,
            text: 'Plain <i>it</i> <u>un</u> <s>st</s> x<sup>2</sup> H<sub>2</sub>O <span style="color:accent;background:highlight;font-size:40px">big</span> <a href="https://example.com/">link</a> <a href="#slide:table-1">table</a>',
          },
          { id: 'roman', kind: 'list', marker: 'number', preset: 'lower-roman', start: 3, pos: { x: 800, y: 100, w: 600, h: 300 }, z: 3, items: [{ text: 'one' }, { text: 'two', level: 2 }, { text: 'three' }], link: { url: 'https://example.org/list' } },
          { id: 'sl', kind: 'chart', chartType: 'line', stacked: true, pos: { x: 1000, y: 700, w: 500, h: 180 }, z: 6, data: { categories: ['a', 'b'], series: [{ name: 'S', values: [1, 2] }, { name: 'T', values: [2, 1] }] } },
          { id: 'spaced', kind: 'textbox', pos: { x: 800, y: 420, w: 600, h: 170 }, z: 5, spacing: { before: 40, after: 10 }, text: 'First\nSecond' },
          { id: 'sh1', kind: 'shader', materialId: 'paper:mesh-gradient', pos: { x: 100, y: 650, w: 400, h: 200 }, z: 4, link: { slide: 'chart-1' } },
        ] as Block[],
      },
      { id: 'extras-2', layout: 'title-body', skip: true, notes: 'Skipped, but written: the caller passed it.', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'A skipped slide' }] },
    ]
    for (const slide of extras) doc.slides[slide.id] = slide
    // A read deck's section lists are frozen (src/store/deck-state.ts): the test's deck gets new ones.
    const last = doc.manifest.sections.at(-1)!
    doc.manifest = { ...doc.manifest, sections: [...doc.manifest.sections.slice(0, -1), { ...last, slides: [...last.slides, ...extras.map((s) => s.id)] }] }
    slides = orderedSlides(doc)
    ;({ bytes, report } = await nativePptx({ doc, deckDir, root: work, slides, appearance: 'light', includeNotes: true, baseline: 'libreoffice', embedFonts: false, headingsRaster: false }))
    pkg = await unzip(bytes)
    unshifted = await unzip((await nativePptx({ doc, deckDir, root: work, slides, appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })).bytes)
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  /**
   * The whole deck and the kerned line as LibreOffice prints them, both converted by one soffice run
   * (a LibreOffice start costs more than either conversion), with the shipped faces as LibreOffice loads
   * them (src/export/office-fonts.ts), as a reader who has them. Made by the first test that asks, so
   * each test still runs alone.
   */
  let pdfs: Promise<{ deck: string; kerned: string; dir: string }> | undefined
  const libreOfficePdfs = () =>
    (pdfs ??= (async () => {
      const dir = join(work, 'pdf')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'deck.pptx'), bytes)
      writeFileSync(join(dir, 'kerned.pptx'), await kernedLinePptx())
      const env = { ...process.env, FONTCONFIG_FILE: officeFontsOnce(join(work, 'office')) }
      execFileSync('soffice', [officeProfile(join(work, 'profile')).arg, '--headless', '--convert-to', 'pdf', '--outdir', dir, join(dir, 'deck.pptx'), join(dir, 'kerned.pptx')], { stdio: 'ignore', timeout: 240_000, env })
      return { deck: join(dir, 'deck.pdf'), kerned: join(dir, 'kerned.pdf'), dir }
    })())
  /** A line of kerned pairs at 96 px, one slide. */
  const KERNED_WORDS = ['AVAWATa', 'WAVY', 'Tyrant']
  let kernedPackage: Promise<Buffer> | undefined
  const kernedLinePptx = () =>
    (kernedPackage ??= (async () => {
      const slide: Slide = { id: 'kerned', layout: 'freeform', blocks: [{ id: 'k', kind: 'textbox', size: 96, pos: { x: 40, y: 100, w: 1520, h: 200 }, z: 0, text: KERNED_WORDS.join(' ') }] as Block[] }
      return (await nativePptx({ doc, deckDir, root: work, slides: [slide], appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })).bytes
    })())

  it('writes text of two lines or more shrink on overflow, with a point of room, so a wider fallback face stays inside the box', () => {
    const fonts = themeFonts(doc.manifest)
    const autofit = (xml: string) => /<a:bodyPr [^>]*>(<a:(?:normAutofit|noAutofit|spAutoFit)\/>)?/.exec(xml)?.[1]
    // two-columns-1: a one-line title and headings, two-line column bodies.
    const slide = slides[numberOf('two-columns-1') - 1]
    const xml = unshifted.get(`ppt/slides/slide${numberOf('two-columns-1')}.xml`)!.toString('utf8')
    const boxes = new Map(drawn(slide, fonts).items.map((i) => [i.block.id, i.box]))
    for (const id of ['b1', 'b2']) {
      const shape = objectXml(xml, id)!
      assert.equal(autofit(shape), '<a:normAutofit/>', `${id} shrinks on overflow`)
      const cy = Number(/<a:ext cx="\d+" cy="(\d+)"\/>/.exec(shape)![1])
      assert.equal(cy, Math.round((boxes.get(id)!.h + SHRINK_ROOM) * EMU), `${id}: a point of room below its two lines`)
    }
    for (const id of ['title', 'h1', 'h2', 'slide number']) assert.notEqual(objectXml(xml, id) && autofit(objectXml(xml, id)!), '<a:normAutofit/>', `${id}: one line, no shrink`)
    // A list of several items shrinks; a shape's one-line label does not.
    const agenda = unshifted.get(`ppt/slides/slide${numberOf('agenda-1')}.xml`)!.toString('utf8')
    assert.equal(autofit(objectXml(agenda, 'b1')!), '<a:normAutofit/>')
    const freeform = unshifted.get(`ppt/slides/slide${numberOf('freeform-1')}.xml`)!.toString('utf8')
    assert.notEqual(autofit(objectXml(freeform, 'b1')!), '<a:normAutofit/>')
  })

  it('writes one slide per deck slide, in order, in a package whose every relationship and part resolves', () => {
    const parts = [...pkg.keys()].filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    assert.equal(parts.length, slides.length)
    assert.equal(slides.length, 97)
    const presentation = pkg.get('ppt/presentation.xml')!.toString('utf8')
    const rels = relsOf(pkg, 'ppt/presentation.xml')
    const order = [...presentation.matchAll(/<p:sldId [^>]*r:id="(rId\d+)"/g)].map((m) => rels.get(m[1])!.target)
    assert.deepEqual(order, slides.map((_, i) => `ppt/slides/slide${i + 1}.xml`))
    // Every internal relationship points at a part, and every part has a content type.
    const types = pkg.get('[Content_Types].xml')!.toString('utf8')
    const defaults = new Set([...types.matchAll(/<Default Extension="([^"]+)"/g)].map((m) => m[1].toLowerCase()))
    const overrides = new Set([...types.matchAll(/<Override PartName="\/([^"]+)"/g)].map((m) => m[1]))
    for (const name of pkg.keys()) {
      if (name.endsWith('.rels') && !name.startsWith('_rels')) {
        const source = name.replace(/_rels\//, '').replace(/\.rels$/, '')
        for (const [id, rel] of relsOf(pkg, source)) if (!rel.external) assert.ok(pkg.has(rel.target), `${name} ${id} -> ${rel.target}`)
      }
      if (name !== '[Content_Types].xml') assert.ok(overrides.has(name) || defaults.has(name.split('.').pop()!.toLowerCase()), `no content type for ${name}`)
    }
    // ...and every Override names a part the package holds (pptxgenjs declares a slide master per slide).
    for (const name of overrides) assert.ok(pkg.has(name), `an Override for ${name}, which is not in the package`)
    // pptxgenjs writes one <a:pPr> per run; the schema allows one per paragraph, first.
    for (const part of parts) for (const p of pkg.get(part)!.toString('utf8').matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)) assert.ok((p[1].match(/<a:pPr\b/g) ?? []).length <= 1 && !/<a:r>[\s\S]*<a:pPr\b/.test(p[1]), `${part}: paragraph properties after a run`)
  })

  it('carries the text of every title, body, list, shape and caption of every slide, in its block, at geometry\'s box', () => {
    const fonts = themeFonts(doc.manifest)
    let checked = 0
    for (const [i, slide] of slides.entries()) {
      const xml = slideXml(i + 1)
      const plain = unshifted.get(`ppt/slides/slide${i + 1}.xml`)!.toString('utf8')
      const fields = new Map(fieldBlocks(slide).map((f) => [f.block.id, f.block]))
      for (const { block, box } of drawn(slide, fonts).items) {
        const expected =
          block.kind === 'list'
            ? (block.items as { text: string }[]).map((item) => plainText(item.text).replace(/\n/g, ''))
            : ['text', 'heading', 'textbox', 'shape'].includes(block.kind) && typeof block.text === 'string'
              ? plainText(block.text).split('\n')
              : undefined
        if (!expected) continue
        const shape = objectXml(xml, block.id)
        assert.ok(shape, `${slide.id}#${block.id} not written`)
        assert.deepEqual(paragraphsOf(shape), expected, `${slide.id}#${block.id}`)
        if (fields.has(block.id)) assert.equal(plainText((slide as Record<string, string>)[block.id] ?? ''), expected.join('\n'))
        // With baseline 'none' a text box sits exactly at the box geometry computed (shapes inset their outline by half the stroke).
        if (block.kind !== 'shape') {
          const written = objectXml(plain, block.id)!
          const off = /<a:off x="(-?\d+)" y="(-?\d+)"\/><a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(written)!
          // Text in columns: a box of the balanced height (the renderer balances columns; office suites fill one, then the next).
          const columns = typeof block.columns === 'number' && block.columns > 1
          // Shrink on overflow: a point of room past the text, on the side away from the anchor.
          const room = written.includes('<a:normAutofit/>') ? SHRINK_ROOM : 0
          const anchor = /anchor="(\w+)"/.exec(written)?.[1]
          const y = box.y - (anchor === 'b' ? room : anchor === 'ctr' ? room / 2 : 0)
          assert.deepEqual(off.slice(1, columns ? 4 : 5).map(Number), [box.x, y, box.w, box.h + room].slice(0, columns ? 3 : 4).map((v) => Math.round(v * EMU)), `${slide.id}#${block.id} box`)
          if (columns) assert.ok(Number(off[4]) < box.h * EMU, `${slide.id}#${block.id} columns not balanced`)
        }
        checked++
      }
    }
    assert.ok(checked > 250, `only ${checked} text blocks`)
    // The title slide's fields: title, subtitle and byline, each its own text box.
    const title = slideXml(numberOf('title-1'))
    assert.deepEqual(paragraphsOf(objectXml(title, 'title')!), ['Brand sample'])
    assert.deepEqual(paragraphsOf(objectXml(title, 'subtitle')!), ['A deck of every layout'])
    assert.deepEqual(paragraphsOf(objectXml(title, 'byline')!), ['Deck Studio'])
  })

  it('puts the notes of each slide on its notes page, and only there', () => {
    let withNotes = 0
    for (const [i, slide] of slides.entries()) {
      const notes = [...relsOf(pkg, `ppt/slides/slide${i + 1}.xml`).values()].find((r) => r.type === 'notesSlide')
      assert.ok(notes, `${slide.id} has no notes page`)
      const body = /<p:ph type="body"[\s\S]*?<p:txBody>([\s\S]*?)<\/p:txBody>/.exec(pkg.get(notes.target)!.toString('utf8'))![1]
      assert.equal(paragraphsOf(body).join('\n'), slide.notes ?? '', slide.id)
      if (slide.notes) withNotes++
    }
    assert.ok(withNotes >= 9, `${withNotes} slides with notes`)
  })

  it('writes tables natively: every cell\'s text, the column widths in the deck\'s proportions, the header row', () => {
    const tables = slides.filter((s) => s.layout === 'table')
    assert.equal(tables.length, 8)
    for (const slide of tables) {
      const block = slide.blocks!.find((b) => b.kind === 'table')!
      const frame = objectXml(slideXml(numberOf(slide.id)), block.id)!
      assert.match(frame, /<a:tbl>/)
      const rows = [...frame.matchAll(/<a:tr [^>]*>([\s\S]*?)<\/a:tr>/g)].map((r) => [...r[1].matchAll(/<a:tc>([\s\S]*?)<\/a:tc>/g)].map((c) => paragraphsOf(c[1]).join('\n')))
      assert.deepEqual(rows, (block.rows as string[][]).map((row) => row.map((cell) => plainText(cell))))
      const widths = [...frame.matchAll(/<a:gridCol w="(\d+)"\/>/g)].map((m) => Number(m[1]))
      const weights = block.columnWidths as number[]
      const box = drawn(slide, themeFonts(doc.manifest)).items.find((d) => d.block.id === block.id)!.box
      widths.forEach((w, c) => assert.ok(Math.abs(w - (box.w * EMU * weights[c]) / weights.reduce((a, b) => a + b, 0)) <= 1, `${slide.id} column ${c}: ${w}`))
      // The header row is bold with a 2 px ink rule under it.
      const header = /<a:tr [^>]*>([\s\S]*?)<\/a:tr>/.exec(frame)![1]
      assert.match(header, /<a:rPr [^>]*b="1"/)
      assert.match(header, /<a:lnB w="15240"[\s\S]*?<a:srgbClr val="111111"\/>/)
    }
  })

  it('writes charts natively: series names, categories and values in the chart part and in its workbook (so Edit data works)', async () => {
    const charts = slides.filter((s) => s.layout === 'chart')
    assert.equal(charts.length, 8)
    for (const slide of charts) {
      const block = slide.blocks!.find((b) => b.kind === 'chart')!
      const data = block.data as { categories: string[]; series: { name: string; values: number[] }[] }
      const rels = relsOf(pkg, `ppt/slides/slide${numberOf(slide.id)}.xml`)
      const rid = /<c:chart r:id="(rId\d+)"/.exec(objectXml(slideXml(numberOf(slide.id)), block.id)!)![1]
      const chartPart = rels.get(rid)!.target
      const chart = pkg.get(chartPart)!.toString('utf8')
      assert.match(chart, block.chartType === 'column' ? /<c:barDir val="col"\/>/ : /<c:barDir val="bar"\/>/)
      const series = [...chart.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((m) => ({
        name: /<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/.exec(m[1])![1],
        categories: [.../<c:cat>([\s\S]*?)<\/c:cat>/.exec(m[1])![1].matchAll(/<c:v>([^<]*)<\/c:v>/g)].map((v) => v[1]),
        values: [.../<c:val>([\s\S]*?)<\/c:val>/.exec(m[1])![1].matchAll(/<c:v>([^<]*)<\/c:v>/g)].map((v) => Number(v[1])),
        colour: /<c:spPr>\s*<a:solidFill>\s*<a:srgbClr val="([0-9A-F]{6})"/.exec(m[1])?.[1],
      }))
      assert.deepEqual(series.map((s) => s.name), data.series.map((s) => s.name), slide.id)
      for (const s of series) assert.deepEqual(s.categories, data.categories)
      assert.deepEqual(series.map((s) => s.values), data.series.map((s) => s.values))
      // Series take the theme's chart colours, in order.
      assert.deepEqual(series.map((s) => s.colour), ['2F5BEA', 'E4572E'].slice(0, series.length))
      // The workbook: names across the first row, categories down the first column, values under their series.
      const book = await unzip(pkg.get(relsOf(pkg, chartPart).values().next().value!.target)!)
      const strings = [...book.get('xl/sharedStrings.xml')!.toString('utf8').matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map((m) => m[1])
      const cells = new Map([...book.get('xl/worksheets/sheet1.xml')!.toString('utf8').matchAll(/<c r="([A-Z]+\d+)"( t="s")?[^>]*><v>([^<]*)<\/v><\/c>/g)].map((m) => [m[1], m[2] ? strings[Number(m[3])] : Number(m[3])]))
      data.series.forEach((s, j) => {
        const column = String.fromCharCode(66 + j)
        assert.equal(cells.get(`${column}1`), s.name)
        s.values.forEach((v, r) => assert.equal(cells.get(`${column}${r + 2}`), v, `${slide.id} ${s.name} ${r}`))
      })
      data.categories.forEach((c, r) => assert.equal(cells.get(`A${r + 2}`), c))
    }
    // A stacked line chart (which pptxgenjs cannot stack) is stacked, in each file this process writes (pptxgenjs numbers chart parts across files).
    for (const file of [pkg, unshifted]) {
      const n = numberOf('extras-1')
      const rid = /<c:chart r:id="(rId\d+)"/.exec(objectXml(file.get(`ppt/slides/slide${n}.xml`)!.toString('utf8'), 'sl')!)![1]
      const part = relsOf(file, `ppt/slides/slide${n}.xml`).get(rid)!.target
      assert.match(file.get(part)!.toString('utf8'), /<c:lineChart><c:grouping val="stacked"\/>/, part)
    }
  })

  it('writes the slides the deck skips hidden, and only those', () => {
    for (const [i, slide] of slides.entries()) {
      const root = /<p:sld [^>]*>/.exec(slideXml(i + 1))![0]
      assert.equal(/ show="0"/.test(root), slide.skip === true, slide.id)
    }
    assert.ok(slides.some((s) => s.skip))
  })

  it('carries every text mark as run properties, links with their targets, list numbering, columns', () => {
    const xml = slideXml(numberOf('extras-1'))
    const marks = objectXml(xml, 'marks')!
    const run = (text: string) => new RegExp(`<a:r><a:rPr ([^>]*)>((?:(?!<\\/a:rPr>)[\\s\\S])*)<\\/a:rPr><a:t>${text}<\\/a:t>`).exec(marks)
    assert.match(run('it')![1], /i="1"/)
    assert.match(run('un')![1], /u="sng"/)
    assert.match(run('st')![1], /strike="sngStrike"/)
    assert.match(run('2')![1], /baseline="31500"/)
    assert.ok(/baseline="-17500"/.test(marks))
    const big = run('big')!
    assert.match(big[1], /sz="2400"/)
    assert.match(big[2], /<a:solidFill><a:srgbClr val="2F5BEA"\/><\/a:solidFill><a:highlight><a:srgbClr val="FFF3A3"\/><\/a:highlight>/)
    assert.match(run('Plain ')![1], /sz="1680"/)
    const rels = relsOf(pkg, `ppt/slides/slide${numberOf('extras-1')}.xml`)
    const link = /<a:hlinkClick r:id="(rId\d+)"/.exec(run('link')![2])!
    assert.deepEqual(rels.get(link[1]), { target: 'https://example.com/', type: 'hyperlink', external: true })
    const jump = /<a:hlinkClick r:id="(rId\d+)" action="ppaction:\/\/hlinksldjump"/.exec(run('table')![2])!
    assert.equal(rels.get(jump[1])!.target, `ppt/slides/slide${numberOf('table-1')}.xml`)
    assert.match(marks, /<a:bodyPr [^>]*numCol="2" spcCol="243840"/)
    // Numbered list: lower roman from iii, each level indented 64 px past a 1.5 em gutter, markers in the accent.
    const list = objectXml(xml, 'roman')!
    const props = [...list.matchAll(/<a:pPr ([^>]*)>([\s\S]*?)<\/a:pPr>/g)]
    assert.equal(props.length, 3)
    assert.match(props[0][1], new RegExp(`marL="${42 * EMU}" indent="-${42 * EMU}" lvl="0"`))
    assert.match(props[1][1], new RegExp(`marL="${(64 + 42) * EMU}" indent="-${42 * EMU}" lvl="1"`))
    assert.match(props[0][2], /<a:buClr><a:srgbClr val="2F5BEA"\/><\/a:buClr>[\s\S]*<a:buAutoNum type="romanLcPeriod" startAt="3"\/>/)
    assert.match(props[1][2], /<a:buAutoNum type="romanLcPeriod"\/>/)
    // Paragraph spacing: the first paragraph's space before is the box's top inset (LibreOffice drops it on a first paragraph).
    const spaced = objectXml(unshifted.get(`ppt/slides/slide${numberOf('extras-1')}.xml`)!.toString('utf8'), 'spaced')!
    assert.match(spaced, /<a:bodyPr [^>]*tIns="304800"/)
    const spacing = [...spaced.matchAll(/<a:pPr[^>]*>([\s\S]*?)<\/a:pPr>/g)].map((m) => m[1].replace(/<a:lnSpc>[\s\S]*?<\/a:lnSpc>|<a:bu[^>]*\/>/g, ''))
    assert.deepEqual(spacing, ['<a:spcAft><a:spcPts val="600"/></a:spcAft>', '<a:spcBef><a:spcPts val="2400"/></a:spcBef><a:spcAft><a:spcPts val="600"/></a:spcAft>'])
    // A block's own link: on the object it is drawn as, whatever its kind.
    const blockLink = (name: string) => rels.get(/<p:cNvPr [^>]*><a:hlinkClick r:id="([^"]+)"/.exec(objectXml(xml, name)!)![1])
    assert.deepEqual(blockLink('roman'), { target: 'https://example.org/list', type: 'hyperlink', external: true })
    assert.deepEqual(blockLink('sh1'), { target: `ppt/slides/slide${numberOf('chart-1')}.xml`, type: 'slide', external: false })
    // Bullet lists of the sample: the renderer's disc, in the accent.
    const bullets = objectXml(slideXml(numberOf('title-body-1')), 'b1')!
    assert.equal((bullets.match(/<a:buChar char="•"\/>/g) ?? []).length, 3)
  })

  it('draws pictures with the renderer\'s crop, flip, mask, rotation and brightness, and two-tone pictures as their screen', async () => {
    const xml = slideXml(numberOf('extras-1'))
    const pic = objectXml(xml, 'ph1')!
    // 400 × 200 drawn to cover a 333.3 × 300 element (300 / (1 − 0.1)) is 600 × 300, 133.3 px over each side; the box shows
    // [33.3, 333.3] of the element, mirrored to [0, 300]: 22.2 % of the picture trimmed on the left, 27.8 % on the right.
    assert.match(pic, /<a:srcRect l="22222" t="0" r="27778" b="0"\/>/)
    assert.match(pic, /<a:xfrm flipH="1" rot="1800000">\s*<a:off x="762000" y="762000"\/>\s*<a:ext cx="2286000" cy="2286000"\/>/)
    assert.match(pic, /<a:prstGeom prst="ellipse">/)
    assert.match(pic, /<a:lum bright="20000"\/>/)
    assert.match(pic, /descr="Red and blue"/)
    const rels = relsOf(pkg, `ppt/slides/slide${numberOf('extras-1')}.xml`)
    const screen = objectXml(xml, 'tt1')!
    const media = pkg.get(rels.get(/<a:blip r:embed="(rId\d+)"/.exec(screen)![1])!.target)!
    const { data, info } = await sharp(media).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const colours = new Set<string>()
    for (let i = 0; i < data.length; i += info.channels) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`)
    assert.deepEqual([...colours].sort(), ['17,17,17', '255,255,255'])
    assert.equal(info.width, 640)
    assert.ok(report.rasters.some((r) => r.startsWith('extras-1#tt1 two-tone png')))
    // A shader block without a captured frame: the renderer's gradient, which pptxgenjs cannot write, put in afterwards.
    assert.match(objectXml(xml, 'sh1')!, /<a:gradFill rotWithShape="1"><a:gsLst><a:gs pos="0"><a:srgbClr val="2F5BEA"\/><\/a:gs><a:gs pos="100000"><a:srgbClr val="FFFFFF"\/><\/a:gs><\/a:gsLst><a:lin ang="2700000" scaled="0"\/><\/a:gradFill>/)
    assert.ok(report.cannot.some((c) => c.startsWith('extras-1#sh1:')))
  })

  it('attaches connectors to the shapes they join, and numbers slides with a field', () => {
    const xml = slideXml(numberOf('freeform-1'))
    const id = (name: string) => /<p:cNvPr id="(\d+)"/.exec(objectXml(xml, name)!)![1]
    assert.match(objectXml(xml, 'l1')!, new RegExp(`^<p:cxnSp>[\\s\\S]*<a:stCxn id="${id('b1')}" idx="3"/><a:endCxn id="${id('b2')}" idx="1"/>[\\s\\S]*prst="straightConnector1"[\\s\\S]*<a:tailEnd type="triangle" w="lg" len="lg"/>`))
    assert.match(objectXml(xml, 'slide number')!, new RegExp(`<a:fld id="[^"]+" type="slidenum"><a:rPr[^>]*>[\\s\\S]*?<a:t>${numberOf('freeform-1')}</a:t></a:fld>`))
  })

  it('compresses the package and reports what it wrote', () => {
    assert.equal(report.pages, slides.length)
    assert.equal(report.bytes, bytes.length)
    assert.deepEqual(report.fonts, ['Inter'])
    assert.ok(bytes.length < 600_000, `${bytes.length} bytes`)
    // Slide XML is deflated: the stored package pptxgenjs writes would hold it uncompressed.
    const local = bytes.indexOf(Buffer.from('ppt/slides/slide1.xml'))
    assert.equal(bytes.readUInt16LE(local - 30 + 8), 8)
  })

  it('draws headings as the renderer\'s pictures with headings: raster, in the appearance asked for', async () => {
    const few = [doc.slides['title-1'], doc.slides['title-body-1']]
    const dark = await unzip((await nativePptx({ doc, deckDir, root: work, slides: few, appearance: 'dark', includeNotes: false, baseline: 'libreoffice', embedFonts: false, headingsRaster: true })).bytes)
    const xml = dark.get('ppt/slides/slide2.xml')!.toString('utf8')
    assert.match(xml, /<p:bg><p:bgPr><a:solidFill><a:srgbClr val="141414"\/>/)
    const heading = objectXml(xml, 'title')!
    assert.match(heading, /^<p:pic>[\s\S]*descr="Opening 2: what changed"/)
    const media = dark.get(relsOf(dark, 'ppt/slides/slide2.xml').get(/<a:blip r:embed="(rId\d+)"/.exec(heading)![1])!.target)!
    const { data, info } = await sharp(media).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    let ink = 0
    let clear = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) clear++
      else if (data[i] > 200 && data[i + 3] > 200) ink++
    }
    // Light glyphs (the dark theme's ink) on a transparent ground, at twice the sheet's pixels.
    assert.ok(ink > 1000 && clear > info.width * info.height * 0.5, `${ink} ink, ${clear} clear pixels`)
    const box = drawn(doc.slides['title-body-1'], themeFonts(doc.manifest)).items.find((d) => d.block.id === 'title')!.box
    assert.equal(info.width, Math.ceil(box.x + box.w) * 2 - Math.floor(box.x) * 2)
    // Body text stays editable text.
    assert.deepEqual(paragraphsOf(objectXml(xml, 'b0')!), ['Three things moved this quarter, and one of them moved a lot.'])
  })

  it('writes each titled slide\'s title as its title placeholder, first in the shape tree, with its look written out; untitled slides have none', () => {
    let titled = 0
    for (const [i, slide] of slides.entries()) {
      const xml = slideXml(i + 1)
      const title = plainText(slideTitle(slide))
      const count = (xml.match(/<p:ph type="title"\/>/g) ?? []).length
      assert.equal(count, title ? 1 : 0, `${slide.id}: ${count} title placeholders for the title ${JSON.stringify(title)}`)
      if (!title) continue
      titled++
      const tree = xml.slice(xml.indexOf('</p:grpSpPr>') + '</p:grpSpPr>'.length)
      const sp = tree.slice(0, tree.indexOf('</p:sp>') + '</p:sp>'.length)
      assert.ok(sp.startsWith('<p:sp>') && sp.includes('<p:ph type="title"/>'), `${slide.id}: the title is not first in the shape tree`)
      assert.equal(paragraphsOf(sp).join(' '), title, slide.id)
      assert.match(sp, /<p:cNvSpPr><a:spLocks noGrp="1"\/><\/p:cNvSpPr>/, slide.id)
      // Nothing left to inherit from the master's title style: position, insets, anchor, autofit (none, or shrink on
      // overflow for a title of two lines or more), every run's size, face and colour.
      assert.match(sp, /<a:xfrm><a:off x="\d+" y="\d+"\/><a:ext cx="\d+" cy="\d+"\/><\/a:xfrm>/, slide.id)
      assert.match(sp, /<a:bodyPr [^>]*lIns="0" tIns="\d+" rIns="0" bIns="\d+"[^>]*anchor="t"><a:(?:noAutofit|normAutofit)\/>/, slide.id)
      for (const run of sp.matchAll(/<a:r><a:rPr ([^>]*)>([\s\S]*?)<\/a:rPr>/g)) assert.ok(/\bsz="\d+"/.test(run[1]) && /<a:srgbClr /.test(run[2]) && /<a:latin typeface=/.test(run[2]), `${slide.id}: a title run without its size, colour or face`)
      assert.ok(/<a:pPr algn="\w+"/.test(sp) && /<a:lnSpc>/.test(sp), `${slide.id}: a title paragraph without its alignment or line spacing`)
    }
    // 79 of the sample's 95 (its quotes and main points have no title) and the skipped extra slide.
    assert.equal(titled, 80)
  })

  it('declares a title placeholder in the layout and the master every slide uses', () => {
    const seen = new Set<string>()
    for (let n = 1; n <= slides.length; n++) {
      const layout = [...relsOf(pkg, `ppt/slides/slide${n}.xml`).values()].find((r) => r.type === 'slideLayout')!.target
      if (seen.has(layout)) continue
      seen.add(layout)
      assert.match(pkg.get(layout)!.toString('utf8'), /<p:nvPr><p:ph type="title"\/><\/p:nvPr>/, layout)
      const master = [...relsOf(pkg, layout).values()].find((r) => r.type === 'slideMaster')!.target
      const xml = pkg.get(master)!.toString('utf8')
      const ph = objectXml(xml, 'Title Placeholder 1')
      assert.ok(ph?.includes('<p:ph type="title"/>'), `${master} has no title placeholder`)
      assert.match(ph!, /<a:xfrm><a:off x="\d+" y="\d+"\/><a:ext cx="[1-9]\d*" cy="[1-9]\d*"\/><\/a:xfrm>/)
      assert.match(ph!, /<a:bodyPr [^>]*anchor="t"><a:noAutofit\/><\/a:bodyPr>/)
    }
    assert.ok(seen.size >= 1)
  })

  it('gives LibreOffice the slides\' titles: its reading of the placeholders is a title object holding the title', { skip: skipUnlessPresent(hasSoffice(), 'soffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    // Four slides are enough: a title slide, a canvas, a big number, and a quote (no title).
    const picked = ['title-1', 'freeform-1', 'big-number-1', 'quote-1'].map((id) => doc.slides[id])
    const small = await nativePptx({ doc, deckDir, root: work, slides: picked, appearance: 'light', includeNotes: false, baseline: 'libreoffice', embedFonts: false, headingsRaster: false })
    const dir = join(work, 'odp')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'titles.pptx'), small.bytes)
    execFileSync('soffice', [officeProfile(join(work, 'profile')).arg, '--headless', '--convert-to', 'odp', '--outdir', dir, join(dir, 'titles.pptx')], { stdio: 'ignore', timeout: 120_000 })
    const content = (await unzip(readFileSync(join(dir, 'titles.odp')))).get('content.xml')!.toString('utf8')
    const pages = [...content.matchAll(/<draw:page\b[\s\S]*?<\/draw:page>/g)].map((page) => {
      const frames = [...page[0].matchAll(/<draw:frame [^>]*presentation:class="title"[^>]*>([\s\S]*?)<\/draw:frame>/g)]
      return frames.map((f) => [...f[1].matchAll(/<text:p\b[^>]*>([\s\S]*?)<\/text:p>/g)].map((p) => decode(p[1].replace(/<[^>]+>/g, ''))).join(' '))
    })
    assert.deepEqual(pages, picked.map((slide) => (slideTitle(slide) ? [plainText(slideTitle(slide))] : [])))
  })

  it('kerns every run as the render does (kern from 1 pt: every size we write)', () => {
    let runs = 0
    for (let n = 1; n <= slides.length; n++) {
      for (const props of slideXml(n).match(/<a:rPr\b[^>]*>/g) ?? []) {
        runs++
        assert.match(props, /\bkern="100"/, `slide ${n}: ${props}`)
      }
    }
    assert.ok(runs > 300, `only ${runs} runs`)
  })

  it('is kerned by LibreOffice as the render kerns it: a line of kerned pairs as wide in its PDF as geometry measures it', { skip: skipUnlessPresent(hasSoffice(), 'soffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const words = KERNED_WORDS
    const boxes = execFileSync('pdftotext', ['-bbox', (await libreOfficePdfs()).kerned, '-']).toString()
    // A 96 px run is 57.6 pt in the display face of the export set; fontkit lays the word out in that file, kerned and not.
    const run = /<a:rPr [^>]*sz="(\d+)"[\s\S]*?<a:latin typeface="([^"]+)"/.exec((await unzip(await kernedLinePptx())).get('ppt/slides/slide1.xml')!.toString('utf8'))!
    const face = EXPORT_FACES.find((f) => f.typeface === run[2] && f.weight === 400)!
    const fontkit = createRequire(import.meta.url)('fontkit') as { openSync(p: string): { unitsPerEm: number; layout(t: string, f: Record<string, boolean>): { positions: { xAdvance: number }[] } } }
    const font = fontkit.openSync(exportFacePath(face))
    const pt = (word: string, kern: boolean) => (font.layout(word, { kern, liga: false, calt: false }).positions.reduce((sum, p) => sum + p.xAdvance, 0) * Number(run[1])) / 100 / font.unitsPerEm
    for (const word of words) {
      const m = new RegExp(`<word xMin="([\\d.]+)" yMin="[\\d.]+" xMax="([\\d.]+)" yMax="[\\d.]+">${word}</word>`).exec(boxes)
      assert.ok(m, `${word} is not in LibreOffice's PDF`)
      const drawn = Number(m[2]) - Number(m[1])
      assert.ok(pt(word, false) - pt(word, true) > 4, `${word} kerns by ${(pt(word, false) - pt(word, true)).toFixed(1)} pt`)
      assert.ok(Math.abs(drawn - pt(word, true)) < 0.5, `${word}: LibreOffice ${drawn.toFixed(1)} pt, kerned ${pt(word, true).toFixed(1)} pt, unkerned ${pt(word, false).toFixed(1)} pt`)
    }
  })

  it('opens in LibreOffice with one page per slide (hidden slides left out of its PDF)', { skip: skipUnlessPresent(hasSoffice(), 'soffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const { deck, dir } = await libreOfficePdfs()
    const info = execFileSync('pdfinfo', [deck]).toString()
    assert.equal(Number(/Pages:\s+(\d+)/.exec(info)![1]), slides.filter((s) => !s.skip).length)
    assert.ok(readdirSync(dir).includes('deck.pdf'))
  })
})

function hasSoffice(): boolean {
  try {
    execFileSync('which', ['soffice'], { stdio: 'ignore' })
    execFileSync('which', ['pdfinfo'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('native PPTX charts of the chart gallery', () => {
  let work: string
  let doc: DeckDoc
  let slides: Slide[]
  let pkg: Map<string, Buffer>
  /** The chart part of a gallery slide's chart. */
  const chartOf = (id: string) => {
    const n = slides.findIndex((s) => s.id === id) + 1
    const rid = /<c:chart r:id="(rId\d+)"/.exec(objectXml(pkg.get(`ppt/slides/slide${n}.xml`)!.toString('utf8'), 'chart')!)![1]
    return pkg.get(relsOf(pkg, `ppt/slides/slide${n}.xml`).get(rid)!.target)!.toString('utf8')
  }
  /** The scaling (min, max) and majorUnit of each axis of a chart part, in the order written. */
  const axesOf = (xml: string) =>
    [...xml.matchAll(/<c:(valAx|catAx)>([\s\S]*?)<\/c:\1>/g)].map(([, kind, body]) => ({
      kind,
      min: /<c:min val="([^"]+)"/.exec(body)?.[1],
      max: /<c:max val="([^"]+)"/.exec(body)?.[1],
      unit: /<c:majorUnit val="([^"]+)"/.exec(body)?.[1],
      labels: /<c:tickLblPos val="([^"]+)"/.exec(body)?.[1],
    }))

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'studio-native-charts-'))
    doc = writeChartGallery(work)
    slides = orderedSlides(doc)
    pkg = await unzip((await nativePptx({ doc, deckDir: join(work, 'decks', 'charts'), root: work, slides, appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })).bytes)
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  it('gives every chart the value axis the renderer draws: its range, negatives included, and its step', () => {
    for (const slide of slides) {
      const block = slide.blocks!.find((b) => b.kind === 'chart')!
      if (block.chartType === 'pie' || block.chartType === 'doughnut') continue
      const box = drawn(slide, themeFonts(doc.manifest)).items.find((d) => d.block.id === 'chart')!.box
      const layout = chartLayout(block as Record<string, unknown>, box.w, box.h, 'Inter')
      const axes = axesOf(chartOf(slide.id))
      // A scatter chart's axes are both value axes: x first, then y.
      const y = block.chartType === 'scatter' ? axes[1] : axes.find((a) => a.kind === 'valAx')!
      assert.deepEqual([Number(y.min), Number(y.max), Number(y.unit)], [layout.value!.min, layout.value!.max, layout.value!.step], `${slide.id}: value axis`)
    }
    assert.deepEqual(axesOf(chartOf('column-mixed')).find((a) => a.kind === 'valAx')!.min, '-4')
  })

  it('labels categories at the low end (under negative columns, left of negative bars), and a bar chart\'s values at the bottom', () => {
    for (const id of ['column-mixed', 'bar-long', 'line-mixed', 'area-mixed']) assert.equal(axesOf(chartOf(id)).find((a) => a.kind === 'catAx')!.labels, 'low', id)
    assert.equal(axesOf(chartOf('bar-long')).find((a) => a.kind === 'valAx')!.labels, 'nextTo')
    // Every k-th month, as the renderer writes them; millions as 1M, not 1000000.
    assert.match(chartOf('many-categories'), /<c:tickLblSkip val="\d+"\/>/)
    assert.match(chartOf('large-small'), /<c:valAx>[\s\S]*<c:numFmt formatCode="0,,&quot;M&quot;;-0,,&quot;M&quot;;0"/)
  })

  it('writes the deck\'s palette as the theme\'s colour scheme: ink, paper, muted, rule, the six chart colours', () => {
    const theme = pkg.get('ppt/theme/theme1.xml')!.toString('utf8')
    const scheme = /<a:clrScheme [^>]*>([\s\S]*?)<\/a:clrScheme>/.exec(theme)![1]
    const slot = (name: string) => new RegExp(`<a:${name}><a:srgbClr val="([0-9A-F]{6})"/></a:${name}>`).exec(scheme)?.[1]
    const palette = (token: string) => findTheme('studio-simple')!.palette[token].light.replace('#', '').toUpperCase()
    assert.deepEqual([slot('dk1'), slot('lt1'), slot('dk2'), slot('lt2')], [palette('ink'), palette('paper'), palette('muted'), palette('rule')])
    assert.deepEqual([1, 2, 3, 4, 5, 6].map((i) => slot(`accent${i}`)), [1, 2, 3, 4, 5, 6].map((i) => palette(`chart${i}`)))
    assert.doesNotMatch(theme, /name="Office"><a:dk1>/)
  })

  it('gives a scatter chart the renderer\'s x axis, labelled at the bottom, and its y labels at the left', () => {
    const [x, y] = axesOf(chartOf('scatter'))
    const slide = slides.find((s) => s.id === 'scatter')!
    const box = drawn(slide, themeFonts(doc.manifest)).items.find((d) => d.block.id === 'chart')!.box
    const layout = chartLayout(slide.blocks!.find((b) => b.kind === 'chart') as Record<string, unknown>, box.w, box.h, 'Inter')
    assert.deepEqual([Number(x.min), Number(x.max), Number(x.unit)], [layout.x!.min, layout.x!.max, layout.x!.step])
    assert.deepEqual([x.labels, y.labels], ['low', 'low'])
  })
})

describe('native PPTX of overflowing slides', () => {
  let work: string
  let slides: Slide[]
  let report: NativeReport
  let xml: string
  let body: string
  let fonts: ReturnType<typeof themeFonts>

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'studio-native-overflow-'))
    const deckDir = join(work, 'deck')
    cpSync(join(ROOT, 'templates', 'brand-sample'), deckDir, { recursive: true })
    const doc = await readDeckFolder(deckDir)
    fonts = themeFonts(doc.manifest)
    slides = overflowSlides()
    for (const slide of slides) doc.slides[slide.id] = slide
    const out = await nativePptx({ doc, deckDir, root: work, slides, appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })
    report = out.report
    const pkg = await unzip(out.bytes)
    xml = pkg.get('ppt/slides/slide1.xml')!.toString('utf8')
    body = pkg.get('ppt/slides/slide2.xml')!.toString('utf8')
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  it('writes an overflowing text box to its last whole line that fits, never past its box', () => {
    const block = slides[0].blocks!.find((b) => b.id === 'long')!
    const written = paragraphsOf(objectXml(xml, 'long')!)
    const whole = LONG_TEXT.split('\n')
    assert.ok(written.length < whole.length)
    written.forEach((p, i) => assert.ok(whole[i].startsWith(p) && p.length > 0, `paragraph ${i + 1} is a prefix of the text`))
    const lines = written.reduce((n, p) => n + measureText(p, { size: 28, width: 560, family: fonts.body }).lines, 0)
    assert.equal(lines, Math.floor((block.pos as { h: number }).h / 35))
    assert.ok(report.cannot.some((c) => c.startsWith('overflow-1#long:')))
  })
  it('writes a shrink text box at the size the render draws, with normAutofit', () => {
    const block = slides[0].blocks!.find((b) => b.id === 'fit')!
    const size = drawnFit(block, block.pos as Box, (block.pos as Box).h, 'freeform', fonts).size
    assert.ok(size < 28)
    const object = objectXml(xml, 'fit')!
    assert.match(object, /<a:normAutofit\/>/)
    assert.deepEqual(new Set([...object.matchAll(/<a:rPr[^>]* sz="(\d+)"/g)].map((m) => Number(m[1]))), new Set([Math.round(size * 60)]))
  })
  it('writes a 40 × 12 table at the 12 px floor with the whole rows that fit its box', () => {
    const object = objectXml(xml, 'table')!
    const heights = [...object.matchAll(/<a:tr h="(\d+)"/g)].map((m) => Number(m[1]) / EMU)
    const fit = drawnFit(WIDE_TABLE, WIDE_TABLE.pos as Box, 680, 'freeform', fonts)
    assert.equal(fit.size, 12)
    assert.equal(heights.length, fit.rows)
    assert.ok(heights.length < 40)
    assert.ok(heights.reduce((a, b) => a + b, 0) <= 680 + 1)
    assert.deepEqual(new Set([...object.matchAll(/<a:rPr[^>]* sz="(\d+)"/g)].map((m) => Number(m[1]))), new Set([720]))
    assert.ok(report.cannot.some((c) => c.startsWith('overflow-1#table:') && c.includes(`${40 - fit.rows!} of 40 rows`)))
  })
  it('cuts an overflowing body slot at its last whole line above the slot bottom', () => {
    const whole = (slides[1].blocks![0].text as string).split('\n')
    const written = paragraphsOf(objectXml(body, 'body')!)
    assert.ok(written.length > 0 && written.length < whole.length)
    written.forEach((p, i) => assert.ok(whole[i].startsWith(p) && p.length > 0, `paragraph ${i + 1} is a prefix of the text`))
    assert.ok(report.cannot.some((c) => c.startsWith('overflow-2#body:')))
    assert.ok(!report.cannot.some((c) => c.startsWith('overflow-2: slot body')), 'no block of the slot shows past its bottom')
    const [, y, cy] = /<a:off x="\d+" y="(\d+)"\/><a:ext cx="\d+" cy="(\d+)"\/>/.exec(objectXml(body, 'body')!)!.map(Number)
    assert.ok((y + cy) / EMU <= 900, `the text box ends at ${(y + cy) / EMU} px, past the slide`)
  })
})
