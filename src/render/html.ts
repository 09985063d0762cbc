/**
 * The renderer: one slide of a deck, in a theme and an appearance, as HTML and CSS on the
 * 1600 × 900 sheet. Pure and isomorphic: it imports no Node module, so the same code feeds Chromium
 * for PNG renders, writes the single-file HTML build, and later draws the page in the browser.
 *
 * Every block sits at the box geometry computes (src/layout: `drawn`), with the text style geometry
 * measured with (`textStyle`): the renderer is not a second layout engine. Text is set with
 * `font-kerning: normal` (geometry adds the same pairs) and no ligatures, as measured. Text that does
 * not fit is drawn to its last whole line, tables step their size down (src/layout/fit.ts); a slot
 * clips its stack (geometry reports the overflow); canvas blocks are drawn in `z` order, rotated,
 * flipped, shadowed and faded as the block says. Guides are never drawn.
 */
import type { Block, Manifest, Slide } from '../model/deck.js'
import { INDENT_STEP, isPicturePlaceholder } from '../model/blocks.js'
import { SHEET } from '../model/layouts.js'
import { cjkLanguage, fallbackOrder, type CjkLanguage } from '../model/fonts.js'
import { sidePoint, facingSides, type Placement, type Side } from '../model/arrange.js'
import { drawn, type Drawn } from '../layout/stack.js'
import { footerBand, LAYOUT_SLOTS, showsKitFooter, type Box } from '../layout/boxes.js'
import { listGap, listGutter, listLayout, pictureHeight, tableColumnAlign, textStyle, SHAPE_INSET } from '../layout/blocks.js'
import { measureText } from '../layout/text.js'
import { drawnFits, type Fit } from '../layout/fit.js'
import { chartSvg } from './charts.js'
import { blocksInReadingOrder, readingOrder } from '../layout/reading.js'
import { colour, escapeHtml, logoInkOn, paintFor, px, withAlpha, type Appearance, type Paint } from './paint.js'
import { maskClip, shapePath } from './shapes.js'
import { paragraphRuns, paragraphHtml, textHtml } from './text.js'
import { resolveDither, type ResolvedDither } from '../model/dither.js'

export interface AssetView {
  /** Where the renderer's page loads the file from (a URL the page can reach, or a data: URL). */
  url: string
  alt?: string
  /** The picture's own width and height (its aspect), when known. */
  width?: number
  height?: number
  /** For a logo: whether its drawing reads on the theme's light and dark paper (a footer logo that does not is drawn in one colour). */
  readsOn?: { light?: boolean; dark?: boolean }
}

export interface SlideView {
  appearance: Appearance
  /** The file of an asset id, or undefined when it has none (a placeholder is drawn). */
  asset(id: string): AssetView | undefined
  /** The two-tone variant of a dithered picture drawn at `width` × `height` sheet pixels (src/media/variants.ts); undefined draws the source. */
  variant?(assetId: string, dither: ResolvedDither, width: number, height: number): AssetView | undefined
  /** The slide's number in the deck (drawn when the deck's counter is on). */
  number?: number
  /** Draw a "Skipped" tag on a skipped slide (renders and sheets do; the show leaves skipped slides out). */
  markSkipped?: boolean
  /** HTML blocks are drawn only where the deck and the deployment allow them. */
  allowHtml?: boolean
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/**
 * The family stack of a theme font name: the face, the fallback faces in the order of the text's CJK
 * language (src/model/fonts.ts), and a generic family for what no shipped face draws (lint reports it).
 */
export function family(name: string, language: CjkLanguage = 'zh'): string {
  const generic = /mono/i.test(name) ? 'monospace' : /serif/i.test(name) && !/sans/i.test(name) ? 'serif' : 'sans-serif'
  return [`'${name.replace(/'/g, '')}'`, ...fallbackOrder(language).map((f) => `'${f.name}'`), generic].join(', ')
}

/** The CJK language of a block's text (Japanese with kana, Korean with hangul, Chinese otherwise). */
function blockLanguage(block: Block): CjkLanguage {
  const text = JSON.stringify(block)
  return /[\u3040-\u30ff\u3130-\u318f\uac00-\ud7af]/.test(text) ? cjkLanguage(text) : 'zh'
}

/** CSS shared by every sheet of a document (fonts come separately, as @font-face rules). */
export const SHEET_CSS = `
.sheet{position:relative;width:${SHEET.width}px;height:${SHEET.height}px;overflow:hidden;contain:strict}
.sheet *{box-sizing:border-box}
.sheet .slot{position:absolute;overflow:hidden}
.sheet .b{position:absolute}
.sheet .t{font-kerning:normal;font-variant-ligatures:none;font-feature-settings:"liga" 0,"calt" 0;overflow-wrap:break-word;word-break:normal;white-space:normal;text-rendering:geometricPrecision;-webkit-font-smoothing:antialiased}
.sheet .t p{margin:0;padding:0}
.sheet .t.editing{max-height:none!important;overflow:visible!important}
.sheet .slot:has(.editing){overflow:visible}
.sheet .ln{color:inherit;text-decoration:underline}
.sheet table{border-collapse:collapse;table-layout:fixed;width:100%}
.sheet td{vertical-align:top;overflow:hidden}
.sheet svg{display:block;overflow:visible}
.sheet img{display:block}
.sheet .ph{display:flex;align-items:center;justify-content:center;text-align:center;overflow:hidden}
.sheet .skipped{position:absolute;right:24px;top:20px;padding:4px 14px;border-radius:16px;font:600 20px/28px sans-serif;letter-spacing:.04em}
`

interface Context {
  paint: Paint
  manifest: Pick<Manifest, 'theme' | 'brandKit' | 'defaults' | 'background'>
  slide: Slide
  view: SlideView
  heading: string
  body: string
  /** Where every drawn block sits (connectors attach to these). */
  placements: Map<string, Placement>
  /** Blocks drawn at another size or clipped to whole lines (src/layout/fit.ts). */
  fits: Map<string, Fit>
}

/** One slide as a `.sheet` element. */
export function slideHtml(slide: Slide, manifest: Pick<Manifest, 'theme' | 'brandKit' | 'defaults' | 'background'>, view: SlideView): string {
  const paint = paintFor(manifest, view.appearance)
  const ctx: Context = {
    paint,
    manifest,
    slide,
    view,
    heading: family(paint.theme.fonts.heading),
    body: family(paint.theme.fonts.body),
    placements: new Map(),
    fits: new Map(),
  }
  const { items, slots } = drawn(slide, paint.theme.fonts)
  ctx.fits = drawnFits(slide, paint.theme.fonts, { items, slots })
  for (const item of items) ctx.placements.set(item.block.id, placement(item))
  const background = colour(paint, slide.background ?? manifest.background, 'paper')
  const parts: string[] = []
  const freeform = slide.layout === 'freeform' || !LAYOUT_SLOTS[slide.layout]
  if (freeform) {
    // The document holds the blocks in reading order (what a screen reader, a copy and the PDF's tags
    // follow, src/layout/reading.ts); they paint in z order. When the two differ, each block's z-index says
    // its paint order: negative, so inside the sheet (a stacking context, `contain`) they all paint over its
    // background and under the cover rule and footer, as before.
    const painted = [...items].sort((a, b) => (num(a.block.z) ?? 0) - (num(b.block.z) ?? 0))
    const reading = new Map(blocksInReadingOrder(slide).map((block, i) => [block, i]))
    const read = [...items].sort((a, b) => (reading.get(a.block) ?? 0) - (reading.get(b.block) ?? 0))
    const same = read.every((item, i) => item === painted[i])
    for (const item of read) {
      const html = blockHtml(ctx, item, { x: 0, y: 0 })
      parts.push(same ? html : html.replace('style="', `style="z-index:${painted.indexOf(item) - painted.length};`))
    }
  } else {
    for (const item of items) if (!item.slot) parts.push(blockHtml(ctx, item, { x: 0, y: 0 }))
    // Slots in reading order (they do not overlap, so their order changes nothing drawn).
    const slotOrder = readingOrder(slots, (fill) => fill.box, (fill) => fill.slot === 'title')
    for (const fill of slotOrder) {
      const inSlot = items.filter((item) => item.slot === fill.slot)
      if (!inSlot.length) continue
      const box = fill.box
      const inner = inSlot.map((item) => blockHtml(ctx, item, box)).join('')
      parts.push(`<div class="slot" data-slot="${fill.slot}" style="left:${px(box.x)};top:${px(box.y)};width:${px(box.w)};height:${px(box.h)}">${inner}</div>`)
    }
  }
  parts.push(coverRule(ctx, items))
  parts.push(furniture(ctx))
  if (view.markSkipped && slide.skip) {
    parts.push(`<div class="skipped" style="background:${colour(paint, 'ink')};color:${colour(paint, 'paper')}">Skipped</div>`)
  }
  const style = `background:${background};color:${colour(paint, 'ink')};font-family:${escapeHtml(ctx.body)}`
  return `<div class="sheet" data-slide="${escapeHtml(slide.id)}" data-appearance="${view.appearance}" style="${style}">${parts.join('')}</div>`
}

/** Title, section and closing slides carry the theme's accent rule: above the title (`top`) or beside it (`left`). */
function coverRule(ctx: Context, items: Drawn[]): string {
  const rule = ctx.paint.theme.cover.rule
  if (rule === 'none' || !['title', 'section', 'closing'].includes(ctx.slide.layout)) return ''
  const title = items.find((item) => item.slot === 'title')
  if (!title) return ''
  const accent = colour(ctx.paint, 'accent')
  const { x, y, h } = title.box
  const box = rule === 'top' ? { x, y: Math.max(0, y - 40), w: 120, h: 10 } : { x: Math.max(0, x - 48), y, w: 10, h }
  return `<div class="cover-rule" style="position:absolute;left:${px(box.x)};top:${px(box.y)};width:${px(box.w)};height:${px(box.h)};background:${accent}"></div>`
}

/** The slide number, the brand kit's footer text and footer logo, in the layout's footer band (the sheet's on the canvas), where the slide leaves it free. */
function furniture(ctx: Context): string {
  const out: string[] = []
  const footer = footerBand(ctx.slide.layout)
  if (!footer) return ''
  const footerUsed = !showsKitFooter(ctx.slide)
  const muted = colour(ctx.paint, 'muted')
  const base = `position:absolute;top:${px(footer.y)};height:${px(footer.h)};font:400 20px/${px(footer.h)} ${escapeHtml(ctx.body)};color:${muted};white-space:nowrap;overflow:hidden`
  // The brand kit's footer logo: at the right of the band (left of the counter), its height, at most 240 px wide.
  const logoId = ctx.manifest.brandKit?.footerLogo
  const logo = !footerUsed && logoId ? ctx.view.asset(logoId) : undefined
  if (!footerUsed && ctx.manifest.brandKit?.footer) {
    out.push(`<div class="furniture t" style="${base};left:${px(footer.x)};width:${px(footer.w - 160 - (logo ? 256 : 0))}">${escapeHtml(ctx.manifest.brandKit.footer)}</div>`)
  }
  const counter = Boolean(ctx.manifest.defaults?.counter && ctx.view.number !== undefined)
  if (counter) {
    out.push(`<div class="furniture t" style="${base};left:${px(footer.x + footer.w - 120)};width:120px;text-align:right">${ctx.view.number}</div>`)
  }
  if (logo) {
    const right = footer.x + footer.w - (counter ? 72 : 0)
    const place = `position:absolute;top:${px(footer.y)};height:${px(footer.h)};left:${px(right - 240)};width:240px`
    // On a ground the drawing does not read on (a dark wordmark on a dark slide), its shape in one colour that does.
    const ink = logoInkOn(ctx.paint, colour(ctx.paint, ctx.slide.background ?? ctx.manifest.background, 'paper'), logo.readsOn)
    if (ink) {
      const mask = `url(&quot;${escapeHtml(logo.url)}&quot;) right center / contain no-repeat`
      out.push(`<div role="img" aria-label="${escapeHtml(logo.alt ?? '')}" class="furniture logo" data-ink="${ink}" style="${place};background:${ink};-webkit-mask:${mask};mask:${mask}"></div>`)
    } else {
      out.push(`<img src="${escapeHtml(logo.url)}" alt="${escapeHtml(logo.alt ?? '')}" class="furniture logo" style="${place};object-fit:contain;object-position:right center">`)
    }
  }
  return out.join('')
}

function placement(item: Drawn): Placement {
  const flip = (item.block.flip ?? {}) as { h?: boolean; v?: boolean }
  return { id: item.block.id, box: item.box, angle: num(item.block.angle) ?? 0, flip: { h: flip.h === true, v: flip.v === true } } as Placement
}

/** A block at its box (relative to `origin`, the slot's corner or the sheet's), with its transforms. */
function blockHtml(ctx: Context, item: Drawn, origin: { x: number; y: number }): string {
  const { block } = item
  const box = { ...item.box, x: item.box.x - origin.x, y: item.box.y - origin.y }
  if (block.kind === 'line') return lineHtml(ctx, item, origin)
  const style: string[] = [`left:${px(box.x)}`, `top:${px(box.y)}`, `width:${px(box.w)}`, `height:${px(box.h)}`]
  const transforms: string[] = []
  const angle = num(block.angle)
  if (angle) transforms.push(`rotate(${angle}deg)`)
  if (transforms.length) style.push(`transform:${transforms.join(' ')}`)
  const transparency = num(block.transparency)
  if (transparency) style.push(`opacity:${Math.round((1 - transparency) * 1000) / 1000}`)
  const shadow = shadowCss(ctx, block)
  if (shadow) style.push(`filter:${shadow}`)
  const inner = contentHtml(ctx, block, item.box, item.slot)
  const kind = escapeHtml(block.kind)
  return `<div class="b k-${kind}" data-block="${escapeHtml(block.id)}" style="${style.join(';')}">${inner}</div>`
}

function shadowCss(ctx: Context, block: Block): string | undefined {
  const shadow = block.shadow as { color?: string; opacity?: number; angle?: number; distance?: number; blur?: number } | undefined
  if (!shadow || typeof shadow !== 'object') return undefined
  const angle = ((num(shadow.angle) ?? 45) * Math.PI) / 180
  const distance = num(shadow.distance) ?? 8
  const dx = Math.round(distance * Math.cos(angle) * 100) / 100
  const dy = Math.round(distance * Math.sin(angle) * 100) / 100
  const tint = withAlpha(colour(ctx.paint, shadow.color, 'ink'), num(shadow.opacity) ?? 0.3)
  return `drop-shadow(${dx}px ${dy}px ${num(shadow.blur) ?? 16}px ${tint})`
}

/** The mirror transform of a flipped graphic (pictures and shape outlines; text is never mirrored). */
function flipCss(block: Block): string {
  const flip = (block.flip ?? {}) as { h?: boolean; v?: boolean }
  if (!flip.h && !flip.v) return ''
  return `transform:scale(${flip.h ? -1 : 1},${flip.v ? -1 : 1});`
}

function contentHtml(ctx: Context, block: Block, box: Box, slot: string | undefined): string {
  switch (block.kind) {
    case 'text':
    case 'heading':
    case 'textbox':
      return textBlock(ctx, block, box, slot)
    case 'list':
      return listBlock(ctx, block, slot)
    case 'table':
      return tableBlock(ctx, block, slot)
    case 'picture':
      return pictureBlock(ctx, block, box)
    case 'shape':
      return shapeBlock(ctx, block, box, slot)
    case 'chart':
      return chartSvg(ctx.paint, block, box.w, box.h, ctx.body)
    case 'shader':
      return shaderBlock(ctx, block, box)
    case 'html':
      return placeholder(ctx, ctx.view.allowHtml ? 'HTML block' : 'HTML block (not drawn: HTML blocks are off)', box)
    default:
      return ''
  }
}

/** The text style of a block as CSS: family, size, weight, line height, colour, alignment, columns, indent. */
function textCss(ctx: Context, block: Block, slot: string | undefined): { css: string; size: number; lineHeight: number } {
  const style = textStyle(block, ctx.slide.layout, slot, ctx.paint.theme.fonts)
  const fit = ctx.fits.get(block.id)
  if (fit) style.size = fit.size
  const css = [
    `font-family:${escapeHtml(family(block.kind === 'heading' ? ctx.paint.theme.fonts.heading : ctx.paint.theme.fonts.body, blockLanguage(block)))}`,
    `font-size:${px(style.size)}`,
    `font-weight:${style.weight}`,
    `line-height:${px(style.size * style.lineHeight)}`,
    `color:${colour(ctx.paint, block.color, 'ink')}`,
  ]
  // Text in a shape is centred unless the block says otherwise (as presentation software draws it).
  const align = str(block.align) ?? (block.kind === 'shape' ? 'center' : undefined)
  if (align) css.push(`text-align:${align}`)
  const columns = num(block.columns)
  if (columns && columns > 1) css.push(`column-count:${Math.min(3, Math.floor(columns))}`, 'column-gap:32px', 'column-fill:balance')
  // Text taller than its room stops at its last whole line (the editor lifts this while editing).
  if (fit?.clip !== undefined && block.kind !== 'table') css.push(`max-height:${px(fit.clip)}`, 'overflow:hidden', 'flex-shrink:0')
  return { css: css.join(';'), size: style.size, lineHeight: style.lineHeight }
}

function paragraphSpacing(block: Block): string {
  const spacing = (block.spacing ?? {}) as { before?: number; after?: number }
  const out: string[] = []
  if (num(spacing.before)) out.push(`padding-top:${px(spacing.before!)}`)
  if (num(spacing.after)) out.push(`padding-bottom:${px(spacing.after!)}`)
  return out.join(';')
}

/** Vertical placement of text inside a taller box: canvas text boxes and shapes honour `valign`. */
function valignCss(block: Block, fallback: 'top' | 'middle' | 'bottom'): string {
  const valign = str(block.valign) ?? fallback
  const justify = valign === 'middle' ? 'center' : valign === 'bottom' ? 'flex-end' : 'flex-start'
  return `display:flex;flex-direction:column;justify-content:${justify}`
}

function textBlock(ctx: Context, block: Block, box: Box, slot: string | undefined): string {
  const { css } = textCss(ctx, block, slot)
  const indent = num(block.indent)
  const pad = indent ? `;padding-left:${px(indent)}` : ''
  const text = textHtml(ctx.paint, str(block.text) ?? '', paragraphSpacing(block))
  return `<div style="width:100%;height:100%;${valignCss(block, 'top')}"><div class="t" style="${css}${pad}">${text}</div></div>`
}

const BULLETS: Record<string, string> = { disc: '•', circle: '◦', square: '▪', dash: '–', arrow: '→', check: '✓', star: '★', diamond: '◆' }

function roman(n: number): string {
  const table: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']]
  let out = ''
  for (const [value, letters] of table) while (n >= value) {
    out += letters
    n -= value
  }
  return out || '0'
}

function alpha(n: number): string {
  let out = ''
  while (n > 0) {
    n--
    out = String.fromCharCode(97 + (n % 26)) + out
    n = Math.floor(n / 26)
  }
  return out || 'a'
}

/** The marker text of item number `n` (1-based within its level) of a list. */
export function markerText(block: Block, n: number): string {
  const preset = str(block.preset) ?? (block.marker === 'number' ? 'decimal' : 'disc')
  if (block.marker === 'bullet' && !(preset in BULLETS)) return BULLETS.disc
  if (preset in BULLETS) return BULLETS[preset]
  switch (preset) {
    case 'decimal-paren':
      return `${n})`
    case 'lower-alpha':
      return `${alpha(n)}.`
    case 'upper-alpha':
      return `${alpha(n).toUpperCase()}.`
    case 'lower-roman':
      return `${roman(n)}.`
    case 'upper-roman':
      return `${roman(n).toUpperCase()}.`
    case 'rule':
      return ''
    default:
      return `${n}.`
  }
}

function listBlock(ctx: Context, block: Block, slot: string | undefined): string {
  const { css, size } = textCss(ctx, block, slot)
  const { items, spacing, explicit, gutter, indent, rule, start } = listLayout(block, size)
  const counters: number[] = []
  const accent = colour(ctx.paint, 'accent')
  const out = items.map((item, i) => {
    const level = Math.min(9, Math.max(1, Math.floor(num(item.level) ?? 1)))
    counters.length = level
    counters[level - 1] = (counters[level - 1] ?? (level === 1 ? start - 1 : 0)) + 1
    const left = indent + INDENT_STEP * (level - 1)
    const pad: string[] = [`padding-left:${px(left + gutter)}`, 'position:relative']
    if (explicit) {
      if (num(spacing.before)) pad.push(`padding-top:${px(spacing.before!)}`)
      if (num(spacing.after)) pad.push(`padding-bottom:${px(spacing.after!)}`)
    } else if (i > 0) pad.push(`padding-top:${px(listGap(size))}`)
    const runs = paragraphRuns(str(item.text) ?? '').flat()
    let marker = ''
    if (rule) {
      marker = `<span style="position:absolute;left:${px(left - 20)};top:${explicit ? px(num(spacing.before) ?? 0) : i > 0 ? px(listGap(size)) : '0'};bottom:${explicit ? px(num(spacing.after) ?? 0) : '0'};width:4px;background:${accent}"></span>`
    } else {
      const text = block.marker === 'bullet' || (block.marker !== 'number' && (str(block.preset) ?? 'disc') in BULLETS) ? markerText(block, counters[level - 1]) : markerText({ ...block, marker: 'number' }, counters[level - 1])
      marker = `<span style="position:absolute;left:${px(left)};width:${px(gutter)};color:${accent}">${escapeHtml(text)}</span>`
    }
    return `<p style="${pad.join(';')}">${marker}${paragraphHtml(ctx.paint, runs)}</p>`
  })
  return `<div class="t" style="${css}">${out.join('')}</div>`
}

function tableBlock(ctx: Context, block: Block, slot: string | undefined): string {
  const { css, size } = textCss(ctx, block, slot)
  const all = Array.isArray(block.rows) ? (block.rows as unknown[][]) : []
  // A table that does not fit even at its least size: whole rows only.
  const rows = all.slice(0, ctx.fits.get(block.id)?.rows ?? all.length)
  const count = Math.max(0, ...all.map((r) => (Array.isArray(r) ? r.length : 0)))
  if (!count) return ''
  const weights = Array.from({ length: count }, (_, i) => {
    const w = Array.isArray(block.columnWidths) ? num((block.columnWidths as unknown[])[i]) : undefined
    return w !== undefined && w > 0 ? w : 1
  })
  const total = weights.reduce((a, b) => a + b, 0)
  const pad = Math.round(size * 0.5)
  const vpad = size * 0.175
  const rule = colour(ctx.paint, 'rule')
  const ink = colour(ctx.paint, 'ink')
  const cols = weights.map((w) => `<col style="width:${Math.round((w / total) * 1e6) / 1e4}%">`).join('')
  const align = tableColumnAlign(block)
  const body = rows
    .map((row, r) => {
      const header = r === 0 && block.header === true
      const line = header ? `box-shadow:inset 0 -2px 0 ${ink}` : `box-shadow:inset 0 -1px 0 ${rule}`
      const cells = Array.from({ length: count }, (_, c) => {
        const cell = Array.isArray(row) ? str(row[c]) ?? '' : ''
        return `<td style="padding:${px(vpad)} ${px(pad)};${line}${header ? ';font-weight:600' : ''}${align[c] !== 'left' ? `;text-align:${align[c]}` : ''}">${textHtml(ctx.paint, cell)}</td>`
      }).join('')
      return `<tr>${cells}</tr>`
    })
    .join('')
  return `<table class="t" style="${css}"><colgroup>${cols}</colgroup>${body}</table>`
}

function placeholder(ctx: Context, label: string, box: Box): string {
  const rule = colour(ctx.paint, 'rule')
  const muted = colour(ctx.paint, 'muted')
  const size = Math.max(12, Math.min(24, Math.round(Math.min(box.w, box.h) / 8)))
  return `<div class="ph" style="width:100%;height:100%;border:2px dashed ${rule};color:${muted};font:400 ${size}px/1.3 ${escapeHtml(ctx.body)}">${escapeHtml(label)}</div>`
}

/**
 * The size a picture of aspect `width` / `height` is drawn at in an area of `areaW` × `areaH` sheet
 * pixels, after its crop and fit: the size its two-tone variant is screened at. Without a known aspect,
 * the drawn size of the picture element itself.
 */
export function drawnPictureSize(block: Block, areaW: number, areaH: number, natural?: { width?: number; height?: number }): { w: number; h: number } {
  const crop = (block.crop ?? {}) as { left?: number; right?: number; top?: number; bottom?: number }
  const sw = Math.max(0.01, 1 - (num(crop.left) ?? 0) - (num(crop.right) ?? 0))
  const sh = Math.max(0.01, 1 - (num(crop.top) ?? 0) - (num(crop.bottom) ?? 0))
  const w = areaW / sw
  const h = areaH / sh
  const nw = num(natural?.width)
  const nh = num(natural?.height)
  if (!nw || !nh) return { w: Math.max(1, Math.round(w)), h: Math.max(1, Math.round(h)) }
  const s = block.fit === 'contain' ? Math.min(w / nw, h / nh) : Math.max(w / nw, h / nh)
  return { w: Math.max(1, Math.round(nw * s)), h: Math.max(1, Math.round(nh * s)) }
}

function pictureBlock(ctx: Context, block: Block, box: Box): string {
  // A picture placeholder draws nothing: its prompt is the editor's, over the sheet.
  if (isPicturePlaceholder(block)) return ''
  const assetId = str(block.asset) ?? ''
  const asset = ctx.view.asset(assetId)
  const caption = str(block.caption)
  const slotted = !(block.pos && typeof block.pos === 'object')
  const height = pictureHeight(block, box, ctx.paint.theme.fonts.body)
  let picture: string
  if (!asset) picture = placeholder(ctx, `Picture "${assetId}" has no file`, { ...box, h: height })
  else {
    const crop = (block.crop ?? {}) as { left?: number; right?: number; top?: number; bottom?: number }
    const l = num(crop.left) ?? 0
    const r = num(crop.right) ?? 0
    const t = num(crop.top) ?? 0
    const b = num(crop.bottom) ?? 0
    const sw = Math.max(0.01, 1 - l - r)
    const sh = Math.max(0.01, 1 - t - b)
    const filters: string[] = []
    const brightness = num(block.brightness)
    const contrast = num(block.contrast)
    if (brightness) filters.push(`brightness(${Math.round((1 + brightness) * 1000) / 1000})`)
    if (contrast) filters.push(`contrast(${Math.round((1 + contrast) * 1000) / 1000})`)
    const fit = block.fit === 'contain' ? 'contain' : 'cover'
    const place =
      `position:absolute;left:${Math.round((-l / sw) * 1e6) / 1e4}%;top:${Math.round((-t / sh) * 1e6) / 1e4}%;` +
      `width:${Math.round((1 / sw) * 1e6) / 1e4}%;height:${Math.round((1 / sh) * 1e6) / 1e4}%;object-fit:${fit};${flipCss(block)}`
    // A dithered picture: its screen (drawn at the picture's size on the sheet) over the source at the field's strength.
    const dither = block.dither && typeof block.dither === 'object' ? resolveDither(block.dither as Record<string, unknown>) : undefined
    const drawn = dither ? drawnPictureSize(block, box.w, height, asset) : undefined
    const variant = dither && drawn && ctx.view.variant ? ctx.view.variant(assetId, dither, drawn.w, drawn.h) : undefined
    let img = `<img src="${escapeHtml(asset.url)}" alt="${escapeHtml(asset.alt ?? '')}" style="${place}${filters.length ? `filter:${filters.join(' ')};` : ''}">`
    if (variant && dither) {
      const screenImg = (extra: string, alt: string) => `<img src="${escapeHtml(variant.url)}" alt="${alt}" data-variant style="${place}image-rendering:pixelated;${extra}">`
      img = dither.strength >= 1 ? screenImg('', escapeHtml(asset.alt ?? '')) : `${img.replace(/alt="[^"]*"/, 'alt=""')}${screenImg(`opacity:${Math.max(0, dither.strength)};`, escapeHtml(asset.alt ?? ''))}`
    }
    const clip = maskClip(block.mask, box.w, height)
    picture = `<div style="position:relative;width:100%;height:${px(height)};overflow:hidden${clip ? `;clip-path:${clip}` : ''}">${img}</div>`
  }
  if (!caption) return picture
  const captionCss = `${slotted ? '' : 'position:absolute;left:0;right:0;top:100%;'}font-family:${escapeHtml(ctx.body)};font-size:24px;line-height:30px;color:${colour(ctx.paint, 'muted')};padding-top:8px`
  return `${picture}<div class="t" style="${captionCss}">${textHtml(ctx.paint, caption)}</div>`
}

function shapeBlock(ctx: Context, block: Block, box: Box, slot: string | undefined): string {
  const shape = str(block.shape) ?? 'rect'
  const strokeWidth = num(block.strokeWidth) ?? (block.fill ? 0 : 2)
  const fill = block.fill ? colour(ctx.paint, block.fill, 'accent') : 'none'
  const stroke = block.stroke || !block.fill ? colour(ctx.paint, block.stroke, 'ink') : 'none'
  const inset = strokeWidth / 2
  let graphic: string
  if (shape === 'line') {
    // A line shape is all stroke: its colour is the stroke's, else the fill's, else ink.
    const ink = colour(ctx.paint, block.stroke ?? block.fill, 'ink')
    graphic = `<line x1="0" y1="${box.h / 2}" x2="${box.w}" y2="${box.h / 2}" stroke="${ink}" stroke-width="${Math.max(2, num(block.strokeWidth) ?? 2)}"/>`
  } else {
    const d = shapePath(shape, Math.max(0, box.w - strokeWidth), Math.max(0, box.h - strokeWidth))
    graphic = `<path transform="translate(${inset},${inset})" d="${d}" fill="${fill}" stroke="${stroke}" stroke-width="${strokeWidth}"/>`
  }
  const svg = `<svg style="position:absolute;left:0;top:0;${flipCss(block)}" width="${box.w}" height="${box.h}" viewBox="0 0 ${box.w} ${box.h}">${graphic}</svg>`
  const text = str(block.text)
  if (!text) return svg
  const { css } = textCss(ctx, block, slot)
  const content = `<div class="t" style="${css}">${textHtml(ctx.paint, text, paragraphSpacing(block))}</div>`
  return `${svg}<div style="position:absolute;inset:0;padding:${SHAPE_INSET}px;${valignCss(block, 'middle')}">${content}</div>`
}

function shaderBlock(ctx: Context, block: Block, box: Box): string {
  const asset = str(block.asset) ? ctx.view.asset(str(block.asset)!) : undefined
  if (asset) {
    // twoTone: the frame under the deck's two-tone screen, at the size the block draws it.
    const drawn = block.twoTone === true ? drawnPictureSize({ ...block, fit: 'cover' } as Block, box.w, box.h, asset) : undefined
    const variant = drawn && ctx.view.variant ? ctx.view.variant(str(block.asset)!, resolveDither({}), drawn.w, drawn.h) : undefined
    const src = variant?.url ?? asset.url
    return `<img src="${escapeHtml(src)}" alt=""${variant ? ' data-variant' : ''} style="width:100%;height:100%;object-fit:cover${variant ? ';image-rendering:pixelated' : ''}">`
  }
  // No captured frame yet: the material's colours as a still gradient, named.
  const a = colour(ctx.paint, 'accent')
  const b = colour(ctx.paint, 'paper')
  const size = Math.max(12, Math.min(22, Math.round(box.h / 12)))
  return `<div class="ph" style="width:100%;height:100%;background:linear-gradient(135deg,${a},${b});color:${colour(ctx.paint, 'ink')};font:400 ${size}px/1.3 ${escapeHtml(ctx.body)}">${escapeHtml(str(block.materialId) ?? 'shader')}</div>`
}

/** A line or connector, drawn on the whole sheet (its ends may be on other blocks). */
function lineHtml(ctx: Context, item: Drawn, origin: { x: number; y: number }): string {
  const { block, box } = item
  const [from, to] = lineEnds(ctx, block, box)
  const stroke = colour(ctx.paint, block.stroke, 'ink')
  const width = num(block.strokeWidth) ?? 2
  const arrow = str(block.arrow) ?? 'none'
  const id = `m-${escapeHtml(ctx.slide.id)}-${escapeHtml(block.id)}`.replace(/[^A-Za-z0-9_-]/g, '_')
  const head = Math.max(8, width * 4)
  const marker = (name: string, flip: boolean) =>
    `<marker id="${id}-${name}" viewBox="0 0 10 10" refX="${flip ? 1 : 9}" refY="5" markerUnits="userSpaceOnUse" markerWidth="${head}" markerHeight="${head}" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="${stroke}"/></marker>`
  const defs: string[] = []
  const attrs: string[] = []
  if (arrow === 'end' || arrow === 'both') {
    defs.push(marker('end', false))
    attrs.push(`marker-end="url(#${id}-end)"`)
  }
  if (arrow === 'start' || arrow === 'both') {
    defs.push(marker('start', false))
    attrs.push(`marker-start="url(#${id}-start)"`)
  }
  const transparency = num(block.transparency)
  const opacity = transparency ? ` opacity="${Math.round((1 - transparency) * 1000) / 1000}"` : ''
  const line = `<line x1="${from.x - origin.x}" y1="${from.y - origin.y}" x2="${to.x - origin.x}" y2="${to.y - origin.y}" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" ${attrs.join(' ')}${opacity}/>`
  return `<svg class="b k-line" data-block="${escapeHtml(block.id)}" style="left:0;top:0;width:1px;height:1px" width="1" height="1"><defs>${defs.join('')}</defs>${line}</svg>`
}

/** The two ends of a line: attached ends meet their blocks (the facing sides when no side is set); free ends come from from/to, else the box. */
export function lineEnds(ctx: Pick<Context, 'placements'>, block: Block, box: Box): [{ x: number; y: number }, { x: number; y: number }] {
  const from = block.from as { x?: number; y?: number } | undefined
  const to = block.to as { x?: number; y?: number } | undefined
  let a = from && num(from.x) !== undefined ? { x: from.x!, y: from.y ?? 0 } : undefined
  let b = to && num(to.x) !== undefined ? { x: to.x!, y: to.y ?? 0 } : undefined
  if (!a || !b) {
    const flat = box.h <= Math.max(4, (num(block.strokeWidth) ?? 2) * 2)
    const upright = box.w <= Math.max(4, (num(block.strokeWidth) ?? 2) * 2)
    a ??= flat ? { x: box.x, y: box.y + box.h / 2 } : upright ? { x: box.x + box.w / 2, y: box.y } : { x: box.x, y: box.y }
    b ??= flat ? { x: box.x + box.w, y: box.y + box.h / 2 } : upright ? { x: box.x + box.w / 2, y: box.y + box.h } : { x: box.x + box.w, y: box.y + box.h }
  }
  const start = block.start as { block?: string; side?: Side } | undefined
  const end = block.end as { block?: string; side?: Side } | undefined
  const sa = start?.block !== undefined ? ctx.placements.get(start.block) : undefined
  const sb = end?.block !== undefined ? ctx.placements.get(end.block) : undefined
  if (sa && sb) {
    const [fa, fb] = facingSides(sa, sb)
    a = sidePoint(sa, start!.side ?? fa)
    b = sidePoint(sb, end!.side ?? fb)
  } else {
    if (sa) a = sidePoint(sa, start!.side ?? 'center')
    if (sb) b = sidePoint(sb, end!.side ?? 'center')
  }
  return [a, b]
}

/** A standalone document holding sheets, with the fonts' @font-face rules and the sheet CSS. */
export function documentHtml(sheets: string[], fontCss: string, extraCss = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontCss}\nhtml,body{margin:0;padding:0;background:#888}${SHEET_CSS}${extraCss}</style></head><body>${sheets.join('')}</body></html>`
}
