/**
 * Accounts end to end (issue 26, authentication) over one `studio serve --accounts`: admin.bootstrap
 * with the static bearer only; sign-in by a mail link read from captured mail (one use); sessions
 * listed and ended; API keys created, listed, scoped over HTTP and MCP, revoked (closing the key's MCP
 * session at once); CSRF refusal of cookie writes from elsewhere; one 403 sentence for a deck without
 * access whether or not it exists; the command line on the checkout still owns every deck; and no
 * session or key secret in the identity database, the server's log, any git object or a bundle.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import Database from 'better-sqlite3'
import { request } from 'undici'
import WebSocket from 'ws'
import { NO_ACCESS } from '../../src/identity/roles.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

const TOKEN = 'static-bearer-for-tests-0123456789'
const DECK = 'quarterly-review'
/** Every session and key secret this file saw issued: none may be stored or logged anywhere. */
const issued = new Set<string>()

interface Answer {
  status: number
  body: any
  headers: Record<string, string | string[] | undefined>
}

describe('accounts over one served studio', () => {
  let ws: TestWorkspace
  let server: Served
  let url: string
  /** The administrator's first key (admin.bootstrap). */
  let adminKey: string

  async function call(id: string, input: object, options: { deck?: string; cookie?: string; bearer?: string; site?: string | null; origin?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (options.cookie) headers.cookie = options.cookie
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`
    if (options.cookie && options.site !== null) headers['sec-fetch-site'] = options.site ?? 'same-origin'
    if (options.origin) headers.origin = options.origin
    const res = await request(`${url}/api/actions/${id}${options.deck ? `?deck=${options.deck}` : ''}`, { method: 'POST', headers, body: JSON.stringify(input) })
    const text = await res.body.text()
    return { status: res.statusCode, body: text ? JSON.parse(text) : null, headers: res.headers }
  }

  /** Signs in by mail: asks for a link, reads it from the captured mail, follows it; answers the session cookie. */
  async function signIn(email: string): Promise<string> {
    const asked = await request(`${url}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, next: '/' }) })
    assert.equal(asked.statusCode, 200)
    await asked.body.text()
    const lines = readFileSync(join(ws.dir, '.studio', 'mail.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const mail = lines.filter((m) => m.to === email).at(-1)
    const link = /http\S+\/auth\/mail\/\S+/.exec(mail.text)![0]
    const followed = await request(link, { method: 'POST' })
    assert.equal(followed.statusCode, 303)
    assert.equal(followed.headers.location, '/')
    await followed.body.text()
    const cookie = String(followed.headers['set-cookie'])
    assert.match(cookie, /HttpOnly/)
    assert.match(cookie, /SameSite=Lax/)
    assert.match(cookie, /Path=\//)
    const value = /studio_session=([^;]+)/.exec(cookie)![1]
    issued.add(value)
    return `studio_session=${value}`
  }

  before(async () => {
    ws = await newUserWorkspace()
    server = await serve(ws.dir, ['--accounts'], { env: { STUDIO_MAIL: 'capture', STUDIO_TOKEN: TOKEN } })
    url = server.url
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  it('bootstraps an administrator with the static bearer only', async () => {
    const without = await call('admin.bootstrap', { email: 'ops@example.com' })
    assert.equal(without.status, 403)
    const bearer = await call('admin.bootstrap', { email: 'ops@example.com' }, { bearer: TOKEN })
    assert.equal(bearer.status, 200, JSON.stringify(bearer.body))
    assert.match(bearer.body.secret, /^studio_key_/)
    assert.deepEqual(bearer.body.token.scopes, ['read', 'comment', 'write', 'export', 'share', 'admin'])
    issued.add(bearer.body.secret)
    adminKey = bearer.body.secret
    // The key is an administrator's: it reads the captured mail; a key is not the static bearer.
    assert.equal((await call('admin.mail.list', {}, { bearer: bearer.body.secret })).status, 200)
    const again = await call('admin.bootstrap', { email: 'ops2@example.com' }, { bearer: bearer.body.secret })
    assert.equal(again.status, 403)
  })

  it('signs a person in from the mailed link, which works once', async () => {
    const cookie = await signIn('ana@example.com')
    const me = await call('account.me', {}, { cookie })
    assert.equal(me.status, 200, JSON.stringify(me.body))
    assert.equal(me.body.principal.kind, 'person')
    assert.equal(me.body.trust, 'verified')
    assert.equal(me.body.label, 'ana@example.com')
    const mail = readFileSync(join(ws.dir, '.studio', 'mail.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const link = /http\S+\/auth\/mail\/\S+/.exec(mail.filter((m) => m.to === 'ana@example.com').at(-1).text)![0]
    const reused = await request(link, { method: 'POST' })
    assert.equal(reused.statusCode, 410)
    assert.equal(reused.headers['set-cookie'], undefined)
    await reused.body.text()
  })

  it('answers the mail request the same whether or not an account exists', async () => {
    const ask = async (email: string) => {
      const res = await request(`${url}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
      return { status: res.statusCode, body: await res.body.text() }
    }
    assert.deepEqual(await ask('ana@example.com'), await ask('nobody-yet@example.com'))
  })

  it('limits sign-in mail per address, the same for an address with and without an account', async () => {
    const ask = async (email: string) => {
      const res = await request(`${url}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
      return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: JSON.parse(await res.body.text()) }
    }
    for (let i = 0; i < 5; i++) assert.equal((await ask('flood@example.com')).status, 200)
    const sixth = await ask('flood@example.com')
    assert.equal(sixth.status, 429)
    assert.equal(sixth.body.code, 'rate_limited')
    assert.ok(Number(sixth.retryAfter) > 0, 'Retry-After')
    assert.equal((await ask('other-flood@example.com')).status, 200, 'another address is not held up')
  })

  it('refuses a cookie write that does not come from this studio (CSRF)', async () => {
    const cookie = await signIn('csrf@example.com')
    assert.equal((await call('account.sessions', {}, { cookie, site: null })).status, 403)
    assert.equal((await call('account.sessions', {}, { cookie, site: 'cross-site' })).status, 403)
    assert.equal((await call('account.sessions', {}, { cookie, site: null, origin: 'http://evil.example' })).status, 403)
    assert.equal((await call('account.sessions', {}, { cookie, site: null, origin: url.replace('127.0.0.1', 'localhost') })).status, 200)
    assert.equal((await call('account.sessions', {}, { cookie })).status, 200)
  })

  it('lists sessions with the current one marked and signs out of the others, then of this one', async () => {
    const first = await signIn('bo@example.com')
    const second = await signIn('bo@example.com')
    const listed = await call('account.sessions', {}, { cookie: first })
    assert.equal(listed.body.sessions.length, 2)
    assert.equal(listed.body.sessions.filter((s: { current: boolean }) => s.current).length, 1)
    const out = await call('account.signOut', { all: true }, { cookie: first })
    assert.equal(out.status, 200)
    assert.equal(out.body.signedOut.length, 1)
    // The other session opens nothing now: its caller is anonymous.
    assert.equal((await call('account.me', {}, { cookie: second })).status, 401)
    const current = await call('account.signOut', {}, { cookie: first })
    assert.equal(current.status, 200)
    assert.match(String(current.headers['set-cookie']), /studio_session=;.*Max-Age=0/)
    assert.equal((await call('account.me', {}, { cookie: first })).status, 401)
  })

  it('gives an anonymous browser a fresh id on the page when asked to forget it (account.forget)', async () => {
    const forget = async (cookie?: string) => {
      const res = await request(`${url}/api/window/account.forget`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie, 'sec-fetch-site': 'same-origin' } : {}) }, body: '{}' })
      const body = JSON.parse(await res.body.text())
      const value = /studio_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1]
      if (value) issued.add(value)
      return { status: res.statusCode, body, cookie: value ? `studio_session=${value}` : undefined }
    }
    const first = await forget()
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.equal(first.body.principal.kind, 'anonymous')
    const me = await call('account.me', {}, { cookie: first.cookie })
    assert.equal(me.body.principal.id, first.body.principal.id)
    const second = await forget(first.cookie)
    assert.notEqual(second.body.principal.id, first.body.principal.id)
    assert.equal((await call('account.me', {}, { cookie: first.cookie })).status, 401)
    assert.equal((await call('account.me', {}, { cookie: second.cookie })).body.principal.id, second.body.principal.id)
    // A signed-in person signs out instead.
    assert.equal((await forget(await signIn('fay@example.com'))).status, 400)
  })

  it('tells a caller without access the same sentence for an existing and a missing deck', async () => {
    const existing = await call('deck.get', {}, { deck: DECK })
    const missing = await call('deck.get', {}, { deck: 'no-such-deck' })
    assert.equal(existing.status, 403)
    assert.equal(missing.status, 403)
    assert.equal(existing.body.message, NO_ACCESS)
    assert.deepEqual(existing.body, missing.body)
    // The page's picture route answers the same.
    for (const deck of [DECK, 'no-such-deck']) {
      const picture = await request(`${url}/page/asset/${deck}/photo.png`)
      assert.equal(picture.statusCode, 403)
      assert.equal(JSON.parse(await picture.body.text()).message, NO_ACCESS)
    }
    const cookie = await signIn('cy@example.com')
    const signedIn = await call('slide.remove', { slideId: 'title-1', baseRevision: 0 }, { deck: DECK, cookie })
    assert.equal(signedIn.status, 403)
    assert.equal(signedIn.body.message, NO_ACCESS)
  })

  it('keeps a deck\'s exported files and its room from a caller without access', async () => {
    const exported = await call('export.markdown', { slideIds: 'all' }, { deck: DECK, bearer: TOKEN })
    assert.equal(exported.status, 200, JSON.stringify(exported.body))
    const path = `.studio/export/${DECK}.md`
    const file = (headers: Record<string, string>) => request(`${url}/page/file?path=${encodeURIComponent(path)}`, { headers })
    const refused = await file({})
    assert.equal(refused.statusCode, 403)
    assert.equal(JSON.parse(await refused.body.text()).message, NO_ACCESS)
    const owner = await file({ authorization: `Bearer ${TOKEN}` })
    assert.equal(owner.statusCode, 200)
    assert.match(await owner.body.text(), /^# /m)
    // The room of the deck: an upgrade without access is answered 403 before any socket opens.
    const join = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/room/${DECK}?client=abcdefabcdef`, { headers })
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
        socket.on('open', () => {
          socket.close()
          resolve(101)
        })
        socket.on('error', () => resolve(-1))
      })
    assert.equal(await join({}), 403)
    assert.equal(await join({ authorization: `Bearer ${TOKEN}` }), 101)
  })

  it('makes a deck its creator owns, lists only readable decks, and keeps the checkout the owner of every deck', async () => {
    const cookie = await signIn('dee@example.com')
    const created = await call('deck.create', { name: 'Dee deck' }, { cookie })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const listed = await call('deck.list', {}, { cookie })
    assert.deepEqual(listed.body.decks.map((d: { id: string }) => d.id), ['dee-deck'])
    assert.equal((await call('deck.rename', { name: 'Dee deck 2', baseRevision: 0 }, { cookie, deck: 'dee-deck' })).status, 200)
    // Their writes are theirs: the commit names the signed-in person, not an agent or the machine.
    assert.equal((await ws.git('log', '-1', '--format=%an <%ae>')).trim(), 'dee@example.com <dee@example.com>')
    // An anonymous caller creates nothing.
    assert.equal((await call('deck.create', { name: 'Nobody deck' })).status, 403)
    // The command line on the workspace is the person at the machine: the owner of every deck.
    const renamed = await studio(ws.dir, ['deck', 'rename', 'Renamed on the checkout', '--deck', 'dee-deck', '--json'])
    assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr)
    const local = await studio(ws.dir, ['account', 'tokens', 'create', '--name', 'x', '--scope', 'read', '--json'])
    assert.notEqual(local.code, 0)
    assert.match(local.json.message, /checkout/)
  })

  it("keeps a new deck its creator's when the process died between the deck's commit and its access record", async () => {
    const cookie = await signIn('hal@example.com')
    const created = await call('deck.create', { name: 'Hal deck' }, { cookie })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const me = (await call('account.me', {}, { cookie })).body.principal.id
    // The commit that made it names its owner.
    assert.match(await ws.git('log', '-1', '--format=%B', '--', 'decks/hal-deck'), new RegExp(`^Studio-Owner: ${me}$`, 'm'))
    // The access record never written (the process was killed right after the commit).
    const sqlite = new Database(join(ws.dir, '.studio', 'identity.db'))
    assert.equal(sqlite.prepare('delete from deck_access where deck_id = ?').run('hal-deck').changes, 1)
    sqlite.close()
    // The creator still owns it; nobody else gains it.
    assert.equal((await call('deck.get', {}, { cookie: await signIn('ivy@example.com'), deck: 'hal-deck' })).status, 403)
    const read = await call('share.get', { id: 'hal-deck' }, { cookie, deck: 'hal-deck' })
    assert.equal(read.status, 200, JSON.stringify(read.body))
    assert.equal(read.body.access.owner, me)
  })

  it('creates, lists, scopes and revokes API keys over HTTP and MCP; revoking closes the key\'s MCP session', async () => {
    const cookie = await signIn('eve@example.com')
    assert.equal((await call('deck.create', { name: 'Eve deck' }, { cookie })).status, 200)
    const made = await call('account.tokens.create', { name: 'reader', scopes: ['read'] }, { cookie })
    assert.equal(made.status, 200, JSON.stringify(made.body))
    const secret = made.body.secret as string
    issued.add(secret)
    const listed = await call('account.tokens.list', {}, { cookie })
    assert.deepEqual(listed.body.tokens.map((t: { id: string }) => t.id), [made.body.token.id])
    assert.ok(!JSON.stringify(listed.body).includes(secret))
    // A key makes no key that does more than it: a scope it lacks is refused, its own scopes are not
    // (the command line's --to form has no other credential).
    assert.equal((await call('account.tokens.create', { name: 'more', scopes: ['write'] }, { bearer: secret })).status, 403)
    const sub = await call('account.tokens.create', { name: 'sub', scopes: ['read'] }, { bearer: secret })
    assert.equal(sub.status, 200, JSON.stringify(sub.body))
    issued.add(sub.body.secret)
    assert.equal((await call('account.tokens.revoke', { tokenId: sub.body.token.id }, { cookie })).status, 200)
    // Over HTTP: reads, but never writes (its scope), on its owner's deck only.
    assert.equal((await call('deck.get', {}, { bearer: secret, deck: 'eve-deck' })).status, 200)
    const write = await call('deck.rename', { name: 'No', baseRevision: 0 }, { bearer: secret, deck: 'eve-deck' })
    assert.equal(write.status, 403)
    assert.match(write.body.message, /write capability/)
    assert.equal((await call('deck.get', {}, { bearer: secret, deck: DECK })).body.message, NO_ACCESS)
    // Over MCP, the same.
    const client = new Client({ name: 'auth-test', version: '1' })
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp?deck=eve-deck`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } })
    await client.connect(transport)
    const read = await client.callTool({ name: 'deck_get', arguments: {} })
    assert.ok(!read.isError, JSON.stringify(read))
    // The session id alone opens nothing: a request of the session without the key that opened it is refused.
    const hijack = await request(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'deck_get', arguments: {} } }),
    })
    assert.equal(hijack.statusCode, 403)
    await hijack.body.text()
    const refused = await client.callTool({ name: 'deck_rename', arguments: { name: 'No', baseRevision: 0 } })
    assert.equal(refused.isError, true)
    assert.equal((refused.structuredContent as { status: number }).status, 403)
    // Revoked: its MCP session is closed at once, and the key opens nothing.
    const revoked = await call('account.tokens.revoke', { tokenId: made.body.token.id }, { cookie })
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body))
    assert.equal(revoked.body.closedSessions, 1)
    await assert.rejects(client.callTool({ name: 'deck_get', arguments: {} }))
    await client.close().catch(() => undefined)
    assert.equal((await call('deck.get', {}, { bearer: secret, deck: 'eve-deck' })).status, 401)
    assert.deepEqual((await call('account.tokens.list', {}, { cookie })).body.tokens, [])
  })

  it('closes the MCP sessions a signed-out session opened, and answers a sign-out sent over its own session', async () => {
    const first = await signIn('gus@example.com')
    const second = await signIn('gus@example.com')
    const open = async (cookie: string) => {
      const mcp = new Client({ name: 'sign-out-test', version: '1.0.0' })
      const through = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { cookie, 'sec-fetch-site': 'same-origin' } } })
      await mcp.connect(through)
      assert.ok(!(await mcp.callTool({ name: 'deck_list_sessions', arguments: {} })).isError)
      return { mcp, sessionId: through.sessionId! }
    }
    /** A raw request of the session with the cookie that opened it: 404 once the session is closed. */
    const again = async (sessionId: string, cookie: string) => {
      const res = await request(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', cookie, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'deck_list_sessions', arguments: {} } }),
      })
      await res.body.text()
      return res.statusCode
    }
    // Signed out from elsewhere: the session's MCP session is gone, not merely refused to a stranger.
    const a = await open(first)
    const ended = await call('account.signOut', { all: true }, { cookie: second })
    assert.equal(ended.status, 200, JSON.stringify(ended.body))
    assert.equal(await again(a.sessionId, first), 404)
    await a.mcp.close().catch(() => undefined)
    // Signed out over the MCP session the cookie opened: the call is answered, then the session closes.
    const b = await open(second)
    const self = await b.mcp.callTool({ name: 'deck_sign_out', arguments: {} })
    assert.ok(!self.isError, JSON.stringify(self))
    assert.equal((self.structuredContent as { signedOut: string[] }).signedOut.length, 1)
    assert.equal(await again(b.sessionId, second), 404)
    await b.mcp.close().catch(() => undefined)
  })

  it('sends --to forms to the named studio with the remembered or given bearer, errors in the one shape', async () => {
    const env = { XDG_CONFIG_HOME: join(ws.dir, '.studio', 'no-config'), STUDIO_TOKEN: adminKey }
    const listed = await studio(ws.dir, ['account', 'tokens', 'list', '--to', url, '--json'], { env })
    assert.equal(listed.code, 0, listed.stdout + listed.stderr)
    assert.deepEqual(listed.json.tokens.map((t: { name: string }) => t.name), ['bootstrap'])
    const mail = await studio(ws.dir, ['admin', 'mail', '--to', url, '--json'], { env })
    assert.equal(mail.code, 0, mail.stdout + mail.stderr)
    assert.ok(mail.json.messages.length > 0)
    const anonymous = await studio(ws.dir, ['account', 'sessions', '--to', url, '--json'], { env: { ...env, STUDIO_TOKEN: '' } })
    assert.equal(anonymous.json.code, 'unauthorized')
    assert.equal(anonymous.json.status, 401)
    assert.notEqual(anonymous.code, 0)
  })

  it('keeps every session and key secret out of the database, the log, git and a bundle', async () => {
    assert.ok(issued.size >= 8, `secrets seen: ${issued.size}`)
    const state = join(ws.dir, '.studio')
    const stored = readdirSync(state).filter((f) => f.startsWith('identity.db')).map((f) => readFileSync(join(state, f)))
    assert.ok(stored.length >= 1)
    const objects = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: ws.dir, maxBuffer: 1 << 28 })
    const packed = await studio(ws.dir, ['deck', 'pack', 'eve-deck', '--out', join(state, 'eve.zip'), '--json'])
    assert.equal(packed.code, 0, packed.stdout + packed.stderr)
    const bundle = readFileSync(join(state, 'eve.zip'))
    const log = Buffer.from(server.stderr())
    for (const secret of issued) {
      for (const [where, bytes] of [...stored.map((b, i) => [`identity database file ${i}`, b] as const), ['git objects', objects] as const, ['bundle', bundle] as const, ['server log', log] as const]) {
        assert.equal(bytes.includes(secret), false, `a secret is in the ${where}`)
      }
    }
  })
})
