/**
 * The git side of admin.migrateStorage (migrate.ts): a workspace's history read as layout v1 changes
 * (docs/storage.md "Layout v1" and "Layout v2"), and file bytes read by blob id. Read-only: every write
 * into a workspace goes through transaction.ts's applyChanges, as the engine's do.
 */
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { fail } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'

/** A commit of the workspace's first-parent history, as the change log keeps one. */
export interface GitCommit {
  hash: string
  parent: string | null
  author: string
  email: string
  /** Seconds since the epoch (the author time). */
  at: number
  subject: string
  trailers: Record<string, string>
}

/** One path a commit changed: its new blob, or null where the commit removed it. */
export interface GitFileChange {
  rel: string
  oid: string | null
}

const sep = '\x1f'
const end = '\x1e'

/** Runs git in the workspace's repository; `--` comes before every path the caller passes. */
export function gitOut(ws: Workspace, args: string[], options: { binary?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: ws.git.gitRoot, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args[0]} failed: ${String(stderr).split('\n')[0] || error.message}`))
      else resolve(options.binary ? stdout : stdout)
    })
  })
}

/** The commit HEAD names, or null on an unborn branch. */
export async function headCommit(ws: Workspace): Promise<string | null> {
  return (await gitOut(ws, ['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || null
}

/** A path of the repository as a path of the workspace ('' prefix: the same). */
const toRel = (ws: Workspace, path: string): string | null => (!ws.prefix ? path : path.startsWith(`${ws.prefix}/`) ? path.slice(ws.prefix.length + 1) : null)

/** The first-parent history up to `head`, oldest first (every commit: the ones touching no deck are skipped later). */
export async function firstParentCommits(ws: Workspace, head: string): Promise<GitCommit[]> {
  const text = await gitOut(ws, ['log', '--first-parent', '--reverse', `--format=%H${sep}%P${sep}%an${sep}%ae${sep}%at${sep}%s${sep}%(trailers:only,unfold)${end}`, head, '--'])
  const out: GitCommit[] = []
  for (const record of text.split(end)) {
    const fields = record.replace(/^\n/, '').split(sep)
    if (fields.length < 7) continue
    const [hash, parents, author, email, at, subject, trailerText] = fields
    const trailers: Record<string, string> = {}
    for (const line of trailerText.split('\n')) {
      const match = /^([A-Za-z][A-Za-z0-9-]{0,63}):\s?(.*)$/.exec(line)
      if (match) trailers[match[1]] = match[2]
    }
    out.push({ hash, parent: parents.split(' ')[0] || null, author, email, at: Number(at), subject, trailers })
  }
  return out
}

/** What `commit` changed under decks/ against its first parent (everything it holds, for a root commit). */
export async function changesOf(ws: Workspace, commit: GitCommit): Promise<GitFileChange[]> {
  const pathspec = ws.gitPath('decks')
  const args = commit.parent ? ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', commit.parent, commit.hash, '--', pathspec] : ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', '--root', commit.hash, '--', pathspec]
  const tokens = (await gitOut(ws, args)).split('\0')
  const out: GitFileChange[] = []
  for (let i = 0; i < tokens.length - 1; i += 2) {
    const meta = tokens[i].replace(/^\n/, '')
    const path = tokens[i + 1]
    if (!meta.startsWith(':')) break
    const [, newMode, , newOid, status] = meta.slice(1).split(' ')
    const rel = toRel(ws, path)
    if (rel === null) continue
    if (status !== 'D' && newMode !== '100644' && newMode !== '100755') {
      fail('refused', `${rel} in commit ${commit.hash.slice(0, 12)} is a ${newMode === '120000' ? 'symbolic link' : newMode === '160000' ? 'submodule' : `file of mode ${newMode}`}; the hosted store holds plain files only. Nothing was planned: replace it with a plain file in a new commit, then plan again.`)
    }
    out.push({ rel, oid: status === 'D' ? null : newOid })
  }
  return out
}

/** Every file of `commit` under the given folders (workspace paths), with its blob id. */
export async function treeFiles(ws: Workspace, commit: string, folders: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (!folders.length) return out
  const text = await gitOut(ws, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders.map((f) => ws.gitPath(f))])
  for (const entry of text.split('\0')) {
    const tab = entry.indexOf('\t')
    if (tab < 0) continue
    const [, type, oid] = entry.slice(0, tab).split(' ')
    const rel = toRel(ws, entry.slice(tab + 1))
    if (type === 'blob' && rel !== null) out.set(rel, oid)
  }
  return out
}

/** Whether any of the folders differs between two commits. */
export async function foldersMoved(ws: Workspace, from: string, to: string, folders: string[]): Promise<boolean> {
  if (from === to || !folders.length) return false
  const text = await gitOut(ws, ['diff', '--name-only', from, to, '--', ...folders.map((f) => ws.gitPath(f))])
  return text.trim() !== ''
}

/** Blob bytes by id, through one `git cat-file --batch`. */
export function readBlobs(ws: Workspace, oids: string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(oids)]
  const out = new Map<string, Buffer>()
  if (!wanted.length) return Promise.resolve(out)
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: ws.git.gitRoot, stdio: ['pipe', 'pipe', 'pipe'] })
    let buffer = Buffer.alloc(0)
    let next = 0
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const nl = buffer.indexOf(10)
        if (nl < 0) return
        const header = buffer.subarray(0, nl).toString()
        const [oid, type, size] = header.split(' ')
        if (type !== 'blob') {
          child.kill()
          reject(new Error(`git cat-file: ${header}`))
          return
        }
        const length = Number(size)
        if (buffer.length < nl + 1 + length + 1) return
        out.set(oid, Buffer.from(buffer.subarray(nl + 1, nl + 1 + length)))
        buffer = buffer.subarray(nl + 1 + length + 1)
        next++
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (next === wanted.length) resolve(out)
      else reject(new Error(`git cat-file ended (${code}) after ${next} of ${wanted.length} objects: ${stderr.split('\n')[0]}`))
    })
    child.stdin.end(wanted.join('\n') + '\n')
  })
}

export const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')
