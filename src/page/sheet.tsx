/**
 * One slide as the renderer drew it: the renderer's HTML in a shadow root (so the editor's styles and
 * the sheet's never meet), scaled from the 1600 × 900 sheet to the room it is given.
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { pictureUrl, token } from './api.js'

const sheets = new Map<string, CSSStyleSheet>()
function sheetStyle(css: string): CSSStyleSheet {
  let sheet = sheets.get(css)
  if (!sheet) {
    sheet = new CSSStyleSheet()
    sheet.replaceSync(`:host{display:block}${css}`)
    sheets.set(css, sheet)
  }
  return sheet
}

export interface SheetProps {
  html: string
  css: string
  /** Width in CSS pixels the sheet is shown at. */
  width: number
  /** Left out of the accessibility tree (thumbnails, whose button carries the name). */
  decorative?: boolean
  /** Called with the shadow root after each new HTML (the canvas finds block elements through it). */
  onRoot?: (root: ShadowRoot) => void
  /** HTML not to replace while it is being edited in place. */
  frozen?: boolean
  class?: string
  label?: string
}

export function Sheet({ html, css, width, decorative, onRoot, frozen, class: cls, label }: SheetProps) {
  const host = useRef<HTMLDivElement>(null)
  const shown = useRef<string | null>(null)
  const scale = width / 1600
  useLayoutEffect(() => {
    const el = host.current!
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' })
    root.adoptedStyleSheets = [sheetStyle(css)]
    if (frozen && shown.current !== null) return
    if (shown.current !== html) {
      root.innerHTML = html
      shown.current = html
      if (token) for (const img of root.querySelectorAll('img')) void pictureUrl(img.getAttribute('src') ?? '').then((u) => (img.src = u))
      onRoot?.(root)
    }
  }, [html, css, frozen])
  useEffect(() => () => void (shown.current = null), [])
  return (
    <div
      class={`sheet-frame ${cls ?? ''}`}
      style={{ width: `${width}px`, height: `${(width * 9) / 16}px` }}
      aria-hidden={decorative ? 'true' : undefined}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : label}
    >
      <div ref={host} class="sheet-host" style={{ transform: `scale(${scale})` }} />
    </div>
  )
}
