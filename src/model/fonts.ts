/**
 * The font catalogue: the faces shipped inside the package (SIL Open Font License 1.1, from
 * @fontsource), each with the family name presentation software shows. Themes name families from
 * here; geometry measures with their advance widths and the renderer loads the same files.
 */
export interface FontFamily {
  /** The family name presentation software shows (and CSS uses). */
  name: string
  category: 'sans-serif' | 'serif' | 'monospace'
  weights: readonly number[]
  italic: boolean
  licence: 'OFL-1.1'
  /** The npm package holding the files, and the file name stem of its latin subset. */
  package: string
  stem: string
}

export const FONT_FAMILIES: readonly FontFamily[] = [
  { name: 'Inter', category: 'sans-serif', weights: [400, 500, 600, 700], italic: true, licence: 'OFL-1.1', package: '@fontsource/inter', stem: 'inter' },
  { name: 'Source Serif 4', category: 'serif', weights: [400, 500, 600, 700], italic: true, licence: 'OFL-1.1', package: '@fontsource/source-serif-4', stem: 'source-serif-4' },
  { name: 'JetBrains Mono', category: 'monospace', weights: [400, 500, 600, 700], italic: true, licence: 'OFL-1.1', package: '@fontsource/jetbrains-mono', stem: 'jetbrains-mono' },
]

export const DEFAULT_FAMILY = 'Inter'

/**
 * The faces that draw what the theme's faces have no glyph for (SIL Open Font License 1.1, from
 * @fontsource): Arabic, Hebrew, Chinese, Japanese, Korean and emoji. Emoji are Noto Emoji's outlines,
 * drawn in the text's colour: headless Chromium draws no glyph of Noto Color Emoji's COLRv1 faces, so
 * a colour face would leave every render blank where an emoji stands. Every text's family stack
 * is the theme's face, then these in `fallbackOrder`; geometry measures a code point with the first
 * face of that order that maps it, as Chromium draws it.
 */
export interface FallbackFamily {
  name: string
  script: 'arabic' | 'hebrew' | CjkLanguage | 'emoji'
  licence: 'OFL-1.1'
  package: string
  stem: string
  /** The file name's axis part: `wght` for a variable face, the weight for a static one. */
  axis: 'wght' | '400'
  /** The named subsets to draw from (numbered slices are always drawn). */
  named: readonly string[]
}

export type CjkLanguage = 'zh' | 'ja' | 'ko'

export const FALLBACK_FAMILIES: readonly FallbackFamily[] = [
  { name: 'Noto Sans Arabic', script: 'arabic', licence: 'OFL-1.1', package: '@fontsource-variable/noto-sans-arabic', stem: 'noto-sans-arabic', axis: 'wght', named: ['arabic'] },
  { name: 'Noto Sans Hebrew', script: 'hebrew', licence: 'OFL-1.1', package: '@fontsource-variable/noto-sans-hebrew', stem: 'noto-sans-hebrew', axis: 'wght', named: ['hebrew'] },
  { name: 'Noto Sans SC', script: 'zh', licence: 'OFL-1.1', package: '@fontsource-variable/noto-sans-sc', stem: 'noto-sans-sc', axis: 'wght', named: [] },
  { name: 'Noto Sans JP', script: 'ja', licence: 'OFL-1.1', package: '@fontsource-variable/noto-sans-jp', stem: 'noto-sans-jp', axis: 'wght', named: [] },
  { name: 'Noto Sans KR', script: 'ko', licence: 'OFL-1.1', package: '@fontsource-variable/noto-sans-kr', stem: 'noto-sans-kr', axis: 'wght', named: [] },
  { name: 'Noto Emoji', script: 'emoji', licence: 'OFL-1.1', package: '@fontsource/noto-emoji', stem: 'noto-emoji', axis: '400', named: [] },
]

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/

/**
 * Which CJK face draws a text's Han characters: Japanese when it has kana, Korean when it has hangul,
 * Chinese (simplified) otherwise. One text draws every ideograph in one face, so a Japanese line does
 * not mix Chinese glyph forms.
 */
export function cjkLanguage(text: string): CjkLanguage {
  return KANA.test(text) ? 'ja' : HANGUL.test(text) ? 'ko' : 'zh'
}

/** The fallback faces in the order a text in `language` looks through them: its CJK face first of the three, emoji last. */
export function fallbackOrder(language: CjkLanguage = 'zh'): FallbackFamily[] {
  const rank = (f: FallbackFamily) => (f.script === 'emoji' ? 3 : f.script === language ? 1 : f.script === 'arabic' || f.script === 'hebrew' ? 0 : 2)
  return [...FALLBACK_FAMILIES].sort((a, b) => rank(a) - rank(b))
}

export function findFamily(name: string): FontFamily | undefined {
  return FONT_FAMILIES.find((f) => f.name === name)
}

/** The family's weight nearest to `weight` (a family without 500 draws 500 as its nearest). */
export function nearestWeight(family: FontFamily, weight: number): number {
  return [...family.weights].sort((a, b) => Math.abs(a - weight) - Math.abs(b - weight) || a - b)[0]
}

/** The package path of one face's file (geometry measures and the renderer draws the `.woff2`). */
export function faceFile(family: FontFamily, weight: number, style: 'normal' | 'italic', ext: 'woff' | 'woff2'): string {
  return `${family.package}/files/${family.stem}-latin-${weight}-${style}.${ext}`
}

/** How a theme sets type: the families of headings and of everything else, and its type scale. */
export interface ThemeFonts {
  heading: string
  body: string
  /** Every default text size (docs/layouts.md "Text") times this, rounded to a pixel; 1 is Simple's scale. A size a block sets is kept. */
  scale?: number
  /** Spacing: the gap between blocks stacked in a slot, px (24, Simple's, when absent). */
  gap?: number
}

export const DEFAULT_FONTS: ThemeFonts = { heading: DEFAULT_FAMILY, body: DEFAULT_FAMILY, scale: 1, gap: 24 }
