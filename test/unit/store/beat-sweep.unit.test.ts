import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { it } from 'node:test'
import { sweepStaleBeats } from '../../../src/store/deck-cache.js'

it("removes the beat folders of servers that are gone, and no one else's", () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-sweep-'))
  try {
    // A process that has exited: its pid names no running process (until the pid is reused).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout
    const names = [`studio-beat-${gone}-Ab12Cd`, `studio-beat-${process.pid}-Ef34Gh`, 'studio-beat-Ij56Kl', `studio-beat-${gone}-x`, `elsewhere-${gone}-Ab12Cd`]
    for (const name of names) {
      mkdirSync(join(dir, name))
      writeFileSync(join(dir, name, 'beat'), '')
    }
    sweepStaleBeats(dir)
    assert.deepEqual(readdirSync(dir).sort(), names.slice(1).sort())
    sweepStaleBeats(join(dir, 'missing'))
    // A long-lived process turning the cache on sweeps first (its own beat folder is removed at its exit).
    mkdirSync(join(dir, `studio-beat-${gone}-Zz99Yy`))
    const module = new URL('../../../src/store/deck-cache.ts', import.meta.url).href
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(module)}).then((m) => console.log(m.enableDeckCache()))`], { encoding: 'utf8', env: { ...process.env, TMPDIR: dir } })
    assert.equal(child.stdout.trim(), 'true', child.stderr)
    assert.equal(existsSync(join(dir, `studio-beat-${gone}-Zz99Yy`)), false)
    assert.ok(existsSync(join(dir, `studio-beat-${process.pid}-Ef34Gh`, 'beat')))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
