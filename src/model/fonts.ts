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
