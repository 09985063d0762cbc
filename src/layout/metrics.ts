/**
 * The advance widths of every shipped face (src/model/fonts.ts: each family, each weight, upright)
 * as a table cut from the font files at build time (dist/fonts/metrics.json), so a command that
 * measures text reads one JSON file instead of loading fontkit and decoding a WOFF per face (~60 ms
 * each). The numbers are the font's own: every code point the font maps, the .notdef advance
 * for the rest, and the kerning pairs the renderer's `font-kerning: normal` applies. Keys are
 * `<family>/<weight>` ("Inter/700").
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { packageRoot } from '../store/workspace.js'
import { FALLBACK_FAMILIES, FONT_FAMILIES } from '../model/fonts.js'
import { fallbackSubsets, familySubsets } from './subsets.js'

export const WEIGHTS = [400, 500, 600, 700] as const

/** The table key of a face. */
export const faceKey = (family: string, weight: number) => `${family}/${weight}`

export interface FaceMetrics {
  unitsPerEm: number
  /** Advance in font units by code point. */
  advances: Record<string, number>
  /** Advance of the glyph the font draws for a code point it does not map. */
  notdef: number
  /** The GPOS `kern` pair adjustments, when the face kerns. */
  kern?: KernTable
}

/**
 * Kerning pairs by code point, as classes: `left` and `right` are `[codePoint, class, ...]` (classes
 * from 1; a code point with no pair has none), `pairs` is `[leftClass, rightClass, adjustment, ...]`
 * with every non-zero adjustment in font units. Code points of different subset files never pair:
 * Chromium draws them from different fonts.
 */
export interface KernTable {
  left: number[]
  right: number[]
  pairs: number[]
}

export type MetricsTable = Record<string, FaceMetrics>

export const metricsFile = () => join(packageRoot(), 'dist', 'fonts', 'metrics.json')

interface FontkitFont { unitsPerEm: number; characterSet: number[]; glyphForCodePoint(cp: number): { id: number; advanceWidth: number } }

const load = createRequire(import.meta.url)
const openFont = (file: string): FontkitFont => (load('fontkit') as { openSync(path: string): FontkitFont }).openSync(load.resolve(file))

/**
 * Reads every weight's advances from the font files with fontkit (build time, and the test that holds
 * the table to the fonts): each subset's code points, within the subset's own ranges (latin first), as
 * Chromium picks the face of a code point by `unicode-range`.
 */
export function buildMetricsTable(): MetricsTable {
  const table: MetricsTable = {}
  for (const family of FONT_FAMILIES) {
    for (const weight of family.weights) {
      const advances: Record<string, number> = {}
      let unitsPerEm = 0
      let notdef = 0
      const kerns = new Map<number, Map<number, number>>()
      for (const subset of familySubsets(family, weight, 'normal')) {
        const font = openFont(subset.file)
        if (!unitsPerEm) {
          unitsPerEm = font.unitsPerEm
          notdef = font.glyphForCodePoint(0x10ffff).advanceWidth
        }
        const own: number[] = []
        for (const cp of font.characterSet) {
          if (advances[cp] !== undefined || !subset.spans.some(([a, b]) => cp >= a && cp <= b)) continue
          advances[cp] = font.glyphForCodePoint(cp).advanceWidth
          own.push(cp)
        }
        for (const [cp, row] of kernPairs(font as GposFont, own)) kerns.set(cp, row)
      }
      table[faceKey(family.name, weight)] = { unitsPerEm, advances, notdef, ...(kerns.size ? { kern: kernClasses(kerns) } : {}) }
    }
  }
  return table
}

interface Coverage { version: number; glyphs?: number[]; rangeRecords?: { start: number; end: number; startCoverageIndex: number }[] }
interface ClassDef { version: number; startGlyph?: number; classValueArray?: number[]; classRangeRecord?: { start: number; end: number; class: number }[] }
interface ValueRecord { xAdvance?: number }
interface PairSubtable {
  version: number
  coverage: Coverage
  pairSets?: { get(i: number): { secondGlyph: number; value1?: ValueRecord; value2?: ValueRecord }[] }
  classDef1?: ClassDef
  classDef2?: ClassDef
  classRecords?: { get(i: number): { get(i: number): { value1?: ValueRecord; value2?: ValueRecord } } }
}
interface GposLookup { lookupType: number; flags: { flags: { ignoreMarks: boolean; useMarkFilteringSet: boolean } }; markFilteringSet?: number; subTables: (PairSubtable & { lookupType?: number; extension?: PairSubtable })[] }
interface GposFont extends FontkitFont {
  GPOS?: { featureList: { tag: string; feature: { lookupListIndexes: number[] } }[]; lookupList: { get(i: number): GposLookup } }
  GDEF?: { glyphClassDef?: ClassDef; markGlyphSetsDef?: { coverage: Coverage[] } }
}

const coverageIndex = (coverage: Coverage, glyph: number): number => {
  if (coverage.version === 1) return coverage.glyphs!.indexOf(glyph)
  for (const r of coverage.rangeRecords!) if (r.start <= glyph && glyph <= r.end) return r.startCoverageIndex + glyph - r.start
  return -1
}

const classOf = (def: ClassDef | undefined, glyph: number): number => {
  if (!def) return 0
  if (def.version === 1) {
    const i = glyph - def.startGlyph!
    return i >= 0 && i < def.classValueArray!.length ? def.classValueArray![i] : 0
  }
  for (const r of def.classRangeRecord!) if (r.start <= glyph && glyph <= r.end) return r.class
  return 0
}

/**
 * The width a font's `kern` feature adds between each two of `codePoints` (PairPos lookups, format 1
 * and 2, inside Extension lookups too; in one lookup the first subtable that matches applies, as in
 * fontkit's GPOSProcessor and HarfBuzz), by first then second code point, non-zero ones only. Every
 * script's `kern` feature is taken (the shipped faces give each script the same lookups). A lookup
 * that skips marks is not applied to a pair with a mark it skips.
 */
function kernPairs(font: GposFont, codePoints: number[]): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>()
  const gpos = font.GPOS
  if (!gpos) return out
  const indexes = [...new Set(gpos.featureList.filter((f) => f.tag === 'kern').flatMap((f) => f.feature.lookupListIndexes))].sort((a, b) => a - b)
  const lookups = indexes.map((i) => gpos.lookupList.get(i))
  const glyphs = codePoints.map((cp) => font.glyphForCodePoint(cp).id)
  const isMark = (glyph: number) => classOf(font.GDEF?.glyphClassDef, glyph) === 3
  for (const lookup of lookups) {
    const subtables = lookup.subTables.map((t) => (lookup.lookupType === 9 ? (t.lookupType === 2 ? t.extension! : undefined) : lookup.lookupType === 2 ? t : undefined)).filter((t): t is PairSubtable => !!t)
    if (!subtables.length) continue
    const { ignoreMarks, useMarkFilteringSet } = lookup.flags.flags
    const filter = useMarkFilteringSet ? font.GDEF?.markGlyphSetsDef?.coverage[lookup.markFilteringSet!] : undefined
    const skipped = glyphs.map((glyph) => isMark(glyph) && (ignoreMarks || (filter !== undefined && coverageIndex(filter, glyph) < 0)))
    // Per subtable, read once: format 2's classes of every glyph as second; format 1's pairs of a covered first glyph, by second glyph.
    const seconds = subtables.map((t) => (t.version === 1 ? undefined : glyphs.map((g) => classOf(t.classDef2, g))))
    glyphs.forEach((first, i) => {
      if (skipped[i]) return
      const covering = subtables.map((t) => coverageIndex(t.coverage, first))
      if (covering.every((c) => c < 0)) return
      const pairsOf = subtables.map((t, n) => {
        if (t.version !== 1 || covering[n] < 0) return undefined
        const bySecond = new Map<number, number>()
        for (const p of t.pairSets!.get(covering[n])) if (!bySecond.has(p.secondGlyph)) bySecond.set(p.secondGlyph, (p.value1?.xAdvance ?? 0) + (p.value2?.xAdvance ?? 0))
        return bySecond
      })
      const rows = subtables.map((t, n) => (t.version === 1 || covering[n] < 0 ? undefined : t.classRecords!.get(classOf(t.classDef1, first))))
      glyphs.forEach((second, k) => {
        if (skipped[k]) return
        for (let t = 0; t < subtables.length; t++) {
          if (covering[t] < 0) continue
          let value: number | undefined
          if (subtables[t].version === 1) {
            value = pairsOf[t]!.get(second)
            if (value === undefined) continue
          } else {
            const record = rows[t]!.get(seconds[t]![k])
            value = (record.value1?.xAdvance ?? 0) + (record.value2?.xAdvance ?? 0)
          }
          if (value) {
            const row = out.get(codePoints[i]) ?? new Map<number, number>()
            row.set(codePoints[k], (row.get(codePoints[k]) ?? 0) + value)
            out.set(codePoints[i], row)
          }
          break
        }
      })
    })
  }
  return out
}

/** Pairs by code point as a KernTable: code points with the same column share a right class, those with the same row then a left class. */
function kernClasses(rows: Map<number, Map<number, number>>): KernTable {
  const columns = new Map<number, string[]>()
  const lefts = [...rows.keys()].sort((a, b) => a - b)
  for (const a of lefts) for (const [b, v] of rows.get(a)!) columns.set(b, [...(columns.get(b) ?? []), `${a}:${v}`])
  const right: number[] = []
  const rightClass = new Map<number, number>()
  const byColumn = new Map<string, number>()
  for (const b of [...columns.keys()].sort((x, y) => x - y)) {
    const key = columns.get(b)!.join(',')
    if (!byColumn.has(key)) byColumn.set(key, byColumn.size + 1)
    rightClass.set(b, byColumn.get(key)!)
    right.push(b, byColumn.get(key)!)
  }
  const left: number[] = []
  const pairs: number[] = []
  const byRow = new Map<string, number>()
  for (const a of lefts) {
    const row = new Map<number, number>()
    for (const [b, v] of rows.get(a)!) row.set(rightClass.get(b)!, v)
    const entries = [...row].sort((x, y) => x[0] - y[0])
    const key = entries.flat().join(',')
    if (!byRow.has(key)) {
      byRow.set(key, byRow.size + 1)
      for (const [r, v] of entries) pairs.push(byRow.size, r, v)
    }
    left.push(a, byRow.get(key)!)
  }
  return { left, right, pairs }
}

/**
 * The fallback faces' advances (src/model/fonts.ts FALLBACK_FAMILIES) at each weight the theme faces
 * have, as runs: `[first, count, advance, ...]` over consecutive code points with one advance. The
 * faces are variable: an advance is the default instance's plus the HVAR delta at the weight (read
 * with fontkit's variation processor, which cannot instance a WOFF2 face's outlines but can its
 * metrics). Other weights list only the code points whose advance differs from 400's.
 */
export interface FallbackMetrics {
  unitsPerEm: number
  /** Runs at 400. */
  runs: number[]
  /** By weight: `[codePoint, advance, ...]` where it differs from 400. */
  deltas: Record<string, number[]>
  /** Joining script faces (Arabic): each letter's advance in each joined form, by weight. */
  joining?: Record<string, JoiningForms>
  /**
   * Joining script faces: the `kern` feature between two neighbouring letters in given forms, as
   * `[first, firstForm, second, secondForm, adjustment, ...]` (forms 0 to 3 as in `forms`; logical
   * order), non-zero ones only, at the default instance for every weight.
   */
  joiningKern?: number[]
  /** Faces of a script whose letters do not join (Hebrew): the `kern` feature's pairs at the default instance, for every weight. */
  kern?: KernTable
}

/**
 * A joining script's letters drawn in context. `forms`: `[codePoint, isolated, initial, medial, final,
 * ...]`, -1 for a form the letter does not take (a letter with an initial form joins the letter after
 * it; one with a final form joins the one before). `pairs`: `[first, second, isolated, final, ...]`,
 * two letters the face draws otherwise side by side (lam then alef), their advances together, alone and
 * joined to a letter before.
 */
export interface JoiningForms {
  forms: number[]
  pairs: number[]
}

/** The letters a joining face is asked for in context (Arabic and its supplements; tatweel joins both ways). */
const ARABIC_LETTERS = /[\u0620-\u064a\u066e-\u06d3\u06d5\u06ee-\u06ff\u0750-\u077f\u0870-\u0887\u08a0-\u08c9]/
const LAM = 0x644
const ALEFS = [0x622, 0x623, 0x625, 0x627, 0x671, 0x672, 0x673, 0x675]

export type FallbackTable = Record<string, FallbackMetrics>

/** The committed fallback table (cutting it reads ~40 MB of WOFF2 with fontkit: tens of seconds). */
export const fallbackMetricsFile = () => join(packageRoot(), 'fonts', 'fallback-metrics.json')

interface VariableFont extends FontkitFont {
  variationCoords?: number[]
  HVAR?: unknown
  _variationProcessor?: { getAdvanceAdjustment(glyph: number, table: unknown): number } | null
  glyphForCodePoint(cp: number): { id: number; advanceWidth: number }
}

const toRuns = (advances: Map<number, number>): number[] => {
  const runs: number[] = []
  for (const cp of [...advances.keys()].sort((a, b) => a - b)) {
    const advance = advances.get(cp)!
    const n = runs.length
    if (n && runs[n - 3] + runs[n - 2] === cp && runs[n - 1] === advance) runs[n - 2]++
    else runs.push(cp, 1, advance)
  }
  return runs
}

interface LayoutFont extends VariableFont {
  layout(text: string, features: Record<string, boolean>): { glyphs: { id: number; codePoints: number[]; advanceWidth: number }[] }
}

/**
 * Every Arabic letter's advance in each form, with fontkit's shaper (features as the renderer sets them:
 * no liga, calt or kern), at each weight: the default instance's advance plus the HVAR delta of the form's glyph.
 */
function joiningForms(family: (typeof FALLBACK_FAMILIES)[number], weights: number[]): Record<string, JoiningForms> {
  const subset = fallbackSubsets(family).find((s) => s.spans.some(([a, b]) => a <= 0x628 && 0x628 <= b))!
  const font = openFont(subset.file) as LayoutFont
  const instances = new Map(weights.map((w) => {
    const instance = openFont(subset.file) as VariableFont
    instance.variationCoords = [w]
    return [w, instance] as const
  }))
  // mark and mkmk place marks and never change an advance (fontkit's mark positioning also fails on some of this face's anchors).
  const features = { liga: false, calt: false, kern: false, mark: false, mkmk: false }
  const TATWEEL = '\u0640'
  /**
   * The glyphs `text` shapes to, less the tatweels around the letters: the letters' own glyphs (a dot or
   * hamza the face draws as a glyph of its own carries no code point, so it is told apart by being no tatweel).
   */
  const own = (text: string) => font.layout(text, features).glyphs.filter((g) => !g.codePoints.includes(0x640))
  const advance = (text: string, weight: number): number => {
    const instance = instances.get(weight)!
    let sum = 0
    for (const glyph of own(text)) sum += glyph.advanceWidth + (instance._variationProcessor?.getAdvanceAdjustment(glyph.id, instance.HVAR) ?? 0)
    return Math.round(sum)
  }
  const ids = (text: string) => own(text).map((g) => g.id).join(' ')
  const letters = font.characterSet.filter((cp) => ARABIC_LETTERS.test(String.fromCodePoint(cp))).sort((a, b) => a - b)
  const out: Record<string, JoiningForms> = {}
  for (const weight of weights) {
    const forms: number[] = []
    for (const cp of letters) {
      const ch = String.fromCodePoint(cp)
      const isolated = ids(ch)
      // A form the letter takes: its glyphs in that context differ from its isolated ones.
      const form = (text: string) => (ids(text) !== isolated ? advance(text, weight) : -1)
      forms.push(cp, advance(ch, weight), form(ch + TATWEEL), form(TATWEEL + ch + TATWEEL), form(TATWEEL + ch))
    }
    const pairs: number[] = []
    const lam = String.fromCodePoint(LAM)
    for (const alef of ALEFS.filter((cp) => letters.includes(cp))) {
      const a = String.fromCodePoint(alef)
      pairs.push(LAM, alef, advance(lam + a, weight), advance(TATWEEL + lam + a, weight))
    }
    out[weight] = { forms, pairs }
  }
  return out
}

/**
 * The kerning fontkit's shaper applies between two neighbouring Arabic letters in each pair of forms they
 * take side by side (joined: initial or medial then medial or final; apart: isolated or final then
 * isolated or initial), at the default instance: the change the `kern` feature makes to the first
 * letter's glyphs (its own and the dots it draws apart), found in a layout of the pair between tatweels.
 */
function joiningKern(family: (typeof FALLBACK_FAMILIES)[number]): number[] {
  const subset = fallbackSubsets(family).find((s) => s.spans.some(([a, b]) => a <= 0x628 && 0x628 <= b))!
  const font = openFont(subset.file) as LayoutFont & { glyphForCodePoint(cp: number): { id: number; advanceWidth: number } }
  const features = { liga: false, calt: false, kern: true, mark: false, mkmk: false }
  const letters = font.characterSet.filter((cp) => ARABIC_LETTERS.test(String.fromCodePoint(cp))).sort((a, b) => a - b)
  const TATWEEL = '\u0640'
  const isolated = new Map(letters.map((cp) => [cp, font.layout(String.fromCodePoint(cp), features).glyphs.map((g) => g.id).join(' ')]))
  const takes = (cp: number, text: string) => font.layout(text, features).glyphs.filter((g) => !g.codePoints.includes(0x640)).map((g) => g.id).join(' ') !== isolated.get(cp)
  const forward = new Set(letters.filter((cp) => takes(cp, String.fromCodePoint(cp) + TATWEEL)))
  const backward = new Set(letters.filter((cp) => takes(cp, TATWEEL + String.fromCodePoint(cp))))
  const out: number[] = []
  for (const a of letters) {
    for (const b of letters) {
      if (a === LAM && ALEFS.includes(b)) continue
      const joined = forward.has(a) && backward.has(b)
      const firsts = joined ? [1, 2] : backward.has(a) ? [0, 3] : [0]
      const seconds = joined ? [2, 3] : forward.has(b) ? [0, 1] : [0]
      for (const fa of firsts) {
        for (const fb of seconds) {
          const before = fa >= 2 ? TATWEEL : ''
          const text = before + String.fromCodePoint(a, b) + (fb === 1 || fb === 2 ? TATWEEL : '')
          const run = font.layout(text, features)
          // fontkit returns a right-to-left run in visual order; logically each letter's glyph comes first, then the dots it draws apart.
          const glyphs = run.glyphs.map((g, i) => ({ g, p: (run as unknown as { positions: { xAdvance: number }[] }).positions[i] })).reverse()
          let letter = -1
          let adjustment = 0
          for (const { g, p } of glyphs) {
            if (g.codePoints.length) letter++
            if (letter === (before ? 1 : 0)) adjustment += p.xAdvance - g.advanceWidth
          }
          if (adjustment) out.push(a, fa, b, fb, adjustment)
        }
      }
    }
  }
  return out
}

/** Cuts the fallback table from the font files (`npm run fonts:metrics` writes it; a test holds it to the files). */
export function buildFallbackTable(only?: (family: string, file: string) => boolean): FallbackTable {
  const table: FallbackTable = {}
  const weights = (family: (typeof FALLBACK_FAMILIES)[number]): readonly number[] => (family.axis === 'wght' ? WEIGHTS : [400])
  for (const family of FALLBACK_FAMILIES) {
    const byWeight = new Map<number, Map<number, number>>(weights(family).map((w: number) => [w, new Map()]))
    let unitsPerEm = 0
    for (const subset of fallbackSubsets(family)) {
      if (only && !only(family.name, subset.file)) continue
      const font = openFont(subset.file) as VariableFont
      unitsPerEm ||= font.unitsPerEm
      const instances = new Map<number, VariableFont>()
      for (const weight of byWeight.keys()) {
        if (family.axis !== 'wght' || !font.HVAR) continue
        const instance = openFont(subset.file) as VariableFont
        instance.variationCoords = [weight]
        instances.set(weight, instance)
      }
      for (const cp of font.characterSet) {
        if (!subset.spans.some(([a, b]) => cp >= a && cp <= b)) continue
        const glyph = font.glyphForCodePoint(cp)
        for (const [weight, advances] of byWeight) {
          if (advances.has(cp)) continue
          const instance = instances.get(weight)
          const delta = instance?._variationProcessor?.getAdvanceAdjustment(glyph.id, instance.HVAR) ?? 0
          advances.set(cp, Math.round(glyph.advanceWidth + delta))
        }
      }
    }
    const regular = byWeight.get(400)!
    const deltas: Record<string, number[]> = {}
    for (const [weight, advances] of byWeight) {
      if (weight === 400) continue
      const differ = [...advances].filter(([cp, advance]) => regular.get(cp) !== advance).sort((a, b) => a[0] - b[0])
      if (differ.length) deltas[weight] = differ.flat()
    }
    table[family.name] = { unitsPerEm, runs: toRuns(regular), deltas }
    if (family.script === 'hebrew') {
      const rows = new Map<number, Map<number, number>>()
      for (const subset of fallbackSubsets(family)) {
        if (only && !only(family.name, subset.file)) continue
        const font = openFont(subset.file)
        const own = font.characterSet.filter((cp) => subset.spans.some(([a, b]) => cp >= a && cp <= b))
        for (const [cp, row] of kernPairs(font as GposFont, own)) rows.set(cp, row)
      }
      if (rows.size) table[family.name].kern = kernClasses(rows)
    }
    if (family.script === 'arabic') {
      table[family.name].joining = joiningForms(family, [...byWeight.keys()])
      const kern = joiningKern(family)
      if (kern.length) table[family.name].joiningKern = kern
    }
  }
  return table
}

let fallbackCached: Map<string, FallbackFace> | undefined

/** A fallback face's advances at each weight, by code point (400's when a weight has none of its own). */
export interface FallbackFace {
  unitsPerEm: number
  /** Advances at 400 by code point: every code point the face maps. */
  regular: Map<number, number>
  /** By weight: the advances that differ from 400's. */
  deltas: Map<number, Map<number, number>>
  /** By weight: each joining letter's [isolated, initial, medial, final] (-1: no such form), and pairs drawn together by first then second letter. */
  joining?: Map<number, { forms: Map<number, number[]>; pairs: Map<number, Map<number, [number, number]>> }>
  /** Kerning between neighbouring joining letters by `joiningKernKey(first, firstForm, second, secondForm)`. */
  joiningKern?: Map<number, number>
  kern?: KernTable
}

/** The key of two neighbouring letters in their forms in `FallbackFace.joiningKern`. */
export const joiningKernKey = (first: number, firstForm: number, second: number, secondForm: number) => (first * 4 + firstForm) * 0x440000 + second * 4 + secondForm

/** A fallback face's advance for a code point at a weight; undefined when the face does not map it. */
export const advanceAt = (face: FallbackFace, cp: number, weight: number): number | undefined => face.deltas.get(weight)?.get(cp) ?? face.regular.get(cp)

/** The fallback faces' advances by family name (read on the first code point the theme's face lacks). */
export function fallbackAdvances(): Map<string, FallbackFace> {
  if (!fallbackCached) {
    const table = JSON.parse(readFileSync(fallbackMetricsFile(), 'utf8')) as FallbackTable
    fallbackCached = new Map()
    for (const [name, metrics] of Object.entries(table)) {
      const regular = new Map<number, number>()
      for (let i = 0; i < metrics.runs.length; i += 3) for (let k = 0; k < metrics.runs[i + 1]; k++) regular.set(metrics.runs[i] + k, metrics.runs[i + 2])
      const deltas = new Map<number, Map<number, number>>()
      for (const [weight, delta] of Object.entries(metrics.deltas)) {
        const map = new Map<number, number>()
        for (let i = 0; i < delta.length; i += 2) map.set(delta[i], delta[i + 1])
        deltas.set(Number(weight), map)
      }
      let joining: FallbackFace['joining']
      if (metrics.joining) {
        joining = new Map()
        for (const [weight, table] of Object.entries(metrics.joining)) {
          const forms = new Map<number, number[]>()
          for (let i = 0; i < table.forms.length; i += 5) forms.set(table.forms[i], table.forms.slice(i + 1, i + 5))
          const pairs = new Map<number, Map<number, [number, number]>>()
          for (let i = 0; i < table.pairs.length; i += 4) {
            if (!pairs.has(table.pairs[i])) pairs.set(table.pairs[i], new Map())
            pairs.get(table.pairs[i])!.set(table.pairs[i + 1], [table.pairs[i + 2], table.pairs[i + 3]])
          }
          joining.set(Number(weight), { forms, pairs })
        }
      }
      let joiningKern: Map<number, number> | undefined
      if (metrics.joiningKern) {
        joiningKern = new Map()
        const k = metrics.joiningKern
        for (let i = 0; i < k.length; i += 5) joiningKern.set(joiningKernKey(k[i], k[i + 1], k[i + 2], k[i + 3]), k[i + 4])
      }
      fallbackCached.set(name, { unitsPerEm: metrics.unitsPerEm, regular, deltas, joining, joiningKern, kern: metrics.kern })
    }
  }
  return fallbackCached
}

let cached: MetricsTable | null | undefined

/** The built table, or null when it has not been built (running from source before `npm run build`). */
export function metricsTable(): MetricsTable | null {
  if (cached === undefined) {
    const file = metricsFile()
    cached = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MetricsTable) : null
  }
  return cached
}
