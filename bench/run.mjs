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
