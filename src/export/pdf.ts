/**
 * PDF assembly for export.run (docs/export.md):
 *
 * - **flatten**: each page the renderer's 2x PNG, its compressed image data copied into the PDF as it
 *   is (the PNG's IDAT stream under /FlateDecode with the PNG predictor: no decode, no re-encode), under
 *   an invisible text layer (text render mode 3, in any script: see pdf-text.ts), one run per drawn
 *   line, scaled to the line's box so a selection covers the words it copies. Pages are 1200 × 675 pt, the sheet's
 *   1600 × 900 px at 96 px to the inch.
 * - **outline**: one bookmark per slide titled by the slide, grouped under its section (both modes).
 * - notes pages after each slide when asked (flatten writes them here, the letters as the export face's
 *   outlines under the same text layer; the vector PDF prints them).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import type { Color, PDFDocument as PDFDocumentType, PDFPage, PDFRef } from 'pdf-lib'
import { packageRoot } from '../store/workspace.js'
import type { TextLine } from '../render/pipeline.js'
import { type LayerMetrics, TextLayer } from './pdf-text.js'

/** The sheet in PDF points: 1600 × 900 px at 0.75 pt a px. */
export const PAGE_PT = { width: 1200, height: 675 }
const PT = 0.75

export interface FlatPage {
  /** The page's picture: a PNG (8-bit RGB or RGBA, not interlaced) of the sheet at any scale. */
  png: Buffer
  /** The text the picture shows, in sheet px. */
  lines: TextLine[]
}

export interface OutlineEntry {
  title: string
  section: string
  /** Index of the slide's page in the PDF. */
  page: number
}

type PdfLib = typeof import('pdf-lib')
let pdfLib: PdfLib | undefined
const lib = async (): Promise<PdfLib> => (pdfLib ??= await import('pdf-lib'))

/** Loads pdf-lib ahead of its first use, so that its load (about 0.3 s) runs while the caller waits on something else (Chromium printing). */
export async function preloadPdfLib(): Promise<void> {
  await lib()
}

/** The export face (fonts.build's regular text face): the text layer's widths, the notes pages' letters. */
export function layerFontFile(): string {
  return join(packageRoot(), 'fonts', 'export', 'Inter-Regular.ttf')
}

interface PngParts {
  width: number
  height: number
  colourType: number
  idat: Buffer
}

/** The chunks of a PNG the PDF needs; refuses what a PDF image cannot take as it is. */
function pngParts(png: Buffer): PngParts {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let at = 8
  let width = 0
  let height = 0
  let colourType = -1
  let depth = 0
  let interlace = 0
  const idat: Buffer[] = []
  while (at < png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('ascii', at + 4, at + 8)
    const data = png.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      depth = data[8]
      colourType = data[9]
      interlace = data[12]
    } else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    at += 12 + length
  }
  if (depth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6)) throw new Error(`PNG of depth ${depth}, colour type ${colourType}, interlace ${interlace}`)
  return { width, height, colourType, idat: Buffer.concat(idat) }
}

/**
 * The PNG as an image XObject. RGB data goes in as it is (FlateDecode, Predictor 15); RGBA (which a PDF
 * image cannot hold in one stream) is split into colour and a soft mask, the one case that decodes.
 */
async function embedPng(doc: PDFDocumentType, png: Buffer): Promise<{ ref: PDFRef; width: number; height: number }> {
  const { PDFName } = await lib()
  const parts = pngParts(png)
  const context = doc.context
  const params = (colours: number) => context.obj({ Predictor: 15, Colors: colours, BitsPerComponent: 8, Columns: parts.width })
  if (parts.colourType === 2) {
    const raw = context.stream(parts.idat, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: parts.width,
      Height: parts.height,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
      DecodeParms: params(3),
    })
    return { ref: context.register(raw), width: parts.width, height: parts.height }
  }
  // RGBA: undo the PNG filters, split colour and alpha, deflate each.
  const { deflateSync } = await import('node:zlib')
  const pixels = unfilter(inflateSync(parts.idat), parts.width, parts.height, 4)
  const rgb = Buffer.alloc(parts.width * parts.height * 3)
  const alpha = Buffer.alloc(parts.width * parts.height)
  for (let i = 0; i < parts.width * parts.height; i++) {
    pixels.copy(rgb, i * 3, i * 4, i * 4 + 3)
    alpha[i] = pixels[i * 4 + 3]
  }
  const mask = context.register(context.stream(deflateSync(alpha), { Type: 'XObject', Subtype: 'Image', Width: parts.width, Height: parts.height, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode' }))
  const image = context.stream(deflateSync(rgb), { Type: 'XObject', Subtype: 'Image', Width: parts.width, Height: parts.height, ColorSpace: 'DeviceRGB', BitsPerComponent: 8, Filter: 'FlateDecode' })
  image.dict.set(PDFName.of('SMask'), mask)
  return { ref: context.register(image), width: parts.width, height: parts.height }
}

/** PNG scanline filters undone (for the RGBA case only). */
function unfilter(data: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp
  const out = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = data[y * (stride + 1)]
    const row = data.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0
      const b = y > 0 ? out[(y - 1) * stride + x] : 0
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0
      let v = row[x]
      if (filter === 1) v += a
      else if (filter === 2) v += b
      else if (filter === 3) v += (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      out[y * stride + x] = v & 0xff
    }
  }
  return out
}

/** Draws `lines` (sheet px) on `page` in the invisible text layer, each line scaled to its width. */
async function invisibleLines(page: PDFPage, layer: TextLayer, lines: TextLine[]): Promise<void> {
  for (const line of lines) {
    const size = Math.max(1, line.size * PT)
    // Baseline: the line box's middle less 0.3 of the size (the export face's ascent is about 0.8 of it).
    const baseline = PAGE_PT.height - (line.y + line.h / 2) * PT - size * 0.3
    await layer.line(page, line.text, { x: line.x * PT, y: baseline, size, width: line.w * PT })
  }
}

/** The export face, read once per file: the layer's metrics, and text drawn as its glyphs' outlines. */
interface ExportFace {
  metrics: LayerMetrics
  /** Width in pt of `text` at `size` pt, kerned. */
  width(text: string, size: number): number
  /** `text` at `size` pt as one SVG path (y down, baseline at 0): the face's glyphs, its .notdef box for the rest. */
  outline(text: string, size: number): string
}

async function exportFace(): Promise<ExportFace> {
  const { default: fontkit } = await import('@pdf-lib/fontkit')
  const face = fontkit.create(readFileSync(layerFontFile()))
  const em = 1000 / face.unitsPerEm
  return {
    metrics: {
      ascent: face.ascent * em,
      descent: face.descent * em,
      width: (grapheme) => {
        // A base character and combining marks take the base's width; anything else the face lacks is guessed.
        const [base, ...marks] = [...grapheme]
        const cp = base.codePointAt(0)!
        if (marks.some((m) => !/\p{M}/u.test(m)) || !face.hasGlyphForCodePoint(cp)) return undefined
        return face.glyphForCodePoint(cp).advanceWidth * em
      },
    },
    width: (text, size) => (face.layout(text).advanceWidth * size) / face.unitsPerEm,
    outline: (text, size) => {
      const k = size / face.unitsPerEm
      const run = face.layout(text)
      let x = 0
      let d = ''
      run.glyphs.forEach((glyph, i) => {
        const at = run.positions[i]
        // fontkit's Path has scale and translate; @pdf-lib/fontkit's types leave them out.
        const path = glyph.path as unknown as { scale(x: number, y: number): { translate(x: number, y: number): { toSVG(): string } } }
        d += path.scale(k, -k).translate(x + at.xOffset * k, -at.yOffset * k).toSVG()
        x += at.xAdvance * k
      })
      return d
    },
  }
}

/**
 * Words a person reads on a notes page: drawn as the export face's outlines (not as text, so no reader
 * extracts them twice or loses what the face lacks) under the invisible text layer, which carries the
 * words whole, like a slide page's picture.
 */
async function drawWords(page: PDFPage, face: ExportFace, layer: TextLayer, text: string, at: { x: number; y: number; size: number; color: Color; opacity?: number }): Promise<void> {
  const d = face.outline(text, at.size)
  if (d) page.drawSvgPath(d, { x: at.x, y: at.y, color: at.color, opacity: at.opacity })
  await layer.line(page, text, { x: at.x, y: at.y, size: at.size, width: face.width(text, at.size) })
}

/**
 * A notes page: the slide's name, its picture (the page's own image, drawn again at 40 %, so no bytes
 * are added) on the left, its notes beside it, in ink on paper. The notes' words are in the text layer.
 */
async function notesPage(doc: PDFDocumentType, face: ExportFace, layer: TextLayer, title: string, notes: string, ink: string, paper: string, image: { ref: PDFRef }, rule: string): Promise<void> {
  const { rgb, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } = await lib()
  const colour = (hex: string) => rgb(parseInt(hex.slice(1, 3), 16) / 255, parseInt(hex.slice(3, 5), 16) / 255, parseInt(hex.slice(5, 7), 16) / 255)
  const page = doc.addPage([PAGE_PT.width, PAGE_PT.height])
  page.drawRectangle({ x: 0, y: 0, width: PAGE_PT.width, height: PAGE_PT.height, color: colour(paper) })
  await drawWords(page, face, layer, `${title} · notes`, { x: 60, y: PAGE_PT.height - 81, size: 21, color: colour(ink), opacity: 0.7 })
  // The slide at 40 % (480 × 270 pt), 60 pt from the left, its top 120 pt down; a hairline around it.
  const thumb = { x: 60, y: PAGE_PT.height - 120 - 270, w: 480, h: 270 }
  page.drawRectangle({ x: thumb.x - 0.75, y: thumb.y - 0.75, width: thumb.w + 1.5, height: thumb.h + 1.5, color: colour(rule) })
  const name = page.node.newXObject('Slide', image.ref)
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(thumb.w, 0, 0, thumb.h, thumb.x, thumb.y), drawObject(name), popGraphicsState())
  const size = 21
  const left = 585
  const maxWidth = PAGE_PT.width - left - 60
  let y = PAGE_PT.height - 120 - size
  for (const paragraph of notes.split('\n')) {
    const words = paragraph.split(/\s+/).filter(Boolean)
    let line = ''
    const flush = async () => {
      if (y < 60) return
      await drawWords(page, face, layer, line, { x: left, y, size, color: colour(ink) })
      y -= size * 1.45
      line = ''
    }
    for (const word of words) {
      const next = line ? `${line} ${word}` : word
      if (face.width(next, size) > maxWidth && line) {
        await flush()
        line = word
      } else line = next
    }
    if (line) await flush()
    y -= size * 0.5
  }
}

/** A flattened PDF: one page per picture with its invisible text, notes pages when given. */
export async function flattenPdf(
  pages: (FlatPage & { title: string; notes?: string })[],
  options: { title: string; ink: string; paper: string; rule: string; outline: OutlineEntry[]; date: Date },
): Promise<Buffer> {
  const { PDFDocument } = await lib()
  const doc = await PDFDocument.create()
  const face = await exportFace()
  const layer = new TextLayer(doc, face.metrics)
  for (const item of pages) {
    const image = await embedPng(doc, item.png)
    const page = doc.addPage([PAGE_PT.width, PAGE_PT.height])
    const name = page.node.newXObject('Page', image.ref)
    const { pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } = await lib()
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(PAGE_PT.width, 0, 0, PAGE_PT.height, 0, 0), drawObject(name), popGraphicsState())
    await invisibleLines(page, layer, item.lines)
    if (item.notes !== undefined) await notesPage(doc, face, layer, item.title, item.notes, options.ink, options.paper, image, options.rule)
  }
  doc.setTitle(options.title)
  doc.setCreator('Deck Studio')
  doc.setProducer('Deck Studio (pdf-lib)')
  doc.setCreationDate(options.date)
  doc.setModificationDate(options.date)
  await addOutline(doc, options.outline)
  await layer.finish()
  return Buffer.from(await doc.save({ useObjectStreams: true }))
}

/** Adds the outline to a PDF from Chromium (the vector export), keeping everything else as printed. */
export async function outlinePdf(bytes: Buffer, title: string, outline: OutlineEntry[], date: Date): Promise<Buffer> {
  const { PDFDocument } = await lib()
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  doc.setTitle(title)
  doc.setCreationDate(date)
  doc.setModificationDate(date)
  await addOutline(doc, outline)
  return Buffer.from(await doc.save({ useObjectStreams: true }))
}

/** The document outline: one item per section holding one bookmark per slide (its page, fitted). */
async function addOutline(doc: PDFDocumentType, entries: OutlineEntry[]): Promise<void> {
  if (!entries.length) return
  const { PDFName, PDFHexString } = await lib()
  const context = doc.context
  const pages = doc.getPages()
  const root = context.nextRef()
  const sections: { title: string; ref: PDFRef; items: { title: string; page: number; ref: PDFRef }[] }[] = []
  for (const entry of entries) {
    let section = sections[sections.length - 1]
    if (!section || section.title !== entry.section) sections.push((section = { title: entry.section, ref: context.nextRef(), items: [] }))
    section.items.push({ title: entry.title, page: entry.page, ref: context.nextRef() })
  }
  const text = (s: string) => PDFHexString.fromText(s)
  const link = <T extends { ref: PDFRef }>(list: T[], i: number, dict: Record<string, any>): Record<string, any> => {
    if (i > 0) dict.Prev = list[i - 1].ref
    if (i < list.length - 1) dict.Next = list[i + 1].ref
    return dict
  }
  sections.forEach((section, i) => {
    const first = pages[section.items[0].page]
    section.items.forEach((item, j) => {
      const page = pages[item.page]
      context.assign(item.ref, context.obj(link(section.items, j, { Title: text(item.title), Parent: section.ref, Dest: [page.ref, PDFName.of('Fit')] })))
    })
    context.assign(
      section.ref,
      context.obj(link(sections, i, { Title: text(section.title), Parent: root, First: section.items[0].ref, Last: section.items[section.items.length - 1].ref, Count: section.items.length, Dest: [first.ref, PDFName.of('Fit')] })),
    )
  })
  context.assign(root, context.obj({ Type: 'Outlines', First: sections[0].ref, Last: sections[sections.length - 1].ref, Count: sections.length + entries.length }))
  doc.catalog.set(PDFName.of('Outlines'), root)
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'))
}
