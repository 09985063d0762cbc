/**
 * Short-lived processes started by one small shell instead of by the test process.
 *
 * Node starts a child with fork() then exec(). After a fork every writable page of the parent is
 * copy-on-write, so the parent pays a page fault for each page it writes again, and a test process with
 * the action table, tsx and the MCP SDK loaded writes many: measured here 11–20 ms of the parent's CPU per
 * child (against under 1 ms for a small process), about 15 core-seconds of one contract part's 80 for its
 * ~550 git, shell and CLI starts. A bash of a few megabytes forks for almost nothing, so the calls that
 * only run a program to its end and read its output go through one (`bash` reading requests on its stdin,
 * each run as a background job, so calls made side by side still run side by side).
 *
 * The child gets what a spawn from here would give it: its working directory, its argv, its environment
 * (replaced whole: `env -i`) and its stdin (a file; /dev/null when none is given). Its stdout and stderr
 * are files (not pipes), read when it exits; its exit code is the shell's `$?` (128 + n for a signal).
 * Not for a process a test kills, waits on while it runs, or talks to: those keep `spawn`.
 * docs/performance.md ("The suite, fifth pass") has the measurements.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Reads one request id a line; `<dir>/<id>.req` holds, NUL-separated, the working directory, the stdin's
 * file, the number of environment entries, the entries, then argv. Writes `.out` and `.err`; answers `<id> <code>`.
 */
const LOOP = [
  'd=$1',
  'while IFS= read -r id; do',
  '  {',
  '    mapfile -d "" -t r < "$d/$id.req"',
  '    n=${r[2]}',
  '    cd -- "${r[0]}" && env -i "${r[@]:3:n}" "${r[@]:3+n}" < "${r[1]}" > "$d/$id.out" 2> "$d/$id.err"',
  '    echo "$id $?"',
  '  } &',
  'done',
  'wait',
].join('\n')

interface Shell {
  child: ChildProcess
  dir: string
  next: number
  waiting: Map<number, (code: number) => void>
}
let shell: Shell | undefined

function startShell(): Shell {
  const dir = mkdtempSync(join(tmpdir(), 'studio-spawner-'))
  const child = spawn('bash', ['--norc', '--noprofile', '-c', LOOP, 'spawner', dir], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } })
  const waiting = new Map<number, (code: number) => void>()
  const made: Shell = { child, dir, next: 0, waiting }
  let buffered = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk
    let newline: number
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const [id, code] = buffered.slice(0, newline).split(' ').map(Number)
      buffered = buffered.slice(newline + 1)
      waiting.get(id)?.(code)
      waiting.delete(id)
    }
    if (!waiting.size) idle(made)
  })
  child.on('exit', () => {
    if (shell === made) shell = undefined
    for (const resolve of waiting.values()) resolve(-1)
  })
  idle(made)
  process.once('exit', () => {
    // The CPU report (scripts/cpu-report.mjs) counts a test file's reaped children; the shell is not waited for,
    // so it adds its own line: its own CPU and that of every process it started (all reaped by now).
    const log = process.env.STUDIO_TEST_CPU_LOG
    if (log && child.pid) {
      try {
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ').map(Number)
        appendFileSync(log, JSON.stringify({ file: 'spawner', self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100, commands: made.next }) + '\n')
      } catch {}
    }
    child.stdin!.end()
    rmSync(dir, { recursive: true, force: true })
  })
  return made
}

/** The shell holds this process's event loop only while it runs something for it. */
function idle(s: Shell): void {
  s.child.unref()
  ;(s.child.stdout as unknown as { unref(): void }).unref()
  ;(s.child.stdin as unknown as { unref(): void }).unref()
}
function busy(s: Shell): void {
  s.child.ref()
  ;(s.child.stdout as unknown as { ref(): void }).ref()
  ;(s.child.stdin as unknown as { ref(): void }).ref()
}

export interface Ran {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs `file` with `args` to its end through the shell and answers its exit code and output (UTF-8).
 * `env` is the child's whole environment (this process's by default), `input` its stdin (empty by default).
 */
export async function runToEnd(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer }): Promise<Ran> {
  shell ??= startShell()
  const s = shell
  const id = s.next++
  const base = join(s.dir, String(id))
  const env = Object.entries(options.env ?? process.env).filter(([, v]) => v !== undefined)
  const stdin = options.input === undefined ? '/dev/null' : `${base}.in`
  if (options.input !== undefined) writeFileSync(stdin, options.input)
  writeFileSync(`${base}.req`, [options.cwd, stdin, String(env.length), ...env.map(([k, v]) => `${k}=${v}`), file, ...args].map((a) => `${a}\0`).join(''))
  const exited = new Promise<number>((resolve) => s.waiting.set(id, resolve))
  busy(s)
  s.child.stdin!.write(`${id}\n`)
  const code = await exited
  const read = (ext: string) => {
    try {
      return readFileSync(`${base}.${ext}`, 'utf8')
    } catch {
      return ''
    }
  }
  const ran = { code, stdout: read('out'), stderr: read('err') }
  for (const ext of ['req', ...(options.input === undefined ? [] : ['in']), 'out', 'err']) rmSync(`${base}.${ext}`, { force: true })
  return ran
}

/** As `runToEnd`, but a non-zero exit throws (with the output on the error), as `execFile` does; answers stdout. */
export async function runChecked(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer }): Promise<string> {
  const ran = await runToEnd(file, args, options)
  if (ran.code !== 0) throw Object.assign(new Error(`${file} ${args.join(' ')} exited ${ran.code}: ${ran.stderr}`), ran)
  return ran.stdout
}
