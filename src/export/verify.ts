/**
 * export.run's `verify`: every written file rendered back by an independent reader and each page
 * compared with our own render of the same slide (docs/export.md, "Verify").
 *
 * - PPTX is converted to PDF by LibreOffice Impress (headless, a fresh profile; it leaves hidden
 *   slides out); PDF is read as it is. poppler's pdftoppm draws each page at 1600 × 900.
 * - Our side is `studio render` of the slide at 1x in the file's appearance.
 * - pixelmatch (colour threshold 0.1, anti-aliasing detection on) counts the pixels that differ; a
 *   page's figure is that count over the page's pixels. A page over the mode's threshold fails.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import type { DeckDoc, Slide } from '../model/deck.js'
import type { Appearance } from '../render/paint.js'
import type { VerifyDiff, WrittenFile } from './run.js'
import { pdfPages } from './slides.js'

/**
 * Thresholds, as shares of a page's pixels: a flattened page is our own picture, so only resampling may
 * differ; Chromium's vector PDF is our own drawing printed (poppler rasterizes its text); a native PPTX
 * is drawn by another renderer from editable parts. Measured on the brand sample (docs/export.md).
 */
export const VERIFY_THRESHOLDS = { flatten: 0.02, 'native-pdf': 0.02, 'native-pptx': 0.03 } as const

/** The threshold of a mode and format; STUDIO_VERIFY_THRESHOLD (a share, 0 to 1) sets a stricter or looser one for every file. */
export function verifyThreshold(mode: 'native' | 'flatten', format: 'pptx' | 'pdf', env: NodeJS.ProcessEnv = process.env): number {
  const set = env.STUDIO_VERIFY_THRESHOLD
  if (set !== undefined && set !== '' && Number.isFinite(Number(set)) && Number(set) >= 0 && Number(set) <= 1) return Number(set)
  return mode === 'flatten' ? VERIFY_THRESHOLDS.flatten : VERIFY_THRESHOLDS[`native-${format}`]
}

export async function verifyFiles(
  ctx: ActionContext,
  doc: DeckDoc,
  slides: Slide[],
  files: WrittenFile[],
  options: { mode: 'native' | 'flatten'; includeNotes: boolean },
): Promise<{ diffs: VerifyDiff[]; passed: boolean; threshold: number; mean: number; worst: number; reader: string }> {
  const { convertToPdf, findSoffice, onPath, run, scratchDir } = await import('./office.js')
  const pdftoppm = onPath('pdftoppm')
  if (!pdftoppm) fail('missing_program', 'Verifying an export needs the program "pdftoppm" to draw the pages back. On Debian or Ubuntu: apt-get install poppler-utils.', { pointer: '/verify', details: { program: 'pdftoppm', package: 'poppler-utils' } })
  const threshold = verifyThreshold(options.mode, files[0]?.format === 'pdf' ? 'pdf' : 'pptx')
  const { renderSlides } = await import('../render/pipeline.js')
  const diffs: VerifyDiff[] = []
  const readers = new Set<string>()
  const scratch = scratchDir('verify')
  try {
    for (const file of files) {
      const abs = join(ctx.ws.root, file.file)
      let pdf = abs
      // Which slides the reader's pages show, in order.
      let shown = slides
      if (file.format === 'pptx') {
        const soffice = findSoffice()
        if ('missing' in soffice) return fail('missing_program', `Verifying a PPTX needs LibreOffice to read it back: ${soffice.missing}`, { pointer: '/verify', details: { program: 'soffice', package: 'libreoffice-impress' } })
        const out = join(scratch, file.theme)
        mkdirSync(out, { recursive: true })
        // LibreOffice draws the native file's text in the shipped faces (unpacked to TTF once per workspace).
        const { officeFontsOnce } = await import('./office-fonts.js')
        const fontsDir = join(ctx.ws.root, '.studio', 'cache', 'office-fonts')
        mkdirSync(fontsDir, { recursive: true })
        const converted = await convertToPdf(soffice.path, abs, out, undefined, { FONTCONFIG_FILE: officeFontsOnce(fontsDir) })
        if ('error' in converted) return fail('render_failed', `verify: ${converted.error}`, { pointer: '/verify' })
        pdf = converted.pdf
        shown = slides.filter((s) => !s.skip)
        readers.add('LibreOffice Impress, poppler')
      } else readers.add('poppler')
      const pagesDir = join(scratch, `${file.theme}-pages`)
      mkdirSync(pagesDir, { recursive: true })
      const drawn = await run(pdftoppm!, ['-png', '-scale-to-x', '1600', '-scale-to-y', '900', pdf, join(pagesDir, 'p')], { timeoutMs: 300_000 })
      if (drawn.code !== 0) return fail('render_failed', `verify: pdftoppm failed (exit ${drawn.code}): ${drawn.stderr.trim().slice(0, 200)}`, { pointer: '/verify' })
      const pageFiles = readdirSync(pagesDir).filter((n) => n.endsWith('.png')).sort((a, b) => pageNumber(a) - pageNumber(b))
      // A PDF's slides stand at their pages, a notes page after those with notes; a PPTX has a page per slide.
      const at = file.format === 'pdf' ? pdfPages(shown, options.includeNotes).slidePages : shown.map((_, i) => i)
      const { records } = await renderSlides({
        doc,
        deckDir: ctx.ws.deckDir(doc.manifest.id),
        slides: shown,
        appearances: [file.theme as Appearance],
        scale: 1,
        format: 'png',
        outDir: join(ctx.ws.root, '.studio', 'render', doc.manifest.id),
        root: ctx.ws.root,
      })
      for (const [i, slide] of shown.entries()) {
        const page = pageFiles[at[i]]
        if (!page) {
          diffs.push({ file: file.file, page: at[i] + 1, slideId: slide.id, difference: 1, over: true })
          continue
        }
        const difference = await pageDifference(join(pagesDir, page), join(ctx.ws.root, records[i].file))
        diffs.push({ file: file.file, page: at[i] + 1, slideId: slide.id, difference, over: difference > threshold })
      }
      rmSync(pagesDir, { recursive: true, force: true })
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  const figures = diffs.map((d) => d.difference)
  const mean = figures.length ? Math.round((figures.reduce((a, b) => a + b, 0) / figures.length) * 1e5) / 1e5 : 0
  const worst = figures.length ? Math.max(...figures) : 0
  return { diffs, passed: diffs.every((d) => !d.over), threshold, mean, worst, reader: [...readers].join('; ') }
}

/**
 * The verify figure of one page: the share of pixels that differ between the reader's picture and
 * ours, both brought to 1600 × 900 (pixelmatch, colour threshold 0.1, anti-aliasing detection on),
 * rounded to 5 decimals.
 */
export async function pageDifference(theirsPng: string, oursPng: string): Promise<number> {
  const { default: pixelmatch } = await import('pixelmatch')
  const sharp = (await import('sharp')).default
  const theirs = await sharp(theirsPng).resize(1600, 900, { fit: 'fill' }).removeAlpha().ensureAlpha().raw().toBuffer()
  const ours = await sharp(oursPng).resize(1600, 900, { fit: 'fill' }).removeAlpha().ensureAlpha().raw().toBuffer()
  const differing = pixelmatch(theirs, ours, undefined, 1600, 900, { threshold: 0.1 })
  return Math.round((differing / (1600 * 900)) * 1e5) / 1e5
}

/** The page number of pdftoppm's `<prefix>-<n>.png`. */
export function pageNumber(name: string): number {
  return Number(/(\d+)\.png$/.exec(name)?.[1] ?? 0)
}
