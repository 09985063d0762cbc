/**
 * Who holds git's `index.lock`, read from /proc on Linux: processes with the lock file open, and git
 * processes working in the repository (git changes into the top of its work tree at start, and
 * closes the lock file a moment before renaming it, so the open file alone can miss a live holder).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** Process ids holding `lock` (or running git in `gitRoot`); null where this system cannot tell. */
export function indexLockHolders(lock: string, gitRoot: string): number[] | null {
  let pids: string[]
  try {
    if (process.platform !== 'linux') return null
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return null
  }
  const holders: number[] = []
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue
    if (holdsFile(pid, lock) || runsGitIn(pid, gitRoot)) holders.push(Number(pid))
  }
  return holders
}

function holdsFile(pid: string, file: string): boolean {
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return false // gone, or not ours to look at
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true
    } catch {
      // closed meanwhile
    }
  }
  return false
}

function runsGitIn(pid: string, gitRoot: string): boolean {
  try {
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
    if (name !== 'git' && !name.startsWith('git-')) return false
    const cwd = readlinkSync(`/proc/${pid}/cwd`)
    return cwd === gitRoot || cwd.startsWith(`${gitRoot}/`)
  } catch {
    return false
  }
}
