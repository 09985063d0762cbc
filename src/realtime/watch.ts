/**
 * Notices changes to watched decks that did not come through this process's engine: a `studio`
 * command in another process, `studio mcp` on stdio, a `git checkout`/`reset`/`merge`, a hand edit.
 *
 * What tells us to look: `fs.watch` on the git directory (HEAD, index, refs/heads), on `decks/`, on
 * each watched deck's folder and its `slides/`, on `.studio/` (kill switches, principal records) and
 * `.studio/locks/` (a lock released);
 * plus a stat poll (every `pollMs`, 250 ms by default) for file systems whose watch events do not
 * arrive (network mounts, some containers). Either only schedules a check, debounced by a few ms.
 *
 * What a check compares: a deck's signature, the name, inode, size and nanosecond mtime of every file
 * of its folder (deck.json, slides/*, sidecars, assets). Writes are atomic renames, so a write changes
 * an inode even when size and mtime would not; a hand edit in place changes the mtime. Equal
 * signatures mean nothing to say. A deck's comment threads (`comments/`) have a signature of their own:
 * a comment write moves no deck revision, and is announced as `comments` with the comments revision.
 *
 * What it leaves alone:
 * - decks this process is writing (`isWriting`, set by the engine): its `revision` event announces
 *   them, then the room calls `accept` so the new files count as seen;
 * - decks whose cross-process lock (`.studio/locks/deck-<id>.lock`) is held and fresh: another
 *   studio process is between its first file and its commit; the check comes back every 10 ms and
 *   announces once, after the commit (a lock older than the 3 s staleness bound no longer defers).
 *
 * Who did it (`by.transport`): when the git reflog's newest entry is a commit made since the last
 * look, and that commit's trailers name this deck at the revision now on disk, the commit's
 * Studio-Transport trailer (C for a studio command, M for `studio mcp`) and Studio-Action; anything
 * else (checkout, reset, merge, a commit by hand, an uncommitted edit) is `git`.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { isWriting } from '../core/events.js'
import type { Workspace } from '../store/workspace.js'

export type ChangeTransport = 'C' | 'M' | 'H' | 'P' | 'git'

export interface DeckChange {
  deckId: string
  /** The revision in deck.json now; null when the deck folder is gone or its manifest unreadable. */
  revision: number | null
  by: { transport: ChangeTransport }
  actionId?: string
}

/** The comment threads of a watched deck changed on disk (another process, a checkout, a merge). */
export interface CommentsChange {
  deckId: string
  /** The comments revision in comments/index.json now (0 when there is none). */
  revision: number
}

export interface WatchHandlers {
  changed(change: DeckChange): void
  comments?(change: CommentsChange): void
  /** `.studio/flags.json` moved (admin.flag in another process). */
  flags?(): void
  /** `.studio/principals.json` moved (presence.pointer in another process). */
  principals?(): void
}

export interface WatchOptions {
  /** Stat poll period in ms (the fallback when watch events do not arrive); 250 by default. */
  pollMs?: number
}

const DEBOUNCE_MS = 8
const LOCK_RETRY_MS = 10
/** proper-lockfile's staleness bound in src/store/lock.ts, plus a margin. */
const LOCK_STALE_MS = 3500

interface Watched {
  sig: string
  commentsSig: string
  /** The reflog's newest commit when this deck's state was last taken as seen. */
  head: string | null
  watchers: FSWatcher[]
}

function stamp(path: string): string {
  try {
    const st = statSync(path, { bigint: true })
    return `${st.ino}:${st.size}:${st.mtimeNs}`
  } catch {
    return '-'
  }
}

export class WorkspaceWatcher {
  private readonly decks = new Map<string, Watched>()
  private base: FSWatcher[] = []
  private poll: NodeJS.Timeout | undefined
  private timer: NodeJS.Timeout | undefined
  private running = false
  private again = false
  private closed = false
  private flagsStamp: string
  private principalsStamp: string
  private readonly gitDir: string

  constructor(
    private readonly ws: Workspace,
    private readonly handlers: WatchHandlers,
    private readonly options: WatchOptions = {},
  ) {
    this.gitDir = ws.git.gitDir
    this.flagsStamp = stamp(join(ws.stateDir, 'flags.json'))
    this.principalsStamp = stamp(join(ws.stateDir, 'principals.json'))
  }

  /** Starts watching a deck (idempotent): its current files count as seen. */
  add(deckId: string): void {
    if (this.closed || this.decks.has(deckId)) return
    const entry: Watched = { sig: this.signature(deckId), commentsSig: this.commentsSignature(deckId), head: this.reflogHead()?.oid ?? null, watchers: [] }
    this.decks.set(deckId, entry)
    this.watchDeck(deckId, entry)
    if (this.decks.size === 1) this.start()
  }

  remove(deckId: string): void {
    const entry = this.decks.get(deckId)
    if (!entry) return
    for (const w of entry.watchers) w.close()
    this.decks.delete(deckId)
    if (this.decks.size === 0) this.stop()
  }

  /** Takes the deck's files as they are now as seen (after this process announced its own write). */
  accept(deckId: string): void {
    const entry = this.decks.get(deckId)
    if (!entry) return
    entry.sig = this.signature(deckId)
    entry.head = this.reflogHead()?.oid ?? entry.head
  }

  /** Takes the deck's comment files as they are now as seen (after this process announced its own comment write). */
  acceptComments(deckId: string): void {
    const entry = this.decks.get(deckId)
    if (entry) entry.commentsSig = this.commentsSignature(deckId)
  }

  watched(): string[] {
    return [...this.decks.keys()]
  }

  close(): void {
    this.closed = true
    for (const id of [...this.decks.keys()]) this.remove(id)
    this.stop()
  }

  private start(): void {
    const on = () => this.schedule()
    const refs = join(this.gitDir, 'refs', 'heads')
    this.base = [
      this.watchPath(this.gitDir, on),
      this.watchPath(refs, on, true),
      this.watchPath(this.ws.decksDir, on),
      this.watchPath(this.ws.stateDir, on),
      // A released deck lock (its folder removed) is the moment another process's write is complete.
      this.watchPath(join(this.ws.stateDir, 'locks'), on),
    ].filter((w): w is FSWatcher => w !== undefined)
    this.poll = setInterval(on, this.options.pollMs ?? 250)
    this.poll.unref()
  }

  private stop(): void {
    for (const w of this.base) w.close()
    this.base = []
    if (this.poll) clearInterval(this.poll)
    if (this.timer) clearTimeout(this.timer)
    this.poll = undefined
    this.timer = undefined
  }

  private watchPath(path: string, on: () => void, recursive = false): FSWatcher | undefined {
    try {
      const w = watch(path, { persistent: false, recursive }, on)
      // A watched folder removed (a checkout without the deck) or a watch limit reached: the poll carries on.
      w.on('error', () => w.close())
      return w
    } catch {
      return undefined
    }
  }

  private watchDeck(deckId: string, entry: Watched): void {
    for (const w of entry.watchers) w.close()
    const dir = this.ws.deckDir(deckId)
    const on = () => this.schedule()
    entry.watchers = [this.watchPath(dir, on), this.watchPath(join(dir, 'slides'), on), this.watchPath(join(dir, 'comments'), on)].filter((w): w is FSWatcher => w !== undefined)
  }

  private schedule(delay = DEBOUNCE_MS): void {
    if (this.closed || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.check()
    }, delay)
    this.timer.unref()
  }

  /** The files of a deck folder (two levels: slides/, assets/, ...) by name, inode, size and mtime. */
  private signature(deckId: string): string {
    const dir = this.ws.deckDir(deckId)
    const hash = createHash('sha1')
    const walk = (folder: string, prefix: string, depth: number) => {
      let entries
      try {
        entries = readdirSync(folder, { withFileTypes: true })
      } catch {
        hash.update(`${prefix}!\n`)
        return
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      for (const e of entries) {
        if (e.isDirectory()) {
          // Comment threads are not the deck's content: they move no revision (src/comments).
          if (depth === 0 && e.name === 'comments') continue
          if (depth < 2) walk(join(folder, e.name), `${prefix}${e.name}/`, depth + 1)
        } else hash.update(`${prefix}${e.name} ${stamp(join(folder, e.name))}\n`)
      }
    }
    walk(dir, '', 0)
    return hash.digest('hex')
  }

  /** The files of a deck's comments/ folder (one file per thread, and index.json) by name, inode, size and mtime. */
  private commentsSignature(deckId: string): string {
    const dir = join(this.ws.deckDir(deckId), 'comments')
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch {
      return '-'
    }
    const hash = createHash('sha1')
    for (const name of names) hash.update(`${name} ${stamp(join(dir, name))}\n`)
    return hash.digest('hex')
  }

  private readCommentsRevision(deckId: string): number {
    try {
      const index = JSON.parse(readFileSync(join(this.ws.deckDir(deckId), 'comments', 'index.json'), 'utf8')) as { revision?: unknown }
      return Number.isInteger(index.revision) ? (index.revision as number) : 0
    } catch {
      return 0
    }
  }

  private readRevision(deckId: string): number | null {
    try {
      const manifest = JSON.parse(readFileSync(join(this.ws.deckDir(deckId), 'deck.json'), 'utf8')) as { revision?: unknown }
      return typeof manifest.revision === 'number' ? manifest.revision : null
    } catch {
      return null
    }
  }

  /** Whether another studio process holds the deck's lock now (a fresh lock folder). */
  private lockHeld(deckId: string): boolean {
    try {
      const st = statSync(join(this.ws.stateDir, 'locks', `deck-${deckId}.lock`))
      return Date.now() - st.mtimeMs < LOCK_STALE_MS
    } catch {
      return false
    }
  }

  /** The newest entry of HEAD's reflog: the commit it points at and whether a commit made it. */
  private reflogHead(): { oid: string; commit: boolean } | undefined {
    const path = join(this.gitDir, 'logs', 'HEAD')
    let fd: number | undefined
    try {
      fd = openSync(path, 'r')
      const size = statSync(path).size
      const length = Math.min(size, 8192)
      const buffer = Buffer.alloc(length)
      readSync(fd, buffer, 0, length, size - length)
      const lines = buffer.toString('utf8').trimEnd().split('\n')
      const last = lines[lines.length - 1]
      const [head, message = ''] = last.split('\t')
      const oid = head.split(' ')[1]
      if (!oid) return undefined
      return { oid, commit: /^commit( \(initial\))?:/.test(message) }
    } catch {
      return undefined
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
  }

  private async check(): Promise<void> {
    if (this.running) {
      this.again = true
      return
    }
    this.running = true
    let deferred = false
    try {
      const flags = stamp(join(this.ws.stateDir, 'flags.json'))
      if (flags !== this.flagsStamp) {
        this.flagsStamp = flags
        this.handlers.flags?.()
      }
      const principals = stamp(join(this.ws.stateDir, 'principals.json'))
      if (principals !== this.principalsStamp) {
        this.principalsStamp = principals
        this.handlers.principals?.()
      }
      const found: { deckId: string; revision: number | null; entry: Watched }[] = []
      const comments: CommentsChange[] = []
      for (const [deckId, entry] of this.decks) {
        if (isWriting(this.ws.root, deckId)) continue
        if (this.lockHeld(deckId)) {
          deferred = true
          continue
        }
        const commentsSig = this.commentsSignature(deckId)
        if (commentsSig !== entry.commentsSig) {
          entry.commentsSig = commentsSig
          comments.push({ deckId, revision: this.readCommentsRevision(deckId) })
        }
        const sig = this.signature(deckId)
        if (sig === entry.sig) continue
        entry.sig = sig
        // The folder may have been replaced (a checkout removing and restoring it): watch it afresh.
        this.watchDeck(deckId, entry)
        found.push({ deckId, revision: this.readRevision(deckId), entry })
      }
      for (const change of comments) if (this.decks.has(change.deckId)) this.handlers.comments?.(change)
      if (found.length) {
        const head = this.reflogHead()
        for (const { deckId, revision, entry } of found) {
          const by = await this.attribute(deckId, revision, head, entry.head)
          entry.head = head?.oid ?? entry.head
          if (this.closed || !this.decks.has(deckId)) continue
          this.handlers.changed({ deckId, revision, by: { transport: by.transport }, ...(by.actionId ? { actionId: by.actionId } : {}) })
        }
      }
    } finally {
      this.running = false
      if (this.again) {
        this.again = false
        this.schedule()
      } else if (deferred) this.schedule(LOCK_RETRY_MS)
    }
  }

  private async attribute(deckId: string, revision: number | null, head: { oid: string; commit: boolean } | undefined, seen: string | null): Promise<{ transport: ChangeTransport; actionId?: string }> {
    if (!head || !head.commit || head.oid === seen || revision === null || !/^[0-9a-f]{40,64}$/.test(head.oid)) return { transport: 'git' }
    const trailers = this.looseTrailers(head.oid) ?? (await this.loggedTrailers(head.oid))
    const [deck, rev, action, transport] = ['Studio-Deck', 'Studio-Revision', 'Studio-Action', 'Studio-Transport'].map((key) => trailers.get(key) ?? '')
    if (deck !== deckId || Number(rev) !== revision) return { transport: 'git' }
    const letter = ['C', 'M', 'H', 'P'].includes(transport) ? (transport as ChangeTransport) : 'C'
    return { transport: letter, ...(action ? { actionId: action } : {}) }
  }

  /**
   * The trailers of a commit stored as a loose object (a fresh commit always is, until a gc packs
   * it): read and inflated here, which spares a git process on the way to the page. Undefined when
   * the object is packed or unreadable.
   */
  private looseTrailers(oid: string): Map<string, string> | undefined {
    try {
      const raw = inflateSync(readFileSync(join(this.gitDir, 'objects', oid.slice(0, 2), oid.slice(2))))
      const text = raw.toString('utf8')
      if (!text.startsWith('commit ')) return undefined
      const body = text.slice(text.indexOf('\u0000') + 1)
      const message = body.slice(body.indexOf('\n\n') + 2)
      const trailers = new Map<string, string>()
      // The trailer block is the message's last paragraph (the engine writes `Key: value` lines).
      const paragraphs = message.trimEnd().split('\n\n')
      for (const line of paragraphs[paragraphs.length - 1].split('\n')) {
        const match = /^(Studio-[A-Za-z]+):\s*(.*)$/.exec(line)
        if (match && !trailers.has(match[1])) trailers.set(match[1], match[2].trim())
      }
      return trailers
    } catch {
      return undefined
    }
  }

  /** The trailers of any commit, by `git log` (a packed object; a worktree's shared object store). */
  private async loggedTrailers(oid: string): Promise<Map<string, string>> {
    const keys = ['Studio-Deck', 'Studio-Revision', 'Studio-Action', 'Studio-Transport']
    const format = keys.map((key) => `%(trailers:key=${key},valueonly,separator=%x2C)`).join('%x00')
    const out = await new Promise<string>((resolve) => {
      execFile('git', ['log', '-1', `--format=${format}`, oid, '--'], { cwd: this.ws.root, timeout: 5000 }, (error, stdout) => resolve(error ? '' : stdout))
    })
    const parts = out.split('\u0000').map((part) => part.trim())
    return new Map(keys.map((key, i) => [key, parts[i] ?? '']))
  }
}
