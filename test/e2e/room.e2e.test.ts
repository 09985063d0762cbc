/**
 * The page's realtime room against a real `studio serve` on loopback, with real `ws` clients, real
 * CLI processes, a real MCP client and real git: the upgrade's edge checks, `changed` after every
 * accepted write whatever made it (HTTP, MCP, the window transport, a CLI process, git, a hand edit),
 * the roster and pointers, follow and unfollow, deck_goto_slide, and the two kill switches.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { request } from 'undici'
import WebSocket from 'ws'
import { findAction } from '../../src/actions/index.js'
import { dispatch } from '../../src/core/engine.js'
import { Workspace } from '../../src/store/workspace.js'
import { serve, studio, workspaceWithDeck, type Served } from '../helpers/studio.js'

type Message = Record<string, any>

/** One tab's socket: every message it received, in order, and how it closed. */
class Tab {
  readonly messages: Message[] = []
  closed: { code: number; reason: string } | undefined
  private waiters: (() => void)[] = []

  private constructor(readonly socket: WebSocket, readonly clientId: string) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)))
      this.wake()
    })
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) }
      this.wake()
    })
  }

  private wake() {
    const waiting = this.waiters
    this.waiters = []
    for (const fn of waiting) fn()
  }

  /** Opens a room socket; rejects with the HTTP status (and body) of a refused upgrade. */
  static open(base: string, deckId: string, clientId: string, options: { author?: string; token?: string; headers?: Record<string, string>; origin?: string } = {}): Promise<Tab> {
    const url = new URL(`/api/room/${deckId}`, base.replace(/^http/, 'ws'))
    url.searchParams.set('client', clientId)
    if (options.author) url.searchParams.set('author', options.author)
    if (options.token) url.searchParams.set('token', options.token)
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: options.headers, ...(options.origin ? { origin: options.origin } : {}) })
      const tab = new Tab(socket, clientId)
      socket.once('open', () => resolve(tab))
      socket.once('unexpected-response', (_req, res) => {
        let body = ''
        res.on('data', (d: Buffer) => (body += d))
        res.on('end', () => reject(Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode, body: body ? JSON.parse(body) : undefined, headers: res.headers })))
      })
      socket.once('error', (error) => reject(error))
    })
  }

  /** The index of the first message at or after `from` that matches (waiting up to 10 s for it). */
  async index(match: (m: Message) => boolean, from = 0): Promise<number> {
    const started = Date.now()
    for (;;) {
      const i = this.messages.findIndex((m, k) => k >= from && match(m))
      if (i >= 0) return i
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) before the message came; got ${JSON.stringify(this.messages.slice(from))}`)
      if (Date.now() - started > 10_000) throw new Error(`no such message; got ${JSON.stringify(this.messages.slice(from))}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  async next(match: (m: Message) => boolean, from = 0): Promise<Message> {
    return this.messages[await this.index(match, from)]
  }

  async closing(): Promise<{ code: number; reason: string }> {
    const started = Date.now()
    while (!this.closed) {
      if (Date.now() - started > 10_000) throw new Error('the socket stayed open')
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    }
    return this.closed
  }

  send(message: unknown) {
    this.socket.send(JSON.stringify(message))
  }

  close() {
    this.socket.close()
  }
}

async function call(base: string, id: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${base}/api/actions/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: response.statusCode, json: (await response.body.json()) as any }
}

const isChanged = (m: Message) => m.type === 'changed'
const isRoster = (m: Message) => m.type === 'roster'
const revisionOnDisk = (dir: string, deckId: string) => JSON.parse(readFileSync(join(dir, 'decks', deckId, 'deck.json'), 'utf8')).revision as number

describe('the room: edge checks on the upgrade', () => {
  const TOKEN = 'room-test-secret-0123456789abcdef'
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  let port: number
  before(async () => {
    ws = await workspaceWithDeck('Guarded room')
    server = await serve(ws.dir, ['--host', '0.0.0.0'], { env: { STUDIO_TOKEN: TOKEN } })
    port = Number(new URL(server.url).port)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  const refused = async (promise: Promise<Tab>) => {
    const error = (await promise.then(
      () => assert.fail('the upgrade was accepted'),
      (e) => e,
    )) as { status: number; body: { code: string; status: number }; headers: Record<string, string> }
    assert.equal(error.body.status, error.status)
    return error
  }

  it('refuses a foreign Host or Origin with 403 before upgrading, and welcomes this server\'s own', async () => {
    const local = `http://127.0.0.1:${port}`
    assert.equal((await refused(Tab.open(local, ws.deckId, 'aaaa1111bbbb', { headers: { host: `evil.example:${port}` } }))).status, 403)
    assert.equal((await refused(Tab.open(local, ws.deckId, 'aaaa1111bbbb', { origin: 'http://evil.example' }))).status, 403)
    const tab = await Tab.open(local, ws.deckId, 'aaaa1111bbbb', { origin: `http://localhost:${port}` })
    const welcome = await tab.next((m) => m.type === 'welcome')
    assert.deepEqual({ ...welcome, roster: undefined }, { type: 'welcome', clientId: 'aaaa1111bbbb', deckId: ws.deckId, revision: 0, roster: undefined })
    tab.close()
  })

  it('answers 404 for an unknown deck and 400 for a bad client id', async () => {
    const local = `http://127.0.0.1:${port}`
    const missing = await refused(Tab.open(local, 'no-such-deck', 'aaaa1111bbbb'))
    assert.deepEqual([missing.status, missing.body.code], [404, 'not_found'])
    const bad = await refused(Tab.open(local, ws.deckId, 'NOT-A-CLIENT'))
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_input'])
  })

  it('off loopback, refuses an upgrade without the token (401) and joins with ?token= or a bearer header', async (t) => {
    const own = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')
    if (!own) return t.skip('no non-loopback address on this machine')
    const remote = `http://${own.address}:${port}`
    const bare = await refused(Tab.open(remote, ws.deckId, 'cccc2222dddd'))
    assert.equal(bare.status, 401)
    assert.match(bare.headers['www-authenticate'], /^Bearer/)
    assert.equal((await refused(Tab.open(remote, ws.deckId, 'cccc2222dddd', { token: 'wrong' }))).status, 401)
    const byQuery = await Tab.open(remote, ws.deckId, 'cccc2222dddd', { token: TOKEN })
    assert.equal((await byQuery.next((m) => m.type === 'welcome')).deckId, ws.deckId)
    byQuery.close()
    const byHeader = await Tab.open(remote, ws.deckId, 'eeee3333ffff', { headers: { authorization: `Bearer ${TOKEN}` } })
    assert.equal((await byHeader.next((m) => m.type === 'welcome')).deckId, ws.deckId)
    byHeader.close()
  })
})

describe('the room: changed after every accepted write', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  let tab: Tab
  before(async () => {
    ws = await workspaceWithDeck('Live deck')
    server = await serve(ws.dir)
    tab = await Tab.open(server.url, ws.deckId, 'live0000tab1')
    const welcome = await tab.next((m) => m.type === 'welcome')
    // A page naming no author is the person at this machine, as the window transport names them: git's user.name.
    const gitName = (await ws.git('config', 'user.name').catch(() => '')).trim()
    if (gitName) assert.equal(welcome.roster[0].name, gitName)
  })
  after(async () => {
    tab?.close()
    await server?.stop()
    ws?.cleanup()
  })

  it('tells the page about a CLI write made in another process, with the revision on disk and in git', async () => {
    const from = tab.messages.length
    const r = await studio(ws.dir, ['deck', 'rename', 'Renamed by the CLI', '--rev', '0', '--deck', ws.deckId, '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const changed = await tab.next(isChanged, from)
    assert.deepEqual(changed, { type: 'changed', deckId: ws.deckId, revision: 1, by: { transport: 'C' }, actionId: 'deck.rename' })
    assert.equal(revisionOnDisk(ws.dir, ws.deckId), 1)
    assert.equal((await ws.git('log', '-1', '--format=%(trailers:key=Studio-Revision,valueonly)')).trim(), '1')
  })

  it('sends exactly one changed for an HTTP write, an MCP write and a window write, in order', async (t) => {
    const from = tab.messages.length
    const http = await call(server.url, 'deck.rename', { name: 'By HTTP', baseRevision: 1 }, { 'x-studio-author': 'Ada' })
    assert.equal(http.status, 200)
    const client = new Client({ name: 'room-e2e', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${ws.deckId}`), { requestInit: { headers: { 'x-studio-author': 'agent:room' } } }))
    try {
      const mcp = await client.callTool({ name: 'deck_rename', arguments: { name: 'By MCP', baseRevision: 2 } })
      assert.ok(!mcp.isError, JSON.stringify(mcp))
    } finally {
      await client.close()
    }
    let revision = 3
    const window = await request(`${server.url}/api/window/deck.rename?deck=${ws.deckId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-studio-client': 'win0000tab01' },
      body: JSON.stringify({ name: 'By the page', baseRevision: 3 }),
    })
    const windowBuilt = window.statusCode !== 404
    await window.body.text()
    if (windowBuilt) {
      assert.equal(window.statusCode, 200)
      revision = 4
    }
    // A last HTTP write closes the sequence: everything before its changed is what the writes above sent.
    assert.equal((await call(server.url, 'deck.rename', { name: 'Sentinel', baseRevision: revision })).status, 200)
    const end = await tab.index((m) => isChanged(m) && m.revision === revision + 1, from)
    const changes = tab.messages.slice(from, end).filter(isChanged).map((m) => [m.revision, m.by.transport, m.by.clientId, m.actionId])
    assert.deepEqual(changes, [
      [2, 'H', undefined, 'deck.rename'],
      [3, 'M', undefined, 'deck.rename'],
      ...(windowBuilt ? [[4, 'P', 'win0000tab01', 'deck.rename']] : []),
    ])
    if (!windowBuilt) t.diagnostic('POST /api/window/<id> is not built on this branch yet: the window write was not checked')
  })

  it('tells the page when git checks out another commit, and when a slide file is edited by hand', async () => {
    let from = tab.messages.length
    const revision = revisionOnDisk(ws.dir, ws.deckId)
    await ws.git('checkout', '-q', '-b', 'older', 'HEAD~2')
    // A checkout rewrites files one by one: on a loaded machine the watcher may announce a state midway
    // (deck.json not yet back: revision null) before the one the checkout ends at.
    const checkedOut = await tab.next((m) => isChanged(m) && (m as { revision: number | null }).revision === revision - 2, from)
    assert.equal(checkedOut.by.transport, 'git')
    assert.equal(checkedOut.revision, revisionOnDisk(ws.dir, ws.deckId))
    assert.equal(checkedOut.revision, revision - 2)
    assert.equal((await ws.git('log', '-1', '--format=%(trailers:key=Studio-Revision,valueonly)')).trim(), String(revision - 2))

    from = tab.messages.length
    const slide = join(ws.dir, 'decks', ws.deckId, 'slides', 'title-1.json')
    writeFileSync(slide, readFileSync(slide, 'utf8').replace(/\n$/, '\n\n'))
    const edited = await tab.next(isChanged, from)
    assert.deepEqual([edited.by.transport, edited.revision], ['git', revision - 2])
    await ws.git('checkout', '-q', '--', '.')
    await ws.git('checkout', '-q', '-')
  })
})

describe('the room: roster, pointers, follow and deck_goto_slide', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  let ada: Tab
  let bob: Tab
  before(async () => {
    ws = await workspaceWithDeck('Presence deck')
    // A second slide to move between.
    assert.equal((await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--after', 'title-1', '--rev', '0', '--json'])).code, 0)
    server = await serve(ws.dir)
  })
  after(async () => {
    ada?.close()
    bob?.close()
    await server?.stop()
    ws?.cleanup()
  })

  it('shows two pages each other in the roster, with slide, selection and pointer', async () => {
    ada = await Tab.open(server.url, ws.deckId, 'ada000000001', { author: 'Ada Lovelace' })
    const welcome = await ada.next((m) => m.type === 'welcome')
    assert.deepEqual(welcome.roster.map((e: Message) => e.clientId), ['ada000000001'])
    bob = await Tab.open(server.url, ws.deckId, 'bob000000002', { author: 'Bob Stone' })
    const seen = await ada.next((m) => isRoster(m) && m.roster.length === 2)
    assert.deepEqual(seen.roster[1], { clientId: 'bob000000002', name: 'Bob Stone', mark: 'BS', slideId: null, selection: [], pointer: null, follow: null, kind: 'page' })

    const from = bob.messages.length
    ada.send({ type: 'presence', slideId: 'title-1', selection: ['title'], pointer: { x: 800, y: 450 } })
    const moved = await bob.next((m) => isRoster(m) && m.roster[0].pointer !== null, from)
    assert.deepEqual(moved.roster[0], { clientId: 'ada000000001', name: 'Ada Lovelace', mark: 'AL', slideId: 'title-1', selection: ['title'], pointer: { x: 800, y: 450 }, follow: null, kind: 'page' })
    const listed = await call(server.url, 'presence.list', {})
    assert.deepEqual(listed.json.roster.map((e: Message) => [e.clientId, e.slideId]), [['ada000000001', 'title-1'], ['bob000000002', null]])
    ada.send({ type: 'ping' })
    await ada.next((m) => m.type === 'pong')
  })

  it('hides a pointer its principal turned off with presence.pointer, and shows it again', async () => {
    const off = await call(server.url, 'presence.pointer', { on: false }, { 'x-studio-author': 'Ada Lovelace' })
    assert.deepEqual(off.json, { deckId: ws.deckId, pointer: false })
    const principals = JSON.parse(readFileSync(join(ws.dir, '.studio', 'principals.json'), 'utf8'))
    assert.equal(principals.principals['Ada Lovelace'].decks[ws.deckId].pointer, false)
    let from = bob.messages.length
    ada.send({ type: 'presence', pointer: { x: 10, y: 20 } })
    const hidden = await bob.next((m) => isRoster(m), from)
    assert.equal(hidden.roster[0].pointer, null)
    from = bob.messages.length
    // From another process: the serving studio notices the principal record change.
    assert.equal((await studio(ws.dir, ['presence', 'pointer', '--on', '--json'], { env: { STUDIO_AUTHOR: 'Ada Lovelace' } })).json.pointer, true)
    const shown = await bob.next((m) => isRoster(m) && m.roster[0].pointer !== null, from)
    assert.deepEqual(shown.roster[0].pointer, { x: 10, y: 20 })
  })

  it('makes Bob\'s page follow Ada\'s slide, and stop following', async () => {
    let from = bob.messages.length
    const followed = await call(server.url, 'presence.follow', { clientId: 'ada000000001' }, { 'x-studio-author': 'Bob Stone' })
    assert.equal(followed.status, 200, JSON.stringify(followed.json))
    assert.deepEqual(followed.json.followers, ['bob000000002'])
    assert.equal(followed.json.following.clientId, 'ada000000001')
    assert.deepEqual(await bob.next((m) => m.type === 'goto', from), { type: 'goto', slideId: 'title-1' })
    assert.equal((await ada.next((m) => isRoster(m) && m.roster[1]?.follow === 'ada000000001')).roster[1].clientId, 'bob000000002')

    from = bob.messages.length
    ada.send({ type: 'presence', slideId: 'title-body-1' })
    assert.deepEqual(await bob.next((m) => m.type === 'goto', from), { type: 'goto', slideId: 'title-body-1' })

    const stopped = await call(server.url, 'presence.unfollow', {}, { 'x-studio-author': 'Bob Stone' })
    assert.deepEqual(stopped.json, { following: null, stopped: ['bob000000002'] })
    from = bob.messages.length
    ada.send({ type: 'presence', slideId: 'title-1' })
    const end = await bob.index((m) => isRoster(m) && m.roster[0].slideId === 'title-1', from)
    assert.ok(!bob.messages.slice(from, end).some((m) => m.type === 'goto'), 'no goto after unfollow')
    const refusedSelf = await call(server.url, 'presence.follow', { clientId: 'nobody000000' }, { 'x-studio-author': 'Bob Stone' })
    assert.deepEqual([refusedSelf.status, refusedSelf.json.code], [404, 'not_found'])
  })

  it('answers studio presence list and follow in another process from the serving studio\'s rooms', async () => {
    const listed = await studio(ws.dir, ['presence', 'list', '--json'])
    assert.equal(listed.code, 0, listed.stdout + listed.stderr)
    assert.deepEqual(listed.json.roster.map((e: Message) => e.clientId), ['ada000000001', 'bob000000002'])
    const from = bob.messages.length
    const followed = await studio(ws.dir, ['presence', 'follow', 'ada000000001', '--json'], { env: { STUDIO_AUTHOR: 'Bob Stone' } })
    assert.equal(followed.code, 0, followed.stdout + followed.stderr)
    assert.deepEqual(followed.json.followers, ['bob000000002'])
    assert.deepEqual(await bob.next((m) => m.type === 'goto', from), { type: 'goto', slideId: 'title-1' })
    const stopped = await studio(ws.dir, ['presence', 'unfollow', '--json'], { env: { STUDIO_AUTHOR: 'Bob Stone' } })
    assert.deepEqual(stopped.json, { following: null, stopped: ['bob000000002'] })
    const human = await studio(ws.dir, ['presence', 'list'])
    assert.match(human.stdout, /AL\s+Ada Lovelace \(page ada000000001\) on title-1/)
  })

  it('refuses presence.follow for agents: an MCP caller, or an agent author over HTTP', async () => {
    const client = new Client({ name: 'room-agent', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${ws.deckId}`)))
    try {
      const r = await client.callTool({ name: 'deck_follow_client', arguments: { clientId: 'ada000000001' } })
      assert.equal(r.isError, true)
      assert.deepEqual([(r.structuredContent as Message).status, (r.structuredContent as Message).code], [403, 'forbidden'])
    } finally {
      await client.close()
    }
    const http = await call(server.url, 'presence.follow', { clientId: 'ada000000001' }, { 'x-studio-author': 'agent:run-3' })
    assert.deepEqual([http.status, http.json.code], [403, 'forbidden'])
  })

  it('lists deck_goto_slide only while a page is attached, and moves the page with it', async () => {
    ada.close()
    bob.close()
    await Promise.all([ada.closing(), bob.closing()])
    const client = new Client({ name: 'room-goto', version: '1.0.0' })
    let listChanged = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++)
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${ws.deckId}`), { requestInit: { headers: { 'x-studio-author': 'agent:guide' } } })
    await client.connect(transport)
    const names = async () => (await client.listTools()).tools.map((t) => t.name)
    const until = async (condition: () => boolean | Promise<boolean>) => {
      const started = Date.now()
      while (!(await condition())) {
        if (Date.now() - started > 10_000) throw new Error('timed out')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    try {
      // The GET stream carries notifications that are not answers to a call.
      assert.ok(!(await names()).includes('deck_goto_slide'))
      const page = await Tab.open(server.url, ws.deckId, 'page00000003', { author: 'Ada Lovelace' })
      await page.next((m) => m.type === 'welcome')
      await until(async () => listChanged >= 1 && (await names()).includes('deck_goto_slide'))
      const agent = await page.next((m) => isRoster(m) && m.roster.some((e: Message) => e.kind === 'agent' && e.name === 'agent:guide'))
      assert.ok(agent)
      const from = page.messages.length
      const r = await client.callTool({ name: 'deck_goto_slide', arguments: { slideId: 'title-body-1' } })
      assert.ok(!r.isError, JSON.stringify(r))
      assert.deepEqual(await page.next((m) => m.type === 'goto', from), { type: 'goto', slideId: 'title-body-1' })
      const moved = await page.next((m) => isRoster(m) && m.roster.some((e: Message) => e.kind === 'agent' && e.slideId === 'title-body-1'), from)
      assert.ok(moved)
      page.close()
      await page.closing()
      await until(async () => listChanged >= 2 && !(await names()).includes('deck_goto_slide'))
    } finally {
      await client.close()
    }
  })
})

describe('the room: kill switches', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  before(async () => {
    ws = await workspaceWithDeck('Switched deck')
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  it('realtime: refuses upgrades with 503 and closes open sockets with 4503, whichever process turns it on', async () => {
    const open = await Tab.open(server.url, ws.deckId, 'kill00000001')
    await open.next((m) => m.type === 'welcome')
    assert.equal((await call(server.url, 'admin.flag', { name: 'realtime', on: true })).json.on, true)
    assert.equal((await open.closing()).code, 4503)
    const refused = await Tab.open(server.url, ws.deckId, 'kill00000002').then(
      () => assert.fail('upgraded while switched off'),
      (e) => e,
    )
    assert.deepEqual([refused.status, refused.body.code, refused.body.details.flag], [503, 'switched_off', 'realtime'])

    assert.equal((await studio(ws.dir, ['admin', 'flag', 'realtime', '--on', 'false', '--json'])).json.on, false)
    const again = await Tab.open(server.url, ws.deckId, 'kill00000003')
    await again.next((m) => m.type === 'welcome')
    // Turned on by a command in another process: the serving studio sees the file change.
    assert.equal((await studio(ws.dir, ['admin', 'flag', 'realtime', '--on', 'true', '--json'])).json.on, true)
    assert.equal((await again.closing()).code, 4503)
    assert.equal((await studio(ws.dir, ['admin', 'flag', 'realtime', '--on', 'false', '--json'])).json.on, false)
  })

  it('presence: stops roster traffic and the presence actions, while changed still arrives', async () => {
    const a = await Tab.open(server.url, ws.deckId, 'pres00000001', { author: 'Ada' })
    const b = await Tab.open(server.url, ws.deckId, 'pres00000002', { author: 'Bob' })
    await b.next((m) => m.type === 'welcome')
    await a.next((m) => isRoster(m) && m.roster.length === 2)
    try {
      assert.equal((await call(server.url, 'admin.flag', { name: 'presence', on: true })).json.on, true)
      const cleared = await b.next((m) => isRoster(m) && m.roster.length === 0)
      const from = b.messages.indexOf(cleared) + 1
      a.send({ type: 'presence', slideId: 'title-1', pointer: { x: 1, y: 2 } })
      const revision = revisionOnDisk(ws.dir, ws.deckId)
      assert.equal((await call(server.url, 'deck.rename', { name: 'Still live', baseRevision: revision })).status, 200)
      const end = await b.index(isChanged, from)
      assert.deepEqual(b.messages.slice(from, end).filter(isRoster), [], 'no roster while presence is off')
      const listed = await call(server.url, 'presence.list', {})
      assert.deepEqual([listed.status, listed.json.code], [503, 'switched_off'])
      const late = await Tab.open(server.url, ws.deckId, 'pres00000003')
      assert.deepEqual((await late.next((m) => m.type === 'welcome')).roster, [])
      late.close()
    } finally {
      await call(server.url, 'admin.flag', { name: 'presence', on: false })
      a.close()
      b.close()
    }
  })
})

describe('slide ids minted by a page tab', () => {
  it('end with the first four base36 characters of the tab\'s client id, in one rule for new, inserted and duplicated slides', async () => {
    const ws = await workspaceWithDeck('Minted deck')
    try {
      const workspace = Workspace.find({ root: ws.dir })
      const options = { ws: workspace, transport: 'P' as const, deck: ws.deckId, clientId: 'k3x9q0w1e2r3' }
      const made = (await dispatch(findAction('slide.new')!, { layout: 'title-body', after: 'title-1', baseRevision: 0 }, options)).result as { slide: { id: string } }
      assert.equal(made.slide.id, 'title-body-1-k3x9')
      const again = (await dispatch(findAction('slide.new')!, { layout: 'title-body', after: 'title-1', baseRevision: 1 }, options)).result as { slide: { id: string } }
      assert.equal(again.slide.id, 'title-body-2-k3x9')
      const copies = (await dispatch(findAction('slide.duplicate')!, { slideIds: ['title-1'], baseRevision: 2 }, options)).result as { copies: { id: string }[] }
      assert.deepEqual(copies.copies.map((c) => c.id), ['title-1-k3x9'])
      // Without a client id (any other transport) the id stays <layout>-<n>.
      const plain = (await dispatch(findAction('slide.new')!, { layout: 'title-body', baseRevision: 3 }, { ws: workspace, transport: 'H', deck: ws.deckId })).result as { slide: { id: string } }
      assert.equal(plain.slide.id, 'title-body-1')
      const files = await ws.git('ls-files', `decks/${ws.deckId}/slides`)
      assert.deepEqual(files.trim().split('\n').map((f) => f.split('/').pop()).sort(), ['title-1-k3x9.json', 'title-1.json', 'title-body-1-k3x9.json', 'title-body-1.json', 'title-body-2-k3x9.json'])
    } finally {
      ws.cleanup()
    }
  })
})
