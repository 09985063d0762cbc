/**
 * The type check (`tsc -p .`: src, commands, test, scripts, bench), as one test file of the suite: it
 * runs beside the other files instead of before them all, on a core the first files would leave idle.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { it } from 'node:test'
import { ROOT } from './helpers/studio.js'

it('type-checks the whole project with tsc (no errors)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const run = spawnSync(process.execPath, [tsc, '-p', '.', '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.equal(run.status, 0, `tsc found errors:\n${run.stdout}${run.stderr}`)
})
