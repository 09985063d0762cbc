/**
 * `studio serve` with its identity database on PostgreSQL (issue 27: STUDIO_DATABASE_URL), on a real
 * throw-away cluster (test/helpers/postgres.ts): with the URL set and no identity file in its workspace
 * it has accounts (a person signs in by the mailed link and `account.me` knows them), and a kill switch
 * turned on at one instance stops another within 5 s. The database itself on both engines (migrations,
 * the write queue, the share guard under 20 parallel writers) is test/unit/identity/db.unit.test.ts.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { serve, type Served } from '../helpers/studio.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { POSTGRES_MISSING, postgresBin, startPostgres, type Cluster } from '../helpers/postgres.js'
import { skipUnlessPresent } from '../helpers/system.js'
import { until } from '../helpers/until.js'

const skip = skipUnlessPresent(postgresBin(), POSTGRES_MISSING)

describe('studio serve on a PostgreSQL identity database', { skip }, () => {
  let cluster: Cluster
  before(async () => {
    cluster = await startPostgres()
  })
  after(async () => {
    await cluster?.stop()
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
      // Readiness follows the database: ready while it answers, 503 naming it when it takes no connection.
      const readyz = async () => {
        const res = await request(`${server!.url}/readyz`)
        return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
      }
      assert.deepEqual(await readyz(), { status: 200, body: { status: 'ready', checks: { serving: 'ok', workspace: 'ok', git: 'ok', identity: 'ok' } } })
      const admin = new pg.Client({ connectionString: cluster.url })
      await admin.connect()
      await admin.query('alter database served allow_connections false')
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = 'served'")
      try {
        const down = await readyz()
        assert.equal(down.status, 503)
        assert.match(down.body.checks.identity, /^failing: /)
        assert.equal(JSON.stringify(down.body).includes(url), false, 'the database URL is not in the answer')
      } finally {
        await admin.query('alter database served allow_connections true')
        await admin.end()
      }
      assert.equal((await readyz()).status, 200)
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
      // Instance B sees a switch changed at A within 5 s (no notification: its snapshot is renewed).
      const within = (want: number) => until(`instance B answering ${want} after the switch changed at A`, comment, (got) => got.status === want, 5000, 100)
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

  it('counts a rate limit once over two instances: the limit is the deployment\'s, not each process\'s', async () => {
    const url = await cluster.database('limits')
    const [wa, wb] = await Promise.all([newUserWorkspace(), newUserWorkspace()])
    const servers: Served[] = []
    try {
      for (const w of [wa, wb]) servers.push(await serve(w.dir, [], { env: { STUDIO_DATABASE_URL: url, STUDIO_MAIL: 'capture', STUDIO_SIGNIN_MAILS_PER_HOUR: '4' } }))
      const ask = async (on: Served, email: string) => {
        const res = await request(`${on.url}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
        return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
      }
      // Four mails for one address, two asked at each instance; the fifth is refused at either.
      for (let i = 0; i < 4; i++) assert.equal((await ask(servers[i % 2], 'flood@example.com')).status, 200, `mail ${i + 1}`)
      for (const on of servers) {
        const refused = await ask(on, 'flood@example.com')
        assert.equal(refused.status, 429, `the fifth mail at ${on.url}`)
        assert.equal(refused.body.code, 'rate_limited')
      }
      assert.equal((await ask(servers[1], 'other@example.com')).status, 200, 'another address is not held up')
      // The shared counters name no address: each key is the limit's name and a hash.
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const { rows } = await client.query<{ key: string; points: number }>('select key, points from rate_limits order by points desc')
      await client.end()
      assert.ok(rows.some((r) => r.key.startsWith('STUDIO_SIGNIN_MAILS_PER_HOUR:') && r.points >= 4), JSON.stringify(rows))
      assert.equal(JSON.stringify(rows).includes('example.com'), false, 'no address stored')
      assert.equal(JSON.stringify(rows).includes('127.0.0.1'), false, 'no client address stored')
    } finally {
      for (const s of servers) await s.stop()
      wa.cleanup()
      wb.cleanup()
    }
  })
})
