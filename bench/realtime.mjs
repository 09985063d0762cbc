// ---- Realtime (issue 13): how long after a write an open page's socket hears `changed`.
// A `studio serve` on loopback with one room socket open; N rounds, interleaved:
//   cli:  a `studio deck rename` in another process (noticed by the serving studio's watcher);
//   http: a deck.rename over HTTP (announced from the engine's event in the serving process).
// Baselines measured in the same rounds: the CLI write's own duration (start to exit) and the HTTP
// write's round trip. Run alone with `node bench/realtime.mjs`; `npm run bench` runs it after the serve block.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, watch } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const BIN = join(ROOT, 'bin', 'studio.js')
const node = process.execPath
const N = rounds(Number(process.env.BENCH_REALTIME ?? 31))
import { initWorkspace, median, rounds, startServe } from './lib.mjs'
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

const { default: WebSocket } = await import('ws')
const { request } = await import('undici')
const dir = mkdtempSync(join(tmpdir(), 'studio-bench-room-'))
initWorkspace(dir)
execFileSync(node, [BIN, 'deck', 'create', 'Live', '--json'], { cwd: dir })
const { child: server, url } = await startServe(dir, 600)
const socket = new WebSocket(`${url.replace('http', 'ws')}/api/room/live?client=bench0000001`)
/** Resolvers waiting for the `changed` of a revision, and when each revision's `changed` arrived. */
const waiting = new Map()
const arrived = new Map()
socket.on('message', (data) => {
  const m = JSON.parse(String(data))
  if (m.type !== 'changed') return
  arrived.set(m.revision, { at: performance.now(), by: m.by.transport })
  waiting.get(m.revision)?.()
})
await new Promise((resolve) => socket.once('open', resolve))
// When each revision's commit landed, as this process sees git's reflog grow (the same inotify the
// serving studio's watcher gets): the delay after it is the watcher's own cost.
const committed = new Map()
const reflog = join(dir, '.git', 'logs', 'HEAD')
const reflogWatch = watch(reflog, () => {
  const at = performance.now()
  for (const line of readFileSync(reflog, 'utf8').trimEnd().split('\n').slice(-4)) {
    const rev = /\sr(\d+)$/.exec(line)
    if (rev && !committed.has(Number(rev[1]))) committed.set(Number(rev[1]), at)
  }
})
const heard = (revision) => (arrived.has(revision) ? Promise.resolve() : new Promise((resolve) => waiting.set(revision, resolve)))

let revision = 0
const rows = { cliRun: [], cliDelay: [], cliAfterCommit: [], cliFromStart: [], httpRun: [], httpDelay: [] }
const byCli = new Set()
for (let i = 0; i < N; i++) {
  // A CLI write in another process.
  const target = revision + 1
  const started = performance.now()
  const exited = await new Promise((resolve, reject) => {
    const child = spawn(node, [BIN, 'deck', 'rename', `CLI ${i}`, '--rev', String(revision), '--json'], { cwd: dir, stdio: 'ignore' })
    child.on('exit', (code) => (code === 0 ? resolve(performance.now()) : reject(new Error(`studio deck rename exited ${code}`))))
  })
  await heard(target)
  revision = target
  const cli = arrived.get(target)
  byCli.add(cli.by)
  rows.cliRun.push(exited - started)
  rows.cliDelay.push(cli.at - exited)
  if (committed.has(target)) rows.cliAfterCommit.push(cli.at - committed.get(target))
  rows.cliFromStart.push(cli.at - started)
  // An HTTP write to the serving process.
  const t0 = performance.now()
  const r = await request(`${url}/api/actions/deck.rename`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `HTTP ${i}`, baseRevision: revision }) })
  const answer = await r.body.json()
  const answered = performance.now()
  revision = answer.revision
  await heard(revision)
  rows.httpRun.push(answered - t0)
  rows.httpDelay.push(arrived.get(revision).at - answered)
}
socket.close()
reflogWatch.close()
server.kill('SIGTERM')
rmSync(dir, { recursive: true, force: true })

console.log('')
console.log(`realtime: a room socket on loopback, ${N} interleaved rounds (changed came by ${[...byCli].join(', ')} for the CLI writes)`)
console.log('case'.padEnd(52), 'p50 ms'.padStart(8), 'p90 ms'.padStart(8), 'ratio'.padStart(8))
const line = (label, xs, against, note = '') =>
  console.log(label.padEnd(52), median(xs).toFixed(1).padStart(8), pct(xs, 0.9).toFixed(1).padStart(8), (against ? `${(median(xs) / median(against)).toFixed(2)}x` : '').padStart(8), note)
line('studio deck rename in another process (baseline)', rows.cliRun, null)
line('CLI write: changed heard, after its commit landed', rows.cliAfterCommit, null, 'target < 200 ms')
line('CLI write: changed heard, after the CLI exited', rows.cliDelay, null)
line('CLI write: changed heard, from the CLI start', rows.cliFromStart, rows.cliRun, 'x the CLI write')
line('HTTP deck.rename round trip (baseline)', rows.httpRun, null)
line('HTTP write: changed heard, after the answer', rows.httpDelay, null)
