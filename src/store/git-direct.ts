/**
 * The commit of a write, made in this process: the blobs, the changed trees and the commit are
 * written as loose objects, the branch ref moves under git's own ref lock (with its reflog lines),
 * and the index entries of the written paths are set under git's own index lock. That is what
 * `git commit --only -- <paths>` does, without the process, the full index refresh and the three
 * cache-tree passes that made one commit cost 15-30 ms in a 1,400-file deck (docs/performance.md).
 *
 * It is taken only where it is the same commit git would make. Anything it does not model hands the
 * write to `git commit` itself (see `Git.commit`): a hook that runs on commit or on an index or ref
 * change, signing, a configured cleanup or encoding, content filters or end-of-line conversion
 * (attributes or `core.autocrlf`), a merge, cherry-pick, revert or rebase in progress, a detached or
 * unborn HEAD, an index git writes in a form this does not (version 4, split, sparse, fsmonitor),
 * unmerged entries, another object format or ref storage, or git variables in the environment that
 * move its directories or dates. `STUDIO_DIRECT_COMMIT=0` hands every commit to git.
 *
 * Objects are read loose, or through `git cat-file` when packed (after a gc or a clone); trees are
 * immutable, so the ones read or written are kept by id and a packed one is asked for once. docs/storage.md#the-commit says the rest.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
  type BigIntStats,
} from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import { StudioError } from '../core/errors.js'
import { HeadMoved, type CommitFence } from './git.js'
import { fault } from './fault.js'
import { gitZoneOffset } from './git-zone.js'
import { objectTempName } from './object-temps.js'

export interface Identity {
  name: string
  email: string
}

export interface DirectCommit {
  /** Paths relative to the repository's top, each written (present on disk) or removed. */
  paths: string[]
  message: string
  author: Identity
  committer: Identity
  fence?: CommitFence
  /** The commit's time (a change replayed from the hosted store's log keeps its own); now when absent. */
  date?: Date
}

/** Why a commit was handed to git, or null when it was made here. */
export type Handoff = string | null

const TREE_MODE = '40000'
const ZERO = '0'.repeat(40)
/**
 * Git variables that move its directories, its dates, its reflog message or its index format away from
 * what this reads. (Configuration passed in variables, as `git -c` does for hooks, reaches it through
 * `git config --list`.)
 */
const GIT_ENV_MOVED = /^GIT_(DIR|WORK_TREE|INDEX_FILE|INDEX_VERSION|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|AUTHOR_DATE|COMMITTER_DATE|REFLOG_ACTION|QUARANTINE_PATH|TEST_.*)$/
/** Attributes that change what git stores for a file's bytes. */
const CONVERTING_ATTRIBUTE = /(^|[\s!-])(filter|text|eol|crlf|ident|working-tree-encoding)(=|\s|$)/m
/** Index extensions kept as they are when the entries change (by name); the others are dropped, as git allows for optional ones. */
const KEPT_EXTENSIONS = new Set(['REUC', 'UNTR'])

/** Bytes of tree objects kept per repository and process. */
const TREE_CACHE_BYTES = 32 * 1024 * 1024

interface IndexEntry {
  /** The name's bytes as latin1. */
  name: string
  stage: number
  /** The entry as stored (version 2 or 3 layout, padding included). */
  raw: Buffer
}

interface ParsedIndex {
  version: number
  entries: IndexEntry[]
  extensions: Buffer[]
}

interface Config {
  signature: string
  values: Map<string, string>
}

/** The committing half of `Git`: one per repository and process. */
export class DirectCommitter {
  /** Where objects, refs, hooks and config live (a linked worktree's `commondir`). */
  private readonly commonDir: string
  private readonly trees = new Map<string, Buffer>()
  private treeBytes = 0
  /** The index as this process last read or wrote it, with the stat of that file. */
  private index: { signature: string; parsed: ParsedIndex } | undefined
  /** Objects written and not yet synced and named (see `flushObjects`). */
  private pending: { fd: number; temp: string; path: string }[] = []
  private config: Config | undefined
  private attributes = new Map<string, { signature: string; converts: boolean }>()

  constructor(
    private readonly gitRoot: string,
    private readonly gitDir: string,
  ) {
    this.commonDir = commonDirOf(gitDir)
  }

  /**
   * Makes the commit, or answers why it is git's to make (having written nothing but loose objects,
   * which nothing names). Throws workspace_busy when git's index or the branch is locked.
   */
  async commit(request: DirectCommit): Promise<Handoff> {
    if (process.env.STUDIO_DIRECT_COMMIT === '0') return 'STUDIO_DIRECT_COMMIT=0'
    const refused = this.refusal(request)
    if (refused) return refused
    const indexPath = join(this.gitDir, 'index')
    const indexLock = `${indexPath}.lock`
    const lock = takeLock(indexLock, 'the index')
    let lockHeld = true
    try {
      // Under git's index lock: a writer taken over before this point stops here. One taken over after
      // it still owns the deck in effect: the new holder's repair finds the index held by a live
      // process and refuses (workspace_busy) rather than roll this write back, and no commit of
      // anyone's can take the index meanwhile.
      request.fence?.check()
      const index = this.readIndex(indexPath)
      if (typeof index === 'string') return index
      const files = request.paths.map((path) => ({ path, key: latin1(path), stat: lstatOrNull(join(this.gitRoot, path)) }))
      const blobs = new Map<string, { oid: string; mode: string; stat: BigIntStats }>()
      const filemode = !isFalse(this.config!.values.get('core.filemode'))
      for (const file of files) {
        if (!file.stat) continue
        if (!file.stat.isFile()) return `${file.path} is not a regular file`
        const old = index.entries.find((e) => e.name === file.key)
        const mode = filemode ? (Number(file.stat.mode) & 0o111 ? '100755' : '100644') : old ? modeOf(old) : '100644'
        blobs.set(file.key, { oid: this.writeObject('blob', readFileSync(join(this.gitRoot, file.path))), mode, stat: file.stat })
      }
      const ref = symbolicHead(this.gitDir)
      if (!ref) return 'HEAD is detached or unreadable'
      for (let attempt = 0; ; attempt++) {
        const parent = this.readRef(ref)
        if (!parent) return `${ref} has no commit yet`
        if (request.fence) this.checkFolders(request.fence, parent)
        const tree = this.buildTree(this.commitTree(parent), files.map((f) => ({ parts: f.key.split('/'), blob: blobs.get(f.key) ?? null })))
        if (tree === undefined) return 'a path runs through something other than a folder'
        const commit = this.writeObject('commit', Buffer.from(commitText(tree ?? this.writeObject('tree', Buffer.alloc(0)), parent, request)))
        fault('object-temps')
        await this.flushObjects()
        fault('in-objects')
        if (this.moveRef(ref, parent, commit, request)) break
        if (attempt === 2) throw new StudioError('workspace_busy', `${ref} kept moving while studio committed (another git command is committing here). Nothing was committed; retry.`)
      }
      // The commit has landed: from here on nothing may fail the write.
      fault('after-ref')
      try {
        const next = withEntries(index, files.map((f) => ({ key: f.key, blob: blobs.get(f.key) ?? null })))
        writeIndex(lock, indexPath, this.syncs('index'), next)
        lockHeld = false
        this.index = { signature: fileSignature(indexPath), parsed: next }
      } catch {
        release(lock)
        lockHeld = false
        // The index still names the old contents of these paths: git sets them from the commit.
        spawnSync('git', ['reset', '--quiet', '--', ...request.paths], { cwd: this.gitRoot })
      }
      this.collectGarbageSometimes()
      return null
    } finally {
      this.dropPending()
      if (lockHeld) release(lock)
    }
  }

  /**
   * The index, parsed: the one this process last wrote while the file is still that one (a rewrite
   * by anyone renames a new file in, so its inode, size or time moves), else read whole.
   */
  private readIndex(path: string): ParsedIndex | string {
    const signature = fileSignature(path)
    if (this.index && this.index.signature === signature) return this.index.parsed
    const parsed = parseIndex(path)
    this.index = typeof parsed === 'string' ? undefined : { signature, parsed }
    return parsed
  }

  /** Why this commit must be git's own, or null when it can be made here. */
  private refusal(request: DirectCommit): string | null {
    const variable = Object.keys(process.env).find((key) => GIT_ENV_MOVED.test(key))
    if (variable) return `${variable} is set`
    const config = this.readConfig()
    if (!config) return 'git config could not be read'
    const values = config.values
    if (isTrue(values.get('commit.gpgsign'))) return 'commits are signed'
    if ([...values.keys()].some((key) => key.startsWith('extensions.') && key !== 'extensions.worktreeconfig')) return 'the repository uses extensions'
    for (const key of ['core.splitindex', 'core.sparsecheckout', 'index.sparse']) if (isTrue(values.get(key))) return `${key} is on`
    if (values.has('core.fsmonitor') && !isFalse(values.get('core.fsmonitor'))) return 'core.fsmonitor is on'
    if (isTrue(values.get('core.autocrlf')) || values.get('core.autocrlf')?.toLowerCase() === 'input') return 'core.autocrlf converts line ends'
    const cleanup = values.get('commit.cleanup')
    if (cleanup && cleanup !== 'default' && cleanup !== 'whitespace') return `commit.cleanup is ${cleanup}`
    const encoding = values.get('i18n.commitencoding')
    if (encoding && !/^utf-?8$/i.test(encoding)) return `commits are encoded in ${encoding}`
    if (isTrue(values.get('core.bare'))) return 'the repository is bare'
    // git refuses a repository another user owns (safe.directory): let it say so.
    if (typeof process.getuid === 'function' && statSync(this.gitDir).uid !== process.getuid()) return 'the repository belongs to another user'
    const hooks = values.get('core.hookspath')
    const hooksDir = hooks ? (isAbsolute(hooks) ? hooks : resolve(this.gitRoot, hooks.replace(/^~(?=\/)/, homedir()))) : join(this.commonDir, 'hooks')
    for (const hook of ['post-commit', 'reference-transaction', 'post-index-change']) {
      if (existsSync(join(hooksDir, hook))) return `a ${hook} hook is installed`
    }
    for (const state of ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply', 'sequencer']) {
      if (existsSync(join(this.gitDir, state))) return `${state} is in progress`
    }
    const attributesFile = values.get('core.attributesfile') ?? join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'attributes')
    const attributeFiles = new Set([join(this.commonDir, 'info', 'attributes'), attributesFile.replace(/^~(?=\/)/, homedir())])
    for (const path of request.paths) {
      const parts = path.split('/')
      for (let depth = 0; depth < parts.length; depth++) attributeFiles.add(join(this.gitRoot, ...parts.slice(0, depth), '.gitattributes'))
    }
    for (const file of attributeFiles) if (this.converts(file)) return `${file} sets a content filter or line-end conversion`
    return null
  }

  /** Whether an attributes file names an attribute that changes stored bytes (cached by the file's stat). */
  private converts(file: string): boolean {
    const signature = statSignature(file)
    const known = this.attributes.get(file)
    if (known?.signature === signature) return known.converts
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      // none
    }
    const converts = text.split('\n').some((line) => !line.trimStart().startsWith('#') && CONVERTING_ATTRIBUTE.test(line.trim().split(/\s+/).slice(1).join(' ')))
    this.attributes.set(file, { signature, converts })
    return converts
  }

  /** git's configuration for this repository, by lower-cased key (the last value of a key wins, as in git); null when git cannot say. */
  configValues(): ReadonlyMap<string, string> | null {
    return this.readConfig()?.values ?? null
  }

  /** git's configuration as git reads it (one `git config --list` while no config file changes). */
  private readConfig(): Config | null {
    const global = process.env.GIT_CONFIG_GLOBAL ?? join(homedir(), '.gitconfig')
    const xdg = join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'config')
    const system = process.env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig'
    const signature = [join(this.commonDir, 'config'), join(this.gitDir, 'config.worktree'), global, xdg, system].map(statSignature).join('|') + `|${process.env.GIT_CONFIG_NOSYSTEM ?? ''}`
    if (this.config?.signature === signature) return this.config
    const result = spawnSync('git', ['config', '--list', '-z'], { cwd: this.gitRoot, encoding: 'utf8' })
    if (result.status !== 0) return null
    const values = new Map<string, string>()
    for (const item of result.stdout.split('\0')) {
      const newline = item.indexOf('\n')
      if (item) values.set((newline < 0 ? item : item.slice(0, newline)).toLowerCase(), newline < 0 ? 'true' : item.slice(newline + 1))
    }
    this.config = { signature, values }
    return this.config
  }

  /** The commit a branch ref names (loose, then packed-refs), or null. */
  private readRef(ref: string): string | null {
    try {
      const loose = readFileSync(join(this.commonDir, ref), 'utf8').trim()
      if (/^[0-9a-f]{40}$/.test(loose)) return loose
      return null
    } catch {
      // not loose
    }
    try {
      for (const line of readFileSync(join(this.commonDir, 'packed-refs'), 'utf8').split('\n')) {
        if (line.endsWith(` ${ref}`) && /^[0-9a-f]{40} /.test(line)) return line.slice(0, 40)
      }
    } catch {
      // no packed refs
    }
    return null
  }

  /**
   * Moves the branch from `parent` to `commit` under git's ref lock, with the reflog lines git
   * writes; false (and nothing changed) when the branch no longer names `parent`.
   */
  private moveRef(ref: string, parent: string, commit: string, request: DirectCommit): boolean {
    const refPath = join(this.commonDir, ref)
    mkdirSync(dirname(refPath), { recursive: true })
    const lock = takeLock(`${refPath}.lock`, ref)
    let held = true
    try {
      if (this.readRef(ref) !== parent) return false
      fill(lock, `${commit}\n`, this.syncs('reference'))
      const logAll = this.config!.values.get('core.logallrefupdates') ?? 'true'
      const line = `${parent} ${commit} ${request.committer.name} <${request.committer.email}> ${gitDate(new Date())}\tcommit: ${request.message.split('\n')[0]}\n`
      for (const log of [join(this.commonDir, 'logs', ref), join(this.gitDir, 'logs', 'HEAD')]) {
        if (isFalse(logAll) && !existsSync(log)) continue
        mkdirSync(dirname(log), { recursive: true })
        appendFileSync(log, line)
      }
      renameSync(lock.path, refPath)
      held = false
      return true
    } finally {
      if (held) release(lock)
    }
  }

  /**
   * Throws HeadMoved when a fenced folder is not, in `parent`, what it was in the commit the write
   * read (`fence.seen`): compared by the ids of their tree entries, so a commit to another deck in
   * between is no conflict.
   */
  private checkFolders(fence: CommitFence, parent: string): void {
    if (parent === fence.seen) return
    const seenTree = fence.seen ? this.commitTree(fence.seen) : null
    const parentTree = this.commitTree(parent)
    for (const folder of fence.folders) {
      if (this.entryAt(seenTree, folder) !== this.entryAt(parentTree, folder)) throw new HeadMoved(folder)
    }
  }

  /** The id of the entry at a path in a tree (`<mode> <oid>`), or null when there is none. */
  private entryAt(tree: string | null, path: string): string | null {
    let current: { mode: string; oid: string } | null = tree ? { mode: TREE_MODE, oid: tree } : null
    for (const part of path.split('/')) {
      if (!current || current.mode !== TREE_MODE) return null
      current = findEntry(this.readTree(current.oid), latin1(part))
    }
    return current ? `${current.mode} ${current.oid}` : null
  }

  /** The tree of a commit. */
  private commitTree(commit: string): string {
    const text = this.readObject(commit, 'commit').toString('latin1')
    const match = /^tree ([0-9a-f]{40})\n/.exec(text)
    if (!match) throw new StudioError('storage', `git object ${commit} is not a readable commit`)
    return match[1]
  }

  /**
   * The tree `base` with each path set to its blob (or removed): the new tree's id, null when it
   * came out empty, undefined when a path runs through a file or a submodule. Trees are edited as
   * git stores them (one entry spliced in or out of the bytes), so a folder of 1,400 slides costs
   * one scan of its tree, not a parse, a sort and a rewrite.
   */
  private buildTree(base: string | null, changes: { parts: string[]; blob: { oid: string; mode: string } | null }[]): string | null | undefined {
    let body = base ? this.readTree(base) : Buffer.alloc(0)
    const nested = new Map<string, typeof changes>()
    for (const change of changes) {
      if (change.parts.length > 1) {
        const [head, ...rest] = change.parts
        const list = nested.get(head) ?? []
        list.push({ parts: rest, blob: change.blob })
        nested.set(head, list)
        continue
      }
      if (findEntry(body, change.parts[0])?.mode === TREE_MODE) return undefined
      body = setEntry(body, change.parts[0], change.blob)
    }
    for (const [name, list] of nested) {
      const found = findEntry(body, name)
      if (found && found.mode !== TREE_MODE) return undefined
      const sub = this.buildTree(found?.oid ?? null, list)
      if (sub === undefined) return undefined
      body = setEntry(body, name, sub ? { mode: TREE_MODE, oid: sub } : null)
    }
    if (!body.length) return null
    const oid = this.writeObject('tree', body)
    this.keepTree(oid, body)
    return oid
  }

  /** A tree's bytes (entries `<mode> <name>\0<20-byte id>`, in git's order). */
  private readTree(oid: string): Buffer {
    const known = this.trees.get(oid)
    if (known) {
      this.trees.delete(oid)
      this.trees.set(oid, known)
      return known
    }
    const body = this.readObject(oid, 'tree')
    this.keepTree(oid, body)
    return body
  }

  /** Trees never change, so a kept one is never stale; the least recently used go past 32 MB. */
  private keepTree(oid: string, body: Buffer): void {
    this.trees.set(oid, body)
    this.treeBytes += body.length
    for (const [old, kept] of this.trees) {
      if (this.treeBytes <= TREE_CACHE_BYTES) break
      this.trees.delete(old)
      this.treeBytes -= kept.length
    }
  }

  /** An object's body, loose or (through `git cat-file --batch`) packed. */
  private readObject(oid: string, type: string): Buffer {
    let raw: Buffer | null = null
    try {
      raw = inflateSync(readFileSync(join(this.commonDir, 'objects', oid.slice(0, 2), oid.slice(2))))
    } catch {
      // packed, or in an alternate
    }
    if (raw) {
      const nul = raw.indexOf(0)
      const [kind] = raw.toString('latin1', 0, nul).split(' ')
      if (kind !== type) throw new StudioError('storage', `git object ${oid} is a ${kind}, not a ${type}`)
      return raw.subarray(nul + 1)
    }
    // Packed (after a gc or a clone): asked of git, once per tree, since trees read are kept.
    const result = spawnSync('git', ['cat-file', type, oid], { cwd: this.gitRoot, maxBuffer: 1 << 30 })
    if (result.status !== 0) throw new StudioError('storage', `git could not read object ${oid}: ${String(result.stderr).trim()}`)
    return result.stdout
  }

  /**
   * Writes a loose object unless it exists; its id. The file is renamed into place by
   * `flushObjects`, after all of a commit's objects are synced together (where git would sync them).
   */
  private writeObject(type: string, body: Buffer): string {
    const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])
    const oid = createHash('sha1').update(raw).digest('hex')
    const dir = join(this.commonDir, 'objects', oid.slice(0, 2))
    const path = join(dir, oid.slice(2))
    if (existsSync(path) || this.pending.some((p) => p.path === path)) return oid
    mkdirSync(dir, { recursive: true })
    const temp = join(dir, objectTempName())
    const fd = openSync(temp, 'wx', 0o444)
    this.pending.push({ fd, temp, path })
    writeSync(fd, deflateSync(raw, { level: 1 }))
    return oid
  }

  /** Syncs the objects written since the last flush at once (one journal commit for all of them, not one each), then names them. */
  private async flushObjects(): Promise<void> {
    const pending = this.pending.splice(0)
    try {
      if (this.syncs('loose-object')) await Promise.all(pending.map((p) => new Promise<void>((done, failed) => fsync(p.fd, (error) => (error ? failed(error) : done())))))
    } finally {
      for (const p of pending) closeSync(p.fd)
    }
    for (const p of pending) renameSync(p.temp, p.path)
  }

  /** Drops objects written and never named (a commit given up). */
  private dropPending(): void {
    for (const p of this.pending.splice(0)) {
      closeSync(p.fd)
      rmSync(p.temp, { force: true })
    }
  }

  /**
   * Whether git syncs this component to disk in this repository (`core.fsync`; unset, git syncs
   * none of loose objects, refs and the index: `studio init` sets `committed`, objects and refs).
   */
  private syncs(component: 'loose-object' | 'reference' | 'index'): boolean {
    const values = this.config!.values
    const covers = (name: string) =>
      name === component || name === 'all' || name === 'added' || (name === 'committed' && component !== 'index') || (name === 'objects' && component === 'loose-object')
    const items = (values.get('core.fsync') ?? '').split(',').map((item) => item.trim()).filter(Boolean)
    const positive = items.some((item) => !item.startsWith('-') && covers(item))
    const negative = items.some((item) => item.startsWith('-') && covers(item.slice(1)))
    return (positive && !negative) || (component === 'loose-object' && isTrue(values.get('core.fsyncobjectfiles')))
  }

  /**
   * git packs loose objects when they pass `gc.auto` (checked, as git does, by counting the ones in
   * `objects/17`); commits made here never run git, so they start that upkeep themselves, detached.
   */
  private collectGarbageSometimes(): void {
    const limit = Number(this.config!.values.get('gc.auto') ?? 6700)
    if (!(limit > 0)) return
    let count = 0
    try {
      count = readdirSync(join(this.commonDir, 'objects', '17')).filter((name) => /^[0-9a-f]{38}$/.test(name)).length
    } catch {
      return
    }
    if (count <= Math.ceil(limit / 256)) return
    const child = spawn('git', ['maintenance', 'run', '--auto', '--quiet'], { cwd: this.gitRoot, detached: true, stdio: 'ignore' })
    child.on('error', () => {})
    child.unref()
  }
}

/** The common git directory of a (possibly linked) work tree's git directory. */
function commonDirOf(gitDir: string): string {
  try {
    const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    return isAbsolute(pointer) ? pointer : resolve(gitDir, pointer)
  } catch {
    return gitDir
  }
}

/** The branch HEAD names (`refs/heads/...`), or null when detached or unreadable. */
function symbolicHead(gitDir: string): string | null {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1]
    return ref && !ref.split('/').some((part) => part === '..' || part === '.' || part === '') ? ref : null
  } catch {
    return null
  }
}

/** git's spellings of a boolean (a key with no value is true). */
const isTrue = (value: string | undefined): boolean => value !== undefined && /^(true|yes|on|1)$/i.test(value.trim())
const isFalse = (value: string | undefined): boolean => value !== undefined && /^(false|no|off|0|)$/i.test(value.trim())

/** A lock file this process created, open until it is renamed into place or given up. */
interface Lock {
  path: string
  fd: number | null
}

/** Creates a lock file as git does (O_EXCL); a held one is workspace_busy, as git's own refusal would be. */
function takeLock(path: string, what: string): Lock {
  try {
    return { path, fd: openSync(path, 'wx', 0o644) }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new StudioError('workspace_busy', `git's lock on ${what} is held (${path} exists). Another git command may be running; if none is, a crashed git left it: remove that file and retry. Nothing was committed.`)
    }
    throw error
  }
}

/** Writes a lock's content (synced to disk when `sync`) and closes it. */
function fill(lock: Lock, data: string | Buffer, sync: boolean): void {
  writeSync(lock.fd!, typeof data === 'string' ? Buffer.from(data) : data)
  if (sync) fsyncSync(lock.fd!)
  closeLock(lock)
}

function closeLock(lock: Lock): void {
  if (lock.fd === null) return
  const fd = lock.fd
  lock.fd = null
  closeSync(fd)
}

/** Gives up a lock this process took and has not renamed: closed, removed. */
function release(lock: Lock): void {
  try {
    closeLock(lock)
  } catch {
    // the file is removed below all the same
  }
  try {
    unlinkSync(lock.path)
  } catch {
    // already gone
  }
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true })
  } catch {
    return null
  }
}

/** A file's identity to the nanosecond: inode, size, mtime, ctime ('-' when absent). */
function fileSignature(path: string): string {
  try {
    const stat = statSync(path, { bigint: true })
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`
  } catch {
    return '-'
  }
}

function statSignature(path: string): string {
  try {
    const stat = statSync(path)
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`
  } catch {
    return '-'
  }
}

const latin1 = (path: string): string => Buffer.from(path, 'utf8').toString('latin1')

/** An entry of a tree's bytes by name (a name appears once in a tree): where it lies, its mode and id. */
function findEntry(body: Buffer, name: string): { start: number; end: number; mode: string; oid: string } | null {
  const key = Buffer.from(name, 'latin1')
  for (let at = 0; at < body.length; ) {
    const space = body.indexOf(0x20, at)
    const nul = body.indexOf(0, space)
    if (nul - space - 1 === key.length && body.compare(key, 0, key.length, space + 1, nul) === 0) {
      return { start: at, end: nul + 21, mode: body.toString('latin1', at, space), oid: body.toString('hex', nul + 1, nul + 21) }
    }
    at = nul + 21
  }
  return null
}

/**
 * The tree's bytes with `name` set to an entry (or removed): an existing entry is cut out, the new
 * one goes where git's order puts it (names compared as bytes, a folder's as if it ended in `/`).
 */
export function setEntry(body: Buffer, name: string, entry: { mode: string; oid: string } | null): Buffer {
  const found = findEntry(body, name)
  const rest = found ? Buffer.concat([body.subarray(0, found.start), body.subarray(found.end)]) : body
  if (!entry) return rest
  const key = Buffer.from(entry.mode === TREE_MODE ? `${name}/` : name, 'latin1')
  let at = 0
  while (at < rest.length) {
    const space = rest.indexOf(0x20, at)
    const nul = rest.indexOf(0, space)
    const isTree = rest.toString('latin1', at, space) === TREE_MODE
    if (compareTreeKey(rest, space + 1, nul, isTree, key) > 0) break
    at = nul + 21
  }
  const bytes = Buffer.concat([Buffer.from(`${entry.mode} ${name}\0`, 'latin1'), Buffer.from(entry.oid, 'hex')])
  return Buffer.concat([rest.subarray(0, at), bytes, rest.subarray(at)])
}

/** git's tree order between the entry named by `body[start, end)` and `key` (a folder's name ends in `/`). */
function compareTreeKey(body: Buffer, start: number, end: number, isTree: boolean, key: Buffer): number {
  const length = end - start + (isTree ? 1 : 0)
  for (let i = 0; i < Math.min(length, key.length); i++) {
    const byte = start + i < end ? body[start + i] : 0x2f
    if (byte !== key[i]) return byte - key[i]
  }
  return length - key.length
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** git's timestamp: seconds and the local zone as +hhmm (as the C library reads TZ: src/store/git-zone.ts). */
function gitDate(date: Date): string {
  const offset = gitZoneOffset(date)
  const abs = Math.abs(offset)
  return `${Math.floor(date.getTime() / 1000)} ${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

/** A name or address as git writes it into an ident: no `<`, `>` or newline, and no "crud" at either end. */
function identPart(value: string): string {
  const crud = (c: string) => c <= ' ' || ',:;<>"\\\''.includes(c)
  let start = 0
  let end = value.length
  while (start < end && crud(value[start])) start++
  while (end > start && crud(value[end - 1])) end--
  return value.slice(start, end).replace(/[<>\n]/g, '')
}

/** The message as `git commit -m` stores it (cleanup `whitespace`): trailing spaces, runs of blank lines and blank ends gone. */
export function cleanMessage(message: string): string {
  const lines = message.split('\n').map((line) => line.replace(/\s+$/, ''))
  const out: string[] = []
  for (const line of lines) if (line || (out.length && out[out.length - 1] !== '')) out.push(line)
  while (out.length && out[out.length - 1] === '') out.pop()
  return out.length ? `${out.join('\n')}\n` : ''
}

function commitText(tree: string, parent: string, request: DirectCommit): string {
  const when = gitDate(request.date ?? new Date())
  const author = `${identPart(request.author.name)} <${identPart(request.author.email)}> ${when}`
  const committer = `${identPart(request.committer.name)} <${identPart(request.committer.email)}> ${when}`
  return `tree ${tree}\nparent ${parent}\nauthor ${author}\ncommitter ${committer}\n\n${cleanMessage(request.message)}`
}

/** The index read whole, or why it is in a form left to git (a string). */
function parseIndex(path: string): ParsedIndex | string {
  let data: Buffer
  try {
    data = readFileSync(path)
  } catch {
    return 'the index cannot be read'
  }
  if (data.length < 32 || data.toString('latin1', 0, 4) !== 'DIRC') return 'the index is not one git wrote'
  const version = data.readUInt32BE(4)
  if (version !== 2 && version !== 3) return `the index is version ${version}`
  const count = data.readUInt32BE(8)
  const entries: IndexEntry[] = []
  let at = 12
  for (let n = 0; n < count; n++) {
    const flags = data.readUInt16BE(at + 60)
    const extended = (flags & 0x4000) !== 0
    if (extended && version < 3) return 'the index is damaged'
    const nameStart = at + 62 + (extended ? 2 : 0)
    const nameEnd = data.indexOf(0, nameStart)
    const length = Math.ceil((nameEnd - at + 1) / 8) * 8
    const stage = (flags >> 12) & 3
    if (stage !== 0) return 'the index has unmerged entries'
    if (extended && data.readUInt16BE(at + 62) & 0x4000) return 'the index has skip-worktree entries'
    entries.push({ name: data.toString('latin1', nameStart, nameEnd), stage, raw: data.subarray(at, at + length) })
    at += length
  }
  const extensions: Buffer[] = []
  while (at + 8 <= data.length - 20) {
    const signature = data.toString('latin1', at, at + 4)
    const size = data.readUInt32BE(at + 4)
    if (signature[0] < 'A' || signature[0] > 'Z') return `the index has the ${signature} extension`
    if (KEPT_EXTENSIONS.has(signature)) extensions.push(data.subarray(at, at + 8 + size))
    at += 8 + size
  }
  return { version, entries, extensions }
}

const modeOf = (entry: IndexEntry): string => (entry.raw.readUInt32BE(24) & 0o111 ? '100755' : '100644')

/** The index with each written path's entry set from its blob and stat, and each removed path's dropped. */
function withEntries(index: ParsedIndex, changes: { key: string; blob: { oid: string; mode: string; stat: BigIntStats } | null }[]): ParsedIndex {
  const changed = new Map(changes.map((c) => [c.key, c]))
  const entries = index.entries.filter((e) => !changed.has(e.name))
  for (const { key, blob } of changes) {
    if (!blob) continue
    // Entries are in byte order of their names (stage 0 only, see parseIndex): one binary search each.
    let low = 0
    let high = entries.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (compareBytes(entries[mid].name, key) < 0) low = mid + 1
      else high = mid
    }
    entries.splice(low, 0, { name: key, stage: 0, raw: entryBytes(key, blob) })
  }
  return { ...index, entries }
}

/** One version-2-layout entry: stat data, mode, id, flags, name, padding. */
function entryBytes(name: string, blob: { oid: string; mode: string; stat: BigIntStats }): Buffer {
  const nameBytes = Buffer.from(name, 'latin1')
  const length = Math.ceil((62 + nameBytes.length + 1) / 8) * 8
  const out = Buffer.alloc(length)
  const s = blob.stat
  const u32 = (value: bigint) => Number(BigInt.asUintN(32, value))
  const fields = [s.ctimeNs / 1_000_000_000n, s.ctimeNs % 1_000_000_000n, s.mtimeNs / 1_000_000_000n, s.mtimeNs % 1_000_000_000n, s.dev, s.ino]
  fields.forEach((value, i) => out.writeUInt32BE(u32(value), i * 4))
  out.writeUInt32BE(parseInt(blob.mode, 8), 24)
  out.writeUInt32BE(u32(s.uid), 28)
  out.writeUInt32BE(u32(s.gid), 32)
  out.writeUInt32BE(u32(s.size), 36)
  out.write(blob.oid, 40, 'hex')
  out.writeUInt16BE(Math.min(nameBytes.length, 0xfff), 60)
  nameBytes.copy(out, 62)
  return out
}

/** Writes the index into its lock (held as `fd`), synced, and renames it into place: git's own commit of the index. */
function writeIndex(lock: Lock, path: string, sync: boolean, index: ParsedIndex): void {
  const header = Buffer.alloc(12)
  header.write('DIRC', 0, 'latin1')
  header.writeUInt32BE(index.version, 4)
  header.writeUInt32BE(index.entries.length, 8)
  const body = Buffer.concat([header, ...index.entries.map((e) => e.raw), ...index.extensions])
  const data = Buffer.concat([body, createHash('sha1').update(body).digest()])
  fill(lock, data, sync)
  renameSync(lock.path, path)
}
