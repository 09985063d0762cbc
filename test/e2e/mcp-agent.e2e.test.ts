/**
 * An agent's first session, through the MCP SDK's own client: over stdio (`studio mcp`) and over
 * streamable HTTP (`/mcp` of a real `studio serve`), starting in a workspace with no deck, it creates
 * one and works in it; every failure of a tool call, input validation included, is a tool result
 * with isError and the error body, so the agent can correct itself.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { BIN, commitCount, serve, workspace, type Served, type TestWorkspace } from '../helpers/studio.js'

type Body = { status: number; code: string; message: string; pointer?: string }

function env(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '' })) if (value !== undefined) out[key] = value
  return out
}

async function stdioClient(ws: TestWorkspace, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', ws.dir, ...args], cwd: ws.dir, env: env(), stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (d) => (stderr += d))
  const client = new Client({ name: 'mcp-agent-e2e', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => stderr }
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  assert.ok(!result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`)
  return result.structuredContent
}

/** A call that must fail as a tool result: isError, the error body as structured content and the same JSON as text. */
async function failed(client: Client, name: string, args: Record<string, unknown>): Promise<Body> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  assert.equal(result.isError, true, `${name} did not fail: ${JSON.stringify(result.structuredContent)}`)
  const body = result.structuredContent as Body
  assert.equal(typeof body.status, 'number')
  assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), body)
  assert.doesNotMatch(body.message, /MCP error/)
  return body
}

/** From nothing: create a deck, insert a slide, write its text, read it back. */
async function firstDeck(client: Client, ws: TestWorkspace, name: string, extra: Record<string, unknown> = {}) {
  const created = await call(client, 'deck_create', { name, from: 'blank', ...extra })
  const info = await call(client, 'deck_get_info', {})
  assert.equal(info.id, created.id, 'the session works in the deck it created')
  const inserted = await call(client, 'deck_new_slide', { layout: 'title-body', baseRevision: info.revision })
  const slideId = inserted.slide.id as string
  const body = inserted.slide.blocks.find((b: { slot: string }) => b.slot === 'body').id as string
  const commits = await commitCount(ws.git)
  const written = await call(client, 'deck_update_block', { slideId, blockId: body, path: '/text', value: 'Costs fell by two thirds.', baseRevision: inserted.revision })
  assert.equal(await commitCount(ws.git), commits + 1)
  const read = await call(client, 'deck_get_slide', { slideId })
  assert.equal(read.slide.blocks.find((b: { id: string }) => b.id === body).text, 'Costs fell by two thirds.')
  return { deckId: created.id as string, slideId, body, revision: written.revision as number }
}

describe('an MCP agent over stdio, from an empty workspace', () => {
  let ws: TestWorkspace
  before(async () => {
    ws = await workspace()
  })
  after(() => ws?.cleanup())

  it('starts without a deck, says how to make one, creates it and works in it', async () => {
    const { client } = await stdioClient(ws)
    try {
      const none = await failed(client, 'deck_get_info', {})
      assert.deepEqual([none.status, none.code], [404, 'not_found'])
      assert.match(none.message, /deck_create/)
      assert.ok(!none.message.includes(ws.dir), `no server path: ${none.message}`)
      const { deckId, slideId } = await firstDeck(client, ws, 'Board update')
      // The session's resources follow the deck it adopted.
      const { resources } = await client.listResources()
      assert.ok(resources.some((r) => r.uri === `deck://${deckId}/slides/${slideId}`), JSON.stringify(resources))
      // A second deck in the workspace: the session keeps working in the one it last created.
      const second = await call(client, 'deck_create', { name: 'Second thoughts', from: 'blank' })
      assert.equal((await call(client, 'deck_get_info', {})).id, second.id)
    } finally {
      await client.close()
    }
  })

  it('serves a --deck that does not exist yet, and works in it once deck_create makes it', async () => {
    const { client, stderr } = await stdioClient(ws, ['--deck', 'q3-plan'])
    try {
      const early = await failed(client, 'deck_get_info', {})
      assert.deepEqual([early.status, early.code], [404, 'not_found'])
      assert.match(early.message, /q3-plan/)
      // Another deck created meanwhile does not move a session bound to q3-plan.
      const other = await call(client, 'deck_create', { name: 'Elsewhere', from: 'blank' })
      assert.notEqual(other.id, 'q3-plan')
      assert.equal((await failed(client, 'deck_get_info', {})).code, 'not_found')
      const { deckId } = await firstDeck(client, ws, 'Q3 plan', { id: 'q3-plan' })
      assert.equal(deckId, 'q3-plan')
      assert.match(stderr(), /deck q3-plan, not created yet/)
    } finally {
      await client.close()
    }
  })

  it('answers input-validation failures as isError results, and only protocol faults as JSON-RPC errors', async () => {
    const { client } = await stdioClient(ws, ['--deck', 'q3-plan'])
    try {
      const info = await call(client, 'deck_get_info', {})
      const unknown = await failed(client, 'deck_rename', { name: 'X', baseRevision: info.revision, colour: 'red' })
      assert.deepEqual([unknown.status, unknown.code, unknown.pointer], [400, 'unknown_field', '/colour'])
      const wrongType = await failed(client, 'deck_rename', { name: 'X', baseRevision: 'seven' })
      assert.deepEqual([wrongType.status, wrongType.code, wrongType.pointer], [400, 'invalid_input', '/baseRevision'])
      assert.equal((await failed(client, 'deck_rename', {})).code, 'invalid_input')
      // An unknown tool is a protocol fault: -32602, the error body as data, the SDK's prefix once.
      await assert.rejects(client.callTool({ name: 'deck_fly', arguments: {} }), (error: unknown) => {
        assert.ok(error instanceof McpError)
        assert.equal(error.code, -32602)
        assert.equal((error.data as Body).code, 'not_found')
        assert.equal(error.message.match(/MCP error/g)?.length, 1, error.message)
        return true
      })
    } finally {
      await client.close()
    }
  })

  it('hints that a list makes items, files a canvas block without a slot, and refuses a chart series of the wrong length', async () => {
    const { client } = await stdioClient(ws, ['--deck', 'q3-plan'])
    try {
      let revision = (await call(client, 'deck_get_info', {})).revision as number
      const slide = await call(client, 'deck_new_slide', { layout: 'title-body', baseRevision: revision })
      revision = slide.revision
      const items = await failed(client, 'deck_update_block', { slideId: slide.slide.id, blockId: 'body', path: '/items', value: [{ text: 'One' }], baseRevision: revision })
      assert.equal(items.status, 400)
      assert.match(items.message, /items is not a member of this object; items belong to a list: text\.list \(MCP deck_set_list/)
      assert.equal(items.pointer, `/slides/${slide.slide.id}/blocks/1/items`)

      const noSlot = await failed(client, 'deck_insert_block', { slideId: slide.slide.id, block: { id: 'more', kind: 'text', text: 'More' }, baseRevision: revision })
      assert.deepEqual([noSlot.code, noSlot.pointer], ['invalid_input', '/slot'])
      assert.match(noSlot.message, /title, body, footer/)
      const canvas = await call(client, 'deck_new_slide', { layout: 'freeform', baseRevision: revision })
      const placed = await call(client, 'deck_insert_block', { slideId: canvas.slide.id, block: { id: 'note', kind: 'text', text: 'Anywhere' }, baseRevision: canvas.revision })
      assert.equal(placed.block.slot, undefined)
      assert.ok(placed.block.pos, JSON.stringify(placed.block))
      revision = placed.revision

      const chart = await call(client, 'deck_new_slide', { layout: 'chart', baseRevision: revision })
      const chartId = chart.slide.blocks.find((b: { kind: string }) => b.kind === 'chart').id
      const index = chart.slide.blocks.findIndex((b: { kind: string }) => b.kind === 'chart')
      const uneven = { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'Revenue', values: [12, 15, 19] }, { name: 'Cost', values: [3, 4] }] }
      const refused = await failed(client, 'deck_set_chart_data', { slideId: chart.slide.id, blockId: chartId, data: uneven, baseRevision: chart.revision })
      assert.deepEqual([refused.status, refused.code, refused.pointer], [400, 'invalid_input', `/slides/${chart.slide.id}/blocks/${index}/data/series/1/values`])
      assert.match(refused.message, /2 values for 3 categories \(series "Cost"\)/)
      uneven.series[1].values.push(null as unknown as number)
      const fixed = await call(client, 'deck_set_chart_data', { slideId: chart.slide.id, blockId: chartId, data: uneven, baseRevision: chart.revision })
      assert.deepEqual(fixed.findings, [])
    } finally {
      await client.close()
    }
  })
})

describe('an MCP agent over streamable HTTP (studio serve), from an empty workspace', () => {
  let ws: TestWorkspace
  let server: Served
  before(async () => {
    ws = await workspace()
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  const connect = async () => {
    const client = new Client({ name: 'mcp-agent-http', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { 'x-studio-author': 'agent:http' } } }))
    return client
  }

  it('starts a session with no deck, creates one and works in it, committing as the session author', async () => {
    const client = await connect()
    try {
      assert.equal((await failed(client, 'deck_list_slides', {})).code, 'not_found')
      await firstDeck(client, ws, 'Sales kickoff')
      assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), 'agent:http')
      // Two decks now, and no default: the session still knows which one is its own.
      const second = await call(client, 'deck_create', { name: 'Sales kickoff (EU)', from: 'blank' })
      assert.equal((await call(client, 'deck_get_info', {})).id, second.id)
      const unknown = await failed(client, 'deck_rename', { name: 'X', baseRevision: 0, zz: true })
      assert.deepEqual([unknown.code, unknown.pointer], ['unknown_field', '/zz'])
    } finally {
      await client.close()
    }
  })
})
