/**
 * The checkout's HEAD read straight from git's files (no git process): the branch HEAD names and the
 * commit it points to. Reads take a few small file reads, cheap enough for every call of a server.
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

export interface Head {
  /** The branch ref HEAD names (`refs/heads/main`); null when detached. */
  ref: string | null
  /** The commit HEAD resolves to; null on an unborn branch or when it cannot be read. */
  commit: string | null
}

const commonDirs = new Map<string, string>()

/** Where a repository keeps refs shared by its worktrees (`commondir`), else the git dir itself. */
function commonDirOf(gitDir: string): string {
  let dir = commonDirs.get(gitDir)
  if (dir === undefined) {
    dir = gitDir
    try {
      const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
      if (pointer) dir = isAbsolute(pointer) ? pointer : resolve(gitDir, pointer)
    } catch {
      // not a worktree
    }
    commonDirs.set(gitDir, dir)
  }
  return dir
}

function resolveRef(gitDir: string, ref: string): string | null {
  if (ref.split('/').includes('..')) return null
  for (const dir of ref.startsWith('refs/heads/') ? [commonDirOf(gitDir)] : [gitDir, commonDirOf(gitDir)]) {
    try {
      const value = readFileSync(join(dir, ref), 'utf8').trim()
      if (/^[0-9a-f]{40,64}$/.test(value)) return value
      if (value.startsWith('ref: ')) return resolveRef(gitDir, value.slice(5).trim())
    } catch {
      // not a loose ref here
    }
  }
  const packed = join(commonDirOf(gitDir), 'packed-refs')
  if (!existsSync(packed)) return null
  for (const line of readFileSync(packed, 'utf8').split('\n')) {
    const space = line.indexOf(' ')
    if (space > 0 && line.slice(space + 1).trim() === ref) return line.slice(0, space)
  }
  return null
}

export function readHead(gitDir: string): Head {
  let text: string
  try {
    text = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
  } catch {
    return { ref: null, commit: null }
  }
  if (text.startsWith('ref: ')) {
    const ref = text.slice(5).trim()
    return { ref, commit: resolveRef(gitDir, ref) }
  }
  return { ref: null, commit: /^[0-9a-f]{40,64}$/.test(text) ? text : null }
}

export function sameHead(a: Head, b: Head): boolean {
  return a.ref === b.ref && a.commit === b.commit
}
