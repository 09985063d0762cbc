/**
 * The only code that runs git. simple-git is loaded on first use so read commands never pay for it.
 *
 * Every user-supplied string reaches git after `--` (paths) or inside `-m` (messages): never as an
 * option. Commits name the exact files studio wrote, so a user's own staged work is never swept up.
 */
import type { SimpleGit } from 'simple-git'
import { readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { StudioError } from '../core/errors.js'
import { gitIdentity } from '../core/principal.js'
import type { DirectCommitter } from './git-direct.js'

const COMMITTER = { name: 'Deck Studio', email: 'studio@studio.invalid' }

export interface CommitRequest {
  /** Paths relative to the workspace root that changed (written or removed). */
  paths: string[]
  subject: string
  author: string
  /** The author's address; derived from the name when absent. */
  email?: string
  trailers: Record<string, string | number>
  /** The write's fence (see transaction.ts): checked inside the commit, right before the branch moves. */
  fence?: CommitFence
  /** The commit's time; now when absent. */
  date?: Date
}

export interface CommitFence {
  /** The commit HEAD named when the write read what it changes (null: an unborn branch). */
  seen: string | null
  /** Folders (and files) relative to the repository's top that must be in the branch as they were in `seen`. */
  folders: string[]
  /** Throws when the writer no longer holds its locks (it stalled and was taken over). */
  check: () => void
}

/** A fenced write whose folder moved in the branch since it was read: another writer's commit came first. */
export class HeadMoved extends StudioError {
  constructor(readonly folder: string) {
    super('stale_revision', `${folder} changed in the branch while this write was made (another writer committed first); nothing was written. Re-read and retry.`)
  }
}

/** The git directory of a work tree: `.git` itself, or where a `.git` file points (worktrees, submodules). */
export function gitDirOf(gitRoot: string): string {
  const dotGit = join(gitRoot, '.git')
  try {
    if (statSync(dotGit).isDirectory()) return dotGit
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))
    if (pointer) return isAbsolute(pointer[1].trim()) ? pointer[1].trim() : resolve(gitRoot, pointer[1].trim())
  } catch {
    // no repository here: callers report that when git itself says so
  }
  return dotGit
}

export class Git {
  private client: SimpleGit | undefined
  private direct: DirectCommitter | undefined
  /** The repository's git directory (where index.lock lives). */
  readonly gitDir: string

  constructor(
    readonly root: string,
    readonly gitRoot: string,
  ) {
    this.gitDir = gitDirOf(gitRoot)
  }

  private async git(): Promise<SimpleGit> {
    if (!this.client) {
      const { simpleGit } = await import('simple-git')
      this.client = simpleGit({ baseDir: this.gitRoot, maxConcurrentProcesses: 1, trimmed: false, completion: { onClose: true, onExit: false } })
    }
    return this.client
  }

  /** Runs git with the given arguments in the workspace; raw git errors become `storage` errors with a fix. */
  async raw(args: string[], env?: Record<string, string>): Promise<string> {
    const git = await this.git()
    try {
      return await (env ? git.env({ ...safeEnv(), ...env }) : git).raw(args)
    } catch (error) {
      throw explainGitError(error, this.gitRoot, this.gitDir)
    }
  }

  /**
   * One commit of exactly these paths (`added`: the ones git does not track yet), with the author and
   * the trailers: made in this process where that is the commit git would make (git-direct.ts),
   * else by `git commit --only` (`STUDIO_DIRECT_COMMIT=0` always hands it over).
   */
  async commit(request: CommitRequest & { added: string[] }): Promise<void> {
    const identity = request.email ? { name: request.author, email: request.email } : gitIdentity(request.author)
    const trailers = Object.entries(request.trailers).map(([key, value]) => `${key}: ${value}`).join('\n')
    const message = `${request.subject}\n\n${trailers}\n`
    const handoff = await (await this.committer()).commit({ paths: request.paths, message, author: identity, committer: COMMITTER, fence: request.fence, ...(request.date ? { date: request.date } : {}) })
    if (handoff === null) return
    if (request.fence) await this.checkFence(request.fence)
    if (request.added.length) await this.raw(['add', '--', ...request.added])
    // Not --quiet: simple-git waits 50 ms more for a process that printed nothing.
    await this.raw(['commit', '--no-verify', '--allow-empty', '-m', message, '--', ...request.paths], {
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: COMMITTER.name,
      GIT_COMMITTER_EMAIL: COMMITTER.email,
      ...(request.date ? { GIT_AUTHOR_DATE: request.date.toISOString(), GIT_COMMITTER_DATE: request.date.toISOString() } : {}),
    })
  }

  /**
   * The fence of a commit handed to git (which takes no expected parent): checked under studio's git
   * lock, which every studio commit holds, right before `git commit` runs.
   */
  private async checkFence(fence: CommitFence): Promise<void> {
    fence.check()
    const entries = async (commit: string | null) => (commit ? await this.raw(['ls-tree', '--full-tree', commit, '--', ...fence.folders]).catch(() => '') : '')
    const head = (await this.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || null
    if (head === fence.seen) return
    const byPath = (text: string) => new Map(text.split('\n').filter(Boolean).map((line) => [line.slice(line.indexOf('\t') + 1), line]))
    const [before, now] = [byPath(await entries(fence.seen)), byPath(await entries(head))]
    const moved = fence.folders.find((folder) => before.get(folder) !== now.get(folder))
    if (moved !== undefined) throw new HeadMoved(moved)
    fence.check()
  }

  /** Loaded on first use, as simple-git is: reads never commit. */
  private async committer(): Promise<DirectCommitter> {
    if (!this.direct) {
      const { DirectCommitter } = await import('./git-direct.js')
      this.direct ??= new DirectCommitter(this.gitRoot, this.gitDir)
    }
    return this.direct
  }

  /**
   * git's own identity for this repository: `user.name` and `user.email` as git would use them
   * (repository, then global and system configuration). Members git does not set are absent.
   */
  async identity(): Promise<{ name?: string; email?: string }> {
    // The configuration the commit reads anyway (one `git config --list` per process), when git gave it.
    const values = (await this.committer()).configValues()
    if (values) {
      const identity: { name?: string; email?: string } = {}
      const name = values.get('user.name')?.trim()
      const email = values.get('user.email')?.trim()
      if (name) identity.name = name
      if (email) identity.email = email
      return identity
    }
    let out: string
    try {
      out = await this.raw(['config', '--get-regexp', '^user\\.(name|email)$'])
    } catch {
      return {} // exit 1: neither is set
    }
    const identity: { name?: string; email?: string } = {}
    for (const line of out.split('\n')) {
      const match = /^user\.(name|email) (.*)$/.exec(line)
      const value = match?.[2].trim()
      if (match && value) identity[match[1] as 'name' | 'email'] = value
    }
    return identity
  }

  /** The content of a file at HEAD, or null when HEAD does not have it. */
  async showHead(rel: string): Promise<string | null> {
    try {
      return await this.raw(['show', `HEAD:${rel}`])
    } catch {
      return null
    }
  }

  /** Puts a folder back to HEAD: tracked files restored, untracked ones removed. */
  async restoreToHead(rel: string): Promise<void> {
    const tracked = (await this.raw(['ls-tree', '-r', '--name-only', 'HEAD', '--', rel]).catch(() => '')).trim()
    if (tracked) await this.raw(['checkout', 'HEAD', '--', rel])
    await this.raw(['clean', '-fdq', '--', rel])
  }
}

/**
 * The environment handed to git when we set variables of our own: the caller's, minus the ones
 * that make git run other programs (editors, pagers, askpass, ssh). simple-git refuses those, and
 * a commit with -m needs none of them. (npm sets EDITOR for every script it runs.)
 */
function safeEnv(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/EDITOR|PAGER|ASKPASS|SSH|PROXY|EXEC_PATH|TEMPLATE_DIR|^GIT_CONFIG/.test(key)) out[key] = value
  }
  return out
}

/** A raw git failure as a storage error that says what happened and how to fix it. */
function explainGitError(error: unknown, gitRoot: string, gitDir: string): StudioError {
  const text = error instanceof Error ? error.message : String(error)
  const lock = join(gitDir, 'index.lock')
  if (/index\.lock/.test(text)) {
    return new StudioError(
      'workspace_busy',
      `git's index is locked (${lock} exists). Another git command may be running; if none is, a crashed git left it: remove that file and retry. Nothing was committed.`,
    )
  }
  if (/not a git repository/i.test(text)) return new StudioError('storage', `Not a git repository: ${gitRoot}. Run \`studio init\` there.`)
  return new StudioError('storage', `git failed: ${text.split('\n').filter(Boolean).slice(0, 3).join(' ')}`)
}
