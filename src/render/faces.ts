/**
 * The font files a render page loads: the shipped faces of the deck's theme as @font-face rules.
 * Only files of this catalogue are ever served to the page.
 */
import { createRequire } from 'node:module'
import type { Manifest } from '../model/deck.js'
import { findTheme, THEMES } from '../model/themes.js'

const load = createRequire(import.meta.url)

interface FaceFile { family: string; weight: number; style: 'normal' | 'italic'; file: string }

/** Inter's static cuts, the same files geometry measures with. */
const FACES: FaceFile[] = [400, 500, 600, 700].flatMap((weight) =>
  (['normal', 'italic'] as const).map((style) => ({ family: 'Inter', weight, style, file: `@fontsource/inter/files/inter-latin-${weight}-${style}.woff2` })),
)

/** The absolute path of a catalogue font file, or undefined for any other name. */
export function fontFileOf(file: string): string | undefined {
  const face = FACES.find((f) => f.file === file)
  return face ? load.resolve(face.file) : undefined
}

/** The @font-face rules of the faces a deck's theme uses, with each file's URL from `urlOf`. */
export function fontFaceCss(manifest: Pick<Manifest, 'theme'>, urlOf: (file: string) => string): string {
  const theme = findTheme(manifest.theme) ?? THEMES[0]
  const families = new Set([theme.fonts.heading, theme.fonts.body])
  return FACES.filter((f) => families.has(f.family))
    .map((f) => `@font-face{font-family:'${f.family}';font-weight:${f.weight};font-style:${f.style};font-display:block;src:url(${urlOf(f.file)}) format('woff2')}`)
    .join('\n')
}
