/**
 * Assistant proposals through real MCP sampling: an SDK client that offers sampling connects to
 * `studio serve`, a page or HTTP caller asks assist.propose, the server asks that client
 * (sampling/createMessage), and the client's handler answers as a model would. The proposal is stored as
 * a thread and applied by assist.apply as one write. No assistant reachable: 503 naming both ways.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { request } from 'undici'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, commitCount, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const DECK = 'quarterly-review'
const SLIDE = {
  id: 'numbers-2',
  layout: 'title-body',
  blocks: [
    { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
    { id: 'b1', kind: 'text', slot: 'body', text: 'Our costs fell by about one half at Acme over the course of the last year.\nMargins grew.' },
  ],
}

describe('assistant proposals', () => {
  let ws: TestWorkspace
  let server: Served
  let client: Client | undefined
  /** What the sampling client is asked, and what it answers next. */
  const asked: { system?: string; user: string }[] = []
  let answer = ''

  before(async () => {
    ws = await newUserWorkspace()
    const r = await studio(ws.dir, ['slide', 'insert', '--input', JSON.stringify({ sectionId: 'main', after: 'title-1', slide: SLIDE, baseRevision: 0 }), '--json'])
    assert.equal(r.code, 0, r.stdout)
    server = await serve(ws.dir, [], { env: { STUDIO_ASSIST_URL: '' } })
  })
  after(async () => {
    await client?.close()
    await server?.stop()
    ws?.cleanup()
  })

  const post = async (id: string, input: unknown) => {
    const r = await request(`${server.url}/api/actions/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': 'Ana' }, body: JSON.stringify(input) })
    return { status: r.statusCode, body: (await r.body.json()) as any }
  }

  it('answers 503 naming both ways when no assistant is reachable, and stores nothing', async () => {
    const commits = await commitCount(ws.git)
    const r = await post('assist.propose', { slideIds: ['numbers-2'], kind: 'shorten' })
    assert.equal(r.status, 503)
    assert.equal(r.body.code, 'switched_off')
    assert.match(r.body.message, /MCP client that offers sampling/)
    assert.match(r.body.message, /STUDIO_ASSIST_URL/)
    assert.equal(await commitCount(ws.git), commits)
  })

  it('asks a connected MCP client by sampling, stores the proposal as a thread, and assist.apply makes it one write', async () => {
    client = new Client({ name: 'sampler', version: '1.0.0' }, { capabilities: { sampling: {} } })
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      const content = req.params.messages[0].content as { type: string; text: string }
      asked.push({ system: req.params.systemPrompt, user: content.text })
      return { role: 'assistant', model: 'test-sampler', content: { type: 'text', text: answer } }
    })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { 'x-studio-author': 'agent:sampler' } } }))
    answer = '```json\n' + JSON.stringify({ summary: 'Shorter body.', slides: [{ slideId: 'numbers-2', mutations: [{ kind: 'text.replace', pointer: '/blocks/1/text', text: 'Costs fell by half at Acme.\nMargins grew.' }] }] }) + '\n```'
    const commits = await commitCount(ws.git)
    const proposed = await post('assist.propose', { slideIds: ['numbers-2'], kind: 'shorten' })
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body))
    // The model was asked with the slide's Texts by pointer.
    assert.match(asked[0].user, /\/blocks\/1\/text: "Our costs fell by about one half/)
    assert.match(asked[0].system ?? '', /text\.replace/)
    const { proposalId, summary, thread } = proposed.body
    assert.equal(summary, 'Shorter body.')
    assert.equal(thread.proposal.by, 'mcp-sampling (test-sampler)')
    assert.deepEqual(thread.anchor, { kind: 'slide', slideId: 'numbers-2' })
    // One commit, the thread's; the deck is not changed by a proposal.
    assert.equal(await commitCount(ws.git), commits + 1)
    const info = await studio(ws.dir, ['info', '--json'])
    assert.equal(info.json.revision, 1)
    const applied = await studio(ws.dir, ['assist', 'apply', proposalId, '--rev', '1', '--json'])
    assert.equal(applied.code, 0, applied.stdout)
    assert.deepEqual([applied.json.changed, applied.json.revision], [['numbers-2'], 2])
    const slide = await studio(ws.dir, ['slide', 'get', 'numbers-2', '--json'])
    assert.equal(slide.json.slide.blocks[1].text, 'Costs fell by half at Acme.\nMargins grew.')
    const after = (await post('comment.get', { threadId: proposalId })).body.thread
    assert.equal(after.state, 'resolved')
    assert.equal(after.proposal.appliedAt, 2)
    assert.equal(after.comments.at(-1).body.text, 'Applied as revision 2.')
    const again = await studio(ws.dir, ['assist', 'apply', proposalId, '--rev', '2', '--json'])
    assert.equal(again.json.code, 'refused')
  })

  it('refuses an answer that is not a proposal the deck can take (422), storing nothing', async () => {
    const commits = await commitCount(ws.git)
    answer = JSON.stringify({ summary: 'x', slides: [{ slideId: 'title-1', mutations: [{ kind: 'notes.set', notes: 'y' }] }] })
    const other = await post('assist.propose', { slideIds: ['numbers-2'], kind: 'notes' })
    assert.deepEqual([other.status, other.body.code], [422, 'unprocessable'])
    assert.match(other.body.message, /names "title-1", not one of the slides asked about/)
    answer = JSON.stringify({ summary: 'x', slides: [{ slideId: 'numbers-2', mutations: [{ kind: 'text.replace', pointer: '/blocks/9/text', text: 'y' }] }] })
    assert.equal((await post('assist.propose', { slideIds: ['numbers-2'], kind: 'shorten' })).status, 422)
    answer = 'I cannot help with that.'
    assert.equal((await post('assist.propose', { slideIds: ['numbers-2'], kind: 'ask', ask: 'Make it rhyme' })).status, 422)
    assert.equal(await commitCount(ws.git), commits)
    assert.equal((await post('assist.propose', { slideIds: ['numbers-2'], kind: 'ask' })).body.code, 'invalid_input')
  })
})
