import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema, type Notification } from '@modelcontextprotocol/sdk/types.js'
import { ACTIONS, findAction, findByMcp } from '../../src/actions/index.js'
import { dispatch } from '../../src/core/engine.js'
import { studioEvents } from '../../src/core/events.js'
import { Workspace } from '../../src/store/workspace.js'
import { McpHttpHandler } from '../../src/transports/mcp/http.js'
import { BIN, commitCount, workspaceWithDeck } from '../helpers/studio.js'

/** Resolves with the first collected item that matches, or fails after `ms`. */
function waitFor<T>(items: T[], match: (item: T) => boolean, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const tick = () => {
      const hit = items.find(match)
      if (hit) return resolve(hit)
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting; got ${JSON.stringify(items)}`))
      setTimeout(tick, 20)
    }
    tick()
  })
}

function env(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '' })) if (value !== undefined) out[key] = value
  return out
}

describe('MCP over stdio (studio mcp)', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let client: Client
  let transport: StdioClientTransport
  const notifications: Notification[] = []
  const clientErrors: Error[] = []
  let stderr = ''

  before(async () => {
    ws = await workspaceWithDeck('Board update')
    transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', ws.dir], cwd: ws.dir, env: env(), stderr: 'pipe' })
    transport.stderr?.on('data', (d) => (stderr += d))
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' })
    client.onerror = (error) => clientErrors.push(error)
    client.fallbackNotificationHandler = async (n) => void notifications.push(n)
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void notifications.push(n))
    await client.connect(transport)
  })
  after(async () => {
    await client?.close()
    ws?.cleanup()
  })

  it('introduces itself as deck-studio with tools, subscribable resources and prompts', () => {
    assert.deepEqual(client.getServerVersion(), { name: 'deck-studio', version: '0.1.0' })
    const caps = client.getServerCapabilities()
    assert.deepEqual(caps?.tools, { listChanged: true })
    assert.deepEqual(caps?.resources, { subscribe: true, listChanged: true })
    assert.ok(caps?.prompts)
  })

  it('lists one tool per implemented MCP action, with the table input schema as is and annotations on every tool', async () => {
    const { tools } = await client.listTools()
    const expected = ACTIONS.filter((a) => a.implemented && a.mcp).map((a) => a.mcp)
    assert.deepEqual(tools.map((t) => t.name).sort(), [...expected].sort())
    for (const name of ['deck_get_info', 'deck_rename', 'deck_create']) {
      const tool = tools.find((t) => t.name === name)!
      const action = findByMcp(name)!
      assert.deepEqual(tool.inputSchema, action.input, name)
      assert.equal(tool.description, action.doc)
      assert.equal(tool.title, action.label)
    }
    // Every action declared with an MCP tool is built now (the last to be built, admin.migrateStorage, has
    // no tool); an action declared but not built would be listed by no tool.
    for (const unbuilt of ACTIONS.filter((a) => !a.implemented && a.mcp)) assert.ok(!tools.some((t) => t.name === unbuilt.mcp), `${unbuilt.mcp} is declared but not implemented`)
    assert.ok(!tools.some((t) => t.name === 'deck_goto_slide'), 'no page is attached')
    assert.ok(!tools.some((t) => t.name === 'deck_remove'), 'deck.remove has no MCP tool')
    // Every tool's hints against its declaration: test/e2e/mcp-annotations.e2e.test.ts.
    const byName = (name: string) => tools.find((t) => t.name === name)!.annotations!
    assert.deepEqual(byName('deck_get_info'), { title: 'Deck info', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false })
    assert.equal(byName('deck_rename').readOnlyHint, false)
    assert.equal(byName('deck_rename').idempotentHint, false)
    assert.equal(byName('deck_trash').destructiveHint, true)
    assert.equal(byName('deck_repair').readOnlyHint, false)
    assert.equal(byName('deck_delete_template').destructiveHint, true)
    assert.equal(byName('deck_rename_template').idempotentHint, true)
  })

  it('reads through deck_get_info: structured content and the same JSON as text', async () => {
    const info = await client.callTool({ name: 'deck_get_info', arguments: {} })
    assert.ok(!info.isError, JSON.stringify(info))
    const structured = info.structuredContent as { id: string; revision: number }
    assert.equal(structured.id, ws.deckId)
    assert.equal(structured.revision, 0)
    assert.deepEqual(JSON.parse((info.content as { text: string }[])[0].text), structured)
  })

  it('commits a write as agent:stdio, one commit, and tells the session the deck moved', async () => {
    await client.subscribeResource({ uri: `deck://${ws.deckId}` })
    const commits = await commitCount(ws.git)
    const renamed = await client.callTool({ name: 'deck_rename', arguments: { name: 'Board update (final)', baseRevision: 0 } })
    assert.ok(!renamed.isError, JSON.stringify(renamed))
    assert.equal((renamed.structuredContent as { revision: number }).revision, 1)
    assert.equal(await commitCount(ws.git), commits + 1)
    assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), 'agent:stdio')
    const moved = await waitFor(notifications, (n) => n.method === 'notifications/studio/revision')
    assert.deepEqual(moved.params, { deckId: ws.deckId, revision: 1, action: 'deck.rename', author: 'agent:stdio' })
    const updated = await waitFor(notifications, (n) => n.method === 'notifications/resources/updated')
    assert.deepEqual(updated.params, { uri: `deck://${ws.deckId}` })
  })

  it('answers a stale baseRevision with an isError result: 409, stale_revision, currentRevision and the document', async () => {
    const commits = await commitCount(ws.git)
    const stale = await client.callTool({ name: 'deck_rename', arguments: { name: 'Too late', baseRevision: 0 } })
    assert.equal(stale.isError, true)
    const body = stale.structuredContent as { status: number; code: string; currentRevision: number; current: { manifest: { title: string } } }
    assert.equal(body.status, 409)
    assert.equal(body.code, 'stale_revision')
    assert.equal(body.currentRevision, 1)
    assert.equal(body.current.manifest.title, 'Board update (final)')
    assert.deepEqual(JSON.parse((stale.content as { text: string }[])[0].text), body)
    assert.equal(await commitCount(ws.git), commits)
  })

  it('validates arguments with the action schema: an unknown argument is an isError result carrying unknown_field and its pointer', async () => {
    const invalid = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'deck_rename', arguments: args })
      assert.equal(result.isError, true, JSON.stringify(result))
      assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), result.structuredContent)
      return result.structuredContent as { status: number; code: string; pointer: string }
    }
    const body = await invalid({ name: 'X', baseRevision: 1, colour: 'red' })
    assert.deepEqual([body.status, body.code, body.pointer], [400, 'unknown_field', '/colour'])
    assert.equal((await invalid({})).code, 'invalid_input')
  })

  it('answers an unknown tool with -32602 (404 in data), and a declared-but-unbuilt one with 501 as a result', async () => {
    await assert.rejects(client.callTool({ name: 'deck_fly', arguments: {} }), (error: unknown) => {
      assert.ok(error instanceof McpError && error.code === ErrorCode.InvalidParams)
      assert.deepEqual([(error.data as { status: number }).status, (error.data as { code: string }).code], [404, 'not_found'])
      return true
    })
    // A declared-but-unbuilt tool answers 501 as a result (none is left with an MCP tool: the engine's
    // 501 is held by test/unit/core/engine.unit.test.ts and, for admin.migrateStorage, the CLI and HTTP).
    for (const unbuilt of ACTIONS.filter((a) => !a.implemented && a.mcp)) {
      const later = await client.callTool({ name: unbuilt.mcp!, arguments: {} })
      assert.equal(later.isError, true)
      assert.equal((later.structuredContent as { status: number }).status, 501)
      assert.equal((later.structuredContent as { code: string }).code, 'not_implemented')
    }
    const goto = await client.callTool({ name: 'deck_goto_slide', arguments: { slideId: 'title-1' } })
    assert.equal(goto.isError, true)
    assert.equal((goto.structuredContent as { code: string }).code, 'not_found')
  })

  it('serves the deck and its slides as deck:// resources, and refuses an unknown URI with InvalidParams', async () => {
    const { resources } = await client.listResources()
    assert.deepEqual(resources[0], { uri: `deck://${ws.deckId}`, name: 'Board update (final)', description: resources[0].description, mimeType: 'application/json' })
    const slide = resources.find((r) => r.uri === `deck://${ws.deckId}/slides/title-1`)
    assert.ok(slide, JSON.stringify(resources))
    assert.equal(slide.name, 'Board update')
    const read = await client.readResource({ uri: `deck://${ws.deckId}` })
    const content = read.contents[0] as { uri: string; mimeType: string; text: string }
    assert.equal(content.mimeType, 'application/json')
    const doc = JSON.parse(content.text)
    assert.equal(doc.manifest.id, ws.deckId)
    assert.equal(doc.manifest.revision, 1)
    assert.ok(doc.slides['title-1'])
    const slideRead = await client.readResource({ uri: `deck://${ws.deckId}/slides/title-1` })
    assert.equal(JSON.parse((slideRead.contents[0] as { text: string }).text).id, 'title-1')
    for (const uri of ['deck://no-such-deck', `deck://${ws.deckId}/slides/nope`, 'file:///etc/passwd']) {
      await assert.rejects(client.readResource({ uri }), (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams, uri)
    }
  })

  it('offers the deck_review prompt with the deck outline and the focus embedded', async () => {
    const { prompts } = await client.listPrompts()
    assert.deepEqual(prompts.map((p) => p.name), ['deck_review'])
    assert.deepEqual(prompts[0].arguments, [{ name: 'focus', description: prompts[0].arguments![0].description, required: false }])
    const prompt = await client.getPrompt({ name: 'deck_review', arguments: { focus: 'the opening' } })
    const text = (prompt.messages[0].content as { text: string }).text
    assert.equal(prompt.messages[0].role, 'user')
    assert.match(text, /clarity, structure and consistency/)
    assert.match(text, /the opening/)
    assert.match(text, /title-1: Board update/)
    assert.match(text, /revision 1/)
    await assert.rejects(client.getPrompt({ name: 'nope' }), (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams)
  })

  it('keeps stdout for the protocol: no stray output broke the stream', () => {
    assert.deepEqual(clientErrors, [])
    assert.match(stderr, /studio mcp: serving/)
  })
})

describe('MCP over streamable HTTP (McpHttpHandler)', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let handler: McpHttpHandler
  let http: HttpServer
  let base: string
  let attached = false
  const listenersBefore = studioEvents.listenerCount('revision')

  async function body(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined
  }

  before(async () => {
    ws = await workspaceWithDeck('Sales kickoff')
    handler = new McpHttpHandler({ ws: Workspace.find({ root: ws.dir }), pageAttached: () => attached })
    http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      if (url.pathname !== '/mcp') {
        res.writeHead(404).end()
        return
      }
      const author = req.headers['x-studio-author']
      ;(async () => {
        const parsed = req.method === 'POST' ? await body(req) : undefined
        await handler.handle(req, res, parsed, { deck: url.searchParams.get('deck') ?? undefined, author: typeof author === 'string' ? author : undefined })
      })().catch((error) => {
        if (!res.headersSent) res.writeHead(500).end(String(error))
        else res.destroy()
      })
    })
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  })
  after(async () => {
    await handler?.closeAll()
    http?.closeAllConnections()
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()))
    ws?.cleanup()
  })

  it('refuses a first request that is not initialize (400) and an unknown session id (404)', async () => {
    const list = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    assert.equal(list.status, 400)
    assert.equal((await list.json()).jsonrpc, '2.0')
    const ghost = await fetch(`${base}/mcp`, { method: 'GET', headers: { 'mcp-session-id': 'no-such-session', accept: 'text/event-stream' } })
    assert.equal(ghost.status, 404)
    assert.equal((await ghost.json()).error.code, -32001)
    assert.equal(handler.size, 0)
  })

  it('binds deck and author at initialize, commits as that author, streams updates, and forgets a terminated session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp?deck=${ws.deckId}`), { requestInit: { headers: { 'x-studio-author': 'agent:test' } } })
    const client = new Client({ name: 'mcp-http-e2e', version: '1.0.0' })
    const notifications: Notification[] = []
    client.fallbackNotificationHandler = async (n) => void notifications.push(n)
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void notifications.push(n))
    client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => void notifications.push(n))
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void notifications.push(n))
    try {
      await client.connect(transport)
      const sessionId = transport.sessionId!
      assert.ok(sessionId)
      assert.equal(handler.size, 1)
      assert.equal(studioEvents.listenerCount('revision'), listenersBefore + 1)

      const { tools } = await client.listTools()
      assert.ok(tools.some((t) => t.name === 'deck_rename'))
      assert.ok(!tools.some((t) => t.name === 'deck_goto_slide'))

      await client.listResources()
      await client.subscribeResource({ uri: `deck://${ws.deckId}` })
      const commits = await commitCount(ws.git)
      const renamed = await client.callTool({ name: 'deck_rename', arguments: { name: 'Sales kickoff 2027', baseRevision: 0 } })
      assert.ok(!renamed.isError, JSON.stringify(renamed))
      assert.equal((renamed.structuredContent as { revision: number }).revision, 1)
      assert.equal(await commitCount(ws.git), commits + 1)
      assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), 'agent:test')
      // The session's own write: the notifications ride on the tool call's own response stream,
      // ahead of its result, so they are here as soon as the call returns (no GET stream needed).
      assert.deepEqual(notifications.find((n) => n.method === 'notifications/resources/updated')?.params, { uri: `deck://${ws.deckId}` })
      assert.deepEqual(notifications.find((n) => n.method === 'notifications/studio/revision')?.params, { deckId: ws.deckId, revision: 1, action: 'deck.rename', author: 'agent:test' })
      // The deck resource's name is its title, so the resource list changed too.
      await waitFor(notifications, (n) => n.method === 'notifications/resources/list_changed')

      // A write by someone else in this process arrives on the session's GET stream.
      notifications.length = 0
      await dispatch(findAction('deck.rename')!, { name: 'Sales kickoff (final)', baseRevision: 1 }, { ws: Workspace.find({ root: ws.dir }), transport: 'H', deck: ws.deckId, author: 'Ada' })
      const updated = await waitFor(notifications, (n) => n.method === 'notifications/resources/updated')
      assert.deepEqual(updated.params, { uri: `deck://${ws.deckId}` })
      const moved = await waitFor(notifications, (n) => n.method === 'notifications/studio/revision')
      assert.deepEqual(moved.params, { deckId: ws.deckId, revision: 2, action: 'deck.rename', author: 'Ada' })

      // A page attaches: deck_goto_slide appears, and the session is told to list again.
      attached = true
      await handler.refreshTools()
      await waitFor(notifications, (n) => n.method === 'notifications/tools/list_changed')
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'deck_goto_slide'))
      const goto = await client.callTool({ name: 'deck_goto_slide', arguments: { slideId: 'title-1', extra: 1 } })
      assert.equal((goto.structuredContent as { code: string }).code, 'unknown_field')
      attached = false

      await transport.terminateSession()
      assert.equal(handler.size, 0)
      assert.equal(studioEvents.listenerCount('revision'), listenersBefore)
      const after = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      })
      assert.equal(after.status, 404)
    } finally {
      await client.close()
    }
  })

  it('keeps sessions apart: each binds its own deck default and author, and closeAll ends them all', async () => {
    const open = async (author: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-studio-author': author } } })
      const client = new Client({ name: author, version: '1.0.0' })
      await client.connect(transport)
      return client
    }
    const a = await open('agent:a')
    const b = await open('agent:b')
    try {
      assert.equal(handler.size, 2)
      const info = await b.callTool({ name: 'deck_get_info', arguments: {} })
      const revision = (info.structuredContent as { revision: number }).revision
      await a.callTool({ name: 'deck_rename', arguments: { name: 'By A', baseRevision: revision } })
      assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), 'agent:a')
      await b.callTool({ name: 'deck_rename', arguments: { name: 'By B', baseRevision: revision + 1 } })
      assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), 'agent:b')
      await handler.closeAll()
      assert.equal(handler.size, 0)
      assert.equal(studioEvents.listenerCount('revision'), listenersBefore)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
