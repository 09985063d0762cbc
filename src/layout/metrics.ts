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
import { faceFile, FONT_FAMILIES } from '../model/fonts.js'

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

/** Reads every weight's advances from the font files with fontkit (build time, and the test that holds the table to the fonts). */
export function buildMetricsTable(): MetricsTable {
  const load = createRequire(import.meta.url)
  const fontkit = load('fontkit') as { openSync(path: string): { unitsPerEm: number; characterSet: number[]; glyphForCodePoint(cp: number): { advanceWidth: number } } }
  const table: MetricsTable = {}
  for (const family of FONT_FAMILIES) {
    for (const weight of family.weights) {
      const font = fontkit.openSync(load.resolve(faceFile(family, weight, 'normal', 'woff2')))
      const advances: Record<string, number> = {}
      for (const cp of font.characterSet) advances[cp] = font.glyphForCodePoint(cp).advanceWidth
      table[faceKey(family.name, weight)] = { unitsPerEm: font.unitsPerEm, advances, notdef: font.glyphForCodePoint(0x10ffff).advanceWidth }
    }
  }
  return table
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
