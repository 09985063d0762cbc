/**
 * Text measurement with real font metrics: the shipped faces (src/model/fonts.ts: Inter, Source
 * Serif 4, JetBrains Mono; SIL Open Font License 1.1; docs/layouts.md), by family and weight.
 *
 * The model is the one the renderer follows (docs/layouts.md, "Text"): paragraphs split at "\n",
 * white space collapsed, lines broken greedily at spaces and after hyphens, a word wider than the
 * line moved to its own line and broken between characters (CSS `overflow-wrap: break-word`),
 * widths the plain sum of glyph advances (no kerning: the renderer sets `font-kerning: none`), an
 * empty paragraph one line tall, and `columns` equal columns 32 px apart filled in balance.
 *
 * Fonts load on first use (fontkit is required lazily, so commands that never measure never load it)
 * and every glyph advance and word width is cached per font.
 */
import { createRequire } from 'node:module'
import { faceKey, metricsTable } from './metrics.js'
import { DEFAULT_FAMILY, faceFile, findFamily, nearestWeight } from '../model/fonts.js'

export type Weight = 400 | 500 | 600 | 700

export interface MeasureOptions {
  /** Text size, px. */
  size: number
  /** The width text flows in, px (all columns and their gaps together). */
  width: number
  /** Line height as a factor of the size (1.25 when absent). */
  lineHeight?: number
  weight?: Weight
  /** The font family (src/model/fonts.ts); Inter when absent. */
  family?: string
  /** Left indent inside each column, px. */
  indent?: number
  /** Equal columns (1 to 3) with a 32 px gap. */
  columns?: number
}

export interface Measure {
  lines: number
  height: number
  /** The widest line, px. */
  width: number
}

export const LINE_HEIGHT = 1.25
export const COLUMN_GAP = 32

interface FontkitGlyph { advanceWidth: number }
interface FontkitFont {
  unitsPerEm: number
  glyphForCodePoint(codePoint: number): FontkitGlyph
}
interface Fontkit { openSync(path: string): FontkitFont }

const load = createRequire(import.meta.url)
let fontkit: Fontkit | undefined

/** One loaded weight: advances in font units, cached per code point and per word. */
class Face {
  readonly unitsPerEm: number
  private readonly advances = new Map<number, number>()
  private readonly words = new Map<string, number>()

  constructor(private readonly font: FontkitFont) {
    this.unitsPerEm = font.unitsPerEm
  }

  advance(codePoint: number): number {
    let a = this.advances.get(codePoint)
    if (a === undefined) {
      a = this.font.glyphForCodePoint(codePoint).advanceWidth
      this.advances.set(codePoint, a)
    }
    return a
  }

  /** Width of a string in font units (the sum of its glyph advances). */
  units(text: string): number {
    let w = this.words.get(text)
    if (w !== undefined) return w
    w = 0
    for (const ch of text) w += this.advance(ch.codePointAt(0)!)
    if (this.words.size > 50_000) this.words.clear()
    this.words.set(text, w)
    return w
  }
}

const faces = new Map<string, Face>()

/** The path of a shipped font file (the `.woff2` geometry measures and the renderer draws). */
export function fontFile(weight: Weight, family = DEFAULT_FAMILY): string {
  const known = findFamily(family) ?? findFamily(DEFAULT_FAMILY)!
  return load.resolve(faceFile(known, nearestWeight(known, weight), 'normal', 'woff2'))
}

/** The measuring face of a family at a weight (the nearest weight it has; Inter for a family it does not know). */
export function face(weight: Weight = 400, family = DEFAULT_FAMILY): Face {
  const known = findFamily(family) ?? findFamily(DEFAULT_FAMILY)!
  const key = faceKey(known.name, nearestWeight(known, weight))
  let f = faces.get(key)
  if (!f) {
    // The advance table cut from these same files at build time, when there is one; fontkit otherwise.
    const metrics = metricsTable()?.[key]
    if (metrics) {
      f = new Face({ unitsPerEm: metrics.unitsPerEm, glyphForCodePoint: (cp) => ({ advanceWidth: metrics.advances[cp] ?? metrics.notdef }) })
    } else {
      fontkit ??= load('fontkit') as Fontkit
      f = new Face(fontkit.openSync(fontFile(weight, known.name)))
    }
    faces.set(key, f)
  }
  return f
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** The tags of the Text subset; any other `<` is text (`a < b`), as src/model/text.ts reads it. */
const TAG = /<\/?(?:i|u|s|sup|sub|span|a)(?:\s[^<>]*)?>/gi

/** Plain text of a Text value: the subset's inline tags removed (<br> becomes a paragraph break), entities decoded. */
export function stripMarkup(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(TAG, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name.toLowerCase()] ?? whole
    })
}

/** The break units of a paragraph: words split at spaces, and after hyphens inside words. */
function pieces(paragraph: string): { text: string; space: boolean }[] {
  const out: { text: string; space: boolean }[] = []
  for (const word of paragraph.split(/[ \t\f\v]+/)) {
    if (!word) continue
    const parts = word.split(/(?<=[-\u2010\u2013](?=[^-\u2010\u2013]))/)
    parts.forEach((text, i) => out.push({ text, space: i === 0 }))
  }
  return out
}

/** Lines of one paragraph at `avail` px; pushes each line's width into `widths`. */
function wrapParagraph(paragraph: string, avail: number, f: Face, scale: number, widths: number[]): void {
  const space = f.units(' ') * scale
  let line = 0
  let empty = true
  const newLine = () => {
    widths.push(line)
    line = 0
    empty = true
  }
  const place = (text: string, width: number) => {
    if (width <= avail + 0.01) {
      line = width
      empty = false
      return
    }
    // A word wider than a line: break it between characters.
    for (const ch of text) {
      const cw = f.advance(ch.codePointAt(0)!) * scale
      if (!empty && line + cw > avail + 0.01) newLine()
      line += cw
      empty = false
    }
  }
  for (const piece of pieces(paragraph)) {
    const w = f.units(piece.text) * scale
    if (empty) place(piece.text, w)
    else {
      const gap = piece.space ? space : 0
      if (line + gap + w <= avail + 0.01) line += gap + w
      else {
        newLine()
        place(piece.text, w)
      }
    }
  }
  newLine()
}

/**
 * Lines, height and widest line of a text at a size and width (markup stripped first).
 *
 * @example measureText('Costs fell by half.\nMargins grew.', { size: 28, width: 1440 }) // { lines: 2, height: 70, ... }
 */
export function measureText(text: string, options: MeasureOptions): Measure {
  const size = Math.max(0, options.size)
  const columns = Math.min(3, Math.max(1, Math.floor(options.columns ?? 1)))
  const columnWidth = (options.width - COLUMN_GAP * (columns - 1)) / columns
  const avail = Math.max(1, columnWidth - Math.max(0, options.indent ?? 0))
  const f = face(options.weight ?? 400, options.family)
  const scale = size / f.unitsPerEm
  const widths: number[] = []
  for (const paragraph of stripMarkup(text).split('\n')) wrapParagraph(paragraph, avail, f, scale, widths)
  const rows = Math.ceil(widths.length / columns)
  let widest = 0
  for (const w of widths) if (w > widest) widest = w
  return { lines: widths.length, height: rows * size * (options.lineHeight ?? LINE_HEIGHT), width: widest }
}

/** Width of a single line of plain text (no wrapping), px. */
export function textWidth(text: string, size: number, weight: Weight = 400, family = DEFAULT_FAMILY): number {
  const f = face(weight, family)
  return (f.units(text) * size) / f.unitsPerEm
}
