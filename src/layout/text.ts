/**
 * Text measurement with real font metrics: the shipped faces (src/model/fonts.ts: Inter, Source
 * Serif 4, JetBrains Mono; SIL Open Font License 1.1; docs/layouts.md), by family and weight.
 *
 * The model is the one the renderer follows (docs/layouts.md, "Text"): paragraphs split at "\n",
 * white space collapsed, lines broken greedily at spaces, after hyphens and around CJK characters
 * (src/model/fonts.ts draws what the theme's face lacks from fallback faces), a word wider than the
 * line moved to its own line and broken between characters (CSS `overflow-wrap: break-word`),
 * widths the sum of glyph advances plus the face's kerning pairs (the renderer sets `font-kerning:
 * normal`; a pair kerns between two characters of one face's subset file, inside a word and across a
 * space within a line, never across a line break or into a fallback face), an empty paragraph one
 * line tall, and `columns` equal columns 32 px apart filled in balance.
 *
 * Fonts load on first use (fontkit is required lazily, so commands that never measure never load it)
 * and every glyph advance and word width is cached per font.
 */
import { createRequire } from 'node:module'
import { advanceAt, fallbackAdvances, faceKey, joiningKernKey, metricsTable, type KernTable } from './metrics.js'
import { cjkLanguage, DEFAULT_FAMILY, faceFile, fallbackOrder, findFamily, nearestWeight, type CjkLanguage } from '../model/fonts.js'

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

interface FontkitGlyph { id: number; advanceWidth: number }
interface FontkitFont {
  unitsPerEm: number
  glyphForCodePoint(codePoint: number): FontkitGlyph
}
interface Fontkit { openSync(path: string): FontkitFont }

const load = createRequire(import.meta.url)
let fontkit: Fontkit | undefined

/** Whether a code point draws nothing of its own after the one before it (emoji sequences: joiner, selectors, skin tones, tags). */
const JOINED = (cp: number) => cp === 0x200d || cp === 0xfe0e || cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0020 && cp <= 0xe007f) || cp === 0x20e3
const REGIONAL = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff

/**
 * One loaded weight in one CJK order: advances in the theme face's units, cached per code point and
 * per word. A code point the face lacks is measured in the first fallback face that maps it
 * (src/model/fonts.ts fallbackOrder), scaled to this face's units; one no shipped face maps gets the
 * face's .notdef advance.
 */
class Face {
  readonly unitsPerEm: number
  private readonly advances = new Map<number, number>()
  private readonly words = new Map<string, number>()
  private readonly pairs: KernPairs | undefined

  constructor(
    private readonly font: { unitsPerEm: number; advance(cp: number): number | undefined; notdef: number; kern?: KernTable },
    private readonly language: CjkLanguage,
    private readonly weight: number,
  ) {
    this.unitsPerEm = font.unitsPerEm
    if (font.kern) this.pairs = new KernPairs(font.kern)
  }

  /**
   * The kerning between two code points drawn side by side, in this face's units (0 for none): the
   * theme face's pairs, or the Hebrew fallback face's between two letters the theme face lacks.
   */
  kern(first: number, second: number): number {
    const own = this.pairs?.get(first, second)
    if (own !== undefined) return own
    if (first < 0x590 || first > 0xfb4f || second < 0x590 || second > 0xfb4f || this.font.advance(first) !== undefined || this.font.advance(second) !== undefined) return 0
    const hebrew = hebrewKern()
    return hebrew ? ((hebrew.pairs.get(first, second) ?? 0) * this.unitsPerEm) / hebrew.unitsPerEm : 0
  }

  advance(codePoint: number): number {
    let a = this.advances.get(codePoint)
    if (a === undefined) {
      a = this.font.advance(codePoint) ?? fallbackAdvance(codePoint, this.language, this.weight, this.unitsPerEm) ?? this.font.notdef
      this.advances.set(codePoint, a)
    }
    return a
  }

  /**
   * Width of a string in font units: the sum of its glyph advances, where an emoji sequence (joined
   * by ZWJ, with selectors or skin tones, or a pair of regional indicators) is one glyph.
   */
  units(text: string): number {
    let w = this.words.get(text)
    if (w !== undefined) return w
    w = ARABIC.test(text) ? this.joinedUnits(text) : this.sequenceUnits(text)
    if (this.words.size > 50_000) this.words.clear()
    this.words.set(text, w)
    return w
  }

  private sequenceUnits(text: string): number {
    let w = 0
    let joinNext = false
    let regionalOpen = false
    let before = -1
    for (const ch of text) {
      const cp = ch.codePointAt(0)!
      if (cp > 0x1fff) {
        if (JOINED(cp)) {
          joinNext = cp === 0x200d
          before = -1
          continue
        }
        if (joinNext) {
          joinNext = false
          before = -1
          continue
        }
        if (REGIONAL(cp)) {
          regionalOpen = !regionalOpen
          if (!regionalOpen) continue
        } else regionalOpen = false
      } else {
        joinNext = false
        regionalOpen = false
      }
      w += this.advance(cp)
      if (before >= 0) w += this.kern(before, cp)
      before = cp
    }
    return w
  }

  /**
   * A word with Arabic letters, each in the form its neighbours give it (isolated, initial, medial,
   * final; marks between letters do not break a join; tatweel and ZWJ join both ways) and lam-alef as
   * the face draws the pair, from the fallback table's joining forms. Anything else as `advance` has it.
   */
  private joinedUnits(text: string): number {
    const face = fallbackAdvances().get('Noto Sans Arabic')
    const table = face?.joining?.get(this.weight) ?? face?.joining?.get(400)
    if (!face || !table) return this.sequenceUnits(text)
    const scale = this.unitsPerEm / face.unitsPerEm
    const cps = [...text].map((ch) => ch.codePointAt(0)!)
    // A letter the theme's face draws is not Arabic-shaped (no theme face has Arabic; the check keeps it true).
    const forms = (cp: number) => (this.font.advance(cp) === undefined ? table.forms.get(cp) : undefined)
    const forward = (cp: number) => cp === 0x640 || cp === 0x200d || (forms(cp)?.[1] ?? -1) >= 0
    const backward = (cp: number) => cp === 0x640 || cp === 0x200d || (forms(cp)?.[3] ?? -1) >= 0
    const neighbour = (i: number, step: 1 | -1): number | undefined => {
      for (let k = i + step; k >= 0 && k < cps.length; k += step) if (!ARABIC_MARK(cps[k])) return k
      return undefined
    }
    let w = 0
    // The letter before, in its form, when it is the code point right before (a mark between blocks the pair), or the theme face's code point before.
    let letter = -1
    let letterForm = -1
    let own = -1
    for (let i = 0; i < cps.length; i++) {
      const cp = cps[i]
      const f = forms(cp)
      if (!f) {
        w += this.advance(cp)
        if (own >= 0) w += this.kern(own, cp)
        own = cp
        letter = -1
        continue
      }
      own = -1
      const before = neighbour(i, -1)
      const after = neighbour(i, 1)
      const joinsBefore = before !== undefined && forward(cps[before]) && backward(cp)
      const pair = after !== undefined ? table.pairs.get(cp)?.get(cps[after]) : undefined
      if (pair) {
        w += pair[joinsBefore ? 1 : 0] * scale
        // The pair's second letter is counted; marks between them still are, as zero-width marks.
        for (let k = i + 1; k < after!; k++) w += this.advance(cps[k])
        i = after!
        letter = -1
        continue
      }
      const joinsAfter = after !== undefined && forward(cp) && backward(cps[after])
      let form = joinsBefore && joinsAfter ? 2 : joinsBefore ? 3 : joinsAfter ? 1 : 0
      if (f[form] < 0) form = 0
      w += f[form] * scale
      if (letter >= 0 && cps[i - 1] === letter) w += (face!.joiningKern?.get(joiningKernKey(letter, letterForm, cp, form)) ?? 0) * scale
      letter = cp
      letterForm = form
    }
    return w
  }
}

/** More than any face's count of right kerning classes (a few thousand at most). */
const KERN_STRIDE = 1 << 16

/** A face's kerning pairs (metrics.ts KernTable) for lookup. */
class KernPairs {
  private readonly left = new Map<number, number>()
  private readonly right = new Map<number, number>()
  /** Adjustments by `leftClass * KERN_STRIDE + rightClass`. */
  private readonly pairs = new Map<number, number>()

  constructor(kern: KernTable) {
    for (let i = 0; i < kern.left.length; i += 2) this.left.set(kern.left[i], kern.left[i + 1])
    for (let i = 0; i < kern.right.length; i += 2) this.right.set(kern.right[i], kern.right[i + 1])
    for (let i = 0; i < kern.pairs.length; i += 3) this.pairs.set(kern.pairs[i] * KERN_STRIDE + kern.pairs[i + 1], kern.pairs[i + 2])
  }

  /** The adjustment between two code points, 0 when the first has pairs but not with the second, undefined when it has none. */
  get(first: number, second: number): number | undefined {
    const l = this.left.get(first)
    if (l === undefined) return undefined
    const r = this.right.get(second)
    return r === undefined ? 0 : (this.pairs.get(l * KERN_STRIDE + r) ?? 0)
  }
}

let hebrewPairs: { pairs: KernPairs; unitsPerEm: number } | null | undefined
const hebrewKern = () => {
  if (hebrewPairs === undefined) {
    const face = fallbackAdvances().get('Noto Sans Hebrew')
    hebrewPairs = face?.kern ? { pairs: new KernPairs(face.kern), unitsPerEm: face.unitsPerEm } : null
  }
  return hebrewPairs
}

const ARABIC = /[\u0600-\u08ff]/
/** Arabic combining marks: drawn on a letter, they neither take room nor break a join. */
const ARABIC_MARK = (cp: number) => (cp >= 0x610 && cp <= 0x61a) || (cp >= 0x64b && cp <= 0x65f) || cp === 0x670 || (cp >= 0x6d6 && cp <= 0x6dc) || (cp >= 0x6df && cp <= 0x6e4) || cp === 0x6e7 || cp === 0x6e8 || (cp >= 0x6ea && cp <= 0x6ed) || (cp >= 0x8ca && cp <= 0x8ff)

/** A code point's advance at a weight in the first fallback face (in `language`'s order) that maps it, in units of `unitsPerEm`. */
function fallbackAdvance(codePoint: number, language: CjkLanguage, weight: number, unitsPerEm: number): number | undefined {
  const table = fallbackAdvances()
  for (const family of fallbackOrder(language)) {
    const metrics = table.get(family.name)
    const advance = metrics && advanceAt(metrics, codePoint, weight)
    if (advance === undefined) continue
    return (advance * unitsPerEm) / metrics!.unitsPerEm
  }
  return undefined
}

const faces = new Map<string, Face>()

/** The path of a shipped font file (the latin `.woff2` of a weight). */
export function fontFile(weight: Weight, family = DEFAULT_FAMILY): string {
  const known = findFamily(family) ?? findFamily(DEFAULT_FAMILY)!
  return load.resolve(faceFile(known, nearestWeight(known, weight), 'normal', 'woff2'))
}

/** The measuring face of a family at a weight (the nearest weight it has; Inter for a family it does not know), for text whose CJK is `language`. */
export function face(weight: Weight = 400, family = DEFAULT_FAMILY, language: CjkLanguage = 'zh'): Face {
  const known = findFamily(family) ?? findFamily(DEFAULT_FAMILY)!
  const key = `${faceKey(known.name, nearestWeight(known, weight))}/${language}`
  let f = faces.get(key)
  if (!f) {
    // The advance table cut from these same files at build time, when there is one; fontkit (latin only) otherwise.
    const metrics = metricsTable()?.[faceKey(known.name, nearestWeight(known, weight))]
    if (metrics) {
      f = new Face({ unitsPerEm: metrics.unitsPerEm, advance: (cp) => metrics.advances[cp], notdef: metrics.notdef, kern: metrics.kern }, language, weight)
    } else {
      // Unkerned: the kerning pairs come only with the built table.
      fontkit ??= load('fontkit') as Fontkit
      const font = fontkit.openSync(fontFile(weight, known.name))
      f = new Face({ unitsPerEm: font.unitsPerEm, advance: (cp) => { const g = font.glyphForCodePoint(cp); return g.id ? g.advanceWidth : undefined }, notdef: font.glyphForCodePoint(0x10ffff).advanceWidth }, language, weight)
    }
    faces.set(key, f)
  }
  return f
}

/** Format characters that draw nothing of their own: joiners, direction marks, selectors, tags. */
const FORMAT = (cp: number) => cp < 0x20 || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0000 && cp <= 0xe0fff)

/**
 * The characters of a text no shipped face draws (the family's subsets at 400, then every fallback
 * face), each once, in order; empty when the advance table has not been built.
 */
export function missingGlyphs(text: string, family = DEFAULT_FAMILY): string[] {
  const known = findFamily(family) ?? findFamily(DEFAULT_FAMILY)!
  const own = metricsTable()?.[faceKey(known.name, nearestWeight(known, 400))]
  if (!own) return []
  const out = new Set<string>()
  for (const ch of text) {
    const cp = ch.codePointAt(0)!
    if (own.advances[cp] !== undefined || FORMAT(cp) || /\s/.test(ch)) continue
    if ([...fallbackAdvances().values()].some((face) => face.regular.has(cp))) continue
    out.add(ch)
  }
  return [...out]
}

/** The CJK order of a text: worked out only when it holds a character past U+2E7F. */
const languageOf = (text: string): CjkLanguage => (/[\u2e80-\uffff]/.test(text) ? cjkLanguage(text) : 'zh')

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

/**
 * An ideograph, kana or hangul syllable with the closing punctuation that may not start a line: CJK text
 * breaks between any two of these, as Chromium breaks it (`word-break: normal`).
 */
const CJK_UNIT = /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u{20000}-\u{3ffff}][\u3001\u3002\u300d\u300f\u3011\u3009\u300b\u30fc\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f]*/u

/** The break units of a paragraph: words split at spaces, after hyphens inside words, and around each CJK character. */
function pieces(paragraph: string): { text: string; space: boolean }[] {
  const out: { text: string; space: boolean }[] = []
  for (const word of paragraph.split(/[ \t\f\v]+/)) {
    if (!word) continue
    const parts = word.split(/(?<=[-\u2010\u2013](?=[^-\u2010\u2013]))/)
    parts.forEach((text, i) => {
      if (!/[\u2e80-\ud7af\uf900-\ufaff\ud840-\ud8bf]/.test(text)) {
        out.push({ text, space: i === 0 })
        return
      }
      let first = i === 0
      for (const unit of text.split(new RegExp(`(${CJK_UNIT.source})`, 'u'))) {
        if (!unit) continue
        out.push({ text: unit, space: first })
        first = false
      }
    })
  }
  return out
}

const firstCodePoint = (text: string) => text.codePointAt(0)!
const lastCodePoint = (text: string) => {
  const low = text.charCodeAt(text.length - 1)
  return low >= 0xdc00 && low <= 0xdfff && text.length > 1 ? text.codePointAt(text.length - 2)! : low
}

/**
 * Lines of one paragraph at `avail` px; pushes each line's width into `widths`. A word's own kerning is
 * in its cached width; the pairs at its edges (with the space before it, or the piece it follows
 * without one) are the line's, and none crosses a line break.
 */
function wrapParagraph(paragraph: string, avail: number, f: Face, scale: number, widths: number[]): void {
  const space = f.units(' ') * scale
  let line = 0
  let empty = true
  let last = -1
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
    let before = -1
    for (const ch of text) {
      const cp = ch.codePointAt(0)!
      const cw = f.advance(cp) * scale + (before >= 0 ? f.kern(before, cp) * scale : 0)
      if (!empty && line + cw > avail + 0.01) {
        newLine()
        line = f.advance(cp) * scale
      } else line += cw
      before = cp
      empty = false
    }
  }
  for (const piece of pieces(paragraph)) {
    const w = f.units(piece.text) * scale
    const first = firstCodePoint(piece.text)
    if (empty) place(piece.text, w)
    else {
      const gap = piece.space ? space + (f.kern(last, 32) + f.kern(32, first)) * scale : f.kern(last, first) * scale
      if (line + gap + w <= avail + 0.01) line += gap + w
      else {
        newLine()
        place(piece.text, w)
      }
    }
    last = lastCodePoint(piece.text)
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
  const plain = stripMarkup(text)
  const f = face(options.weight ?? 400, options.family, languageOf(plain))
  const scale = size / f.unitsPerEm
  const widths: number[] = []
  for (const paragraph of plain.split('\n')) wrapParagraph(paragraph, avail, f, scale, widths)
  const rows = Math.ceil(widths.length / columns)
  let widest = 0
  for (const w of widths) if (w > widest) widest = w
  return { lines: widths.length, height: rows * size * (options.lineHeight ?? LINE_HEIGHT), width: widest }
}

/** Width of a single line of plain text (no wrapping), px. */
export function textWidth(text: string, size: number, weight: Weight = 400, family = DEFAULT_FAMILY): number {
  const f = face(weight, family, languageOf(text))
  return (f.units(text) * size) / f.unitsPerEm
}
