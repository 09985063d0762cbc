/**
 * admin.migrateStorage (docs/hosting.md "Moving a workspace into the hosted store"): decks move between
 * layout v1 (a git workspace: files, one commit per write) and layout v2 (the hosted store: heads and
 * change log in PostgreSQL, `objects/sha256/<2>/<64>` in the bucket), with their whole history.
 *
 * One migration is open at a time, in `studio_migrations`; its plan (every change to move, oldest first,
 * each file's SHA-256) in `studio_migration_changes`. Each step runs one batch from the record's cursor
 * and answers `done` when nothing is left; the caller runs it again until then. Every step can be killed
 * at any point and run again:
 *
 * - into the hosted store, a batch puts its objects first, then appends its change rows, moves the
 *   heads (each by a conditional UPDATE from the head this migration last left, as HostedStore.commit
 *   does) and moves the cursor in one transaction: a kill leaves the batch either wholly in or wholly
 *   out, and objects no row names yet are harmless;
 * - into a workspace, each change is one commit through applyChanges (journal, fsync, repair) carrying
 *   `Studio-Migrated: <migration>/<phase>/<position>`; the cursor moves after the commit, and a run
 *   first moves it past the last such commit, so a kill between the two neither repeats nor skips one.
 *
 * The pointer is the record's `active` ('source' until cutover, 'target' after, 'source' again after a
 * rollback). Steps hold a session advisory lock for their whole run: two runners never interleave.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Pool, PoolClient } from 'pg'
import { fail, StudioError } from '../core/errors.js'
import { foreignCommit } from '../store/deck-cache.js'
import { fault } from '../store/fault.js'
import { withLocks } from '../store/lock.js'
import type { FileChange } from '../store/transaction.js'
import type { Workspace } from '../store/workspace.js'
import { CHANNEL, checkedRel, ensureSchema, folderOf, hostedOptionsFromEnv, inTransaction, lockKeyOf, TRAILER_KEY } from './deck-store.js'
import { changesOf, firstParentCommits, foldersMoved, gitOut, headCommit, readBlobs, sha256Of, treeFiles, type GitCommit } from './migrate-git.js'
import { getObjects, putObjects, refuseSwept, withSweptRetry } from './objects.js'

export type Step = 'plan' | 'copy' | 'verify' | 'cutover' | 'delete' | 'rollback'
export type Direction = 'hosted' | 'git'

const RUN_LOCK = 0x5354_4d47 // "STMG"

interface Counts {
  planned: number
  copied: number
  verified: number
  deleted: number
  restored: number
}

interface Verify {
  passed: boolean
  at: string
  afterCutover: boolean
  failures: string[]
}

interface MigrationRow {
  id: string
  direction: Direction
  workspace: string
  state: 'planning' | 'planned' | 'copied' | 'cutover' | 'deleting' | 'deleted' | 'rolling_back' | 'rolled_back'
  active: 'source' | 'target'
  head: string | null
  folders: string[]
  fences: Record<string, number>
  cursors: Record<string, number>
  total: number
  counts: Partial<Counts>
  verify: (Verify & { running?: string[] }) | null
  copied_at: Date | null
  cutover_at: Date | null
  finished_at: Date | null
}

/** A change to move: its files (path → SHA-256, or null for a removal) and, from git, each digest's blob. */
interface PlanChange {
  ref: string
  at: Date
  author: string
  email: string | null
  subject: string
  trailers: Record<string, string | number>
  files: Record<string, string | null>
  blobs: Record<string, string>
}

export interface StepResult {
  step: Step
  to: Direction
  migration: number
  state: string
  active: 'source' | 'target'
  cursor: string | null
  done: boolean
  counts: Counts
  verify: Verify | null
}

/** Trailers a copy does not carry over: each engine writes its own (the transaction id, the log's sequence, this migration's mark). */
const OWN_TRAILERS = new Set(['Studio-Tx', 'Studio-Seq', 'Studio-Migrated'])

/** A deck's or an organisation template's folder: what a migration moves. */
const isMovedFolder = (folder: string) => /^decks\/(?:templates\/)?[^/]+$/.test(folder) && folder !== 'decks/templates'

function cleanTrailers(trailers: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(trailers ?? {})) {
    if (OWN_TRAILERS.has(key) || !TRAILER_KEY.test(key)) continue
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value
    else if (typeof value === 'string' && !/[\r\n]/.test(value)) out[key] = key === 'Studio-Revision' && /^\d{1,9}$/.test(value) ? Number(value) : value
  }
  return out
}

/** A path from the workspace or the log, checked as HostedStore checks the log's (400 here: the workspace is the caller's). */
function safeRel(rel: string): string {
  try {
    return checkedRel(rel)
  } catch {
    fail('refused', `"${rel.slice(0, 120)}" is not a path the hosted store holds (decks/ and plain names of letters, digits, . _ @ + -); nothing was moved for it. Rename it in a commit of its own, then plan again.`)
  }
}

/** Runs one step of the open migration (or of a new one, for plan). */
export async function migrateStorage(ws: Workspace, step: Step, to: Direction, batch: number): Promise<StepResult> {
  if (ws.store?.engine === 'hosted') fail('refused', 'admin.migrateStorage runs from a checkout (a git workspace) with the hosted store\'s settings in its environment, not on a hosted instance (docs/hosting.md, "Moving a workspace into the hosted store").')
  const options = hostedOptionsFromEnv()
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: options.url, max: 3, allowExitOnIdle: true })
  pool.on('error', () => undefined)
  const runner = await pool.connect().catch((error: Error) => fail('storage', `The hosted store's database did not answer (${error.message}); nothing was done.`))
  try {
    // The store's tables, the migration's record and plan among them (MIGRATION_TABLES).
    await ensureSchema(pool)
    const { rows } = await runner.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [RUN_LOCK])
    if (!rows[0].ok) fail('workspace_busy', 'Another admin.migrateStorage step is running on this hosted store; nothing was done. Run this step again once it has answered.')
    const run = new Run(pool, ws, to, Math.max(1, Math.floor(batch)))
    return await run.step(step)
  } finally {
    await runner.query('select pg_advisory_unlock_all()').catch(() => undefined)
    runner.release()
    await pool.end().catch(() => undefined)
  }
}

class Run {
  private record!: MigrationRow

  constructor(
    private readonly pool: Pool,
    private readonly ws: Workspace,
    private readonly to: Direction,
    private readonly batch: number,
  ) {}

  private get id(): number {
    return Number(this.record.id)
  }

  async step(step: Step): Promise<StepResult> {
    const open = await this.load(step)
    if (!open) return this.answer(step, true)
    switch (step) {
      case 'plan':
        return this.plan()
      case 'copy':
        return this.copy()
      case 'verify':
        return this.verify()
      case 'cutover':
        return this.cutover()
      case 'delete':
        return this.delete()
      case 'rollback':
        return this.rollback()
    }
  }

  /** Finds the open migration (plan makes one); false when the step already finished a closed one (run twice). */
  private async load(step: Step): Promise<boolean> {
    const open = await this.pool.query<MigrationRow>('select * from studio_migrations where finished_at is null')
    let record = open.rows[0]
    if (!record) {
      const last = (await this.pool.query<MigrationRow>('select * from studio_migrations order by id desc limit 1')).rows[0]
      if (last && last.direction === this.to && ((step === 'delete' && last.state === 'deleted') || (step === 'rollback' && last.state === 'rolled_back'))) {
        this.record = last
        return false
      }
      if (step !== 'plan') fail('not_found', `No storage migration is open${last ? ` (the last one, ${last.id}, is ${last.state})` : ''}: start one with \`studio admin migrate-storage plan --to ${this.to}\`.`)
      record = await this.create()
    }
    if (record.direction !== this.to) fail('refused', `The open storage migration (${record.id}) moves decks to ${record.direction === 'hosted' ? 'the hosted store' : 'a git workspace'}, not --to ${this.to}; finish it (delete) or roll it back first.`)
    if (record.workspace !== this.ws.root) fail('refused', `The open storage migration (${record.id}) was planned from the workspace at ${record.workspace}; run its steps there (this is ${this.ws.root}).`)
    this.record = record
    return true
  }

  private async create(): Promise<MigrationRow> {
    let head: string
    if (this.to === 'hosted') {
      const commit = await headCommit(this.ws)
      if (!commit) fail('refused', 'This workspace has no commit yet: there is nothing to move.')
      head = commit
    } else {
      const { rows } = await this.pool.query<{ seq: string }>('select seq from studio_store where id = 1')
      head = rows[0].seq
    }
    const { rows } = await this.pool.query<MigrationRow>(`insert into studio_migrations (direction, workspace, state, head, cursors) values ($1, $2, 'planning', $3, '{"plan":0}'::jsonb) returning *`, [this.to, this.ws.root, head])
    return rows[0]
  }

  private counts(): Counts {
    const c = this.record.counts ?? {}
    return { planned: c.planned ?? 0, copied: c.copied ?? 0, verified: c.verified ?? 0, deleted: c.deleted ?? 0, restored: c.restored ?? 0 }
  }

  private answer(step: Step, done: boolean, cursor: string | null = null): StepResult {
    const verify = this.record.verify ? { passed: this.record.verify.passed, at: this.record.verify.at, afterCutover: this.record.verify.afterCutover, failures: this.record.verify.failures } : null
    return { step, to: this.to, migration: this.id, state: this.record.state, active: this.record.active, cursor: done ? null : cursor, done, counts: this.counts(), verify: verify?.at ? verify : null }
  }

  /** Runs `fn` in a transaction holding the record's row, then saves the record's changed members in it. */
  private async transaction<T>(fn: (client: PoolClient, record: MigrationRow) => Promise<T>): Promise<T> {
    const { out, record } = await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<MigrationRow>('select * from studio_migrations where id = $1 for update', [this.record.id])
      const record = rows[0]
      const out = await fn(client, record)
      await client.query(
        'update studio_migrations set state = $2, active = $3, folders = $4::jsonb, fences = $5::jsonb, cursors = $6::jsonb, total = $7, counts = $8::jsonb, verify = $9::jsonb, copied_at = $10, cutover_at = $11, finished_at = $12 where id = $1',
        [record.id, record.state, record.active, JSON.stringify(record.folders), JSON.stringify(record.fences), JSON.stringify(record.cursors), record.total, JSON.stringify(record.counts), record.verify ? JSON.stringify(record.verify) : null, record.copied_at, record.cutover_at, record.finished_at],
      )
      return { out, record }
    })
    this.record = record
    return out
  }

  private bump(record: MigrationRow, key: keyof Counts, by: number): void {
    record.counts = { ...record.counts, [key]: (record.counts?.[key] ?? 0) + by }
  }

  // ---------------------------------------------------------------- plan

  private async plan(): Promise<StepResult> {
    if (this.record.state !== 'planning') return this.answer('plan', true)
    return this.to === 'hosted' ? this.planFromGit() : this.planFromHosted()
  }

  /** Layout v1 → v2: every first-parent commit up to the planned head that touches a deck folder. */
  private async planFromGit(): Promise<StepResult> {
    const commits = await firstParentCommits(this.ws, this.record.head!)
    const from = this.record.cursors.plan ?? 0
    const page = commits.slice(from, from + this.batch)
    const changes = await this.changesFromCommits(page, () => true)
    fault('migrate-plan')
    await this.transaction(async (client, record) => {
      if ((record.cursors.plan ?? 0) !== from) return
      for (const change of changes) await insertPlanned(client, record, change)
      record.cursors = { ...record.cursors, plan: from + page.length }
      if (from + page.length >= commits.length) await this.finishPlan(client, record)
    })
    return this.answer('plan', this.record.state !== 'planning', `${this.record.cursors.plan}/${commits.length}`)
  }

  /** Layout v2 → v1: every change of the log up to the planned sequence that touches a live deck folder. */
  private async planFromHosted(): Promise<StepResult> {
    const head = Number(this.record.head)
    if (!this.record.folders.length && (this.record.cursors.plan ?? 0) === 0) {
      // The decks to move: every folder whose head holds files, as the store held them when the plan began.
      const { rows } = await this.pool.query<{ folder: string; seq: string }>("select folder, seq from studio_heads where files <> '{}'::jsonb and seq <= $1 order by folder", [head])
      const live = rows.filter((row) => isMovedFolder(row.folder))
      const here = live.filter((row) => existsSync(join(this.ws.root, row.folder)))
      if (here.length) fail('id_taken', `This workspace already has ${here.map((r) => r.folder).join(', ')}; nothing was planned. Move or remove them (a commit of their own), then plan again.`)
      if (!live.length) fail('refused', 'The hosted store holds no deck: there is nothing to move.')
      await this.transaction(async (_client, record) => {
        record.folders = live.map((row) => row.folder)
        record.fences = Object.fromEntries(live.map((row) => [row.folder, Number(row.seq)]))
      })
    }
    const folders = new Set(this.record.folders)
    const from = this.record.cursors.plan ?? 0
    const { rows } = await this.pool.query<{ seq: string; at: Date; subject: string; author: string; email: string | null; trailers: Record<string, unknown>; files: Record<string, string | null> }>(
      'select seq, at, subject, author, email, trailers, files from studio_changes where seq > $1 and seq <= $2 order by seq limit $3',
      [from, head, this.batch],
    )
    const changes: PlanChange[] = []
    for (const row of rows) {
      const files: Record<string, string | null> = {}
      for (const [rel, sha] of Object.entries(row.files ?? {})) {
        if (!folders.has(folderOf(safeRel(rel)))) continue
        if (sha !== null && !/^[0-9a-f]{64}$/.test(String(sha))) fail('internal', `Change ${row.seq} of the hosted store names "${String(sha).slice(0, 80)}", which is not an object digest; nothing was planned.`)
        files[rel] = sha
      }
      if (!Object.keys(files).length) continue
      changes.push({ ref: String(row.seq), at: new Date(row.at), author: String(row.author), email: row.email, subject: String(row.subject).replace(/[\r\n]+/g, ' '), trailers: cleanTrailers(row.trailers), files, blobs: {} })
    }
    const next = rows.length ? Number(rows[rows.length - 1].seq) : head
    fault('migrate-plan')
    await this.transaction(async (client, record) => {
      if ((record.cursors.plan ?? 0) !== from) return
      for (const change of changes) await insertPlanned(client, record, change)
      record.cursors = { ...record.cursors, plan: next }
      if (next >= head) await this.finishPlan(client, record)
    })
    return this.answer('plan', this.record.state !== 'planning', `${this.record.cursors.plan}/${head}`)
  }

  /** The plan is whole: its folders, and (into the hosted store) no deck there already. */
  private async finishPlan(client: PoolClient, record: MigrationRow): Promise<void> {
    if (record.direction === 'hosted') {
      const { rows } = await client.query<{ files: Record<string, string | null> }>('select files from studio_migration_changes where migration = $1', [record.id])
      const folders = [...new Set(rows.flatMap((row) => Object.keys(row.files).map(folderOf)))].sort()
      const { rows: heads } = await client.query<{ folder: string; seq: string; files: Record<string, string> }>('select folder, seq, files from studio_heads where folder = any($1::text[])', [folders])
      const taken = heads.filter((head) => Object.keys(head.files ?? {}).length > 0)
      if (taken.length) fail('id_taken', `The hosted store already holds ${taken.map((h) => h.folder).join(', ')}; nothing was moved. Remove them there, or roll this migration back.`)
      record.folders = folders
      // A folder whose deck left the hosted store earlier (an empty head) is written from its head.
      record.fences = Object.fromEntries(heads.map((head) => [head.folder, Number(head.seq)]))
    }
    record.state = 'planned'
    record.cursors = { ...record.cursors, copy: 0 }
  }

  /** Commits as planned changes (files under deck folders passing `keep`), each file's SHA-256 from its bytes. */
  private async changesFromCommits(commits: GitCommit[], keep: (folder: string) => boolean): Promise<PlanChange[]> {
    const out: PlanChange[] = []
    for (const commit of commits) {
      const changed = (await changesOf(this.ws, commit)).filter((change) => isMovedFolder(folderOf(change.rel)) && keep(folderOf(change.rel)))
      if (!changed.length) continue
      for (const change of changed) safeRel(change.rel)
      const bytes = await readBlobs(this.ws, changed.flatMap((c) => (c.oid ? [c.oid] : [])))
      const files: Record<string, string | null> = {}
      const blobs: Record<string, string> = {}
      for (const change of changed) {
        if (!change.oid) files[change.rel] = null
        else {
          const sha = sha256Of(bytes.get(change.oid)!)
          files[change.rel] = sha
          blobs[sha] = change.oid
        }
      }
      out.push({ ref: commit.hash, at: new Date(commit.at * 1000), author: commit.author, email: commit.email || null, subject: commit.subject, trailers: cleanTrailers(commit.trailers), files, blobs })
    }
    return out
  }

  // ---------------------------------------------------------------- copy

  private async copy(): Promise<StepResult> {
    if (this.record.state === 'planning') fail('refused', `Migration ${this.id} is still being planned: run plan until it answers done, then copy.`)
    if (this.record.state !== 'planned') return this.answer('copy', true)
    const from = this.record.cursors.copy ?? 0
    if (this.to === 'hosted') {
      const changes = await this.planned(from, this.batch)
      await this.intoHosted(changes, (record) => {
        record.cursors = { ...record.cursors, copy: from + changes.length }
        this.bump(record, 'copied', changes.length)
      }, from)
    } else {
      const done = await this.reconcile('copy')
      const at = Math.max(from, done)
      const changes = await this.planned(at, this.batch)
      await this.intoGit(changes.map((change, i) => ({ change, mark: `copy/${at + i}` })), async (i) => {
        await this.transaction(async (_client, record) => {
          record.cursors = { ...record.cursors, copy: Math.max(record.cursors.copy ?? 0, at + i + 1) }
          record.counts = { ...record.counts, copied: record.cursors.copy }
        })
      })
      if (at > from) await this.transaction(async (_client, record) => void (record.cursors = { ...record.cursors, copy: Math.max(record.cursors.copy ?? 0, at) }))
    }
    if ((this.record.cursors.copy ?? 0) >= this.record.total) {
      await this.transaction(async (_client, record) => {
        record.state = 'copied'
        record.copied_at = new Date()
        record.counts = { ...record.counts, copied: record.total }
      })
    }
    return this.answer('copy', this.record.state !== 'planned', `${this.record.cursors.copy ?? 0}/${this.record.total}`)
  }

  private async planned(from: number, count: number): Promise<PlanChange[]> {
    const { rows } = await this.pool.query<PlanChange & { n: number }>('select n, ref, at, author, email, subject, trailers, files, blobs from studio_migration_changes where migration = $1 and n >= $2 order by n limit $3', [this.record.id, from, count])
    return rows.map((row) => ({ ...row, at: new Date(row.at) }))
  }

  /**
   * Changes into the hosted store, as HostedStore.commit writes them: objects first, then in one
   * transaction each folder's head moved from the one this migration last left, the change rows, and
   * `after`'s cursor. `expect` is the cursor the batch was read at (a second runner's batch is not repeated).
   */
  private async intoHosted(changes: PlanChange[], after: (record: MigrationRow) => void, expect: number, cursorKey = 'copy'): Promise<void> {
    if (!changes.length) return
    const oids = changes.flatMap((change) => Object.values(change.blobs))
    const bytes = await readBlobs(this.ws, oids)
    const objects = new Map<string, Buffer>()
    for (const change of changes) {
      for (const [sha, oid] of Object.entries(change.blobs)) {
        const body = bytes.get(oid)!
        if (sha256Of(body) !== sha) fail('internal', `Blob ${oid} of the workspace no longer has the bytes its plan recorded; nothing was copied.`)
        objects.set(sha, body)
      }
    }
    await withSweptRetry(this.pool, objects, async () => {
      await putObjects(objects)
      fault('migrate-objects')
      let checked = false
      await this.transaction(async (client, record) => {
        if ((record.cursors[cursorKey] ?? 0) !== expect) return
        for (const change of changes) {
          const byFolder = new Map<string, { set: Record<string, string>; removed: string[] }>()
          for (const [rel, sha] of Object.entries(change.files)) {
            const folder = folderOf(safeRel(rel))
            const entry = byFolder.get(folder) ?? { set: {}, removed: [] }
            if (sha === null) entry.removed.push(rel)
            else entry.set[rel] = sha
            byFolder.set(folder, entry)
          }
          for (const folder of [...byFolder.keys()].sort()) {
            const { set, removed } = byFolder.get(folder)!
            const fence = record.fences[folder]
            const answer =
              fence !== undefined
                ? await client.query('update studio_heads set files = (files || $2::jsonb) - $3::text[] where folder = $1 and seq = $4', [folder, JSON.stringify(set), removed, fence])
                : await client.query('insert into studio_heads (folder, seq, files) values ($1, 0, $2::jsonb) on conflict (folder) do nothing', [folder, JSON.stringify(set)])
            if (answer.rowCount !== 1) fail('stale_revision', `${folder} changed in the hosted store while migration ${record.id} was writing it (another writer came first); nothing of this batch was written. Stop writing to it there, then run this step again (or roll back).`)
          }
          const { rows } = await client.query<{ seq: string }>('update studio_store set seq = seq + 1 where id = 1 returning seq')
          if (!checked) await refuseSwept(client, objects.keys())
          checked = true
          const seq = Number(rows[0].seq)
          await client.query('update studio_heads set seq = $1, updated_at = $3 where folder = any($2::text[])', [seq, [...byFolder.keys()], change.at])
          const revision = change.trailers['Studio-Revision']
          const primary = typeof change.trailers['Studio-Deck'] === 'string' ? `decks/${change.trailers['Studio-Deck']}` : undefined
          if (primary && typeof revision === 'number' && byFolder.has(primary)) await client.query('update studio_heads set revision = $2 where folder = $1', [primary, revision])
          await client.query('insert into studio_changes (seq, at, subject, author, email, trailers, files) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)', [seq, change.at, change.subject, change.author, change.email, JSON.stringify(change.trailers), JSON.stringify(change.files)])
          await client.query('select pg_notify($1, $2)', [CHANNEL, String(seq)])
          for (const folder of byFolder.keys()) record.fences = { ...record.fences, [folder]: seq }
        }
        after(record)
      })
    })
    fault('migrate-rows')
  }

  /**
   * The position after the last commit of this workspace marked `Studio-Migrated: <id>/<phase>/<k>`
   * (0 when none): a commit that landed before its run was killed is not made again.
   */
  private async reconcile(phase: string): Promise<number> {
    const mark = await this.lastMark(phase)
    return mark ? mark.k + 1 : 0
  }

  private async lastMark(phase: string): Promise<{ k: number; commit: string } | null> {
    const head = await headCommit(this.ws)
    if (!head) return null
    const text = await gitOut(this.ws, ['log', '-n', '1', '--format=%H %(trailers:key=Studio-Migrated,valueonly,separator=%x2C)', `--grep=^Studio-Migrated: ${this.id}/${phase}/`, head, '--'])
    const match = new RegExp(`^([0-9a-f]+) ${this.id}/${phase}/(\\d+)`).exec(text.trim())
    return match ? { commit: match[1], k: Number(match[2]) } : null
  }

  /** Changes into the workspace: one commit each (same author, time, subject and trailers), objects checked by digest. */
  private async intoGit(items: { change: PlanChange; mark: string }[], after: (i: number) => Promise<void>): Promise<void> {
    const { applyChanges } = await import('../store/transaction.js')
    const folders = new Set(this.record.folders)
    for (const [i, { change, mark }] of items.entries()) {
      const entries = Object.entries(change.files).filter(([rel]) => folders.has(folderOf(safeRel(rel))))
      const objects = await getObjects(entries.flatMap(([, sha]) => (sha ? [sha] : [])))
      const changes: FileChange[] = entries.map(([rel, sha]) => ({ rel, content: sha === null ? null : objects.get(sha)! }))
      const touched = [...new Set(entries.map(([rel]) => folderOf(rel)))]
      const keys = touched.flatMap((folder) => lockKeyOf(folder) ?? [])
      await withLocks(join(this.ws.stateDir, 'locks'), keys, async () => {
        await applyChanges(this.ws, keys, changes, {
          subject: change.subject,
          author: change.author,
          ...(change.email ? { email: change.email } : {}),
          trailers: { ...cleanTrailers(change.trailers), 'Studio-Migrated': `${this.id}/${mark}` },
          date: change.at,
        })
      })
      foreignCommit(this.ws, touched.filter((f) => !f.startsWith('decks/templates/')).map((f) => f.slice(6)))
      fault('migrate-commit')
      await after(i)
    }
  }

  // ---------------------------------------------------------------- verify

  /** The digests the plan names, in order. */
  private async objectList(): Promise<string[]> {
    const { rows } = await this.pool.query<{ sha: string }>("select distinct v.value #>> '{}' as sha from studio_migration_changes c, jsonb_each(c.files) v where c.migration = $1 and jsonb_typeof(v.value) = 'string' order by sha", [this.record.id])
    return rows.map((row) => row.sha)
  }

  private async verify(): Promise<StepResult> {
    if (!['copied', 'cutover'].includes(this.record.state)) fail('refused', `Migration ${this.id} is ${this.record.state}: verify runs once copy has answered done (and before delete).`)
    const objects = await this.objectList()
    const folders = this.record.folders
    const total = objects.length + folders.length
    const from = this.record.cursors.verify ?? 0
    const failures: string[] = from === 0 ? [] : [...(this.record.verify?.running ?? [])]
    let n = from
    const end = Math.min(total, from + this.batch)
    if (n < objects.length) {
      const shas = objects.slice(n, Math.min(end, objects.length))
      try {
        await getObjects(shas)
      } catch {
        for (const sha of shas) await getObjects([sha]).catch((error: Error) => failures.push(`object ${sha}: ${error instanceof StudioError ? error.message : error.name || error.message}`))
      }
      n += shas.length
    }
    if (n < end) {
      const page = folders.slice(n - objects.length, end - objects.length)
      failures.push(...(await this.compareFolders(page)))
      n += page.length
    }
    fault('migrate-verify')
    await this.transaction(async (_client, record) => {
      if ((record.cursors.verify ?? 0) !== from) return
      const finished = n >= total
      const previous = record.verify
      record.verify = finished
        ? { passed: failures.length === 0, at: new Date().toISOString(), afterCutover: record.state === 'cutover', failures: failures.slice(0, 20) }
        : { ...(previous ?? { passed: false, at: '', afterCutover: false, failures: [] }), running: failures.slice(0, 20) }
      record.cursors = { ...record.cursors, verify: finished ? 0 : n }
      record.counts = { ...record.counts, verified: n }
    })
    const done = (this.record.cursors.verify ?? 0) === 0
    return this.answer('verify', done, `${n}/${total}`)
  }

  /**
   * Each moved folder as the migration left it on both sides, file by file (SHA-256 of the bytes): the
   * workspace's tree and the hosted store's files. After cutover the target takes writes of its own,
   * so the target is read where this migration left it: into the hosted store, each folder's files at
   * the change this migration last wrote to it (its fence); into a workspace, the tree of the last commit
   * marked Studio-Migrated. The source takes none (the pointer refuses them), so it is read as it is.
   */
  private async compareFolders(folders: string[]): Promise<string[]> {
    const failures: string[] = []
    if (!folders.length) return failures
    const migrated = this.to === 'git' ? (await gitOut(this.ws, ['log', '-1', '--format=%H', `--grep=^Studio-Migrated: ${this.id}/`, 'HEAD', '--']).catch(() => '')).trim() : ''
    const head = migrated || (await headCommit(this.ws))
    const tree = head ? await treeFiles(this.ws, head, folders) : new Map<string, string>()
    const bytes = await readBlobs(this.ws, [...tree.values()])
    const { rows } = await this.pool.query<{ folder: string; files: Record<string, string>; seq: string }>('select folder, files, seq from studio_heads where folder = any($1::text[])', [folders])
    const heads = new Map(rows.map((row) => [row.folder, row.files ?? {}]))
    if (this.to === 'hosted') {
      for (const row of rows) {
        const fence = this.record.fences[row.folder]
        if (fence === undefined || Number(row.seq) === fence) continue
        // Changed on the hosted side since this migration wrote it: its files at the fence, from the log.
        const files: Record<string, string> = {}
        const log = await this.pool.query<{ files: Record<string, string | null> }>('select files from studio_changes where seq <= $1 and exists (select 1 from jsonb_object_keys(files) as k where left(k, length($2)) = $2) order by seq', [fence, `${row.folder}/`])
        for (const change of log.rows) for (const [rel, sha] of Object.entries(change.files)) if (folderOf(rel) === row.folder) {
          if (sha === null) delete files[rel]
          else files[rel] = sha
        }
        heads.set(row.folder, files)
      }
    }
    for (const folder of folders) {
      const stored = heads.get(folder) ?? {}
      const local = new Map([...tree].filter(([rel]) => folderOf(rel) === folder))
      for (const [rel, sha] of Object.entries(stored)) {
        const oid = local.get(rel)
        if (!oid) failures.push(`${rel}: in the hosted store, not in the workspace`)
        else if (sha256Of(bytes.get(oid)!) !== sha) failures.push(`${rel}: the hosted store's bytes differ from the workspace's`)
      }
      for (const rel of local.keys()) if (!(rel in stored)) failures.push(`${rel}: in the workspace, not in the hosted store`)
    }
    return failures
  }

  // ---------------------------------------------------------------- cutover, delete

  private async cutover(): Promise<StepResult> {
    if (['cutover', 'deleting', 'deleted'].includes(this.record.state)) return this.answer('cutover', true)
    if (this.record.state !== 'copied') fail('refused', `Migration ${this.id} is ${this.record.state}: cutover needs copy to have answered done, then a verify that passed.`)
    const verify = this.record.verify
    if (!verify?.passed || !this.record.copied_at || new Date(verify.at) < this.record.copied_at) fail('refused', `Migration ${this.id} has no passing verify since its copy${verify && !verify.passed ? ` (the last one found ${verify.failures.length} difference(s): ${verify.failures.slice(0, 3).join('; ')})` : ''}: run verify until it answers done with passed true, then cutover.`)
    fault('migrate-cutover')
    await this.transaction(async (_client, record) => {
      record.state = 'cutover'
      record.active = 'target'
      record.cutover_at = new Date()
    })
    return this.answer('cutover', true)
  }

  private async delete(): Promise<StepResult> {
    const record = this.record
    const verify = record.verify
    const verifiedAfter = verify?.passed && record.cutover_at && new Date(verify.at) > record.cutover_at
    if (!['cutover', 'deleting'].includes(record.state) || !verifiedAfter) {
      fail(
        'refused',
        `Migration ${this.id} is ${record.state}${record.state === 'cutover' ? ' with no passing verify since its cutover' : ''}: delete removes the moved decks from ${this.to === 'hosted' ? 'this workspace' : 'the hosted store'} only after cutover and a verify that passed after it. Nothing was deleted. Run \`studio admin migrate-storage verify --to ${this.to}\` until it answers done with passed true, then delete.`,
      )
    }
    const from = record.cursors.delete ?? 0
    const folders = record.folders.slice(from, from + this.batch)
    if (record.state === 'cutover') {
      await this.refuseSourceMoved('delete')
      await this.transaction(async (_c, r) => void (r.state = 'deleting'))
    }
    if (this.to === 'hosted') {
      for (const [i, folder] of folders.entries()) {
        await this.removeFromGit(folder, `Storage migration ${this.id}: ${folder} moved to the hosted store`)
        await this.transaction(async (_client, r) => {
          r.cursors = { ...r.cursors, delete: Math.max(r.cursors.delete ?? 0, from + i + 1) }
          r.counts = { ...r.counts, deleted: r.cursors.delete }
        })
      }
    } else {
      for (const [i, folder] of folders.entries()) {
        await this.removeFromHosted(folder, record.fences[folder], `Storage migration ${this.id}: ${folder} moved to a git workspace`, (r) => {
          r.cursors = { ...r.cursors, delete: from + i + 1 }
          r.counts = { ...r.counts, deleted: from + i + 1 }
        }, 'delete', from + i)
      }
    }
    if ((this.record.cursors.delete ?? 0) >= this.record.folders.length) {
      await this.transaction(async (_client, r) => {
        r.state = 'deleted'
        r.finished_at = new Date()
      })
    }
    return this.answer('delete', this.record.state === 'deleted', `${this.record.cursors.delete ?? 0}/${this.record.folders.length}`)
  }

  /** Refuses when the source changed a moved deck since the plan: that write would be lost. */
  private async refuseSourceMoved(what: string): Promise<void> {
    if (this.to === 'hosted') {
      const head = await headCommit(this.ws)
      if (head && (await foldersMoved(this.ws, this.record.head!, head, this.record.folders))) fail('refused', `A moved deck changed in this workspace since migration ${this.id} was planned; ${what} would lose that write, so nothing was done. Roll the migration back and plan again.`)
    } else {
      const { rows } = await this.pool.query<{ folder: string; seq: string }>('select folder, seq from studio_heads where folder = any($1::text[])', [this.record.folders])
      const moved = rows.filter((row) => Number(row.seq) !== this.record.fences[row.folder])
      if (moved.length) fail('refused', `${moved.map((r) => r.folder).join(', ')} changed in the hosted store since migration ${this.id} was planned; ${what} would lose that write, so nothing was done.`)
    }
  }

  /** Removes a folder from the workspace in one commit (nothing when it is already gone: run twice). */
  private async removeFromGit(folder: string, subject: string): Promise<void> {
    const head = await headCommit(this.ws)
    const files = head ? [...(await treeFiles(this.ws, head, [folder])).keys()] : []
    if (!files.length) return
    const { applyChanges } = await import('../store/transaction.js')
    const keys = lockKeyOf(folder) ? [lockKeyOf(folder)!] : []
    await withLocks(join(this.ws.stateDir, 'locks'), keys, () =>
      applyChanges(this.ws, keys, files.map((rel) => ({ rel, content: null })), { subject, author: 'Deck Studio', email: 'studio@studio.invalid', trailers: { 'Studio-Action': 'admin.migrateStorage', 'Studio-Migration': this.id } }),
    )
    foreignCommit(this.ws, folder.startsWith('decks/templates/') ? [] : [folder.slice(6)])
    fault('migrate-delete')
  }

  /** Empties a folder's head in the hosted store with one change (every file removed), fenced by `expected`. */
  private async removeFromHosted(folder: string, expected: number | undefined, subject: string, after: (record: MigrationRow) => void, cursorKey: string, expect: number): Promise<void> {
    await this.transaction(async (client, record) => {
      if ((record.cursors[cursorKey] ?? 0) !== expect) return
      const { rows } = await client.query<{ seq: string; files: Record<string, string> }>('select seq, files from studio_heads where folder = $1 for update', [folder])
      const head = rows[0]
      if (head && Object.keys(head.files ?? {}).length) {
        if (expected !== undefined && Number(head.seq) !== expected) fail('refused', `${folder} changed in the hosted store since this migration last wrote or read it; nothing was removed. Run rollback (which brings that change back) or stop writing there.`)
        const { rows: next } = await client.query<{ seq: string }>('update studio_store set seq = seq + 1 where id = 1 returning seq')
        const seq = Number(next[0].seq)
        const at = new Date(Math.floor(Date.now() / 1000) * 1000)
        await client.query("update studio_heads set files = '{}'::jsonb, seq = $2, updated_at = $3 where folder = $1", [folder, seq, at])
        const files = Object.fromEntries(Object.keys(head.files).map((rel) => [rel, null]))
        const deck = folder.split('/').length === 2 ? { 'Studio-Deck': folder.slice(6) } : {}
        await client.query('insert into studio_changes (seq, at, subject, author, email, trailers, files) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)', [seq, at, subject, 'Deck Studio', 'studio@studio.invalid', JSON.stringify({ 'Studio-Action': 'admin.migrateStorage', ...deck, 'Studio-Migration': this.id }), JSON.stringify(files)])
        await client.query('select pg_notify($1, $2)', [CHANNEL, String(seq)])
        record.fences = { ...record.fences, [folder]: seq }
      }
      after(record)
    })
    fault('migrate-delete')
  }

  // ---------------------------------------------------------------- rollback

  /**
   * Back to the source, losing nothing: changes the target took since this migration wrote it are
   * brought back to the source (phase `back`), the target's copy is removed (phase `clear`), the
   * pointer flips back. Refused once delete has begun, and when both sides changed a moved deck.
   */
  private async rollback(): Promise<StepResult> {
    const record = this.record
    if (['deleting', 'deleted'].includes(record.state)) fail('refused', `Migration ${this.id} is ${record.state}: its source copy is being removed, so it can no longer be rolled back. Run delete until it answers done.`)
    if (record.state === 'planning' || (record.state === 'planned' && !(record.cursors.copy ?? 0))) {
      // Nothing was written to the target yet.
      await this.transaction(async (_c, r) => {
        r.state = 'rolled_back'
        r.active = 'source'
        r.finished_at = new Date()
      })
      return this.answer('rollback', true)
    }
    if (record.state !== 'rolling_back') {
      await this.transaction(async (_c, r) => {
        r.state = 'rolling_back'
        r.cursors = { ...r.cursors, back: this.to === 'hosted' ? Math.min(...Object.values(r.fences), Number.MAX_SAFE_INTEGER) : 0, clear: 0, clearing: 0 }
      })
    }
    if (!this.record.cursors.clearing && !(await this.bringBack())) return this.answer('rollback', false, `back:${this.record.cursors.back}`)
    const from = this.record.cursors.clear ?? 0
    const folders = this.record.folders.slice(from, from + this.batch)
    for (const [i, folder] of folders.entries()) {
      if (this.to === 'hosted') {
        await this.removeFromHosted(folder, undefined, `Storage migration ${this.id} rolled back: ${folder} stays in the git workspace`, (r) => void (r.cursors = { ...r.cursors, clear: from + i + 1 }), 'clear', from + i)
      } else {
        await this.removeFromGit(folder, `Storage migration ${this.id} rolled back: ${folder} stays in the hosted store`)
        await this.transaction(async (_c, r) => void (r.cursors = { ...r.cursors, clear: Math.max(r.cursors.clear ?? 0, from + i + 1) }))
      }
    }
    if ((this.record.cursors.clear ?? 0) >= this.record.folders.length) {
      await this.transaction(async (_c, r) => {
        r.state = 'rolled_back'
        r.active = 'source'
        r.finished_at = new Date()
      })
    }
    return this.answer('rollback', this.record.state === 'rolled_back', `clear:${this.record.cursors.clear ?? 0}/${this.record.folders.length}`)
  }

  /** One batch of the target's own changes back into the source; true when none is left. */
  private async bringBack(): Promise<boolean> {
    const folders = new Set(this.record.folders)
    if (this.to === 'hosted') {
      // Hosted changes to a moved deck after this migration's own last write to it, into the workspace.
      const mark = await this.lastMark('back')
      const from = Math.max(this.record.cursors.back ?? 0, mark?.k ?? 0)
      const { rows } = await this.pool.query<{ seq: string; at: Date; subject: string; author: string; email: string | null; trailers: Record<string, unknown>; files: Record<string, string | null> }>(
        'select seq, at, subject, author, email, trailers, files from studio_changes where seq > $1 order by seq limit $2',
        [from, this.batch],
      )
      const items: { change: PlanChange; mark: string; seq: number }[] = []
      for (const row of rows) {
        const seq = Number(row.seq)
        const files: Record<string, string | null> = {}
        for (const [rel, sha] of Object.entries(row.files ?? {})) {
          const folder = folderOf(safeRel(rel))
          if (folders.has(folder) && seq > (this.record.fences[folder] ?? 0) && (sha === null || /^[0-9a-f]{64}$/.test(String(sha)))) files[rel] = sha
        }
        if (Object.keys(files).length) items.push({ seq, mark: `back/${seq}`, change: { ref: row.seq, at: new Date(row.at), author: String(row.author), email: row.email, subject: String(row.subject).replace(/[\r\n]+/g, ' '), trailers: cleanTrailers(row.trailers), files, blobs: {} } })
      }
      const head = await headCommit(this.ws)
      if (items.length && head && (await foldersMoved(this.ws, mark?.commit ?? this.record.head!, head, [...new Set(items.flatMap((item) => Object.keys(item.change.files).map(folderOf)))]))) {
        fail('refused', `A moved deck changed both in this workspace and in the hosted store since migration ${this.id} copied it; rollback would have to merge them, so nothing was done. Keep one side's changes (revert the workspace's commits to that deck), then roll back again.`)
      }
      await this.intoGit(items, async (i) => {
        await this.transaction(async (_c, r) => {
          r.cursors = { ...r.cursors, back: Math.max(r.cursors.back ?? 0, items[i].seq) }
          this.bump(r, 'restored', 1)
        })
      })
      const last = rows.length ? Number(rows[rows.length - 1].seq) : from
      if (last > (this.record.cursors.back ?? 0)) await this.transaction(async (_c, r) => void (r.cursors = { ...r.cursors, back: Math.max(r.cursors.back ?? 0, last) }))
      if (rows.length) return false
    } else {
      // Workspace commits to a moved deck after this migration's last copied one, into the hosted store.
      const mark = await this.lastMark('copy')
      const head = await headCommit(this.ws)
      if (mark && head) {
        const commits = await firstParentCommits(this.ws, head)
        const after = commits.slice(commits.findIndex((c) => c.hash === mark.commit) + 1)
        const from = this.record.cursors.back ?? 0
        const page = after.slice(from, from + this.batch)
        const changes = await this.changesFromCommits(page, (folder) => folders.has(folder))
        if (page.length) {
          if (changes.length) {
            await this.intoHosted(changes, (r) => {
              r.cursors = { ...r.cursors, back: from + page.length }
              this.bump(r, 'restored', changes.length)
            }, from, 'back')
          } else await this.transaction(async (_c, r) => void (r.cursors = { ...r.cursors, back: from + page.length }))
          return false
        }
      }
    }
    await this.transaction(async (_c, r) => void (r.cursors = { ...r.cursors, clearing: 1 }))
    return true
  }
}

async function insertPlanned(client: PoolClient, record: MigrationRow, change: PlanChange): Promise<void> {
  await client.query('insert into studio_migration_changes (migration, n, ref, at, author, email, subject, trailers, files, blobs) values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb)', [
    record.id,
    record.total,
    change.ref,
    change.at,
    change.author,
    change.email,
    change.subject,
    JSON.stringify(change.trailers),
    JSON.stringify(change.files),
    JSON.stringify(change.blobs),
  ])
  record.total += 1
  record.counts = { ...record.counts, planned: record.total }
}
