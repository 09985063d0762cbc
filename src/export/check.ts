/**
 * `export.check`: our package walk (src/export/opc.ts), then two independent readers, LibreOffice
 * and (where a Python with it is given) python-pptx, and a first-page thumbnail.
 *
 * A reader that is absent is reported and passes; a reader that is present and cannot open the
 * file, or counts other pages than the package lists, fails the check.
 */
import { existsSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { writeInside } from '../store/safe-open.js'
import { basename, dirname, join } from 'node:path'
import { convertToPdf, findSoffice, pdfPageCount, pdfPagePng, run, scratchDir } from './office.js'
import { walkPackage, type Finding, type PackageReport } from './opc.js'

export { onPath } from './office.js'

export interface ReaderReport {
  reader: 'libreoffice' | 'python-pptx'
  /** ok: opened and agrees; failed: present but could not open the file or disagrees; unavailable: not on this machine. */
  status: 'ok' | 'failed' | 'unavailable'
  /** Pages (LibreOffice's PDF) or slides (python-pptx) the reader found. */
  pages?: number
  /** The program that read the file. */
  program?: string
  ms?: number
  message: string
}

/** The package walk's findings (its slide part list aside), with the readers' and what they said. */
export interface CheckReport extends Omit<PackageReport, 'slides' | 'presentation'> {
  file: string
  /** No invalid part and no reader that failed. */
  valid: boolean
  readers: ReaderReport[]
  thumbnail?: string
  notes: string[]
}

export interface CheckOptions {
  /** The file as messages name it. */
  shown: string
  /** A Python interpreter to try python-pptx with, and where it came from. */
  python?: { path: string; from: string }
  /** Render the first page (needs LibreOffice and pdftoppm). */
  quickLook: boolean
  /** Folder the thumbnail lands in. */
  out: string
  /** Shown form of `out`. */
  outShown: string
  /** The workspace root: no link below it is followed when the thumbnail is written. */
  root: string
}

/** Opens the file, lists its slides and touches every shape, so a part that cannot be parsed fails here. */
const PYTHON_PPTX_SCRIPT = `
import json, sys
try:
    import pptx
except ImportError as error:
    print(json.dumps({"unavailable": str(error)}))
    sys.exit(0)
print(json.dumps({"imported": getattr(pptx, "__version__", "?")}), flush=True)
presentation = pptx.Presentation(sys.argv[1])
slides = list(presentation.slides)
shapes = sum(len(list(slide.shapes)) for slide in slides)
print(json.dumps({"slides": len(slides), "shapes": shapes, "version": getattr(pptx, "__version__", "?")}))
`

export async function checkPackage(file: string, options: CheckOptions): Promise<CheckReport> {
  const walked = await walkPackage(file)
  const report: CheckReport = {
    file: options.shown,
    valid: false,
    pages: walked.pages,
    hidden: walked.hidden,
    size: walked.size,
    parts: walked.parts,
    rasters: walked.rasters,
    vectors: walked.vectors,
    fonts: walked.fonts,
    embeddedFonts: walked.embeddedFonts,
    invalid: walked.invalid,
    warnings: walked.warnings,
    readers: [],
    notes: [],
  }
  const readable = !walked.invalid.some((finding) => finding.path === '/')
  const scratch = scratchDir('check')
  try {
    const office: { report: ReaderReport; pdf?: string } = readable
      ? await libreOffice(file, walked, scratch)
      : { report: { reader: 'libreoffice', status: 'unavailable', message: 'Not tried: the file is not a readable zip.' } }
    report.readers.push(office.report)
    if (options.quickLook) {
      if (office.pdf) {
        const name = `${basename(file).replace(/\.pptx$/i, '')}-page-1`
        // Drawn in the scratch folder, then written without following a link at the output.
        const rendered = await pdfPagePng(office.pdf, 1, join(scratch, name))
        if ('png' in rendered) {
          await writeInside(options.root, join(options.out, `${name}.png`), await readFile(rendered.png))
          report.thumbnail = join(options.outShown, `${name}.png`)
        }
        else report.notes.push(`No thumbnail: ${'missing' in rendered ? rendered.missing : rendered.error}`)
      } else {
        report.notes.push(`No thumbnail: it is drawn from LibreOffice's PDF, and there is none (${office.report.message.replace(/\.$/, '')}).`)
      }
    }
    report.readers.push(readable ? await pythonPptx(file, walked, options.python) : { reader: 'python-pptx', status: 'unavailable', message: 'Not tried: the file is not a readable zip.' })
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  report.valid = report.invalid.length === 0 && !report.readers.some((reader) => reader.status === 'failed')
  return report
}

async function libreOffice(file: string, walked: PackageReport, scratch: string): Promise<{ report: ReaderReport; pdf?: string }> {
  const soffice = findSoffice()
  if ('missing' in soffice) return { report: { reader: 'libreoffice', status: 'unavailable', message: soffice.missing } }
  const converted = await convertToPdf(soffice.path, file, scratch)
  const program = soffice.path
  if ('error' in converted) return { report: { reader: 'libreoffice', status: 'failed', program, ms: converted.ms, message: converted.error } }
  const { pages, by } = await pdfPageCount(converted.pdf)
  const expected = walked.pages - walked.hidden
  const counted = by === 'pdfinfo' ? '' : ' (counted without pdfinfo: install poppler-utils for an exact count)'
  const hidden = walked.hidden ? ` (${walked.pages} slides, ${walked.hidden} hidden)` : ''
  if (pages !== expected) {
    return {
      report: { reader: 'libreoffice', status: 'failed', pages, program, ms: converted.ms, message: `LibreOffice made ${pages} PDF pages; the package lists ${expected} visible slide${expected === 1 ? '' : 's'}${hidden}${counted}.` },
      pdf: converted.pdf,
    }
  }
  return { report: { reader: 'libreoffice', status: 'ok', pages, program, ms: converted.ms, message: `LibreOffice opened the file and made ${pages} PDF pages, one per visible slide${hidden}${counted}.` }, pdf: converted.pdf }
}

async function pythonPptx(file: string, walked: PackageReport, python: CheckOptions['python']): Promise<ReaderReport> {
  const reader = 'python-pptx' as const
  const absent = 'python-pptx is not a Debian package: make a venv (python3 -m venv .studio/venv) and pip install python-pptx where the Python package index is reachable'
  if (!python) return { reader, status: 'unavailable', message: `python-pptx was not available: no Python was given (--python, STUDIO_PYTHON, or .studio/venv/bin/python). ${absent}.` }
  if (!existsSync(python.path)) return { reader, status: 'unavailable', message: `python-pptx was not available: ${python.from} names ${python.path}, which does not exist.` }
  const ran = await run(python.path, ['-c', PYTHON_PPTX_SCRIPT, file], { timeoutMs: 120_000, cwd: dirname(file) })
  const program = python.path
  if (ran.timedOut) return { reader, status: 'failed', program, ms: ran.ms, message: 'python-pptx did not finish within 120 s.' }
  let answer: { unavailable?: string; slides?: number; shapes?: number; version?: string } | undefined
  try {
    answer = JSON.parse(ran.stdout.trim().split('\n').pop() ?? '')
  } catch {
    answer = undefined
  }
  if (answer?.unavailable !== undefined) return { reader, status: 'unavailable', program, message: `python-pptx was not available: ${python.path} cannot import it (${answer.unavailable}). ${absent}.` }
  if (ran.code !== 0 || typeof answer?.slides !== 'number') {
    // The script says when python-pptx imported; before that, it is the interpreter that failed, not the file.
    if (!ran.stdout.includes('{"imported"')) {
      return { reader, status: 'unavailable', program, message: `python-pptx was not available: ${python.path} did not run the check (${ran.stderr.trim().split('\n').pop()?.slice(0, 200) || `exit ${ran.code}`}).` }
    }
    const last = ran.stderr.trim().split('\n').filter(Boolean).pop() ?? `exit ${ran.code}`
    return { reader, status: 'failed', program, ms: ran.ms, message: `python-pptx could not open the file: ${last}` }
  }
  if (answer.slides !== walked.pages) {
    return { reader, status: 'failed', program, ms: ran.ms, pages: answer.slides, message: `python-pptx ${answer.version} counts ${answer.slides} slides; the package lists ${walked.pages}.` }
  }
  return { reader, status: 'ok', program, ms: ran.ms, pages: answer.slides, message: `python-pptx ${answer.version} opened the file: ${answer.slides} slides, ${answer.shapes} shapes.` }
}
