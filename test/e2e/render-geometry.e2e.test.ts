/**
 * Geometry and Chromium agree: every text block of the brand sample (and the fixture's slides) is
 * drawn as tall as geometry measured it, within one sheet pixel. Where they disagree, geometry is
 * what gets fixed (docs/rendering.md).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { readDeckFolder } from '../../src/store/decks.js'
import { drawn } from '../../src/layout/stack.js'
import { fitText, SHAPE_INSET, textStyle } from '../../src/layout/blocks.js'
import { stripMarkup, textWidth, type Weight } from '../../src/layout/text.js'
import { FALLBACK_FAMILIES, FONT_FAMILIES } from '../../src/model/fonts.js'
import { MULTILINGUAL } from '../helpers/multilingual.js'
import type { DeckDoc, Slide } from '../../src/model/deck.js'
import { orderedSlides } from '../../src/model/deck.js'
import { THEMES, themeFonts } from '../../src/model/themes.js'
import { ROOT } from '../helpers/studio.js'
import { sheetPage } from '../helpers/render.js'
import { overflowSlides } from '../helpers/overflow.js'
import { drawnFits } from '../../src/layout/fit.js'
import sharp from 'sharp'

const LONG =
  'Quarterly revenue grew by 18% year-over-year, while operating costs—driven by cloud spend and a re-organised support team—fell for the third consecutive quarter. ' +
  'Customer-reported incidents dropped from 41 to 12; median time-to-resolution is now 3.5 hours. Well-known long words: internationalisation, counter-intuitive, state-of-the-art.'

/** Slides that press on line breaking: long paragraphs, hyphens, marks, columns, spacing, indents, list levels, wrapped table cells. */
const STRESS: Slide[] = [
  {
    id: 'stress-1',
    layout: 'title-body',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'A title long enough to wrap onto a second line in the title slot of a content slide' },
      { id: 'p1', kind: 'text', slot: 'body', text: `${LONG}\n\nA <i>second</i> paragraph with <u>marks</u> and a <span style="color:accent">colour</span>.` },
      { id: 'p2', kind: 'text', slot: 'body', size: 20, columns: 2, text: `${LONG} ${LONG}` },
    ],
  },
  {
    id: 'stress-2',
    layout: 'two-columns',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Lists and tables' },
      { id: 'l1', kind: 'list', slot: 'left', marker: 'number', items: [{ text: LONG.slice(0, 120) }, { text: 'Second level item that wraps around in the column, more than once probably', level: 2 }, { text: 'Third', level: 3 }, { text: 'Back to one' }] },
      { id: 't1', kind: 'table', slot: 'right', header: true, columnWidths: [2, 1], rows: [['Metric with a long name that wraps', 'Value'], ['Lead time for changes', '2 days'], ['Change failure rate', '4%']] },
    ],
  },
  {
    id: 'stress-3',
    layout: 'three-columns',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Spacing and indents' },
      { id: 'a', kind: 'text', slot: 'left', size: 24, spacing: { line: 1.5, before: 8, after: 12 }, text: `${LONG.slice(0, 200)}\nNext paragraph.` },
      { id: 'b', kind: 'text', slot: 'body', size: 22, indent: 64, text: LONG },
      { id: 'c', kind: 'list', slot: 'right', marker: 'bullet', spacing: { before: 4, after: 4 }, items: [{ text: 'One point that is long enough to wrap' }, { text: 'Two', level: 2 }] },
    ],
  },
  {
    id: 'stress-4',
    layout: 'freeform',
    blocks: [
      { id: 'x1', kind: 'textbox', pos: { x: 80, y: 80, w: 500, h: 300 }, z: 0, size: 26, text: LONG },
      { id: 'x2', kind: 'shape', shape: 'rounded', fill: 'accent', pos: { x: 700, y: 80, w: 400, h: 300 }, z: 1, size: 24, text: LONG.slice(0, 160) },
      { id: 'x3', kind: 'heading', level: 2, pos: { x: 80, y: 500, w: 700, h: 120 }, z: 2, text: 'A heading on the canvas that wraps at this width' },
      { id: 'x4', kind: 'textbox', pos: { x: 900, y: 500, w: 300, h: 300 }, z: 3, size: 18, align: 'justify', text: LONG },
    ],
  },
  {
    // The same heading and text at widths near where each family breaks a line: a face mixed up anywhere shows here.
    id: 'stress-widths',
    layout: 'freeform',
    blocks: [520, 580, 640, 700, 760, 820, 880, 940].flatMap((w, i) => [
      { id: `h${i}`, kind: 'heading', pos: { x: 40, y: 20 + i * 108, w, h: 100 }, z: 2 * i, text: 'Revenue grew in every region' },
      { id: `t${i}`, kind: 'textbox', size: 32, pos: { x: 1000 - 40, y: 20 + i * 108, w: w * 0.6, h: 100 }, z: 2 * i + 1, text: 'Costs fell by half at Acme' },
    ]),
  },
  { id: 'stress-5', layout: 'title', title: 'A display title that is long enough to wrap', subtitle: 'And a subtitle that also runs long, past the width of one line', byline: 'Byline · 24 November 2026' },
  { id: 'stress-6', layout: 'quote', attribution: '— Someone who talks at length', blocks: [{ id: 'q', kind: 'text', slot: 'body', text: '“We stopped arguing about the deck and started shipping it, which changed the team more than any tool before it.”' }] },
]

const TEXT_KINDS = new Set(['text', 'heading', 'list', 'table', 'textbox', 'shape'])

describe('geometry and Chromium agree on every text block', () => {
  let doc: DeckDoc
  let sheet: Awaited<ReturnType<typeof sheetPage>>
  before(async () => {
    doc = await readDeckFolder(join(ROOT, 'templates', 'brand-sample'))
    sheet = await sheetPage(doc)
  })
  after(() => sheet?.close())

  /** Blocks whose drawn text height is more than 1 px off geometry's, over a list of slides (in the theme the page was opened with). */
  async function disagreements(slides: Slide[], page = sheet, fonts = themeFonts(doc.manifest)): Promise<{ problems: string[]; checked: number }> {
    const problems: string[] = []
    let checked = 0
    for (const slide of slides) {
      const measured = new Map((await page.show(slide)).map((m) => [m.id, m]))
      const fits = drawnFits(slide, fonts)
      for (const item of drawn(slide, fonts).items) {
        const { block } = item
        if (!TEXT_KINDS.has(block.kind) || (block.kind === 'shape' && !block.text)) continue
        const seen = measured.get(block.id)
        assert.ok(seen, `${slide.id}#${block.id} was not drawn`)
        // A slotted block's box is its natural height; a canvas block's is its pos, so compare what its text needs.
        const inset = block.kind === 'shape' ? 2 * SHAPE_INSET : 0
        // Text that overflows its room is drawn to its last whole line (src/layout/fit.ts).
        const expected = fits.get(block.id)?.clip ?? (item.slot ? item.box.h - inset : fitText(block, item.box, slide.layout, fonts).height - inset)
        const got = seen.text ?? 0
        checked++
        if (Math.abs(got - expected) > 1) problems.push(`${slide.id}#${block.id} (${block.kind}): Chromium ${got.toFixed(2)} px, geometry ${expected} px`)
      }
    }
    return { problems, checked }
  }

  it('draws each text block of the brand sample within 1 px of the height geometry measured', async () => {
    const { problems, checked } = await disagreements(orderedSlides(doc))
    assert.ok(checked > 100, `only ${checked} text blocks checked`)
    assert.deepEqual(problems, [])
  })

  it('draws overflowing text to its last whole line and a 40 × 12 table in whole rows: below them only the paper shows', async () => {
    const fonts = themeFonts(doc.manifest)
    const inkIn = async (rect: { x: number; y: number; w: number; h: number }) => {
      const { data, info } = await sharp(await sheet.shot({ x: rect.x, y: rect.y, width: rect.w, height: rect.h })).raw().toBuffer({ resolveWithObject: true })
      let ink = 0
      for (let i = 0; i < data.length; i += info.channels) if (Math.abs(data[i] - paper[0]) + Math.abs(data[i + 1] - paper[1]) + Math.abs(data[i + 2] - paper[2]) > 24) ink++
      return ink
    }
    let paper: number[] = []
    for (const slide of overflowSlides()) {
      await sheet.show(slide)
      const { data } = await sharp(await sheet.shot({ x: 0, y: 0, width: 2, height: 2 })).raw().toBuffer({ resolveWithObject: true })
      paper = [data[0], data[1], data[2]]
      const { items, slots } = drawn(slide, fonts)
      const fits = drawnFits(slide, fonts, { items, slots })
      for (const item of items.filter((i) => fits.get(i.block.id)?.clip !== undefined)) {
        const fit = fits.get(item.block.id)!
        const fill = slots.find((s) => s.slot === item.slot)
        const bottom = fill ? fill.box.y + fill.box.h : item.box.y + item.box.h
        const cut = Math.ceil(item.box.y + fit.clip!)
        const where = `${slide.id}#${item.block.id}`
        assert.ok(bottom - cut >= 4, `${where}: the room left below the last whole line is a part of a line`)
        // The last whole line is drawn, and nothing of the next one.
        assert.ok((await inkIn({ x: item.box.x, y: cut - 20, w: item.box.w, h: 20 })) > 50, `${where}: the last whole line is drawn`)
        assert.equal(await inkIn({ x: item.box.x, y: cut + 1, w: item.box.w, h: bottom - cut - 1 }), 0, `${where}: no part of a line below the last whole one`)
      }
      if (slide.id === 'overflow-1') {
        // While a block is edited (the page's editor marks its text element), all of its text shows.
        const heights = await sheet.page.evaluate(() => {
          const t = document.querySelector<HTMLElement>('[data-block="long"] .t')!
          const clipped = t.getBoundingClientRect().height
          t.classList.add('editing')
          return { clipped, editing: t.getBoundingClientRect().height }
        })
        assert.equal(heights.clipped, fits.get('long')!.clip)
        assert.ok(heights.editing > heights.clipped + 100, `editing shows ${heights.editing} px`)
        const rows = await sheet.page.evaluate(() => document.querySelectorAll('[data-block="table"] tr').length)
        assert.equal(rows, fits.get('table')!.rows)
        assert.ok(rows > 6 && rows < 40)
      }
    }
  })

  it('agrees on long, wrapped, spaced, indented, columned and tabular text at many sizes', async () => {
    const { problems, checked } = await disagreements(STRESS)
    assert.ok(checked >= 15, `only ${checked} text blocks checked`)
    assert.deepEqual(problems, [])
  })

  it("agrees in every theme's own faces (serif and mono headings and text), on the stress slides and the brand sample", async () => {
    for (const theme of THEMES.filter((t) => t.id !== 'simple')) {
      const themed: DeckDoc = { ...doc, manifest: { ...doc.manifest, theme: theme.storedId } }
      const page = await sheetPage(themed)
      try {
        const slides = [...STRESS, ...orderedSlides(doc).filter((_, i) => i % 3 === 0)]
        const { problems, checked } = await disagreements(slides, page, theme.fonts)
        assert.ok(checked >= 40, `${theme.id}: only ${checked} text blocks checked`)
        assert.deepEqual(problems, [], theme.id)
      } finally {
        await page.close()
      }
    }
  })

  it('draws every script of the multilingual slide from a shipped face (no host face, no missing glyph), as wide as geometry measured', async () => {
    const { problems, checked } = await disagreements([MULTILINGUAL])
    assert.equal(checked, 11)
    assert.deepEqual(problems, [])
    // Which faces drew each paragraph, as Chromium reports it: only shipped faces, never the host's.
    const shipped = new Set([...FONT_FAMILIES, ...FALLBACK_FAMILIES].map((f) => f.name))
    const cdp = await sheet.page.context().newCDPSession(sheet.page)
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 })
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '.sheet .t p' })
    assert.equal(nodeIds.length, 21)
    const drawnBy = new Set<string>()
    for (const nodeId of nodeIds) {
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
      for (const font of fonts) {
        // A variable face reports its default instance's name ("Noto Sans SC Thin").
        const family = [...shipped].find((name) => font.familyName === name || font.familyName.startsWith(`${name} `))
        assert.ok(font.isCustomFont && family, `a host face drew ${font.glyphCount} glyphs: ${font.familyName}`)
        drawnBy.add(family)
      }
    }
    await cdp.detach()
    for (const name of ['Inter', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans SC', 'Noto Sans JP', 'Noto Sans KR', 'Noto Emoji']) assert.ok(drawnBy.has(name), `${name} drew nothing: ${[...drawnBy].join(', ')}`)
    // Each line as wide as geometry measures it, Arabic in its joined forms included.
    assert.deepEqual(await linesOffWidth(MULTILINGUAL), [])
  })

  it('draws kerned pairs (AV, WA, Ty, across a space) as wide as geometry measures them, in every theme face that kerns', async () => {
    const lines = ['AVAWATa Ty VA', 'WAVY “To”, Yo. P.', 'Tyrant LT AV r. F. VA']
    for (const body of ['Inter', 'Source Serif 4']) {
      const theme = THEMES.find((t) => t.fonts.body === body)!
      const themed: DeckDoc = { ...doc, manifest: { ...doc.manifest, theme: theme.storedId } }
      const page = await sheetPage(themed)
      try {
        const slide: Slide = {
          id: 'kerned',
          layout: 'freeform',
          blocks: [96, 56, 28].flatMap((size, i) => [
            { id: `t${i}`, kind: 'textbox', size, pos: { x: 40, y: 20 + i * 300, w: 1520, h: 280 }, z: i, text: lines.join('\n') },
          ]),
        }
        await page.show(slide)
        assert.deepEqual(await linesOffWidth(slide, page, theme.fonts), [], theme.id)
      } finally {
        await page.close()
      }
    }
  })

  /** The lines of a slide's text blocks (one line per paragraph) whose drawn width is more than 1 px off geometry's, on the slide last shown. */
  async function linesOffWidth(slide: Slide, page = sheet, fonts = themeFonts(doc.manifest)): Promise<string[]> {
    const widths = await page.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.sheet [data-block]')].map((el) => ({
        id: el.dataset.block!,
        lines: [...el.querySelectorAll('.t p')].map((p) => {
          const range = document.createRange()
          range.selectNodeContents(p)
          return range.getBoundingClientRect().width
        }),
      })),
    )
    const off: string[] = []
    for (const { id, lines } of widths) {
      const block = slide.blocks!.find((b) => b.id === id)!
      const style = textStyle(block, 'freeform', undefined, fonts)
      stripMarkup(String(block.text)).split('\n').forEach((line, i) => {
        const expected = textWidth(line, style.size, style.weight as Weight, style.family)
        if (Math.abs(lines[i] - expected) > 1) off.push(`${id} line ${i + 1} (${style.family}): Chromium ${lines[i].toFixed(1)} px, geometry ${expected.toFixed(1)} px`)
      })
    }
    return off
  }
})
