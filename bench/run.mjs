#!/usr/bin/env node
// npm run bench: start-up and write cost of the built CLI, as ratios against baselines measured in
// the same run (the machines here are shared and noisy, so absolute numbers drift; ratios hold).
// Each case runs ROUNDS times, interleaved with its baseline; medians are reported.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const BIN = join(ROOT, 'bin', 'studio.js')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21)
const node = process.execPath

function time(cmd, args, opts = {}) {
  const t0 = performance.now()
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts })
  const ms = performance.now() - t0
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`)
  return ms
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const ws = mkdtempSync(join(tmpdir(), 'studio-bench-'))
execFileSync(node, [BIN, 'init', ws, '--json'])
execFileSync(node, [BIN, 'deck', 'create', 'Bench', '--json'], { cwd: ws })
const gitDir = mkdtempSync(join(tmpdir(), 'studio-bench-git-'))
execFileSync('git', ['init', '-q', gitDir])
writeFileSync(join(gitDir, 'f.txt'), '0\n')
execFileSync('git', ['-C', gitDir, 'add', 'f.txt'])
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' }

const samples = { node: [], info: [], write: [], commit: [] }
for (let i = 0; i < ROUNDS; i++) {
  samples.node.push(time(node, ['-e', '0']))
  samples.info.push(time(node, [BIN, 'info', '--json'], { cwd: ws }))
  samples.write.push(time(node, [BIN, 'deck', 'rename', `Bench ${i}`, '--json'], { cwd: ws }))
  writeFileSync(join(gitDir, 'f.txt'), `${i}\n`)
  samples.commit.push(time('git', ['-C', gitDir, 'commit', '-q', '-m', `c${i}`, '--', 'f.txt'], { env: gitEnv }))
}
const base = median(samples.node)
const rows = [
  ['node -e 0 (baseline)', median(samples.node), 1, ''],
  ['git commit of one file', median(samples.commit), median(samples.commit) / base, ''],
  ['studio info --json (cold read)', median(samples.info), median(samples.info) / base, 'target <= 2.5x'],
  ['studio deck rename (cold write + commit)', median(samples.write), median(samples.write) / base, 'target <= 3.5x'],
]
console.log(`rounds: ${ROUNDS}, commands registered: ${JSON.parse(execFileSync(node, [BIN, 'actions', '--json'], { encoding: 'utf8' })).length}`)
console.log('case'.padEnd(44), 'median ms'.padStart(10), 'ratio'.padStart(8))
for (const [name, ms, ratio, note] of rows) console.log(name.padEnd(44), ms.toFixed(1).padStart(10), `${ratio.toFixed(2)}x`.padStart(8), note)
rmSync(ws, { recursive: true, force: true })
rmSync(gitDir, { recursive: true, force: true })

// ---- Serve (issue 3): HTTP requests per second and latency, MCP tool-call latency, on loopback.
const { request, Pool } = await import('undici')
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { spawn } = await import('node:child_process')
const served = mkdtempSync(join(tmpdir(), 'studio-bench-serve-'))
execFileSync(node, [BIN, 'init', served, '--json'])
execFileSync(node, [BIN, 'deck', 'create', 'Served', '--json'], { cwd: served })
const child = spawn(node, [BIN, 'serve', '--port', '0', '--json', '--ttl', '300'], { cwd: served, stdio: ['ignore', 'pipe', 'inherit'] })
const url = await new Promise((resolve, reject) => {
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
    if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).url)
  })
  child.on('exit', reject)
})
const HTTP_N = Number(process.env.BENCH_HTTP ?? 400)
async function post(pool, id, body) {
  const r = await pool.request({ path: `/api/actions/${id}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await r.body.json()
  if (r.statusCode !== 200) throw new Error(`${id}: ${r.statusCode} ${JSON.stringify(json)}`)
  return json
}
const pool = new Pool(url, { connections: 8 })
for (let i = 0; i < 30; i++) await post(pool, 'deck.info', {})
// Reads: 8 in flight.
let t0 = performance.now()
let next = 0
await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < HTTP_N) await post(pool, 'deck.info', {}) }))
const readRps = HTTP_N / ((performance.now() - t0) / 1000)
const readLat = []
for (let i = 0; i < 100; i++) { const s = performance.now(); await post(pool, 'deck.info', {}); readLat.push(performance.now() - s) }
// Writes: one at a time, each naming the revision the previous answer returned (a real client's loop).
let revision = (await post(pool, 'deck.info', {})).revision
const writeLat = []
const WRITES = Number(process.env.BENCH_WRITES ?? 150)
t0 = performance.now()
for (let i = 0; i < WRITES; i++) {
  const s = performance.now()
  revision = (await post(pool, 'deck.rename', { name: `Served ${i}`, baseRevision: revision })).revision
  writeLat.push(performance.now() - s)
}
const writeRps = WRITES / ((performance.now() - t0) / 1000)
// MCP over streamable HTTP: tool-call latency of a read and a write.
const client = new Client({ name: 'bench', version: '1.0.0' })
await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
for (let i = 0; i < 20; i++) await client.callTool({ name: 'deck_get_info', arguments: {} })
const mcpRead = []
for (let i = 0; i < 150; i++) { const s = performance.now(); await client.callTool({ name: 'deck_get_info', arguments: {} }); mcpRead.push(performance.now() - s) }
const mcpWrite = []
for (let i = 0; i < 80; i++) {
  const s = performance.now()
  const r = await client.callTool({ name: 'deck_rename', arguments: { name: `MCP ${i}`, baseRevision: revision } })
  if (r.isError) throw new Error(JSON.stringify(r.structuredContent))
  revision = r.structuredContent.revision
  mcpWrite.push(performance.now() - s)
}
await client.close()
await pool.close()
child.kill('SIGTERM')
rmSync(served, { recursive: true, force: true })
const commitMs = median(samples.commit)
console.log('')
console.log('serve on loopback'.padEnd(44), 'value'.padStart(10), 'ratio'.padStart(8))
const row = (name, value, unit, ratio, note = '') => console.log(name.padEnd(44), `${value.toFixed(1)}${unit}`.padStart(10), ratio.padStart(8), note)
row('HTTP deck.info, 8 in flight', readRps, '/s', '')
row('HTTP deck.info latency (median)', median(readLat), 'ms', `${(median(readLat) / commitMs).toFixed(2)}x`, 'x git commit')
row('HTTP deck.rename, sequential', writeRps, '/s', '')
row('HTTP deck.rename latency (median)', median(writeLat), 'ms', `${(median(writeLat) / commitMs).toFixed(2)}x`, 'x git commit; target < 15 ms')
row('MCP deck_get_info call (median)', median(mcpRead), 'ms', `${(median(mcpRead) / commitMs).toFixed(2)}x`, 'x git commit')
row('MCP deck_rename call (median)', median(mcpWrite), 'ms', `${(median(mcpWrite) / commitMs).toFixed(2)}x`, 'x git commit')
