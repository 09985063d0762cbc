/**
 * The flattened PDF's invisible text layer in any script (docs/export.md, "The invisible text layer").
 *
 * The layer needs no glyph shapes, only where each character is and what it is, so it is written the
 * way OCR tools write theirs (Tesseract's GlyphLessFont): one tiny TrueType face (a .notdef box and a
 * blank glyph), embedded as a Type0 font with Encoding Identity-H whose CIDToGIDMap sends every CID to the
 * same blank glyph. Each distinct grapheme the document writes gets a CID in order of first use; the
 * ToUnicode CMap gives each CID its text (UTF-16BE, so astral characters and emoji sequences survive)
 * and /W its width. Nothing depends on the faces a machine has, and the same pages write the same bytes.
 */
import { deflateSync } from 'node:zlib'
import type { PDFDocument, PDFPage, PDFRef } from 'pdf-lib'

/** Font units per em in the blank face and in /W. */
const EM = 1000
/** The most CIDs one font holds with two-byte codes (CID 0 is left to .notdef). */
const CIDS_PER_FONT = 0xffff
/** A grapheme longer than this (in UTF-16 units) is split into code points: a ToUnicode entry holds at most 512 bytes. */
const LONGEST_GRAPHEME = 64
const FONT_NAME = 'StudioText-Invisible'

/** Metrics the layer takes from the face the slide's words are measured in. */
export interface LayerMetrics {
  /** Width in 1/1000 em of one grapheme, or undefined when the face does not draw it. */
  width(grapheme: string): number | undefined
  ascent: number
  descent: number
}

const WIDE = /^[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uff60\uffe0-\uffe6]/u

/** A width for a grapheme the face lacks: a full em for CJK, Hangul and emoji, half an em for the rest. */
function guessWidth(grapheme: string): number {
  return WIDE.test(grapheme) ? EM : EM / 2
}

let pdfLib: typeof import('pdf-lib') | undefined
const lib = async () => (pdfLib ??= await import('pdf-lib'))

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' })

/** The user-perceived characters of `text`, with control characters as spaces and lone surrogates as U+FFFD. */
export function graphemes(text: string): string[] {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  const out: string[] = []
  for (const { segment } of segmenter.segment(clean)) {
    if (segment.length <= LONGEST_GRAPHEME) out.push(segment)
    else out.push(...segment)
  }
  return out
}

const RTL = /^[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u
const ARABIC = /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u
const LETTER = /^\p{L}/u
const DIGIT = /^\p{Nd}/u

type Bidi = 'L' | 'R' | 'AL' | 'EN' | 'N'

/**
 * The graphemes of one line in the order they appear on the page (the Unicode bidirectional algorithm's
 * rules for one paragraph without explicit embeddings: W2, N1–N2, I1–I2, L2; marks stay with their base).
 * PDF readers (poppler, pdf.js, PDFium) take text in visual order and turn right-to-left runs back into
 * logical order when they extract it, so a Hebrew or Arabic line is written right to left, as it shows.
 */
export function visualOrder(parts: string[]): string[] {
  const types: Bidi[] = parts.map((g) => (RTL.test(g) ? (ARABIC.test(g) ? 'AL' : 'R') : DIGIT.test(g) ? 'EN' : LETTER.test(g) ? 'L' : 'N'))
  if (!types.some((t) => t === 'R' || t === 'AL')) return parts
  const first = types.find((t) => t === 'L' || t === 'R' || t === 'AL')
  const base = first === 'L' ? 0 : 1
  // W2: a number after Arabic letters is an Arabic number (it sorts the same here, but is strong R for N1).
  const resolved: ('L' | 'R' | 'EN' | 'AN' | 'N')[] = []
  let lastStrong: Bidi = base ? 'R' : 'L'
  for (const t of types) {
    if (t === 'EN') resolved.push(lastStrong === 'AL' ? 'AN' : 'EN')
    else resolved.push(t === 'AL' ? 'R' : t)
    if (t === 'L' || t === 'R' || t === 'AL') lastStrong = t
  }
  // N1–N2: neutrals between two of the same direction (numbers count as R) take it, the rest the line's.
  const strong = (t: string | undefined, edge: 'L' | 'R') => (t === undefined ? edge : t === 'L' ? 'L' : t === 'N' ? undefined : 'R')
  const edge = base ? 'R' : 'L'
  for (let i = 0; i < resolved.length; i++) {
    if (resolved[i] !== 'N') continue
    let j = i
    while (j < resolved.length && resolved[j] === 'N') j++
    const before = strong(resolved[i - 1], edge)
    const after = strong(resolved[j], edge)
    const fill = before === after ? before! : edge
    for (let k = i; k < j; k++) resolved[k] = fill
    i = j - 1
  }
  // I1–I2: embedding levels.
  const levels = resolved.map((t) => (base === 0 ? (t === 'L' ? 0 : t === 'R' ? 1 : 2) : t === 'R' ? 1 : 2))
  // L2: from the highest level down to the lowest odd one, reverse every run at that level or above.
  const order = parts.map((_, i) => i)
  const highest = Math.max(...levels)
  for (let level = highest; level >= 1; level--) {
    for (let i = 0; i < order.length; i++) {
      if (levels[order[i]] < level) continue
      let j = i
      while (j < order.length && levels[order[j]] >= level) j++
      order.splice(i, j - i, ...order.slice(i, j).reverse())
      i = j
    }
  }
  return order.map((i) => parts[i])
}

interface LayerFont {
  ref: PDFRef
  /** Text and width of CID 1, 2, ... */
  glyphs: { text: string; width: number }[]
}

/** The invisible text layer of one document: draw lines on pages, then `finish()` before saving. */
export class TextLayer {
  private readonly fonts: LayerFont[] = []
  private readonly cids = new Map<string, { font: number; cid: number }>()

  constructor(
    private readonly doc: PDFDocument,
    private readonly metrics: LayerMetrics,
  ) {}

  /** The font and CID of a grapheme, given one on first use. */
  private code(grapheme: string): { font: number; cid: number } {
    let code = this.cids.get(grapheme)
    if (!code) {
      let font = this.fonts[this.fonts.length - 1]
      if (!font || font.glyphs.length >= CIDS_PER_FONT) this.fonts.push((font = { ref: this.doc.context.nextRef(), glyphs: [] }))
      font.glyphs.push({ text: grapheme, width: Math.round(this.metrics.width(grapheme) ?? guessWidth(grapheme)) })
      code = { font: this.fonts.length - 1, cid: font.glyphs.length }
      this.cids.set(grapheme, code)
    }
    return code
  }

  /**
   * Writes `text` invisibly (text render mode 3) with its baseline's left end at (x, y) pt, `size` pt high,
   * scaled horizontally so it spans `width` pt, its characters in visual order (see `visualOrder`).
   * Nothing is written for a blank line.
   */
  async line(page: PDFPage, text: string, at: { x: number; y: number; size: number; width?: number }): Promise<void> {
    const parts = visualOrder(graphemes(text))
    if (!parts.some((g) => g.trim())) return
    const { PDFOperator, PDFName, PDFNumber, PDFHexString } = await lib()
    const runs: { font: number; hex: string }[] = []
    let natural = 0
    for (const g of parts) {
      const { font, cid } = this.code(g)
      natural += (this.fonts[font].glyphs[cid - 1].width / EM) * at.size
      const hex = cid.toString(16).padStart(4, '0')
      const last = runs[runs.length - 1]
      if (last && last.font === font) last.hex += hex
      else runs.push({ font, hex })
    }
    const scale = at.width !== undefined && at.width > 0 && natural > 0 ? Math.max(1, Math.min(1000, (at.width / natural) * 100)) : 100
    const op = (name: string, ...args: NonNullable<Parameters<typeof PDFOperator.of>[1]>) => PDFOperator.of(name as never, args)
    const num = (n: number) => PDFNumber.of(Math.round(n * 1000) / 1000)
    page.pushOperators(op('q'), op('BT'), op('Tr', PDFNumber.of(3)), op('Tz', num(scale)), op('Td', num(at.x), num(at.y)))
    for (const run of runs) {
      // A fixed resource name per layer font (setting it again on the same page changes nothing).
      const name = PDFName.of(`TextLayer${run.font + 1}`)
      page.node.setFontDictionary(name, this.fonts[run.font].ref)
      page.pushOperators(op('Tf', name, num(at.size)), op('Tj', PDFHexString.of(run.hex)))
    }
    page.pushOperators(op('ET'), op('Q'))
  }

  /** Writes the fonts the lines used (call once, after the last line). */
  async finish(): Promise<void> {
    if (!this.fonts.length) return
    const { PDFString } = await lib()
    const context = this.doc.context
    const program = glyphlessFont(this.metrics)
    const fontFile = context.register(context.stream(deflateSync(program), { Filter: 'FlateDecode', Length1: program.length }))
    // Every CID to glyph 1, the blank one.
    const toGid = Buffer.alloc(2 * 0x10000)
    for (let cid = 1; cid < 0x10000; cid++) toGid.writeUInt16BE(1, cid * 2)
    const cidToGid = context.register(context.stream(deflateSync(toGid), { Filter: 'FlateDecode' }))
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: FONT_NAME,
        Flags: 4,
        FontBBox: [0, Math.round(this.metrics.descent), EM, Math.round(this.metrics.ascent)],
        ItalicAngle: 0,
        Ascent: Math.round(this.metrics.ascent),
        Descent: Math.round(this.metrics.descent),
        CapHeight: Math.round(this.metrics.ascent * 0.75),
        StemV: 80,
        FontFile2: fontFile,
      }),
    )
    for (const font of this.fonts) {
      const cidFont = context.register(
        context.obj({
          Type: 'Font',
          Subtype: 'CIDFontType2',
          BaseFont: FONT_NAME,
          CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
          FontDescriptor: descriptor,
          DW: EM / 2,
          W: widths(font.glyphs.map((g) => g.width)),
          CIDToGIDMap: cidToGid,
        }),
      )
      const cmap = toUnicode(font.glyphs.map((g) => g.text))
      const toUnicodeRef = context.register(context.stream(deflateSync(Buffer.from(cmap, 'latin1')), { Filter: 'FlateDecode' }))
      context.assign(font.ref, context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: FONT_NAME, Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicodeRef }))
    }
  }
}

/** /W for CID 1, 2, ...: runs of one width as `first last width`, the rest as `first [w1 w2 ...]`. */
function widths(list: number[]): (number | number[])[] {
  const out: (number | number[])[] = []
  let loose: number[] = []
  let looseFrom = 1
  for (let i = 0; i < list.length; ) {
    let j = i
    while (j < list.length && list[j] === list[i]) j++
    if (j - i >= 4) {
      if (loose.length) out.push(looseFrom, loose)
      out.push(i + 1, j, list[i])
      loose = []
      looseFrom = j + 1
    } else {
      if (!loose.length) looseFrom = i + 1
      loose.push(...list.slice(i, j))
    }
    i = j
  }
  if (loose.length) out.push(looseFrom, loose)
  return out
}

/** A ToUnicode CMap giving CID 1, 2, ... the texts in order (UTF-16BE), at most 100 entries a block. */
function toUnicode(texts: string[]): string {
  const utf16 = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex').toUpperCase()
  const out = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    `/CMapName /${FONT_NAME}-UCS def`,
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ]
  for (let start = 0; start < texts.length; start += 100) {
    const block = texts.slice(start, start + 100)
    out.push(`${block.length} beginbfchar`)
    block.forEach((text, i) => out.push(`<${(start + i + 1).toString(16).padStart(4, '0').toUpperCase()}> <${utf16(text)}>`))
    out.push('endbfchar')
  }
  out.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end')
  return out.join('\n') + '\n'
}

/**
 * A TrueType face of two glyphs: .notdef (a box, never shown: no CID maps to it) and glyph 1, blank, which
 * every CID draws. Written table by table with the checksums the format asks for; fixed dates, so the
 * bytes depend on the metrics alone.
 */
export function glyphlessFont(metrics: { ascent: number; descent: number }): Buffer {
  const ascent = Math.round(metrics.ascent)
  const descent = Math.round(metrics.descent)
  const box = { xMin: 50, yMin: 0, xMax: 450, yMax: 700 }
  const table = (size: number, fill: (b: Buffer) => void) => {
    const b = Buffer.alloc(size)
    fill(b)
    return b
  }
  // .notdef: one contour of four on-curve points (flags 0x01, coordinates as int16 deltas); glyph 1: empty.
  const notdef = table(34, (b) => {
    b.writeInt16BE(1, 0)
    b.writeInt16BE(box.xMin, 2)
    b.writeInt16BE(box.yMin, 4)
    b.writeInt16BE(box.xMax, 6)
    b.writeInt16BE(box.yMax, 8)
    b.writeUInt16BE(3, 10) // endPtsOfContours[0]
    b.writeUInt16BE(0, 12) // instructionLength
    b.fill(0x01, 14, 18)
    const xs = [box.xMin, box.xMax - box.xMin, 0, box.xMin - box.xMax]
    const ys = [box.yMin, 0, box.yMax - box.yMin, 0]
    xs.forEach((x, i) => b.writeInt16BE(x, 18 + i * 2))
    ys.forEach((y, i) => b.writeInt16BE(y, 26 + i * 2))
  })
  const glyf = Buffer.concat([notdef, Buffer.alloc(2)])
  const loca = table(6, (b) => {
    b.writeUInt16BE(0, 0)
    b.writeUInt16BE(glyf.length / 2, 2)
    b.writeUInt16BE(glyf.length / 2, 4)
  })
  const head = table(54, (b) => {
    b.writeUInt32BE(0x00010000, 0)
    b.writeUInt32BE(0x00010000, 4)
    b.writeUInt32BE(0, 8) // checkSumAdjustment, set last
    b.writeUInt32BE(0x5f0f3cf5, 12)
    b.writeUInt16BE(0b1011, 16)
    b.writeUInt16BE(EM, 18)
    // created and modified (bytes 20–35) stay 0.
    b.writeInt16BE(box.xMin, 36)
    b.writeInt16BE(box.yMin, 38)
    b.writeInt16BE(box.xMax, 40)
    b.writeInt16BE(box.yMax, 42)
    b.writeUInt16BE(0, 44) // macStyle
    b.writeUInt16BE(8, 46) // lowestRecPPEM
    b.writeInt16BE(2, 48) // fontDirectionHint
    b.writeInt16BE(0, 50) // indexToLocFormat: short
    b.writeInt16BE(0, 52)
  })
  const hhea = table(36, (b) => {
    b.writeUInt32BE(0x00010000, 0)
    b.writeInt16BE(ascent, 4)
    b.writeInt16BE(descent, 6)
    b.writeInt16BE(0, 8)
    b.writeUInt16BE(EM / 2, 10) // advanceWidthMax
    b.writeInt16BE(0, 12)
    b.writeInt16BE(0, 14)
    b.writeInt16BE(box.xMax, 16)
    b.writeInt16BE(1, 18) // caretSlopeRise
    b.writeUInt16BE(2, 34) // numberOfHMetrics
  })
  const maxp = table(32, (b) => {
    b.writeUInt32BE(0x00010000, 0)
    b.writeUInt16BE(2, 4) // numGlyphs
    b.writeUInt16BE(4, 6) // maxPoints
    b.writeUInt16BE(1, 8) // maxContours
    b.writeUInt16BE(2, 14) // maxZones
  })
  const hmtx = table(8, (b) => {
    b.writeUInt16BE(EM / 2, 0)
    b.writeInt16BE(box.xMin, 2)
    b.writeUInt16BE(EM / 2, 4)
    b.writeInt16BE(0, 6)
  })
  // cmap: one (3, 1) format-4 subtable holding only the closing segment: no character maps to a glyph.
  const cmap = table(12 + 24, (b) => {
    b.writeUInt16BE(0, 0)
    b.writeUInt16BE(1, 2)
    b.writeUInt16BE(3, 4)
    b.writeUInt16BE(1, 6)
    b.writeUInt32BE(12, 8)
    const s = 12
    b.writeUInt16BE(4, s)
    b.writeUInt16BE(24, s + 2)
    b.writeUInt16BE(0, s + 4)
    b.writeUInt16BE(2, s + 6) // segCountX2
    b.writeUInt16BE(2, s + 8) // searchRange
    b.writeUInt16BE(0, s + 10)
    b.writeUInt16BE(0, s + 12)
    b.writeUInt16BE(0xffff, s + 14) // endCode
    b.writeUInt16BE(0, s + 16)
    b.writeUInt16BE(0xffff, s + 18) // startCode
    b.writeInt16BE(1, s + 20) // idDelta
    b.writeUInt16BE(0, s + 22) // idRangeOffset
  })
  const os2 = table(96, (b) => {
    b.writeUInt16BE(4, 0)
    b.writeInt16BE(EM / 2, 2) // xAvgCharWidth
    b.writeUInt16BE(400, 4)
    b.writeUInt16BE(5, 6)
    b.writeUInt16BE(0, 8) // fsType: installable
    b.write('NONE', 58, 'latin1') // achVendID
    b.writeUInt16BE(0x40, 62) // fsSelection: regular
    b.writeUInt16BE(0xffff, 64)
    b.writeUInt16BE(0xffff, 66)
    b.writeInt16BE(ascent, 68)
    b.writeInt16BE(descent, 70)
    b.writeInt16BE(0, 72)
    b.writeUInt16BE(ascent, 74)
    b.writeUInt16BE(-descent, 76)
    b.writeUInt32BE(1, 78) // ulCodePageRange1: Latin 1
    b.writeInt16BE(Math.round(ascent * 0.55), 86) // sxHeight
    b.writeInt16BE(Math.round(ascent * 0.75), 88) // sCapHeight
    b.writeUInt16BE(0, 90)
    b.writeUInt16BE(0x20, 92)
    b.writeUInt16BE(1, 94)
  })
  const names: [number, string][] = [
    [1, 'StudioText Invisible'],
    [2, 'Regular'],
    [4, 'StudioText Invisible'],
    [6, FONT_NAME],
  ]
  const strings = names.map(([, s]) => Buffer.from(s, 'utf16le').swap16())
  const name = Buffer.alloc(6 + 12 * names.length + strings.reduce((n, s) => n + s.length, 0))
  name.writeUInt16BE(0, 0)
  name.writeUInt16BE(names.length, 2)
  name.writeUInt16BE(6 + 12 * names.length, 4)
  let offset = 0
  names.forEach(([id], i) => {
    const at = 6 + i * 12
    name.writeUInt16BE(3, at)
    name.writeUInt16BE(1, at + 2)
    name.writeUInt16BE(0x409, at + 4)
    name.writeUInt16BE(id, at + 6)
    name.writeUInt16BE(strings[i].length, at + 8)
    name.writeUInt16BE(offset, at + 10)
    strings[i].copy(name, 6 + 12 * names.length + offset)
    offset += strings[i].length
  })
  const post = table(32, (b) => {
    b.writeUInt32BE(0x00030000, 0)
    b.writeInt16BE(-100, 8)
    b.writeInt16BE(50, 10)
  })
  const tables: [string, Buffer][] = (
    [
      ['OS/2', os2],
      ['cmap', cmap],
      ['glyf', glyf],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtx],
      ['loca', loca],
      ['maxp', maxp],
      ['name', name],
      ['post', post],
    ] as [string, Buffer][]
  ).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const checksum = (b: Buffer) => {
    const padded = Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)])
    let sum = 0
    for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0
    return sum
  }
  const count = tables.length
  const power = 2 ** Math.floor(Math.log2(count))
  const directory = Buffer.alloc(12 + 16 * count)
  directory.writeUInt32BE(0x00010000, 0)
  directory.writeUInt16BE(count, 4)
  directory.writeUInt16BE(power * 16, 6)
  directory.writeUInt16BE(Math.log2(power), 8)
  directory.writeUInt16BE(count * 16 - power * 16, 10)
  const bodies: Buffer[] = []
  let at = directory.length
  tables.forEach(([tag, data], i) => {
    const record = 12 + i * 16
    directory.write(tag, record, 'latin1')
    directory.writeUInt32BE(checksum(data), record + 4)
    directory.writeUInt32BE(at, record + 8)
    directory.writeUInt32BE(data.length, record + 12)
    const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)])
    bodies.push(padded)
    at += padded.length
  })
  const file = Buffer.concat([directory, ...bodies])
  const headAt = directory.readUInt32BE(12 + tables.findIndex(([tag]) => tag === 'head') * 16 + 8)
  file.writeUInt32BE((0xb1b0afba - checksum(file)) >>> 0, headAt + 8)
  return file
}
