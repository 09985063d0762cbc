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
