import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { request } from 'undici'
import { BIN, cliInOneProcess, serve, type Served, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const SECRET = 'zq-secret-9b3e'

async function validate(url: string, input: unknown) {
  const response = await request(`${url}/api/actions/validate.run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })
  const text = await response.body.text()
  return { status: response.statusCode, text, json: JSON.parse(text) }
}

describe('validate.run reads only inside the workspace over HTTP and MCP', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let outside: string
  let server: Served
  before(async () => {
    ws = await workspaceWithDeck('Confined deck')
    // A deck folder outside the workspace whose deck.json holds a secret and is not valid JSON.
    outside = mkdtempSync(join(tmpdir(), 'studio-outside-'))
    cpSync(join(ws.dir, 'decks', ws.deckId), join(outside, 'deck'), { recursive: true })
    writeFileSync(join(outside, 'deck', 'deck.json'), `{ "title": ${SECRET} }`)
    symlinkSync(join(outside, 'deck'), join(ws.dir, 'link-out'))
    // A deck folder inside the workspace whose deck.json is broken the same way.
    mkdirSync(join(ws.dir, 'broken', 'slides'), { recursive: true })
    writeFileSync(join(ws.dir, 'broken', 'deck.json'), `{ "title": ${SECRET} }`)
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
    rmSync(outside, { recursive: true, force: true })
  })

  it('refuses an absolute path, a path climbing out and a symbolic link leading out, with 403 and no server path', async () => {
    for (const path of ['/etc', join(outside, 'deck'), '../..', `decks/../../${outside.split('/').pop()}`, 'link-out', 'link-out/slides', 'link-out/no-such-folder']) {
      const r = await validate(server.url, { path })
      assert.equal(r.status, 403, `${path}: ${r.text}`)
      assert.equal(r.json.code, 'forbidden')
      assert.equal(r.json.pointer, '/path')
      assert.doesNotMatch(r.text, /zq-sec/)
      assert.ok(!r.text.includes(ws.dir) && !r.text.includes(outside), `${path}: ${r.text}`)
    }
  })

  it('validates a folder inside the workspace, relative to its root', async () => {
    const r = await validate(server.url, { path: `decks/${ws.deckId}` })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.json.valid, true)
    assert.equal(r.json.document.manifest.id, ws.deckId)
    assert.equal((await validate(server.url, { path: join(ws.dir, 'decks', ws.deckId) })).json.valid, true, 'an absolute path inside the workspace')
  })

  it('names a broken file relative to the workspace and never quotes its text', async () => {
    const r = await validate(server.url, { path: 'broken' })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.json.valid, false)
    assert.match(r.json.issues[0].message, /^broken\/deck\.json is not valid JSON/)
    assert.doesNotMatch(r.text, /zq-sec/)
    assert.ok(!r.text.includes(ws.dir), r.text)
    const missing = await validate(server.url, { path: 'decks/nothing-here' })
    assert.equal(missing.json.valid, false)
    assert.equal(missing.json.issues[0].message, 'Missing file decks/nothing-here/deck.json')
  })

  it('answers 400 with the pointer for a path holding a NUL byte', async () => {
    const r = await validate(server.url, { path: 'a\u0000b' })
    assert.equal(r.status, 400, r.text)
    assert.equal(r.json.code, 'invalid_input')
    assert.equal(r.json.pointer, '/path')
  })

  it('refuses the same over MCP (stdio)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', ws.dir],
      cwd: ws.dir,
      env: Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1', STUDIO_ROOT: '' }).filter(([, v]) => v !== undefined)) as Record<string, string>,
    })
    const client = new Client({ name: 'validate-e2e', version: '1.0.0' })
    await client.connect(transport)
    try {
      const refused = await client.callTool({ name: 'deck_validate', arguments: { path: '/etc' } })
      assert.equal(refused.isError, true)
      assert.equal((refused.structuredContent as any).code, 'forbidden')
      const inside = await client.callTool({ name: 'deck_validate', arguments: { path: `decks/${ws.deckId}` } })
      assert.equal((inside.structuredContent as any).valid, true)
    } finally {
      await client.close()
    }
  })

  it('on the CLI still reads a folder anywhere on the machine', async () => {
    const r = await studio(ws.dir, ['validate', join(outside, 'deck'), '--json'])
    assert.equal(r.json.valid, false, r.stdout)
    assert.match(r.json.issues[0].message, /deck\.json is not valid JSON/)
    const copy = join(outside, 'good')
    cpSync(join(ws.dir, 'decks', ws.deckId), copy, { recursive: true })
    const good = await studio(ws.dir, ['validate', copy, '--json'])
    assert.equal(good.code, 0, good.stdout)
    assert.equal(good.json.valid, true)
  })
})
