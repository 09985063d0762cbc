/**
 * The system programs export runs: LibreOffice's `soffice` (verify, export.check), poppler's
 * `pdftoppm` and `pdfinfo` (rasterizing and counting PDF pages), and a Python with fontTools
 * (fonts.build). Each is looked up on PATH (or at the path given); a missing one is refused with
 * `missing_program`, naming the program and the Debian package that provides it, before anything is
 * written. `.ci/run` and the README install the same packages on a fresh machine.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { fail } from '../core/errors.js'

/** The Debian package of each program export runs (what `.ci/run` installs). */
export const DEBIAN_PACKAGES = {
  soffice: 'libreoffice-impress',
  pdftoppm: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  python3: 'python3',
  fontTools: 'python3-fonttools',
  brotli: 'python3-brotli',
} as const

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The absolute path of `name`: itself when it holds a slash (relative to the working directory), else the first hit on PATH. */
export function findProgram(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name.includes('/')) {
    const path = resolve(name)
    return executable(path) ? path : undefined
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const path = join(dir, name)
    if (executable(path)) return path
  }
  return undefined
}

/**
 * The absolute path of a program the caller is about to run, or a `missing_program` failure that names
 * it and its Debian package. `purpose` says what needs it ("Verifying an export"); `pointer` names the
 * input field that gave the program, when one did.
 */
export function requireProgram(name: string, debianPackage: string, options: { purpose?: string; pointer?: string } = {}): string {
  const found = findProgram(name)
  if (found) return found
  const where = name.includes('/') ? `at ${name}` : 'on PATH'
  return fail(
    'missing_program',
    `${options.purpose ?? 'This action'} needs the program "${name}", which was not found ${where}. On Debian or Ubuntu: apt-get install ${debianPackage}.`,
    { ...(options.pointer !== undefined ? { pointer: options.pointer } : {}), details: { program: name, package: debianPackage } },
  )
}

export interface PythonProbe {
  /** The interpreter as asked for, and where it resolved. */
  python: string
  path?: string
  /** False when it does not run at all (not installed, not executable). */
  runs: boolean
  version?: string
  /** Each module asked about: its `__version__` (or `version`), `true` when it has none, false when it does not import. */
  modules: Record<string, string | boolean>
}

/** Runs `python` once and asks which of `modules` it imports (no failure: the caller decides). */
export function probePython(python: string, modules: string[]): Promise<PythonProbe> {
  const path = findProgram(python)
  const probe: PythonProbe = { python, path, runs: false, modules: Object.fromEntries(modules.map((m) => [m, false])) }
  if (!path) return Promise.resolve(probe)
  const code = [
    'import importlib, json, sys',
    'r = {"version": sys.version.split()[0], "modules": {}}',
    `for m in ${JSON.stringify(modules)}:`,
    '    try:',
    '        mod = importlib.import_module(m)',
    '        v = getattr(mod, "__version__", None) or getattr(mod, "version", None)',
    '        r["modules"][m] = v if isinstance(v, str) else True',
    '    except Exception:',
    '        r["modules"][m] = False',
    'print(json.dumps(r))',
  ].join('\n')
  return new Promise((done) => {
    const child = spawn(path, ['-c', code], { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.on('error', () => done(probe))
    child.on('close', (status) => {
      if (status !== 0) return done(probe)
      try {
        const parsed = JSON.parse(out) as { version: string; modules: Record<string, string | boolean> }
        done({ ...probe, runs: true, version: parsed.version, modules: { ...probe.modules, ...parsed.modules } })
      } catch {
        done(probe)
      }
    })
  })
}
