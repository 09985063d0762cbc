/**
 * Rendering helpers for tests: one Chromium (the renderer's own launcher) with the sheet CSS and the
 * theme's fonts loaded, sheets set into it one at a time, and what Chromium measured read back.
 */
import { readFileSync } from 'node:fs'
import type { DeckDoc, Slide } from '../../src/model/deck.js'
import { leaseBrowser, type Browser } from '../../src/render/browser.js'
import { fontFaceCss, fontFileOf } from '../../src/render/faces.js'
import { documentHtml, slideHtml } from '../../src/render/html.js'
import type { Appearance } from '../../src/render/paint.js'

export interface Measured {
  id: string
  kind: string
  /** The box Chromium laid the block out at, sheet px. */
  box: { x: number; y: number; w: number; h: number }
  /** The height of its text element (.t), when it has one. */
  text: number | null
}

export async function sheetPage(doc: DeckDoc, options: { scale?: number; assets?: Map<string, Buffer> } = {}) {
  const browser: Browser = await leaseBrowser()
  const page = await browser.page(options.scale ?? 1)
  const assets = options.assets ?? new Map<string, Buffer>()
  await page.route('https://studio.invalid/**', (route) => {
    const url = route.request().url()
    if (url.includes('/assets/')) {
      const body = assets.get(decodeURIComponent(url.split('/assets/')[1]))
      return body ? route.fulfill({ status: 200, body, headers: { 'content-type': 'image/png' } }) : route.fulfill({ status: 404, body: '' })
    }
    const file = fontFileOf(decodeURIComponent(url.split('/fonts/')[1] ?? ''))
    return file ? route.fulfill({ status: 200, body: readFileSync(file), headers: { 'content-type': 'font/woff2' } }) : route.fulfill({ status: 404, body: '' })
  })
  await page.setContent(documentHtml([], fontFaceCss(doc.manifest, (f) => `https://studio.invalid/fonts/${encodeURIComponent(f)}`), 'body{margin:0}'))
  return {
    page,
    async show(slide: Slide, appearance: Appearance = 'light'): Promise<Measured[]> {
      const html = slideHtml(slide, doc.manifest, { appearance, markSkipped: true, asset: (id) => (assets.has(id) ? { url: `https://studio.invalid/assets/${encodeURIComponent(id)}` } : undefined) })
      return page.evaluate(async (sheet) => {
        document.body.innerHTML = sheet
        void document.body.offsetHeight
        await document.fonts.ready
        await Promise.all([...document.images].map((img) => img.decode().catch(() => undefined)))
        const root = document.querySelector('.sheet')!.getBoundingClientRect()
        return [...document.querySelectorAll<HTMLElement>('.sheet [data-block]')].map((el) => {
          const r = el.getBoundingClientRect()
          const t = el.querySelector('.t')
          return {
            id: el.dataset.block!,
            kind: [...el.classList].find((c) => c.startsWith('k-'))?.slice(2) ?? '',
            box: { x: r.x - root.x, y: r.y - root.y, w: r.width, h: r.height },
            text: t ? t.getBoundingClientRect().height : null,
          }
        })
      }, html)
    },
    /** The sheet as PNG (after `show`), or the part of it inside `clip`. */
    shot: (clip: { x: number; y: number; width: number; height: number } = { x: 0, y: 0, width: 1600, height: 900 }) => page.screenshot({ type: 'png', clip }),
    close: () => browser.close(),
  }
}
