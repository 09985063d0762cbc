/**
 * The hosted deck store (issue 27; docs/storage.md "Two engines", docs/hosting.md): several stateless
 * `studio serve --store hosted` instances over PostgreSQL and an S3-compatible object store.
 *
 * PostgreSQL holds, per folder (`decks/<id>`, `decks/templates/<slug>`), its head: the sequence number
 * of the last change to it and the map of its files to object digests; and the change log: one row per
 * accepted write (sequence number, time, author, subject, trailers, and each path's new digest or null).
 * A write is accepted by one transaction that
 *   1. updates each head it changes `… WHERE folder = $1 AND seq = $seen` (a folder new to it is
 *      inserted, `ON CONFLICT DO NOTHING`): no row means another instance's change came first, and the
 *      write is refused as a stale revision with nothing written. That row is the revision guard and
 *      the fence: a lock that expired, a stalled instance, a second instance with the same deck, none
 *      can land a write on a head it did not read;
 *   2. takes the next sequence number from the one version row (`UPDATE studio_store SET seq = seq + 1`):
 *      its row lock orders every write, so sequence numbers are gapless and in commit order, and that
 *      row is what an instance polls to learn it is behind;
 *   3. appends the change and notifies `studio_store` (delivered at commit).
 * File bytes go to the object store first (objects.ts: content-addressed, immutable), so a change the
 * log names always has its objects; an object no change names is garbage, never a half-written write.
 *
 * Each instance keeps a replica of the log: a git workspace in a cache folder (STUDIO_CACHE_DIR, else a
 * fresh temporary folder), rebuilt from the log at start, every change one commit with the same
 * author, time, subject and trailers (plus `Studio-Seq`). The engine reads and stages against the
 * replica as it does against a checkout, so history, diff, versions, review and the realtime watcher
 * work unchanged; the replica may be lost at any time, since every acknowledged write is in PostgreSQL
 * and the object store before it is answered. The replica follows the log by LISTEN/NOTIFY and by
 * polling the version row (NOTIFY has no replay and does not pass some poolers), at most a second
 * behind for a read, and fully caught up before a write.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool, PoolClient, Client } from 'pg'
import { fail } from '../core/errors.js'
import { deckKey, templateKey } from '../core/engine.js'
import type { DeckStore, ReadPoint } from '../store/deck-store.js'
import { foreignCommit } from '../store/deck-cache.js'
import { fault } from '../store/fault.js'
import { HeadMoved } from '../store/git.js'
import { withLocks } from '../store/lock.js'
import { lexists, type CommitMeta, type FileChange } from '../store/transaction.js'
import { SHARED_STATE_FILES, type StateChange } from '../store/state-file.js'
import { Workspace } from '../store/workspace.js'
import { getObjects, putObjects, refuseSwept, sha256, withSweptRetry } from './objects.js'
import { TRAILER_KEY } from './trailers.js'

/** The channel a commit notifies, with its sequence number as the payload. */
export const CHANNEL = 'studio_store'
/** The channel a change of a shared state file notifies, with its name. */
const STATE_CHANNEL = 'studio_state'

/** The store's tables; created once per database (under an advisory lock, so instances starting together agree). */
const SCHEMA = [
  `create table if not exists studio_store (id integer primary key check (id = 1), seq bigint not null, layout integer not null default 2)`,
  `insert into studio_store (id, seq) values (1, 0) on conflict (id) do nothing`,
  // Which deployment this database is: the object sweep touches a bucket only while the bucket names it (src/hosted/sweep.ts).
  `alter table studio_store add column if not exists deployment text not null default gen_random_uuid()::text`,
  `create table if not exists studio_heads (folder text primary key, seq bigint not null, revision integer, files jsonb not null default '{}'::jsonb, updated_at timestamptz not null default now())`,
  `create table if not exists studio_changes (seq bigint primary key, at timestamptz not null, subject text not null, author text not null, email text, trailers jsonb not null, files jsonb not null)`,
  // The state files people share (src/store/state-file.ts): leases, the inbox, the activity feed, principals.
  `create sequence if not exists studio_state_seq`,
  `create table if not exists studio_state (name text primary key, body text, seq bigint not null default 0)`,
  // Who is in each deck's room on each instance (src/hosted/presence.ts): rows of an instance that stopped beating expire.
  `create table if not exists studio_presence (instance text not null, deck text not null, entries jsonb not null, at timestamptz not null default now(), primary key (instance, deck))`,
  // The objects the sweep removed (src/hosted/sweep.ts), kept a week: a write naming one puts it again first.
  `create table if not exists studio_swept (sha text primary key, at timestamptz not null default now())`,
]
/**
 * The storage migration's record and plan (src/hosted/migrate.ts, admin.migrateStorage): here because
 * every write of the store reads the record (a deck being moved in takes no write before cutover).
 */
export const MIGRATION_TABLES = [
  `create table if not exists studio_migrations (id bigserial primary key, direction text not null, workspace text not null, state text not null, active text not null default 'source', head text, folders jsonb not null default '[]'::jsonb, fences jsonb not null default '{}'::jsonb, cursors jsonb not null default '{}'::jsonb, total integer not null default 0, counts jsonb not null default '{}'::jsonb, verify jsonb, created_at timestamptz not null default now(), copied_at timestamptz, cutover_at timestamptz, finished_at timestamptz)`,
  `create unique index if not exists studio_migrations_one_open on studio_migrations ((true)) where finished_at is null`,
  `create table if not exists studio_migration_changes (migration bigint not null references studio_migrations (id), n integer not null, ref text not null, at timestamptz not null, author text not null, email text, subject text not null, trailers jsonb not null, files jsonb not null, blobs jsonb not null default '{}'::jsonb, primary key (migration, n))`,
]
const SCHEMA_LOCK = 0x5354_5352 // "STSR"

/**
 * Refuses a write to a deck an open storage migration holds on the other side: moving into the hosted
 * store, the workspace is the truth until cutover; moving out to a workspace, the workspace is after it.
 */
export function refuseMoved(records: { id: string; direction: string; active: string; folders: string[] }[], folders: Iterable<string>, here: 'hosted' | 'git'): void {
  for (const record of records) {
    const truth = (record.direction === 'hosted') === (record.active === 'target') ? 'hosted' : 'git'
    if (truth === here) continue
    const held = [...folders].find((folder) => Array.isArray(record.folders) && record.folders.includes(folder))
    if (!held) continue
    const where = truth === 'hosted' ? 'the hosted store' : 'the git workspace'
    fail('read_only', `${held} is being moved by storage migration ${record.id}, and ${where} holds it now: write there${truth === 'git' && record.direction === 'hosted' ? ' until cutover' : ''}, or roll the migration back (studio admin migrate-storage rollback).`, { details: { migration: Number(record.id) } })
  }
}

/** A change as the log holds it. */
interface ChangeRow {
  seq: string | number
  at: Date
  subject: string
  author: string
  email: string | null
  trailers: Record<string, string | number>
  files: Record<string, string | null>
}

/** A path the log may name: inside decks/, plain segments only (the log is read as hostile as a bundle). */
const SAFE_REL = /^decks\/(?:[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*\/)*[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*$/
export { TRAILER_KEY }

export function checkedRel(rel: string): string {
  if (!SAFE_REL.test(rel) || rel.split('/').some((part) => part === '.' || part === '..')) fail('internal', `The hosted store names a path studio does not write ("${rel.slice(0, 120)}"); nothing was written.`)
  return rel
}

/** The folder a path's changes are fenced and locked by: a deck, an organisation template, else the path itself. */
export function folderOf(rel: string): string {
  const parts = rel.split('/')
  if (parts[0] === 'decks' && parts[1] === 'templates' && parts.length > 3) return parts.slice(0, 3).join('/')
  if (parts[0] === 'decks' && parts.length > 2) return parts.slice(0, 2).join('/')
  return rel
}

/** The lock key of a folder (the engine's), when it has one. */
export function lockKeyOf(folder: string): string | undefined {
  const parts = folder.split('/')
  if (parts.length === 3 && parts[1] === 'templates') return templateKey(parts[2])
  if (parts.length === 2 && parts[1] !== 'templates') return deckKey(parts[1])
  return undefined
}

const deckIdsOf = (folders: Iterable<string>) => [...folders].filter((f) => f.split('/').length === 2 && !f.endsWith('/templates')).map((f) => f.slice(6))

/**
 * On a checkout whose environment names a hosted store (STUDIO_DATABASE_URL, as for admin.migrateStorage):
 * refuses a write to a deck an open migration of this workspace holds on the hosted side.
 */
export async function refuseMovedFromCheckout(ws: Workspace, rels: string[]): Promise<void> {
  const url = process.env.STUDIO_DATABASE_URL?.trim()
  if (!url) return
  const { default: pg } = await import('pg')
  if (!checkoutPool) {
    checkoutPool = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true })
    checkoutPool.on('error', () => undefined)
  }
  let rows: { id: string; direction: string; active: string; folders: string[]; workspace: string }[]
  try {
    rows = (await checkoutPool.query('select id, direction, active, folders, workspace from studio_migrations where finished_at is null')).rows
  } catch (error) {
    // No migration was ever planned on this database (the table is made by the first).
    if ((error as { code?: string }).code === '42P01') return
    throw error
  }
  refuseMoved(rows.filter((row) => row.workspace === ws.root), new Set(rels.map(folderOf)), 'git')
}
let checkoutPool: Pool | undefined

export interface HostedOptions {
  /** The PostgreSQL URL (STUDIO_DATABASE_URL). */
  url: string
  /**
   * Where the replica is kept (STUDIO_CACHE_DIR, in its `replica/`), emptied at start by the one process
   * that holds it. A fresh temporary folder when absent, or while another studio process holds it.
   */
  cacheDir?: string
  /** Whether to LISTEN for changes (STUDIO_STORE_NOTIFY=0 turns it off; the poll remains). */
  notify?: boolean
  /** How often the version row is polled, ms (STUDIO_STORE_POLL_MS; 250); 0 for none (one command). */
  pollMs?: number
}

export class HostedStore implements DeckStore {
  readonly engine = 'hosted' as const
  /** Every change up to this sequence number is in the replica. */
  private applied = 0
  /** Changes above `applied` already in the replica. */
  private readonly done = new Set<number>()
  /** Changes this instance committed and is putting into its replica itself. */
  private readonly claimed = new Set<number>()
  /** Each folder's head as the replica holds it. */
  private readonly folders = new Map<string, number>()
  /** The last change the sync loop looked at. */
  private cursor = 0
  /** Each shared state file's row, as this instance's copy holds it. */
  private readonly stateSeqs = new Map<string, number>()
  private stateSeq = 0
  private stateWrites: Promise<unknown> = Promise.resolve()
  private checkedAt = 0
  private stale = true
  private syncing: Promise<void> | null = null
  private again = false
  private closed = false
  private listener: Client | undefined
  private listenUrl: string | undefined
  /** Other channels this instance listens on (the rooms' presence), with what each notification calls. */
  private readonly channels = new Map<string, (payload: string) => void>()
  private poll: NodeJS.Timeout | undefined
  /** Why the replica can no longer be trusted (a change committed but not applied here); /readyz reports it. */
  broken: string | undefined

  constructor(
    readonly pool: Pool,
    readonly ws: Workspace,
    private readonly ownsDir: boolean,
    /** Lets go of the cache folder this instance holds (STUDIO_CACHE_DIR), where it holds one. */
    private readonly releaseCache?: () => Promise<void>,
  ) {}

  /** What the store holds, as numbers for /readyz and the bench: the replica's sequence and the store's. */
  async status(): Promise<{ applied: number; store: number }> {
    const { rows } = await this.pool.query<{ seq: string }>('select seq from studio_store where id = 1')
    return { applied: this.applied, store: Number(rows[0].seq) }
  }

  async refresh(maxAgeMs: number): Promise<void> {
    if (this.closed) return
    if (!this.stale && Date.now() - this.checkedAt < maxAgeMs) return
    return this.sync()
  }

  readPoint(): ReadPoint {
    return { commit: null, folders: new Map(this.folders) }
  }

  async commit(ws: Workspace, keys: string[], changes: FileChange[], meta: CommitMeta, point: ReadPoint): Promise<void> {
    if (this.broken) fail('storage', `This instance's replica of the hosted store is behind (${this.broken}); it must be restarted. Nothing was written.`)
    // A removal of a file the replica does not have is no change (as on a checkout).
    const live = changes.filter((change) => change.content !== null || lexists(join(ws.root, change.rel)))
    if (!live.length) return
    const objects = new Map<string, Buffer>()
    const files: Record<string, string | null> = Object.create(null)
    const byFolder = new Map<string, { set: Record<string, string>; removed: string[] }>()
    for (const change of live) {
      checkedRel(change.rel)
      let sha: string | null = null
      if (change.content !== null) {
        const bytes = typeof change.content === 'string' ? Buffer.from(change.content) : Buffer.isBuffer(change.content) ? change.content : await readFile(change.content.move)
        sha = sha256(bytes)
        objects.set(sha, bytes)
      }
      files[change.rel] = sha
      const folder = folderOf(change.rel)
      const entry = byFolder.get(folder) ?? { set: Object.create(null) as Record<string, string>, removed: [] as string[] }
      if (sha === null) entry.removed.push(change.rel)
      else entry.set[change.rel] = sha
      byFolder.set(folder, entry)
    }
    const at = new Date(Math.floor(Date.now() / 1000) * 1000)
    const revision = typeof meta.trailers['Studio-Revision'] === 'number' ? meta.trailers['Studio-Revision'] : undefined
    const primary = typeof meta.trailers['Studio-Deck'] === 'string' ? `decks/${meta.trailers['Studio-Deck']}` : undefined
    // The bytes first: a change the log names always has its objects (put again should the sweep take one meanwhile).
    const seq = await withSweptRetry(this.pool, objects, async () => {
      await putObjects(objects)
      return this.transaction(async (client) => {
        // A deck a storage migration is moving takes writes only on the side its pointer names (read under
        // the record's lock: a cutover waits for this write, or this write sees the cutover).
        const moving = await client.query<{ id: string; direction: string; active: string; folders: string[] }>('select id, direction, active, folders from studio_migrations where finished_at is null for share')
        refuseMoved(moving.rows, byFolder.keys(), 'hosted')
        for (const folder of [...byFolder.keys()].sort()) {
          const { set, removed } = byFolder.get(folder)!
          const seen = point.folders?.get(folder)
          const answer =
            seen !== undefined
              ? await client.query('update studio_heads set files = (files || $2::jsonb) - $3::text[] where folder = $1 and seq = $4', [folder, JSON.stringify(set), removed, seen])
              : await client.query('insert into studio_heads (folder, seq, files) values ($1, 0, $2::jsonb) on conflict (folder) do nothing', [folder, JSON.stringify(set)])
          if (answer.rowCount !== 1) throw new HeadMoved(folder)
        }
        const { rows } = await client.query<{ seq: string }>('update studio_store set seq = seq + 1 where id = 1 returning seq')
        await refuseSwept(client, objects.keys())
        const seq = Number(rows[0].seq)
        await client.query('update studio_heads set seq = $1, updated_at = $3 where folder = any($2::text[])', [seq, [...byFolder.keys()], at])
        if (primary && revision !== undefined && byFolder.has(primary)) await client.query('update studio_heads set revision = $2 where folder = $1', [primary, revision])
        await client.query('insert into studio_changes (seq, at, subject, author, email, trailers, files) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)', [
          seq,
          at,
          meta.subject,
          meta.author,
          meta.email ?? null,
          JSON.stringify(meta.trailers),
          JSON.stringify(files),
        ])
        await client.query('select pg_notify($1, $2)', [CHANNEL, String(seq)])
        fault('hosted-in-commit')
        return seq
      })
    })
    // Accepted: the change is in the log. The replica takes it under the locks this write holds.
    this.claimed.add(seq)
    fault('hosted-after-commit')
    try {
      const { applyChanges } = await import('../store/transaction.js')
      await applyChanges(ws, keys, live, { ...meta, trailers: { ...meta.trailers, 'Studio-Seq': seq }, date: at })
    } catch (error) {
      this.broken = `change ${seq} is committed but could not be written to ${ws.root}: ${error instanceof Error ? error.message : String(error)}`
      throw error
    } finally {
      this.claimed.delete(seq)
    }
    this.markApplied(seq, byFolder.keys())
  }

  private transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn)
  }

  private markApplied(seq: number, folders: Iterable<string>): void {
    for (const folder of folders) if ((this.folders.get(folder) ?? 0) < seq) this.folders.set(folder, seq)
    if (seq <= this.applied) return
    this.done.add(seq)
    while (this.done.has(this.applied + 1)) this.done.delete(++this.applied)
  }

  /** One round at a time; a caller arriving during a round waits for the next, which starts after it asked. */
  private sync(): Promise<void> {
    if (this.syncing) {
      this.again = true
      return this.syncing
    }
    this.syncing = (async () => {
      try {
        do {
          this.again = false
          this.stale = false
          this.checkedAt = Date.now()
          await this.syncRound()
        } while (this.again && !this.closed)
      } catch (error) {
        this.stale = true
        throw error
      } finally {
        this.syncing = null
      }
    })()
    return this.syncing
  }

  private async syncRound(): Promise<void> {
    const { rows } = await this.pool.query<{ seq: string; state: string }>('select seq, (select coalesce(max(seq), 0) from studio_state) as state from studio_store where id = 1')
    const head = Number(rows[0].seq)
    if (Number(rows[0].state) > this.stateSeq) await this.syncState()
    this.cursor = Math.max(this.cursor, this.applied)
    while (this.cursor < head && !this.closed) {
      const page = await this.pool.query<ChangeRow>('select seq, at, subject, author, email, trailers, files from studio_changes where seq > $1 and seq <= $2 order by seq limit 200', [this.cursor, head])
      if (!page.rows.length) break
      for (const row of page.rows) {
        const seq = Number(row.seq)
        if (seq > this.applied && !this.done.has(seq) && !this.claimed.has(seq)) await this.applyRemote(seq, row)
        this.cursor = seq
      }
    }
  }

  /**
   * One deck's change log from a sequence number on (`studio deck pull` from a hosted studio: each change
   * becomes a commit of the checkout), at most `limit` changes, with the bytes of every file they write.
   */
  async changesOf(deckId: string, after: number, limit: number): Promise<{ changes: { seq: number; at: string; subject: string; author: string; email: string | null; trailers: Record<string, string | number>; files: Record<string, string | null> }[]; objects: Record<string, string>; next: number | null }> {
    const prefix = `decks/${deckId}/`
    const { rows } = await this.pool.query<ChangeRow>(
      'select seq, at, subject, author, email, trailers, files from studio_changes where seq > $1 and exists (select 1 from jsonb_object_keys(files) as k where left(k, length($2)) = $2) order by seq limit $3',
      [after, prefix, limit + 1],
    )
    const page = rows.slice(0, limit)
    const changes = page.map((row) => ({
      seq: Number(row.seq),
      at: new Date(row.at).toISOString(),
      subject: row.subject,
      author: row.author,
      email: row.email,
      trailers: row.trailers,
      // Only this deck's files: a change that also wrote another deck gives that deck nothing here.
      files: Object.fromEntries(Object.entries(row.files).filter(([rel]) => rel.startsWith(prefix))),
    }))
    const bytes = await getObjects(changes.flatMap((c) => Object.values(c.files).filter((sha): sha is string => typeof sha === 'string')))
    return { changes, objects: Object.fromEntries([...bytes].map(([sha, b]) => [sha, b.toString('base64')])), next: rows.length > limit ? changes.at(-1)!.seq : null }
  }

  /**
   * A deck new to the store, with its history (`studio deck push` from a checkout): every change appended
   * to the log in one transaction, after the final state has been checked whole as a bundle is (the
   * model's checks) and every object has been put. Nothing lands when anything is refused.
   */
  async appendHistory(deckId: string, changes: { at: string; subject: string; author: string; email: string | null; trailers: Record<string, string | number>; files: Record<string, string | null> }[], objects: Map<string, Buffer>): Promise<{ revision: number; seq: number }> {
    const folder = `decks/${deckId}`
    const final = new Map<string, string>()
    for (const change of changes) {
      for (const [rel, sha] of Object.entries(change.files)) {
        if (!rel.startsWith(`${folder}/`)) fail('invalid_input', `A change names ${rel.slice(0, 120)}, outside deck ${deckId}.`, { pointer: '/changes' })
        checkedRel(rel)
        if (sha === null) final.delete(rel)
        else {
          if (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha)) fail('invalid_input', `The digest of ${rel} is not a SHA-256.`, { pointer: '/changes' })
          final.set(rel, sha)
        }
      }
    }
    for (const [sha, bytes] of objects) if (sha256(bytes) !== sha) fail('invalid_input', `The bytes sent for ${sha} are not those of its digest.`, { pointer: '/objects' })
    const named = new Set(changes.flatMap((c) => Object.values(c.files).filter((sha): sha is string => typeof sha === 'string')))
    const missing = [...named].filter((sha) => !objects.has(sha))
    if (missing.length) fail('invalid_input', `${missing.length} digests the changes name have no bytes in objects (the first: ${missing[0]}).`, { pointer: '/objects' })
    // The deck the history ends with, checked as an unpacked bundle is.
    const [{ docOfBundle }, { documentIssues }] = await Promise.all([import('../actions/deck/bundle.js'), import('../model/check.js')])
    const doc = docOfBundle((rel) => objects.get(final.get(`${folder}/${rel}`)!)!, [...final.keys()].map((rel) => rel.slice(folder.length + 1)), () => undefined)
    if (doc.manifest.id !== deckId) fail('invalid_input', `The history ends with deck "${String(doc.manifest.id)}", not "${deckId}".`, { pointer: '/changes' })
    const [issue] = await documentIssues(doc, Object.keys(doc.slides))
    if (issue) fail('invalid_input', `The deck the history ends with would be invalid: ${issue.pointer} ${issue.message}.`, { pointer: issue.pointer })
    return withSweptRetry(this.pool, objects, async () => {
      await putObjects(objects)
      return this.transaction(async (client) => {
        const moving = await client.query<{ id: string; direction: string; active: string; folders: string[] }>('select id, direction, active, folders from studio_migrations where finished_at is null for share')
        refuseMoved(moving.rows, [folder], 'hosted')
        const made = await client.query("insert into studio_heads (folder, seq, files) values ($1, 0, '{}'::jsonb) on conflict (folder) do nothing", [folder])
        if (made.rowCount !== 1) {
          const { rows } = await client.query<{ n: string }>('select jsonb_object_keys(files) as n from studio_heads where folder = $1 limit 1', [folder])
          if (rows.length) fail('id_taken', `A deck "${deckId}" already exists on this studio.`)
        }
        let seq = 0
        let revision = 0
        for (const change of changes) {
          const { rows } = await client.query<{ seq: string }>('update studio_store set seq = seq + 1 where id = 1 returning seq')
          if (seq === 0) await refuseSwept(client, objects.keys())
          seq = Number(rows[0].seq)
          const set = Object.fromEntries(Object.entries(change.files).filter(([, sha]) => sha !== null))
          const removed = Object.entries(change.files).filter(([, sha]) => sha === null).map(([rel]) => rel)
          const trailerRevision = Number(change.trailers['Studio-Revision'])
          if (Number.isInteger(trailerRevision)) revision = trailerRevision
          await client.query('insert into studio_changes (seq, at, subject, author, email, trailers, files) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)', [seq, new Date(change.at), change.subject, change.author, change.email, JSON.stringify(change.trailers), JSON.stringify(change.files)])
          await client.query('update studio_heads set files = (files || $2::jsonb) - $3::text[], seq = $4, revision = $5, updated_at = now() where folder = $1', [folder, JSON.stringify(set), removed, seq, revision])
        }
        await client.query('select pg_notify($1, $2)', [CHANNEL, String(seq)])
        return { revision: Number((JSON.parse(objects.get(final.get(`${folder}/deck.json`)!)!.toString('utf8')) as { revision?: number }).revision ?? revision), seq }
      })
    })
  }

  /** Brings this instance's copies of the shared state files up to their rows. */
  private async syncState(): Promise<void> {
    const { rows } = await this.pool.query<{ name: string; body: string | null; seq: string }>('select name, body, seq from studio_state where seq > $1 order by seq', [this.stateSeq])
    for (const row of rows) {
      const seq = Number(row.seq)
      if (SHARED_STATE_FILES.has(row.name)) await this.writeStateCopy(row.name, row.body, seq)
      this.stateSeq = Math.max(this.stateSeq, seq)
    }
  }

  /** Writes this instance's copy of a shared state file, unless a newer one is written already (one at a time). */
  private writeStateCopy(name: string, body: string | null, seq: number): Promise<unknown> {
    this.stateWrites = this.stateWrites.then(async () => {
      if ((this.stateSeqs.get(name) ?? 0) >= seq) return
      this.stateSeqs.set(name, seq)
      await mkdir(this.ws.stateDir, { recursive: true })
      if (body === null) await rm(join(this.ws.stateDir, name), { force: true })
      else await (await import('write-file-atomic')).default(join(this.ws.stateDir, name), body)
    })
    return this.stateWrites
  }

  /**
   * Changes a shared state file (src/store/state-file.ts) for every instance: the row is read and written
   * in one transaction that holds it, then this instance's copy is written.
   */
  async updateShared<T>(name: string, change: (text: string | null) => StateChange<T>): Promise<T> {
    if (!SHARED_STATE_FILES.has(name)) throw new Error(`not a shared state file: ${name}`)
    const out = await this.transaction(async (client) => {
      await client.query('insert into studio_state (name, body, seq) values ($1, null, 0) on conflict (name) do nothing', [name])
      const { rows } = await client.query<{ body: string | null }>('select body from studio_state where name = $1 for update', [name])
      const result = change(rows[0].body)
      if (result.text === rows[0].body) return { ...result, seq: null }
      const next = await client.query<{ seq: string }>("select nextval('studio_state_seq') as seq")
      const seq = Number(next.rows[0].seq)
      await client.query('update studio_state set body = $2, seq = $3 where name = $1', [name, result.text, seq])
      await client.query('select pg_notify($1, $2)', [STATE_CHANNEL, name])
      return { ...result, seq }
    })
    if (out.seq !== null) await this.writeStateCopy(name, out.text, out.seq)
    return out.answer
  }

  /** Puts another instance's change into the replica: one commit, under the locks of the folders it changes. */
  private async applyRemote(seq: number, row: ChangeRow): Promise<void> {
    const entries = Object.entries(row.files ?? {}).map(([rel, sha]) => [checkedRel(rel), sha] as const)
    const objects = await getObjects(entries.flatMap(([, sha]) => (typeof sha === 'string' ? [sha] : [])))
    const folders = new Set(entries.map(([rel]) => folderOf(rel)))
    const keys = [...folders].flatMap((folder) => lockKeyOf(folder) ?? [])
    const trailers: Record<string, string | number> = {}
    for (const [key, value] of Object.entries(row.trailers ?? {})) {
      if (TRAILER_KEY.test(key) && (typeof value === 'number' || (typeof value === 'string' && !/[\r\n]/.test(value)))) trailers[key] = value
    }
    const { applyChanges } = await import('../store/transaction.js')
    await withLocks(join(this.ws.stateDir, 'locks'), keys, async () => {
      // This instance's own write may have put it in while this waited for the locks.
      if (seq <= this.applied || this.done.has(seq)) return
      // New files first, then each deck's manifest, then removals: a read beside the replay may see a file
      // its manifest does not list yet, never a manifest listing a slide whose file is not there yet.
      const rank = ([rel, sha]: readonly [string, string | null]) => (sha === null ? 2 : /\/deck\.json$/.test(rel) ? 1 : 0)
      const changes: FileChange[] = [...entries].sort((x, y) => rank(x) - rank(y)).map(([rel, sha]) => ({ rel, content: sha === null ? null : objects.get(sha)! }))
      await applyChanges(this.ws, keys, changes, {
        subject: String(row.subject).replace(/[\r\n]+/g, ' '),
        author: String(row.author),
        ...(row.email ? { email: String(row.email) } : {}),
        trailers: { ...trailers, 'Studio-Seq': seq },
        date: new Date(row.at),
      })
      this.markApplied(seq, folders)
      foreignCommit(this.ws, deckIdsOf(folders))
    })
  }

  /** LISTEN for commits of other instances; a lost connection is left to the poll (and tried again). */
  async listen(url: string): Promise<void> {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    client.on('error', () => {
      this.listener = undefined
      client.end().catch(() => undefined)
      if (!this.closed) setTimeout(() => void this.listen(url).catch(() => undefined), 1000).unref()
    })
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL) return this.channels.get(message.channel)?.(message.payload ?? '')
      if (Number(message.payload) > this.applied) {
        this.stale = true
        void this.sync().catch(() => undefined)
      }
    })
    this.listenUrl = url
    await client.connect()
    for (const channel of [CHANNEL, ...this.channels.keys()]) await client.query(`listen ${channel}`)
    this.listener = client
  }

  /** Calls `fn` with the payload of each notification on `channel` (a plain identifier), while this instance listens at all. */
  async subscribe(channel: string, fn: (payload: string) => void): Promise<void> {
    if (!/^[a-z_]{1,40}$/.test(channel)) throw new Error(`not a channel name: ${channel}`)
    this.channels.set(channel, fn)
    await this.listener?.query(`listen ${channel}`).catch(() => undefined)
  }

  /** Another instance changed something this one copies: the next refresh reads the store. */
  noteStale(): void {
    this.stale = true
    void this.sync().catch(() => undefined)
  }

  /** Whether this instance hears notifications (STUDIO_STORE_NOTIFY=0 turns them off; the polls remain). */
  get listening(): boolean {
    return this.listenUrl !== undefined
  }

  /**
   * Goes on from a replica an earlier run left (openHosted's `resumable`): every change up to `seq` is in
   * it, and a folder whose head is at most `seq` is held as of its head.
   */
  async resumeAt(seq: number): Promise<void> {
    this.applied = seq
    this.cursor = seq
    // A folder whose head is past `seq` gets its head from the replay that follows (markApplied).
    const { rows } = await this.pool.query<{ folder: string; seq: string }>('select folder, seq from studio_heads where seq <= $1', [seq])
    for (const row of rows) this.folders.set(row.folder, Number(row.seq))
  }

  startPolling(pollMs: number): void {
    this.poll = setInterval(() => void this.refresh(0).catch(() => undefined), pollMs)
    this.poll.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.poll) clearInterval(this.poll)
    await this.syncing?.catch(() => undefined)
    await this.listener?.end().catch(() => undefined)
    await this.pool.end().catch(() => undefined)
    ;(await import('./s3.js')).closeS3()
    if (this.ownsDir) await rm(this.ws.root, { recursive: true, force: true }).catch(() => undefined)
    await this.releaseCache?.().catch(() => undefined)
  }
}

/**
 * Holds STUDIO_CACHE_DIR for this process (proper-lockfile's `replica.lock` inside it, kept fresh; a holder
 * killed with SIGKILL lets go within ten seconds), or answers undefined while another live studio process
 * holds it: an instance or a command sharing the folder would otherwise throw away the other's replica
 * under it. The one holding it empties the folder and keeps its replica in `replica/`.
 */
async function holdCacheDir(cacheDir: string): Promise<(() => Promise<void>) | undefined> {
  await mkdir(cacheDir, { recursive: true })
  const { default: lockfile } = await import('proper-lockfile')
  try {
    return await lockfile.lock(cacheDir, {
      lockfilePath: join(cacheDir, 'replica.lock'),
      realpath: false,
      stale: 10_000,
      update: 3_000,
      retries: 0,
      // Taken over while this process stalled: the replica is a cache; writes are fenced in PostgreSQL.
      onCompromised: () => undefined,
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined
    throw error
  }
}

/** Runs `fn` in one transaction on a client of the pool: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const out = await fn(client)
    await client.query('commit')
    return out
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/** Creates the store's tables where they are missing. */
export async function ensureSchema(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
    for (const statement of [...SCHEMA, ...MIGRATION_TABLES]) await client.query(statement)
  })
}

/** The file in a replica's git folder that names the deployment (`studio_store.deployment`) it replays. */
const REPLICA_OF = 'studio-deployment'

/**
 * A replica an earlier run of this instance left in STUDIO_CACHE_DIR, where it can go on from where it
 * stopped instead of replaying the whole log: the same deployment's, clean (no write half done: no journal,
 * nothing uncommitted, no git lock), holding changes 1 to N and no other, and its change N the log's (same
 * subject and time: a database restored to an earlier point, or another one, is not followed). Undefined
 * otherwise, and the replica is rebuilt.
 */
async function resumable(pool: Pool, root: string, deployment: string): Promise<{ ws: Workspace; seq: number } | undefined> {
  try {
    if ((await readFile(join(root, '.git', REPLICA_OF), 'utf8')).trim() !== deployment) return undefined
    if ((await readdir(join(root, '.studio', 'journal')).catch(() => [])).length) return undefined
    const ws = new Workspace(root, root)
    if ((await ws.git.raw(['status', '--porcelain', '--untracked-files=all'])).trim()) return undefined
    // Every change is one commit of the replica, but not always in the log's order (an instance's own write
    // may land before another's earlier one is replayed): it goes on only from a replica holding exactly
    // changes 1 to N, N the highest it holds (the log's numbers have no gaps).
    let seq = 0
    let last: { subject: string; at: string } | undefined
    const seen = new Set<number>()
    for (const line of (await ws.git.raw(['log', '--format=%s%x00%at%x00%(trailers:key=Studio-Seq,valueonly,separator=)%x01'])).split('\x01')) {
      const [subject, at, seqText] = line.replace(/^\n/, '').split('\0')
      if (!seqText?.trim()) continue
      const n = Number(seqText.trim())
      if (!Number.isInteger(n) || n < 1 || seen.has(n)) return undefined
      seen.add(n)
      if (n > seq) [seq, last] = [n, { subject: subject!, at: at! }]
    }
    if (seen.size !== seq) return undefined
    if (!last) return { ws, seq: 0 }
    const { rows } = await pool.query<{ subject: string; at: Date }>('select subject, at from studio_changes where seq = $1', [seq])
    const row = rows[0]
    if (!row || String(row.subject).replace(/[\r\n]+/g, ' ') !== last.subject || Math.floor(new Date(row.at).getTime() / 1000) !== Number(last.at)) return undefined
    return { ws, seq }
  } catch {
    return undefined
  }
}

/** A workspace for the replica: git, decks/ and decks/templates/, studio.json, .studio/ ignored (as `studio init`). */
async function makeReplica(root: string, deployment: string): Promise<Workspace> {
  await mkdir(join(root, 'decks', 'templates'), { recursive: true })
  await writeFile(join(root, 'studio.json'), '{}\n')
  await writeFile(join(root, '.gitignore'), '.studio/\n')
  await writeFile(join(root, 'decks', 'templates', '.gitkeep'), '')
  const ws = new Workspace(root, root)
  await ws.git.raw(['init', '--quiet', '--initial-branch=main'])
  const paths = ['studio.json', '.gitignore', 'decks/templates/.gitkeep']
  await ws.git.commit({ paths, added: paths, subject: 'studio replica', author: 'studio', trailers: { 'Studio-Action': 'init' }, date: new Date(0) })
  await writeFile(join(root, '.git', REPLICA_OF), `${deployment}\n`)
  return ws
}

/**
 * Opens the hosted store: its tables, a replica rebuilt from the log, LISTEN and the poll. Returns the
 * replica's workspace, whose `store` is the hosted engine.
 */
export async function openHosted(options: HostedOptions): Promise<Workspace> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: options.url, max: Number(process.env.STUDIO_DATABASE_POOL) || 10 })
  pool.on('error', () => undefined)
  let releaseCache: (() => Promise<void>) | undefined
  try {
    await ensureSchema(pool)
    let root: string
    releaseCache = options.cacheDir ? await holdCacheDir(options.cacheDir) : undefined
    const { rows: stored } = await pool.query<{ deployment: string }>('select deployment from studio_store where id = 1')
    const deployment = stored[0].deployment
    let resumed: { ws: Workspace; seq: number } | undefined
    if (options.cacheDir && releaseCache) {
      root = join(options.cacheDir, 'replica')
      resumed = await resumable(pool, root, deployment)
      if (!resumed) {
        // Nothing to go on from: whatever an earlier run left is thrown away (the log is the truth), all but the lock.
        for (const name of await readdir(options.cacheDir)) if (name !== 'replica.lock') await rm(join(options.cacheDir, name), { recursive: true, force: true })
        await mkdir(root, { recursive: true })
      }
    } else root = await mkdtemp(join(tmpdir(), 'studio-hosted-'))
    const ws = resumed?.ws ?? (await makeReplica(root, deployment))
    const store = new HostedStore(pool, ws, !releaseCache, releaseCache)
    ws.store = store
    if (resumed) await store.resumeAt(resumed.seq)
    await store.refresh(0)
    await store.subscribe(STATE_CHANNEL, () => store.noteStale())
    if (options.notify !== false) await store.listen(options.url).catch(() => undefined)
    if (options.pollMs !== 0) store.startPolling(options.pollMs ?? 250)
    return ws
  } catch (error) {
    await pool.end().catch(() => undefined)
    await releaseCache?.().catch(() => undefined)
    throw error
  }
}

/** The hosted engine's settings from the environment; a clear error names what is missing. */
export function hostedOptionsFromEnv(): HostedOptions {
  const url = process.env.STUDIO_DATABASE_URL?.trim()
  if (!url) fail('invalid_input', 'The hosted store needs STUDIO_DATABASE_URL (a PostgreSQL URL) and STUDIO_S3_BUCKET (docs/hosting.md).')
  if (!process.env.STUDIO_S3_BUCKET?.trim()) fail('invalid_input', 'The hosted store needs STUDIO_S3_BUCKET (and STUDIO_S3_ENDPOINT for an S3-compatible server; docs/hosting.md).')
  const poll = Number(process.env.STUDIO_STORE_POLL_MS)
  return {
    url,
    ...(process.env.STUDIO_CACHE_DIR?.trim() ? { cacheDir: process.env.STUDIO_CACHE_DIR.trim() } : {}),
    notify: process.env.STUDIO_STORE_NOTIFY !== '0',
    ...(poll > 0 ? { pollMs: poll } : {}),
  }
}
