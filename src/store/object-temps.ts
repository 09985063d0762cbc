/**
 * The temporary files of loose objects the in-process committer (git-direct.ts) writes: each is
 * written as `objects/xx/tmp_obj_studio-<pid>-<random>`, synced, then renamed to its id. A writer
 * killed between the two leaves the temp file behind; git itself only prunes such files after two
 * weeks. Repair removes ours (git's own `tmp_obj_XXXXXX` are never touched) when no live writer can
 * own them: the process named in the file is gone, or the file is older than an hour (a pid that has
 * been reused since; no commit holds an unnamed object for minutes).
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

const TEMP = /^tmp_obj_studio-(\d+)-[0-9a-f]+$/
const OLD_MS = 60 * 60 * 1000

/** The name of a new temp object file of this process. */
export function objectTempName(): string {
  return `tmp_obj_studio-${process.pid}-${randomBytes(6).toString('hex')}`
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: a process of another user holds that pid.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the temp object files killed writers left in the repository of `gitDir`; how many. */
export function dropObjectTemps(gitDir: string): number {
  let commonDir = gitDir
  try {
    const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    commonDir = isAbsolute(pointer) ? pointer : resolve(gitDir, pointer)
  } catch {
    // not a linked worktree
  }
  const objects = join(commonDir, 'objects')
  let removed = 0
  let folders: string[]
  try {
    folders = readdirSync(objects).filter((name) => /^[0-9a-f]{2}$/.test(name))
  } catch {
    return 0
  }
  for (const folder of folders) {
    let names: string[]
    try {
      names = readdirSync(join(objects, folder))
    } catch {
      continue
    }
    for (const name of names) {
      const match = TEMP.exec(name)
      if (!match) continue
      const path = join(objects, folder, name)
      try {
        if (alive(Number(match[1])) && Date.now() - statSync(path).mtimeMs < OLD_MS) continue
        rmSync(path, { force: true })
        removed++
      } catch {
        // gone meanwhile
      }
    }
  }
  return removed
}
