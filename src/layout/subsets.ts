/**
 * The font files behind every shipped family: each @fontsource package splits a face into subsets
 * (latin, latin-ext, cyrillic, greek, vietnamese; numbered slices for CJK and emoji), each with the
 * Unicode ranges it covers, listed in the package's `unicode.json`. The renderer writes one
 * @font-face rule per subset with its `unicode-range`, so Chromium fetches only the slices a text
 * uses; geometry's advance tables are cut from the same files.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { FALLBACK_FAMILIES, type FallbackFamily, type FontFamily } from '../model/fonts.js'

const load = createRequire(import.meta.url)

export interface Subset {
  /** The package path of the drawing file (`.woff2`). */
  file: string
  /** The CSS `unicode-range` value, as the package lists it. */
  range: string
  /** The same ranges as [first, last] code point pairs. */
  spans: [number, number][]
}

const cache = new Map<string, Record<string, string>>()

function rangesOf(pkg: string): Record<string, string> {
  let ranges = cache.get(pkg)
  if (!ranges) {
    ranges = JSON.parse(readFileSync(load.resolve(`${pkg}/unicode.json`), 'utf8')) as Record<string, string>
    cache.set(pkg, ranges)
  }
  return ranges
}

/** `U+0460-052F,U+20B4` as code point spans. */
export function parseRange(range: string): [number, number][] {
  const spans: [number, number][] = []
  for (const part of range.split(',')) {
    const m = /^\s*U\+([0-9a-f]+)(?:-([0-9a-f]+))?\s*$/i.exec(part)
    if (m) spans.push([parseInt(m[1], 16), parseInt(m[2] ?? m[1], 16)])
  }
  return spans
}

/** Every subset of a catalogue family at one weight and style, latin first. */
export function familySubsets(family: FontFamily, weight: number, style: 'normal' | 'italic'): Subset[] {
  const ranges = rangesOf(family.package)
  const names = Object.keys(ranges).sort((a, b) => Number(b === 'latin') - Number(a === 'latin'))
  return names.map((name) => ({ file: `${family.package}/files/${family.stem}-${name}-${weight}-${style}.woff2`, range: ranges[name], spans: parseRange(ranges[name]) }))
}

/** The subsets of a fallback family that hold its own script (numbered slices, and the named subsets it lists); latin and the rest come from the theme's faces. */
export function fallbackSubsets(family: FallbackFamily): Subset[] {
  const ranges = rangesOf(family.package)
  const out: Subset[] = []
  for (const [key, range] of Object.entries(ranges)) {
    if (!/^\[\d+\]$/.test(key) && !family.named.includes(key)) continue
    const name = key.replace(/^\[(\d+)\]$/, '$1')
    out.push({ file: `${family.package}/files/${family.stem}-${name}-${family.axis}-normal.woff2`, range, spans: parseRange(range) })
  }
  return out
}

/** Every fallback subset, by family name. */
export function allFallbackSubsets(): Map<string, Subset[]> {
  return new Map(FALLBACK_FAMILIES.map((family) => [family.name, fallbackSubsets(family)]))
}

/** Whether any span holds a code point of `points` (sorted ascending). */
export function touches(spans: [number, number][], points: number[]): boolean {
  for (const [first, last] of spans) {
    // First point >= first, by binary search.
    let lo = 0
    let hi = points.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (points[mid] < first) lo = mid + 1
      else hi = mid
    }
    if (lo < points.length && points[lo] <= last) return true
  }
  return false
}
