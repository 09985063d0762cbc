/**
 * The font files a render page loads: the faces of the deck's theme (src/model/fonts.ts) and the
 * fallback faces (Arabic, Hebrew, CJK, emoji) as @font-face rules, one per subset with its
 * `unicode-range`, the same files geometry measures with. Only files of the catalogue are ever served
 * to the page.
 */
import { createRequire } from 'node:module'
import type { Manifest } from '../model/deck.js'
import { FALLBACK_FAMILIES, findFamily, FONT_FAMILIES } from '../model/fonts.js'
import { themeFonts } from '../model/themes.js'
import { allFallbackSubsets, familySubsets, touches, type Subset } from '../layout/subsets.js'

const load = createRequire(import.meta.url)

let files: Set<string> | undefined

/** Every drawing file of the catalogue (each family, weight, style and subset; each fallback slice). */
function catalogueFiles(): Set<string> {
  if (!files) {
    files = new Set<string>()
    for (const family of FONT_FAMILIES) {
      for (const weight of family.weights) for (const style of ['normal', 'italic'] as const) for (const subset of familySubsets(family, weight, style)) files.add(subset.file)
    }
    for (const subsets of allFallbackSubsets().values()) for (const subset of subsets) files.add(subset.file)
  }
  return files
}

/** The absolute path of a catalogue font file, or undefined for any other name. */
export function fontFileOf(file: string): string | undefined {
  return catalogueFiles().has(file) ? load.resolve(file) : undefined
}

/** The code points of a text, sorted and distinct. */
export function codePoints(text: string): number[] {
  const seen = new Set<number>()
  for (const ch of text) seen.add(ch.codePointAt(0)!)
  return [...seen].sort((a, b) => a - b)
}

/** Everything a page may draw from a deck: its manifest (footers, titles) and slides, entities decoded (`&#x4e2d;` draws 中). */
export function drawnText(manifest: unknown, slides: unknown): string {
  return JSON.stringify([manifest, slides]).replace(/&#(x[0-9a-f]+|[0-9]+);/gi, (whole, n: string) => {
    const cp = n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : parseInt(n, 10)
    return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole
  })
}

/**
 * The @font-face rules of the families a deck's theme uses and of the fallback faces, with each file's
 * URL from `urlOf`. Given `text` (everything the page will draw), only the subsets that hold one of its
 * characters are written, so a self-contained file carries only what it draws; without it every subset
 * is (the editor, whose text changes), and Chromium fetches a subset when text first needs it.
 */
export function fontFaceCss(manifest: Pick<Manifest, 'theme'>, urlOf: (file: string) => string, text?: string): string {
  const fonts = themeFonts(manifest)
  const families = [...new Set([fonts.heading, fonts.body])].flatMap((name) => findFamily(name) ?? [])
  let points = text === undefined ? undefined : codePoints(text)
  const wanted = (subset: Subset, always: boolean) => always || !points || touches(subset.spans, points)
  const rules: string[] = []
  for (const family of families) {
    for (const weight of family.weights) {
      for (const style of ['normal', 'italic'] as const) {
        for (const [i, subset] of familySubsets(family, weight, style).entries()) {
          if (!wanted(subset, i === 0)) continue
          rules.push(`@font-face{font-family:'${family.name}';font-weight:${weight};font-style:${style};font-display:block;src:url(${urlOf(subset.file)}) format('woff2');unicode-range:${subset.range}}`)
        }
      }
    }
  }
  // A fallback slice is wanted only for what the theme's faces do not draw (Arabic's slice also holds hyphens).
  if (points) {
    const own = families.flatMap((family) => familySubsets(family, 400, 'normal').flatMap((subset) => subset.spans))
    points = points.filter((cp) => !own.some(([a, b]) => cp >= a && cp <= b))
  }
  const fallback = allFallbackSubsets()
  for (const family of FALLBACK_FAMILIES) {
    const weight = family.axis === 'wght' ? '100 900' : family.axis
    for (const subset of fallback.get(family.name) ?? []) {
      if (!wanted(subset, false)) continue
      rules.push(`@font-face{font-family:'${family.name}';font-weight:${weight};font-style:normal;font-display:block;src:url(${urlOf(subset.file)}) format('woff2');unicode-range:${subset.range}}`)
    }
  }
  return rules.join('\n')
}
