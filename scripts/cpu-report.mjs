// Per-test-file CPU for measuring the suite (docs/performance.md): run the tests with
//   STUDIO_TEST_CPU_LOG=/tmp/cpu.log node --import ./scripts/cpu-report.mjs --import tsx --test <files>
// Each test file's process appends its own CPU (self), its reaped children's (children), its wall time, and
// the processes it spawned by kind; the shared CLI hosts (test/helpers/cli-host.mjs) append their own line.
import { appendFileSync, readFileSync } from 'node:fs'
const log = process.env.STUDIO_TEST_CPU_LOG
const t0 = Date.now()
if (log && process.argv.some((a) => a.endsWith('.test.ts'))) {
  process.on('exit', () => {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
    const hz = 100
    const [ut, st, cut, cst] = [f[11], f[12], f[13], f[14]].map(Number)
    appendFileSync(log, JSON.stringify({ file: process.argv.find((a) => a.endsWith('.test.ts')).replace(/.*\/test\//, 'test/'), self: (ut + st) / hz, children: (cut + cst) / hz, wall: (Date.now() - t0) / 1000, start: t0 / 1000 }) + '\n')
  })
}
import { createRequire, syncBuiltinESMExports } from 'node:module'
const require = createRequire(import.meta.url)
const cp = require('node:child_process')
const counts = {}
const wrap = (name) => {
  const orig = cp[name]
  cp[name] = function (cmd, args, ...rest) {
    let key = name === 'spawn' || name === 'execFile' || name === 'spawnSync' || name === 'execFileSync' ? String(cmd).split('/').pop() : 'shell'
    if (Array.isArray(args) && String(args[0]).endsWith('bin/studio.js')) key = 'studio ' + (['serve', 'mcp'].includes(args[1]) ? args[1] : 'cli')
    counts[key] = (counts[key] ?? 0) + 1
    return orig.call(this, cmd, args, ...rest)
  }
}
for (const n of ['spawn', 'spawnSync']) wrap(n)
syncBuiltinESMExports()
globalThis.__spawnCounts = counts
if (log) process.on('exit', () => appendFileSync(log, JSON.stringify({ file: (process.argv.find((a) => a.endsWith('.test.ts')) ?? '?').replace(/.*\/test\//, 'test/'), counts }) + '\n'))
