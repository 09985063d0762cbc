/**
 * Shipped themes. A theme is addressed by its id; one theme is stored in deck.json under a longer
 * stored id (the spec's "stored under a different, longer stored id"): Simple is stored as
 * `studio-simple`, so decks written by older builds keep opening.
 */
export interface Theme {
  id: string
  storedId: string
  name: string
  appearances: ('light' | 'dark')[]
  fonts: { heading: string; body: string }
  palette: Record<string, { light: string; dark: string }>
}

export const THEMES: Theme[] = [
  {
    id: 'simple',
    storedId: 'studio-simple',
    name: 'Simple',
    appearances: ['light', 'dark'],
    fonts: { heading: 'Inter', body: 'Inter' },
    palette: {
      ink: { light: '#111111', dark: '#f4f4f2' },
      paper: { light: '#ffffff', dark: '#141414' },
      accent: { light: '#2f5bea', dark: '#7d9bff' },
      muted: { light: '#6b6b6b', dark: '#a3a3a3' },
      rule: { light: '#dddddd', dark: '#333333' },
      highlight: { light: '#fff3a3', dark: '#5c5200' },
    },
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
