/**
 * Tests that need a system program (LibreOffice, poppler, Python with fontTools): on a developer's
 * machine without it they skip with the package to install; under `CI=true` they run and fail, since
 * `.ci/run` installs every one of them and a skip there would hide a lost test.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import type { TestContext } from 'node:test'

const inCi = () => process.env.CI === 'true'

/** A test's `skip` option: the reason when the program is missing here, never under CI. */
export function skipUnlessPresent(present: unknown, reason: string): string | false {
  return present || inCi() ? false : reason
}

/** Inside a test: skips it when the program is missing here, fails it under CI. */
export function requirePresent<T>(t: TestContext, present: T, reason: string): present is NonNullable<T> {
  if (present) return true
  if (inCi()) assert.fail(`${reason}: CI installs it (.ci/run), so its absence fails the test`)
  t.skip(reason)
  return false
}

/** Whether every program named is on PATH (`command -v`), for `skipUnlessPresent`. */
export function onPath(...programs: string[]): boolean {
  try {
    execFileSync('sh', ['-c', programs.map((p) => `command -v ${p}`).join(' && ')], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
