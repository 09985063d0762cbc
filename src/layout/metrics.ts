/**
 * The advance widths of every shipped face (src/model/fonts.ts: each family, each weight, upright)
 * as a table cut from the font files at build time (dist/fonts/metrics.json), so a command that
 * measures text reads one JSON file instead of loading fontkit and decoding a WOFF per face (~60 ms
 * each). The numbers are the font's own: every code point the font maps, and the .notdef advance
 * for the rest. Keys are `<family>/<weight>` ("Inter/700").
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
}

export type MetricsTable = Record<string, FaceMetrics>

export const metricsFile = () => join(packageRoot(), 'dist', 'fonts', 'metrics.json')

interface FontkitFont { unitsPerEm: number; characterSet: number[]; glyphForCodePoint(cp: number): { advanceWidth: number } }

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
      for (const subset of familySubsets(family, weight, 'normal')) {
        const font = openFont(subset.file)
        if (!unitsPerEm) {
          unitsPerEm = font.unitsPerEm
          notdef = font.glyphForCodePoint(0x10ffff).advanceWidth
        }
        for (const cp of font.characterSet) {
          if (advances[cp] !== undefined || !subset.spans.some(([a, b]) => cp >= a && cp <= b)) continue
          advances[cp] = font.glyphForCodePoint(cp).advanceWidth
        }
      }
      table[faceKey(family.name, weight)] = { unitsPerEm, advances, notdef }
    }
  }
  return table
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
    if (family.script === 'arabic') table[family.name].joining = joiningForms(family, [...byWeight.keys()])
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
}

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
      fallbackCached.set(name, { unitsPerEm: metrics.unitsPerEm, regular, deltas, joining })
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
