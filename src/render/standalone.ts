/**
 * The single-file HTML build (`build.run`): every slide drawn by the renderer, the theme's fonts and
 * the deck's pictures inlined as data URLs (each picture once, however often it is shown), and a
 * small player: arrow keys, Page Up/Down, space, Home/End, clicks and swipes move through the
 * slides; `#<n>` or `#<slideId>` deep-links to a slide; `P` toggles the presenter view (current and
 * next slide, speaker notes when built with them, a timer); `F` asks for full screen. It needs no
 * network: it opens from disk.
 */
import { readFileSync } from 'node:fs'
import { readAssetSync } from '../store/safe-open.js'
import { extname } from 'node:path'
import type { DeckDoc, Slide } from '../model/deck.js'
import { orderedSlides, slideLabel } from '../model/deck.js'
import { exportSlides } from '../export/slides.js'
import { drawnText, fontFaceCss, fontFileOf } from './faces.js'
import { escapeHtml } from './paint.js'
import { SHEET_CSS, slideHtml } from './html.js'
import { assetFiles } from './pipeline.js'
import { assetSize, Variants } from './variants.js'

export interface StandaloneOptions {
  includeSkipped?: boolean
  includeNotes?: boolean
  /** Re-encode raster pictures at this quality (1–100), at most 3200 px wide. */
  quality?: number
  /** The workspace root: two-tone variants drawn for the build are cached under its .studio/cache. */
  root?: string
}

export interface StandaloneItem {
  name: string
  bytes: number
}

export interface Standalone {
  html: string
  /** What the file holds, by size (fonts, each picture, the slides' markup, the player). */
  items: StandaloneItem[]
  slides: number
}

const MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif', '.svg': 'image/svg+xml', '.avif': 'image/avif' }

async function pictureData(path: string, quality: number | undefined): Promise<{ mime: string; bytes: Buffer }> {
  const ext = extname(path).toLowerCase()
  const raw = readAssetSync(path)
  if (quality === undefined || ext === '.svg' || ext === '.gif') return { mime: MIME[ext] ?? 'application/octet-stream', bytes: raw }
  const { default: sharp } = await import('sharp')
  const image = sharp(raw)
  const meta = await image.metadata()
  const resized = (meta.width ?? 0) > 3200 ? image.resize({ width: 3200 }) : image
  const bytes = meta.hasAlpha ? await resized.webp({ quality }).toBuffer() : await resized.jpeg({ quality, mozjpeg: true }).toBuffer()
  return bytes.length < raw.length ? { mime: meta.hasAlpha ? 'image/webp' : 'image/jpeg', bytes } : { mime: MIME[ext] ?? 'application/octet-stream', bytes: raw }
}

const PLAYER_CSS = `
html,body{margin:0;height:100%;background:#111;overflow:hidden;font-family:'Inter',sans-serif}
#deck{position:fixed;inset:0}
.slide{position:absolute;left:50%;top:50%;width:1600px;height:900px;display:none;transform-origin:center center}
.slide.on{display:block}
body.presenter .slide.on{left:36%;top:42%}
body.presenter .slide.next{display:block;left:84%;top:22%;opacity:.9}
#panel{display:none;position:fixed;right:2%;top:42%;width:28%;bottom:3%;color:#eee;font-size:18px;line-height:1.45}
body.presenter #panel{display:flex;flex-direction:column;gap:12px}
#timer{font:600 40px/1 'Inter',sans-serif;font-variant-numeric:tabular-nums}
#notes{flex:1;overflow:auto;white-space:pre-wrap;background:#1c1c1c;border-radius:8px;padding:12px 16px}
#count{position:fixed;left:2%;bottom:2%;color:#aaa;font:500 16px/1 'Inter',sans-serif;display:none}
body.presenter #count{display:block}
`

const PLAYER_JS = `
(() => {
  const slides = [...document.querySelectorAll('.slide')]
  const ids = slides.map((s) => s.dataset.id)
  const notes = JSON.parse(document.getElementById('notes-data').textContent)
  const pictures = JSON.parse(document.getElementById('pictures').textContent)
  for (const img of document.querySelectorAll('img[data-asset]')) {
    const src = pictures[img.dataset.asset]
    if (src) img.src = src
  }
  let at = 0
  let started = Date.now()
  const fit = () => {
    const presenter = document.body.classList.contains('presenter')
    const w = innerWidth * (presenter ? 0.66 : 1)
    const h = innerHeight * (presenter ? 0.7 : 1)
    const k = Math.min(w / 1600, h / 900)
    for (const s of slides) {
      const next = s.classList.contains('next')
      const scale = next ? k * 0.4 : k
      s.style.transform = 'translate(-50%,-50%) scale(' + scale + ')'
    }
  }
  const show = (n, push) => {
    at = Math.max(0, Math.min(slides.length - 1, n))
    slides.forEach((s, i) => {
      s.classList.toggle('on', i === at)
      s.classList.toggle('next', i === at + 1)
      s.setAttribute('aria-hidden', i === at ? 'false' : 'true')
    })
    document.getElementById('notes').textContent = notes === null ? 'Speaker notes were not included in this build (studio build --include-notes).' : notes[at] || ''
    document.getElementById('count').textContent = (at + 1) + ' / ' + slides.length
    document.title = document.title.replace(/ \\(\\d+\\/\\d+\\)$/, '') + ' (' + (at + 1) + '/' + slides.length + ')'
    document.body.dataset.slide = String(at + 1)
    if (push !== false) history.replaceState(null, '', '#' + (at + 1))
    fit()
  }
  const fromHash = () => {
    const h = decodeURIComponent(location.hash.slice(1))
    if (!h) return 0
    if (/^\\d+$/.test(h)) return Number(h) - 1
    const i = ids.indexOf(h)
    return i < 0 ? 0 : i
  }
  addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    const k = e.key
    if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'PageDown' || k === ' ' || k === 'Enter') show(at + 1)
    else if (k === 'ArrowLeft' || k === 'ArrowUp' || k === 'PageUp' || k === 'Backspace') show(at - 1)
    else if (k === 'Home') show(0)
    else if (k === 'End') show(slides.length - 1)
    else if (k === 'p' || k === 'P') { document.body.classList.toggle('presenter'); started = Date.now(); show(at) }
    else if (k === 'f' || k === 'F') document.documentElement.requestFullscreen?.()
    else return
    e.preventDefault()
  })
  addEventListener('click', (e) => { if (e.target.closest('a')) return; show(e.clientX > innerWidth / 2 ? at + 1 : at - 1) })
  let touch = null
  addEventListener('touchstart', (e) => { touch = e.touches[0].clientX }, { passive: true })
  addEventListener('touchend', (e) => {
    if (touch === null) return
    const dx = e.changedTouches[0].clientX - touch
    if (Math.abs(dx) > 40) show(dx < 0 ? at + 1 : at - 1)
    touch = null
  })
  addEventListener('hashchange', () => show(fromHash(), false))
  addEventListener('resize', fit)
  setInterval(() => {
    const s = Math.floor((Date.now() - started) / 1000)
    document.getElementById('timer').textContent = String(Math.floor(s / 60)).padStart(2, '0') + ':' + String(s % 60).padStart(2, '0')
  }, 500)
  show(fromHash(), false)
})()
`

/** A JSON value safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

/** Builds the standalone document of a deck. */
export async function buildStandalone(doc: DeckDoc, deckDir: string, options: StandaloneOptions = {}): Promise<Standalone> {
  // The deck's slides, skipped ones only when asked; a build with nothing to show is refused, as an export is.
  const all = orderedSlides(doc)
  const slides: Slide[] = exportSlides(doc, 'all', options.includeSkipped === true)
  const appearance = doc.manifest.defaults?.appearance ?? 'light'
  const files = assetFiles(deckDir)
  const used = new Set<string>()
  const variants = new Variants(deckDir, doc.manifest, options.root)
  const usedVariants = new Set<string>()
  const items: StandaloneItem[] = []

  const fontBytes = new Map<string, number>()
  const fontCss = fontFaceCss(doc.manifest, (file) => {
    const bytes = readFileSync(fontFileOf(file)!)
    fontBytes.set(file, bytes.length)
    return `data:font/woff2;base64,${bytes.toString('base64')}`
  }, drawnText(doc.manifest, slides))
  for (const [file, bytes] of fontBytes) items.push({ name: `font ${file.split('/').pop()}`, bytes: Math.ceil((bytes * 4) / 3) })

  const sheets = slides.map((slide, i) => {
    const sheet = slideHtml(slide, doc.manifest, {
      appearance,
      number: all.indexOf(slide) + 1,
      asset: (id) => {
        if (!files.has(id)) return undefined
        used.add(id)
        return { url: `#asset:${id}`, ...assetSize(deckDir, id) }
      },
      variant: (id, dither, width, height) => {
        const variant = variants.variant(id, dither, width, height)
        if (!variant) return undefined
        usedVariants.add(variant.key)
        return { url: `#asset:dither-${variant.key}` }
      },
    })
    // Pictures are filled in from one dictionary by the player, so a picture shown twice is stored once.
    const html = sheet.replace(/<img src="#asset:([^"]+)"/g, (_m, id: string) => `<img data-asset="${id}"`)
    const label = escapeHtml(slideLabel(slide, i + 1))
    return `<section class="slide" data-id="${escapeHtml(slide.id)}" aria-label="${label}">${html}</section>`
  })
  const markup = sheets.join('\n')
  items.push({ name: 'slides (markup)', bytes: Buffer.byteLength(markup) })

  const pictures: Record<string, string> = Object.create(null)
  for (const id of [...used].sort()) {
    const { mime, bytes } = await pictureData(files.get(id)!, options.quality)
    pictures[id] = `data:${mime};base64,${bytes.toString('base64')}`
    items.push({ name: `picture ${id}`, bytes: pictures[id].length })
  }
  for (const key of [...usedVariants].sort()) {
    const bytes = (await variants.bytes(key, 2))!
    pictures[`dither-${key}`] = `data:image/png;base64,${bytes.toString('base64')}`
    items.push({ name: `two-tone picture ${variants.known(key)!.assetId} (${key})`, bytes: pictures[`dither-${key}`].length })
  }
  const notes = options.includeNotes ? slides.map((s) => s.notes ?? '') : null
  const title = escapeHtml(doc.manifest.title)
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="generator" content="Deck Studio"><title>${title}</title>` +
    `<style>${fontCss}\n${SHEET_CSS}${PLAYER_CSS}</style></head><body>` +
    `<main id="deck">\n${markup}\n</main>` +
    `<aside id="panel"><div id="timer">00:00</div><div id="notes"></div></aside><div id="count"></div>` +
    `<script type="application/json" id="pictures">${scriptJson(pictures)}</script>` +
    `<script type="application/json" id="notes-data">${scriptJson(notes)}</script>` +
    `<script>${PLAYER_JS}</script></body></html>`
  items.push({ name: 'player (styles and script)', bytes: PLAYER_CSS.length + PLAYER_JS.length + SHEET_CSS.length })
  items.sort((a, b) => b.bytes - a.bytes)
  return { html, items, slides: slides.length }
}
