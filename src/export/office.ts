/**
 * The outside programs export reads its files back with: LibreOffice (headless, as an independent
 * reader of a .pptx and its PDF writer), poppler's `pdfinfo` and `pdftoppm`, and a Python with
 * python-pptx.
 *
 * Each is looked up, never installed, and each run is time-bound and killed with its whole process
 * group when it overstays. A missing program is an answer (`{ missing: sentence }` naming the
 * program and the package that provides it), not an exception: a check reports it and goes on.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { findProgram } from './programs.js'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** How to get each program, for the sentence that says it is missing. */
export const INSTALL_HINTS = {
  soffice: 'LibreOffice Impress (Debian/Ubuntu: apt-get install libreoffice-impress; macOS: brew install --cask libreoffice), or set STUDIO_SOFFICE to its soffice',
  pdfinfo: 'poppler (Debian/Ubuntu: apt-get install poppler-utils; macOS: brew install poppler)',
  pdftoppm: 'poppler (Debian/Ubuntu: apt-get install poppler-utils; macOS: brew install poppler)',
} as const

const MAC_SOFFICE = '/Applications/LibreOffice.app/Contents/MacOS/soffice'

/** An executable named `name` on PATH, or null (programs.ts's lookup, which every export path shares). */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return findProgram(name, env) ?? null
}

/** LibreOffice's `soffice`: `STUDIO_SOFFICE`, then `soffice` or `libreoffice` on PATH, then the macOS application. */
export function findSoffice(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  if (env.STUDIO_SOFFICE) {
    return existsSync(env.STUDIO_SOFFICE) ? { path: env.STUDIO_SOFFICE } : { missing: `STUDIO_SOFFICE names ${env.STUDIO_SOFFICE}, which does not exist.` }
  }
  const found = onPath('soffice', env) ?? onPath('libreoffice', env) ?? (existsSync(MAC_SOFFICE) ? MAC_SOFFICE : null)
  return found ? { path: found } : { missing: `LibreOffice (soffice) is not installed: install ${INSTALL_HINTS.soffice}.` }
}

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  ms: number
}

/**
 * Runs a program without a shell, in its own process group, and kills the group when it outlives
 * `timeoutMs` (soffice starts soffice.bin, which a plain kill would leave behind).
 */
export function run(program: string, args: string[], options: { timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<Ran> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(program, args, { env: options.env ?? process.env, cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (d) => (stdout = (stdout + d).slice(-64_000)))
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-64_000)))
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, options.timeoutMs)
    const done = (code: number | null, error?: Error) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr: error ? `${stderr}${error.message}` : stderr, timedOut, ms: Date.now() - started })
    }
    child.on('error', (error) => done(null, error))
    child.on('close', (code) => done(code))
  })
}

/** The time bound of one LibreOffice conversion: STUDIO_SOFFICE_TIMEOUT seconds, 180 when unset. */
export function sofficeTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.STUDIO_SOFFICE_TIMEOUT)
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 180_000
}

/**
 * A new LibreOffice profile (a user installation folder) in `dir`, made with `mkdtempSync` under the
 * system's temporary folder when no `dir` is given; answers its folder and the `-env:UserInstallation`
 * argument naming it. The profile records that this LibreOffice's version has already started in it
 * (`ooSetupLastVersion`, set past any real version): LibreOffice otherwise takes every start in a
 * profile without that record for its first after an upgrade and runs its graphics self-test (about
 * a hundred drawings into large bitmaps, GraphicsRenderTests.log), which costs more CPU than opening
 * and printing a small deck: 5.4 of a 6.3 core-second conversion of one slide, 7.6 s less CPU on the
 * brand sample's 96 pages, its PDF drawn the same.
 */
export function officeProfile(dir = mkdtempSync(join(tmpdir(), 'studio-soffice-'))): { dir: string; arg: string } {
  mkdirSync(join(dir, 'user'), { recursive: true })
  writeFileSync(
    join(dir, 'user', 'registrymodifications.xcu'),
    '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' +
      '<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>9999.0</value></prop></item>\n</oor:items>\n',
  )
  return { dir, arg: `-env:UserInstallation=${pathToFileURL(dir).href}` }
}

/**
 * Converts a presentation to PDF with LibreOffice Impress, headless, in a fresh profile of its own
 * (so it neither waits on nor disturbs a LibreOffice the user has open; see `officeProfile`). The
 * PDF lands in `outDir` as `<name>.pdf`. LibreOffice exits 0 even when it could not load the file,
 * so the answer is judged by whether the PDF exists.
 */
export async function convertToPdf(
  soffice: string,
  file: string,
  outDir: string,
  timeoutMs = sofficeTimeoutMs(),
  env: NodeJS.ProcessEnv = {},
): Promise<{ pdf: string; ms: number } | { error: string; ms: number }> {
  const { dir: profile, arg: userInstallation } = officeProfile()
  try {
    const ran = await run(
      soffice,
      [userInstallation, '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck', '--convert-to', 'pdf:impress_pdf_Export', '--outdir', outDir, file],
      // HOME too: some builds write beside the profile into the home folder.
      { timeoutMs, env: { ...process.env, ...env, HOME: profile } },
    )
    const pdf = join(outDir, basename(file).replace(/\.[^.]*$/, '') + '.pdf')
    if (ran.timedOut) return { error: `LibreOffice did not finish within ${Math.round(timeoutMs / 1000)} s (STUDIO_SOFFICE_TIMEOUT sets the bound)`, ms: ran.ms }
    if (existsSync(pdf) && statSync(pdf).size > 0) return { pdf, ms: ran.ms }
    const said = `${ran.stderr}\n${ran.stdout}`.trim().split('\n').filter(Boolean).slice(-3).join(' / ')
    return { error: `LibreOffice wrote no PDF (exit ${ran.code})${said ? `: ${said}` : ''}`, ms: ran.ms }
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/**
 * A PDF's page count: `pdfinfo` when poppler is installed; otherwise the page objects counted in
 * the file, which holds for LibreOffice's PDFs (it writes no compressed object streams).
 */
export async function pdfPageCount(pdf: string): Promise<{ pages: number; by: 'pdfinfo' | 'page objects' }> {
  const pdfinfo = onPath('pdfinfo')
  if (pdfinfo) {
    const ran = await run(pdfinfo, [pdf], { timeoutMs: 60_000 })
    const pages = /^Pages:\s+(\d+)/m.exec(ran.stdout)?.[1]
    if (pages !== undefined) return { pages: Number(pages), by: 'pdfinfo' }
  }
  const text = (await readFile(pdf)).toString('latin1')
  return { pages: text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0, by: 'page objects' }
}

/** Renders one page of a PDF to `<prefix>.png` with pdftoppm, at most `width` pixels wide. */
export async function pdfPagePng(pdf: string, page: number, prefix: string, width = 640): Promise<{ png: string } | { missing: string } | { error: string }> {
  const pdftoppm = onPath('pdftoppm')
  if (!pdftoppm) return { missing: `pdftoppm is not installed: install ${INSTALL_HINTS.pdftoppm}.` }
  const ran = await run(pdftoppm, ['-png', '-f', String(page), '-l', String(page), '-scale-to', String(width), '-singlefile', pdf, prefix], { timeoutMs: 60_000 })
  const png = `${prefix}.png`
  if (ran.code === 0 && existsSync(png)) return { png }
  return { error: `pdftoppm failed (exit ${ran.code}${ran.timedOut ? ', timed out' : ''}): ${ran.stderr.trim().slice(0, 300)}` }
}

/** A scratch folder for one check, removed by the caller. */
export function scratchDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `studio-${label}-`))
}
