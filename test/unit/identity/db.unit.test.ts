/**
 * The identity database (src/identity/db.ts, migrations.ts) and its secrets (secrets.ts), on each engine:
 * real SQLite files in temp workspaces, and a throw-away PostgreSQL cluster (test/helpers/postgres.ts)
 * selected by STUDIO_DATABASE_URL, a fresh database per test: a new database migrates to the newest schema, a second opening runs nothing,
 * two processes opening one new database at once migrate it once, the file is its owner's only, a write
 * transaction that throws leaves nothing; a secret's prefix, length and checksum are checked before any
 * lookup, and only its hash is what a row keeps. On both: 20 parallel guarded access writes from one
 * baseRevision admit exactly one.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import Database from 'better-sqlite3'
import { closeIdentities, identityExists, identityFile, identityOf, migrate } from '../../../src/identity/db.js'
import { MIGRATIONS } from '../../../src/identity/migrations.js'
import { hashOf, kindOf, mintSecret, newId, wellFormed } from '../../../src/identity/secrets.js'
import { Workspace } from '../../../src/store/workspace.js'
import { createAccessRecord, writeAccess } from '../../../src/identity/access-record.js'
import { POSTGRES_MISSING, postgresBin, startPostgres, type Cluster } from '../../helpers/postgres.js'
import { skipUnlessPresent } from '../../helpers/system.js'

const dirs: string[] = []
after(async () => {
  await closeIdentities()
  delete process.env.STUDIO_DATABASE_URL
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function workspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'studio-identity-'))
  dirs.push(root)
  mkdirSync(join(root, 'decks'))
  return new Workspace(root, root)
}

const person = (id: string, email: string) => ({ id, kind: 'person' as const, email, name: null, name_skeleton: null, avatar: null, trust: 'verified' as const, is_admin: 0, created_at: '2026-01-01T00:00:00.000Z', last_seen_at: null })
const UNIQUE = /UNIQUE|duplicate key/

for (const engine of ['sqlite', 'postgres'] as const) {
  const bin = postgresBin()
  describe(`identity database (${engine})`, { skip: engine === 'postgres' ? skipUnlessPresent(bin, POSTGRES_MISSING) : false }, () => {
    let cluster: Cluster | undefined
    before(async () => {
      if (engine === 'postgres') cluster = await startPostgres()
    })
    after(async () => {
      await closeIdentities()
      delete process.env.STUDIO_DATABASE_URL
      await cluster?.stop()
    })

    /** A temp workspace; on PostgreSQL, STUDIO_DATABASE_URL names a new empty database. */
    async function fresh(): Promise<{ ws: Workspace; url?: string }> {
      const ws = workspace()
      if (!cluster) {
        delete process.env.STUDIO_DATABASE_URL
        return { ws }
      }
      const url = await cluster.freshDatabase()
      process.env.STUDIO_DATABASE_URL = url
      return { ws, url }
    }

    /** The names kysely_migration holds, read past the code under test. */
    async function migrationsRan(ws: Workspace, url?: string): Promise<string[]> {
      if (!url) {
        const check = new Database(identityFile(ws), { readonly: true })
        const ran = check.prepare('select name from kysely_migration order by name').all() as { name: string }[]
        check.close()
        return ran.map((r) => r.name)
      }
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name')
      await client.end()
      return rows.map((r) => r.name)
    }

    it('is absent until asked for (SQLite) or on with the URL (PostgreSQL), then made with every table', async () => {
      const { ws, url } = await fresh()
      if (!url) {
        assert.equal(await identityOf(ws), null)
        assert.equal(identityExists(ws), false)
      }
      const identity = await identityOf(ws, { create: !url })
      assert.ok(identity)
      assert.equal(identity.engine, engine)
      assert.equal(identityExists(ws), true)
      if (!url) assert.equal(statSync(identityFile(ws)).mode & 0o077, 0, 'no one but the owner reads the identity database')
      else assert.equal(identityExists(workspace()), true, 'with the URL set, every workspace has accounts')
      const tables = (await identity.db.introspection.getTables()).map((t) => t.name).sort()
      for (const name of ['principals', 'sessions', 'api_keys', 'magic_links', 'passkeys', 'challenges', 'deck_access', 'grants', 'links', 'access_requests']) assert.ok(tables.includes(name), `table ${name}`)
      assert.equal(await identityOf(ws), identity, 'one opening per process')
    })

    it('runs each migration once: a second run has nothing to do', async () => {
      const { ws, url } = await fresh()
      let db: Kysely<any>
      if (url) {
        const { default: pg } = await import('pg')
        db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) })
      } else {
        db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(join(ws.stateDir + '-plain.db')) }) })
      }
      assert.deepEqual(await migrate(db), Object.keys(MIGRATIONS))
      assert.deepEqual(await migrate(db), [])
      await db.destroy()
    })

    it('two processes opening one new database at once migrate it once', async () => {
      const { ws, url } = await fresh()
      const script = `
        import { identityOf, closeIdentities } from ${JSON.stringify(new URL('../../../src/identity/db.ts', import.meta.url).pathname)}
        import { Workspace } from ${JSON.stringify(new URL('../../../src/store/workspace.ts', import.meta.url).pathname)}
        const id = await identityOf(new Workspace(${JSON.stringify(ws.root)}, ${JSON.stringify(ws.root)}), { create: true })
        const rows = await id.db.selectFrom('principals').select('id').execute()
        process.stdout.write(String(rows.length))
        await closeIdentities()
      `
      const run = () =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } })
          let out = ''
          let err = ''
          child.stdout.on('data', (d) => (out += d))
          child.stderr.on('data', (d) => (err += d))
          child.on('close', (code) => resolve({ code, out, err }))
        })
      const results = await Promise.all([run(), run(), run()])
      for (const r of results) assert.equal(r.code, 0, r.err)
      assert.deepEqual(await migrationsRan(ws, url), Object.keys(MIGRATIONS))
    })

    it('two pools opening one new PostgreSQL database at the same moment migrate it once', { skip: engine === 'sqlite' && 'the two-process test covers SQLite' }, async () => {
      const { ws, url } = await fresh()
      // Two URLs naming one database: two openings, two pools, racing in one process.
      const openings = ['a', 'b', 'c', 'd'].map((name) => {
        process.env.STUDIO_DATABASE_URL = `${url}?application_name=${name}`
        return identityOf(ws)
      })
      const identities = await Promise.all(openings)
      assert.equal(new Set(identities).size, 4, 'four pools')
      assert.deepEqual(await migrationsRan(ws, url), Object.keys(MIGRATIONS))
    })

    it('a dropped PostgreSQL connection is reported, never fatal: the next query opens a new one', { skip: engine === 'sqlite' && 'PostgreSQL only' }, async () => {
      const { ws, url } = await fresh()
      const identity = (await identityOf(ws))!
      await Promise.all(Array.from({ length: 3 }, () => identity.db.selectFrom('principals').select('id').execute()))
      const { default: pg } = await import('pg')
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      // Every other session on this database ends, as when the server restarts under an idle pool.
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
      assert.ok(rowCount! > 0, 'the pool had idle sessions to lose')
      // Until those sessions are gone (each sent its goodbye before it went), then a moment for the
      // pool's sockets to read it.
      const others = "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
      while ((await admin.query<{ n: number }>(others)).rows[0].n > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      await admin.end()
      await new Promise((resolve) => setTimeout(resolve, 100))
      await identity.write((tx) => tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute())
      assert.equal((await identity.db.selectFrom('principals').select('id').execute()).length, 1)
    })

    it('a write transaction that throws leaves nothing behind; the unique address holds', async () => {
      const { ws, url } = await fresh()
      const identity = (await identityOf(ws, { create: !url }))!
      await assert.rejects(
        identity.write(async (tx) => {
          await tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute()
          throw new Error('half way')
        }),
        /half way/,
      )
      assert.equal((await identity.db.selectFrom('principals').select('id').execute()).length, 0)
      await identity.write((tx) => tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute())
      await assert.rejects(identity.write((tx) => tx.insertInto('principals').values(person('p_b', 'ana@example.com')).execute()), UNIQUE)
    })

    it('one pending access request per deck and requester', async () => {
      const { ws, url } = await fresh()
      const identity = (await identityOf(ws, { create: !url }))!
      await identity.write((tx) => tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute())
      const request = (id: string, status: 'pending' | 'declined') => ({ id, deck_id: 'd', requester_id: 'p_a', email: null, role: 'viewer' as const, message: null, created_at: '2026-01-01T00:00:00.000Z', status, answered_at: null, answered_by: null, granted_role: null })
      await identity.write((tx) => tx.insertInto('access_requests').values(request('r1', 'declined')).execute())
      await identity.write((tx) => tx.insertInto('access_requests').values(request('r2', 'pending')).execute())
      await assert.rejects(identity.write((tx) => tx.insertInto('access_requests').values(request('r3', 'pending')).execute()), UNIQUE)
    })

    it('20 parallel guarded access writes from one baseRevision: exactly one is accepted, only its change lands', async () => {
      const { ws, url } = await fresh()
      const identity = (await identityOf(ws, { create: !url }))!
      await identity.write(async (tx) => {
        await tx.insertInto('principals').values(person('p_o', 'olga@example.com')).execute()
        await createAccessRecord(tx, 'deck', 'p_o')
      })
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          writeAccess(identity, 'deck', 0, () => null, (tx) =>
            tx.insertInto('grants').values({ id: `g${i}`, deck_id: 'deck', principal_id: null, email: `p${i}@example.com`, role: 'viewer', expires_at: null, created_at: '2026-01-01T00:00:00.000Z', created_by: 'p_o' }).execute(),
          ),
        ),
      )
      const accepted = outcomes.filter((o) => o.status === 'fulfilled')
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      assert.equal(accepted.length, 1, `exactly one accepted: ${refused.map((r) => String(r.reason)).slice(0, 2).join('; ')}`)
      for (const r of refused) assert.match(String(r.reason?.message ?? r.reason), /stale/)
      const row = await identity.db.selectFrom('deck_access').select('revision').where('deck_id', '=', 'deck').executeTakeFirstOrThrow()
      assert.equal(Number(row.revision), 1)
      assert.equal((await identity.db.selectFrom('grants').select('id').execute()).length, 1)
    })

    it('writes queue one after another: 20 parallel read-then-write transactions each see the one before', async () => {
      const { ws, url } = await fresh()
      const identity = (await identityOf(ws, { create: !url }))!
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          identity.write(async (tx) => {
            const rows = await tx.selectFrom('principals').select('id').execute()
            await new Promise((resolve) => setImmediate(resolve))
            await tx.insertInto('principals').values(person(`p_${rows.length}`, `p${rows.length}@example.com`)).execute()
          }),
        ),
      )
      const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      assert.equal(failed.length, 0, failed.map((f) => String(f.reason)).slice(0, 2).join('; '))
      assert.equal((await identity.db.selectFrom('principals').select('id').execute()).length, 20)
    })
  })
}

describe('secrets', () => {
  it('carry their kind, a fixed length and a checksum; a changed character is refused before any lookup', () => {
    for (const kind of ['key', 'session', 'link', 'magic', 'anonymous'] as const) {
      const { secret, hash, hint } = mintSecret(kind)
      assert.equal(kindOf(secret), kind)
      assert.ok(wellFormed(secret, kind))
      assert.equal(hash, hashOf(secret))
      assert.match(hash, /^[0-9a-f]{64}$/)
      assert.ok(!hash.includes(secret) && !hint.includes(secret.slice(-12)), 'the hint shows only the start')
      for (const at of [secret.length - 1, secret.length - 10]) {
        const c = secret[at] === 'a' ? 'b' : 'a'
        assert.equal(wellFormed(secret.slice(0, at) + c + secret.slice(at + 1), kind), false, `a changed character at ${at} is refused`)
      }
      assert.equal(wellFormed(secret.slice(0, -1), kind), false)
    }
    assert.equal(wellFormed(mintSecret('key').secret, 'session'), false)
  })

  it('are never the same twice, and ids are short and plain', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => mintSecret('key').secret))
    assert.equal(seen.size, 2000)
    assert.match(newId('k_'), /^k_[0-9a-z]{12}$/)
  })
})
