/**
 * Inter's advance widths as a table, cut from the shipped font files at build time
 * (dist/fonts/inter-metrics.json) so a command that measures text reads one small JSON file instead
 * of loading fontkit and decoding a WOFF per weight (~60 ms a weight). The numbers are the font's
 * own: the table holds every code point the font maps, and the .notdef advance for the rest.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { packageRoot } from '../store/workspace.js'

export const WEIGHTS = [400, 500, 600, 700] as const

export interface FaceMetrics {
  unitsPerEm: number
  /** Advance in font units by code point. */
  advances: Record<string, number>
  /** Advance of the glyph the font draws for a code point it does not map. */
  notdef: number
}

export type MetricsTable = Record<string, FaceMetrics>

export const metricsFile = () => join(packageRoot(), 'dist', 'fonts', 'inter-metrics.json')

/** Reads every weight's advances from the font files with fontkit (build time, and the test that holds the table to the fonts). */
export function buildMetricsTable(): MetricsTable {
  const load = createRequire(import.meta.url)
  const fontkit = load('fontkit') as { openSync(path: string): { unitsPerEm: number; characterSet: number[]; glyphForCodePoint(cp: number): { advanceWidth: number } } }
  const table: MetricsTable = {}
  for (const weight of WEIGHTS) {
    const font = fontkit.openSync(load.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`))
    const advances: Record<string, number> = {}
    for (const cp of font.characterSet) advances[cp] = font.glyphForCodePoint(cp).advanceWidth
    table[weight] = { unitsPerEm: font.unitsPerEm, advances, notdef: font.glyphForCodePoint(0x10ffff).advanceWidth }
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
