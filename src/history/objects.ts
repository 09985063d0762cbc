/**
 * Reading many git objects through ONE `git cat-file --batch` process.
 *
 * Object names go to the process on stdin (never as arguments), one per line; answers come back in
 * the same order, so a call writes all its names at once and reads as many answers. The process
 * stays open between calls (a second round can ask for the blobs a first round's trees named) and
 * is ended by `close()`. Blobs are cached by their sha: a slide unchanged between two revisions is
 * read and parsed once.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { StudioError } from '../core/errors.js'

export interface GitObject {
  sha: string
  type: 'blob' | 'tree' | 'commit' | 'tag'
  data: Buffer
}

/** One entry of a tree object. */
export interface TreeEntry {
  mode: string
  name: string
  sha: string
  /** A sub-tree (a folder). */
  tree: boolean
}

interface Waiter {
  resolve: (value: GitObject | null) => void
  reject: (error: Error) => void
}

export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | undefined
  private buffer: Buffer = Buffer.alloc(0)
  private readonly waiting: Waiter[] = []
  private readonly cache = new Map<string, GitObject | null>()
  private failure: Error | undefined

  constructor(private readonly gitRoot: string) {}

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.gitRoot, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk
      this.drain()
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const end = (error: Error) => {
      this.failure ??= error
      for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure)
    }
    child.on('error', (error) => end(new StudioError('storage', `git cat-file could not start: ${error.message}`)))
    child.on('close', (code) => {
      if (this.waiting.length) end(new StudioError('storage', `git cat-file ended early (exit ${code}): ${stderr.trim().split('\n')[0] ?? ''}`))
    })
    child.stdin.on('error', () => {})
    this.child = child
    return child
  }

  /** Parses every complete answer in the buffer and hands it to the oldest waiter. */
  private drain(): void {
    while (this.waiting.length) {
      const eol = this.buffer.indexOf(10)
      if (eol < 0) return
      const header = this.buffer.subarray(0, eol).toString('utf8')
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(eol + 1)
        this.waiting.shift()!.resolve(null)
        continue
      }
      const [sha, type, sizeText] = header.split(' ')
      const size = Number(sizeText)
      if (this.buffer.length < eol + 1 + size + 1) return
      const data = Buffer.from(this.buffer.subarray(eol + 1, eol + 1 + size))
      this.buffer = this.buffer.subarray(eol + 1 + size + 1)
      this.waiting.shift()!.resolve({ sha, type: type as GitObject['type'], data })
    }
  }

  /** The objects named (`<sha>`, `<commit>:<path>`), in order; null where git has none. */
  async read(names: string[]): Promise<(GitObject | null)[]> {
    const out: (GitObject | null)[] = new Array(names.length)
    const asked: Promise<void>[] = []
    const lines: string[] = []
    names.forEach((name, i) => {
      if (this.cache.has(name)) {
        out[i] = this.cache.get(name)!
        return
      }
      if (/[\n\r]/.test(name)) {
        out[i] = null
        return
      }
      lines.push(name)
      asked.push(
        new Promise<GitObject | null>((resolve, reject) => this.waiting.push({ resolve, reject })).then((object) => {
          out[i] = object
          // Only names that are shas are stable; `<rev>:<path>` may mean another object tomorrow.
          if (/^[0-9a-f]{40}$/.test(name)) this.cache.set(name, object)
          if (object) this.cache.set(object.sha, object)
        }),
      )
    })
    if (!lines.length) return out
    if (this.failure) throw this.failure
    const child = this.start()
    child.stdin.write(lines.join('\n') + '\n')
    await Promise.all(asked)
    return out
  }

  /** Text of the blobs named; null where missing or not a blob. */
  async texts(names: string[]): Promise<(string | null)[]> {
    return (await this.read(names)).map((object) => (object && object.type === 'blob' ? object.data.toString('utf8') : null))
  }

  /** Ends the process (safe to call twice). */
  close(): void {
    const child = this.child
    this.child = undefined
    if (child && child.exitCode === null) child.stdin.end()
  }
}

/** The entries of a tree object (git's binary format: `<mode> <name>\0<20-byte sha>` repeated). */
export function parseTree(data: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = []
  let at = 0
  while (at < data.length) {
    const space = data.indexOf(32, at)
    const nul = data.indexOf(0, space)
    if (space < 0 || nul < 0 || nul + 21 > data.length) break
    const mode = data.subarray(at, space).toString('latin1')
    const name = data.subarray(space + 1, nul).toString('utf8')
    const sha = data.subarray(nul + 1, nul + 21).toString('hex')
    entries.push({ mode, name, sha, tree: mode === '40000' })
    at = nul + 21
  }
  return entries
}
