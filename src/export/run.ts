/**
 * export.run (docs/export.md): the deck as PPTX or PDF, one file per appearance, and with both
 * appearances `<deckId>-both.zip` holding the two.
 *
 * - flatten (default): the renderer's 2x pictures under an invisible text layer read back from the
 *   page (pptx-flatten.ts, pdf.ts).
 * - native: PDF is Chromium's vector print of the same sheets (fonts embedded, text selectable,
 *   tagged), with an outline by section; PPTX is the editable writer (pptx-native.ts).
 * - verify: every file rendered back through LibreOffice (PPTX) or poppler (PDF), each page diffed
 *   against our own render of the slide (verify.ts); the report carries the per-page figures and a
 *   page over its mode's threshold fails the export (CLI exit 7).
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { mkdirInside, readAssetSync, readInsideSync, writeInside } from '../store/safe-open.js'
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import { exportSlides, hasNotesPage, pdfPages } from './slides.js'
import { orderedSlides, slideLabel, type DeckDoc, type Slide } from '../model/deck.js'
import { isPicturePlaceholder } from '../model/blocks.js'
import { countFindings, lintSlide, type Finding, type LintCounts } from '../model/lint.js'
import { readAssetRecords } from '../store/asset-records.js'
import type { Appearance } from '../render/paint.js'

export interface ExportInput {
  format: 'pptx' | 'pdf'
  mode?: 'native' | 'flatten'
  theme?: Appearance[]
  fonts?: 'exact' | 'standard'
  embedFonts?: boolean
  headings?: 'raster'
  rasterScale?: 'auto' | 2 | 3
  pictureScale?: 2 | 3
  excludeShareAlike?: boolean
  svgVector?: boolean
  baseline?: 'libreoffice' | 'none'
  verify?: boolean
  slideIds?: 'all' | string[]
  includeSkipped?: boolean
  includeNotes?: boolean
  includeComments?: boolean
  out?: string
  strict?: boolean
  batch?: Record<string, unknown>
  merge?: Record<string, unknown>
}

export interface WrittenFile {
  file: string
  theme: Appearance
  format: 'pptx' | 'pdf' | 'zip'
  bytes: number
  pages: number
  /** Page size: PDF points or PPTX inches, and how far its aspect is from the sheet's 16:9. */
  page?: { width: number; height: number; unit: 'pt' | 'in'; aspectError: number }
}

export interface ExportReport {
  mode: 'native' | 'flatten'
  format: 'pptx' | 'pdf'
  slides: string[]
  pages: number
  bytes: number
  fonts: string[]
  rasters: string[]
  files: WrittenFile[]
  measurements: Record<string, unknown>
  diffs: VerifyDiff[]
  verify: { ran: boolean; passed: boolean | null; threshold: number | null; mean: number | null; worst: number | null; reader: string | null }
  /** Lint over the slides exported: counts per severity, and every error (what `strict` fails on). */
  lint: { strict: boolean; counts: LintCounts; errors: ({ slideId: string } & Finding)[] }
  warnings: string[]
}

export interface VerifyDiff {
  file: string
  page: number
  slideId: string
  /** Share of the page's pixels that differ from our render (pixelmatch, colour threshold 0.1). */
  difference: number
  over: boolean
}

/** The source record of an asset (`assets/<id>.json`), or none. */
function assetSource(deckDir: string, assetId: string): Record<string, unknown> | undefined {
  if (!/^[^./\\][^/\\]*$/.test(assetId)) return undefined
  const file = join(deckDir, 'assets', `${assetId}.json`)
  if (!existsSync(file)) return undefined
  try {
    const record = JSON.parse(readAssetSync(file).toString('utf8')) as { source?: unknown }
    return record.source && typeof record.source === 'object' ? (record.source as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * excludeShareAlike: the slides with every picture of a share-alike asset (its source record's
 * `shareAlike`) replaced by the paper plate and its credit: a paper rectangle at the picture's place,
 * outlined in the rule colour, holding the credit (or the artist and licence it is composed of). The
 * deck on disk is unchanged; every writer (flatten, vector PDF, native PPTX) draws the replaced slides.
 */
export function withoutShareAlike(slides: Slide[], deckDir: string): { slides: Slide[]; replaced: string[] } {
  const shareAlike = new Map<string, string | null>()
  const creditOf = (assetId: string): string | null => {
    if (!shareAlike.has(assetId)) {
      const source = assetSource(deckDir, assetId)
      const credit = typeof source?.credit === 'string' ? source.credit : [source?.artist, source?.license].filter((v) => typeof v === 'string' && v).join(', ')
      shareAlike.set(assetId, source?.shareAlike === true ? credit || 'Share-alike picture left out' : null)
    }
    return shareAlike.get(assetId)!
  }
  const replaced: string[] = []
  const out = slides.map((slide) => {
    let changed = false
    const blocks = (slide.blocks ?? []).map((block) => {
      if (block.kind !== 'picture' || typeof block.asset !== 'string') return block
      const credit = creditOf(block.asset)
      if (credit === null) return block
      changed = true
      replaced.push(`${slide.id}#${block.id}`)
      const { asset: _a, fit: _f, crop: _c, mask: _m, dither: _d, caption: _cap, brightness: _b, contrast: _k, flip: _fl, ...kept } = block as Record<string, unknown>
      return { ...kept, kind: 'shape', shape: 'rect', fill: 'paper', stroke: 'rule', strokeWidth: 2, text: credit } as unknown as typeof block
    })
    return changed ? { ...slide, blocks } : slide
  })
  return { slides: out, replaced }
}

/** The section of each slide, for the PDF outline. */
function sectionOf(doc: DeckDoc): Map<string, string> {
  const out = new Map<string, string>()
  for (const section of doc.manifest.sections) for (const id of section.slides) out.set(id, section.title || section.id)
  return out
}

export async function runExport(ctx: ActionContext, read: DeckDoc, input: ExportInput): Promise<{ files: string[]; report: ExportReport }> {
  for (const field of ['batch', 'merge'] as const) {
    if (input[field] !== undefined) fail('not_implemented', `export.run ${field}: batched hosted export is not built on this instance; export in one call.`, { pointer: `/${field}`, details: { implemented: false } })
  }
  let doc = read
  const mode = input.mode ?? 'flatten'
  const format = input.format
  const deckId = doc.manifest.id
  const deckDir = ctx.ws.deckDir(deckId)
  const chosen = exportSlides(doc, input.slideIds, input.includeSkipped === true)
  const { slides, replaced } = input.excludeShareAlike ? withoutShareAlike(chosen, deckDir) : { slides: chosen, replaced: [] }
  if (replaced.length) doc = { ...doc, slides: { ...doc.slides, ...Object.fromEntries(slides.map((s) => [s.id, s])) } }
  const appearances: Appearance[] = input.theme ?? ['light', 'dark']
  // `--out talk.pdf`: an out ending in the format's extension is the one file an export of one theme writes.
  const single = input.out !== undefined && input.out.toLowerCase().endsWith(`.${format}`)
  if (single && appearances.length !== 1) {
    fail('invalid_input', `out names one .${format} file, but an export of both themes writes two files and a zip: pick one theme (--theme light or --theme dark), or name a folder.`, { pointer: '/out' })
  }
  const target = (await ctx.outputPath(input.out ?? '.studio/export', '/out')).abs
  const outDir = single ? dirname(target) : target
  mkdirInside(ctx.ws.root, outDir)
  const warnings: string[] = []
  const measurements: Record<string, unknown> = {}
  const files: WrittenFile[] = []
  const rasters = new Set<string>()
  const fonts = new Set<string>()
  const scriptFaces = new Set<string>()
  const sections = sectionOf(doc)
  const title = doc.manifest.title
  const empty = slides.flatMap((s) => (s.blocks ?? []).filter(isPicturePlaceholder).map((b) => `${s.id}#${b.id}`))
  if (empty.length) warnings.push(`${empty.length} empty picture placeholder${empty.length === 1 ? '' : 's'} drawn as nothing (${empty.join(', ')}): add a picture (asset.add, then block.set /asset) or remove the block.`)
  if (input.includeComments) warnings.push('includeComments: PPTX and PDF files do not carry comment threads yet (no comment parts were written); export txt --include-comments lists them.')
  if (replaced.length) warnings.push(`excludeShareAlike: ${replaced.length} share-alike picture${replaced.length === 1 ? '' : 's'} replaced by the paper plate and credit (${replaced.join(', ')}).`)
  else if (input.excludeShareAlike) warnings.push('excludeShareAlike: no picture of a share-alike asset is on the slides exported.')
  if (mode === 'flatten' && input.embedFonts) warnings.push('embedFonts applies to native PPTX only; a flattened file carries its text as pictures and needs no fonts.')
  // Lint over what is exported: an overflowing text is cut in the file as on the slide, so the result says so.
  const assets = await readAssetRecords(ctx.ws, deckId)
  const found = slides.flatMap((slide) => lintSlide(slide, doc, { assets }).map((f) => ({ slideId: slide.id, ...f })))
  const lint: ExportReport['lint'] = { strict: input.strict === true, counts: countFindings(found), errors: found.filter((f) => f.severity === 'error') }
  if (lint.errors.length) {
    const named = lint.errors.slice(0, 3).map((f) => `${f.slideId}${f.blockId ? `#${f.blockId}` : ''} ${f.rule}`)
    warnings.push(`lint: ${lint.errors.length} error${lint.errors.length === 1 ? '' : 's'} on the slides exported (${named.join(', ')}${lint.errors.length > 3 ? ', …' : ''}); studio deck lint lists them${input.strict ? '' : ', and --strict fails the export on them'}.`)
  }
  // Files are dated by the deck's last change, not the clock: the same deck exports to the same bytes.
  const date = new Date(doc.manifest.stamps?.updatedAt ?? 0)
  const outline = slides.map((slide, i) => ({ title: slideLabel(slide, i + 1), section: sections.get(slide.id) ?? '', page: i }))

  for (const appearance of appearances) {
    const name = single ? basename(target) : `${deckId}-${appearance}.${format}`
    const path = join(outDir, name)
    let bytes: Buffer
    let pages = slides.length
    if (mode === 'flatten') {
      const { renderSlides } = await import('../render/pipeline.js')
      const { records } = await renderSlides({
        doc,
        deckDir,
        slides,
        appearances: [appearance],
        scale: input.rasterScale === 3 ? 3 : 2,
        format: 'png',
        outDir: join(ctx.ws.root, '.studio', 'render', deckId),
        root: ctx.ws.root,
        collectText: true,
        onProgress: (done, total) => ctx.progress(done, total, `Rendering (${appearance})`),
      })
      rasters.add('png')
      const flat = records.map((record, i) => ({
        png: readInsideSync(ctx.ws.root, join(ctx.ws.root, record.file)),
        lines: record.lines ?? [],
        title: outline[i].title,
        notes: hasNotesPage(slides[i], input.includeNotes === true) ? slides[i].notes : undefined,
        hidden: slides[i].skip === true,
      }))
      if (format === 'pptx') {
        const { flattenPptx } = await import('./pptx-flatten.js')
        bytes = await flattenPptx(flat, { title, font: 'Inter', date })
        fonts.add('Inter')
      } else {
        const { flattenPdf, PAGE_PT } = await import('./pdf.js')
        const { colour, paintFor } = await import('../render/paint.js')
        const paint = paintFor(doc.manifest, appearance)
        // With notes, a slide's notes page follows it: the outline points at slide pages.
        const { slidePages, pages: count } = pdfPages(slides, input.includeNotes === true)
        bytes = await flattenPdf(flat, { title, ink: colour(paint, 'ink'), paper: colour(paint, 'paper', 'paper'), rule: colour(paint, 'rule'), outline: outline.map((o) => ({ ...o, page: slidePages[o.page] })), date })
        pages = count
        fonts.add('Inter')
        measurements[name] = { pageSize: PAGE_PT }
      }
    } else if (format === 'pdf') {
      const { printPdf } = await import('../render/pipeline.js')
      const pdfModule = import('./pdf.js')
      // pdf-lib loads while Chromium starts and prints (node waits there); a failure to load shows where it is used.
      void pdfModule.then((pdf) => pdf.preloadPdfLib()).catch(() => undefined)
      const printed = await printPdf({ doc, deckDir, root: ctx.ws.root, slides, appearance, includeNotes: input.includeNotes === true })
      const { outlinePdf } = await pdfModule
      const { slidePages, pages: count } = pdfPages(slides, input.includeNotes === true)
      bytes = await outlinePdf(printed, title, outline.map((o) => ({ ...o, page: slidePages[o.page] })), date)
      pages = count
    } else {
      const { nativePptx } = await import('./pptx-native.js')
      const written = await nativePptx({
        doc,
        deckDir,
        root: ctx.ws.root,
        slides,
        appearance,
        includeNotes: input.includeNotes === true,
        baseline: input.baseline ?? 'libreoffice',
        embedFonts: input.embedFonts === true,
        headingsRaster: input.headings === 'raster',
        fontSet: input.fonts ?? 'standard',
        svgVector: input.svgVector !== false,
        pictureScale: input.pictureScale ?? 2,
        rasterScale: input.rasterScale ?? 'auto',
      })
      bytes = written.bytes
      for (const font of written.report.fonts) fonts.add(font)
      for (const font of written.report.scriptFaces ?? []) {
        scriptFaces.add(font)
        fonts.add(font)
      }
      for (const raster of written.report.rasters) rasters.add(raster)
      for (const cannot of new Set(written.report.cannot)) warnings.push(`${name}: ${cannot}`)
      if (written.report.embedded) measurements[name] = { embeddedFonts: written.report.embedded }
    }
    await writeInside(ctx.ws.root, path, bytes)
    const page = await pageSize(path, format)
    if (page && page.aspectError > 0.001) warnings.push(`${name}: its page is ${page.width} × ${page.height} ${page.unit}, ${(page.aspectError * 100).toFixed(2)} % off the sheet's 16:9.`)
    if (format === 'pdf') for (const font of await pdfFonts(path)) fonts.add(font)
    files.push({ file: relative(ctx.ws.root, path) || path, theme: appearance, format, bytes: bytes.length, pages, ...(page ? { page } : {}) })
  }

  // Text in scripts the theme faces lack names a Noto face, which --embed-fonts does not carry.
  if (scriptFaces.size) {
    const named = [...scriptFaces].sort()
    warnings.push(`Text in the file names ${named.join(', ')} for its ${named.length === 1 ? 'script' : 'scripts'} (CJK, Arabic, Hebrew), not embedded: a reader without ${named.length === 1 ? 'it' : 'them'} draws that text in a face of their own. Install ${named.length === 1 ? 'it' : 'them'} where the deck is shown (SIL Open Font License, https://fonts.google.com/noto), or export a PDF.`)
  }

  // A native PPTX names its faces; on a machine without them the reader draws others, and lines rewrap.
  const themeFaces = [...fonts].filter((font) => !scriptFaces.has(font))
  if (mode === 'native' && format === 'pptx' && !input.embedFonts && themeFaces.length) {
    const named = themeFaces.sort()
    const them = named.length === 1 ? 'it' : 'them'
    warnings.push(`The file names the face${named.length === 1 ? '' : 's'} ${named.join(', ')} without embedding ${them}: a reader without ${them} draws a fallback, wider or narrower, and lines rewrap. --embed-fonts embeds ${them} (PowerPoint reads embedded faces), or install ${them} where the deck is shown.`)
  }

  if (appearances.length === 2) {
    const zipPath = join(outDir, `${deckId}-both.zip`)
    const zipped = await zipFiles(files.map((f) => join(ctx.ws.root, f.file)))
    await writeInside(ctx.ws.root, zipPath, zipped)
    files.push({ file: relative(ctx.ws.root, zipPath) || zipPath, theme: 'light', format: 'zip', bytes: zipped.length, pages: 0 })
  }

  let diffs: VerifyDiff[] = []
  let verify: ExportReport['verify'] = { ran: false, passed: null, threshold: null, mean: null, worst: null, reader: null }
  if (input.verify) {
    const { verifyFiles } = await import('./verify.js')
    const checked = await verifyFiles(ctx, doc, slides, files.filter((f) => f.format !== 'zip'), { mode, includeNotes: input.includeNotes === true })
    diffs = checked.diffs
    verify = { ran: true, passed: checked.passed, threshold: checked.threshold, mean: checked.mean, worst: checked.worst, reader: checked.reader }
  }
  const written = files.filter((f) => f.format !== 'zip')
  return {
    files: files.map((f) => f.file),
    report: {
      mode,
      format,
      slides: slides.map((s) => s.id),
      pages: written[0]?.pages ?? 0,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      fonts: [...fonts].sort(),
      rasters: [...rasters].sort(),
      files,
      measurements,
      diffs,
      verify,
      lint,
      warnings,
    },
  }
}

/** The page size of a written file and its aspect's distance from 16:9. */
async function pageSize(path: string, format: 'pptx' | 'pdf'): Promise<WrittenFile['page'] | undefined> {
  const sheet = 1600 / 900
  if (format === 'pdf') {
    const { PDFDocument } = await import('pdf-lib')
    const doc = await PDFDocument.load(readFileSync(path), { updateMetadata: false })
    const first = doc.getPage(0).getSize()
    return { width: round(first.width), height: round(first.height), unit: 'pt', aspectError: round(Math.abs(first.width / first.height / sheet - 1), 6) }
  }
  const { default: JSZip } = (await import('jszip')) as unknown as { default: typeof import('jszip') }
  const zip = await JSZip.loadAsync(readFileSync(path))
  const xml = (await zip.file('ppt/presentation.xml')?.async('string')) ?? ''
  const m = /<p:sldSz[^>]*\bcx="(\d+)"[^>]*\bcy="(\d+)"/.exec(xml)
  if (!m) return undefined
  const w = Number(m[1]) / 914400
  const h = Number(m[2]) / 914400
  return { width: round(w, 4), height: round(h, 4), unit: 'in', aspectError: round(Math.abs(w / h / sheet - 1), 6) }
}

/** The font names a PDF embeds, by pdffonts (poppler) when installed, else none (its font objects are compressed). */
async function pdfFonts(path: string): Promise<string[]> {
  const { onPath, run } = await import('./office.js')
  const pdffonts = onPath('pdffonts')
  if (!pdffonts) return []
  const ran = await run(pdffonts, [path], { timeoutMs: 60_000 })
  const names = new Set<string>()
  for (const line of ran.stdout.split('\n').slice(2)) {
    const name = line.split(/\s+/)[0]
    if (name) names.add(name.replace(/^[A-Z]{6}\+/, ''))
  }
  return [...names].sort()
}

/** The written files in one zip (stored as they are: PPTX and PDF are compressed already). */
async function zipFiles(paths: string[]): Promise<Buffer> {
  const module = (await import('archiver')) as unknown as { default: (format: 'zip', options?: import('archiver').ArchiverOptions) => import('archiver').Archiver }
  const archive = module.default('zip', { store: true })
  const chunks: Buffer[] = []
  archive.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve())
    archive.on('error', reject)
  })
  for (const path of paths) if (existsSync(path)) archive.file(path, { name: path.split('/').pop()!, date: new Date(0) })
  await archive.finalize()
  await done
  return Buffer.concat(chunks)
}

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places
