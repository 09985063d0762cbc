/**
 * Colours and escaping for the renderer: palette tokens resolved against the deck's theme, its brand
 * kit and the appearance; HTML text and attributes escaped. Pure, no Node imports (the renderer runs
 * in the browser too).
 */
import type { Manifest } from '../model/deck.js'
import { findTheme, paletteEntry, THEMES, type Theme } from '../model/themes.js'

export type Appearance = 'light' | 'dark'

export interface Paint {
  theme: Theme
  appearance: Appearance
  /** Brand kit tokens (one value for both appearances), checked before the theme's. */
  brand: Map<string, string>
}

export function paintFor(manifest: Pick<Manifest, 'theme' | 'brandKit'>, appearance: Appearance): Paint {
  const theme = findTheme(manifest.theme) ?? THEMES[0]
  const brand = new Map<string, string>()
  for (const [token, value] of Object.entries(manifest.brandKit?.palette ?? {})) if (typeof value === 'string') brand.set(token, value)
  return { theme, appearance, brand }
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

/** A colour of the model (hex or palette token) as CSS; `fallback` (a token) when absent or unknown. */
export function colour(paint: Paint, value: unknown, fallback = 'ink'): string {
  if (typeof value === 'string') {
    if (HEX.test(value)) return value.toLowerCase()
    const resolved = token(paint, value)
    if (resolved) return resolved
  }
  return token(paint, fallback) ?? '#000000'
}

/** Series colours past the theme's six, when a brand kit or theme leaves a `chartN` out. */
const CHART_FALLBACK = ['#2f5bea', '#e4572e', '#17a398', '#f3a712', '#8e44ad', '#6b6b6b']

/**
 * The colour of chart series (or pie slice) i: the brand kit's or theme's `chart1`..`chart6`, in turn
 * (a seventh series takes chart1 again: lint's `chart-colours` says so); without them the accent for the
 * first and a fixed set after it. Black is a colour like any other (the Contrast theme's chart1).
 */
export function seriesColour(paint: Paint, i: number): string {
  const named = token(paint, `chart${(i % 6) + 1}`)
  if (named) return colour(paint, named, 'accent')
  if (i === 0) return colour(paint, 'accent')
  return CHART_FALLBACK[i % CHART_FALLBACK.length]
}

function token(paint: Paint, name: string): string | undefined {
  const branded = paint.brand.get(name)
  if (branded) return branded
  return paletteEntry(paint.theme, name)?.[paint.appearance]
}

/** `#rgb` or `#rrggbb` with an alpha, as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  let h = hex.slice(1)
  if (h.length === 3) h = [...h].map((c) => c + c).join('')
  const n = parseInt(h, 16)
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${Math.round(alpha * 1000) / 1000})`
}

/** WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}

/**
 * The colour a logo is drawn in on `ground` when its own drawing does not read there (the appearance
 * rule's last resort, docs/media.md: mono in the deck's ink, or its paper where the ink does not stand
 * out), or undefined when it reads there or its record does not say (`readsOn`, written by logo.insert
 * for the theme's light and dark paper; the ground counts as light or dark as the rule judges it).
 */
export function logoInkOn(paint: Paint, ground: string, readsOn: { light?: boolean; dark?: boolean } | undefined): string | undefined {
  const light = contrastRatio(ground, '#000000') >= contrastRatio(ground, '#ffffff')
  if (readsOn?.[light ? 'light' : 'dark'] !== false) return undefined
  const ink = colour(paint, 'ink')
  const paper = colour(paint, 'paper')
  return contrastRatio(ink, ground) >= contrastRatio(paper, ground) ? ink : paper
}

/** Relative luminance (WCAG) of a hex colour. */
export function luminance(hex: string): number {
  let h = hex.slice(1)
  if (h.length === 3) h = [...h].map((c) => c + c).join('')
  const n = parseInt(h, 16)
  const channel = (v: number) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Rounds to hundredths, for compact CSS. */
export const px = (value: number) => `${Math.round(value * 100) / 100}px`
