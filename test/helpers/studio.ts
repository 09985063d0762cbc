/**
 * Test workspaces and the real CLI. Every test gets its own temporary git workspace made by
 * `studio init`; commands run as separate `node bin/studio.js` processes, as users and agents run them.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '')
export const BIN = join(ROOT, 'bin', 'studio.js')
const run = promisify(execFile)

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON when it is JSON. */
  json: any
}

/** Runs `studio <args>` in `cwd` (a workspace), optionally feeding stdin. */
export function studio(cwd: string, args: string[], options: { stdin?: string | Buffer; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.stdin.end(options.stdin ?? '')
    child.on('close', (code) => {
      let json: unknown
      try {
        json = JSON.parse(stdout)
      } catch {
        json = undefined
      }
      resolve({ code: code ?? -1, stdout, stderr, json })
    })
  })
}

/** A fresh workspace (git repository + decks/) in a temp folder; `cleanup()` removes it. */
export async function workspace(): Promise<{ dir: string; cleanup: () => void; git: (...args: string[]) => Promise<string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-test-'))
  const result = await studio(dir, ['init', '--json'])
  if (result.code !== 0) throw new Error(`studio init failed: ${result.stdout} ${result.stderr}`)
  return {
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    git: async (...args: string[]) => (await run('git', args, { cwd: dir })).stdout,
  }
}

/** A workspace holding one deck made from blank. */
export async function workspaceWithDeck(name = 'Test deck') {
  const ws = await workspace()
  const created = await studio(ws.dir, ['deck', 'create', name, '--from', 'blank', '--json'])
  if (created.code !== 0) throw new Error(`deck create failed: ${created.stdout} ${created.stderr}`)
  return { ...ws, deckId: created.json.id as string }
}

export async function commitCount(git: (...args: string[]) => Promise<string>): Promise<number> {
  return Number((await git('rev-list', '--count', 'HEAD')).trim())
}

export interface Served {
  url: string
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
        if (parsed.url) resolve({ url: parsed.url, stderr: () => err, stop: async () => { child.kill('SIGTERM'); await exited } })
        else reject(new Error(`studio serve failed: ${line}`))
      } catch (error) {
        reject(error)
      }
    })
    child.on('exit', (code) => reject(new Error(`studio serve exited ${code}: ${out} ${err}`)))
  })
}
