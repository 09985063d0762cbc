/**
 * Notifications and activity end to end (issue 25): comment writes on the command line and over HTTP
 * of one `studio serve` leave inbox records for the people they concern (mentions, replies, the
 * assignee); notification.list filters unread, since and limit; markRead by ids and all answers the
 * unread count; level none silences a deck; activity.list shows what real writes did (a slide edit, a
 * comment, a rename, a named version, an export) on both transports, and only to who may read it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import { COALESCE_MS } from '../../src/comments/inbox.js'
import { sendDueMail } from '../../src/comments/notify.js'
import { dispatch } from '../../src/core/engine.js'
import { StudioError } from '../../src/core/errors.js'
import { Workspace } from '../../src/store/workspace.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const DECK = 'quarterly-review'

async function ok(ws: TestWorkspace, args: string[]) {
  const r = await studio(ws.dir, [...args, '--json'], { env: { STUDIO_MAIL: 'capture' } })
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r.json
}

describe('notifications and activity on the command line and HTTP', () => {
  let ws: TestWorkspace
  let server: Served
  let threadId: string
  const call = async (id: string, input: unknown, author: string) => {
    const r = await request(`${server.url}/api/actions/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': author }, body: JSON.stringify(input) })
    return { status: r.statusCode, json: (await r.body.json()) as any }
  }
  const post = async (id: string, input: unknown, author: string) => {
    const r = await call(id, input, author)
    assert.equal(r.status, 200, JSON.stringify(r.json))
    return r.json
  }
  const inbox = async (author: string, flags: string[] = []) => ok(ws, ['notifications', ...flags, '--author', author])

  let savedMail: string | undefined
  before(async () => {
    savedMail = process.env.STUDIO_MAIL
    process.env.STUDIO_MAIL = 'capture'
    ws = await newUserWorkspace()
    server = await serve(ws.dir, [], { env: { STUDIO_MAIL: 'capture' } })
    // Ana (command line) opens a thread mentioning Ben, assigned to Dee; Ben replies over HTTP.
    threadId = (await ok(ws, ['comment', 'add', 'slide:title-1', '-m', '{@0} is this title right?', '--mention', 'Ben', '--assign', 'Dee', '--author', 'Ana'])).thread.id
    await post('comment.reply', { threadId, body: { text: 'Looks fine to me.' } }, 'Ben')
  })
  after(async () => {
    if (savedMail === undefined) delete process.env.STUDIO_MAIL
    else process.env.STUDIO_MAIL = savedMail
    await server?.stop()
    ws?.cleanup()
  })

  it('records a mention, the assignment and a reply for the people they concern, and nothing for the actor', async () => {
    const ben = await inbox('Ben')
    assert.deepEqual(ben.notifications.map((n: any) => [n.kind, n.kinds, n.actors, n.threadId, n.read]), [['mention', ['mention'], ['Ana'], threadId, false]])
    assert.equal(ben.notifications[0].excerpt, '@Ben is this title right?')
    assert.equal(ben.notifications[0].link, `http://localhost:4321/d/${DECK}/title-1?thread=${threadId}`)
    const dee = await post('notification.list', {}, 'Dee')
    assert.deepEqual(dee.notifications.map((n: any) => [n.kind, n.kinds, n.actors, n.count]), [['assignment', ['assignment', 'reply'], ['Ana', 'Ben'], 2]])
    assert.equal(dee.notifications[0].excerpt, 'Looks fine to me.')
    assert.equal(dee.unread, 1)
    const ana = await inbox('Ana')
    assert.deepEqual(ana.notifications.map((n: any) => [n.kinds, n.actors]), [[['reply'], ['Ben']]])
  })

  it('lists unread, since and limit, newest first, and marks read by ids and all with the unread count', async () => {
    // Cy (HTTP) opens another thread mentioning Ana: Ana has two records now.
    const second = (await post('comment.add', { anchor: { kind: 'deck' }, body: { text: '{@0} see the deck', mentions: [{ principal: 'Ana' }] } }, 'Cy')).thread.id
    const all = await post('notification.list', {}, 'Ana')
    assert.deepEqual(all.notifications.map((n: any) => n.threadId), [second, threadId])
    assert.equal(all.unread, 2)
    assert.deepEqual((await inbox('Ana', ['--input', JSON.stringify({ limit: 1 })])).notifications.map((n: any) => n.threadId), [second])
    const newest = all.notifications[0].updatedAt
    assert.deepEqual((await post('notification.list', { since: newest }, 'Ana')).notifications, [])
    assert.equal((await post('notification.list', { since: all.notifications[1].updatedAt }, 'Ana')).notifications.length, 1)

    // Another's record is not the caller's to mark: 404, nothing marked.
    const benId = (await inbox('Ben')).notifications[0].id
    const foreign = await call('notification.markRead', { ids: [benId] }, 'Ana')
    assert.deepEqual([foreign.status, foreign.json.code, foreign.json.pointer], [404, 'not_found', '/ids/0'])
    assert.equal((await inbox('Ben', ['--unread'])).unread, 1)

    assert.equal((await post('notification.markRead', { ids: [all.notifications[1].id] }, 'Ana')).unread, 1)
    assert.deepEqual((await inbox('Ana', ['--unread'])).notifications.map((n: any) => n.threadId), [second])
    assert.equal((await ok(ws, ['notifications', 'read', '--all', '--author', 'Ana'])).unread, 0)
    assert.deepEqual((await post('notification.list', { unread: true }, 'Ana')).notifications, [])
  })

  it('silences a deck for a caller whose level is none, and reads the settings back on both transports', async () => {
    const set = await ok(ws, ['notifications', 'settings', '--level', 'none', '--author', 'Ben'])
    assert.deepEqual(set, { level: 'none', email: true, activityForCommenters: false })
    assert.deepEqual(await post('notification.settings', {}, 'Ben'), { level: 'none', email: true, activityForCommenters: false })
    const before = (await inbox('Ben')).notifications
    await post('comment.reply', { threadId, body: { text: '{@0} one more thing', mentions: [{ principal: 'Ben' }] } }, 'Cy')
    assert.deepEqual((await inbox('Ben')).notifications, before)
    // Dee (level all) heard of it.
    assert.equal((await inbox('Dee')).notifications[0].count, 3)
  })

  it('answers the activity of real writes on both transports, filtered by kind and limited, to who may read it', async () => {
    await ok(ws, ['slide', 'patch', 'title-1', '--set', '/title=Quarterly review 2026', '--rev', '0'])
    await ok(ws, ['deck', 'rename', 'Quarterly review, final', '--rev', '1'])
    await ok(ws, ['version', 'save', '-m', 'Sent to the board'])
    await post('export.run', { format: 'pptx', mode: 'native', theme: ['light'] }, 'Ana')
    const cli = await ok(ws, ['activity'])
    const http = await post('activity.list', {}, 'Ana')
    for (const feed of [cli, http]) {
      const kinds = new Set(feed.records.map((r: any) => r.kind))
      for (const kind of ['version', 'comment', 'rename', 'named', 'export']) assert.ok(kinds.has(kind), `${kind} in ${[...kinds]}`)
      const times = feed.records.map((r: any) => Date.parse(r.at))
      assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first')
    }
    assert.deepEqual(cli.records.map((r: any) => r.id), http.records.map((r: any) => r.id))
    const exported = http.records.find((r: any) => r.kind === 'export')
    assert.deepEqual([exported.actor, exported.details.format, exported.details.files], ['Ana', 'pptx', ['quarterly-review-light.pptx']])
    assert.deepEqual(http.records.filter((r: any) => r.kind === 'comment').map((r: any) => r.details.action), ['comment.reply', 'comment.add', 'comment.reply', 'comment.add'])
    const renames = await ok(ws, ['activity', '--kind', 'rename,named'])
    assert.deepEqual(renames.records.map((r: any) => [r.kind, r.details.action]), [['named', 'version.save'], ['rename', 'deck.rename']])
    assert.equal((await post('activity.list', { limit: 2 }, 'Ana')).records.length, 2)

    // Editors and the owner read it; commenters only once the owner allows it; viewers never.
    const local = Workspace.find({ root: ws.dir })
    const list = ACTIONS.find((a) => a.id === 'activity.list')!
    const settings = ACTIONS.find((a) => a.id === 'notification.settings')!
    const as = (role: 'editor' | 'commenter' | 'viewer', action = list, input: Record<string, unknown> = {}) => dispatch(action, input, { ws: local, transport: 'H', deck: DECK, role, author: 'Eve' })
    assert.ok(((await as('editor')).result as { records: unknown[] }).records.length > 0)
    await assert.rejects(as('commenter'), (e: StudioError) => e.code === 'forbidden' && /readActivity/.test(e.message))
    await assert.rejects(as('editor', settings, { activityForCommenters: true }), (e: StudioError) => e.code === 'forbidden' && e.extra.pointer === '/activityForCommenters')
    assert.equal((await ok(ws, ['notifications', 'settings', '--activity-for-commenters'])).activityForCommenters, true)
    assert.ok(((await as('commenter')).result as { records: unknown[] }).records.length > 0)
    await assert.rejects(as('viewer'), (e: StudioError) => e.code === 'forbidden')
  })

  it('mails an address its unread record once the window is over, and admin.mail.list shows it on both transports', async () => {
    const opened = (await post('comment.add', { anchor: { kind: 'slide', slideId: 'title-1' }, body: { text: '{@0} can you confirm the figures?', mentions: [{ email: 'fay@example.com' }] } }, 'Cy')).thread
    assert.equal((await ok(ws, ['admin', 'mail'])).messages.filter((m: any) => m.to === 'fay@example.com').length, 0, 'not before the window ends')
    // The window's end, injected: the due check this server and every notify run, called here.
    await sendDueMail(Workspace.find({ root: ws.dir }), () => Date.now() + COALESCE_MS + 60_000)
    const cli = (await ok(ws, ['admin', 'mail'])).messages
    const http = (await post('admin.mail.list', { limit: 50 }, 'Ana')).messages
    assert.deepEqual(cli, http)
    const fay = cli.filter((m: any) => m.to === 'fay@example.com')
    assert.equal(fay.length, 1)
    assert.match(fay[0].subject, /^Quarterly review, final: Cy mentioned you$/)
    assert.match(fay[0].text, /slide title-1\./)
    assert.ok(fay[0].text.includes(`Open the thread: http://localhost:4321/d/${DECK}/title-1?thread=${opened.id}`))
    await sendDueMail(Workspace.find({ root: ws.dir }), () => Date.now() + 3 * COALESCE_MS)
    assert.equal((await ok(ws, ['admin', 'mail'])).messages.filter((m: any) => m.to === 'fay@example.com').length, 1, 'once')
  })
})
