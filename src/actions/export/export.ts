import { existsSync, statSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { writeInside } from '../../store/safe-open.js'
import { defineAction } from '../../core/action.js'
import type { ExportInput } from '../../export/run.js'
import { fail } from '../../core/errors.js'
import { type Slide } from '../../model/deck.js'
import { showsKitFooter } from '../../layout/boxes.js'
import { blocksInReadingOrder } from '../../layout/reading.js'
import { exportSlides } from '../../export/slides.js'
import { plainOf } from '../../model/lint.js'
import { arr, bool, FilePath, int, lit, obj, oneOf, openObj, opt, ref, SlideId, SlideIdsOrAll, str, Themes } from '../../model/schema.js'
import { CurrentRevision, FINDING_MEMBERS, planned, result } from '../../model/results.js'
import { buildExportFonts, fontsBuildHuman, type FontsBuildResult } from '../../export/fonts.js'
import { WITH_PPTX_EXPORT } from '../given.js'

const slideIds = opt({ ...SlideIdsOrAll, description: "'all' (default) or a subset of slide ids." })
const includeSkipped = opt(bool({ default: false, description: 'Include skipped slides; off by default.' }))
const includeNotes = opt(bool({ default: false, description: 'Include speaker notes; off by default.' }))

export const exportRun = defineAction<any, any>({
  id: 'export.run',
  label: 'Export deck',
  doc:
    'Exports the deck as PPTX or PDF, one file per theme (both by default, also zipped). Flatten (default) writes a 2x page raster over an invisible text layer; ' +
    'native keeps editable text. The result is the verified report.',
  group: 'export',
  milestone: 'M6',
  mutates: false,
  capability: 'export',
  transports: 'CMHP',
  input: obj({
    format: oneOf(['pptx', 'pdf'], { description: 'The file format.' }),
    mode: opt(oneOf(['native', 'flatten'], { default: 'flatten', description: 'flatten: a 2x page raster over an invisible text layer, each page measured within 0.1 percent; native keeps editable text.' })),
    theme: opt({ ...Themes, description: 'One file per theme; both when absent, which also writes <deckId>-both.zip.' }),
    fonts: opt(oneOf(['exact', 'standard'], { default: 'standard', description: 'standard: four faces of a sans family; exact: text faces for sizes 14 through 26.' })),
    embedFonts: opt(bool({ default: false, description: 'Embed fonts (native mode only; flatten never embeds).' })),
    headings: opt(lit('raster', { description: "'raster' writes every heading as a PNG instead of a text box." })),
    rasterScale: opt(oneOf(['auto', 2, 3], { default: 'auto', description: 'auto: 3x icons and marks, 2x the rest.' })),
    pictureScale: opt(oneOf([2, 3], { description: 'Scale at which two-tone pictures are regenerated from the one-bit image.' })),
    excludeShareAlike: opt(bool({ description: 'Replace share-alike pictures with the paper plate and its credit.' })),
    svgVector: opt(bool({ default: true, description: 'Write the vector of every svg picture and logo beside its PNG; false writes PNG alone.' })),
    baseline: opt(oneOf(['libreoffice', 'none'], { default: 'libreoffice', description: 'Renderer whose first-baseline offset places native text boxes.' })),
    verify: opt(bool({ description: 'Render the files back through an office-suite renderer and diff every page against the web render.' })),
    slideIds,
    includeSkipped,
    includeNotes,
    includeComments: opt(bool({ default: false, description: 'Comment threads as classic comment parts (editors and owners only); off by default.' })),
    out: opt(str({ default: '.studio/export', description: 'Output directory, .studio/export when absent; or, for one theme, the file itself (a name ending in .pptx or .pdf, as the format).' })),
    strict: opt(bool({ default: false, description: 'Report the export as failed (CLI exit 7) when lint finds an error on a slide exported (overflowing text, markup the reader refuses, a block off the sheet); the files are written either way.' })),
    batch: opt(openObj('Hosted only: render one batch of slides into a job.')),
    merge: opt(openObj('Hosted only: build the file from the stored batches.')),
  }),
  output: result({
    files: arr(str(), { description: 'The files written, workspace-relative (one per theme, plus <deckId>-both.zip with both).' }),
    report: obj(
      {
        mode: oneOf(['native', 'flatten']),
        format: oneOf(['pptx', 'pdf']),
        slides: arr(str(), { description: 'The slides written, in order.' }),
        pages: int({ minimum: 0, description: 'Pages of each file (notes pages included).' }),
        bytes: int({ minimum: 0, description: 'Bytes written, all files.' }),
        fonts: arr(str(), { description: 'Fonts the files name or embed.' }),
        rasters: arr(str(), { description: 'Raster formats the files carry.' }),
        files: arr(openObj('A written file: file, theme, format, bytes, pages, and its page size with the aspect error against 16:9.')),
        measurements: openObj('Measurements per file.'),
        diffs: arr(openObj('A verified page: file, page, slideId, difference (share of differing pixels) and whether it is over the threshold.')),
        verify: openObj('Whether verify ran and passed, the threshold, the mean and worst page difference, and the reader.'),
        lint: obj(
          {
            strict: bool({ description: 'Whether the export was asked to fail on lint errors.' }),
            counts: ref('LintCounts'),
            errors: arr(obj({ slideId: SlideId, ...FINDING_MEMBERS }), { description: 'Every lint error on the slides exported (deck.lint lists warnings and info too).' }),
          },
          { description: 'Lint over the slides exported: counts per severity, and the errors, which strict fails on.' },
        ),
        warnings: arr(str()),
      },
      { description: 'What was written and, with verify, how it compared.' },
    ),
  }),
  cli: 'export <format> --mode <mode> --theme <theme> --fonts <fonts> --embed-fonts --exclude-share-alike --baseline-target <baseline> --include-skipped --include-notes --include-comments --no-svg-vector --verify --out <out>',
  mcp: 'deck_export',
  annotations: { writes: true, idempotent: true },
  example: { format: 'pdf', mode: 'flatten', theme: ['light'], slideIds: ['title-1'] },
  // A verify that finds a page over its threshold fails the export on the command line (exit 7), as lint errors do
  // with strict; the report says which.
  reportsErrors: (r: { report: { verify: { passed: boolean | null }; lint: { strict: boolean; errors: unknown[] } } }) => r.report.verify.passed === false || (r.report.lint.strict && r.report.lint.errors.length > 0),
  cliInput: (parsed) => {
    const input = { ...parsed.input }
    if (typeof input.theme === 'string') input.theme = input.theme === 'both' ? ['light', 'dark'] : String(input.theme).split(',')
    return input
  },
  run: async (ctx, input: ExportInput) => {
    const [{ runExport }, { recordActivity }] = await Promise.all([import('../../export/run.js'), import('../../history/activity.js')])
    const done = await runExport(ctx, await ctx.target(), input)
    const deckId = await ctx.deckId()
    await recordActivity(ctx.ws, { deckId, kind: 'export', actor: ctx.principal.author, summary: `${ctx.principal.author}: export.run ${input.format} (${done.files.length} file${done.files.length === 1 ? '' : 's'})`, details: { action: 'export.run', format: input.format, files: done.files.map((f) => basename(f)) } })
    return done
  },
  human: (r: { files: string[]; report: { pages: number; bytes: number; verify: { ran: boolean; passed: boolean | null; mean: number | null; worst: number | null; threshold: number | null }; diffs: { file: string; page: number; slideId: string; difference: number; over: boolean }[]; warnings: string[] } }) =>
    [
      ...r.files,
      `${r.report.pages} pages, ${(r.report.bytes / 1048576).toFixed(2)} MB`,
      ...(r.report.verify.ran
        ? [
            `verify: ${r.report.verify.passed ? 'passed' : 'FAILED'} (mean ${pct(r.report.verify.mean)}, worst ${pct(r.report.verify.worst)}, threshold ${pct(r.report.verify.threshold)})`,
            ...r.report.diffs.filter((d) => d.over).map((d) => `  ${d.file} page ${d.page} (${d.slideId}): ${pct(d.difference)} of pixels differ`),
          ]
        : []),
      ...r.report.warnings,
    ].join('\n'),
})

const pct = (n: number | null) => (n === null ? '-' : `${(n * 100).toFixed(2)} %`)

export const exportCheck = defineAction({
  id: 'export.check',
  label: 'Check export',
  doc:
    'Reopens an exported .pptx three ways. Our own package walk: every zip entry a safe part name, every part\'s content type declared in [Content_Types].xml, ' +
    'every relationship part belonging to a part and every internal target resolving to a part in the package, every r: attribute naming a relationship of its part, ' +
    'every XML part well-formed, every raster\'s bytes the format it is declared as, and the presentation\'s slide list. Then LibreOffice, headless in a fresh profile, ' +
    'converts it to PDF (its page count must match the visible slides), and python-pptx opens it where a Python with it is given (absent readers are reported, not failed). ' +
    'Reports pages, size, raster formats, fonts and every invalid part with its path and reason; the CLI exits 7 when the file is not valid (docs/export.md).',
  group: 'export',
  milestone: 'M6',
  mutates: false,
  transports: 'C',
  input: obj({
    file: FilePath('The .pptx path.'),
    python: opt(FilePath('An interpreter with python-pptx; STUDIO_PYTHON, then .studio/venv/bin/python in the workspace when absent.')),
    quickLook: opt(bool({ default: true, description: "Render the first page to a PNG (LibreOffice's PDF through pdftoppm) when both are present; on by default." })),
    out: opt(FilePath('Where the thumbnail lands; <file name>-check beside the file when absent.')),
  }),
  output: result({
    file: str({ description: 'The file checked.' }),
    valid: bool({ description: 'true when no part is invalid and no reader that is present failed; the CLI exits 7 otherwise.' }),
    pages: int({ minimum: 0, description: 'Slides the presentation lists (p:sldIdLst), hidden ones included.' }),
    hidden: int({ minimum: 0, description: 'Of those, hidden slides (LibreOffice leaves them out of its PDF).' }),
    size: int({ minimum: 0, description: 'File size in bytes.' }),
    parts: int({ minimum: 0, description: 'Parts in the package.' }),
    rasters: arr(str(), { description: 'Raster formats of the image parts (png, jpeg, ...).' }),
    vectors: arr(str(), { description: 'Vector picture formats (svg, emf, wmf).' }),
    fonts: arr(str(), { description: 'Typefaces named by a:latin, a:ea and a:cs in any part (theme references such as +mn-lt left out).' }),
    embeddedFonts: arr(str(), { description: 'Typefaces of the embedded font list.' }),
    invalid: arr(obj({ path: str({ description: 'The part name (/ppt/slides/slide1.xml), or the zip entry name when it is not a part.' }), reason: str() }), { description: 'Invalid parts, each with its path and why.' }),
    warnings: arr(obj({ path: str(), reason: str() }), { description: 'What readers tolerate but is worth knowing: an Override for an absent part, a part no relationship targets.' }),
    readers: arr(
      obj({
        reader: oneOf(['libreoffice', 'python-pptx']),
        status: oneOf(['ok', 'failed', 'unavailable'], { description: 'ok: opened and agrees on the pages; failed: present but could not open the file or disagrees; unavailable: not on this machine (not a failure).' }),
        pages: opt(int({ minimum: 0, description: "LibreOffice's PDF pages, or python-pptx's slides." })),
        program: opt(str({ description: 'The program that read the file.' })),
        ms: opt(int({ minimum: 0 })),
        message: str(),
      }),
      { description: 'The independent readers and what each said.' },
    ),
    thumbnail: opt(str({ description: 'The first-page PNG, when rendered.' })),
    notes: arr(str(), { description: 'Why a thumbnail was not drawn, and the like.' }),
  }),
  cli: 'export check <file> --python <python> --out <out>',
  annotations: { writes: true, idempotent: true },
  mcp: null,
  example: { file: '.studio/export/quarterly-review-light.pptx' },
  given: WITH_PPTX_EXPORT,
  reportsErrors: (r: { valid: boolean }) => !r.valid,
  run: async (ctx, input: { file: string; python?: string; quickLook?: boolean; out?: string }) => {
    const { abs, shown } = await ctx.inputPath(input.file, '/file')
    if (!existsSync(abs) || !statSync(abs).isFile()) fail('not_found', `No file ${shown}.`, { pointer: '/file' })
    const { checkPackage, onPath } = await import('../../export/check.js')
    // A bare name (python3) is looked up on PATH, as a shell would; a path is resolved as any input path.
    const named = input.python && (input.python.includes('/') ? (await ctx.inputPath(input.python, '/python')).abs : (onPath(input.python) ?? input.python))
    const python = named
      ? { path: named, from: '--python' }
      : process.env.STUDIO_PYTHON
        ? { path: process.env.STUDIO_PYTHON, from: 'STUDIO_PYTHON' }
        : existsSync(join(ctx.ws.root, '.studio/venv/bin/python'))
          ? { path: join(ctx.ws.root, '.studio/venv/bin/python'), from: '.studio/venv' }
          : undefined
    const out = await ctx.outputPath(input.out ?? join(dirname(input.file), `${basename(input.file).replace(/\.pptx$/i, '')}-check`), '/out')
    return checkPackage(abs, { shown, python, quickLook: input.quickLook ?? true, out: out.abs, outShown: out.shown, root: ctx.ws.root })
  },
  human: (r: CheckResult) => checkLines(r),
})

type CheckResult = import('../../export/check.js').CheckReport

/** The CLI's reading of a check: verdict, figures, readers, then every invalid part. */
function checkLines(r: CheckResult): string {
  const kb = r.size < 1024 * 1024 ? `${(r.size / 1024).toFixed(1)} KB` : `${(r.size / 1048576).toFixed(2)} MB`
  const lines = [
    `${r.file}: ${r.valid ? 'valid' : `NOT VALID (${[r.invalid.length && `${r.invalid.length} invalid part${r.invalid.length === 1 ? '' : 's'}`, r.readers.some((x) => x.status === 'failed') && 'a reader failed'].filter(Boolean).join(', ')})`}`,
    `pages ${r.pages}${r.hidden ? ` (${r.hidden} hidden)` : ''}, ${kb}, ${r.parts} parts`,
    `rasters: ${r.rasters.join(', ') || 'none'}${r.vectors.length ? `; vectors: ${r.vectors.join(', ')}` : ''}`,
    `fonts: ${r.fonts.join(', ') || 'none'}${r.embeddedFonts.length ? `; embedded: ${r.embeddedFonts.join(', ')}` : ''}`,
    ...r.readers.map((x) => `${x.reader}: ${x.status}. ${x.message}`),
    ...(r.thumbnail ? [`thumbnail: ${r.thumbnail}`] : []),
    ...r.notes,
    ...r.invalid.map((f) => `invalid ${f.path}: ${f.reason}`),
    ...r.warnings.map((f) => `warning ${f.path}: ${f.reason}`),
  ]
  return lines.join('\n')
}

/** The lines of one slide's text: title fields, then blocks in reading order (slot order; top-to-bottom on the canvas). */
export function slideTextLines(slide: Slide): string[] {
  const lines: string[] = []
  const paragraphs = (markup: unknown) => {
    if (typeof markup === 'string') lines.push(...plainOf(markup).split('\n'))
  }
  for (const field of ['title', 'subtitle', 'byline'] as const) paragraphs(slide[field])
  // Reading order (src/layout/reading.ts): the title first, then columns before rows.
  const blocks = blocksInReadingOrder(slide)
  const oneLine = (markup: unknown) => (typeof markup === 'string' ? plainOf(markup).replace(/\n/g, ' ') : '')
  for (const block of blocks) {
    switch (block.kind) {
      case 'list':
        for (const item of (block.items as { text: string; level?: number }[] | undefined) ?? []) lines.push('  '.repeat(Math.max(0, (item.level ?? 1) - 1)) + oneLine(item.text))
        break
      case 'table':
        for (const row of (block.rows as string[][] | undefined) ?? []) lines.push(row.map(oneLine).join('\t'))
        break
      case 'picture':
        paragraphs(block.caption)
        break
      case 'chart':
        paragraphs(block.title)
        break
      default:
        paragraphs(block.text)
    }
  }
  paragraphs(slide.attribution)
  return lines.filter((line) => line.trim() !== '')
}

interface TextExport {
  text: string
  slides: string[]
  comments?: { included: number; note: string }
  revision: number
}

export const exportText = defineAction({
  id: 'export.text',
  label: 'Export text',
  doc:
    'Exports plain text: one block of paragraphs per slide in deck order (title fields, then blocks in slot order, or top to bottom on the canvas), ' +
    'list items one per line (nested levels indented two spaces per level), table cells joined by tabs, a blank line between slides, ' +
    'then the brand kit\'s footer text on the slides that show it, and with includeNotes the notes after each slide on a line starting "Notes: ". ' +
    'Skipped slides are left out unless includeSkipped is set, also when slideIds names them (as export.run does); when that leaves no slide, 400. ' +
    'Inline marks are dropped. The CLI prints the text itself (--json for the result).',
  group: 'export',
  milestone: 'M2',
  mutates: false,
  capability: 'export',
  transports: 'CMHP',
  input: obj({
    slideIds,
    includeNotes,
    includeSkipped,
    includeComments: opt(bool({ default: false, description: 'Include the open comment threads after each slide, deck threads first (needs readComments).' })),
  }),
  output: result({
    text: str({ description: 'The plain text: one paragraph per slide.' }),
    slides: arr(SlideId, { description: 'The slide ids exported, in order.' }),
    comments: opt(obj({ included: int({ minimum: 0 }), note: str() }, { description: 'With includeComments: how many threads were included and why.' })),
    revision: { ...CurrentRevision, description: 'The revision exported.' },
  }),
  cli: 'export txt <slideIds> --include-notes --include-skipped --include-comments',
  mcp: 'deck_export_text',
  example: { slideIds: 'all', includeNotes: true },
  run: async (ctx, input: { slideIds?: 'all' | string[]; includeNotes?: boolean; includeSkipped?: boolean; includeComments?: boolean }) => {
    const doc = await ctx.target()
    const slides = exportSlides(doc, input.slideIds, input.includeSkipped === true)
    const footer = doc.manifest.brandKit?.footer?.trim()
    const blocks: string[] = []
    const comments = input.includeComments ? await import('../../comments/text.js') : undefined
    const threads = comments?.openThreadsBySlide(ctx, doc.manifest.id, doc)
    let included = 0
    const deckThreads = threads?.get('') ?? []
    if (deckThreads.length) {
      blocks.push(deckThreads.flatMap((t) => comments!.threadLines(t)).join('\n'))
      included += deckThreads.length
    }
    for (const slide of slides) {
      const lines = slideTextLines(slide)
      if (footer && showsKitFooter(slide)) lines.push(footer)
      if (input.includeNotes && slide.notes?.trim()) lines.push(`Notes: ${slide.notes.trim()}`)
      for (const thread of threads?.get(slide.id) ?? []) {
        lines.push(...comments!.threadLines(thread))
        included++
      }
      if (lines.length) blocks.push(lines.join('\n'))
    }
    const result: TextExport = { text: blocks.join('\n\n'), slides: slides.map((s) => s.id), revision: doc.manifest.revision }
    if (input.includeComments) result.comments = { included, note: included ? `${included} open thread${included === 1 ? '' : 's'}, each after the slide it is on (the deck's own first).` : 'No open comment threads on these slides.' }
    return result
  },
  human: (result: unknown) => (result as TextExport).text,
})

export const exportMarkdown = defineAction({
  id: 'export.markdown',
  label: 'Export Markdown',
  doc:
    'Writes the deck as Marp Markdown (docs/markdown.md): front matter (marp, title, theme, paginate), one slide per `---`, headings, text, lists, tables, code, ' +
    'pictures as relative paths to copies of their asset files in <name>-assets/ beside the Markdown, presenter notes as HTML comments, and the layout as a Marp class ' +
    '(`lead` for a title slide; Slidev\'s `::right::` opens a right column). import.run reads it back with the same text, order, notes and pictures. ' +
    'What Markdown cannot hold (colours, sizes, positions, shapes without text, lines, shaders, HTML blocks) is left out and listed in `skipped`; a chart is written as a table of its data. ' +
    'Skipped slides are left out unless includeSkipped is set or they are named in slideIds. `out` is a folder (the file is <deckId>.md) or a file ending in .md.',
  group: 'export',
  milestone: 'M2',
  mutates: false,
  capability: 'export',
  transports: 'CMH',
  input: obj({
    slideIds,
    includeSkipped,
    notes: opt(bool({ default: true, description: 'Write speaker notes as comments; on by default (--no-notes leaves them out).' })),
    out: opt(str({ default: '.studio/export', description: 'A folder (the file is <deckId>.md) or a file name ending in .md; .studio/export when absent.' })),
  }),
  output: result({
    file: str({ description: 'The Markdown file written (workspace-relative when inside the workspace).' }),
    pictures: arr(str(), { description: 'The picture files written beside it, in <name>-assets/.' }),
    slides: arr(SlideId, { description: 'The slide ids exported, in order.' }),
    skipped: arr(obj({ slideId: SlideId, blockId: opt(str()), reason: str() }), { description: 'What Markdown cannot hold, left out (or written in another form).' }),
    revision: { ...CurrentRevision, description: 'The revision exported.' },
  }),
  cli: 'export md <slideIds> --include-skipped --no-notes --out <out>',
  mcp: 'deck_export_markdown',
  annotations: { writes: true, idempotent: true },
  example: { slideIds: 'all', out: '.studio/export' },
  run: async (ctx, input: { slideIds?: 'all' | string[]; includeSkipped?: boolean; notes?: boolean; out?: string }) => {
    const doc = await ctx.target()
    // The same choice as export pdf/pptx and export txt: a skipped slide only with includeSkipped, named or not.
    const slides = exportSlides(doc, input.slideIds, input.includeSkipped === true)
    const out = input.out ?? '.studio/export'
    const target = (await ctx.outputPath(/\.(md|markdown)$/i.test(out) ? out : join(out, `${doc.manifest.id}.md`), '/out')).abs
    const stem = basename(target).replace(/\.(md|markdown)$/i, '')
    const deckDir = ctx.ws.deckDir(doc.manifest.id)
    const { assetFileName, deckMarkdown } = await import('../../export/markdown.js')
    const { readAssetSync } = await import('../../store/safe-open.js')
    const alt = (assetId: string) => {
      const record = join(deckDir, 'assets', `${assetId}.json`)
      try {
        const parsed = JSON.parse(readAssetSync(record).toString('utf8')) as { alt?: unknown }
        return typeof parsed.alt === 'string' ? parsed.alt : ''
      } catch {
        return ''
      }
    }
    const built = deckMarkdown(doc, slides, { notes: input.notes !== false, dir: `${stem}-assets`, alt, fileOf: (assetId) => assetFileName(deckDir, assetId) })
    const pictures: string[] = []
    for (const file of [...new Set(built.pictures.values())].sort()) {
      const path = join(dirname(target), `${stem}-assets`, file)
      await writeInside(ctx.ws.root, path, readAssetSync(join(deckDir, 'assets', file)))
      pictures.push(shownPath(ctx.ws.root, path))
    }
    await writeInside(ctx.ws.root, target, built.markdown)
    return { file: shownPath(ctx.ws.root, target), pictures, slides: slides.map((s) => s.id), skipped: built.skipped, revision: doc.manifest.revision }
  },
  human: (r: { file: string; pictures: string[]; skipped: { slideId: string; blockId?: string; reason: string }[] }) =>
    [r.file, ...(r.pictures.length ? [`${r.pictures.length} picture${r.pictures.length === 1 ? '' : 's'} beside it`] : []), ...r.skipped.map((s) => `${s.slideId}${s.blockId ? ` ${s.blockId}` : ''}: ${s.reason}`)].join('\n'),
})

/** A path as results show it: workspace-relative inside the workspace. */
const shownPath = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel && !rel.startsWith('..') ? rel : path
}

export const buildRun = defineAction({
  id: 'build.run',
  label: 'Build standalone HTML',
  doc:
    'Writes a single-file HTML deck that opens from disk with no network: every slide drawn by the renderer in the deck\'s appearance, the theme\'s fonts and the pictures inlined (each picture once), ' +
    'arrow keys, clicks and swipes to move, #<n> or #<slideId> deep links, P for the presenter view (next slide, notes when built with them, a timer). Skipped slides are left out unless asked. ' +
    'Refused, with nothing written, when the file would exceed the budget (16 MB by default); the error names the largest items.',
  group: 'export',
  milestone: 'M5',
  mutates: false,
  capability: 'export',
  transports: 'CMHP',
  input: obj({
    out: FilePath('The HTML file to write (over HTTP and MCP: inside the workspace).'),
    budgetMB: opt({ type: 'number', exclusiveMinimum: 0, default: 16, description: 'Size budget in MB; 16 when absent.' }),
    quality: opt({ type: 'integer', minimum: 1, maximum: 100, description: 'Re-encode raster pictures at this quality (JPEG, or WebP with transparency), at most 3200 px wide; as stored when absent.' }),
    includeSkipped,
    includeNotes,
  }),
  output: result({
    file: str({ description: 'The file written (relative to the workspace root when inside it).' }),
    bytes: int({ minimum: 0, description: 'Its size.' }),
    budget: int({ minimum: 0, description: 'The budget it was checked against (bytes).' }),
    slides: int({ minimum: 0, description: 'Slides in the file.' }),
    items: arr(obj({ name: str(), bytes: int({ minimum: 0 }) }), { description: 'What the file holds, largest first.' }),
  }),
  cli: 'build --out <out> --budget <budgetMB>',
  annotations: { writes: true, idempotent: true },
  mcp: 'deck_build',
  example: { out: 'dist/q3-review.html', budgetMB: 16 },
  run: async (ctx, input: { out: string; budgetMB?: number; quality?: number; includeSkipped?: boolean; includeNotes?: boolean }) => {
    const doc = await ctx.target()
    const target = (await ctx.outputPath(input.out, '/out')).abs
    const { buildStandalone } = await import('../../render/standalone.js')
    const built = await buildStandalone(doc, ctx.ws.deckDir(doc.manifest.id), { ...input, root: ctx.ws.root })
    const bytes = Buffer.byteLength(built.html)
    const budget = Math.round((input.budgetMB ?? 16) * 1024 * 1024)
    if (bytes > budget) {
      const largest = built.items.slice(0, 5).map((item) => `${item.name} ${(item.bytes / 1048576).toFixed(2)} MB`)
      fail('refused', `The build is ${(bytes / 1048576).toFixed(2)} MB, over the ${(budget / 1048576).toFixed(2)} MB budget; nothing was written. Largest: ${largest.join(', ')}. Try --quality, fewer pictures, or a larger --budget.`, {
        pointer: '/budgetMB',
        details: { bytes, budget, items: built.items.slice(0, 10) },
      })
    }
    await writeInside(ctx.ws.root, target, built.html)
    const rel = relative(ctx.ws.root, target)
    return { file: rel.startsWith('..') ? target : rel, bytes, budget, slides: built.slides, items: built.items }
  },
  human: (r: { file: string; bytes: number; slides: number }) => `${r.file}  ${r.slides} slides, ${(r.bytes / 1048576).toFixed(2)} MB`,
})

export const fontsBuild = defineAction({
  id: 'fonts.build',
  label: 'Build export fonts',
  doc:
    'Cuts the static export font set from the variable source font (Inter, wght and opsz axes) with fontTools: the standard set (Inter, Inter Medium, Inter Display, Inter Display Medium) ' +
    'and the exact set (Inter 14pt through Inter 26pt, regular and medium), TrueType files in fonts/export/ (STUDIO_EXPORT_FONTS_DIR overrides the folder; docs/export.md "Fonts"). ' +
    'check cuts a fresh set into a temporary folder and compares bytes with the committed one; the CLI exits 1 when they differ. ' +
    'In a workspace each cut is kept in .studio/cache/fonts under a digest of everything its bytes depend on (cut.py, the source font, the face list, the interpreter and its Python, fontTools and brotli versions), and a build or check with the same inputs uses that cut instead of cutting again (cached in the result). ' +
    'The interpreter: python when given (it must have fontTools), else the first of .studio/venv/bin/python, python3 and /usr/bin/python3 that has fontTools, else .studio/venv is created from requirements-fonts.txt.',
  group: 'export',
  milestone: 'M6',
  mutates: false,
  transports: 'C',
  input: obj({
    check: opt(bool({ description: 'Compare the committed export font set with a fresh build; exit code 1 when it differs.' })),
    python: opt(str({ description: 'An interpreter with fontTools. When absent: .studio/venv/bin/python when it exists, else python3, else /usr/bin/python3, the first with fontTools; .studio/venv is created from requirements-fonts.txt when none has it.' })),
  }),
  output: result({
    dir: str({ description: 'The folder built or checked (relative to the package when inside it).' }),
    faces: arr(str(), { description: 'The faces built or compared (file names).' }),
    differs: opt(bool({ description: 'With check: whether the committed set differs.' })),
    differences: opt(arr(obj({ file: str(), state: oneOf(['changed', 'missing', 'extra']) }), { description: 'With check: each file that differs (changed bytes, missing from the folder, an extra .ttf in it).' })),
    python: str({ description: 'The interpreter that cut the faces.' }),
    fontTools: str({ description: 'Its fontTools version.' }),
    cached: bool({ description: 'Whether the faces came from a cut cached in .studio/cache/fonts with the same inputs instead of a new cut.' }),
    brotli: oneOf(['module', 'node'], { description: "How WOFF2 was decompressed: Python's brotli module, or Node's zlib when the interpreter lacks it." }),
    seconds: { type: 'number', minimum: 0, description: 'Wall time of the build.' },
  }),
  cli: 'fonts build --check',
  mcp: null,
  example: { check: true },
  annotations: { writes: true, idempotent: true },
  reportsErrors: (r: { differs?: boolean }) => r.differs === true,
  findingsExitCode: 1,
  run: (ctx, input: { check?: boolean; python?: string }) => buildExportFonts(input, ctx.ws.root, ctx.ws.embedded ? undefined : ctx.ws.stateDir),
  human: (r: FontsBuildResult) => fontsBuildHuman(r),
})
