/**
 * The identity database: principals, sessions, API keys, sign-in links, passkeys, and each deck's
 * access record (owner, grants, links, requests). Deployment state, never deck content: it is not in
 * git and never in a bundle (docs/access.md).
 *
 * The query layer is Kysely (decision 016): typed queries and a schema builder over SQLite and
 * PostgreSQL alike, so the same queries and migrations run on the embedded default here and on
 * PostgreSQL in the hosted studio (issue 27). The embedded engine is better-sqlite3 on
 * `<workspace>/.studio/identity.db` (WAL, foreign keys on, a 5 s busy wait, the file readable by its
 * owner only). Opening runs the migrations under the workspace's `identity` lock, so two processes
 * opening a new workspace at once migrate it once.
 *
 * A workspace has accounts once this file exists (`studio serve --accounts`, or `admin.bootstrap`);
 * without it every caller owns every deck, as on any checkout (src/identity/auth.ts `accountsOn`).
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Kysely, Migrator, SqliteDialect, sql, type Transaction } from 'kysely'
import { withLocks } from '../store/lock.js'
import type { Workspace } from '../store/workspace.js'
import { MIGRATIONS } from './migrations.js'
import type { IdentityTables } from './schema.js'
import type { Pool } from 'pg'
import { accountsOn, databaseUrl } from './credentials.js'

export type IdentityDb = Kysely<IdentityTables>
export type IdentityTx = Transaction<IdentityTables> | Kysely<IdentityTables>

export interface Identity {
  readonly db: IdentityDb
  readonly engine: 'sqlite' | 'postgres'
  /**
   * Runs `fn` as one transaction that writes: on SQLite it begins IMMEDIATE (the write lock first, so
   * a read-then-write never fails half way on another process's commit; the busy wait queues it).
   */
  write<T>(fn: (tx: IdentityTx) => Promise<T>): Promise<T>
  /** On PostgreSQL, the pool under `db`: the rate limits count in its `rate_limits` table (src/identity/limits.ts). */
  readonly pool?: Pool
  close(): Promise<void>
}

export const identityFile = (ws: Workspace) => join(ws.stateDir, 'identity.db')

/** Whether the workspace has an identity database (accounts are on): STUDIO_DATABASE_URL, or the file. */
export function identityExists(ws: Workspace): boolean {
  return accountsOn(ws)
}

const open = new Map<string, Promise<Identity>>()

/**
 * The workspace's identity database, opened once per process and migrated to the newest schema;
 * created when `create` is true, else null where there is none.
 */
export async function identityOf(ws: Workspace, options: { create?: boolean } = {}): Promise<Identity | null> {
  const url = databaseUrl()
  if (url) return postgresIdentity(url)
  const path = identityFile(ws)
  const hit = open.get(path)
  if (hit) return hit
  if (!options.create && !existsSync(path)) return null
  const opening = openSqlite(ws, path)
  open.set(path, opening)
  opening.catch(() => open.delete(path))
  return opening
}

/** The deployment's identity database on PostgreSQL at `url` (STUDIO_DATABASE_URL), opened once per process. */
export function postgresIdentity(url: string): Promise<Identity> {
  const hit = open.get(url)
  if (hit) return hit
  const opening = openPostgres(url)
  open.set(url, opening)
  opening.catch(() => open.delete(url))
  return opening
}

async function openSqlite(ws: Workspace, path: string): Promise<Identity> {
  const { default: Database } = await import('better-sqlite3')
  mkdirSync(ws.stateDir, { recursive: true })
  const fresh = !existsSync(path)
  const sqlite = new Database(path)
  if (fresh) chmodSync(path, 0o600)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('synchronous = NORMAL')
  const db = new Kysely<IdentityTables>({ dialect: new SqliteDialect({ database: sqlite }) })
  await withLocks(ws.root, ['identity'], () => migrate(db))
  return {
    db,
    engine: 'sqlite',
    async write(fn) {
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn)
        try {
          const out = await fn(conn)
          await sql`commit`.execute(conn)
          return out
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => undefined)
          throw error
        }
      })
    },
    async close() {
      open.delete(path)
      await db.destroy()
    },
  }
}

/** A constant key for the advisory lock that orders identity writes on PostgreSQL (one per database). */
const WRITE_LOCK = 0x5354_5544 // "STUD"

/**
 * The identity database on PostgreSQL (STUDIO_DATABASE_URL; the hosted studio, issue 27): a pg pool
 * behind Kysely's PostgresDialect, the same migrations (Kysely's migrator holds PostgreSQL's advisory
 * lock while it runs them, so instances starting together migrate once). `write` runs one transaction
 * that first takes a transaction-scoped advisory lock, so identity writes queue as BEGIN IMMEDIATE
 * queues them on SQLite: a read-then-write (the share record's revision guard) sees every write before it.
 */
async function openPostgres(url: string): Promise<Identity> {
  const [{ default: pg }, { PostgresDialect }] = await Promise.all([import('pg'), import('kysely')])
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.STUDIO_DATABASE_POOL) || 10, allowExitOnIdle: true })
  // An idle client's error (the server restarted) must not end the process; the pool replaces the client.
  pool.on('error', () => undefined)
  const db = new Kysely<IdentityTables>({ dialect: new PostgresDialect({ pool }) })
  try {
    await migrate(db)
  } catch (error) {
    await db.destroy().catch(() => undefined)
    throw error
  }
  return {
    db,
    engine: 'postgres',
    pool,
    write(fn) {
      return db.transaction().execute(async (tx) => {
        await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(tx)
        return fn(tx)
      })
    },
    async close() {
      open.delete(url)
      await db.destroy()
    },
  }
}

/** Runs every migration not yet run; throws naming the one that failed. */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ ...MIGRATIONS }) } })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`The identity database could not be migrated${failed ? ` (${failed})` : ''}: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Closes every database this process opened (tests, and `studio serve` on shutdown). */
export async function closeIdentities(): Promise<void> {
  const all = [...open.values()]
  open.clear()
  await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()))
}
