import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'
import { contrastRatio, countFindings, lintSlide, plainOf, wordCount, type Finding } from '../../../src/model/lint.js'

const doc = (over: Partial<DeckDoc['manifest']> = {}): DeckDoc => ({
  manifest: {
    id: 'd',
    title: 'D',
    theme: 'studio-simple',
    defaults: { appearance: 'light' },
    sections: [],
    revision: 0,
    stamps: { createdAt: '', updatedAt: '' },
    ...over,
  },
  slides: {},
  versions: [],
})

const canvas = (...blocks: Block[]): Slide => ({ id: 'freeform-1', layout: 'freeform', blocks })
const box = (id: string, pos: { x: number; y: number; w: number; h: number }, extra: Partial<Block> = {}): Block => ({ id, kind: 'textbox', text: 'Hi', pos, z: 0, ...extra })
const rules = (findings: Finding[]) => findings.map((f) => `${f.rule}${f.blockId ? `#${f.blockId}` : ''}:${f.severity}`)

describe('lintSlide', () => {
  it('reports an empty title: the title field of a title slide, an empty title slot, an empty heading in it', () => {
    assert.deepEqual(rules(lintSlide({ id: 't', layout: 'title', title: '' }, doc())), ['empty-placeholder:warning'])
    assert.deepEqual(rules(lintSlide({ id: 't', layout: 'title-body', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'Body' }] }, doc())), ['empty-placeholder:warning'])
    const empty = lintSlide({ id: 't', layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: '  ' }] }, doc())
    assert.deepEqual(rules(empty), ['empty-placeholder#title:warning'])
    assert.match(empty[0].message, /title slot/)
    // Layouts without a title slot (quote, big number, picture-full) have no title to miss.
    assert.deepEqual(lintSlide({ id: 'q', layout: 'quote', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'To be.' }] }, doc()), [])
  })

  it('reports a picture placeholder left without a picture, and no missing alt text for it', () => {
    const slide: Slide = {
      id: 'picture-caption-2',
      layout: 'picture-caption',
      blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Harbour' }, { id: 'media', kind: 'picture', slot: 'media' }],
    }
    const findings = lintSlide(slide, doc(), { assets: {} })
    assert.deepEqual(rules(findings), ['empty-placeholder#media:warning'])
    assert.match(findings[0].message, /asset\.add, then block\.set \/asset/)
    const filled = { ...slide, blocks: [slide.blocks![0], { id: 'media', kind: 'picture', slot: 'media', asset: 'harbour' }] }
    assert.deepEqual(rules(lintSlide(filled, doc(), { assets: { harbour: { id: 'harbour', alt: 'The harbour' } } })), [])
  })

  it('reports missing alt text: on the asset for pictures, on the block for charts and text-less shapes', () => {
    const slide = canvas(
      { id: 'p1', kind: 'picture', asset: 'logo', pos: { x: 0, y: 0, w: 100, h: 100 }, z: 0 },
      { id: 'p2', kind: 'picture', asset: 'photo', pos: { x: 0, y: 200, w: 100, h: 100 }, z: 1 },
      { id: 'p3', kind: 'picture', asset: 'bg', background: true, pos: { x: 0, y: 0, w: 1600, h: 900 }, z: 2 },
      { id: 'c1', kind: 'chart', chartType: 'bar', data: { categories: [], series: [] }, pos: { x: 300, y: 0, w: 100, h: 100 }, z: 3 },
      { id: 'c2', kind: 'chart', chartType: 'bar', data: { categories: [], series: [] }, alt: 'Revenue by quarter', pos: { x: 500, y: 0, w: 100, h: 100 }, z: 4 },
      { id: 's1', kind: 'shape', shape: 'rect', pos: { x: 700, y: 0, w: 100, h: 100 }, z: 5 },
      { id: 's2', kind: 'shape', shape: 'rect', text: 'Plan', pos: { x: 900, y: 0, w: 200, h: 100 }, z: 6 },
    )
    const assets = { logo: { id: 'logo', alt: 'Acme logo' }, photo: { id: 'photo', alt: ' ' } }
    assert.deepEqual(rules(lintSlide(slide, doc(), { assets })), ['missing-alt#p2:warning', 'missing-alt#c1:warning', 'missing-alt#s1:warning'])
    // Without asset records the picture rule is not checked.
    assert.deepEqual(rules(lintSlide(slide, doc())), ['missing-alt#c1:warning', 'missing-alt#s1:warning'])
  })

  it('reports boxes off the sheet: partly as a warning, entirely as an error', () => {
    const findings = lintSlide(canvas(box('in', { x: 0, y: 0, w: 1600, h: 900 }), box('part', { x: 1500, y: 10, w: 200, h: 50 }, { z: 1 }), box('out', { x: 10, y: 950, w: 200, h: 50 }, { z: 2 })), doc())
    assert.deepEqual(rules(findings.filter((f) => f.rule === 'off-sheet')), ['off-sheet#part:warning', 'off-sheet#out:error'])
  })

  it('holds the off-sheet rule for any box: reported exactly when the box leaves the sheet, an error exactly when nothing of it shows', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 3000 }), fc.integer({ min: -2000, max: 3000 }), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 2000 }), (x, y, w, h) => {
        const found = lintSlide(canvas({ id: 'b', kind: 'line', pos: { x, y, w, h }, z: 0 }), doc()).filter((f) => f.rule === 'off-sheet')
        const inside = x >= 0 && y >= 0 && x + w <= 1600 && y + h <= 900
        const visible = x < 1600 && y < 900 && x + w > 0 && y + h > 0
        assert.equal(found.length, inside ? 0 : 1)
        if (!inside) assert.equal(found[0].severity, visible ? 'warning' : 'error')
      }),
    )
  })

  it('reports overlapping text boxes once, on the upper one; touching edges and pictures do not count', () => {
    const findings = lintSlide(
      canvas(
        box('a', { x: 100, y: 100, w: 400, h: 100 }, { z: 0 }),
        box('b', { x: 300, y: 150, w: 400, h: 100 }, { z: 2 }),
        box('c', { x: 700, y: 150, w: 100, h: 100 }, { z: 1 }),
        { id: 'p', kind: 'picture', asset: 'x', pos: { x: 100, y: 100, w: 400, h: 400 }, z: 3 },
      ),
      doc(),
    )
    assert.deepEqual(rules(findings.filter((f) => f.rule === 'overlap')), ['overlap#b:warning'])
    assert.match(findings.find((f) => f.rule === 'overlap')!.message, /"a"/)
  })

  it('reports text overflowing its canvas box, unless the box grows with it', () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    assert.deepEqual(rules(lintSlide(canvas(box('t', { x: 100, y: 100, w: 200, h: 40 }, { text: long })), doc())), ['overflow#t:error'])
    assert.deepEqual(lintSlide(canvas(box('t', { x: 100, y: 100, w: 200, h: 40 }, { text: long, autofit: 'grow' })), doc()), [])
    assert.deepEqual(lintSlide(canvas(box('t', { x: 100, y: 100, w: 1200, h: 400 }, { text: long })), doc()), [])
    // Shrink steps the size down first: an overflow only when even the smallest step does not fit.
    assert.deepEqual(lintSlide(canvas(box('t', { x: 100, y: 100, w: 400, h: 200 }, { text: long, autofit: 'shrink' })), doc()), [])
    const tiny = lintSlide(canvas(box('t', { x: 100, y: 100, w: 60, h: 8 }, { text: long, autofit: 'shrink' })), doc())
    assert.deepEqual(rules(tiny), ['overflow#t:error'])
    assert.match(tiny[0].message, /even at 6 px/)
  })

  it('reports a canvas table only when even its 12 px floor leaves rows out', () => {
    const table = (rows: number, h: number) =>
      canvas({ id: 'tb', kind: 'table', pos: { x: 100, y: 100, w: 1200, h }, rows: Array.from({ length: rows }, (_, r) => ['Region', String(r), String(r * 2)]) } as Block)
    // 12 rows need 537.6 px at 28 px; they are drawn at a smaller step in 400 px.
    assert.deepEqual(lintSlide(table(12, 400), doc()).filter((f) => f.rule === 'overflow'), [])
    const found = lintSlide(table(40, 400), doc()).filter((f) => f.rule === 'overflow')
    assert.deepEqual(rules(found), ['overflow#tb:error'])
    assert.match(found[0].message, /even at 12 px: 20 of its 40 rows are drawn/)
  })

  it('reports a slot whose stack runs past its bottom, naming the first block that does', () => {
    const paragraph = (id: string) => ({ id, kind: 'text', slot: 'body', text: 'A line of body text\nand another one\nand a third' })
    const slide: Slide = { id: 's', layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Title' }, ...['b1', 'b2', 'b3', 'b4', 'b5'].map(paragraph)] }
    const found = lintSlide(slide, doc()).filter((f) => f.rule === 'overflow')
    assert.equal(found.length, 1)
    assert.equal(found[0].severity, 'error')
    assert.ok(['b4', 'b5'].includes(found[0].blockId!), found[0].blockId)
    assert.match(found[0].message, /body slot overflows by \d+ px/)
  })

  it('reports more than 120 words on a slide', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ')
    const slide = (n: number): Slide => ({ id: 's', layout: 'blank', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: words(n), size: 6 }] })
    assert.deepEqual(rules(lintSlide(slide(120), doc())), [])
    assert.deepEqual(rules(lintSlide(slide(121), doc())), ['too-many-words:warning'])
    assert.equal(wordCount(['one two — three', ' ', '4 five']), 5)
  })

  it('reports low contrast against the slide or deck background and a shape fill, in colours the theme resolves', () => {
    const text = (extra: Partial<Block> = {}): Block => ({ id: 'b1', kind: 'text', slot: 'body', text: 'Readable?', ...extra })
    const slide = (background?: string, block = text()): Slide => ({ id: 's', layout: 'blank', ...(background ? { background } : {}), blocks: [block] })
    assert.deepEqual(rules(lintSlide(slide('ink'), doc())), ['low-contrast#b1:warning'])
    assert.deepEqual(rules(lintSlide(slide(undefined), doc({ background: '#222222' }))), ['low-contrast#b1:warning'])
    assert.deepEqual(rules(lintSlide(slide('ink', text({ color: 'paper' })), doc())), [])
    assert.deepEqual(rules(lintSlide(slide(undefined, text({ color: '#eeeeee' })), doc())), ['low-contrast#b1:warning'])
    assert.deepEqual(rules(lintSlide(slide(undefined, text({ color: 'brand' })), doc())), [], 'an unknown token is not judged')
    assert.equal(Math.round(contrastRatio([0, 0, 0], [255, 255, 255])), 21)
  })

  it('reports a skipped slide holding only notes, as info', () => {
    assert.deepEqual(rules(lintSlide({ id: 's', layout: 'blank', blocks: [], skip: true, notes: 'Remember the demo.' }, doc())), ['notes-only:info'])
    assert.deepEqual(lintSlide({ id: 's', layout: 'blank', blocks: [], notes: 'Remember the demo.' }, doc()), [])
    assert.deepEqual(lintSlide({ id: 's', layout: 'blank', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'Shown' }], skip: true, notes: 'n' }, doc()), [])
  })

  it('reports markup the Text reader refuses, and still reads its words', () => {
    const slide: Slide = { id: 's', layout: 'blank', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'An action <group>.<name> in <b>bold</b>' }] }
    assert.deepEqual(rules(lintSlide(slide, doc())), ['invalid-markup#b1:error'])
    assert.equal(plainOf('An action <group>.<name> and <i>more</i> &amp; less'), 'An action <group>.<name> and more & less')
  })

  it('reports chart series a reader cannot tell apart: a seventh series, a brand kit giving two one colour, a pie\'s seventh slice', () => {
    const chart = (n: number, extra: Partial<Block> = {}): Block => ({ id: 'c', kind: 'chart', chartType: 'column', alt: 'Sales', pos: { x: 100, y: 100, w: 800, h: 500 }, z: 0, data: { categories: ['a'], series: Array.from({ length: n }, (_, i) => ({ name: `S${i + 1}`, values: [i] })) }, ...extra })
    assert.deepEqual(rules(lintSlide(canvas(chart(6)), doc())), [])
    const seven = lintSlide(canvas(chart(7)), doc())
    assert.deepEqual(rules(seven), ['chart-colours#c:warning'])
    assert.match(seven[0].message, /Series 1 and 7 \("S1", "S7"\) draw in the same colour \(#2f5bea\) in light/)
    // Contrast's first series is black, its second yellow: distinct (black is not "no colour").
    assert.deepEqual(rules(lintSlide(canvas(chart(6)), doc({ theme: 'contrast' }))), [])
    const branded = lintSlide(canvas(chart(3)), doc({ brandKit: { palette: { chart1: '#123456', chart3: '#123457' } } }))
    assert.deepEqual(rules(branded), ['chart-colours#c:warning'])
    assert.match(branded[0].message, /Series 1 and 3 .* nearly the same colour/)
    const pie = chart(1, { chartType: 'pie', data: { categories: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], series: [{ name: 'S', values: [1, 2, 3, 4, 5, 6, 7] }] } })
    assert.match(lintSlide(canvas(pie), doc())[0].message, /^Slices 1 and 7/)
  })

  it('judges contrast in the appearance asked for (a dark contact sheet), the deck\'s default otherwise', () => {
    const slide = canvas(box('b1', { x: 100, y: 100, w: 600, h: 100 }, { color: '#333333' }))
    assert.deepEqual(rules(lintSlide(slide, doc())), [])
    assert.deepEqual(rules(lintSlide(slide, doc(), { appearance: 'dark' })), ['low-contrast#b1:warning'])
    assert.deepEqual(rules(lintSlide(slide, doc({ defaults: { appearance: 'dark' } }))), ['low-contrast#b1:warning'])
  })

  it('reports a picture the cover crop cuts mostly away (a tall photo in a wide slot), from its asset\'s size', () => {
    const slide = (extra: Partial<Block> = {}): Slide => ({ id: 'picture-caption-1', layout: 'picture-caption', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'A view' }, { id: 'p', kind: 'picture', slot: 'media', asset: 'photo', ...extra }] })
    const assets = (width: number, height: number) => ({ photo: { id: 'photo', alt: 'A view', width, height } })
    const tall = lintSlide(slide(), doc(), { assets: assets(600, 1200) })
    assert.deepEqual(rules(tall), ['cover-crop#p:warning'])
    assert.match(tall[0].message, /^Only \d+ % of the picture shows: .* cuts its top and bottom/)
    assert.deepEqual(rules(lintSlide(slide(), doc(), { assets: assets(1600, 900) })), [])
    assert.deepEqual(rules(lintSlide(slide({ fit: 'contain' }), doc(), { assets: assets(600, 1200) })), [])
    assert.deepEqual(rules(lintSlide(slide(), doc())), [], 'without asset records the rule cannot know')
  })

  it('reports characters no shipped face draws, and none a shipped face draws in any script', () => {
    const every = canvas(box('b1', { x: 100, y: 100, w: 1400, h: 600 }, { size: 20, text: 'Zażółć Привет Καλημέρα مرحبا שלום 你好 こんにちは 안녕 🚀 👩‍👩‍👧 🇵🇱 👍🏽' }))
    assert.deepEqual(rules(lintSlide(every, doc())), [])
    // Linear B and a private-use character: no shipped face has them.
    const rare = lintSlide(canvas(box('b1', { x: 100, y: 100, w: 1400, h: 600 }, { size: 20, text: 'Tablet 𐀀𐀁 and \ue000, 𐀀 again' })), doc())
    assert.deepEqual(rules(rare), ['missing-glyph#b1:warning'])
    assert.match(rare[0].message, /^No face Deck Studio ships draws "𐀀" \(U\+10000\), "𐀁" \(U\+10001\), "\ue000" \(U\+E000\): each reader's machine/)
  })

  it('never throws, whatever the blocks hold', () => {
    const kinds = ['text', 'heading', 'list', 'table', 'picture', 'shape', 'line', 'chart', 'textbox', 'shader', 'html']
    const anyBlock = fc.record({
      id: fc.constantFrom('a', 'b', 'c'),
      kind: fc.constantFrom(...kinds),
      text: fc.option(fc.string(), { nil: undefined }),
      items: fc.option(fc.array(fc.record({ text: fc.string() })), { nil: undefined }),
      rows: fc.option(fc.array(fc.array(fc.string())), { nil: undefined }),
      pos: fc.option(fc.record({ x: fc.integer({ min: -500, max: 2000 }), y: fc.integer({ min: -500, max: 1200 }), w: fc.integer({ min: 0, max: 2000 }), h: fc.integer({ min: 0, max: 1200 }) }), { nil: undefined }),
      slot: fc.option(fc.constantFrom('title', 'body', 'left', 'media'), { nil: undefined }),
    })
    fc.assert(
      fc.property(fc.constantFrom('freeform', 'title-body', 'two-columns', 'blank', 'title'), fc.array(anyBlock, { maxLength: 6 }), (layout, raw) => {
        const blocks = raw.map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Block)
        const findings = lintSlide({ id: 's', layout, title: 'T', blocks }, doc(), { assets: {} })
        const counts = countFindings(findings)
        assert.equal(counts.error + counts.warning + counts.info, findings.length)
      }),
      { numRuns: 200 },
    )
  })
})
