/**
 * Test workspaces and the real CLI. Every test gets its own temporary git workspace made by
 * `studio init`; commands run as separate `node bin/studio.js` processes, as users and agents run them,
 * unless the test file asks for one process (`cliInOneProcess`, below). A workspace built the same way
 * twice in one test process (`studio init`, the same deck, the fixture) is built once and copied (see
 * `fromTemplate`).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { guardCheckout } from './checkout-guard.js'
import { runChecked, runToEnd } from './spawner.js'

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '')
export const BIN = join(ROOT, 'bin', 'studio.js')
guardCheckout(ROOT)

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON when it is JSON. */
  json: any
}

const resultOf = (code: number, stdout: string, stderr: string): CliResult => {
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    json = undefined
  }
  return { code, stdout, stderr, json }
}

/**
 * The CLI in one process for this test file: from now on a `studio()` call runs in a long-lived host
 * process (cli-host.mjs) when the host is free, and in a process of its own when another call is
 * running, so calls made side by side still run side by side. The host gives each command what a
 * fresh process would (its directory, environment, argv, stdin, exit code; done when nothing it
 * started holds the event loop) except fresh module state, and saves a Node start and the CLI's load
 * per call: the point is CPU (the suite's largest cost was 2,100 CLI starts). Files that test the
 * process itself (start-up, signals, kills, locks between processes, colour on a terminal) do not call
 * this. `STUDIO_TEST_CLI=process` turns it off for a whole run.
 */
export function cliInOneProcess(): void {
  if (process.env.STUDIO_TEST_CLI !== 'process') hostWanted = true
}
let hostWanted = false
let host: { child: ChildProcess; ready: Promise<void>; busy: boolean; next: number; waiting: Map<number, (r: CliResult) => void> } | undefined

function startHost(): NonNullable<typeof host> {
  const child = fork(join(ROOT, 'test', 'helpers', 'cli-host.mjs'), [BIN], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] })
  const waiting = new Map<number, (r: CliResult) => void>()
  const made = { child, busy: false, next: 0, waiting, ready: new Promise<void>((resolve) => child.once('message', () => resolve())) }
  child.on('message', (m: { id?: number; code: number; stdout: string; stderr: string }) => {
    if (m.id === undefined) return
    waiting.get(m.id)?.(resultOf(m.code, m.stdout, m.stderr))
    waiting.delete(m.id)
  })
  child.on('exit', () => {
    if (host === made) host = undefined
    for (const resolve of waiting.values()) resolve(resultOf(-1, '', 'cli-host exited'))
  })
  child.unref()
  ;(child.channel as unknown as { unref(): void } | undefined)?.unref()
  // The host ends when its channel closes: at the latest when this process exits.
  process.once('exit', () => child.connected && child.disconnect())
  return made
}

async function viaHost(h: NonNullable<typeof host>, cwd: string, args: string[], env: Record<string, string>, stdin?: string | Buffer): Promise<CliResult> {
  h.busy = true
  const channel = h.child.channel as unknown as { ref(): void; unref(): void } | undefined
  channel?.ref()
  try {
    await h.ready
    const id = h.next++
    const answered = new Promise<CliResult>((resolve) => h.waiting.set(id, resolve))
    h.child.send({ id, cwd, args, env, stdin: stdin === undefined ? '' : Buffer.from(stdin).toString('base64') })
    return await answered
  } finally {
    h.busy = false
    channel?.unref()
  }
}

/**
 * Runs `studio <args>` in `cwd` (a workspace), optionally feeding stdin; `oneProcess` runs this call in
 * the shared host (when free) even in a file that did not call `cliInOneProcess`. `viaShell` starts the
 * process (one of its own) through the small shell of spawner.ts rather than from this process, its
 * stdin, stdout and stderr files instead of pipes: for a call whose output is all the test reads.
 */
export function studio(cwd: string, args: string[], options: { stdin?: string | Buffer; env?: Record<string, string>; oneProcess?: boolean; viaShell?: boolean } = {}): Promise<CliResult> {
  const env = { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '', ...options.env } as Record<string, string>
  if (hostWanted || (options.oneProcess && process.env.STUDIO_TEST_CLI !== 'process')) {
    host ??= startHost()
    if (!host.busy) return viaHost(host, cwd, args, env, options.stdin)
  }
  if (options.viaShell) return runToEnd(process.execPath, [BIN, ...args], { cwd, env, input: options.stdin ?? '' }).then((r) => resultOf(r.code, r.stdout, r.stderr))
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.stdin.end(options.stdin ?? '')
    child.on('close', (code) => resolve(resultOf(code ?? -1, stdout, stderr)))
  })
}

export interface TestWorkspace {
  dir: string
  cleanup: () => void
  git: (...args: string[]) => Promise<string>
}

const templates = new Map<string, Promise<{ dir: string; deckId?: string }>>()

/**
 * A copy, in a fresh temp folder, of the workspace `build` makes: built on the first call under `key`
 * in this test process, copied on every call (files, repository and git-ignored state alike, times
 * kept, the index refreshed as a checkout leaves it), so each test still has a workspace of its own
 * and none is built twice. The built one is removed when the process exits.
 */
export async function fromTemplate(key: string, build: () => Promise<{ dir: string; deckId?: string }>): Promise<TestWorkspace & { deckId?: string }> {
  let made = templates.get(key)
  if (!made) {
    made = build().then((built) => {
      process.once('exit', () => rmSync(built.dir, { recursive: true, force: true }))
      return built
    })
    made.catch(() => templates.delete(key))
    templates.set(key, made)
  }
  const template = await made
  const dir = mkdtempSync(join(tmpdir(), 'studio-test-'))
  cpSync(template.dir, dir, { recursive: true, preserveTimestamps: true })
  // The index records each file's inode and ctime, which a copy changes: refresh it as git would.
  await runChecked('git', ['update-index', '-q', '--refresh'], { cwd: dir })
  return { ...handOut(dir), ...(template.deckId ? { deckId: template.deckId } : {}) }
}

/** `git` runs through the small shell of spawner.ts: a start from this (large) process costs it more than the git. */
function handOut(dir: string): TestWorkspace {
  return {
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    git: (...args: string[]) => runChecked('git', args, { cwd: dir }),
  }
}

/** A fresh workspace (git repository + decks/, as `studio init` makes it) in a temp folder; `cleanup()` removes it. */
export async function workspace(): Promise<TestWorkspace> {
  return fromTemplate('studio init', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-template-'))
    const result = await studio(dir, ['init', '--json'])
    if (result.code !== 0) throw new Error(`studio init failed: ${result.stdout} ${result.stderr}`)
    return { dir }
  })
}

/** A workspace holding one deck made from blank. */
export async function workspaceWithDeck(name = 'Test deck'): Promise<TestWorkspace & { deckId: string }> {
  const ws = await fromTemplate(`deck ${name}`, async () => {
    const ws = await workspace()
    const created = await studio(ws.dir, ['deck', 'create', name, '--from', 'blank', '--json'])
    if (created.code !== 0) throw new Error(`deck create failed: ${created.stdout} ${created.stderr}`)
    return { dir: ws.dir, deckId: created.json.id as string }
  })
  return { ...ws, deckId: ws.deckId! }
}

/** Runs git in a workspace and answers its exit code and output, whether or not it failed. */
export async function gitRun(ws: { dir: string }, ...args: string[]): Promise<{ code: number; out: string }> {
  const r = await runToEnd('git', args, { cwd: ws.dir })
  return { code: r.code, out: r.stdout + r.stderr }
}

export async function commitCount(git: (...args: string[]) => Promise<string>): Promise<number> {
  return Number((await git('rev-list', '--count', 'HEAD')).trim())
}

export interface Served {
  url: string
  /** The server's process id. */
  pid: number
  stop: () => Promise<void>
  /** Everything the server printed on stderr so far. */
  stderr: () => string
}

/** Starts `studio serve --port 0` in `cwd` (a real process on loopback that stops by itself after `ttl` seconds). */
export function serve(cwd: string, args: string[] = [], options: { env?: Record<string, string>; ttl?: number } = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--ttl', String(options.ttl ?? 180), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_TOKEN: '', STUDIO_FETCH_ALLOW_PRIVATE: '', STUDIO_ALLOW_HOSTS: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    const exited = new Promise<void>((r) => child.on('exit', () => r()))
    child.stdout.on('data', (d) => {
      out += d
      const line = out.split('\n')[0]
      if (!out.includes('\n')) return
      try {
        const parsed = JSON.parse(line)
        if (parsed.url) resolve({ url: parsed.url, pid: child.pid!, stderr: () => err, stop: async () => { child.kill('SIGTERM'); await exited } })
        else reject(new Error(`studio serve failed: ${line}`))
      } catch (error) {
        reject(error)
      }
    })
    child.on('exit', (code) => reject(new Error(`studio serve exited ${code}: ${out} ${err}`)))
  })
}
