/**
 * The identity database on PostgreSQL (issue 27: STUDIO_DATABASE_URL), on a real throw-away cluster
 * (test/helpers/postgres.ts): the same migrations make every table and run once, also when two processes
 * open one new database at once; a write that throws leaves nothing; 20 parallel share writes with one
 * baseRevision admit exactly one; and a `studio serve` with the URL set and no identity file in its
 * workspace has accounts: a person signs in by the mailed link and `account.me` knows them.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { createAccessRecord, writeAccess } from '../../src/identity/access-record.js'
import { closeIdentities, identityOf, migrate } from '../../src/identity/db.js'
import { MIGRATIONS } from '../../src/identity/migrations.js'
import { ensurePerson } from '../../src/identity/principals.js'
import { Workspace } from '../../src/store/workspace.js'
import { ROOT, serve, type Served } from '../helpers/studio.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { postgresBin, startPostgres, type Cluster } from '../helpers/postgres.js'
import { skipUnlessPresent } from '../helpers/system.js'

const skip = skipUnlessPresent(postgresBin(), 'PostgreSQL is not installed (apt-get install postgresql)')

describe('the identity database on PostgreSQL', { skip }, () => {
  let cluster: Cluster
  const dirs: string[] = []
  const saved = process.env.STUDIO_DATABASE_URL
  before(async () => {
    cluster = await startPostgres()
  })
  after(async () => {
    await closeIdentities()
    if (saved === undefined) delete process.env.STUDIO_DATABASE_URL
    else process.env.STUDIO_DATABASE_URL = saved
    await cluster?.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /** A workspace folder with no identity file: the URL alone turns accounts on. */
  function workspace(): Workspace {
    const root = mkdtempSync(join(tmpdir(), 'studio-identity-pg-'))
    dirs.push(root)
    mkdirSync(join(root, 'decks'))
    return new Workspace(root, root)
  }

  it('opens the database the URL names, with every table, once per process, and no file in the workspace', async () => {
    process.env.STUDIO_DATABASE_URL = await cluster.database('open_once')
    const ws = workspace()
    const identity = await identityOf(ws)
    assert.ok(identity)
    assert.equal(identity.engine, 'postgres')
    const tables = (await identity.db.introspection.getTables()).map((t) => t.name)
    for (const name of ['principals', 'sessions', 'api_keys', 'magic_links', 'passkeys', 'challenges', 'deck_access', 'grants', 'links', 'access_requests']) assert.ok(tables.includes(name), `table ${name}`)
    assert.equal(await identityOf(ws), identity, 'one opening per process')
    assert.deepEqual(await migrate(identity.db), [], 'a second run has nothing to do')
    assert.equal(existsSync(join(ws.stateDir, 'identity.db')), false)
    // A write transaction that throws leaves nothing.
    await assert.rejects(
      identity.write(async (tx) => {
        await ensurePerson(tx, 'gone@example.com', { verified: true })
        throw new Error('no')
      }),
    )
    assert.equal(await identity.db.selectFrom('principals').select('id').where('email', '=', 'gone@example.com').executeTakeFirst(), undefined)
    await closeIdentities()
  })

  it('migrates a new database once when two processes open it at the same moment', async () => {
    const url = await cluster.database('two_openers')
    const script = `
      import { Kysely, PostgresDialect } from 'kysely'
      import pg from 'pg'
      import { migrate } from ${JSON.stringify(join(ROOT, 'src/identity/db.ts'))}
      const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.argv[1] }) }) })
      const ran = await migrate(db)
      await db.destroy()
      process.stdout.write(JSON.stringify(ran))`
    const opener = () =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (err += d))
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))))
      })
    const [a, b] = await Promise.all([opener(), opener()])
    // Between them, each migration ran exactly once.
    assert.deepEqual([...a, ...b].sort(), Object.keys(MIGRATIONS).sort())
  })

  it('admits exactly one of 20 parallel share writes with one baseRevision; the others are 409', async () => {
    process.env.STUDIO_DATABASE_URL = await cluster.database('twenty_writers')
    const ws = workspace()
    const identity = (await identityOf(ws))!
    const owner = await identity.write((tx) => ensurePerson(tx, 'owner@example.com', { verified: true }))
    await identity.write((tx) => createAccessRecord(tx, 'board-deck', owner.id))
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        writeAccess(identity, 'board-deck', 0, (r) => r, async (tx) => {
          await tx.updateTable('deck_access').set({ general_role: i % 2 ? 'commenter' : 'editor' }).where('deck_id', '=', 'board-deck').execute()
          return i
        }),
      ),
    )
    const accepted = outcomes.filter((o) => o.status === 'fulfilled')
    assert.equal(accepted.length, 1, 'exactly one write is accepted')
    for (const o of outcomes) if (o.status === 'rejected') assert.equal((o.reason as { code?: string }).code, 'stale_revision')
    const row = await identity.db.selectFrom('deck_access').selectAll().where('deck_id', '=', 'board-deck').executeTakeFirstOrThrow()
    assert.equal(row.revision, 1)
    await closeIdentities()
  })

  it('serves accounts from the URL alone: a person signs in by the mailed link', async () => {
    const url = await cluster.database('served')
    const ws = await newUserWorkspace()
    let server: Served | undefined
    try {
      server = await serve(ws.dir, [], { env: { STUDIO_DATABASE_URL: url, STUDIO_MAIL: 'capture' } })
      const asked = await request(`${server.url}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'pat@example.com', next: '/' }) })
      assert.equal(asked.statusCode, 200, await asked.body.text())
      const mail = readFileSync(join(ws.dir, '.studio', 'mail.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).at(-1)
      const link = /http\S+\/auth\/mail\/\S+/.exec(mail.text)![0]
      const followed = await request(link, { method: 'POST' })
      assert.equal(followed.statusCode, 303)
      await followed.body.text()
      const cookie = /studio_session=[^;]+/.exec(String(followed.headers['set-cookie']))![0]
      const me = await request(`${server.url}/api/actions/account.me`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'sec-fetch-site': 'same-origin' }, body: '{}' })
      const body = JSON.parse(await me.body.text())
      assert.equal(me.statusCode, 200, JSON.stringify(body))
      assert.equal(body.principal.kind, 'person')
      assert.equal(body.label, 'pat@example.com')
      // The principal is in PostgreSQL, and no identity file was made in the workspace.
      assert.equal(existsSync(join(ws.dir, '.studio', 'identity.db')), false)
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const { rows } = await client.query("select kind from principals where email = 'pat@example.com'")
      await client.end()
      assert.deepEqual(rows, [{ kind: 'person' }])
    } finally {
      await server?.stop()
      ws.cleanup()
    }
  })

  it('stops a second instance within 5 seconds when a kill switch is turned on at the first (no notifications)', async () => {
    const url = await cluster.database('switches')
    const token = 'static-bearer-for-switch-test-0123456789'
    const [wa, wb] = await Promise.all([newUserWorkspace(), newUserWorkspace()])
    const servers: Served[] = []
    try {
      for (const w of [wa, wb]) servers.push(await serve(w.dir, [], { env: { STUDIO_DATABASE_URL: url, STUDIO_TOKEN: token } }))
      const [a, b] = servers
      const call = async (on: Served, id: string, input: object, deck?: string) => {
        const res = await request(`${on.url}/api/actions/${id}${deck ? `?deck=${deck}` : ''}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(input) })
        return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
      }
      const slideId = (await call(b, 'deck.get', {}, 'quarterly-review')).body.manifest.sections[0].slides[0]
      const comment = () => call(b, 'comment.add', { anchor: { kind: 'slide', slideId }, body: { text: 'Is this on?' } }, 'quarterly-review')
      assert.equal((await comment()).status, 200)
      assert.equal((await call(a, 'admin.flag', { name: 'comments', on: true })).status, 200)
      const within = async (want: number) => {
        const until = Date.now() + 5000
        for (;;) {
          const got = await comment()
          if (got.status === want) return got
          if (Date.now() > until) assert.fail(`instance B still answers ${got.status} 5 s after the switch changed at A: ${JSON.stringify(got.body)}`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      const refused = await within(503)
      assert.equal(refused.body.details.flag, 'comments')
      // Turned off at B: comments are allowed again.
      assert.equal((await call(b, 'admin.flag', { name: 'comments', on: false })).status, 200)
      assert.equal((await within(200)).status, 200)
      // Neither workspace has a flags file: the switch lives in the database.
      for (const w of [wa, wb]) assert.equal(existsSync(join(w.dir, '.studio', 'flags.json')), false)
    } finally {
      for (const s of servers) await s.stop()
      wa.cleanup()
      wb.cleanup()
    }
  })
})
