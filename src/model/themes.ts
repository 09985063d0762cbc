/**
 * Shipped themes. A theme is addressed by its id; one theme is stored in deck.json under a longer
 * stored id (the spec's "stored under a different, longer stored id"): Simple is stored as
 * `studio-simple`, so decks written by older builds keep opening.
 */
import type { ThemeFonts } from './fonts.js'
import { DEFAULT_FONTS } from './fonts.js'
export interface Theme {
  id: string
  storedId: string
  name: string
  /** One line on what the theme is for. */
  sentence: string
  appearances: ('light' | 'dark')[]
  /** Families from the font catalogue (src/model/fonts.ts): headings, and everything else. Geometry measures with them. */
  fonts: ThemeFonts
  /** Colours by palette token, light and dark. Every theme has ink, paper, accent, muted, rule and highlight, and chart1..chart6 for chart series. */
  palette: Record<string, { light: string; dark: string }>
  /** How title, section and closing slides are dressed: an accent rule above the title (`top`), beside it (`left`), or none. */
  cover: { rule: 'top' | 'left' | 'none' }
}

type Pair = [string, string]
const tokens = (p: Record<string, Pair>) => Object.fromEntries(Object.entries(p).map(([k, [light, dark]]) => [k, { light, dark }]))

export const THEMES: Theme[] = [
  {
    id: 'simple',
    storedId: 'studio-simple',
    name: 'Simple',
    sentence: 'Inter on white or near-black with one blue accent: the default.',
    appearances: ['light', 'dark'],
    fonts: { heading: 'Inter', body: 'Inter', scale: 1, gap: 24 },
    palette: tokens({
      ink: ['#111111', '#f4f4f2'],
      paper: ['#ffffff', '#141414'],
      accent: ['#2f5bea', '#7d9bff'],
      muted: ['#6b6b6b', '#a3a3a3'],
      rule: ['#dddddd', '#333333'],
      highlight: ['#fff3a3', '#5c5200'],
      chart1: ['#2f5bea', '#7d9bff'],
      chart2: ['#e4572e', '#ff8a65'],
      chart3: ['#17a398', '#4fd1c5'],
      chart4: ['#f3a712', '#ffc94d'],
      chart5: ['#8e44ad', '#c39bd3'],
      chart6: ['#6b6b6b', '#a3a3a3'],
    }),
    cover: { rule: 'none' },
  },
  {
    id: 'editorial',
    storedId: 'editorial',
    name: 'Editorial',
    sentence: 'Source Serif 4 headlines over Inter text on warm paper, a brick-red accent: reports and essays.',
    appearances: ['light', 'dark'],
    fonts: { heading: 'Source Serif 4', body: 'Inter', scale: 1, gap: 32 },
    palette: tokens({
      ink: ['#1b1b1b', '#f2efe8'],
      paper: ['#fbfaf7', '#1a1917'],
      accent: ['#b5381f', '#ff8a65'],
      muted: ['#66625b', '#a8a29a'],
      rule: ['#e4e0d8', '#3a3733'],
      highlight: ['#fde68a', '#5b4a12'],
      chart1: ['#b5381f', '#ff8a65'],
      chart2: ['#1f4e79', '#7fb2e5'],
      chart3: ['#c9a227', '#e9c46a'],
      chart4: ['#4f7942', '#9ccc8a'],
      chart5: ['#7b4b94', '#c39bd3'],
      chart6: ['#66625b', '#a8a29a'],
    }),
    cover: { rule: 'top' },
  },
  {
    id: 'mono',
    storedId: 'mono',
    name: 'Mono',
    sentence: 'JetBrains Mono headings over Inter, a green accent: engineering reviews and demos.',
    appearances: ['light', 'dark'],
    fonts: { heading: 'JetBrains Mono', body: 'Inter', scale: 0.9375, gap: 24 },
    palette: tokens({
      ink: ['#16181d', '#e6e8eb'],
      paper: ['#f7f7f5', '#0f1115'],
      accent: ['#0a7d5a', '#3ddc97'],
      muted: ['#5c6370', '#9aa3ad'],
      rule: ['#dcdfe4', '#2a2f37'],
      highlight: ['#c6f6d5', '#1f4d3a'],
      chart1: ['#0a7d5a', '#3ddc97'],
      chart2: ['#2563eb', '#60a5fa'],
      chart3: ['#d97706', '#fbbf24'],
      chart4: ['#9333ea', '#c084fc'],
      chart5: ['#dc2626', '#f87171'],
      chart6: ['#5c6370', '#9aa3ad'],
    }),
    cover: { rule: 'left' },
  },
  {
    id: 'contrast',
    storedId: 'contrast',
    name: 'Contrast',
    sentence: 'Black and white with a signal yellow, Inter throughout: big rooms and bright projectors.',
    appearances: ['light', 'dark'],
    fonts: { heading: 'Inter', body: 'Inter', scale: 1.125, gap: 32 },
    palette: tokens({
      ink: ['#000000', '#ffffff'],
      paper: ['#ffffff', '#000000'],
      accent: ['#d4a900', '#ffd400'],
      muted: ['#4a4a4a', '#bdbdbd'],
      rule: ['#000000', '#ffffff'],
      highlight: ['#ffd400', '#6b5a00'],
      chart1: ['#000000', '#ffffff'],
      chart2: ['#d4a900', '#ffd400'],
      chart3: ['#7a7a7a', '#9e9e9e'],
      chart4: ['#c62828', '#ff6e6e'],
      chart5: ['#1565c0', '#64b5f6'],
      chart6: ['#4a4a4a', '#bdbdbd'],
    }),
    cover: { rule: 'top' },
  },
  {
    id: 'midnight',
    storedId: 'midnight',
    name: 'Midnight',
    sentence: 'Deep navy and violet, Inter throughout; at its best dark: keynotes and launches.',
    appearances: ['dark', 'light'],
    fonts: { heading: 'Inter', body: 'Inter', scale: 1, gap: 24 },
    palette: tokens({
      ink: ['#0b1020', '#e8ecff'],
      paper: ['#eef2ff', '#0b1020'],
      accent: ['#5b4ee6', '#a59bff'],
      muted: ['#4b5578', '#9aa4c7'],
      rule: ['#cfd6f0', '#232a45'],
      highlight: ['#ffe58f', '#4a3d00'],
      chart1: ['#5b4ee6', '#a59bff'],
      chart2: ['#0ea5e9', '#67e8f9'],
      chart3: ['#ec4899', '#f9a8d4'],
      chart4: ['#f59e0b', '#fcd34d'],
      chart5: ['#10b981', '#6ee7b7'],
      chart6: ['#4b5578', '#9aa4c7'],
    }),
    cover: { rule: 'left' },
  },
  {
    id: 'paper',
    storedId: 'paper',
    name: 'Paper',
    sentence: 'Source Serif 4 throughout on cream, a forest-green accent: talks that read like a page.',
    appearances: ['light', 'dark'],
    fonts: { heading: 'Source Serif 4', body: 'Source Serif 4', scale: 1.0625, gap: 32 },
    palette: tokens({
      ink: ['#2b2620', '#efe8dc'],
      paper: ['#f4efe6', '#221e19'],
      accent: ['#2f6f4f', '#7fc8a0'],
      muted: ['#6e6458', '#b3a999'],
      rule: ['#ddd3c3', '#3b342c'],
      highlight: ['#f9e79f', '#5a4b16'],
      chart1: ['#2f6f4f', '#7fc8a0'],
      chart2: ['#a0522d', '#e0a47a'],
      chart3: ['#4a6fa5', '#9db7e0'],
      chart4: ['#b08d2a', '#e2c36b'],
      chart5: ['#7d4e7a', '#c59ac2'],
      chart6: ['#6e6458', '#b3a999'],
    }),
    cover: { rule: 'top' },
  },
]

/** Looks a theme up by id or stored id. */
export function findTheme(idOrStored: string): Theme | undefined {
  return THEMES.find((theme) => theme.id === idOrStored || theme.storedId === idOrStored)
}

/**
 * The palette tokens a deck may name as colours: its theme's (Simple's when the manifest names no
 * shipped theme) and those its brand kit's palette adds or overrides.
 */
export function paletteTokens(manifest: { theme?: unknown; brandKit?: { palette?: Record<string, string> } }): Set<string> {
  const theme = (typeof manifest.theme === 'string' ? findTheme(manifest.theme) : undefined) ?? THEMES[0]
  return new Set([...Object.keys(theme.palette), ...Object.keys(manifest.brandKit?.palette ?? {})])
}

/** The palette entry of a token in a theme; undefined for anything else (`constructor` included). */
export function paletteEntry(theme: Theme | undefined, token: string): { light: string; dark: string } | undefined {
  return theme && Object.hasOwn(theme.palette, token) ? theme.palette[token] : undefined
}

/** The families a deck's theme draws with (Simple's for a theme it does not know): what geometry measures with. */
export function themeFonts(manifest: { theme?: unknown } | undefined): ThemeFonts {
  const theme = manifest && typeof manifest.theme === 'string' ? findTheme(manifest.theme) : undefined
  return theme?.fonts ?? DEFAULT_FONTS
}
