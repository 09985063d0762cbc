/**
 * The page's view of slides: the one renderer's HTML of each slide, and where geometry drew every
 * block, so the editor shows exactly what a PNG render and an export show and places its selection
 * frames on the boxes geometry computed (the page computes no layout of its own).
 *
 * Files the HTML names are served by `studio serve` under `/page/` (src/transports/http/page.ts):
 * asset files (`/page/asset/<deck>/<file>`), two-tone variants (`/page/variant/<deck>/<key>`) and the
 * catalogue's fonts (`/page/fonts/<file>`).
 */
import { join, relative } from 'node:path'
import type { Block, DeckDoc, Slide } from '../model/deck.js'
import { slideTitle } from '../model/deck.js'
import { drawn } from '../layout/stack.js'
import { stripMarkup as plain } from '../layout/text.js'
import { LAYOUT_SLOTS, type Box } from '../layout/boxes.js'
import { SHEET } from '../model/layouts.js'
import { slideHtml, SHEET_CSS } from './html.js'
import { paintFor, type Appearance } from './paint.js'
import { assetFiles, themedFile } from './pipeline.js'
import { assetSize, Variants } from './variants.js'
import { fontFaceCss } from './faces.js'

/** One drawn block as the editor needs it: its box (sheet px), how it turns, and what the page may edit in place. */
export interface ViewItem {
  id: string
  kind: string
  box: Box
  /** The slot it is stacked in (slotted layouts); absent on the canvas. */
  slot?: string
  /** Set when the block stands for a slide field (title, subtitle, byline, attribution). */
  field?: string
  /** JSON pointer of the block in the slide (`/blocks/3`), or of the field (`/title`). */
  pointer: string
  angle: number
  flip: { h: boolean; v: boolean }
  z?: number
  group?: string
  locked: boolean
  /** What a screen reader says for it: its alt text (a picture's comes from its asset), else its plain text. */
  label: string
  /** Its alt text as written (on the block, or on a picture's asset); empty when it has none. */
  alt: string
  /** Whether its alt text is missing where one is expected (pictures, charts, shapes without text). */
  missingAlt: boolean
}

export interface SlideViewData {
  id: string
  html: string
  items: ViewItem[]
  /** Whether the slide is the freeform canvas. */
  canvas: boolean
  title: string
}

export interface ViewOptions {
  deckDir: string
  /** The workspace root (two-tone variants are cached under its .studio/). */
  root: string
  appearance: Appearance
  /** The URL prefix the page reaches this deck's files under (no trailing slash), e.g. `/page/asset/<deck>`. */
  assetBase: string
  variantBase: string
  /** The deck's two-tone variants, kept so the page can fetch their bytes after this call. */
  variants: Variants
  /** Asset records by id (their alt text). */
  records: Record<string, { alt?: unknown }>
}

/** The words a block shows, for its label. */
function blockText(block: Block): string {
  if (typeof block.text === 'string') return plain(block.text).replace(/\n/g, ' ')
  if (Array.isArray(block.items)) return (block.items as { text?: string }[]).map((i) => plain(String(i.text ?? ''))).join('; ')
  if (Array.isArray(block.rows)) return (block.rows as string[][]).map((r) => r.map((c) => plain(String(c))).join(', ')).join('; ')
  if (typeof block.title === 'string') return plain(block.title)
  return ''
}

/** The renderer's HTML of slides, with every drawn block's box, as the page's editor shows them. */
export function slideViews(doc: DeckDoc, slides: Slide[], options: ViewOptions): SlideViewData[] {
  const assets = assetFiles(options.deckDir)
  const order = doc.manifest.sections.flatMap((s) => s.slides)
  const fonts = paintFor(doc.manifest, options.appearance).theme.fonts
  return slides.map((slide) => {
    const html = slideHtml(slide, doc.manifest, {
      appearance: options.appearance,
      number: order.indexOf(slide.id) + 1,
      markSkipped: false,
      asset: (id) => {
        const file = assets.has(id) ? themedFile(assets.get(id)!, options.appearance) : undefined
        if (!file) return undefined
        const alt = options.records[id]?.alt
        return {
          url: `${options.assetBase}/${encodeURIComponent(relative(join(options.deckDir, 'assets'), file))}`,
          ...(typeof alt === 'string' ? { alt } : {}),
          ...assetSize(options.deckDir, id),
        }
      },
      variant: (id, dither, width, height) => {
        const variant = options.variants.variant(id, dither, width, height)
        return variant ? { url: `${options.variantBase}/${variant.key}` } : undefined
      },
    })
    const indexOf = new Map((slide.blocks ?? []).map((b, i) => [b, i]))
    const items: ViewItem[] = drawn(slide, fonts).items.map((item) => {
      const { block } = item
      const flip = (block.flip ?? {}) as { h?: boolean; v?: boolean }
      const assetAlt = typeof block.asset === 'string' ? options.records[block.asset]?.alt : undefined
      const alt = typeof block.alt === 'string' && block.alt ? block.alt : typeof assetAlt === 'string' && assetAlt ? assetAlt : ''
      const text = blockText(block)
      const wantsAlt = block.kind === 'picture' ? block.background !== true && block.asset !== undefined : ['chart', 'line'].includes(block.kind) || (block.kind === 'shape' && !text)
      return {
        id: block.id,
        kind: block.kind,
        box: item.box,
        ...(item.slot ? { slot: item.slot } : {}),
        ...(item.field ? { field: item.field } : {}),
        pointer: item.field ? `/${item.field}` : `/blocks/${indexOf.get(block) ?? 0}`,
        angle: typeof block.angle === 'number' ? block.angle : 0,
        flip: { h: flip.h === true, v: flip.v === true },
        ...(typeof block.z === 'number' ? { z: block.z } : {}),
        ...(typeof block.group === 'string' ? { group: block.group } : {}),
        locked: block.locked === true,
        label: alt || text || block.kind,
        alt,
        missingAlt: wantsAlt && !alt,
      }
    })
    return { id: slide.id, html, items, canvas: slide.layout === 'freeform' || !LAYOUT_SLOTS[slide.layout], title: slideTitle(slide) }
  })
}

/**
 * The @font-face rules of the deck's theme, for the page's document (a shadow root does not load
 * faces declared inside it, so they live in the document and the sheets inherit them).
 */
export function viewFontCss(doc: DeckDoc, fontBase: string): string {
  return fontFaceCss(doc.manifest, (file) => `${fontBase}/${encodeURIComponent(file)}`)
}

export { SHEET, SHEET_CSS }
