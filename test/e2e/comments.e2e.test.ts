/**
 * Comment threads end to end (issue 25): every anchor kind on the command line, MCP, HTTP and the
 * page's window transport of one `studio serve`; every row of the state table; stale revisions that
 * never refuse a comment and a stale comment edit that does; anchors that follow content writes made
 * through the engine (one commit each), detach, and come back with a version restore; the role check;
 * and two branches commenting on one deck merged by real `git merge` with no conflict.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import { dispatch } from '../../src/core/engine.js'
import { StudioError } from '../../src/core/errors.js'
import { Workspace } from '../../src/store/workspace.js'
import { COMMENTED_SLIDE, newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, commitCount, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const DECK = 'quarterly-review'
const SLIDE = COMMENTED_SLIDE

async function ok(ws: TestWorkspace, args: string[]) {
  const r = await studio(ws.dir, [...args, '--json'])
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r.json
}

async function refused(ws: TestWorkspace, args: string[]) {
  const r = await studio(ws.dir, [...args, '--json'])
  assert.notEqual(r.code, 0, `studio ${args.join(' ')} should fail: ${r.stdout}`)
  return r.json
}

/** A new user's deck with the slide above (deck revision 1). */
async function deckWithSlide(): Promise<TestWorkspace> {
  const ws = await newUserWorkspace()
  await ok(ws, ['slide', 'insert', '--input', JSON.stringify({ sectionId: 'main', after: 'title-1', slide: SLIDE, baseRevision: 0 })])
  return ws
}

const ANCHORS = [
  { text: 'deck', anchor: { kind: 'deck' } },
  { text: 'slide:numbers-2', anchor: { kind: 'slide', slideId: 'numbers-2' } },
  { text: 'numbers-2#b1', anchor: { kind: 'block', slideId: 'numbers-2', blockId: 'b1' } },
  { text: 'numbers-2#b1/text:14-18', anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [14, 18] } },
  { text: 'numbers-2#b2/cell:2,1', anchor: { kind: 'cell', slideId: 'numbers-2', blockId: 'b2', row: 2, col: 1 } },
  { text: 'notes:numbers-2', anchor: { kind: 'notes', slideId: 'numbers-2' } },
] as const

describe('comment threads on every transport', () => {
  let ws: TestWorkspace
  let server: Served
  let mcp: Client
  before(async () => {
    ws = await deckWithSlide()
    server = await serve(ws.dir)
    mcp = new Client({ name: 'comments-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { 'x-studio-author': 'agent:mcp-7' } } }))
  })
  after(async () => {
    await mcp?.close()
    await server?.stop()
    ws?.cleanup()
  })

  const post = async (route: 'actions' | 'window', id: string, input: unknown, author: string) => {
    const r = await request(`${server.url}/api/${route}/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': author }, body: JSON.stringify(input) })
    const json = (await r.body.json()) as any
    assert.equal(r.statusCode, 200, JSON.stringify(json))
    return json
  }
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any }
    assert.ok(!r.isError, JSON.stringify(r.structuredContent))
    return r.structuredContent
  }

  it('opens a thread on each of the six anchor kinds on C, M, H and P, and lists them resolved', async () => {
    const commits = await commitCount(ws.git)
    for (const { text, anchor } of ANCHORS) {
      const body = { text: `on ${anchor.kind}` }
      const written = [
        (await ok(ws, ['comment', 'add', text, '-m', body.text, '--author', 'Cy'])).thread,
        (await tool('deck_add_comment', { anchor, body })).thread,
        (await post('actions', 'comment.add', { anchor, body }, 'Ana')).thread,
        (await post('window', 'comment.add', { anchor, body }, 'Ben')).thread,
      ]
      for (const thread of written) {
        assert.deepEqual(thread.anchor, anchor)
        assert.equal(thread.status, 'attached')
      }
      // Each call is a thread of its own: the comments revision is part of the id.
      assert.equal(new Set(written.map((t) => t.id)).size, 4)
      if (anchor.kind === 'range') assert.deepEqual(written[0].quote, { exact: 'half', prefix: 'Costs fell by ', suffix: ' at Acme.\nMargins grew.' })
      if (anchor.kind === 'cell') assert.deepEqual(written[0].quote, { exact: '8', prefix: 'Costs', suffix: 'Q1' })
    }
    assert.equal((await commitCount(ws.git)) - commits, 24, 'one commit per comment write')
    const byAuthor = async (author: string) => (await post('actions', 'comment.list', { author }, 'Ana')).threads.map((t: any) => t.anchor.kind).sort()
    const kinds = ANCHORS.map((a) => a.anchor.kind).sort()
    for (const author of ['Cy', 'agent:mcp-7', 'Ana', 'Ben']) assert.deepEqual(await byAuthor(author), kinds, author)
    const listed = await tool('deck_list_comments', { slideId: 'numbers-2', blockId: 'b2' })
    assert.equal(listed.threads.length, 4)
    assert.equal(listed.baseRevision, 24)
    // The deck's own revision did not move: comments are not content.
    assert.equal((await ok(ws, ['info'])).revision, 1)
  })

  it('serves the threads as MCP resources, and the deck_review prompt reads the open ones', async () => {
    const { resources } = await mcp.listResources()
    assert.ok(resources.some((r) => r.uri === `deck://${DECK}/comments`))
    const all = JSON.parse(((await mcp.readResource({ uri: `deck://${DECK}/comments` })).contents[0] as { text: string }).text)
    assert.ok(all.threads.length >= 6, `${all.threads.length} threads`)
    const one = all.threads.find((t: any) => t.anchor.kind === 'range')
    const read = JSON.parse(((await mcp.readResource({ uri: `deck://${DECK}/comments/${one.id}` })).contents[0] as { text: string }).text)
    assert.equal(read.thread.id, one.id)
    const prompt = await mcp.getPrompt({ name: 'deck_review' })
    const text = (prompt.messages[0].content as { text: string }).text
    assert.match(text, new RegExp(`Open comment threads \\(\\d+; all of them at the resource deck://${DECK}/comments\\)`))
    assert.ok(text.includes(`- ${one.id} on numbers-2#b1/text:14-18 "half": `), text)
  })

  it('walks the state table: resolve, reopen, reply, tombstone and restore, assign, done, react', async () => {
    const opened = (await post('actions', 'comment.add', { anchor: { kind: 'slide', slideId: 'numbers-2' }, body: { text: '{@0} please check', mentions: [{ principal: 'agent:mcp-7' }] } }, 'Ana')).thread
    const id = opened.id
    assert.equal((await post('window', 'comment.reply', { threadId: id, body: { text: 'Checked.' } }, 'Ben')).thread.comments.length, 2)
    // open → resolved → open (the last writer wins; a second resolve changes nothing and commits nothing)
    assert.equal((await tool('deck_resolve_comment', { threadId: id })).thread.state, 'resolved')
    const commits = await commitCount(ws.git)
    assert.equal((await ok(ws, ['comment', 'resolve', id])).thread.state, 'resolved')
    assert.equal(await commitCount(ws.git), commits)
    assert.equal((await ok(ws, ['comments', '--state', 'resolved'])).threads.some((t: any) => t.id === id), true)
    assert.equal((await ok(ws, ['comment', 'reopen', id])).thread.state, 'open')
    // live → tombstoned: replies kept, a deleted first comment keeps the thread; restore brings it back.
    const deleted = (await post('actions', 'comment.delete', { threadId: id, commentId: 'c1' }, 'Ana')).thread
    assert.equal(deleted.comments.length, 2)
    assert.ok(deleted.comments[0].deletedAt && !deleted.comments[0].body, 'a tombstone shows no text')
    const visible = (await post('actions', 'comment.list', {}, 'Ana')).threads.find((t: any) => t.id === id)
    assert.deepEqual(visible.comments.map((c: any) => c.id), ['c2'])
    assert.deepEqual((await post('actions', 'comment.list', { includeDeleted: true }, 'Ana')).threads.find((t: any) => t.id === id).comments.map((c: any) => c.id), ['c1', 'c2'])
    const restored = (await post('actions', 'comment.delete', { threadId: id, commentId: 'c1', restore: true }, 'Ana')).thread
    assert.equal(restored.comments[0].body.text, '{@0} please check')
    // Only its author deletes or edits a comment (the owner deletes any: on a checkout, everyone).
    const notAuthor = await refused(ws, ['comment', 'edit', id, 'c2', '-m', 'mine now', '--input', JSON.stringify({ expectedUpdatedAt: '2099-01-01T00:00:00Z' }), '--author', 'Cy'])
    assert.equal(notAuthor.code, 'forbidden')
    // assigned or cleared; done by the assignee
    assert.deepEqual((await ok(ws, ['comment', 'assign', id, 'agent:mcp-7'])).thread.assignee, { principal: 'agent:mcp-7' })
    assert.equal((await tool('deck_done_comment', { threadId: id })).thread.done, true)
    assert.equal((await ok(ws, ['comment', 'assign', id, '--clear'])).thread.assignee, null)
    assert.equal((await refused(ws, ['comment', 'done', id])).code, 'refused')
    // reactions: a set per emoji keyed by principal
    await post('actions', 'comment.react', { threadId: id, commentId: 'c2', emoji: 'heart', on: true }, 'Ana')
    const reacted = (await tool('deck_react_comment', { threadId: id, commentId: 'c2', emoji: 'heart', on: true })).thread
    assert.deepEqual(reacted.comments[1].reactions, { heart: ['Ana', 'agent:mcp-7'] })
    assert.deepEqual((await ok(ws, ['comment', 'react', id, 'c2', 'heart', '--off', '--author', 'Ana'])).thread.comments[1].reactions, { heart: ['agent:mcp-7'] })
    assert.equal((await refused(ws, ['comment', 'react', id, 'c2', 'pizza'])).code, 'invalid_input')
    // forMe: mentioned or assigned
    assert.ok((await tool('deck_list_comments', { forMe: true })).threads.some((t: any) => t.id === id))
    assert.ok(!(await post('actions', 'comment.list', { forMe: true }, 'Ana')).threads.some((t: any) => t.id === id))
    // search, since, link
    const since = (await post('actions', 'comment.list', {}, 'Ana')).baseRevision
    await post('actions', 'comment.reply', { threadId: id, body: { text: 'Margins look odd' } }, 'Ana')
    assert.deepEqual((await post('actions', 'comment.list', { since }, 'Ana')).threads.map((t: any) => t.id), [id])
    assert.deepEqual((await post('actions', 'comment.list', { search: 'MARGINS LOOK' }, 'Ana')).threads.map((t: any) => t.id), [id])
    const link = await ok(ws, ['comment', 'link', id])
    assert.equal(link.editorUrl, `http://localhost:4321/d/${DECK}/numbers-2?thread=${id}`)
  })

  it('never refuses a comment write for a stale revision, and answers a stale edit with 409 and the thread', async () => {
    const opened = (await ok(ws, ['comment', 'add', 'slide:title-1', '-m', 'Typo in the titel', '--rev', '0'])).thread
    const reply = await post('actions', 'comment.reply', { threadId: opened.id, body: { text: 'Where?' }, baseRevision: 0 }, 'Ana')
    assert.ok(reply.baseRevision > 1)
    const stale = await request(`${server.url}/api/actions/comment.edit?deck=${DECK}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-studio-author': opened.comments[0].author },
      body: JSON.stringify({ threadId: opened.id, commentId: 'c1', body: { text: 'Typo in the title' }, expectedUpdatedAt: opened.updatedAt }),
    })
    const body = (await stale.body.json()) as any
    assert.equal(stale.statusCode, 409)
    assert.equal(body.code, 'stale_revision')
    assert.deepEqual(body.current.comments.map((c: any) => c.body.text), ['Typo in the titel', 'Where?'])
    const edited = await ok(ws, ['comment', 'edit', opened.id, 'c1', '-m', 'Typo in the title', '--input', JSON.stringify({ expectedUpdatedAt: body.current.updatedAt })])
    assert.equal(edited.thread.comments[0].body.text, 'Typo in the title')
    assert.ok(edited.thread.comments[0].editedAt)
    // A mention token must name a mention the body lists.
    const bad = await refused(ws, ['comment', 'reply', opened.id, '-m', 'ping {@1}', '--mention', 'ana@example.com'])
    assert.deepEqual([bad.code, bad.pointer], ['invalid_input', '/body/text'])
    assert.equal((await refused(ws, ['comment', 'add', 'nope-9#b1', '-m', 'x'])).code, 'not_found')
  })

  it('travel with deck copy --copy-comments (only those on the slides copied) and into export txt --include-comments', async () => {
    await ok(ws, ['comment', 'add', 'slide:title-1', '-m', 'Stays with its slide'])
    await ok(ws, ['comment', 'add', 'numbers-2#b1/text:0-5', '-m', 'Say which costs', '--author', 'Dee'])
    await ok(ws, ['comment', 'add', 'deck', '-m', 'Ship by Friday', '--author', 'Dee'])
    const all = (await ok(ws, ['comments', '--state', 'all'])).threads
    const copied = await ok(ws, ['deck', 'copy', DECK, '--name', 'Numbers only', '--id', 'numbers-only', '--slides', 'numbers-2', '--copy-comments', '--rev', '1'])
    assert.equal(copied.id, 'numbers-only')
    const there = (await ok(ws, ['comments', '--state', 'all', '--deck', 'numbers-only'])).threads
    const expected = all.filter((t: any) => t.anchor.kind === 'deck' || t.anchor.slideId === 'numbers-2').map((t: any) => t.id).sort()
    assert.deepEqual(there.map((t: any) => t.id).sort(), expected)
    assert.ok(all.some((t: any) => t.anchor.slideId === 'title-1'), 'a thread left behind with its slide')
    // A bundle carries the threads, and unpacks them with the deck.
    await ok(ws, ['deck', 'pack', 'numbers-only', '--out', 'numbers.zip'])
    await ok(ws, ['deck', 'unpack', 'numbers.zip', '--as', 'numbers-again'])
    assert.deepEqual((await ok(ws, ['comments', '--state', 'all', '--deck', 'numbers-again'])).threads, there)
    const text = await ok(ws, ['export', 'txt', '--include-comments', '--deck', DECK])
    assert.match(text.text, /Comment on "Costs" \(Dee\): Say which costs/)
    assert.match(text.text, /^(Comment .*\n)*Comment \(Dee\): Ship by Friday/)
    assert.equal(text.comments.included, (await ok(ws, ['comments', '--deck', DECK])).threads.length)
  })
})

describe('anchors following the content through the engine', () => {
  it('shift with an edit before them in the same commit, detach when the words go, come back with a version restore, and say removed with their slide', async () => {
    const ws = await deckWithSlide()
    try {
      const range = (await ok(ws, ['comment', 'add', 'numbers-2#b1/text:14-18', '-m', 'Is half right?'])).thread.id
      const cell = (await ok(ws, ['comment', 'add', 'numbers-2#b2/cell:2,1', '-m', 'Costs in Q1?'])).thread.id
      const slide = (await ok(ws, ['comment', 'add', 'slide:numbers-2', '-m', 'Keep this slide'])).thread.id
      await ok(ws, ['version', 'save', '-m', 'before the edits'])
      const commits = await commitCount(ws.git)
      await ok(ws, ['block', 'set', 'numbers-2#b1', '/text', JSON.stringify('Note: costs fell by half at Acme.\nMargins grew.'), '--rev', '2'])
      // The thread's new place is in the edit's own commit.
      assert.equal(await commitCount(ws.git), commits + 1)
      assert.match(await ws.git('show', '--stat', '--format=', 'HEAD'), new RegExp(`comments/${range}\\.json`))
      const get = async (id: string) => (await ok(ws, ['comment', 'get', id])).thread
      assert.deepEqual([(await get(range)).anchor.range, (await get(range)).quote.exact], [[20, 24], 'half'])
      // A row inserted above the cell moves it down.
      const rows = [['Metric', 'Q1', 'Q2'], ['Profit', '2', '8'], ['Revenue', '10', '12'], ['Costs', '8', '4']]
      await ok(ws, ['block', 'set', 'numbers-2#b2', '/rows', JSON.stringify(rows), '--rev', '3'])
      assert.deepEqual([(await get(cell)).anchor.row, (await get(cell)).quote.exact], [3, '8'])
      await ok(ws, ['block', 'set', 'numbers-2#b1', '/text', JSON.stringify('Costs fell at Acme.'), '--rev', '4'])
      const detached = await get(range)
      assert.deepEqual([detached.status, detached.quote.exact], ['detached', 'half'])
      // Listed still, whatever the state of its text.
      assert.ok((await ok(ws, ['comments'])).threads.some((t: any) => t.id === range))
      await ok(ws, ['version', 'restore', '1', '--rev', '5'])
      const back = await get(range)
      assert.deepEqual([back.status, back.anchor.range, back.quote.exact], ['attached', [14, 18], 'half'])
      assert.deepEqual([(await get(cell)).status, (await get(cell)).anchor.row], ['attached', 2])
      await ok(ws, ['slide', 'remove', 'numbers-2', '--rev', '6'])
      const listed = (await ok(ws, ['comments', '--state', 'all'])).threads
      assert.deepEqual(
        [range, cell, slide].map((id) => listed.find((t: any) => t.id === id)?.status),
        ['removed', 'removed', 'removed'],
      )
    } finally {
      ws.cleanup()
    }
  })

  it('resolves against a document changed beside studio (a hand edit committed with git) on every read', async () => {
    const ws = await deckWithSlide()
    try {
      const id = (await ok(ws, ['comment', 'add', 'numbers-2#b1/text:14-18', '-m', 'Is half right?'])).thread.id
      const file = join(ws.dir, 'decks', DECK, 'slides', 'numbers-2.json')
      writeFileSync(file, readFileSync(file, 'utf8').replace('Costs fell by half', 'Our costs fell by half'))
      await ws.git('commit', '-qam', 'by hand')
      const thread = (await ok(ws, ['comment', 'get', id])).thread
      assert.deepEqual([thread.status, thread.anchor.range], ['attached', [18, 22]])
    } finally {
      ws.cleanup()
    }
  })
})

describe('who may read and write comments', () => {
  it('answers 403 without readComments or comment, from the one check in the engine, on every transport letter', async () => {
    const test = await deckWithSlide()
    try {
      const ws = new Workspace(test.dir, test.dir)
      const list = ACTIONS.find((a) => a.id === 'comment.list')!
      const add = ACTIONS.find((a) => a.id === 'comment.add')!
      for (const transport of ['C', 'M', 'H', 'P'] as const) {
        await assert.rejects(dispatch(list, {}, { ws, transport, deck: DECK, role: 'viewer' }), (e: StudioError) => e.code === 'forbidden' && /readComments/.test(e.message))
        await assert.rejects(dispatch(add, { anchor: { kind: 'deck' }, body: { text: 'x' } }, { ws, transport, deck: DECK, role: 'viewer' }), (e: StudioError) => e.code === 'forbidden')
      }
      const listed = (await dispatch(list, {}, { ws, transport: 'H', deck: DECK, role: 'commenter' })).result as { threads: unknown[] }
      assert.deepEqual(listed.threads, [])
      // An editor who is not the assignee does not mark a thread done; the owner may, for them.
      const { thread } = (await dispatch(add, { anchor: { kind: 'deck' }, body: { text: 'x' }, assignee: { principal: 'agent:x' } }, { ws, transport: 'H', deck: DECK, role: 'commenter' })).result as { thread: { id: string } }
      const done = ACTIONS.find((a) => a.id === 'comment.done')!
      await assert.rejects(dispatch(done, { threadId: thread.id }, { ws, transport: 'H', deck: DECK, role: 'editor', author: 'Ana' }), (e: StudioError) => e.code === 'forbidden')
      assert.equal(((await dispatch(done, { threadId: thread.id }, { ws, transport: 'H', deck: DECK, role: 'editor', author: 'agent:x' })).result as { thread: { done: boolean } }).thread.done, true)
    } finally {
      test.cleanup()
    }
  })
})

describe('comments across branches', () => {
  it('merges two branches that add threads and reply to one thread with real git merge, no conflict, nothing lost', async () => {
    const ws = await deckWithSlide()
    try {
      await ok(ws, ['git', 'setup'])
      await ws.git('add', '-A')
      await ws.git('commit', '-qm', 'git setup', '--allow-empty')
      const shared = (await ok(ws, ['comment', 'add', 'numbers-2#b1/text:14-18', '-m', 'Is half right?', '--author', 'Ana'])).thread.id
      const base = (await ws.git('rev-parse', '--abbrev-ref', 'HEAD')).trim()
      await ws.git('checkout', '-qb', 'review')
      await ok(ws, ['comment', 'reply', shared, '-m', 'Yes, from the Q3 report.', '--author', 'Ben'])
      await ok(ws, ['comment', 'add', 'slide:title-1', '-m', 'New title?', '--author', 'Ben'])
      await ok(ws, ['comment', 'react', shared, 'c1', 'eyes', '--author', 'Ben'])
      await ok(ws, ['block', 'set', 'numbers-2#b2', '/rows/1/1', '"11"', '--author', 'Ben'])
      // The review of the branch lists the open threads on the slides it changed; git's diff reads threads as prose.
      const review = await studio(ws.dir, ['review', '--base', base, '--head', 'review', '--markdown'])
      assert.match(review.stdout, /\*\*Open comment threads on these slides\*\*\n\n- Slide 2 'Why now', thread t-[a-z0-9]+ \(open\) on numbers-2\\#b1\/text:14-18 "half": Ana: Is half right\? \(1 reply\)/)
      assert.doesNotMatch(review.stdout, /New title\?/, 'a thread on a slide the branch did not change')
      const diff = await ws.git('log', '-p', '--format=', 'HEAD~4..HEAD', '--', `decks/${DECK}/comments`)
      assert.match(diff, /\+ {2}c2 Ben, [0-9-]+ [0-9:]+: Yes, from the Q3 report\./)
      assert.match(diff, /\+ {6}reactions: eyes Ben/)
      await ws.git('checkout', '-q', base)
      await ok(ws, ['comment', 'reply', shared, '-m', 'Source?', '--author', 'Cy'])
      await ok(ws, ['comment', 'add', 'notes:numbers-2', '-m', 'Shorter notes', '--author', 'Cy'])
      await ok(ws, ['comment', 'resolve', shared, '--author', 'Cy'])
      await ws.git('merge', '-q', '--no-edit', 'review')
      assert.equal((await ws.git('status', '--porcelain')).trim(), '')
      const listed = (await ok(ws, ['comments', '--state', 'all'])).threads
      assert.equal(listed.length, 3)
      const thread = listed.find((t: any) => t.id === shared)
      // Both replies were c2: ours keeps its id, theirs is numbered after the last; they read in time order.
      assert.deepEqual(thread.comments.map((c: any) => [c.id, c.author, c.body.text]), [
        ['c1', 'Ana', 'Is half right?'],
        ['c3', 'Ben', 'Yes, from the Q3 report.'],
        ['c2', 'Cy', 'Source?'],
      ])
      assert.deepEqual(thread.comments[0].reactions, { eyes: ['Ben'] })
      assert.equal(thread.state, 'resolved')
      // Each side made three writes after the shared one: the comments revision is not behind either.
      assert.equal((await ok(ws, ['comments'])).baseRevision, 4)
    } finally {
      ws.cleanup()
    }
  })
})
