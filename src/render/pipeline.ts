/**
 * Slides to image files: the renderer's HTML in Chromium, screenshot per slide and appearance.
 *
 * One lease on the process's shared browser per batch (src/render/browser.ts), one page per core,
 * each page loaded once with the deck's fonts and then given one sheet after another. Every image gets a sidecar `<image>.json` (deck, slide, deck
 * revision, slide hash, theme, appearance, scale, format, size); an image whose sidecar carries the
 * same hash is reused without starting a browser. The hash covers everything the picture depends
 * on: the slide, the manifest members the renderer reads, the files of the assets it shows, the
 * appearance, scale, format and the renderer's own version.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, extname, join, relative } from 'node:path'
import { isFileInside, mkdirInside, readAssetSync, readInsideSync, writeInside } from '../store/safe-open.js'
import { slideLabel, type DeckDoc, type Slide } from '../model/deck.js'
import { hasNotesPage } from '../export/slides.js'
import { fail } from '../core/errors.js'
import { assetIdOfFile } from '../model/assets.js'
import { leaseBrowser, type Browser } from './browser.js'
import { documentHtml, family, slideHtml, type AssetView, type SlideView } from './html.js'
import { colour, escapeHtml, paintFor } from './paint.js'
import { sourceFileOf } from '../media/variants.js'
import { assetSize, screenOf, Variants } from './variants.js'
import { drawnText, fontFaceCss, fontFileOf } from './faces.js'
import type { Appearance } from './paint.js'
import { ASSET_MIME } from './mime.js'

/** Bumped when a change to the renderer changes pictures: every cached render is redrawn. */
export const RENDERER_VERSION = 3

/** The origin the render page loads fonts and pictures from; requests to it are answered from disk, every other request is refused. */
export const ORIGIN = 'https://studio.invalid'

export interface RenderRecord {
  slideId: string
  theme: Appearance
  file: string
  width: number
  height: number
  revision: number
  scale: 1 | 2 | 3
  format: 'png' | 'jpg'
  hash: string
  reused: boolean
  /** With `collectText`: every line of text the picture shows, in sheet px (the invisible text layer of flattened exports). */
  lines?: TextLine[]
}

/** One line of text as drawn: its characters and its box in sheet px, with the font size. */
export interface TextLine {
  text: string
  x: number
  y: number
  w: number
  h: number
  size: number
}

export interface RenderJob {
  doc: DeckDoc
  /** The deck folder (for asset files). */
  deckDir: string
  slides: Slide[]
  appearances: Appearance[]
  /** Device pixels per sheet pixel: 1 and 2 for renders, 3 for exports asked for rasterScale 3. */
  scale: 1 | 2 | 3
  format: 'png' | 'jpg'
  /** The folder images are written to (absolute). */
  outDir: string
  /** Paths in records are relative to this folder (the workspace root). */
  root: string
  onProgress?: (done: number, total: number) => void
  /** Read every line of text back from the page after drawing (kept in the sidecar; a reused picture without them is redrawn). */
  collectText?: boolean
}

const IMAGE_EXT = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.svg', '.avif'])

/** The picture file of each asset of a deck folder: `<id>.<ext>`, else its largest twin `<id>@<n>x.<ext>`. */
export function assetFiles(deckDir: string): Map<string, string> {
  const dir = join(deckDir, 'assets')
  const out = new Map<string, string>()
  if (!existsSync(dir)) return out
  const names = readdirSync(dir).sort()
  for (const name of names) {
    const ext = extname(name).toLowerCase()
    if (!IMAGE_EXT.has(ext) || name.includes('.source.') || name.includes('.dither-')) continue
    const id = assetIdOfFile(name)
    if (!id) continue
    const plain = name === `${id}${extname(name)}`
    if (plain || !out.has(id)) out.set(id, join(dir, name))
    else if (!out.get(id)!.endsWith(`${id}${extname(out.get(id)!)}`) && name > (out.get(id)!.split('/').pop() ?? '')) out.set(id, join(dir, name))
  }
  return out
}


/** An asset's file for an appearance: its dark twin `<id>.dark.<ext>` (a page capture's dark shot) in dark renders, when it has one. */
export function themedFile(file: string, appearance: Appearance): string {
  if (appearance !== 'dark') return file
  const ext = extname(file)
  const dark = `${file.slice(0, -ext.length).replace(/@\d+x$/, '')}.dark${ext}`
  return existsSync(dark) ? dark : file
}

/** The ids of the assets a slide shows (pictures, shader frames). */
function slideAssetIds(slide: Slide): string[] {
  const ids: string[] = []
  for (const block of slide.blocks ?? []) if (typeof block.asset === 'string') ids.push(block.asset)
  return ids
}

function fileDigest(path: string): string {
  const stat = statSync(path)
  return `${stat.size}:${stat.mtimeMs}`
}

/** Everything a slide's picture depends on, hashed. */
export function slideHash(doc: DeckDoc, slide: Slide, number: number, appearance: Appearance, scale: number, format: string, assets: Map<string, string>): string {
  const { theme, brandKit, defaults, background } = doc.manifest
  const files = [...slideAssetIds(slide), ...(brandKit?.footerLogo ? [brandKit.footerLogo] : [])].map((id) => [id, assets.has(id) ? fileDigest(themedFile(assets.get(id)!, appearance)) : null])
  // A screened block is drawn from the asset's continuous source, sized by its record.
  for (const block of slide.blocks ?? []) {
    if (!screenOf(block) || typeof block.asset !== 'string' || !assets.has(block.asset)) continue
    const dir = dirname(assets.get(block.asset)!)
    const source = sourceFileOf(dir, block.asset)
    const record = join(dir, `${block.asset}.json`)
    files.push([`${block.asset} source`, source ? fileDigest(source) : null], [`${block.asset} record`, existsSync(record) ? fileDigest(record) : null])
  }
  const payload = JSON.stringify({ v: RENDERER_VERSION, slide, number, theme, brandKit, defaults, background, files, appearance, scale, format })
  return createHash('sha256').update(payload).digest('hex').slice(0, 32)
}

/** The image file of one render. */
export function imageName(slideId: string, appearance: Appearance, scale: number, format: string): string {
  return `${slideId}.${appearance}@${scale}x.${format}`
}

/**
 * The newest render of a slide in a folder that still shows it as it is (its sidecar's hash matches
 * the slide now), or null: slide.get's `render`.
 */
export function lastRender(doc: DeckDoc, slide: Slide, deckDir: string, outDir: string, root: string): RenderRecord | null {
  if (!existsSync(outDir)) return null
  const assets = assetFiles(deckDir)
  const number = doc.manifest.sections.flatMap((s) => s.slides).indexOf(slide.id) + 1
  let best: { record: RenderRecord; mtime: number } | undefined
  for (const name of readdirSync(outDir)) {
    if (!name.startsWith(`${slide.id}.`) || !name.endsWith('.json')) continue
    const image = join(outDir, name.slice(0, -'.json'.length))
    if (!existsSync(image)) continue
    let record: RenderRecord
    try {
      record = JSON.parse(readFileSync(join(outDir, name), 'utf8')) as RenderRecord
    } catch {
      continue
    }
    if (record.slideId !== slide.id || imageName(slide.id, record.theme, record.scale, record.format) !== name.slice(0, -'.json'.length)) continue
    if (record.hash !== slideHash(doc, slide, number, record.theme, record.scale, record.format, assets)) continue
    const mtime = statSync(image).mtimeMs
    const view: RenderRecord = {
      slideId: record.slideId,
      theme: record.theme,
      file: relative(root, image),
      width: record.width,
      height: record.height,
      revision: record.revision,
      scale: record.scale,
      format: record.format,
      hash: record.hash,
      reused: true,
    }
    if (!best || mtime > best.mtime) best = { record: view, mtime }
  }
  return best?.record ?? null
}

/** Renders the job's slides in each appearance; answers one record per image, in slide order. */
export async function renderSlides(job: RenderJob): Promise<{ records: RenderRecord[]; launchMs: number | null }> {
  mkdirInside(job.root, job.outDir)
  const assets = assetFiles(job.deckDir)
  const order = job.doc.manifest.sections.flatMap((s) => s.slides)
  const numberOf = (id: string) => order.indexOf(id) + 1
  const records: RenderRecord[] = []
  const todo: { record: RenderRecord; slide: Slide; appearance: Appearance; path: string }[] = []
  for (const slide of job.slides) {
    for (const appearance of job.appearances) {
      const hash = slideHash(job.doc, slide, numberOf(slide.id), appearance, job.scale, job.format, assets)
      const path = join(job.outDir, imageName(slide.id, appearance, job.scale, job.format))
      const record: RenderRecord = {
        slideId: slide.id,
        theme: appearance,
        file: relative(job.root, path),
        width: 1600 * job.scale,
        height: 900 * job.scale,
        revision: job.doc.manifest.revision,
        scale: job.scale,
        format: job.format,
        hash,
        reused: false,
      }
      records.push(record)
      const sidecar = `${path}.json`
      if (isFileInside(job.root, path) && isFileInside(job.root, sidecar)) {
        try {
          const kept = JSON.parse(readInsideSync(job.root, sidecar).toString('utf8')) as { hash?: string; lines?: TextLine[] }
          if (kept.hash === hash && (!job.collectText || Array.isArray(kept.lines))) {
            record.reused = true
            if (job.collectText) record.lines = kept.lines
            continue
          }
        } catch {
          // Redraw.
        }
      }
      todo.push({ record, slide, appearance, path })
    }
  }
  if (!todo.length) return { records, launchMs: null }
  const browser = await leaseBrowser()
  const variants = new Variants(job.deckDir, job.doc.manifest, job.root)
  try {
    const view = (appearance: Appearance, slide: Slide): SlideView => sheetView(job.deckDir, assets, variants, appearance, numberOf(slide.id), true)
    const fontCss = fontFaceCss(job.doc.manifest, (file) => `${ORIGIN}/fonts/${encodeURIComponent(file)}`, drawnText(job.doc.manifest, todo.map((item) => item.slide)))
    const shell = documentHtml([], fontCss, 'html,body{width:1600px;height:900px;overflow:hidden}')
    // A page per core, up to four, once each has two slides or more: a second page costs about what a
    // slide does (measured, a CLI render at 2x: two slides on one page 3.4 s and 4.7 core-seconds, on two
    // 3.5 s and 5.2; four slides on two pages 4.2 s against 4.6 on one).
    const workers = Math.max(1, Math.min(availableParallelism(), 4, Math.floor(todo.length / 2)))
    let next = 0
    let done = 0
    const run = async () => {
      const page = await preparedPage(browser, job, shell, variants)
      const cdp = await page.context().newCDPSession(page)
      try {
        while (next < todo.length) {
          const item = todo[next++]
          const html = slideHtml(item.slide, job.doc.manifest, view(item.appearance, item.slide))
          await page.evaluate(DRAW_SHEET, html)
          // The DevTools capture with optimizeForSpeed: Chromium's PNG encoder at its fast setting takes
          // half the time of Playwright's screenshot (the same pixels; the file is somewhat larger).
          const shot = (await cdp.send('Page.captureScreenshot', {
            format: job.format === 'jpg' ? 'jpeg' : 'png',
            ...(job.format === 'jpg' ? { quality: 90 } : {}),
            optimizeForSpeed: true,
            captureBeyondViewport: false,
            clip: { x: 0, y: 0, width: 1600, height: 900, scale: job.scale },
          })) as { data: string }
          const bytes = Buffer.from(shot.data, 'base64')
          if (job.collectText) item.record.lines = (await page.evaluate(TEXT_LINES)) as TextLine[]
          await writeInside(job.root, item.path, bytes)
          const { reused: _reused, ...sidecar } = item.record
          await writeInside(job.root, `${item.path}.json`, `${JSON.stringify({ deck: job.doc.manifest.id, deckTheme: job.doc.manifest.theme, ...sidecar, renderer: RENDERER_VERSION }, null, 2)}\n`)
          job.onProgress?.(++done, todo.length)
        }
      } finally {
        await cdp.detach().catch(() => undefined)
        browser.release(page)
      }
    }
    await Promise.all(Array.from({ length: workers }, run))
    return { records, launchMs: browser.launchMs }
  } catch (error) {
    if ((error as { code?: string }).code) throw error
    return fail('render_failed', `Rendering failed: ${(error as Error).message.split('\n')[0]}`)
  } finally {
    await browser.close()
  }
}

/** What a sheet drawn in this module's pages reads its files through: assets, their dark twins and two-tone variants, by URL. */
function sheetView(deckDir: string, assets: Map<string, string>, variants: Variants, appearance: Appearance, number: number, markSkipped: boolean): SlideView {
  return {
    appearance,
    number,
    markSkipped,
    asset: (id: string): AssetView | undefined => {
      const file = assets.has(id) ? themedFile(assets.get(id)!, appearance) : undefined
      return file ? { url: `${ORIGIN}/assets/${encodeURIComponent(relative(join(deckDir, 'assets'), file))}`, ...assetSize(deckDir, id) } : undefined
    },
    variant: (id, dither, width, height) => {
      const variant = variants.variant(id, dither, width, height)
      return variant ? { url: `${ORIGIN}/variants/${variant.key}` } : undefined
    },
  }
}

export interface PrintJob {
  doc: DeckDoc
  deckDir: string
  root: string
  slides: Slide[]
  appearance: Appearance
  /** A page of speaker notes after each slide. */
  includeNotes: boolean
}

/** The printed document's pages: each slide's sheet, and with notes a notes page after each slide that has notes. */
function printPages(job: PrintJob, variants: Variants, paint: ReturnType<typeof paintFor>): string[] {
  const assets = assetFiles(job.deckDir)
  const order = job.doc.manifest.sections.flatMap((s) => s.slides)
  const pages: string[] = []
  for (const [i, slide] of job.slides.entries()) {
    const sheet = slideHtml(slide, job.doc.manifest, sheetView(job.deckDir, assets, variants, job.appearance, order.indexOf(slide.id) + 1, false))
    pages.push(`<div class="page">${sheet}</div>`)
    // A notes page only for a slide with notes: the slide's picture beside them (hidden from the tags, its words are the slide's).
    if (hasNotesPage(slide, job.includeNotes)) {
      const notes = escapeHtml(slide.notes!.trim()).replace(/\n/g, '<br>')
      pages.push(
        `<div class="page notes" style="background:${colour(paint, 'paper')};color:${colour(paint, 'ink')}"><p class="n-head">${escapeHtml(slideLabel(slide, i + 1))} · notes</p>` +
          `<div class="n-thumb" aria-hidden="true"><div class="n-sheet">${sheet}</div></div><div class="n-body">${notes}</div></div>`,
      )
    }
  }
  return pages
}

/**
 * A vector PDF of the slides drawn by Chromium's printer: one 1600 × 900 px page (1200 × 675 pt) per
 * slide, fonts embedded (subset), text selectable, tagged; with `includeNotes`, a notes page after each
 * slide. Answers the PDF bytes.
 */
export async function printPdf(job: PrintJob): Promise<Buffer> {
  const variants = new Variants(job.deckDir, job.doc.manifest, job.root)
  const paint = paintFor(job.doc.manifest, job.appearance)
  // Chromium starts while the pages are written (writing them keeps this thread busy; starting it is waiting).
  const leased = leaseBrowser()
  let pages: string[]
  try {
    pages = printPages(job, variants, paint)
  } catch (error) {
    void leased.then((browser) => browser.close(), () => undefined)
    throw error
  }
  const browser = await leased
  try {
    const fontCss = fontFaceCss(job.doc.manifest, (file) => `${ORIGIN}/fonts/${encodeURIComponent(file)}`, drawnText(job.doc.manifest, pages))
    const css =
      '@page{size:1600px 900px;margin:0}html,body{background:none}.page{width:1600px;height:900px;overflow:hidden;break-after:page;position:relative}.page:last-child{break-after:auto}' +
      `.notes{box-sizing:border-box;padding:80px;font-family:${family(paint.theme.fonts.body)}}.n-head{font-size:28px;margin:0 0 32px;opacity:.7}` +
      `.n-thumb{position:absolute;left:80px;top:160px;width:640px;height:360px;overflow:hidden;outline:2px solid ${colour(paint, 'rule')}}.n-sheet{width:1600px;height:900px;transform:scale(.4);transform-origin:0 0}` +
      '.n-body{position:absolute;left:780px;top:160px;right:80px;bottom:80px;overflow:hidden;font-size:28px;line-height:1.45;white-space:normal}'
    const page = await preparedPage(browser, { ...job, scale: 1 } as unknown as RenderJob, documentHtml([], fontCss, css), variants)
    try {
      await page.evaluate(DRAW_SHEET, pages.join(''))
      return await page.pdf({ width: '1600px', height: '900px', printBackground: true, tagged: true, margin: { top: '0', right: '0', bottom: '0', left: '0' } })
    } finally {
      browser.release(page)
    }
  } catch (error) {
    if ((error as { code?: string }).code) throw error
    return fail('render_failed', `Printing the PDF failed: ${(error as Error).message.split('\n')[0]}`)
  } finally {
    await browser.close()
  }
}

/**
 * Run in the page: puts the sheet's HTML in the body and answers once everything it draws has arrived:
 * the fonts, every `<img>`, and every picture a style paints (a logo's mask, a background). An image that
 * only a style names is not in `document.images`, and Chromium paints it whenever its bytes come: a
 * capture taken before that misses it (a recoloured footer logo, drawn through a CSS mask, once did).
 * Each such URL is loaded and decoded here, then two frames pass so the paint that uses it is done.
 */
const DRAW_SHEET = async (html: string): Promise<void> => {
  document.body.innerHTML = html
  // Layout first: a subset's face starts loading only once laid-out text needs it, and `ready` waits for loads under way.
  void document.body.offsetHeight
  await document.fonts.ready
  const urls = new Set<string>()
  for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
    const style = getComputedStyle(el)
    for (const value of [style.backgroundImage, style.maskImage, style.getPropertyValue('-webkit-mask-image')]) {
      for (const m of (value || '').matchAll(/url\("([^"]+)"\)/g)) urls.add(m[1])
    }
  }
  const styled = [...urls].map((src) => {
    const img = new Image()
    img.src = src
    return img
  })
  await Promise.all([...document.images, ...styled].map((img) => img.decode().catch(() => undefined)))
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
}

/**
 * Run in the page after a sheet is drawn: every line of its text with its box (sheet px) and font
 * size, word by word through ranges, words on one baseline joined into a line.
 */
const TEXT_LINES = `(() => {
  const sheet = document.querySelector('.sheet')
  if (!sheet) return []
  const origin = sheet.getBoundingClientRect()
  const lines = []
  const walker = document.createTreeWalker(sheet, NodeFilter.SHOW_TEXT)
  const range = document.createRange()
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent || ''
    if (!text.trim()) continue
    const parent = node.parentElement
    const style = parent ? getComputedStyle(parent) : null
    if (!style || style.visibility === 'hidden' || style.display === 'none' || style.opacity === '0') continue
    const size = parseFloat(style.fontSize) || 16
    let line = null
    const re = /\\S+/g
    for (let m = re.exec(text); m; m = re.exec(text)) {
      range.setStart(node, m.index)
      range.setEnd(node, m.index + m[0].length)
      const r = range.getBoundingClientRect()
      if (!r.width || !r.height) continue
      const x = r.left - origin.left, y = r.top - origin.top
      if (line && Math.abs(line.y - y) < size * 0.5 && x >= line.x + line.w - 1) {
        line.text += ' ' + m[0]
        line.w = x + r.width - line.x
        line.h = Math.max(line.h, r.height)
      } else {
        if (line) lines.push(line)
        line = { text: m[0], x, y, w: r.width, h: r.height, size }
      }
    }
    if (line) lines.push(line)
  }
  return lines.map((l) => ({ ...l, x: Math.round(l.x * 100) / 100, y: Math.round(l.y * 100) / 100, w: Math.round(l.w * 100) / 100, h: Math.round(l.h * 100) / 100 }))
})()`

/** A page of this batch's browser, routed to the deck's files and loaded with the shell document. */
async function preparedPage(browser: Browser, job: RenderJob, shell: string, variants: Variants) {
  const page = await browser.page(job.scale)
  const assetsDir = join(job.deckDir, 'assets')
  await page.route('**/*', async (route) => {
    const url = route.request().url()
    if (!url.startsWith(`${ORIGIN}/`)) return route.abort('blockedbyclient')
    const rest = decodeURIComponent(url.slice(ORIGIN.length + 1))
    let file: string | undefined
    if (rest.startsWith('variants/')) {
      const bytes = await variants.bytes(rest.slice('variants/'.length), job.scale).catch(() => undefined)
      if (!bytes) return route.fulfill({ status: 404, body: '' })
      return route.fulfill({ status: 200, body: bytes, headers: { 'content-type': 'image/png', 'cache-control': 'max-age=3600' } })
    }
    if (rest.startsWith('assets/')) {
      const name = rest.slice('assets/'.length)
      if (!name.includes('/') && !name.includes('\\') && name !== '..') file = join(assetsDir, name)
    } else if (rest.startsWith('fonts/')) file = fontFileOf(rest.slice('fonts/'.length))
    // A deck's asset that is a link (or under one) is not drawn: it could be any file of the machine.
    let body: Buffer | undefined
    try {
      body = file ? (rest.startsWith('assets/') ? readAssetSync(file) : readFileSync(file)) : undefined
    } catch {
      body = undefined
    }
    if (!file || !body) return route.fulfill({ status: 404, body: '' })
    return route.fulfill({ status: 200, body, headers: { 'content-type': ASSET_MIME[extname(file).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' } })
  })
  await page.setContent(shell)
  return page
}
