/**
 * The font files a render page loads: the faces of the deck's theme (src/model/fonts.ts) as
 * @font-face rules, the same files geometry measures with. Only files of the catalogue are ever
 * served to the page.
 */
import { createRequire } from 'node:module'
import type { Manifest } from '../model/deck.js'
import { faceFile, findFamily, FONT_FAMILIES } from '../model/fonts.js'
import { themeFonts } from '../model/themes.js'

const load = createRequire(import.meta.url)

/** Every drawing file of the catalogue (each family, weight and style, `.woff2`). */
const FILES = new Set(FONT_FAMILIES.flatMap((family) => family.weights.flatMap((weight) => (['normal', 'italic'] as const).map((style) => faceFile(family, weight, style, 'woff2')))))

/** The absolute path of a catalogue font file, or undefined for any other name. */
export function fontFileOf(file: string): string | undefined {
  return FILES.has(file) ? load.resolve(file) : undefined
}

/** The @font-face rules of the families a deck's theme uses, with each file's URL from `urlOf`. */
export function fontFaceCss(manifest: Pick<Manifest, 'theme'>, urlOf: (file: string) => string): string {
  const fonts = themeFonts(manifest)
  const rules: string[] = []
  for (const name of new Set([fonts.heading, fonts.body])) {
    const family = findFamily(name)
    if (!family) continue
    for (const weight of family.weights) {
      for (const style of ['normal', 'italic'] as const) {
        rules.push(`@font-face{font-family:'${family.name}';font-weight:${weight};font-style:${style};font-display:block;src:url(${urlOf(faceFile(family, weight, style, 'woff2'))}) format('woff2')}`)
      }
    }
  }
  return rules.join('\n')
}
