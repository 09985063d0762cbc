// What every bench block shares: the median, interleaved rounds, and a `studio serve` on loopback.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const BIN = join(new URL('..', import.meta.url).pathname, 'bin', 'studio.js')

/** Wall time of one run of a command to its exit (ms); a failed run stops the bench with its output. */
export function time(cmd, args, opts = {}) {
  const t0 = performance.now()
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts })
  const ms = performance.now() - t0
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`)
  return ms
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * Runs each case once per round, in turn, for `rounds` rounds (async cases allowed) and returns the
 * samples by name. Every block measures its own baseline this way, so a ratio never compares a
 * number taken minutes apart on a shared machine.
 */
export async function interleaved(rounds, cases) {
  const out = Object.fromEntries(Object.keys(cases).map((k) => [k, []]))
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of Object.entries(cases)) {
      const t0 = performance.now()
      await fn(i)
      out[name].push(performance.now() - t0)
    }
  }
  return out
}

/**
 * `studio serve` on a free loopback port in `cwd`, stopping by itself after `ttl` seconds: its process and
 * URL. `env`: variables added to this process's (the hosted store's settings, a token).
 */
export function startServe(cwd, ttl = 600, env = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--ttl', String(ttl)], { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) resolve({ child, url: JSON.parse(out.split('\n')[0]).url })
    })
    child.on('exit', reject)
  })
}

let initialized

/**
 * Fills the empty folder `dir` with a new workspace: a copy of one `studio init` made once per process
 * (init is no block's subject, and each block's own would cost a cold CLI call; the copy is the same
 * repository: init writes no path of its folder into it).
 */
export function initWorkspace(dir) {
  if (!initialized) {
    initialized = mkdtempSync(join(tmpdir(), 'studio-bench-init-'))
    process.on('exit', () => rmSync(initialized, { recursive: true, force: true }))
    const r = spawnSync(process.execPath, [BIN, 'init', initialized, '--json'], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`studio init: ${r.stdout}${r.stderr}`)
  }
  cpSync(initialized, dir, { recursive: true })
}

/**
 * BENCH_SMOKE=1: every block once, on small decks, so the suite can check that the whole bench runs
 * to its end and prints its rows (test/unit/bench.unit.test.ts). The times of such a run mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1'

/** A block's round count: `n`, or 1 in a smoke run. */
export const rounds = (n) => (SMOKE ? 1 : n)

/** How many slides of the brand sample a smoke run keeps: two reach every block's code (a title and a body slide). */
export const SMOKE_SLIDES = 2

/**
 * `studio deck create <name> --from brand-sample` in `cwd` (95 slides), returning the deck's id; a
 * smoke run then keeps only the first SMOKE_SLIDES slides, in one commit made with git.
 */
export function createSample(cwd, name, args = []) {
  const r = spawnSync(process.execPath, [BIN, 'deck', 'create', name, '--from', 'brand-sample', ...args, '--json'], { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`deck create: ${r.stdout}${r.stderr}`)
  const { id } = JSON.parse(r.stdout)
  if (SMOKE) {
    const dir = join(cwd, 'decks', id)
    const manifest = JSON.parse(readFileSync(join(dir, 'deck.json'), 'utf8'))
    const kept = manifest.sections[0].slides.slice(0, SMOKE_SLIDES)
    for (const section of manifest.sections) for (const slide of section.slides) if (!kept.includes(slide)) rmSync(join(dir, 'slides', `${slide}.json`))
    manifest.sections = [{ ...manifest.sections[0], slides: kept }]
    writeFileSync(join(dir, 'deck.json'), JSON.stringify(manifest, null, 2) + '\n')
    const git = (...a) => {
      const g = spawnSync('git', a, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } })
      if (g.status !== 0) throw new Error(`git ${a.join(' ')}: ${g.stderr}`)
    }
    git('add', '-A', '--', join('decks', id))
    git('commit', '-q', '--no-verify', '-m', `bench: keep ${kept.length} slides`)
  }
  return id
}

let tsx

/**
 * A TypeScript module of the project (a path relative to bench/, or absolute), loaded through one tsx
 * namespace for the whole run: a `tsImport` per block would load and evaluate the modules it shares with
 * the blocks before it again.
 */
export async function tsModule(path) {
  tsx ??= (await import('tsx/esm/api')).register({ namespace: 'bench' })
  return tsx.import(path, import.meta.url)
}
