/**
 * The export font set: static TrueType faces cut from the shipped variable Inter (wght and opsz axes,
 * @fontsource-variable/inter, Latin subset: the subset the renderer draws) by scripts/fonts/cut.py with
 * fontTools, committed under fonts/export/ so a PPTX can name them and embed them.
 *
 * Two sets, as export.run's `fonts` input names them:
 * - standard: four faces of one sans family: Inter (regular, text optical size 14), Inter Medium,
 *   Inter Display (regular at optical size 32), Inter Display Medium. These are the names upstream Inter 4
 *   gives its static faces, so a machine with Inter installed shows the same design under the same names.
 * - exact: text faces for each size 14 through 26, the optical size pinned at that size:
 *   Inter 14pt ... Inter 26pt and Inter 14pt Medium ... Inter 26pt Medium (Google Fonts' naming of
 *   Inter's optical-size statics).
 *
 * The name a PPTX writes in `<a:latin typeface="...">` is `typeface` (the legacy family, name ID 1):
 * PowerPoint groups at most regular/bold/italic/bold italic under one family, so a medium face is a
 * family of its own ("Inter Medium", style Regular) whose typographic family (name ID 16) is "Inter"
 * with style (17) "Medium". LibreOffice (fontconfig) matches either name.
 *
 * `studio fonts build` cuts the set; `--check` cuts it into a temporary folder and compares bytes. A
 * workspace keeps each cut in .studio/cache/fonts under a digest of its inputs (fontsCacheKey). The
 * folder is fonts/export/ in the package, or STUDIO_EXPORT_FONTS_DIR (tests point it at a copy).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import writeFileAtomic from 'write-file-atomic'
import { createRequire } from 'node:module'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fail } from '../core/errors.js'
import { mkdirInside, refuseLinksUnder } from '../store/safe-open.js'
import { packageRoot } from '../store/workspace.js'
import { DEBIAN_PACKAGES, findProgram, probePython, requireProgram, type PythonProbe } from './programs.js'

const load = createRequire(import.meta.url)

export type ExportFontSet = 'standard' | 'exact'

export interface ExportFace {
  /** The file under the export fonts folder. */
  file: string
  set: ExportFontSet
  /** The name presentation files use (`<a:latin typeface>`): the legacy family, name ID 1. */
  typeface: string
  /** Typographic family and style (name IDs 16 and 17 for a medium face; 1 and 2 for a regular one). */
  family: string
  style: 'Regular' | 'Medium'
  postscript: string
  weight: 400 | 500
  /** The optical size the face is pinned at (Inter 4: 14 text to 32 display). */
  opsz: number
  /** standard: which of the four it is; exact: the text size it is cut for. */
  role: 'regular' | 'medium' | 'display' | 'display-medium' | 'text'
}

/** The text sizes of the exact set (one optical size per size). */
export const EXACT_SIZES: readonly number[] = Array.from({ length: 13 }, (_, i) => 14 + i)
/** Inter 4's optical-size axis: text at its minimum, display at its maximum. */
export const TEXT_OPSZ = 14
export const DISPLAY_OPSZ = 32

function face(set: ExportFontSet, role: ExportFace['role'], family: string, weight: 400 | 500, opsz: number): ExportFace {
  const style = weight === 500 ? 'Medium' : 'Regular'
  const postscript = `${family.replace(/ /g, '')}-${style}`
  return { file: `${postscript}.ttf`, set, typeface: style === 'Regular' ? family : `${family} ${style}`, family, style, postscript, weight, opsz, role }
}

export const EXPORT_FACES: readonly ExportFace[] = [
  face('standard', 'regular', 'Inter', 400, TEXT_OPSZ),
  face('standard', 'medium', 'Inter', 500, TEXT_OPSZ),
  face('standard', 'display', 'Inter Display', 400, DISPLAY_OPSZ),
  face('standard', 'display-medium', 'Inter Display', 500, DISPLAY_OPSZ),
  ...EXACT_SIZES.flatMap((size) => [face('exact', 'text', `Inter ${size}pt`, 400, size), face('exact', 'text', `Inter ${size}pt`, 500, size)]),
]

/** The variable source: Inter with wght and opsz axes, Latin subset (the subset the renderer draws). */
export const SOURCE_FILE = '@fontsource-variable/inter/files/inter-latin-opsz-normal.woff2'
/** The licence shipped beside the faces (OFL 1.1; Inter reserves no font name, so the cut faces keep "Inter"). */
export const LICENCE_FILE = 'OFL.txt'

/** The export fonts folder: STUDIO_EXPORT_FONTS_DIR (resolved against the working directory) or fonts/export/ in the package. */
export function exportFontsDir(): string {
  const override = process.env.STUDIO_EXPORT_FONTS_DIR
  return override ? resolve(override) : join(packageRoot(), 'fonts', 'export')
}

/** The absolute path of one export face's file. */
export const exportFacePath = (f: ExportFace) => join(exportFontsDir(), f.file)

/** The face of the standard set for a weight, text or display. */
export function standardFace(weight: 400 | 500, display = false): ExportFace {
  const role = display ? (weight === 500 ? 'display-medium' : 'display') : weight === 500 ? 'medium' : 'regular'
  return EXPORT_FACES.find((f) => f.set === 'standard' && f.role === role)!
}

/** The face of the exact set for a text size (clamped to 14..26, rounded) and weight. */
export function exactFace(size: number, weight: 400 | 500): ExportFace {
  const at = Math.min(EXACT_SIZES[EXACT_SIZES.length - 1], Math.max(EXACT_SIZES[0], Math.round(size)))
  return EXPORT_FACES.find((f) => f.set === 'exact' && f.opsz === at && f.weight === weight)!
}

export interface FontsBuildResult {
  /** The folder built or checked (relative to the package when inside it). */
  dir: string
  faces: string[]
  /** With check: whether the committed set differs from a fresh build. */
  differs?: boolean
  /** With check: each file that differs: changed bytes, missing from the folder, or an extra .ttf in it. */
  differences?: { file: string; state: 'changed' | 'missing' | 'extra' }[]
  python: string
  fontTools: string
  /** Whether the faces came from a build cached in .studio/cache/fonts (keyed by every input of the cut) instead of a new cut. */
  cached: boolean
  /** How WOFF2 was decompressed: Python's brotli module, or Node's zlib when the interpreter lacks it. */
  brotli: 'module' | 'node'
  seconds: number
}

const REQUIREMENTS = 'requirements-fonts.txt'
const CUT_SCRIPT = join('scripts', 'fonts', 'cut.py')
const MODULES = ['fontTools', 'brotli']

const hasFontTools = (probe: PythonProbe) => probe.runs && probe.modules.fontTools !== false

function describe(probe: PythonProbe): string {
  if (!probe.path) return `${probe.python} (not found)`
  if (!probe.runs) return `${probe.python} (does not run)`
  return `${probe.python} (Python ${probe.version}, ${hasFontTools(probe) ? 'fontTools' : 'no fontTools'})`
}

const INSTALL_HINT = `On Debian or Ubuntu: apt-get install ${DEBIAN_PACKAGES.fontTools} ${DEBIAN_PACKAGES.brotli}; or pass --python an interpreter that has fontTools.`

function run(program: string, args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, timeout: options.timeoutMs })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (status) => done({ status, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}

const tail = (text: string, lines = 6) => text.trim().split('\n').slice(-lines).join('\n')

/** What a failed command said, in one line: its ERROR lines when it has some (pip), else its last lines. */
function said(output: string): string {
  const errors = output.split('\n').filter((line) => /^ERROR:/.test(line.trim()))
  const text = (errors.length ? errors.join(' ') : tail(output, 3).replace(/\n/g, ' ')).trim()
  return text ? (/[.!]$/.test(text) ? text : `${text}.`) : 'no output.'
}

/**
 * The interpreter that cuts the faces. Given one, it must have fontTools. Otherwise the first of
 * `.studio/venv/bin/python` (when it exists), `python3` on PATH and Debian's `/usr/bin/python3` (where
 * apt's python3-fonttools lands, when PATH's python3 is another one, e.g. pyenv's) that has it; when
 * none has, `.studio/venv` is created (--system-site-packages) from requirements-fonts.txt.
 */
export async function fontsPython(root: string, given?: string): Promise<PythonProbe> {
  if (given) {
    requireProgram(given, DEBIAN_PACKAGES.python3, { purpose: 'Cutting the export fonts', pointer: '/python' })
    const probe = await probePython(given, MODULES)
    if (!hasFontTools(probe)) {
      fail('missing_program', `The Python given (--python ${given}) ${probe.runs ? 'has no fontTools module' : 'does not run'}; cutting the export fonts needs python3 with fontTools. ${INSTALL_HINT}`, {
        pointer: '/python',
        details: { program: `${given} with fontTools`, package: DEBIAN_PACKAGES.fontTools },
      })
    }
    return probe
  }
  const venvPython = join(root, '.studio', 'venv', 'bin', 'python')
  const candidates = [...(existsSync(venvPython) ? [venvPython] : []), 'python3']
  const system = '/usr/bin/python3'
  if (existsSync(system) && findProgram('python3') !== system) candidates.push(system)
  const tried: PythonProbe[] = []
  for (const python of candidates) {
    const probe = await probePython(python, MODULES)
    tried.push(probe)
    if (hasFontTools(probe)) return probe
  }
  const base = tried.find((p) => p.runs && p.python !== venvPython)
  if (!base) {
    fail('missing_program', `Cutting the export fonts needs python3 with fontTools; no Python was found (tried ${tried.map(describe).join(', ')}). On Debian or Ubuntu: apt-get install python3 ${DEBIAN_PACKAGES.fontTools} ${DEBIAN_PACKAGES.brotli}.`, {
      details: { program: 'python3', package: DEBIAN_PACKAGES.python3, tried: tried.map(describe) },
    })
  }
  return createVenv(root, base, tried)
}

async function createVenv(root: string, base: PythonProbe, tried: PythonProbe[]): Promise<PythonProbe> {
  const venv = join(root, '.studio', 'venv')
  const existed = existsSync(venv)
  const requirements = join(packageRoot(), REQUIREMENTS)
  const refuse = (step: string, output: string): never => {
    if (!existed) rmSync(venv, { recursive: true, force: true })
    return fail(
      'missing_program',
      `Cutting the export fonts needs python3 with fontTools, and none has it (tried ${tried.map(describe).join(', ')}). ` +
        `Creating .studio/venv from ${REQUIREMENTS} failed at ${step}: ${said(output)}` +
        (step.startsWith('pip') ? ' pip installs from the Python package index (PyPI), which is not reachable from every machine (Deck Studio\'s CI machines cannot reach it).' : '') +
        ` ${INSTALL_HINT}`,
      { details: { program: 'python3 with fontTools', package: DEBIAN_PACKAGES.fontTools, tried: tried.map(describe), step } },
    )
  }
  await mkdir(dirname(venv), { recursive: true })
  const made = await run(base.path!, ['-m', 'venv', '--system-site-packages', venv], { timeoutMs: 120_000 })
  if (made.status !== 0) refuse(`${base.python} -m venv`, made.stderr + made.stdout)
  const python = join(venv, 'bin', 'python')
  const pip = await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--retries', '1', '-r', requirements], { timeoutMs: 300_000 })
  if (pip.status !== 0) refuse(`pip install -r ${REQUIREMENTS}`, pip.stderr + pip.stdout)
  const probe = await probePython(python, MODULES)
  if (!hasFontTools(probe)) refuse(`pip install -r ${REQUIREMENTS}`, 'fontTools still does not import')
  return probe
}

/** The source font file and how the faces name it (package, version, file). */
function source(): { file: string; name: string } {
  const file = load.resolve(SOURCE_FILE)
  const pkg = JSON.parse(readFileSync(join(dirname(file), '..', 'package.json'), 'utf8')) as { name: string; version: string }
  return { file, name: `${pkg.name} ${pkg.version} (${SOURCE_FILE.split('/').pop()})` }
}

/** What the cut is handed on stdin, without the folder it writes to. */
function cutPlan(): { source: string; sourceName: string; jobs: number; faces: unknown[] } {
  const src = source()
  return {
    source: src.file,
    sourceName: src.name,
    jobs: Math.max(1, Math.min(2, availableParallelism())),
    faces: EXPORT_FACES.map((f) => ({ file: f.file, family: f.family, style: f.style, postscript: f.postscript, axes: { wght: f.weight, opsz: f.opsz } })),
  }
}

/** Cuts every export face into `out` with `python`; writes the licence beside them. */
async function cutInto(out: string, python: PythonProbe): Promise<{ fontTools: string; brotli: 'module' | 'node' }> {
  const script = join(packageRoot(), CUT_SCRIPT)
  if (!existsSync(script)) fail('internal', `The font cutting script ${CUT_SCRIPT} is not in this installation (it ships with the repository).`)
  const plan = { ...cutPlan(), out }
  const cut = await run(python.path!, [script], { stdin: JSON.stringify(plan), env: { ...process.env, STUDIO_NODE: process.execPath, PYTHONDONTWRITEBYTECODE: '1' } })
  if (cut.status !== 0) fail('internal', `${CUT_SCRIPT} failed under ${python.python}: ${tail(cut.stderr) || `exit ${cut.status}`}`)
  const report = JSON.parse(cut.stdout.trim().split('\n').pop()!) as { fontTools: string; brotli: 'module' | 'node' }
  await writeFile(join(out, LICENCE_FILE), await readFile(join(dirname(plan.source), '..', 'LICENSE')))
  return report
}

/**
 * The cache key of a cut: a digest of everything its bytes depend on (the script, the source font and
 * its licence, the face list, the interpreter with its Python, fontTools and brotli versions, and the
 * switch to Node's brotli). Two cuts with the same key write the same bytes (cut.py is deterministic),
 * so a build whose key is cached copies that build instead of cutting again.
 */
export function fontsCacheKey(python: PythonProbe): string {
  const plan = cutPlan()
  const hash = createHash('sha256')
  const part = (label: string, value: string | Buffer) => hash.update(`${label}\0${value.length}\0`).update(value)
  const script = join(packageRoot(), CUT_SCRIPT)
  part('script', existsSync(script) ? readFileSync(script) : '')
  part('source', readFileSync(plan.source))
  part('licence', readFileSync(join(dirname(plan.source), '..', 'LICENSE')))
  part('plan', JSON.stringify({ sourceName: plan.sourceName, faces: plan.faces }))
  part('python', JSON.stringify({ path: python.path ? realpathSync(python.path) : null, version: python.version ?? null, modules: python.modules }))
  part('nodeBrotli', process.env.STUDIO_FONTS_NODE_BROTLI === '1' ? '1' : '0')
  return hash.digest('hex').slice(0, 32)
}

const REPORT_FILE = 'cut.json'

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

interface CachedCut {
  fontTools: string
  brotli: 'module' | 'node'
  /** Each file of the cut and its SHA-256: an entry whose files no longer match is cut again. */
  files: Record<string, string>
}

/** A cache entry's report when every file it lists is there with its digest and nothing else is. */
export function readCachedCut(entry: string): CachedCut | undefined {
  try {
    const report = JSON.parse(readFileSync(join(entry, REPORT_FILE), 'utf8')) as CachedCut
    const files = new Map(Object.entries(report.files))
    const present = readdirSync(entry).filter((file) => file !== REPORT_FILE)
    if (present.length !== files.size) return undefined
    for (const file of present) if (files.get(file) !== digest(readFileSync(join(entry, file)))) return undefined
    return report
  } catch {
    return undefined
  }
}

/**
 * The cut faces in a folder to read from: the cached build for this key under `.studio/cache/fonts`
 * when there is one, intact (never outside a workspace: no `stateDir`), else a new cut into `temp`, then
 * kept there (copied whole and renamed into place, so an entry is complete or absent).
 */
async function cutCached(root: string, stateDir: string | undefined, python: PythonProbe, temp: string): Promise<{ dir: string; fontTools: string; brotli: 'module' | 'node'; cached: boolean }> {
  const out = join(temp, 'cut')
  await mkdir(out)
  if (!stateDir) return { dir: out, ...(await cutInto(out, python)), cached: false }
  const cacheRoot = join(stateDir, 'cache', 'fonts')
  const entry = join(cacheRoot, fontsCacheKey(python))
  // The cache is read and written through no link, as every path of the workspace (a link there is refused).
  await refuseLinksUnder(root, entry)
  const hit = readCachedCut(entry)
  if (hit) return { dir: entry, fontTools: hit.fontTools, brotli: hit.brotli, cached: true }
  const report = await cutInto(out, python)
  try {
    mkdirInside(root, cacheRoot)
    const staging = mkdtempSync(`${entry}.tmp-`)
    const files = Object.fromEntries(readdirSync(out).map((file) => [file, digest(readFileSync(join(out, file)))]))
    cpSync(out, staging, { recursive: true })
    await writeFile(join(staging, REPORT_FILE), JSON.stringify({ ...report, files } satisfies CachedCut))
    rmSync(entry, { recursive: true, force: true })
    try {
      renameSync(staging, entry)
    } catch {
      rmSync(staging, { recursive: true, force: true })
    }
  } catch {
    // A cache that cannot be written (a read-only workspace) only costs the next build its cut.
  }
  return { dir: out, ...report, cached: false }
}

function shown(dir: string): string {
  const rel = relative(packageRoot(), dir)
  return rel && !rel.startsWith('..') ? rel : dir
}

/** `studio fonts build [--check]`. */
export async function buildExportFonts(input: { check?: boolean; python?: string }, root: string, stateDir?: string): Promise<FontsBuildResult> {
  const started = performance.now()
  const dir = exportFontsDir()
  const python = await fontsPython(root, input.python)
  const temp = mkdtempSync(join(tmpdir(), 'studio-fonts-'))
  try {
    const cut = await cutCached(root, stateDir, python, temp)
    const built = readdirSync(cut.dir).filter((file) => file !== REPORT_FILE).sort()
    const result: FontsBuildResult = { dir: shown(dir), faces: EXPORT_FACES.map((f) => f.file), python: python.path!, fontTools: cut.fontTools, cached: cut.cached, brotli: cut.brotli, seconds: 0 }
    if (input.check) {
      const committed = existsSync(dir) ? readdirSync(dir).sort() : []
      const differences: NonNullable<FontsBuildResult['differences']> = []
      for (const file of built) {
        if (!committed.includes(file)) differences.push({ file, state: 'missing' })
        else if (!readFileSync(join(cut.dir, file)).equals(readFileSync(join(dir, file)))) differences.push({ file, state: 'changed' })
      }
      for (const file of committed) if (!built.includes(file) && file.endsWith('.ttf')) differences.push({ file, state: 'extra' })
      result.differs = differences.length > 0
      result.differences = differences
    } else {
      await mkdir(dir, { recursive: true })
      for (const file of built) await writeFileAtomic(join(dir, file), await readFile(join(cut.dir, file)))
      for (const file of readdirSync(dir)) if (!built.includes(file) && file.endsWith('.ttf')) await rm(join(dir, file))
    }
    result.seconds = Math.round((performance.now() - started) / 100) / 10
    return result
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

/** The CLI's rendering of the result. */
export function fontsBuildHuman(r: FontsBuildResult): string {
  const how = `${r.faces.length} faces, fontTools ${r.fontTools} (${r.python}), ${r.seconds} s${r.cached ? ', cached build' : ''}`
  if (r.differs === undefined) return `Built ${r.dir}: ${how}`
  if (!r.differs) return `${r.dir} matches a fresh build: ${how}`
  const list = r.differences!.map((d) => `  ${d.file}: ${d.state}`).join('\n')
  return `${r.dir} differs from a fresh build (${how}):\n${list}\nRun studio fonts build and commit the result.`
}

/**
 * The typeface a native PPTX names for a run, and whether the run is marked bold.
 *
 * Only the shipped Inter has an export set; other families (Source Serif 4, JetBrains Mono) keep their
 * own name. For Inter, by run size in points (the size a presentation program shows) and weight:
 * - standard: text faces below 32 pt, display faces from 32 pt (Inter's display optical size); weight
 *   400 the regular face, 500 the medium face;
 * - exact: text sizes 14 through 26 pt name the face cut for that size (`Inter 17pt`, `Inter 17pt
 *   Medium`, the size rounded and clamped at 14); from 27 pt the standard faces.
 * A weight of 600 or more names `Inter` marked bold, at every size: PowerPoint groups bold under the
 * regular face's family, so a machine with Inter's bold (or a file with the fonts embedded, which carries
 * the renderer's bold face) shows the face the slides were rendered in. The set has no bold face; a
 * display face marked bold would be emboldened by the reader, which measured further from our render
 * (brand sample, LibreOffice: mean 0.71 % against 0.28 %).
 */
export function exportTypeface(set: ExportFontSet, family: string, sizePt: number, weight: number): { typeface: string; bold: boolean; face?: ExportFace } {
  const bold = weight >= 600
  if (family !== 'Inter') return { typeface: family, bold }
  // Bold is Inter's own bold, at every size: the face the renderer draws (the set has no bold face).
  if (bold) return { typeface: 'Inter', bold, face: standardFace(400) }
  const medium = weight >= 500 ? 500 : 400
  const rounded = Math.round(sizePt)
  const chosen = set === 'exact' && rounded < 27 ? exactFace(rounded, medium) : standardFace(medium, sizePt >= DISPLAY_OPSZ)
  return { typeface: chosen.typeface, bold, face: chosen }
}
