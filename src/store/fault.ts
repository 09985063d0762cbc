/** Fault injection for the crash tests (test/e2e/crash.e2e.test.ts): the named points of a write. */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitDirOf } from './git.js'

/**
 * Fault injection for the crash tests: STUDIO_FAULT=after-journal|mid-write|after-write|after-commit
 * makes the process kill itself with SIGKILL at that point of a write, as a power cut or `kill -9`
 * would. `mid-write` fires after the first file of several is written; `in-write` leaves a half-written
 * temp file of the last one, as a kill inside the atomic writer does. `index-locked` instead creates
 * git's index.lock just before the commit (in STUDIO_FAULT_GIT_ROOT, default the working directory);
 * `in-commit` leaves git's index, HEAD and branch ref locks and kills the process, as a kill of
 * `git commit` itself does. Inside the in-process commit (git-direct.ts): `object-temps` (its objects
 * written to temp files, not yet named), `in-objects` (its objects written, the branch not yet moved)
 * and `after-ref` (the branch moved, the index not yet written).
 *
 * STUDIO_STALL=<point> stops the process (SIGSTOP) at that point instead, once, for the fencing tests:
 * a writer stalled past the lock's staleness while another takes the deck over, then resumed.
 * Points of its own: `before-rename` (a write's first file is ready, not yet renamed into place) and
 * `in-repair` (a repair has begun putting an interrupted write's files back).
 */
let stalled = false

export function fault(point: string): void {
  if (process.env.STUDIO_STALL === point && !stalled) {
    // A stall, not a crash: the process stops itself (as a paused laptop or a stopped job would) and
    // goes on when it is sent SIGCONT. Once per process, so a server stalls on one write only.
    stalled = true
    process.kill(process.pid, 'SIGSTOP')
    return
  }
  if (process.env.STUDIO_FAULT !== point) return
  if (point === 'index-locked') {
    // Not a kill: another git takes the index just before the commit, as a user's `git add` racing us would.
    writeFileSync(join(gitDirOf(process.env.STUDIO_FAULT_GIT_ROOT ?? process.cwd()), 'index.lock'), '')
    return
  }
  if (point === 'in-commit') {
    // A kill while git commits: its index, HEAD and branch ref locks are left behind, as after a kill -9 of git itself.
    const dir = gitDirOf(process.env.STUDIO_FAULT_GIT_ROOT ?? process.cwd())
    for (const name of ['index.lock', 'HEAD.lock']) writeFileSync(join(dir, name), '')
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(readFileSync(join(dir, 'HEAD'), 'utf8').trim())?.[1]
    if (ref) writeFileSync(join(dir, `${ref}.lock`), '')
  }
  process.kill(process.pid, 'SIGKILL')
}
