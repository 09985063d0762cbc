/**
 * The flattened PDF's invisible text layer (src/export/pdf-text.ts): every character of a multilingual
 * slide comes back out of the file with poppler's pdftotext, words apart and where the slide shows them,
 * right-to-left lines in reading order; nothing of it is visible; notes pages in any script; the same
 * pages write the same bytes. The PDF is built from a small synthetic picture: no browser runs here.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import fontkit from '@pdf-lib/fontkit'
import sharp from 'sharp'
import { flattenPdf } from '../../../src/export/pdf.js'
import { glyphlessFont, graphemes, visualOrder } from '../../../src/export/pdf-text.js'
import type { TextLine } from '../../../src/render/pipeline.js'
import { onPath, skipUnlessPresent } from '../../helpers/system.js'

const poppler = skipUnlessPresent(onPath('pdftotext', 'pdffonts', 'pdftoppm'), 'no pdftotext, pdffonts or pdftoppm (apt-get install poppler-utils)')

const SAMPLES = [
  'Costs fell by half',
  'Zażółć gęślą jaźń',
  "İstanbul'da ağaç",
  'Ελληνικά: ἀρχὴ ἦν ὁ λόγος',
  'Съешь же ещё этих мягких булок',
  'مرحبا بالعالم',
  'שלום עולם',
  '中文测试：你好',
  '日本語のテキスト',
  '한국어 텍스트',
  'Ship it 🚀 👩‍💻 🇵🇱 done',
  'Astral 𠀀𠀁 and cafe\u0301',
]

/** A line box in sheet px for each text, one under the other. */
const lines = (texts: string[]): TextLine[] => texts.map((text, i) => ({ text, x: 120, y: 40 + i * 70, w: 30 * [...text].length, h: 56, size: 44 }))

const options = { title: 'Multilingual', ink: '#1a1a1a', paper: '#fafafa', rule: '#cccccc', outline: [], date: new Date('2026-01-02T03:04:05Z') }

/** pdftotext of one page, without the directional marks it puts around right-to-left runs. */
const pageText = (file: string, page: number, ...args: string[]) =>
  execFileSync('pdftotext', [...args, '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8', maxBuffer: 1 << 26 }).replace(/[\u202a-\u202e]/g, '')

describe('the flattened PDF\'s invisible text layer', { skip: poppler }, () => {
  let dir: string
  let png: Buffer
  let file: string
  let bytes: Buffer
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-pdf-text-'))
    png = await sharp({ create: { width: 160, height: 90, channels: 3, background: '#2f5aa8' } })
      .composite([{ input: { create: { width: 60, height: 30, channels: 3, background: '#f4c542' } }, left: 20, top: 20 }])
      .png()
      .toBuffer()
    bytes = await flattenPdf([{ png, lines: lines(SAMPLES), title: 'Every script' }], options)
    file = join(dir, 'layer.pdf')
    writeFileSync(file, bytes)
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('gives every character of every script back to pdftotext, each sample whole on its line', () => {
    const text = pageText(file, 1)
    const got = text.split('\n').map((l) => l.trim())
    for (const sample of SAMPLES) assert.ok(got.includes(sample.normalize('NFC')) || got.includes(sample), `${JSON.stringify(sample)} in ${JSON.stringify(got)}`)
    const found = new Set(graphemes(text))
    const lost = SAMPLES.flatMap((s) => graphemes(s)).filter((g) => !found.has(g) && !found.has(g.normalize('NFC')))
    assert.deepEqual(lost, [], 'no grapheme lost (astral characters, ZWJ and flag sequences included)')
  })

  it('keeps words apart and lays each line where the slide shows it', () => {
    const html = pageText(file, 1, '-bbox')
    const words = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ x0: +m[1], y0: +m[2], x1: +m[3], y1: +m[4], text: m[5] }))
    assert.deepEqual(words.slice(0, 4).map((w) => w.text), ['Costs', 'fell', 'by', 'half'])
    const box = lines(SAMPLES)[0]
    const pt = (px: number) => px * 0.75
    // The run spans the line's box (horizontal scaling), its words on the line's height.
    assert.ok(Math.abs(words[0].x0 - pt(box.x)) < 1, `first word starts at the line's left: ${words[0].x0} vs ${pt(box.x)}`)
    assert.ok(Math.abs(words[3].x1 - pt(box.x + box.w)) < 1, `last word ends at the line's right: ${words[3].x1} vs ${pt(box.x + box.w)}`)
    for (const w of words.slice(0, 4)) assert.ok(w.y0 >= pt(box.y) - 2 && w.y1 <= pt(box.y + box.h) + 2, `${w.text} within the line's height: ${w.y0}–${w.y1}`)
    // Right-to-left: the Hebrew line's first word (in reading order) stands at the line's right end.
    const hebrew = lines(SAMPLES)[SAMPLES.indexOf('שלום עולם')]
    // (-bbox gives each word's characters in the order they stand on the page.)
    const first = words.find((w) => [...w.text].reverse().join('') === 'שלום')!
    assert.ok(Math.abs(first.x1 - pt(hebrew.x + hebrew.w)) < 1, `שלום ends at the line's right: ${first.x1} vs ${pt(hebrew.x + hebrew.w)}`)
  })

  it('embeds one font, its own blank face, with a Unicode map', () => {
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean)
    assert.equal(fonts.length, 1, fonts.join('\n'))
    assert.match(fonts[0], /^StudioText-Invisible\s+CID TrueType\s+Identity-H\s+yes\s+no\s+yes/)
  })

  it('draws nothing: the page looks exactly like the same page without its text', async () => {
    const bare = join(dir, 'bare.pdf')
    writeFileSync(bare, await flattenPdf([{ png, lines: [], title: 'Every script' }], options))
    const raster = (pdf: string) => execFileSync('pdftoppm', ['-r', '36', '-png', pdf])
    const [a, b] = await Promise.all([raster(file), raster(bare)].map((p) => sharp(p).raw().toBuffer()))
    assert.equal(a.length, b.length)
    assert.equal(Buffer.compare(a, b), 0, 'no pixel differs')
  })

  it('writes the same bytes for the same pages', async () => {
    const again = await flattenPdf([{ png, lines: lines(SAMPLES), title: 'Every script' }], options)
    assert.equal(Buffer.compare(again, bytes), 0)
  })

  it('gives a notes page in any script to pdftotext whole, once, its letters drawn as the export face\'s outlines', async () => {
    // (In a line that mixes right-to-left words with emoji after them, poppler's own reordering reverses the emoji's code points.)
    const notes = 'Say the costs first.\nZażółć gęślą jaźń — 中文 — 🚀 👩‍💻\nمرحبا — שלום'
    const withNotes = join(dir, 'notes.pdf')
    writeFileSync(withNotes, await flattenPdf([{ png, lines: lines(SAMPLES.slice(0, 1)), title: 'Słajd 1', notes }], options))
    const text = pageText(withNotes, 2)
    assert.match(text, /Słajd 1 · notes/)
    assert.match(text, /Say the costs first\./)
    for (const word of ['Zażółć', 'gęślą', 'jaźń', '中文', 'مرحبا', 'שלום', '🚀', '👩‍💻']) assert.ok(text.includes(word), `${word} in ${JSON.stringify(text)}`)
    assert.equal(text.split('Say the costs first.').length, 2, 'the words once, not also from the letters drawn')
    const fonts = execFileSync('pdffonts', [withNotes], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean)
    assert.deepEqual(fonts.map((f) => f.split(/\s+/)[0]), ['StudioText-Invisible'], 'the letters are outlines, not text in a second font')
    // The notes are ink on the page, right of the slide's picture.
    const { data, info } = await sharp(execFileSync('pdftoppm', ['-f', '2', '-l', '2', '-r', '24', '-png', withNotes])).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const k = info.width / 1200
    let ink = 0
    for (let y = Math.round(110 * k); y < Math.round(200 * k); y++) for (let x = Math.round(590 * k); x < Math.round(1140 * k); x++) if (data[(y * info.width + x) * 3] < 128) ink++
    assert.ok(ink > 20, `ink where the notes are: ${ink} dark pixels`)
  })

  it('opens another font when one has used all its codes (more than 65,535 distinct characters)', async () => {
    const cps: number[] = []
    for (let c = 0x4e00; c <= 0x9fff; c++) cps.push(c)
    for (let c = 0x20000; cps.length < 66_000; c++) cps.push(c)
    // Two pages (poppler keeps at most 50,000 characters of a page), the second's code points after the first's.
    const page = (from: number, to: number): TextLine[] => {
      const out: TextLine[] = []
      for (let i = from; i < to; i += 600) out.push({ text: String.fromCodePoint(...cps.slice(i, Math.min(i + 600, to))), x: 0, y: ((i - from) / 600) * 15, w: 1600, h: 15, size: 12 })
      return out
    }
    const big = join(dir, 'many.pdf')
    writeFileSync(big, await flattenPdf([{ png, lines: page(0, 33_000), title: 'Many' }, { png, lines: page(33_000, cps.length), title: 'More' }], options))
    const found = new Set([...pageText(big, 1), ...pageText(big, 2)])
    assert.deepEqual(cps.filter((c) => !found.has(String.fromCodePoint(c))).slice(0, 5), [])
    const fonts = execFileSync('pdffonts', [big], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('StudioText-Invisible'))
    assert.equal(fonts.length, 2)
  })
})

describe('the layer\'s blank face', () => {
  const font = glyphlessFont({ ascent: 969, descent: -242 })

  it('is a valid TrueType file: table and whole-file checksums as the format asks, two glyphs, glyph 1 blank', () => {
    const sum = (b: Buffer) => {
      const padded = Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)])
      let s = 0
      for (let i = 0; i < padded.length; i += 4) s = (s + padded.readUInt32BE(i)) >>> 0
      return s
    }
    const count = font.readUInt16BE(4)
    const tags: string[] = []
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16
      const tag = font.toString('latin1', at, at + 4)
      tags.push(tag)
      const data = Buffer.from(font.subarray(font.readUInt32BE(at + 8), font.readUInt32BE(at + 8) + font.readUInt32BE(at + 12)))
      if (tag === 'head') data.writeUInt32BE(0, 8)
      assert.equal(font.readUInt32BE(at + 4), sum(data), `${tag} checksum`)
    }
    assert.deepEqual(tags, [...tags].sort(), 'tables in tag order')
    assert.equal(sum(font), 0xb1b0afba, 'checkSumAdjustment')
    const face = fontkit.create(font) as unknown as { numGlyphs: number; unitsPerEm: number; postscriptName: string; getGlyph(id: number): { path: { commands: unknown[] } } }
    assert.equal(face.numGlyphs, 2)
    assert.equal(face.unitsPerEm, 1000)
    assert.equal(face.postscriptName, 'StudioText-Invisible')
    assert.equal(face.getGlyph(1).path.commands.length, 0, 'glyph 1 draws nothing')
  })

  it('is read by FreeType (fc-query)', { skip: skipUnlessPresent(onPath('fc-query'), 'no fc-query (apt-get install fontconfig)') }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-pdf-face-'))
    try {
      writeFileSync(join(dir, 'blank.ttf'), font)
      const out = execFileSync('fc-query', ['--format', '%{family}|%{postscriptname}|%{fontformat}', join(dir, 'blank.ttf')], { encoding: 'utf8' })
      assert.equal(out, 'StudioText Invisible|StudioText-Invisible|TrueType')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the graphemes of a line', () => {
  it('keeps user-perceived characters whole: emoji sequences, flags, a letter and its marks', () => {
    assert.deepEqual(graphemes('a👩‍💻🇵🇱e\u0301'), ['a', '👩‍💻', '🇵🇱', 'e\u0301'])
  })

  it('splits a grapheme too long for one Unicode map entry into its code points, and mends what is not text', () => {
    const zalgo = 'a' + '\u0301'.repeat(100)
    assert.deepEqual(graphemes(zalgo), [...zalgo])
    assert.deepEqual(graphemes('x\ud800y\tz'), ['x', '\ufffd', 'y', ' ', 'z'])
  })
})

describe('visual order of a line', () => {
  const visual = (text: string) => visualOrder(graphemes(text)).join('')

  it('leaves a line without right-to-left letters as it is', () => {
    assert.equal(visual('Costs fell by half 🚀'), 'Costs fell by half 🚀')
  })

  it('turns a right-to-left line around, keeping numbers and left-to-right words inside it in their order', () => {
    assert.equal(visual('שלום עולם'), 'םלוע םולש')
    assert.equal(visual('שלום world 123 סוף'), 'ףוס 123 world םולש')
    assert.equal(visual('عدد 2024 في'), 'يف 2024 ددع')
  })

  it('turns only the right-to-left run of a left-to-right line around', () => {
    assert.equal(visual('Hello שלום עולם end'), 'Hello םלוע םולש end')
  })

  it('keeps marks with their letters', () => {
    const parts = visualOrder(graphemes('שָׁלוֹם'))
    assert.deepEqual(parts, ['ם', 'וֹ', 'ל', 'שָׁ'])
  })
})
