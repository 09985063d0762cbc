/**
 * The HTTP and MCP protocol contracts an agent relies on, against a real `studio serve` on loopback
 * and the MCP SDK's own client:
 *
 * - errors are RFC 9457 problem details; a wrong method is 405 with Allow; HEAD wherever GET;
 * - a body over the cap answers 413 to a client still sending (no reset), every time;
 * - force by query and by header writes through a lease, on plain HTTP and on MCP over HTTP;
 * - an unknown tool is JSON-RPC -32602 with the error body as data, arguments outside its schema a
 *   tool result with isError and the error body; malformed JSON on /mcp is -32700;
 * - tool annotations say the truth;
 * - every example in /llms.txt works when pasted, and every link in it resolves.
 */
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { request } from 'undici'
import { serve, studio, workspaceWithDeck, type Served } from '../helpers/studio.js'

describe('the HTTP and MCP protocol contracts', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  before(async () => {
    ws = await workspaceWithDeck('Protocol')
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    return { status: r.statusCode, headers: r.headers, json: (await r.body.json()) as any }
  }
  const revision = async () => (await post('/api/actions/deck.info', {})).json.revision as number

  describe('HTTP', () => {
    it('answers errors as RFC 9457 problem details, keeping code, pointer, currentRevision and current', async () => {
      const stale = await post('/api/actions/deck.rename', { name: 'X', baseRevision: (await revision()) + 5 })
      assert.equal(stale.status, 409)
      assert.match(String(stale.headers['content-type']), /^application\/problem\+json/)
      assert.equal(stale.json.type, 'urn:deck-studio:error:stale_revision')
      assert.equal(stale.json.title, 'Stale revision')
      assert.equal(stale.json.status, 409)
      assert.equal(stale.json.detail, stale.json.message)
      assert.equal(stale.json.code, 'stale_revision')
      assert.equal(stale.json.currentRevision, await revision())
      assert.equal(stale.json.current.manifest.id, ws.deckId)
      const unknown = await post('/api/actions/deck.rename', { name: 'X', baseRevision: 0, zz: 1 })
      assert.deepEqual([unknown.status, unknown.json.type, unknown.json.pointer], [400, 'urn:deck-studio:error:unknown_field', '/zz'])
      const missing = await post('/api/actions/nope.nothing', {})
      assert.deepEqual([missing.status, missing.json.title, missing.json.code], [404, 'Not found', 'not_found'])
      assert.match(String(missing.headers['content-type']), /^application\/problem\+json/)
    })

    it('answers 405 with Allow for a wrong method, and HEAD wherever GET is served', async () => {
      const cases: [string, string, string][] = [
        ['DELETE', '/api/actions/deck.info', 'GET, HEAD, POST'],
        ['POST', '/openapi.json', 'GET, HEAD'],
        ['PUT', '/llms.txt', 'GET, HEAD'],
        ['GET', '/api/decks/bundle', 'POST'],
        ['POST', `/api/decks/${ws.deckId}/bundle`, 'GET, HEAD'],
      ]
      for (const [method, path, allow] of cases) {
        const r = await request(`${server.url}${path}`, { method: method as 'GET' })
        const body = (await r.body.json()) as any
        assert.equal(r.statusCode, 405, `${method} ${path}`)
        assert.equal(r.headers.allow, allow, `${method} ${path}`)
        assert.deepEqual([body.code, body.details.allow.join(', ')], ['method_not_allowed', allow])
      }
      for (const path of ['/openapi.json', '/llms.txt', '/api/agent', '/api/actions/deck.info', '/', '/docs/errors.md', `/api/decks/${ws.deckId}/bundle`]) {
        const get = await request(`${server.url}${path}`)
        await get.body.arrayBuffer()
        const head = await request(`${server.url}${path}`, { method: 'HEAD' })
        assert.equal(head.statusCode, 200, path)
        assert.equal(head.headers['content-type'], get.headers['content-type'], path)
        assert.equal((await head.body.arrayBuffer()).byteLength, 0, path)
      }
    })

    it('answers 413 to a client still sending a chunked body over the cap, every time', async () => {
      for (let i = 0; i < 10; i++) {
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        async function* body() {
          for (let n = 0; n < 32; n++) yield chunk // 2 MiB, over the 1 MiB cap
        }
        const r = await request(`${server.url}/api/actions/deck.info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Readable.from(body()) })
        const json = (await r.body.json()) as any
        assert.equal(r.statusCode, 413, `round ${i}`)
        assert.equal(json.code, 'payload_too_large')
      }
    })

    it('writes through a lease with force by query or by header, and not without', async () => {
      const lease = await studio(ws.dir, ['lease', 'title-1', '--author', 'alice', '--json'])
      assert.equal(lease.code, 0, lease.stdout)
      const patch = (n: number) => ({ slideId: 'title-1', mutations: [{ kind: 'notes.set', notes: `Try ${n}` }] })
      const blocked = await post('/api/actions/slide.update', { ...patch(0), baseRevision: await revision() }, { 'x-studio-author': 'bob' })
      assert.deepEqual([blocked.status, blocked.json.code], [409, 'leased'])
      const byQuery = await post('/api/actions/slide.update?force=1', { ...patch(1), baseRevision: await revision() }, { 'x-studio-author': 'bob' })
      assert.equal(byQuery.status, 200, JSON.stringify(byQuery.json))
      const byHeader = await post('/api/actions/slide.update', { ...patch(2), baseRevision: await revision() }, { 'x-studio-author': 'bob', 'x-studio-force': '1' })
      assert.equal(byHeader.status, 200, JSON.stringify(byHeader.json))
      await studio(ws.dir, ['lease', 'title-1', '--release', '--author', 'alice', '--json'])
    })
  })

  describe('MCP over HTTP', () => {
    const connect = async (query = '', headers: Record<string, string> = {}) => {
      const client = new Client({ name: 'protocol', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp${query}`), { requestInit: { headers: { 'x-studio-author': 'bob', ...headers } } }))
      return client
    }

    it('answers an unknown tool with -32602 and the error body as data, arguments outside the schema with an isError result', async () => {
      const client = await connect()
      try {
        await assert.rejects(client.callTool({ name: 'deck_nothing', arguments: {} }), (error: unknown) => {
          assert.ok(error instanceof McpError)
          assert.equal(error.code, -32602)
          assert.equal((error.data as any).code, 'not_found')
          return true
        })
        const wrongType = (await client.callTool({ name: 'deck_rename', arguments: { name: 'X', baseRevision: 'seven' } })) as any
        assert.equal(wrongType.isError, true)
        assert.deepEqual([wrongType.structuredContent.status, wrongType.structuredContent.code, wrongType.structuredContent.pointer], [400, 'invalid_input', '/baseRevision'])
        const unknown = (await client.callTool({ name: 'deck_rename', arguments: { name: 'X', baseRevision: 0, zz: true } })) as any
        assert.deepEqual([unknown.isError, unknown.structuredContent.code, unknown.structuredContent.pointer], [true, 'unknown_field', '/zz'])
        // A failure while the tool runs stays a tool result with isError (a stale revision: 409 and the current document).
        const stale = (await client.callTool({ name: 'deck_rename', arguments: { name: 'X', baseRevision: 999 } })) as any
        assert.equal(stale.isError, true)
        assert.equal(stale.structuredContent.code, 'stale_revision')
      } finally {
        await client.close()
      }
    })

    it('answers malformed JSON on /mcp with a JSON-RPC parse error (-32700), status 400', async () => {
      const r = await request(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "method": ' })
      const json = (await r.body.json()) as any
      assert.equal(r.statusCode, 400)
      assert.deepEqual([json.jsonrpc, json.error.code, json.id], ['2.0', -32700, null])
    })

    it('can force a write through a lease when the session is opened with ?force=1 or x-studio-force', async () => {
      const lease = await studio(ws.dir, ['lease', 'title-1', '--author', 'alice', '--json'])
      assert.equal(lease.code, 0, lease.stdout)
      const args = async (n: number) => ({ slideId: 'title-1', mutations: [{ kind: 'notes.set', notes: `MCP ${n}` }], baseRevision: await revision() })
      const plain = await connect()
      const forcedByQuery = await connect('?force=1')
      const forcedByHeader = await connect('', { 'x-studio-force': '1' })
      try {
        const blocked = (await plain.callTool({ name: 'deck_update_slide', arguments: await args(0) })) as any
        assert.deepEqual([blocked.isError, blocked.structuredContent?.code], [true, 'leased'])
        const one = (await forcedByQuery.callTool({ name: 'deck_update_slide', arguments: await args(1) })) as any
        assert.equal(one.isError, undefined, JSON.stringify(one.structuredContent))
        const two = (await forcedByHeader.callTool({ name: 'deck_update_slide', arguments: await args(2) })) as any
        assert.equal(two.isError, undefined, JSON.stringify(two.structuredContent))
      } finally {
        await Promise.all([plain.close(), forcedByQuery.close(), forcedByHeader.close()])
        await studio(ws.dir, ['lease', 'title-1', '--release', '--author', 'alice', '--json'])
      }
    })

    it('annotates tools truthfully: repair and renders write, trash/sections/version restore are destructive, restore is not', async () => {
      const client = await connect()
      try {
        const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations!]))
        assert.equal(tools.get('deck_repair')!.readOnlyHint, false)
        assert.equal(tools.get('deck_render')!.readOnlyHint, false)
        assert.equal(tools.get('deck_build')!.readOnlyHint, false)
        for (const name of ['deck_trash', 'deck_set_sections', 'deck_version_restore']) assert.equal(tools.get(name)!.destructiveHint, true, name)
        assert.equal(tools.get('deck_restore')!.destructiveHint, false)
        for (const name of ['deck_get_info', 'deck_list_themes']) assert.deepEqual([tools.get(name)!.readOnlyHint, tools.get(name)!.destructiveHint], [true, false], name)
        // Every tool that writes says so.
        const { ACTIONS } = await import('../../src/actions/index.js')
        for (const action of ACTIONS.filter((a) => a.mcp && a.implemented && a.mutates)) assert.equal(tools.get(action.mcp!)?.readOnlyHint, false, action.id)
      } finally {
        await client.close()
      }
    })
  })

  describe('/llms.txt', () => {
    it('holds examples that work when pasted and links that resolve', async () => {
      // The deck is past its first revision: the examples must carry the current one.
      assert.equal((await post('/api/actions/deck.rename', { name: 'Before the guide', baseRevision: await revision() })).status, 200)
      const r = await request(`${server.url}/llms.txt`)
      const text = await r.body.text()
      assert.equal(r.statusCode, 200)
      assert.match(text, new RegExp(`this server's deck: ${ws.deckId} \\(revision \\d+`))
      const curls = text.split('\n').filter((line) => line.trim().startsWith('curl '))
      assert.ok(curls.length >= 2, text)
      for (const line of curls) {
        const url = /'(http[^']+)'/.exec(line)![1]
        const headers = Object.fromEntries([...line.matchAll(/-H '([^:]+): ([^']+)'/g)].map((m) => [m[1], m[2]]))
        const body = /-d '([^']*)'/.exec(line)![1]
        const answer = await request(url, { method: 'POST', headers, body })
        const said = await answer.body.text()
        assert.equal(answer.statusCode, 200, `${line}\n${said}`)
      }
      const links = [...text.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1])
      assert.ok(links.length >= 8, `${links.length} links`)
      for (const link of links) {
        const path = new URL(link).pathname
        const answer = path === '/mcp' ? await request(link, { method: 'HEAD' }) : await request(link)
        await answer.body.arrayBuffer()
        if (path === '/mcp') assert.equal(answer.statusCode, 405, link) // MCP answers GET/POST/DELETE with a session; the endpoint exists
        else assert.equal(answer.statusCode, 200, link)
      }
    })
  })
})
