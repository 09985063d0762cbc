/**
 * Native PPTX: a deck as an editable PowerPoint package, drawn to look like the renderer's picture
 * (src/render/html.ts) of the same slides.
 *
 * pptxgenjs writes the package: text boxes with runs, tables, charts with their workbooks, shapes,
 * pictures, notes, hidden slides. Every block sits at the box geometry computed (src/layout `drawn`),
 * converted at 120 sheet px per inch (the 1600 × 900 sheet is 13.333 × 7.5 in; 1 px = 7620 EMU,
 * 0.6 pt). Text is set in the renderer's families, sizes and colours with exact line spacing (the
 * renderer's line height in points), so lines fall where the renderer's fall.
 *
 * Where pptxgenjs cannot say what is needed, the package parts are post-processed rather than the
 * property dropped (see `Patches`): list paragraphs (marker colour, font, hanging indent per level),
 * text columns, the duplicate paragraph properties pptxgenjs writes before every run, shape
 * adjustments (corner radius, arrow and chevron proportions), picture crops and masks, brightness
 * and contrast, gradient fills, round line caps and arrow-head sizes, connectors attached to their
 * blocks, the slide-number field, stacked line charts. pptxgenjs stores its zip uncompressed when it
 * writes a buffer; the package is re-zipped here (XML deflated, pictures stored) with identical
 * pictures kept once.
 *
 * `baseline: 'libreoffice'` moves every text box by the difference between where Chromium and
 * LibreOffice put the first baseline of a box with exact line spacing (measured by
 * scripts/export/measure-baseline.ts; docs/export.md). What this mode cannot carry is listed per
 * slide and block in the report's `cannot` and in docs/export.md ("What native mode carries").
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readAssetSync } from '../store/safe-open.js'
import { extname, join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import pptxgen from 'pptxgenjs'
import sharp from 'sharp'
import yauzl from 'yauzl'
import type { Block, DeckDoc, Manifest, Slide } from '../model/deck.js'
import { INDENT_STEP, isPicturePlaceholder } from '../model/blocks.js'
import { themeFonts } from '../model/themes.js'
import type { ThemeFonts } from '../model/fonts.js'
import type { Run } from '../model/text.js'
import { resolveDither, type ResolvedDither } from '../model/dither.js'
import { drawn, type Drawn } from '../layout/stack.js'
import { drawnFits, type Fit } from '../layout/fit.js'
import { footerBand, LAYOUT_SLOTS, showsKitFooter, slotBoxes, type Box } from '../layout/boxes.js'
import { blocksInReadingOrder, titleBlock } from '../layout/reading.js'
import { listGap, listGutter, listLayout, pictureHeight, tableColumnAlign, textStyle, SHAPE_INSET, type TextStyle } from '../layout/blocks.js'
import { COLUMN_GAP, measureText, stripMarkup } from '../layout/text.js'
import { colour, logoInkOn, paintFor, seriesColour, type Paint } from '../render/paint.js'
import { paragraphRuns } from '../render/text.js'
import { drawnPictureSize, lineEnds, markerText } from '../render/html.js'
import { chartLayout, scatterXs, tickFormatCode } from '../layout/chart.js'
import { assetFiles, themedFile } from '../render/pipeline.js'
import { assetSize, Variants } from '../render/variants.js'
import type { Placement } from '../model/arrange.js'
import { firstBaselineShift } from './baseline.js'
import { withoutAbsentOverrides } from './content-types.js'
import { embedFonts, withEmbeddedFontList, type FontSlot } from './embed-fonts.js'
import { exportTypeface, type ExportFace, type ExportFontSet } from './fonts.js'
import { asTitlePlaceholder, withTitlePlaceholder } from './pptx-title.js'
import { inReadingOrder } from './pptx-order.js'
import { withSchemeScriptFaces, withScriptFaces } from './pptx-scripts.js'

export interface NativeOptions {
  /** The deck (manifest + slides). */
  doc: DeckDoc
  /** Absolute deck folder (assets/). */
  deckDir: string
  /** Workspace root (for the variants cache). */
  root: string
  /** The slides to write, in order (skipped ones already filtered by the caller; those passed with `skip` are written hidden). */
  slides: Slide[]
  appearance: 'light' | 'dark'
  /** Speaker notes on the notes pages. */
  includeNotes: boolean
  /** Place text boxes with LibreOffice's first-baseline offset (src/export/baseline.ts), or at geometry's box. */
  baseline: 'libreoffice' | 'none'
  /** Embed the faces text is set in (font parts, EOT-wrapped as PowerPoint reads them: src/export/embed-fonts.ts). */
  embedFonts: boolean
  /** Every heading as a PNG drawn by the renderer in Chromium, instead of a text box. */
  headingsRaster: boolean
  /** Which export faces runs name (src/export/fonts.ts `exportTypeface`); standard when absent. */
  fontSet?: ExportFontSet
  /** Write each SVG picture's vector beside its PNG (the svgBlip extension); on when absent. */
  svgVector?: boolean
  /** The scale two-tone pictures are regenerated at from the one-bit image (2 when absent). */
  pictureScale?: 2 | 3
  /** The scale of rasters drawn for the file: auto (3x icons and marks, 2x the rest), 2 or 3. */
  rasterScale?: 'auto' | 2 | 3
}

export interface NativeReport {
  pages: number
  bytes: number
  /** The typefaces text is set in. */
  fonts: string[]
  /** Every raster picture written: `<slideId>#<blockId> <what> <format> <w>x<h>`. */
  rasters: string[]
  /** What this mode could not carry, per slide and block. */
  cannot: string[]
  /** With embedFonts: each typeface embedded and its styles. */
  embedded?: string[]
  /** The faces runs name for scripts the theme faces lack (Noto Sans SC, JP, KR, Arabic, Hebrew); never embedded. */
  scriptFaces?: string[]
}

/** Sheet px per inch (1600 px = 13.333 in). */
export const PX_PER_INCH = 120
/** Points per sheet px (72 / 120). */
export const PT_PER_PX = 0.6
/** EMU per sheet px (914400 / 120). */
export const EMU_PER_PX = 7620

const inch = (px: number) => px / PX_PER_INCH
const pt = (px: number) => Math.round(px * PT_PER_PX * 100) / 100
const emu = (px: number) => Math.round(px * EMU_PER_PX)
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** A CSS hex colour as pptxgenjs wants it: six upper-case digits, no `#`. */
export function hex(css: string): string {
  let h = css.replace(/^#/, '')
  if (h.length === 3) h = [...h].map((c) => c + c).join('')
  return /^[0-9a-f]{6}$/i.test(h) ? h.toUpperCase() : '000000'
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The renderer's bullet presets and the OOXML auto-number schemes of its number presets. */
const AUTO_NUMBER: Record<string, string> = {
  decimal: 'arabicPeriod',
  'decimal-paren': 'arabicParenR',
  'lower-alpha': 'alphaLcPeriod',
  'upper-alpha': 'alphaUcPeriod',
  'lower-roman': 'romanLcPeriod',
  'upper-roman': 'romanUcPeriod',
}
const BULLET_PRESETS = new Set(['disc', 'circle', 'square', 'dash', 'arrow', 'check', 'star', 'diamond'])

/** Our shape and mask presets as OOXML preset geometries. */
const PRESET: Record<string, string> = {
  rect: 'rect',
  rounded: 'roundRect',
  ellipse: 'ellipse',
  circle: 'ellipse',
  triangle: 'triangle',
  diamond: 'diamond',
  pentagon: 'pentagon',
  hexagon: 'hexagon',
  octagon: 'octagon',
  star: 'star5',
  arrow: 'rightArrow',
  chevron: 'chevron',
  heart: 'heart',
}

/** The adjustments that make a preset match our drawing of it in a w × h box (src/render/shapes.ts). */
function presetAdjust(shape: string, w: number, h: number): Record<string, number> {
  const ss = Math.max(1, Math.min(w, h))
  switch (shape) {
    case 'rounded':
      return { adj: 12000 }
    case 'hexagon':
      return { adj: Math.round(((0.25 * w) / ss) * 100000), vf: 115470 }
    case 'octagon':
      return { adj: Math.round(((0.29 * Math.min(w, h)) / ss) * 100000) }
    case 'star':
      return { adj: 19000, hf: 105146, vf: 110557 }
    case 'arrow':
      return { adj1: 40000, adj2: Math.round(((0.38 * w) / ss) * 100000) }
    case 'chevron':
      return { adj: Math.round(((0.3 * w) / ss) * 100000) }
    default:
      return {}
  }
}

const avList = (adjust: Record<string, number>) => Object.entries(adjust).map(([name, value]) => `<a:gd name="${name}" fmla="val ${value}"/>`).join('')

/** A box turned by `angle` degrees about the centre of `about` (the block's box): where a part of a rotated block lands. */
function turned(part: Box, about: Box, angle: number): Box {
  if (!angle) return part
  const cx = about.x + about.w / 2
  const cy = about.y + about.h / 2
  const px = part.x + part.w / 2 - cx
  const py = part.y + part.h / 2 - cy
  const a = (angle * Math.PI) / 180
  const nx = cx + px * Math.cos(a) - py * Math.sin(a)
  const ny = cy + px * Math.sin(a) + py * Math.cos(a)
  return { x: nx - part.w / 2, y: ny - part.h / 2, w: part.w, h: part.h }
}

/** Room added below a shrink-on-overflow box's last line (px: one point), see `shrinksOnOverflow`. */
export const SHRINK_ROOM = 4 / 3

/**
 * Whether a wrapped text box is written with shrink on overflow (`<a:normAutofit/>`): a text or list
 * block (not a shape's label) of two lines or more as geometry measures it. Its text fits the box in the faces it names, so a reader shrinks it only when it draws a wider
 * fallback face (LibreOffice without Inter draws DejaVu Sans, about 12 % wider): the lines stay inside
 * the box, wrapped where ours are, instead of spilling onto what is below. A one-line box is left alone:
 * LibreOffice 7.4 shrinks a single line that fits, even with room to spare (docs/export.md, "Fidelity
 * without the faces").
 */
export function shrinksOnOverflow(lines: number): boolean {
  return lines >= 2
}

const position = (box: Box) => ({ x: inch(box.x), y: inch(box.y), w: inch(Math.max(0, box.w)), h: inch(Math.max(0, box.h)) })

// ---------------------------------------------------------------------------------------------
// Post-processing of the package parts

type XmlPatch = (xml: string) => string

/** Edits to the parts pptxgenjs wrote, keyed by slide number and object name, or by chart number. */
class Patches {
  readonly objects = new Map<number, Map<string, XmlPatch[]>>()
  readonly slides = new Map<number, XmlPatch[]>()
  /** Chart patches by the slide and object name of the chart's frame (pptxgenjs numbers chart parts with a counter shared by every presentation of the process). */
  readonly charts = new Map<string, { slide: number; name: string; patches: XmlPatch[] }>()
  /** Relationships added to a slide's part (block links), as `<Relationship>` elements. */
  readonly rels = new Map<number, string[]>()

  rel(slide: number, element: string): void {
    if (!this.rels.has(slide)) this.rels.set(slide, [])
    this.rels.get(slide)!.push(element)
  }

  object(slide: number, name: string, patch: XmlPatch): void {
    if (!this.objects.has(slide)) this.objects.set(slide, new Map())
    const byName = this.objects.get(slide)!
    if (!byName.has(name)) byName.set(name, [])
    byName.get(name)!.push(patch)
  }

  slide(slide: number, patch: XmlPatch): void {
    if (!this.slides.has(slide)) this.slides.set(slide, [])
    this.slides.get(slide)!.push(patch)
  }

  chart(slide: number, name: string, patch: XmlPatch): void {
    const key = `${slide}/${name}`
    if (!this.charts.has(key)) this.charts.set(key, { slide, name, patches: [] })
    this.charts.get(key)!.patches.push(patch)
  }
}

const OBJECT_TAGS = ['p:sp', 'p:pic', 'p:graphicFrame', 'p:cxnSp']

/** Applies `patch` to the top-level object of a slide whose `<p:cNvPr>` carries `name`; the slide unchanged when there is none. */
export function patchObject(xml: string, name: string, patch: XmlPatch): string {
  const found = new RegExp(`<p:cNvPr id="\\d+" name="${escapeRe(escapeXml(name))}"`).exec(xml)
  if (!found) return xml
  let start = -1
  let tag = ''
  for (const t of OBJECT_TAGS) {
    const at = xml.lastIndexOf(`<${t}>`, found.index)
    if (at > start) {
      start = at
      tag = t
    }
  }
  if (start < 0) return xml
  const close = `</${tag}>`
  const end = xml.indexOf(close, found.index)
  if (end < 0) return xml
  return xml.slice(0, start) + patch(xml.slice(start, end + close.length)) + xml.slice(end + close.length)
}

const PPR = /<a:pPr\b[^>]*\/>|<a:pPr\b[^>]*>[\s\S]*?<\/a:pPr>/g

/** pptxgenjs writes a `<a:pPr>` before every run of a paragraph; the schema allows one, first. Keeps the first. */
export function dedupeParagraphProperties(xml: string): string {
  return xml.replace(/<a:p>[\s\S]*?<\/a:p>/g, (p) => {
    let seen = false
    return p.replace(PPR, (ppr) => {
      if (seen) return ''
      seen = true
      return ppr
    })
  })
}

/**
 * Every run kerned, as the renderer draws it (`font-kerning: normal`). `kern` is the smallest size at
 * which a run's pairs are kerned, in hundredths of a point: 1 pt is every size we write. Not 0, which
 * PowerPoint reads as "never" (its own default text style says 12 pt, so smaller runs would not kern).
 */
export function kernedRuns(xml: string): string {
  return xml.replace(/<a:rPr\b(?![^>]*\bkern=)/g, '<a:rPr kern="100"')
}

/** pptxgenjs writes the notes as one run holding line breaks; PowerPoint wants a paragraph per line. */
export function notesParagraphs(xml: string): string {
  return xml.replace(/(<p:ph type="body"[^>]*\/>[\s\S]*?<p:txBody>[\s\S]*?)<a:p><a:r>(<a:rPr[^>]*\/>)<a:t>([^<]*)<\/a:t><\/a:r>(<a:endParaRPr[^>]*\/>)<\/a:p>/, (_all, head: string, rPr: string, text: string, end: string) =>
    head + text.split(/\r?\n/).map((line) => (line ? `<a:p><a:r>${rPr}<a:t>${line}</a:t></a:r>${end}</a:p>` : `<a:p>${end}</a:p>`)).join(''),
  )
}

/** Replaces the paragraph properties of the i-th paragraph of an object's text with `props[i]` (when given). */
function replaceParagraphProperties(xml: string, props: (string | undefined)[]): string {
  let i = 0
  return xml.replace(/<a:p>[\s\S]*?<\/a:p>/g, (p) => {
    const next = props[i++]
    if (next === undefined) return p
    let done = false
    const replaced = p.replace(PPR, (ppr) => {
      if (done) return ''
      done = true
      return next
    })
    return done ? replaced : p.replace('<a:p>', `<a:p>${next}`)
  })
}

/** Adds attributes to an object's `<a:bodyPr>`. */
function bodyAttributes(xml: string, attributes: string): string {
  return xml.replace(/<a:bodyPr\b/, `<a:bodyPr ${attributes}`)
}

// ---------------------------------------------------------------------------------------------
// The zip: read pptxgenjs's stored package, patch its parts, write it deflated

interface Entry {
  name: string
  data: Buffer
}

function readZip(bytes: Buffer): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('unreadable zip'))
      const entries: Entry[] = []
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry()
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('unreadable entry'))
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('error', reject)
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) })
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(entries))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

function crc32(data: Buffer): number {
  let c = -1
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

/** Formats already compressed: stored, not deflated again. */
const STORED = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.xlsx', '.fntdata', '.odttf'])


/** A zip of `entries` in order: XML deflated, compressed formats stored, every time stamp 1980-01-01 (the same deck writes the same bytes). */
export function writeZip(entries: Entry[]): Buffer {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  const DOS_DATE = (0 << 9) | (1 << 5) | 1
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const store = STORED.has(extname(entry.name).toLowerCase())
    const body = store ? entry.data : deflateRawSync(entry.data, { level: 6 })
    const method = store ? 0 : 8
    const crc = crc32(entry.data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(DOS_DATE, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const head = Buffer.alloc(46)
    head.writeUInt32LE(0x02014b50, 0)
    head.writeUInt16LE(20, 4)
    head.writeUInt16LE(20, 6)
    head.writeUInt16LE(0x0800, 8)
    head.writeUInt16LE(method, 10)
    head.writeUInt16LE(0, 12)
    head.writeUInt16LE(DOS_DATE, 14)
    head.writeUInt32LE(crc, 16)
    head.writeUInt32LE(body.length, 20)
    head.writeUInt32LE(entry.data.length, 24)
    head.writeUInt16LE(name.length, 28)
    head.writeUInt32LE(offset, 42)
    central.push(head, name)
    parts.push(local, name, body)
    offset += local.length + name.length + body.length
  }
  const dir = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, dir, end])
}

/** Media parts with the same bytes kept once: relationships retargeted to the first, the others dropped. */
function dedupeMedia(entries: Entry[]): Entry[] {
  const first = new Map<string, string>()
  const alias = new Map<string, string>()
  for (const entry of entries) {
    if (!entry.name.startsWith('ppt/media/')) continue
    const digest = createHash('sha256').update(entry.data).digest('hex')
    const kept = first.get(digest)
    if (kept) alias.set(entry.name.slice('ppt/'.length), kept.slice('ppt/'.length))
    else first.set(digest, entry.name)
  }
  if (!alias.size) return entries
  return entries
    .filter((entry) => !alias.has(entry.name.slice('ppt/'.length)))
    .map((entry) => {
      if (!entry.name.endsWith('.rels')) return entry
      let xml = entry.data.toString('utf8')
      let changed = false
      xml = xml.replace(/Target="\.\.\/(media\/[^"]+)"/g, (all, target: string) => {
        const to = alias.get(target)
        if (!to) return all
        changed = true
        return `Target="../${to}"`
      })
      return changed ? { name: entry.name, data: Buffer.from(xml, 'utf8') } : entry
    })
}

// ---------------------------------------------------------------------------------------------
// Pictures

interface PictureFile {
  data: string
  width: number
  height: number
  format: string
  /** The vector, when the asset is an SVG (written beside the PNG unless svgVector is off). */
  svg?: Buffer
}

/** The picture file of an asset as pptxgenjs takes it: PNG, JPEG or GIF as stored; an SVG by its largest PNG twin; WebP and AVIF converted to PNG. */
async function pictureFile(path: string, cache: Map<string, PictureFile | null>, svgScale = 3): Promise<PictureFile | null> {
  const key = `${path}@${svgScale}`
  if (cache.has(key)) return cache.get(key)!
  let file: PictureFile | null = null
  try {
    let source = path
    let ext = extname(path).toLowerCase()
    const svg = ext === '.svg' ? readAssetSync(path) : undefined
    if (ext === '.svg') {
      const dir = join(path, '..')
      const id = path.split('/').pop()!.replace(/\..*$/, '')
      const twins = readdirSync(dir)
        .map((name) => ({ name, scale: Number(new RegExp(`^${escapeRe(id)}@(\\d+)x\\.png$`).exec(name)?.[1] ?? NaN) }))
        .filter((t) => Number.isFinite(t.scale))
        .sort((a, b) => b.scale - a.scale)
      // The twin at the asked scale, else the largest.
      const twin = twins.find((t) => t.scale === svgScale) ?? twins[0]
      if (twin) {
        source = join(dir, twin.name)
        ext = '.png'
      }
    }
    let bytes: Buffer = readAssetSync(source)
    let format = ext.replace('.', '')
    if (!['.png', '.jpg', '.jpeg', '.gif'].includes(ext)) {
      bytes = await sharp(bytes, { density: 144 }).png().toBuffer()
      format = 'png'
    }
    const meta = await sharp(bytes).metadata()
    const mime = format === 'jpg' || format === 'jpeg' ? 'image/jpeg' : `image/${format}`
    file = { data: `${mime};base64,${bytes.toString('base64')}`, width: meta.width ?? 1, height: meta.height ?? 1, format: format === 'jpeg' ? 'jpg' : format, ...(svg ? { svg } : {}) }
  } catch {
    file = null
  }
  cache.set(key, file)
  return file
}

/** A picture's shape (its alpha) filled with one colour; no vector, which would draw the original colours. */
async function inked(file: PictureFile, ink: string, cache: Map<string, PictureFile | null>): Promise<PictureFile> {
  const key = `${createHash('sha256').update(file.data).digest('hex')}@ink${ink}`
  const hit = cache.get(key)
  if (hit) return hit
  const source = Buffer.from(file.data.slice(file.data.indexOf(',') + 1), 'base64')
  const alpha = await sharp(source).ensureAlpha().extractChannel(3).toBuffer()
  const bytes = await sharp({ create: { width: file.width, height: file.height, channels: 3, background: ink } }).joinChannel(alpha).png().toBuffer()
  const out: PictureFile = { data: `image/png;base64,${bytes.toString('base64')}`, width: file.width, height: file.height, format: 'png' }
  cache.set(key, out)
  return out
}

interface PicturePlacement {
  /** The frame of the picture on the sheet, unrotated. */
  frame: Box
  /** Fractions of the source trimmed from each side (OOXML srcRect). */
  src: { l: number; t: number; r: number; b: number }
}

/**
 * Where the renderer's picture lands, as a PPTX picture frame and its source rectangle: the element
 * of 1/(1 − crop) the box's size, offset by the crop, with the file drawn into it by `fit` (cover or
 * contain), mirrored by `flip`, seen through the window `window` of the box (the box itself, or the
 * centred square a circle mask leaves). The frame is the part of the window the picture covers.
 */
export function placePicture(
  box: Box,
  height: number,
  natural: { width: number; height: number },
  block: { crop?: unknown; fit?: unknown; flip?: unknown; [key: string]: unknown },
  window: Box = { x: 0, y: 0, w: box.w, h: height },
): PicturePlacement | undefined {
  const crop = (block.crop ?? {}) as { left?: number; right?: number; top?: number; bottom?: number }
  const flip = (block.flip ?? {}) as { h?: boolean; v?: boolean }
  const l = num(crop.left) ?? 0
  const r = num(crop.right) ?? 0
  const t = num(crop.top) ?? 0
  const b = num(crop.bottom) ?? 0
  const sw = Math.max(0.01, 1 - l - r)
  const sh = Math.max(0.01, 1 - t - b)
  const area = { w: box.w / sw, h: height / sh }
  const scale = block.fit === 'contain' ? Math.min(area.w / natural.width, area.h / natural.height) : Math.max(area.w / natural.width, area.h / natural.height)
  const image = { w: natural.width * scale, h: natural.height * scale }
  const ox = (area.w - image.w) / 2
  const oy = (area.h - image.h) / 2
  const axis = (start: number, size: number, areaSize: number, wa: number, wb: number, mirrored: boolean, offset: number, extent: number) => {
    // The window [wa, wb] of the box, in the (unmirrored) element's coordinates.
    const lo = mirrored ? areaSize - start * areaSize - wb : start * areaSize + wa
    const hi = mirrored ? areaSize - start * areaSize - wa : start * areaSize + wb
    const i0 = Math.max(lo, offset)
    const i1 = Math.min(hi, offset + extent)
    if (i1 - i0 <= 1e-6) return undefined
    const f0 = mirrored ? areaSize - start * areaSize - i1 : i0 - start * areaSize
    return { from: f0, size: i1 - i0, src0: (i0 - offset) / extent, src1: 1 - (i1 - offset) / extent }
  }
  const x = axis(l, box.w, area.w, window.x, window.x + window.w, flip.h === true, ox, image.w)
  const y = axis(t, height, area.h, window.y, window.y + window.h, flip.v === true, oy, image.h)
  if (!x || !y) return undefined
  return { frame: { x: box.x + x.from, y: box.y + y.from, w: x.size, h: y.size }, src: { l: x.src0, t: y.src0, r: x.src1, b: y.src1 } }
}

// ---------------------------------------------------------------------------------------------
// The writer

/** pptxgenjs's class: its ESM build's default export (its types describe the CommonJS one). */
const PptxGenJS = pptxgen as unknown as typeof pptxgen.default
type PptxSlide = ReturnType<InstanceType<typeof PptxGenJS>['addSlide']>
type TextProps = pptxgen.default.TextProps

interface TextBase {
  face: string
  sizePx: number
  bold: boolean
  /** The weight the renderer draws (400 when absent; 600 when bold and absent). */
  weight?: number
  color: string
  align?: string
  lineSpacingPt: number
  beforePx?: number
  afterPx?: number
  transparency?: number
}

class NativeWriter {
  readonly pptx = new PptxGenJS()
  readonly patches = new Patches()
  readonly report: NativeReport = { pages: 0, bytes: 0, fonts: [], rasters: [], cannot: [] }
  private readonly paint: Paint
  private readonly fonts: ThemeFonts
  private readonly assets: Map<string, string>
  private readonly variants: Variants
  private readonly files = new Map<string, PictureFile | null>()
  private readonly faces = new Set<string>()
  /** The Noto faces runs name for CJK, Arabic and Hebrew text (src/export/pptx-scripts.ts). */
  private readonly scriptFaces = new Set<string>()
  /** Each typeface named, with the family it stands for, its export face and the styles runs use it in (for embedding). */
  private readonly slots = new Map<string, { family: string; face?: ExportFace; slots: Set<FontSlot> }>()
  private readonly outputIndex = new Map<string, number>()
  private readonly deckNumber = new Map<string, number>()
  private links = 0
  /** Heading pictures drawn by the renderer (headings: raster), by `<slideId>#<blockId>`. */
  headingPictures = new Map<string, { data: string; width: number; height: number; box: Box }>()

  constructor(private readonly options: NativeOptions) {
    const manifest = options.doc.manifest
    this.paint = paintFor(manifest, options.appearance)
    this.fonts = themeFonts(manifest)
    this.assets = assetFiles(options.deckDir)
    this.variants = new Variants(options.deckDir, manifest, options.root)
    options.slides.forEach((slide, i) => this.outputIndex.set(slide.id, i + 1))
    manifest.sections.flatMap((s) => s.slides).forEach((id, i) => this.deckNumber.set(id, i + 1))
    this.pptx.defineLayout({ name: 'STUDIO_SHEET', width: 1600 / PX_PER_INCH, height: 900 / PX_PER_INCH })
    this.pptx.layout = 'STUDIO_SHEET'
    this.pptx.title = manifest.title
    this.pptx.subject = manifest.title
    this.pptx.company = 'Deck Studio'
    this.pptx.theme = { headFontFace: this.fonts.heading, bodyFontFace: this.fonts.body }
  }

  private cannot(where: string, what: string): void {
    this.report.cannot.push(`${where}: ${what}`)
  }

  /** The typeface a run names (the export set's face for its size and weight), recorded with the style it is used in. */
  private face(family: string, sizePx: number, weight: number, italic = false): { typeface: string; bold: boolean } {
    const chosen = exportTypeface(this.options.fontSet ?? 'standard', family, pt(sizePx), weight)
    this.faces.add(chosen.typeface)
    const slot = chosen.bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular'
    if (!this.slots.has(chosen.typeface)) this.slots.set(chosen.typeface, { family, face: chosen.face, slots: new Set() })
    this.slots.get(chosen.typeface)!.slots.add(slot)
    return chosen
  }

  get manifest(): Manifest {
    return this.options.doc.manifest
  }

  async write(): Promise<{ bytes: Buffer; report: NativeReport }> {
    let n = 0
    for (const slide of this.options.slides) await this.slide(slide, ++n)
    const raw = (await this.pptx.write({ outputType: 'nodebuffer' })) as Buffer
    let parts = dedupeMedia(await readZip(raw))
    parts = [...parts, ...this.extraParts.values()]
    if (this.options.embedFonts) parts = this.withFonts(parts)
    const chartPatches = this.chartParts(parts)
    const names = parts.map((entry) => entry.name)
    const entries = (await Promise.all(parts.map((entry) => this.patchEntry(entry, chartPatches)))).map((entry) =>
      entry.name === '[Content_Types].xml' ? { name: entry.name, data: Buffer.from(withoutAbsentOverrides(entry.data.toString('utf8'), names), 'utf8') } : entry,
    )
    const bytes = writeZip(entries)
    this.report.pages = this.options.slides.length
    this.report.bytes = bytes.length
    this.report.fonts = [...this.faces].sort()
    this.report.scriptFaces = [...this.scriptFaces].sort()
    return { bytes, report: this.report }
  }

  /** Parts added after pptxgenjs (SVG vectors), by name. */
  readonly extraParts = new Map<string, Entry>()

  /** The package with the faces of every typeface used embedded (src/export/embed-fonts.ts). */
  private withFonts(parts: Entry[]): Entry[] {
    const relsName = 'ppt/_rels/presentation.xml.rels'
    const relsXml = parts.find((p) => p.name === relsName)?.data.toString('utf8') ?? ''
    const firstRel = Math.max(0, ...[...relsXml.matchAll(/Id="rId(\d+)"/g)].map((m) => Number(m[1]))) + 1
    const requests = [...this.slots].map(([typeface, { family, face, slots }]) => ({ typeface, family, face, slots }))
    const fonts = embedFonts(requests, firstRel)
    this.report.cannot.push(...fonts.cannot)
    this.report.embedded = fonts.embedded
    if (!fonts.parts.length) return parts
    return [
      ...parts.map((entry) => {
        const xml = () => entry.data.toString('utf8')
        if (entry.name === relsName) return { name: entry.name, data: Buffer.from(xml().replace('</Relationships>', `${fonts.rels.join('')}</Relationships>`), 'utf8') }
        if (entry.name === 'ppt/presentation.xml') return { name: entry.name, data: Buffer.from(withEmbeddedFontList(xml(), fonts.list), 'utf8') }
        if (entry.name === '[Content_Types].xml' && !/Extension="fntdata"/.test(xml())) return { name: entry.name, data: Buffer.from(xml().replace(/(<Types[^>]*>)/, '$1<Default Extension="fntdata" ContentType="application/x-fontdata"/>'), 'utf8') }
        return entry
      }),
      ...fonts.parts,
    ]
  }

  /** The chart part each chart patch is for: the frame's `c:chart` relationship in its slide's part. */
  private chartParts(entries: Entry[]): Map<string, XmlPatch[]> {
    const out = new Map<string, XmlPatch[]>()
    const byName = new Map(entries.map((e) => [e.name, e]))
    for (const { slide, name, patches } of this.patches.charts.values()) {
      const xml = byName.get(`ppt/slides/slide${slide}.xml`)?.data.toString('utf8') ?? ''
      let rid: string | undefined
      patchObject(xml, name, (frame) => {
        rid = /<c:chart r:id="([^"]+)"/.exec(frame)?.[1]
        return frame
      })
      const rels = byName.get(`ppt/slides/_rels/slide${slide}.xml.rels`)?.data.toString('utf8') ?? ''
      const target = rid ? new RegExp(`<Relationship Id="${escapeRe(rid)}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] : undefined
      if (!target) continue
      const part = target.startsWith('/') ? target.slice(1) : `ppt/slides/${target}`.replace(/[^/]+\/\.\.\//g, '')
      out.set(part, [...(out.get(part) ?? []), ...patches])
    }
    return out
  }

  private async patchEntry(entry: Entry, chartPatches: Map<string, XmlPatch[]>): Promise<Entry> {
    // pptxgenjs stores each chart's workbook uncompressed and stamped with the time: re-zipped deflated, 1980-01-01.
    if (/^ppt\/embeddings\/.+\.xlsx$/.test(entry.name)) return { name: entry.name, data: writeZip((await readZip(entry.data)).map((part) => this.stamped(part))) }
    return this.patchXml(this.stamped(entry), chartPatches)
  }

  /** Document properties dated by the deck's last change rather than the time of writing: the same deck writes the same bytes. */
  private stamped(entry: Entry): Entry {
    if (entry.name !== 'docProps/core.xml') return entry
    const at = this.manifest.stamps?.updatedAt
    if (!at || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(at)) return entry
    const stamp = at.replace(/\.\d+Z$/, 'Z')
    const xml = entry.data.toString('utf8').replace(/(<dcterms:(?:created|modified)[^>]*>)[^<]*(<\/dcterms:)/g, `$1${stamp}$2`)
    return { name: entry.name, data: Buffer.from(xml, 'utf8') }
  }

  private patchXml(entry: Entry, chartPatches: Map<string, XmlPatch[]>): Entry {
    if (/^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(entry.name)) return { name: entry.name, data: Buffer.from(notesParagraphs(entry.data.toString('utf8')), 'utf8') }
    const rels = /^ppt\/slides\/_rels\/slide(\d+)\.xml\.rels$/.exec(entry.name)
    if (rels) {
      const added = this.patches.rels.get(Number(rels[1]))
      if (!added?.length) return entry
      return { name: entry.name, data: Buffer.from(entry.data.toString('utf8').replace('</Relationships>', `${added.join('')}</Relationships>`), 'utf8') }
    }
    const master = /^ppt\/(slideMasters\/slideMaster|slideLayouts\/slideLayout)\d+\.xml$/.exec(entry.name)
    if (master) {
      const title = slotBoxes('title-body').title ?? { x: 96, y: 64, w: 1408, h: 120 }
      const box = { x: emu(title.x), y: emu(title.y), w: emu(title.w), h: emu(title.h) }
      return { name: entry.name, data: Buffer.from(withTitlePlaceholder(entry.data.toString('utf8'), master[1].startsWith('slideMasters') ? 'master' : 'layout', box), 'utf8') }
    }
    if (/^ppt\/theme\/theme\d+\.xml$/.test(entry.name)) return { name: entry.name, data: Buffer.from(withSchemeScriptFaces(this.themeColours(entry.data.toString('utf8'))), 'utf8') }
    const slide = /^ppt\/slides\/slide(\d+)\.xml$/.exec(entry.name)
    const chart = /^ppt\/charts\/chart(\d+)\.xml$/.exec(entry.name)
    if (!slide && !chart) return entry
    let xml = entry.data.toString('utf8')
    if (slide) {
      const number = Number(slide[1])
      xml = dedupeParagraphProperties(xml)
      for (const [name, patches] of this.patches.objects.get(number) ?? []) for (const patch of patches) xml = patchObject(xml, name, patch)
      for (const patch of this.patches.slides.get(number) ?? []) xml = patch(xml)
      xml = kernedRuns(withScriptFaces(xml, this.scriptFaces))
    } else {
      for (const patch of chartPatches.get(entry.name) ?? []) xml = patch(xml)
    }
    return { name: entry.name, data: Buffer.from(xml, 'utf8') }
  }

  /**
   * The theme's colour scheme as the deck's palette in this appearance (pptxgenjs writes Office's):
   * dark 1 the ink, light 1 the paper, dark 2 muted, light 2 the rule, accents 1..6 the chart colours
   * (as the charts take them), links the accent. A shape or chart a person adds in PowerPoint takes the
   * deck's colours, and its colour picker offers them.
   */
  private themeColours(xml: string): string {
    const c = (token: string) => `<a:srgbClr val="${hex(colour(this.paint, token))}"/>`
    const accents = Array.from({ length: 6 }, (_, i) => `<a:accent${i + 1}><a:srgbClr val="${hex(seriesColour(this.paint, i))}"/></a:accent${i + 1}>`).join('')
    const scheme =
      `<a:clrScheme name="${escapeXml(this.paint.theme.id)} ${this.options.appearance}"><a:dk1>${c('ink')}</a:dk1><a:lt1>${c('paper')}</a:lt1><a:dk2>${c('muted')}</a:dk2><a:lt2>${c('rule')}</a:lt2>` +
      `${accents}<a:hlink>${c('accent')}</a:hlink><a:folHlink>${c('muted')}</a:folHlink></a:clrScheme>`
    return xml.replace(/<a:clrScheme [^>]*>[\s\S]*?<\/a:clrScheme>/, scheme)
  }

  // -- slides ----------------------------------------------------------------------------------

  private async slide(slide: Slide, number: number): Promise<void> {
    const s = this.pptx.addSlide()
    const names = new Set<string>()
    const ctx: SlideCtx = {
      slide,
      s,
      number,
      names,
      placements: new Map(),
      fits: new Map(),
      name: (base: string) => {
        let name = base
        for (let i = 2; names.has(name); i++) name = `${base} ${i}`
        names.add(name)
        return name
      },
    }
    s.background = { color: hex(colour(this.paint, slide.background ?? this.manifest.background, 'paper')) }
    if (slide.skip) s.hidden = true
    if (this.options.includeNotes && slide.notes) s.addNotes(slide.notes)
    const { items, slots } = drawn(slide, this.fonts)
    ctx.fits = drawnFits(slide, this.fonts, { items, slots })
    for (const item of items) ctx.placements.set(item.block.id, placementOf(item))
    const freeform = slide.layout === 'freeform' || !LAYOUT_SLOTS[slide.layout]
    const order = freeform ? [...items].sort((a, b) => (num(a.block.z) ?? 0) - (num(b.block.z) ?? 0)) : [...items.filter((i) => !i.slot), ...slots.flatMap((fill) => items.filter((i) => i.slot === fill.slot))]
    for (const fill of slots) {
      if (fill.overflow <= 0) continue
      // Text cut to its whole lines ends on the slot (and is reported with its block); anything else past the bottom shows.
      const bottom = fill.box.y + fill.box.h
      const past = items.filter((i) => i.slot === fill.slot && i.box.y + i.box.h > bottom + 0.5 && ctx.fits.get(i.block.id)?.clip === undefined && !ctx.fits.get(i.block.id)?.rows)
      if (past.length) this.cannot(slide.id, `slot ${fill.slot} runs ${Math.round(fill.overflow)} px past its bottom; the renderer clips it, PowerPoint shows it`)
    }
    // The title (the block read first, when it is one) is the slide's title placeholder.
    const title = titleBlock({ ...slide, blocks: items.map((item) => item.block) })
    const reading = new Map(blocksInReadingOrder({ ...slide, blocks: items.map((item) => item.block) }).map((block, i) => [block, i]))
    // Each shape's place in reading order, by its name: a block's shapes at the block's, the cover rule and furniture after every block.
    const rank = new Map<string, number>()
    for (const item of order) {
      const before = new Set(names)
      await this.block(ctx, item)
      const added = [...names].filter((name) => !before.has(name))
      for (const name of added) rank.set(name, reading.get(item.block) ?? items.length)
      if (item.block === title && added.length === 1) this.patches.object(number, added[0], asTitlePlaceholder)
    }
    const ofBlocks = new Set(names)
    this.coverRule(ctx, items)
    await this.furniture(ctx)
    for (const [i, name] of [...names].filter((name) => !ofBlocks.has(name)).entries()) rank.set(name, items.length + 1 + i)
    this.patches.slide(number, (xml) => inReadingOrder(xml, rank))
  }

  private coverRule(ctx: SlideCtx, items: Drawn[]): void {
    const rule = this.paint.theme.cover.rule
    if (rule === 'none' || !['title', 'section', 'closing'].includes(ctx.slide.layout)) return
    const title = items.find((item) => item.slot === 'title')
    if (!title) return
    const { x, y, h } = title.box
    const box = rule === 'top' ? { x, y: Math.max(0, y - 40), w: 120, h: 10 } : { x: Math.max(0, x - 48), y, w: 10, h }
    ctx.s.addShape('rect', { ...position(box), fill: { color: hex(colour(this.paint, 'accent')) }, objectName: ctx.name('cover rule') })
  }

  private async furniture(ctx: SlideCtx): Promise<void> {
    const footer = footerBand(ctx.slide.layout)
    if (!footer) return
    const footerUsed = !showsKitFooter(ctx.slide)
    const muted = colour(this.paint, 'muted')
    const logoId = this.manifest.brandKit?.footerLogo
    let logoFile = !footerUsed && logoId ? await this.assetPicture(logoId) : null
    // On a ground the drawing does not read on, its shape in one colour that does (as the renderer draws it).
    const ink = logoFile && logoId ? logoInkOn(this.paint, colour(this.paint, ctx.slide.background ?? this.manifest.background, 'paper'), assetSize(this.options.deckDir, logoId).readsOn) : undefined
    if (logoFile && ink) logoFile = await inked(logoFile, ink, this.files)
    const base: TextBase = { face: this.fonts.body, sizePx: 20, bold: false, color: muted, lineSpacingPt: pt(footer.h) }
    const lineHeight = footer.h / 20
    if (!footerUsed && this.manifest.brandKit?.footer) {
      const box = { x: footer.x, y: footer.y, w: footer.w - 160 - (logoFile ? 256 : 0), h: footer.h }
      this.textBox(ctx, ctx.name('footer'), [[{ text: this.manifest.brandKit.footer, marks: {} }]], base, box, { lineHeight, weight: 400, wrap: false })
    }
    const number = this.deckNumber.get(ctx.slide.id)
    const counter = Boolean(this.manifest.defaults?.counter && number !== undefined)
    if (counter) {
      const name = ctx.name('slide number')
      const box = { x: footer.x + footer.w - 120, y: footer.y, w: 120, h: footer.h }
      this.textBox(ctx, name, [[{ text: String(number), marks: {} }]], { ...base, align: 'right' }, box, { lineHeight, weight: 400, wrap: false })
      // The number is a slide-number field where the file's numbering is the deck's (nothing before it was left out).
      if (number === ctx.number) {
        this.patches.object(ctx.number, name, (xml) => xml.replace(/<a:r>(<a:rPr[\s\S]*?)<\/a:r>/, '<a:fld id="{8F2C1A52-3E1B-4C8A-9D0E-5A7B6C4D3E21}" type="slidenum">$1</a:fld>'))
      }
    }
    if (logoFile && logoId) {
      const right = footer.x + footer.w - (counter ? 72 : 0)
      const w = Math.min(240, (footer.h * logoFile.width) / logoFile.height)
      const h = (w * logoFile.height) / logoFile.width
      const box = { x: right - w, y: footer.y + (footer.h - h) / 2, w, h }
      const name = ctx.name('footer logo')
      ctx.s.addImage({ data: logoFile.data, ...position(box), altText: this.assetAlt(logoId), objectName: name })
      const svgBlip = logoFile.svg && this.options.svgVector !== false ? this.svgBlip(ctx, logoFile.svg) : ''
      if (svgBlip) this.patches.object(ctx.number, name, (xml) => xml.replace('</a:blip>', `${svgBlip}</a:blip>`))
      this.report.rasters.push(`${ctx.slide.id}#footer-logo ${logoFile.format} ${logoFile.width}x${logoFile.height}`)
    }
  }

  /**
   * The picture file of an asset in this export's appearance, or null. A logo (logo.insert) is drawn
   * from its PNG twin and keeps its drawing as `<id>.source.svg`: that vector goes beside the PNG as
   * an uploaded SVG's does. Other assets' sources (a two-tone picture's continuous source) are not
   * what they show, so only logos take theirs.
   */
  private async assetPicture(assetId: string): Promise<PictureFile | null> {
    const path = this.assets.get(assetId)
    const file = path ? await pictureFile(themedFile(path, this.options.appearance), this.files, this.svgScale) : null
    if (!file || file.svg) return file
    const svg = this.logoVector(assetId)
    return svg ? { ...file, svg } : file
  }

  private logoVector(assetId: string): Buffer | undefined {
    const record = this.assetRecord(assetId)
    const source = str(record?.sourceFile)
    if (record?.role !== 'logo' || !source || source !== `${assetId}.source.svg`) return undefined
    try {
      return readAssetSync(join(this.options.deckDir, 'assets', source))
    } catch {
      return undefined
    }
  }

  private assetRecord(id: string): Record<string, unknown> | undefined {
    const record = join(this.options.deckDir, 'assets', `${id}.json`)
    if (!existsSync(record)) return undefined
    try {
      return JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>
    } catch {
      return undefined
    }
  }

  private assetAlt(id: string): string {
    const record = join(this.options.deckDir, 'assets', `${id}.json`)
    if (!existsSync(record)) return ''
    try {
      return str((JSON.parse(readFileSync(record, 'utf8')) as { alt?: unknown }).alt) ?? ''
    } catch {
      return ''
    }
  }

  // -- blocks ----------------------------------------------------------------------------------

  private async block(ctx: SlideCtx, item: Drawn): Promise<void> {
    const { block } = item
    const where = `${ctx.slide.id}#${block.id}`
    const names = new Set(ctx.names)
    await this.drawBlock(ctx, item, where)
    if (block.link && typeof block.link === 'object') this.blockLink(ctx, block, [...ctx.names].filter((n) => !names.has(n)), where)
  }

  /** A block's link (`link: { url } | { slide }`) on every object drawn for it: `<a:hlinkClick>` in each one's `<p:cNvPr>`, and the relationship it names. */
  private blockLink(ctx: SlideCtx, block: Block, names: string[], where: string): void {
    const link = block.link as { url?: unknown; slide?: unknown }
    let click: string
    let rel: string
    const id = `rIdLink${++this.links}`
    if (typeof link.url === 'string') {
      click = `<a:hlinkClick r:id="${id}"/>`
      rel = `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${escapeXml(link.url)}" TargetMode="External"/>`
    } else if (typeof link.slide === 'string' && this.outputIndex.has(link.slide)) {
      click = `<a:hlinkClick r:id="${id}" action="ppaction://hlinksldjump"/>`
      rel = `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slide${this.outputIndex.get(link.slide)}.xml"/>`
    } else {
      this.cannot(where, `the link to slide ${String(link.slide)}, which is not in this file`)
      return
    }
    this.patches.rel(ctx.number, rel)
    for (const name of names) {
      this.patches.object(ctx.number, name, (xml) =>
        xml.replace(/<p:cNvPr( [^>]*?)(\/>|>)/, (_all, attributes: string, end: string) => (end === '/>' ? `<p:cNvPr${attributes}>${click}</p:cNvPr>` : `<p:cNvPr${attributes}>${click}`)),
      )
    }
  }

  private async drawBlock(ctx: SlideCtx, item: Drawn, where: string): Promise<void> {
    const { block } = item
    switch (block.kind) {
      case 'text':
      case 'heading':
      case 'textbox':
        if (block.kind === 'heading' && this.options.headingsRaster) return this.headingPicture(ctx, item)
        return this.textBlock(ctx, item)
      case 'list':
        return this.listBlock(ctx, item)
      case 'table':
        return this.tableBlock(ctx, item)
      case 'picture':
        return this.pictureBlock(ctx, item)
      case 'shape':
        return this.shapeBlock(ctx, item)
      case 'line':
        return this.lineBlock(ctx, item)
      case 'chart':
        return this.chartBlock(ctx, item)
      case 'shader':
        return this.shaderBlock(ctx, item)
      case 'html':
        this.cannot(where, 'HTML blocks are not drawn (a placeholder stands for it, as in the renderer)')
        return this.placeholder(ctx, item, item.box, 'HTML block (not drawn: HTML blocks are off)')
      default:
        this.cannot(where, `unknown kind ${block.kind}`)
    }
  }

  private common(block: Block): { rotate?: number; shadow?: pptxgen.default.ShadowProps; transparency: number } {
    const angle = num(block.angle)
    const transparency = Math.max(0, Math.min(1, num(block.transparency) ?? 0))
    return { ...(angle ? { rotate: angle } : {}), ...(this.shadow(block) ? { shadow: this.shadow(block) } : {}), transparency: Math.round(transparency * 100) }
  }

  private shadow(block: Block): pptxgen.default.ShadowProps | undefined {
    const shadow = block.shadow as { color?: string; opacity?: number; angle?: number; distance?: number; blur?: number } | undefined
    if (!shadow || typeof shadow !== 'object') return undefined
    const opacity = num(shadow.opacity) ?? 0.3
    return {
      type: 'outer',
      angle: num(shadow.angle) ?? 45,
      offset: pt(num(shadow.distance) ?? 8),
      blur: pt(num(shadow.blur) ?? 16),
      color: hex(colour(this.paint, shadow.color, 'ink')),
      opacity: opacity === 0 ? 0.0001 : opacity,
    }
  }

  /** The paragraphs of a Text as pptxgenjs runs: one paragraph per run list, every mark carried. */
  private runs(paragraphs: Run[][], base: TextBase, where: string): TextProps[] {
    const out: TextProps[] = []
    const para = {
      align: (base.align ?? 'left') as pptxgen.default.HAlign,
      lineSpacing: base.lineSpacingPt,
      ...(base.beforePx ? { paraSpaceBefore: pt(base.beforePx) } : {}),
      ...(base.afterPx ? { paraSpaceAfter: pt(base.afterPx) } : {}),
    }
    const weight = base.bold ? Math.max(600, base.weight ?? 700) : Math.min(base.weight ?? 400, 500)
    const faceOf = (sizePx: number, italic: boolean) => {
      const chosen = this.face(base.face, sizePx, weight, italic)
      return { fontFace: chosen.typeface, ...(chosen.bold ? { bold: true } : {}) }
    }
    // The first paragraph's space before goes into the box's top inset (textBox): LibreOffice drops it.
    const { paraSpaceBefore: _first, ...firstPara } = para as typeof para & { paraSpaceBefore?: number }
    paragraphs.forEach((runs, p) => {
      const last = p === paragraphs.length - 1
      const paraOptions = p === 0 ? firstPara : para
      if (!runs.length) {
        out.push({ text: '', options: { ...paraOptions, ...faceOf(base.sizePx, false), fontSize: pt(base.sizePx), color: hex(base.color), breakLine: !last } })
        return
      }
      runs.forEach((run, r) => {
        const m = run.marks
        const options: pptxgen.default.TextPropsOptions = {
          ...paraOptions,
          ...faceOf(m.size ?? base.sizePx, m.italic === true),
          fontSize: pt(m.size ?? base.sizePx),
          color: hex(m.color ? colour(this.paint, m.color) : base.color),
          ...(m.italic ? { italic: true } : {}),
          ...(m.underline ? { underline: { style: 'sng' } } : {}),
          ...(m.strike ? { strike: 'sngStrike' } : {}),
          // The renderer raises superscript 0.45 em and lowers subscript 0.25 em of its 0.7 em text: 31.5 % and 17.5 % of the size.
          ...(m.superscript ? { baseline: 630 } : m.subscript ? { baseline: -350 } : {}),
          ...(m.highlight ? { highlight: hex(colour(this.paint, m.highlight, 'highlight')) } : {}),
          ...(base.transparency ? { transparency: base.transparency } : {}),
          breakLine: r === runs.length - 1 && !last,
        }
        const href = m.href
        if (href) {
          if (href.startsWith('#slide:')) {
            const target = this.outputIndex.get(href.slice('#slide:'.length))
            if (target) options.hyperlink = { slide: target }
            else this.cannot(where, `the link to slide ${href.slice('#slide:'.length)}, which is not in this file`)
          } else options.hyperlink = { url: href }
        }
        out.push({ text: run.text, options })
      })
    })
    return out
  }

  /**
   * One text box: runs at `box`, margins zero (or the given insets), exact line spacing, top
   * anchored unless told, shrink on overflow when it wraps two lines or more (`shrinksOnOverflow`);
   * moved by the LibreOffice first-baseline offset when asked.
   */
  private textBox(
    ctx: SlideCtx,
    name: string,
    paragraphs: Run[][],
    base: TextBase,
    box: Box,
    style: { lineHeight: number; weight: number; lines?: number; valign?: string; inset?: { l: number; t: number; r: number; b: number }; wrap?: boolean; extra?: Partial<pptxgen.default.TextPropsOptions>; paragraphProps?: (string | undefined)[]; columns?: number; firstBefore?: number },
  ): void {
    const inset = style.inset ?? { l: 0, t: 0, r: 0, b: 0 }
    const shift = this.options.baseline === 'libreoffice' ? firstBaselineShift(base.face, style.weight, base.sizePx, style.lineHeight) : 0
    const valign = style.valign ?? 'top'
    // Insets in points; pptxgenjs's margin array is [left, right, bottom, top].
    // The renderer pads the first paragraph by its space before; LibreOffice ignores space before a box's first
    // paragraph. It goes into the top inset, which moves the text as the padding does whatever the anchor.
    const before = style.firstBefore ?? base.beforePx ?? 0
    const top = inset.t + before + shift
    const bottom = inset.b - shift
    const moved = { ...box }
    const shrink = style.wrap !== false && shrinksOnOverflow(style.lines ?? 1)
    if (shrink) {
      // LibreOffice shrinks a box of whole lines that fits exactly; a point of room below the last line (above
      // the first for bottom-anchored text, half and half when centred) leaves the text where it was.
      moved.h += SHRINK_ROOM
      moved.y -= valign === 'bottom' ? SHRINK_ROOM : valign === 'middle' ? SHRINK_ROOM / 2 : 0
    }
    let margin: number[]
    if (top >= 0 && bottom >= 0) margin = [pt(inset.l), pt(inset.r), pt(bottom), pt(top)]
    else {
      // A negative inset is not allowed: move the box instead.
      moved.y += shift
      margin = [pt(inset.l), pt(inset.r), pt(inset.b), pt(inset.t + before)]
    }
    const options: pptxgen.default.TextPropsOptions = {
      ...position(moved),
      margin: margin as pptxgen.default.Margin,
      valign: valign as pptxgen.default.VAlign,
      wrap: style.wrap ?? true,
      fit: shrink ? 'shrink' : 'none',
      isTextBox: true,
      objectName: name,
      ...style.extra,
    }
    ctx.s.addText(this.runs(paragraphs, base, `${ctx.slide.id}#${name}`), options)
    if (style.paragraphProps) this.patches.object(ctx.number, name, (xml) => replaceParagraphProperties(xml, style.paragraphProps!))
    const columns = style.columns && style.columns > 1 ? Math.min(3, Math.floor(style.columns)) : 0
    if (columns) this.patches.object(ctx.number, name, (xml) => bodyAttributes(xml, `numCol="${columns}" spcCol="${emu(COLUMN_GAP)}"`))
  }

  private style(ctx: SlideCtx, block: Block, slot: string | undefined): TextStyle {
    const style = textStyle(block, ctx.slide.layout, slot, this.fonts)
    const fit = ctx.fits.get(block.id)
    return fit ? { ...style, size: fit.size } : style
  }

  /**
   * A text's paragraphs cut to the whole lines the renderer draws (a PPTX text box has no clip), with
   * what was left out in the report.
   */
  private drawnParagraphs(ctx: SlideCtx, block: Block, paragraphs: Run[][]): Run[][] {
    const fit = ctx.fits.get(block.id)
    if (!fit?.chars) return paragraphs
    this.reportClip(ctx, block, fit)
    return fit.chars.map((chars, i) => cutRuns(paragraphs[i] ?? [], chars)).filter((runs, i) => runs.length > 0 || (paragraphs[i] ?? []).length === 0)
  }

  private reportClip(ctx: SlideCtx, block: Block, fit: Fit): void {
    this.cannot(`${ctx.slide.id}#${block.id}`, `the text past the ${fit.lines!.reduce((a, b) => a + b, 0)} whole lines that fit its box (left out, as the render clips it)`)
  }

  private textBase(ctx: SlideCtx, block: Block, slot: string | undefined, transparency: number): { base: TextBase; style: TextStyle } {
    const style = this.style(ctx, block, slot)
    const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
    const base: TextBase = {
      face: block.kind === 'heading' ? this.fonts.heading : this.fonts.body,
      sizePx: style.size,
      bold: style.weight >= 600,
      weight: style.weight,
      color: colour(this.paint, block.color, 'ink'),
      align: str(block.align) ?? (block.kind === 'shape' ? 'center' : undefined),
      lineSpacingPt: pt(style.size * style.lineHeight),
      beforePx: num(spacing.before),
      afterPx: num(spacing.after),
      transparency,
    }
    return { base, style }
  }

  private textBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const common = this.common(block)
    const { base, style } = this.textBase(ctx, block, item.slot, common.transparency)
    const indent = num(block.indent) ?? 0
    // The renderer balances columns; PowerPoint and LibreOffice fill one column before the next. A box
    // of the balanced height breaks the columns where the renderer does (geometry measures that height).
    const columns = num(block.columns) ?? 1
    // A slotted block's box is its natural height: cut to the whole lines drawn, it ends on the slot, never past the slide.
    const clip = item.slot ? ctx.fits.get(block.id)?.clip : undefined
    let frame = clip !== undefined ? { ...box, h: clip } : box
    if (columns > 1) {
      const text = str(block.text) ?? ''
      const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
      const extra = ((num(spacing.before) ?? 0) + (num(spacing.after) ?? 0)) * stripMarkup(text).split('\n').length
      const h = Math.min(box.h, measureText(text, { size: style.size, width: box.w, lineHeight: style.lineHeight, weight: style.weight, family: style.family, indent, columns }).height + extra)
      const valign = str(block.valign) ?? 'top'
      frame = { ...box, h, y: valign === 'middle' ? box.y + (box.h - h) / 2 : valign === 'bottom' ? box.y + box.h - h : box.y }
    }
    const lines = block.kind === 'shape' ? 1 : Math.round(measureText(str(block.text) ?? '', { size: style.size, width: box.w - indent, lineHeight: style.lineHeight, weight: style.weight, family: style.family }).height / (style.size * style.lineHeight))
    this.textBox(ctx, ctx.name(block.id), this.drawnParagraphs(ctx, block, paragraphRuns(str(block.text) ?? '')), base, frame, {
      lineHeight: style.lineHeight,
      weight: style.weight,
      lines,
      valign: str(block.valign) ?? 'top',
      inset: { l: indent, t: 0, r: 0, b: 0 },
      columns: num(block.columns),
      extra: { ...(common.rotate ? { rotate: common.rotate } : {}), ...(common.shadow ? { shadow: common.shadow } : {}), ...(block.autofit === 'shrink' ? { fit: 'shrink' as const } : {}) },
    })
  }

  /** A heading as the renderer's picture of it (headings: raster). */
  private headingPicture(ctx: SlideCtx, item: Drawn): void {
    const key = `${ctx.slide.id}#${item.block.id}`
    const picture = this.headingPictures.get(key)
    if (!picture) return this.textBlock(ctx, item)
    const common = this.common(item.block)
    ctx.s.addImage({
      data: picture.data,
      ...position(picture.box),
      altText: stripMarkup(str(item.block.text) ?? ''),
      objectName: ctx.name(item.block.id),
      ...(common.rotate ? { rotate: common.rotate } : {}),
      ...(common.shadow ? { shadow: common.shadow } : {}),
      ...(common.transparency ? { transparency: common.transparency } : {}),
    })
    this.report.rasters.push(`${key} heading png ${picture.width}x${picture.height}`)
  }

  private listBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const common = this.common(block)
    const { base, style } = this.textBase(ctx, block, item.slot, common.transparency)
    const size = style.size
    const { items: all, spacing, explicit, gutter, indent, rule, start } = listLayout(block, size)
    const counters: number[] = []
    // The items (and of the last, the words) on the whole lines the renderer draws.
    const fit = ctx.fits.get(block.id)
    const chars = fit?.chars
    const items = chars ? all.slice(0, chars.length) : all
    if (fit && chars) this.reportClip(ctx, block, fit)
    const accent = hex(colour(this.paint, 'accent'))
    const bulletFace = this.face(this.fonts.body, size, 400).typeface
    const numbered = !(block.marker === 'bullet' || (block.marker !== 'number' && BULLET_PRESETS.has(str(block.preset) ?? 'disc')))
    const preset = str(block.preset)
    const scheme = AUTO_NUMBER[preset && preset in AUTO_NUMBER ? preset : 'decimal']
    const paragraphs: Run[][] = []
    const props: string[] = []
    const bars: Box[] = []
    let firstBefore = 0
    let y = box.y
    const lineSpacing = `<a:lnSpc><a:spcPts val="${Math.round(base.lineSpacingPt * 100)}"/></a:lnSpc>`
    items.forEach((entry, i) => {
      const level = Math.min(9, Math.max(1, Math.floor(num(entry.level) ?? 1)))
      counters.length = level
      counters[level - 1] = (counters[level - 1] ?? (level === 1 ? start - 1 : 0)) + 1
      const left = indent + INDENT_STEP * (level - 1)
      const before = explicit ? num(spacing.before) ?? 0 : i > 0 ? listGap(size) : 0
      const after = explicit ? num(spacing.after) ?? 0 : 0
      const whole = str(entry.text) ?? ''
      const runs = paragraphRuns(whole).flat()
      const cut = chars ? cutRuns(runs, chars[i]) : runs
      const text = cut === runs ? whole : cut.map((run) => run.text).join('')
      paragraphs.push(cut)
      if (i === 0) firstBefore = before
      const space = `${before && i > 0 ? `<a:spcBef><a:spcPts val="${Math.round(pt(before) * 100)}"/></a:spcBef>` : ''}${after ? `<a:spcAft><a:spcPts val="${Math.round(pt(after) * 100)}"/></a:spcAft>` : ''}`
      const algn = base.align ? ` algn="${{ left: 'l', center: 'ctr', right: 'r', justify: 'just' }[base.align] ?? 'l'}"` : ''
      let bullet: string
      if (rule) bullet = '<a:buNone/>'
      else if (numbered) {
        const first = level === 1 ? start : 1
        bullet = `<a:buClr><a:srgbClr val="${accent}"/></a:buClr><a:buSzPct val="100000"/><a:buFont typeface="${escapeXml(bulletFace)}"/><a:buAutoNum type="${scheme}"${first !== 1 ? ` startAt="${first}"` : ''}/>`
      } else {
        const char = markerText(block, counters[level - 1])
        bullet = `<a:buClr><a:srgbClr val="${accent}"/></a:buClr><a:buSzPct val="100000"/><a:buFont typeface="${escapeXml(bulletFace)}"/><a:buChar char="${escapeXml(char)}"/>`
      }
      props.push(`<a:pPr marL="${emu(left + gutter)}" indent="${-emu(gutter)}" lvl="${level - 1}"${algn}>${lineSpacing}${space}${bullet}</a:pPr>`)
      const measured = measureText(text, { size, width: box.w, lineHeight: style.lineHeight, weight: style.weight, family: style.family, indent: indent + gutter + INDENT_STEP * (level - 1) })
      if (rule) bars.push({ x: box.x + left - 20, y: y + before, w: 4, h: measured.height })
      y += before + measured.height + after
    })
    const name = ctx.name(block.id)
    const clip = item.slot ? fit?.clip : undefined
    this.textBox(ctx, name, paragraphs, base, clip !== undefined ? { ...box, h: clip } : box, {
      lineHeight: style.lineHeight,
      weight: style.weight,
      lines: paragraphs.length,
      valign: 'top',
      paragraphProps: props,
      firstBefore,
      columns: num(block.columns),
      extra: { ...(common.rotate ? { rotate: common.rotate } : {}), ...(common.shadow ? { shadow: common.shadow } : {}), ...(block.autofit === 'shrink' ? { fit: 'shrink' as const } : {}) },
    })
    bars.forEach((bar, i) => {
      ctx.s.addShape('rect', { ...position(turned(bar, box, common.rotate ?? 0)), fill: { color: accent, transparency: common.transparency }, ...(common.rotate ? { rotate: common.rotate } : {}), objectName: ctx.name(`${block.id} rule ${i + 1}`) })
    })
  }

  private tableBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const where = `${ctx.slide.id}#${block.id}`
    const common = this.common(block)
    const { base, style } = this.textBase(ctx, block, item.slot, common.transparency)
    const size = style.size
    const all = Array.isArray(block.rows) ? (block.rows as unknown[][]) : []
    // A table that does not fit even at its least size: the whole rows the renderer draws.
    const kept = ctx.fits.get(block.id)?.rows
    const rows = all.slice(0, kept ?? all.length)
    if (kept !== undefined) this.cannot(where, `${all.length - kept} of ${all.length} rows that do not fit its box even at ${size} px (left out, as the render draws whole rows only)`)
    const count = Math.max(0, ...all.map((r) => (Array.isArray(r) ? r.length : 0)))
    if (!count || !rows.length) return
    const weights = Array.from({ length: count }, (_, i) => {
      const w = Array.isArray(block.columnWidths) ? num((block.columnWidths as unknown[])[i]) : undefined
      return w !== undefined && w > 0 ? w : 1
    })
    const total = weights.reduce((a, b) => a + b, 0)
    const widths = weights.map((w) => (box.w * w) / total)
    const pad = Math.round(size * 0.5)
    const vpad = size * 0.175
    const shift = this.options.baseline === 'libreoffice' ? firstBaselineShift(base.face, 400, size, style.lineHeight) : 0
    const rule = hex(colour(this.paint, 'rule'))
    const ink = hex(colour(this.paint, 'ink'))
    const none = { type: 'none' as const }
    const heights: number[] = []
    const align = tableColumnAlign(block)
    const body: pptxgen.default.TableRow[] = rows.map((row, r) => {
      const header = r === 0 && block.header === true
      let lines = 1
      const cells = Array.from({ length: count }, (_, c) => {
        const cell = Array.isArray(row) ? str(row[c]) ?? '' : ''
        const m = measureText(cell, { size, width: widths[c] - 2 * pad, weight: header ? 600 : 400, family: style.family })
        lines = Math.max(lines, m.lines)
        // The column's alignment (layout: right for a column of numbers) over the block's own, as the renderer draws it.
        const cellBase = { ...base, bold: header, beforePx: undefined, afterPx: undefined, ...(align[c] !== 'left' ? { align: align[c] } : {}) }
        return {
          text: this.runs(paragraphRuns(cell), cellBase, where),
          options: {
            margin: [inch(Math.max(0, vpad + shift)), inch(pad), inch(Math.max(0, vpad - shift)), inch(pad)] as pptxgen.default.Margin,
            valign: 'top' as pptxgen.default.VAlign,
            border: [none, none, header ? { type: 'solid' as const, pt: pt(2), color: ink } : { type: 'solid' as const, pt: pt(1), color: rule }, none] as [pptxgen.default.BorderProps, pptxgen.default.BorderProps, pptxgen.default.BorderProps, pptxgen.default.BorderProps],
          },
        }
      })
      heights.push(size * (lines * style.lineHeight + 0.35))
      return cells
    })
    if (common.rotate) this.cannot(where, 'rotation of a table (PowerPoint tables do not rotate)')
    if (common.transparency) this.cannot(where, 'transparency of a table')
    if (common.shadow) this.cannot(where, 'the shadow of a table')
    const columns = num(block.columns)
    if (columns && columns > 1) this.cannot(where, 'text columns in a table')
    ctx.s.addTable(body, { ...position(kept === undefined && !ctx.fits.has(block.id) ? box : { ...box, h: heights.reduce((a, b) => a + b, 0) }), colW: widths.map(inch), rowH: heights.map(inch), objectName: ctx.name(block.id) })
  }

  private placeholder(ctx: SlideCtx, item: Drawn, box: Box, label: string): void {
    const size = Math.max(12, Math.min(24, Math.round(Math.min(box.w, box.h) / 8)))
    const name = ctx.name(`${item.block.id} placeholder`)
    const base: TextBase = { face: this.fonts.body, sizePx: size, bold: false, color: colour(this.paint, 'muted'), align: 'center', lineSpacingPt: pt(size * 1.3) }
    this.textBox(ctx, name, [[{ text: label, marks: {} }]], base, box, {
      lineHeight: 1.3,
      weight: 400,
      valign: 'middle',
      extra: { line: { color: hex(colour(this.paint, 'rule')), width: pt(2), dashType: 'dash' } },
    })
  }

  private async pictureBlock(ctx: SlideCtx, item: Drawn): Promise<void> {
    const { block, box } = item
    // A picture placeholder draws nothing, as in the renderer.
    if (isPicturePlaceholder(block)) return
    const where = `${ctx.slide.id}#${block.id}`
    const assetId = str(block.asset) ?? ''
    const common = this.common(block)
    const height = pictureHeight(block, box, this.fonts.body)
    const slotted = !(block.pos && typeof block.pos === 'object')
    const file = await this.assetPicture(assetId)
    if (!file) this.placeholder(ctx, item, { ...box, h: height }, `Picture "${assetId}" has no file`)
    else {
      const natural = { ...assetSize(this.options.deckDir, assetId) }
      const size = { width: natural.width ?? file.width, height: natural.height ?? file.height }
      const dither = block.dither && typeof block.dither === 'object' ? resolveDither(block.dither as Record<string, unknown>) : undefined
      const alt = this.assetAlt(assetId)
      let drawnVariant = false
      if (dither) {
        const drawnSize = drawnPictureSize(block, box.w, height, size)
        const screen = await this.variantFile(assetId, dither, drawnSize.w, drawnSize.h)
        if (screen) {
          // Under a screen that is not fully opaque the source shows through, as in the renderer.
          if (dither.strength < 1) await this.picture(ctx, item, box, height, file, size, alt, common.transparency, `${block.id} source`)
          const screenTransparency = 100 - Math.round((1 - common.transparency / 100) * Math.max(0, Math.min(1, dither.strength)) * 100)
          await this.picture(ctx, item, box, height, screen, size, alt, screenTransparency, block.id)
          this.report.rasters.push(`${where} two-tone ${screen.format} ${screen.width}x${screen.height}`)
          drawnVariant = true
        } else this.cannot(where, 'the two-tone screen (the asset has no source to screen); the picture is drawn as stored')
      }
      if (!drawnVariant) {
        await this.picture(ctx, item, box, height, file, size, alt, common.transparency, block.id)
        this.report.rasters.push(`${where} picture ${file.format} ${file.width}x${file.height}`)
      }
    }
    const caption = str(block.caption)
    if (caption) {
      const top = slotted ? box.y + height : box.y + box.h
      const captionHeight = 8 + measureText(caption, { size: 24, width: box.w, family: this.fonts.body }).height
      const part = turned({ x: box.x, y: top, w: box.w, h: captionHeight }, box, common.rotate ?? 0)
      const base: TextBase = { face: this.fonts.body, sizePx: 24, bold: false, color: colour(this.paint, 'muted'), lineSpacingPt: pt(30), transparency: common.transparency }
      this.textBox(ctx, ctx.name(`${block.id} caption`), paragraphRuns(caption), base, part, {
        lineHeight: 1.25,
        weight: 400,
        inset: { l: 0, t: 8, r: 0, b: 0 },
        extra: common.rotate ? { rotate: common.rotate } : {},
      })
    }
  }

  private async variantFile(assetId: string, dither: ResolvedDither, w: number, h: number): Promise<PictureFile | null> {
    const variant = this.variants.variant(assetId, dither, w, h)
    if (!variant) return null
    const bytes = await this.variants.bytes(variant.key, this.options.pictureScale ?? 2).catch(() => undefined)
    if (!bytes) return null
    const meta = await sharp(bytes).metadata()
    return { data: `image/png;base64,${bytes.toString('base64')}`, width: meta.width ?? w * 2, height: meta.height ?? h * 2, format: 'png' }
  }

  /** One picture file drawn as the renderer draws a picture block: crop, fit, flip, mask, rotation, shadow, transparency, brightness and contrast. */
  private async picture(ctx: SlideCtx, item: Drawn, box: Box, height: number, file: PictureFile, natural: { width: number; height: number }, alt: string, transparency: number, baseName: string): Promise<void> {
    const { block } = item
    const where = `${ctx.slide.id}#${block.id}`
    const mask = str(block.mask)
    const window = mask === 'circle' ? (() => {
      const d = Math.min(box.w, height)
      return { x: (box.w - d) / 2, y: (height - d) / 2, w: d, h: d }
    })() : { x: 0, y: 0, w: box.w, h: height }
    const placed = placePicture(box, height, natural, block, window)
    if (!placed) return
    const flip = (block.flip ?? {}) as { h?: boolean; v?: boolean }
    const angle = num(block.angle) ?? 0
    const frame = turned(placed.frame, box, angle)
    const name = ctx.name(baseName)
    const shadow = this.shadow(block)
    ctx.s.addImage({
      data: file.data,
      ...position(frame),
      altText: alt,
      objectName: name,
      ...(angle ? { rotate: angle } : {}),
      ...(flip.h ? { flipH: true } : {}),
      ...(flip.v ? { flipV: true } : {}),
      ...(shadow ? { shadow } : {}),
      ...(transparency ? { transparency } : {}),
    })
    const src = placed.src
    const srcRect = `<a:srcRect l="${Math.round(src.l * 100000)}" t="${Math.round(src.t * 100000)}" r="${Math.round(src.r * 100000)}" b="${Math.round(src.b * 100000)}"/>`
    const brightness = num(block.brightness) ?? 0
    const contrast = num(block.contrast) ?? 0
    const lum = brightness || contrast ? `<a:lum${brightness ? ` bright="${Math.round(brightness * 100000)}"` : ''}${contrast ? ` contrast="${Math.round(contrast * 100000)}"` : ''}/>` : ''
    const preset = mask && mask !== 'rect' ? PRESET[mask] : undefined
    if (mask && placed.frame.w < window.w - 0.5 || mask && placed.frame.h < window.h - 0.5) {
      if (preset) this.cannot(where, `the ${mask} mask is cut to the picture, not the box (the picture does not fill it)`)
    }
    if (preset && (flip.h || flip.v) && ['triangle', 'arrow', 'chevron', 'heart', 'pentagon', 'star'].includes(mask!)) this.cannot(where, `the ${mask} mask is mirrored with the picture`)
    const svgBlip = file.svg && this.options.svgVector !== false ? this.svgBlip(ctx, file.svg) : ''
    this.patches.object(ctx.number, name, (xml) => {
      let out = xml.replace(/<a:srcRect[^>]*\/>\s*<a:stretch\/>|<a:stretch>\s*<a:fillRect\/>\s*<\/a:stretch>/, `${srcRect}<a:stretch><a:fillRect/></a:stretch>`)
      if (lum) out = out.replace(/<a:blip (r:embed="[^"]+")\s*>/, `<a:blip $1>${lum}`)
      if (svgBlip) out = out.replace('</a:blip>', `${svgBlip}</a:blip>`)
      if (preset) out = out.replace(/<a:prstGeom prst="rect"><a:avLst\/><\/a:prstGeom>/, `<a:prstGeom prst="${preset}"><a:avLst>${avList(presetAdjust(mask!, placed.frame.w, placed.frame.h))}</a:avLst></a:prstGeom>`)
      return out
    })
  }

  /** The twin scale of SVG pictures: rasterScale 2 or 3, auto 3 (an SVG is an icon or a mark). */
  private get svgScale(): number {
    return this.options.rasterScale === 2 ? 2 : 3
  }

  /**
   * The SVG extension of a picture's blip (PowerPoint 2016 and later draw the vector; older readers and
   * LibreOffice the PNG beside it): the vector as a media part, shared by every picture of the same
   * bytes, and a relationship to it from the slide.
   */
  private svgBlip(ctx: SlideCtx, svg: Buffer): string {
    const part = `ppt/media/studio-${createHash('sha256').update(svg).digest('hex').slice(0, 16)}.svg`
    if (!this.extraParts.has(part)) this.extraParts.set(part, { name: part, data: svg })
    const id = `rIdSvg${++this.svgRels}`
    this.patches.rel(ctx.number, `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/${part.slice('ppt/media/'.length)}"/>`)
    return `<a:extLst><a:ext uri="{96DAC541-7B7A-43D3-8B79-37D633B846F1}"><asvg:svgBlip xmlns:asvg="http://schemas.microsoft.com/office/drawing/2016/SVG/main" r:embed="${id}"/></a:ext></a:extLst>`
  }
  private svgRels = 0

  private shapeBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const where = `${ctx.slide.id}#${block.id}`
    const common = this.common(block)
    const shape = str(block.shape) ?? 'rect'
    const flip = (block.flip ?? {}) as { h?: boolean; v?: boolean }
    const strokeWidth = num(block.strokeWidth) ?? (block.fill ? 0 : 2)
    const fill = block.fill ? { color: hex(colour(this.paint, block.fill, 'accent')), ...(common.transparency ? { transparency: common.transparency } : {}) } : undefined
    const stroked = Boolean(block.stroke || !block.fill) && strokeWidth > 0
    const line = stroked ? { color: hex(colour(this.paint, block.stroke, 'ink')), width: pt(strokeWidth), ...(common.transparency ? { transparency: common.transparency } : {}) } : undefined
    const name = ctx.name(block.id)
    if (shape === 'line') {
      const ink = hex(colour(this.paint, block.stroke ?? block.fill, 'ink'))
      const y = box.y + box.h / 2
      ctx.s.addShape('line', { ...position(turned({ x: box.x, y, w: box.w, h: 0 }, box, common.rotate ?? 0)), line: { color: ink, width: pt(Math.max(2, num(block.strokeWidth) ?? 2)), ...(common.transparency ? { transparency: common.transparency } : {}) }, ...(common.rotate ? { rotate: common.rotate } : {}), objectName: name })
      if (str(block.text)) this.cannot(where, 'text on a line shape')
      return
    }
    // The renderer draws the outline inside the box (inset by half the stroke); PowerPoint centres it on the geometry.
    const inset = stroked ? strokeWidth / 2 : 0
    let geometry: Box = { x: box.x + inset, y: box.y + inset, w: Math.max(0, box.w - 2 * inset), h: Math.max(0, box.h - 2 * inset) }
    if (shape === 'circle') {
      const d = Math.min(geometry.w, geometry.h)
      geometry = { x: geometry.x + (geometry.w - d) / 2, y: geometry.y + (geometry.h - d) / 2, w: d, h: d }
    }
    const text = str(block.text)
    const preset = PRESET[shape] ?? 'rect'
    const adjust = presetAdjust(shape, geometry.w, geometry.h)
    const shapeOptions = {
      ...(fill ? { fill } : {}),
      ...(line ? { line } : {}),
      ...(common.rotate ? { rotate: common.rotate } : {}),
      ...(common.shadow ? { shadow: common.shadow } : {}),
    }
    // Text is never mirrored (the renderer mirrors the outline only); a shape mirrored upside down carries its text in a box of its own.
    // So does text in a circle drawn in a box that is not square (the renderer sets it in the whole box).
    const textApart = Boolean(text) && (flip.v === true || (shape === 'circle' && Math.abs(box.w - box.h) > 0.5))
    if (!text || textApart) {
      ctx.s.addShape(preset as pptxgen.default.ShapeType, { ...position(turned(geometry, box, common.rotate ?? 0)), ...shapeOptions, ...(flip.h ? { flipH: true } : {}), ...(flip.v ? { flipV: true } : {}), objectName: name })
      this.adjust(ctx, name, adjust)
      if (!text) return
    }
    const { base, style } = this.textBase(ctx, block, item.slot, common.transparency)
    const textName = textApart ? ctx.name(`${block.id} text`) : name
    const textBox = textApart ? box : turned(geometry, box, common.rotate ?? 0)
    const pad = textApart ? SHAPE_INSET : SHAPE_INSET - inset
    this.textBox(ctx, textName, paragraphRuns(text!), base, textBox, {
      lineHeight: style.lineHeight,
      weight: style.weight,
      valign: str(block.valign) ?? 'middle',
      inset: { l: pad, t: pad, r: pad, b: pad },
      columns: num(block.columns),
      extra: textApart ? { ...(common.rotate ? { rotate: common.rotate } : {}) } : { shape: preset as pptxgen.default.ShapeType, isTextBox: false, ...shapeOptions, ...(flip.h ? { flipH: true } : {}) },
    })
    if (!textApart) this.adjust(ctx, textName, adjust)
    const indent = num(block.indent)
    if (indent) this.cannot(where, 'the indent of text in a shape')
  }

  private adjust(ctx: SlideCtx, name: string, adjust: Record<string, number>): void {
    if (!Object.keys(adjust).length) return
    this.patches.object(ctx.number, name, (xml) => xml.replace(/(<a:prstGeom prst="[^"]+">)<a:avLst>[\s\S]*?<\/a:avLst>/, `$1<a:avLst>${avList(adjust)}</a:avLst>`))
  }

  private lineBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const [from, to] = lineEnds({ placements: ctx.placements as Map<string, Placement> } as Parameters<typeof lineEnds>[0], block, box)
    const width = num(block.strokeWidth) ?? 2
    const arrow = str(block.arrow) ?? 'none'
    const transparency = Math.round(Math.max(0, Math.min(1, num(block.transparency) ?? 0)) * 100)
    const frame = { x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), w: Math.abs(to.x - from.x), h: Math.abs(to.y - from.y) }
    const name = ctx.name(block.id)
    ctx.s.addShape('line', {
      ...position(frame),
      ...(from.x > to.x ? { flipH: true } : {}),
      ...(from.y > to.y ? { flipV: true } : {}),
      line: {
        color: hex(colour(this.paint, block.stroke, 'ink')),
        width: pt(width),
        ...(transparency ? { transparency } : {}),
        ...(arrow === 'start' || arrow === 'both' ? { beginArrowType: 'triangle' } : {}),
        ...(arrow === 'end' || arrow === 'both' ? { endArrowType: 'triangle' } : {}),
      },
      ...(this.shadow(block) ? { shadow: this.shadow(block) } : {}),
      objectName: name,
    })
    // The renderer's head is max(8, 4 × width) px long and wide: OOXML sizes heads in multiples of the width (sm 2, med 3, lg 5).
    const head = Math.max(8, width * 4) / Math.max(0.5, width)
    const sizeOf = head >= 4 ? 'lg' : head >= 2.5 ? 'med' : 'sm'
    this.patches.object(ctx.number, name, (xml) =>
      xml
        .replace(/<a:ln w="(\d+)">/, '<a:ln w="$1" cap="rnd">')
        .replace(/<a:(head|tail)End type="triangle"\/>/g, `<a:$1End type="triangle" w="${sizeOf}" len="${sizeOf}"/>`),
    )
    // A connector: the line becomes a connection shape whose ends name the shapes they meet.
    const start = block.start as { block?: string; side?: string } | undefined
    const end = block.end as { block?: string; side?: string } | undefined
    if (block.connector === true && (start?.block || end?.block)) this.connector(ctx, name, start, end, from, to)
  }

  /** Turns a line into `<p:cxnSp>` with `stCxn`/`endCxn` on the rectangle-like shapes it attaches to (their connection sites: 0 top, 1 left, 2 bottom, 3 right). */
  private connector(ctx: SlideCtx, name: string, start: { block?: string; side?: string } | undefined, end: { block?: string; side?: string } | undefined, from: { x: number; y: number }, to: { x: number; y: number }): void {
    const site = (ref: { block?: string; side?: string } | undefined, point: { x: number; y: number }) => {
      if (!ref?.block) return undefined
      const placement = ctx.placements.get(ref.block)
      const target = (ctx.slide.blocks ?? []).find((b) => b.id === ref.block)
      if (!placement || !target || placement.angle || (placement.flip.h || placement.flip.v)) return undefined
      const rectLike = target.kind === 'textbox' || target.kind === 'text' || target.kind === 'heading' || (target.kind === 'shape' && ['rect', 'rounded', undefined].includes(str(target.shape)))
      if (!rectLike) return undefined
      const b = placement.box
      const sides: [number, { x: number; y: number }][] = [
        [0, { x: b.x + b.w / 2, y: b.y }],
        [1, { x: b.x, y: b.y + b.h / 2 }],
        [2, { x: b.x + b.w / 2, y: b.y + b.h }],
        [3, { x: b.x + b.w, y: b.y + b.h / 2 }],
      ]
      const hit = sides.find(([, p]) => Math.abs(p.x - point.x) < 1 && Math.abs(p.y - point.y) < 1)
      return hit ? { block: ref.block, idx: hit[0] } : undefined
    }
    const a = site(start, from)
    const b = site(end, to)
    if (!a && !b) return
    this.patches.slide(ctx.number, (xml) => {
      const idOf = (blockId: string) => new RegExp(`<p:cNvPr id="(\\d+)" name="${escapeRe(blockId)}"`).exec(xml)?.[1]
      const ends = [a && idOf(a.block) ? `<a:stCxn id="${idOf(a.block)}" idx="${a.idx}"/>` : '', b && idOf(b.block) ? `<a:endCxn id="${idOf(b.block)}" idx="${b.idx}"/>` : ''].join('')
      if (!ends) return xml
      return patchObject(xml, name, (sp) =>
        sp
          .replace(/^<p:sp>/, '<p:cxnSp>')
          .replace(/<\/p:sp>$/, '</p:cxnSp>')
          .replace('<p:nvSpPr>', '<p:nvCxnSpPr>')
          .replace('</p:nvSpPr>', '</p:nvCxnSpPr>')
          .replace(/<p:cNvSpPr\s*\/>/, `<p:cNvCxnSpPr>${ends}</p:cNvCxnSpPr>`)
          .replace('prst="line"', 'prst="straightConnector1"')
          .replace(/<p:txBody>[\s\S]*<\/p:txBody>/, ''),
      )
    })
  }

  private chartBlock(ctx: SlideCtx, item: Drawn): void {
    const { block, box } = item
    const where = `${ctx.slide.id}#${block.id}`
    // The renderer's layout (src/layout/chart.ts): the same plot box, axis range and steps.
    const layout = chartLayout(block, box.w, box.h, this.paint.theme.fonts.body)
    const { data, size, inner } = layout
    const { categories, series, type, stacked, title, count } = data
    const common = this.common(block)
    const ink = hex(colour(this.paint, 'ink'))
    const muted = hex(colour(this.paint, 'muted'))
    const rule = hex(colour(this.paint, 'rule'))
    const face = this.face(this.fonts.body, size, 400).typeface
    const pie = type === 'pie' || type === 'doughnut'
    const colours = (pie ? categories : series).map((_, i) => hex(seriesColour(this.paint, i)))
    const options: pptxgen.default.IChartOpts = {
      ...position(box),
      objectName: ctx.name(block.id),
      altText: str(block.alt) ?? title,
      chartColors: colours.length ? colours : [hex(seriesColour(this.paint, 0))],
      chartArea: { fill: { color: hex(colour(this.paint, 'paper')), transparency: 100 } },
      plotArea: { fill: { color: hex(colour(this.paint, 'paper')), transparency: 100 } },
      showLegend: layout.legend.length > 0,
      legendPos: 'b',
      legendFontFace: face,
      legendFontSize: pt(size),
      legendColor: ink,
      ...(title ? { showTitle: true, title, titleFontFace: face, titleFontSize: pt(layout.title!.size), titleColor: ink, titleBold: true } : { showTitle: false }),
    }
    const value = layout.value
    const axes: pptxgen.default.IChartOpts = {
      catAxisLabelFontFace: face,
      catAxisLabelFontSize: pt(size),
      catAxisLabelColor: muted,
      catAxisLineShow: false,
      catAxisMajorTickMark: 'none',
      catGridLine: { style: 'none' },
      // Category labels at the low end of the value axis (the bottom, or a bar chart's left), wherever zero is.
      catAxisLabelPos: 'low',
      valAxisLabelFontFace: face,
      valAxisLabelFontSize: pt(size),
      valAxisLabelColor: muted,
      valAxisLineShow: false,
      valAxisMajorTickMark: 'none',
      valGridLine: { color: rule, size: pt(1), style: 'solid' },
      ...(value ? { valAxisMinVal: value.min, valAxisMaxVal: value.max, valAxisMajorUnit: value.step, valAxisLabelFormatCode: tickFormatCode(value) } : {}),
      // The renderer writes every k-th category's label when they do not all fit.
      ...(layout.labelEvery > 1 ? { catAxisLabelFrequency: String(layout.labelEvery) } : {}),
    }
    const frac = (v: number, of: number) => Math.round((v / Math.max(1, of)) * 10000) / 10000
    options.layout = { x: frac(inner.x, box.w), y: frac(inner.y, box.h), w: frac(inner.w, box.w), h: frac(inner.h, box.h) }
    const chartName = options.objectName!
    if (common.rotate) this.cannot(where, 'rotation of a chart')
    if (common.transparency) this.cannot(where, 'transparency of a chart')
    if (common.shadow) this.cannot(where, 'the shadow of a chart')
    const values = (s: { values: (number | null)[] }) => Array.from({ length: count }, (_, i) => s.values[i] ?? null) as number[]
    if (pie) {
      const first = series[0] ?? { name: '', values: [] }
      ctx.s.addChart(type === 'pie' ? this.pptx.ChartType.pie : this.pptx.ChartType.doughnut, [{ name: first.name, labels: categories, values: values(first) }], {
        ...options,
        holeSize: 55,
        firstSliceAng: 0,
        dataBorder: { pt: pt(2), color: hex(colour(this.paint, 'paper')) },
        showValue: false,
        showPercent: false,
        showLabel: false,
      })
      if (series.length > 1) this.cannot(where, 'series after the first of a pie or doughnut (the renderer draws only the first too)')
      if (series[0]?.values.some((v) => v !== null && v < 0)) this.cannot(where, 'negative values of a pie or doughnut (the renderer leaves them out)')
      return
    }
    if (type === 'scatter') {
      const x = layout.x!
      ctx.s.addChart(this.pptx.ChartType.scatter, [{ name: 'X', values: scatterXs(data) }, ...series.map((s) => ({ name: s.name, values: values(s) }))], {
        ...options,
        ...axes,
        lineSize: 0,
        lineDataSymbol: 'circle',
        // The renderer's x axis: its range, steps and labels.
        catAxisMinVal: x.min,
        catAxisMaxVal: x.max,
        catAxisMajorUnit: x.step,
        lineDataSymbolSize: Math.max(2, Math.round(pt(size * 0.8))),
      })
      // Both axes' labels at the low end of the other (pptxgenjs writes a scatter chart's at zero, inside the plot when a value is negative).
      this.patches.chart(ctx.number, chartName, (xml) => xml.replaceAll('<c:tickLblPos val="nextTo"/>', '<c:tickLblPos val="low"/>'))
      return
    }
    const chartData = series.map((s) => ({ name: s.name, labels: categories, values: values(s) }))
    if (type === 'line' || type === 'area') {
      ctx.s.addChart(type === 'line' ? this.pptx.ChartType.line : this.pptx.ChartType.area, chartData, {
        ...options,
        ...axes,
        ...(stacked ? { barGrouping: 'stacked' } : {}),
        lineSize: pt(Math.max(2, size / 6)),
        lineDataSymbol: type === 'line' ? 'circle' : 'none',
        lineDataSymbolSize: Math.max(2, Math.round(pt(size / 2))),
        ...(type === 'area' ? { chartColorsOpacity: 35 } : {}),
      })
      if (type === 'line' && stacked) this.patches.chart(ctx.number, chartName, (xml) => xml.replace('<c:lineChart>', '<c:lineChart><c:grouping val="stacked"/>'))
      if (type === 'area') this.cannot(where, 'the full-strength outline the renderer draws over each area')
      return
    }
    ctx.s.addChart(this.pptx.ChartType.bar, chartData, {
      ...options,
      ...axes,
      barDir: type === 'bar' ? 'bar' : 'col',
      barGrouping: stacked ? 'stacked' : 'clustered',
      // The renderer's bars fill 70 % of each category's band: the gap is 0.3 band against bars 0.7 / n band wide.
      barGapWidthPct: Math.round((0.3 / (0.7 / (stacked ? 1 : Math.max(1, series.length)))) * 100),
      ...(stacked ? { barOverlapPct: 100 } : {}),
      // The renderer lists bar categories top down: reversed categories, with the value axis kept at the bottom (pptxgenjs
      // names that crossing `catAxisCrossesAt`) and its labels beside it there (its default, the low end of the
      // reversed categories, puts them at the top, over the title).
      ...(type === 'bar' ? { catAxisOrientation: 'maxMin' as 'minMax', catAxisCrossesAt: 'max' as unknown as number, valAxisLabelPos: 'nextTo' as const } : {}),
    })
  }

  private async shaderBlock(ctx: SlideCtx, item: Drawn): Promise<void> {
    const { block, box } = item
    const where = `${ctx.slide.id}#${block.id}`
    const assetId = str(block.asset)
    const path = assetId ? this.assets.get(assetId) : undefined
    const file = path ? await pictureFile(themedFile(path, this.options.appearance), this.files, this.svgScale) : null
    const common = this.common(block)
    if (file && assetId) {
      const natural = { width: file.width, height: file.height, ...assetSize(this.options.deckDir, assetId) } as { width: number; height: number }
      let picture = file
      if (block.twoTone === true) {
        const size = drawnPictureSize({ ...block, fit: 'cover' } as Block, box.w, box.h, natural)
        const screen = await this.variantFile(assetId, resolveDither({}), size.w, size.h)
        if (screen) picture = screen
      }
      await this.picture(ctx, { ...item, block: { ...block, fit: 'cover', crop: undefined, mask: undefined } }, box, box.h, picture, natural, '', common.transparency, block.id)
      this.report.rasters.push(`${where} shader frame ${picture.format} ${picture.width}x${picture.height}`)
      return
    }
    // No captured frame yet: the material's colours as a still gradient, named, as the renderer draws it.
    const name = ctx.name(block.id)
    const size = Math.max(12, Math.min(22, Math.round(box.h / 12)))
    const base: TextBase = { face: this.fonts.body, sizePx: size, bold: false, color: colour(this.paint, 'ink'), align: 'center', lineSpacingPt: pt(size * 1.3) }
    this.textBox(ctx, name, [[{ text: str(block.materialId) ?? 'shader', marks: {} }]], base, box, {
      lineHeight: 1.3,
      weight: 400,
      valign: 'middle',
      extra: { fill: { color: hex(colour(this.paint, 'accent')) }, ...(common.rotate ? { rotate: common.rotate } : {}) },
    })
    const a = hex(colour(this.paint, 'accent'))
    const b = hex(colour(this.paint, 'paper'))
    this.patches.object(ctx.number, name, (xml) =>
      xml.replace(/(<p:spPr>[\s\S]*?)<a:solidFill>[\s\S]*?<\/a:solidFill>/, `$1<a:gradFill rotWithShape="1"><a:gsLst><a:gs pos="0"><a:srgbClr val="${a}"/></a:gs><a:gs pos="100000"><a:srgbClr val="${b}"/></a:gs></a:gsLst><a:lin ang="2700000" scaled="0"/></a:gradFill>`),
    )
    this.cannot(where, 'the shader itself (no frame captured): a still gradient stands for it')
  }
}

interface SlideCtx {
  slide: Slide
  s: PptxSlide
  /** The slide's number in the file (1-based). */
  number: number
  names: Set<string>
  placements: Map<string, Placement & { id?: string }>
  /** Blocks drawn at another size or to whole lines (src/layout/fit.ts), as the renderer draws them. */
  fits: Map<string, Fit>
  /** A name for an object, unique on the slide. */
  name(base: string): string
}

/** The first `chars` characters of a paragraph's runs. */
function cutRuns(runs: Run[], chars: number): Run[] {
  const out: Run[] = []
  let left = chars
  for (const run of runs) {
    if (left <= 0) break
    out.push(run.text.length <= left ? run : { ...run, text: run.text.slice(0, left) })
    left -= run.text.length
  }
  return out
}

function placementOf(item: Drawn): Placement {
  const flip = (item.block.flip ?? {}) as { h?: boolean; v?: boolean }
  return { box: item.box, angle: num(item.block.angle) ?? 0, flip: { h: flip.h === true, v: flip.v === true } }
}

// ---------------------------------------------------------------------------------------------
// headings: raster — each heading drawn by the renderer in Chromium, transparent around its text

async function renderHeadings(options: NativeOptions): Promise<Map<string, { data: string; width: number; height: number; box: Box }>> {
  const out = new Map<string, { data: string; width: number; height: number; box: Box }>()
  const fonts = themeFonts(options.doc.manifest)
  const jobs: { key: string; slide: Slide; box: Box }[] = []
  for (const slide of options.slides) {
    const at = drawn(slide, fonts)
    const fits = drawnFits(slide, fonts, at)
    for (const item of at.items) {
      if (item.block.kind !== 'heading' || item.box.w <= 0 || item.box.h <= 0) continue
      const fit = fits.get(item.block.id)
      const style = textStyle(item.block, slide.layout, item.slot, fonts)
      // The heading alone on a canvas slide at its box, at the size its slot gave it (or autofit drew it), to its last whole line, unrotated and unshadowed (the picture carries those).
      const { angle: _a, shadow: _s, transparency: _t, slot: _slot, autofit: _f, ...rest } = item.block
      const box = fit?.clip !== undefined ? { ...item.box, h: fit.clip } : item.box
      const block: Block = { ...rest, id: item.block.id, kind: 'heading', size: fit?.size ?? style.size, pos: { ...box }, z: 0 }
      jobs.push({ key: `${slide.id}#${item.block.id}`, slide: { id: slide.id, layout: 'freeform', blocks: [block] }, box })
    }
  }
  if (!jobs.length) return out
  const { leaseBrowser } = await import('../render/browser.js')
  const { documentHtml, slideHtml } = await import('../render/html.js')
  const { drawnText, fontFaceCss, fontFileOf } = await import('../render/faces.js')
  const { ORIGIN } = await import('../render/pipeline.js')
  const manifest = { ...options.doc.manifest, brandKit: options.doc.manifest.brandKit ? { palette: options.doc.manifest.brandKit.palette } : undefined, defaults: {} }
  const browser = await leaseBrowser()
  try {
    const page = await browser.page(options.rasterScale === 3 ? 3 : 2)
    await page.route('**/*', async (route) => {
      const url = route.request().url()
      if (!url.startsWith(`${ORIGIN}/fonts/`)) return route.abort('blockedbyclient')
      const file = fontFileOf(decodeURIComponent(url.slice(`${ORIGIN}/fonts/`.length)))
      if (!file) return route.fulfill({ status: 404, body: '' })
      return route.fulfill({ status: 200, body: readFileSync(file), headers: { 'content-type': 'font/woff2' } })
    })
    const fontCss = fontFaceCss(manifest, (file) => `${ORIGIN}/fonts/${encodeURIComponent(file)}`, drawnText(manifest, jobs.map((job) => job.slide)))
    await page.setContent(documentHtml([], fontCss, 'html,body{width:1600px;height:900px;overflow:hidden;background:transparent!important}.sheet{background:transparent!important}'))
    for (const job of jobs) {
      const html = slideHtml(job.slide, manifest, { appearance: options.appearance, asset: () => undefined })
      await page.evaluate(async (sheet) => {
        document.body.innerHTML = sheet
        void document.body.offsetHeight
        await document.fonts.ready
      }, html)
      const x = Math.max(0, Math.floor(job.box.x))
      const y = Math.max(0, Math.floor(job.box.y))
      const clip = { x, y, width: Math.max(1, Math.min(1600, Math.ceil(job.box.x + job.box.w)) - x), height: Math.max(1, Math.min(900, Math.ceil(job.box.y + job.box.h)) - y) }
      const png = await page.screenshot({ clip, omitBackground: true, type: 'png' })
      out.set(job.key, { data: `image/png;base64,${png.toString('base64')}`, width: clip.width * 2, height: clip.height * 2, box: { x: clip.x, y: clip.y, w: clip.width, h: clip.height } })
    }
    browser.release(page)
  } finally {
    await browser.close()
  }
  return out
}

/** Writes the slides as an editable PPTX package; answers its bytes and what was written and what could not be carried. */
export async function nativePptx(options: NativeOptions): Promise<{ bytes: Buffer; report: NativeReport }> {
  const writer = new NativeWriter(options)
  if (options.headingsRaster) writer.headingPictures = await renderHeadings(options)
  return writer.write()
}
