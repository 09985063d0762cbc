/**
 * The type check (`tsc -p .`: src, commands, test, scripts, bench), as one test file of the suite: it
 * runs beside the other files instead of before them all, on a core the first files would leave idle.
 * It is incremental: tsc keeps what it learnt of each file (its build info) in the temporary folder,
 * one per checkout, and on the next run checks again only the files that changed and those that
 * depend on them, with the same errors a whole check finds (30 core-s for a whole check here, 8 with
 * nothing changed). The build info never goes into the checkout.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { it } from 'node:test'
import { ROOT } from './helpers/studio.js'

/** This checkout's build info: a file of its own under the temporary folder, named by the checkout's path. */
const BUILD_INFO = join(tmpdir(), `studio-typecheck-${createHash('sha256').update(ROOT).digest('hex').slice(0, 16)}`, 'tsbuildinfo')

it('type-checks the whole project with tsc (no errors)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const run = spawnSync(process.execPath, [tsc, '-p', '.', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', BUILD_INFO], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.equal(run.status, 0, `tsc found errors:\n${run.stdout}${run.stderr}`)
})
