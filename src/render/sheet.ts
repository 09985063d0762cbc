/**
 * Contact sheets: the slide renders of one appearance as thumbnails on a grid (sharp), with a JSON
 * cell map from each cell's box to its slide id, optional slide numbers, and a lint or plate overlay.
 * Numbers sit in a strip under each thumbnail with the slide's label, never on the slide, where they
 * covered its footer and captions.
 */
import { join, relative } from 'node:path'
import { writeInside } from '../store/safe-open.js'
import { slideLabel, type DeckDoc, type Slide } from '../model/deck.js'
import { lintSlide, type AssetRecord } from '../model/lint.js'
import { drawnBoxes } from '../layout/stack.js'
import { themeFonts } from '../model/themes.js'
import { fail } from '../core/errors.js'
import { escapeHtml, type Appearance } from './paint.js'

export interface SheetJob {
  doc: DeckDoc
  slides: Slide[]
  appearance: Appearance
  /** The slide images, in the order of `slides`. */
  images: string[]
  cols: number
  thumb: number
  numbered: boolean
  overlay?: 'lint' | 'plate'
  assets?: Record<string, AssetRecord>
  outDir: string
  root: string
}

export interface SheetCell {
  box: { x: number; y: number; w: number; h: number }
  slideId: string
  number: number
}

const GAP = 16
const MARGIN = 24
/** The sheet's own background, and the ink of its labels, by appearance. */
const SHEET_PAPER: Record<Appearance, string> = { light: '#e9e9e6', dark: '#2a2a2a' }
const SHEET_INK: Record<Appearance, string> = { light: '#2b2b2b', dark: '#e6e6e3' }
/** Height of the strip under a numbered sheet's thumbnails. */
export const LABEL = 26

/**
 * Where each cell's thumbnail sits: a grid of `cols` columns of thumbnails `thumb` wide at 16:9, 16 px
 * apart, 24 px margin; with `labelled`, each row LABEL px taller for the strip under its thumbnails.
 */
export function sheetCells(slides: Slide[], numbers: number[], cols: number, thumb: number, labelled = false): { cells: SheetCell[]; width: number; height: number } {
  const h = Math.round((thumb * 9) / 16)
  const row = h + (labelled ? LABEL : 0)
  const columns = Math.max(1, Math.min(cols, slides.length || 1))
  const rows = Math.max(1, Math.ceil(slides.length / columns))
  const cells = slides.map((slide, i) => ({
    box: { x: MARGIN + (i % columns) * (thumb + GAP), y: MARGIN + Math.floor(i / columns) * (row + GAP), w: thumb, h },
    slideId: slide.id,
    number: numbers[i],
  }))
  return { cells, width: 2 * MARGIN + columns * thumb + (columns - 1) * GAP, height: 2 * MARGIN + rows * row + (rows - 1) * GAP }
}

/** The strip under a numbered cell: the slide's number on a badge, then its label cut to the width. */
function cellLabel(slide: Slide, cell: SheetCell, appearance: Appearance): string {
  const w = cell.box.w
  const ink = SHEET_INK[appearance]
  const paper = SHEET_PAPER[appearance]
  const number = String(cell.number)
  const badge = number.length * 9 + 12
  // About 7 px a character at 13 px sans-serif: the label is cut at a word, with an ellipsis, before it reaches the edge.
  const room = Math.max(0, Math.floor((w - badge - 10) / 7))
  const full = slideLabel(slide, cell.number)
  const label = full.length <= room ? full : `${full.slice(0, Math.max(0, room - 1)).replace(/\s+\S*$/, '')}…`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${LABEL}">` +
    `<rect x="0" y="4" width="${badge}" height="20" rx="4" fill="${ink}"/>` +
    `<text x="6" y="19" font-size="14" font-family="sans-serif" font-weight="600" fill="${paper}">${number}</text>` +
    (room > 1 ? `<text x="${badge + 8}" y="19" font-size="13" font-family="sans-serif" fill="${ink}">${escapeHtml(label)}</text>` : '') +
    `</svg>`
  )
}

/** The SVG drawn over one cell: number, lint frame and counts, plate corners. */
function cellOverlay(job: SheetJob, slide: Slide, cell: SheetCell): string {
  const { w, h } = cell.box
  const parts: string[] = []
  const scale = w / 1600
  if (job.overlay === 'lint') {
    const findings = lintSlide(slide, job.doc, { assets: job.assets, appearance: job.appearance })
    const errors = findings.filter((f) => f.severity === 'error').length
    const warnings = findings.filter((f) => f.severity === 'warning').length
    const tint = errors ? '#d7263d' : warnings ? '#f29e02' : undefined
    if (tint) {
      parts.push(`<rect x="2" y="2" width="${w - 4}" height="${h - 4}" fill="none" stroke="${tint}" stroke-width="4"/>`)
      const label = [errors ? `${errors} error${errors > 1 ? 's' : ''}` : '', warnings ? `${warnings} warning${warnings > 1 ? 's' : ''}` : ''].filter(Boolean).join(' · ')
      parts.push(`<rect x="${w - 8 - label.length * 7.2}" y="6" width="${label.length * 7.2 + 4}" height="20" rx="4" fill="${tint}"/>`)
      parts.push(`<text x="${w - 6}" y="21" font-size="13" font-family="sans-serif" fill="#fff" text-anchor="end">${escapeHtml(label)}</text>`)
    }
  }
  if (job.overlay === 'plate') {
    const boxes = drawnBoxes(slide, themeFonts(job.doc.manifest))
    for (const block of slide.blocks ?? []) {
      const plate = block.plate
      const box = boxes.get(block.id)
      if (typeof plate !== 'string' || !box) continue
      const pw = box.w * 0.4
      const ph = box.h * 0.4
      const x = plate.endsWith('right') ? box.x + box.w - pw : box.x
      const y = plate.startsWith('lower') ? box.y + box.h - ph : box.y
      parts.push(`<rect x="${x * scale}" y="${y * scale}" width="${pw * scale}" height="${ph * scale}" fill="rgba(47,91,234,0.2)" stroke="#2f5bea" stroke-width="2" stroke-dasharray="4 3"/>`)
    }
  }
  if (!parts.length) return ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`
}

/** Builds one sheet; writes `<outDir>/sheet.<appearance>.png` and its cell map `sheet.<appearance>.json`. */
export async function buildSheet(job: SheetJob) {
  const { default: sharp } = await import('sharp')
  const order = job.doc.manifest.sections.flatMap((s) => s.slides)
  const { cells, width, height } = sheetCells(job.slides, job.slides.map((s) => order.indexOf(s.id) + 1), job.cols, job.thumb, job.numbered)
  const background = SHEET_PAPER[job.appearance]
  try {
    const composites: import('sharp').OverlayOptions[] = []
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]
      const input = await sharp(job.images[i]).resize(cell.box.w, cell.box.h, { fit: 'fill' }).png().toBuffer()
      composites.push({ input, left: cell.box.x, top: cell.box.y })
      const overlay = cellOverlay(job, job.slides[i], cell)
      if (overlay) composites.push({ input: Buffer.from(overlay), left: cell.box.x, top: cell.box.y })
      if (job.numbered) composites.push({ input: Buffer.from(cellLabel(job.slides[i], cell, job.appearance)), left: cell.box.x, top: cell.box.y + cell.box.h })
    }
    const image = await sharp({ create: { width, height, channels: 3, background } }).composite(composites).png().toBuffer()
    const file = join(job.outDir, `sheet.${job.appearance}.png`)
    const map = join(job.outDir, `sheet.${job.appearance}.json`)
    await writeInside(job.root, file, image)
    await writeInside(job.root, map, `${JSON.stringify({ deck: job.doc.manifest.id, revision: job.doc.manifest.revision, theme: job.appearance, width, height, cells }, null, 2)}\n`)
    return { theme: job.appearance, file: relative(job.root, file), map: relative(job.root, map), width, height, cells }
  } catch (error) {
    if ((error as { code?: string }).code && (error as { status?: number }).status) throw error
    return fail('render_failed', `The contact sheet could not be built: ${(error as Error).message.split('\n')[0]}`)
  }
}
