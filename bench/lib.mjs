// What every bench block shares: the median, interleaved rounds, and a `studio serve` on loopback.
import { spawn, spawnSync } from 'node:child_process'
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

/** `studio serve` on a free loopback port in `cwd`, stopping by itself after `ttl` seconds: its process and URL. */
export function startServe(cwd, ttl = 600) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--ttl', String(ttl)], { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) resolve({ child, url: JSON.parse(out.split('\n')[0]).url })
    })
    child.on('exit', reject)
  })
}
