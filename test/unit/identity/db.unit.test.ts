/**
 * The identity database (src/identity/db.ts, migrations.ts) and its secrets (secrets.ts), on real SQLite
 * files in temp workspaces: a new database migrates to the newest schema, a second opening runs nothing,
 * two processes opening one new database at once migrate it once, the file is its owner's only, a write
 * transaction that throws leaves nothing; a secret's prefix, length and checksum are checked before any
 * lookup, and only its hash is what a row keeps.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { Kysely, SqliteDialect } from 'kysely'
import Database from 'better-sqlite3'
import { closeIdentities, identityExists, identityFile, identityOf, migrate } from '../../../src/identity/db.js'
import { MIGRATIONS } from '../../../src/identity/migrations.js'
import { hashOf, kindOf, mintSecret, newId, wellFormed } from '../../../src/identity/secrets.js'
import { Workspace } from '../../../src/store/workspace.js'

const dirs: string[] = []
after(async () => {
  await closeIdentities()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function workspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'studio-identity-'))
  dirs.push(root)
  mkdirSync(join(root, 'decks'))
  return new Workspace(root, root)
}

const person = (id: string, email: string) => ({ id, kind: 'person' as const, email, name: null, name_skeleton: null, avatar: null, trust: 'verified' as const, is_admin: 0, created_at: '2026-01-01T00:00:00.000Z', last_seen_at: null })

describe('identity database', () => {
  it('is absent until asked for, then made with every table, readable by its owner only', async () => {
    const ws = workspace()
    assert.equal(await identityOf(ws), null)
    assert.equal(identityExists(ws), false)
    const identity = await identityOf(ws, { create: true })
    assert.ok(identity)
    assert.equal(identityExists(ws), true)
    assert.equal(statSync(identityFile(ws)).mode & 0o077, 0, 'no one but the owner reads the identity database')
    const tables = (await identity.db.introspection.getTables()).map((t) => t.name).sort()
    for (const name of ['principals', 'sessions', 'api_keys', 'magic_links', 'passkeys', 'challenges', 'deck_access', 'grants', 'links', 'access_requests']) assert.ok(tables.includes(name), `table ${name}`)
    assert.equal(await identityOf(ws), identity, 'one opening per process')
  })

  it('runs each migration once: a second run has nothing to do', async () => {
    const ws = workspace()
    const sqlite = new Database(join(ws.stateDir + '-plain.db'))
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) })
    assert.deepEqual(await migrate(db), Object.keys(MIGRATIONS))
    assert.deepEqual(await migrate(db), [])
    await db.destroy()
  })

  it('two processes opening one new database at once migrate it once', async () => {
    const ws = workspace()
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
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (err += d))
        child.on('close', (code) => resolve({ code, out, err }))
      })
    const results = await Promise.all([run(), run()])
    for (const r of results) assert.equal(r.code, 0, r.err)
    const check = new Database(identityFile(ws), { readonly: true })
    const ran = check.prepare('select name from kysely_migration').all() as { name: string }[]
    check.close()
    assert.deepEqual(ran.map((r) => r.name), Object.keys(MIGRATIONS))
  })

  it('a write transaction that throws leaves nothing behind; the unique address holds', async () => {
    const ws = workspace()
    const identity = (await identityOf(ws, { create: true }))!
    await assert.rejects(
      identity.write(async (tx) => {
        await tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute()
        throw new Error('half way')
      }),
      /half way/,
    )
    assert.equal((await identity.db.selectFrom('principals').select('id').execute()).length, 0)
    await identity.write((tx) => tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute())
    await assert.rejects(identity.write((tx) => tx.insertInto('principals').values(person('p_b', 'ana@example.com')).execute()), /UNIQUE/)
  })

  it('one pending access request per deck and requester', async () => {
    const ws = workspace()
    const identity = (await identityOf(ws, { create: true }))!
    await identity.write((tx) => tx.insertInto('principals').values(person('p_a', 'ana@example.com')).execute())
    const request = (id: string, status: 'pending' | 'declined') => ({ id, deck_id: 'd', requester_id: 'p_a', email: null, role: 'viewer' as const, message: null, created_at: '2026-01-01T00:00:00.000Z', status, answered_at: null, answered_by: null, granted_role: null })
    await identity.write((tx) => tx.insertInto('access_requests').values(request('r1', 'declined')).execute())
    await identity.write((tx) => tx.insertInto('access_requests').values(request('r2', 'pending')).execute())
    await assert.rejects(identity.write((tx) => tx.insertInto('access_requests').values(request('r3', 'pending')).execute()), /UNIQUE/)
  })
})

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
