/**
 * Kill switches (admin.flag, issue 26) against one served studio: each of the thirteen, turned on,
 * stops what it names with 503 `switched_off` naming the switch on at least two transports (HTTP, MCP,
 * the page's window transport, the CLI), and turned off lets it work again. The rule stands in the
 * engine (src/core/switches.ts), so the in-process engine answers the same. `realtime` is held by
 * test/e2e/room.e2e.test.ts (WebSocket upgrades refused, open sockets closed); `email` and `signup`
 * bite below the action table (the mail module, the first sign-in) and are checked there.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createRequire } from 'node:module'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import { sendMail } from '../../src/comments/mail.js'
import { signupAllowed, SWITCHES } from '../../src/core/switches.js'
import { Workspace } from '../../src/store/workspace.js'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const DECK = 'quarterly-review'

describe('the thirteen kill switches, each enforced where it bites', () => {
  let ws: TestWorkspace
  let server: Served
  let mcp: Client
  before(async () => {
    ws = await newUserWorkspace()
    server = await serve(ws.dir)
    mcp = new Client({ name: 'flags-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { 'x-studio-author': 'Ana' } } }))
  })
  after(async () => {
    await mcp?.close()
    await server?.stop()
    ws?.cleanup()
  })

  type Answer = { status: number; code?: string; flag?: string; message?: string; json: any }
  const http = async (id: string, input: unknown, route: 'actions' | 'window' = 'actions'): Promise<Answer> => {
    const r = await request(`${server.url}/api/${route}/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': 'Ana' }, body: JSON.stringify(input) })
    const json = (await r.body.json()) as any
    return { status: r.statusCode, code: json?.code, flag: json?.details?.flag, message: json?.message, json }
  }
  const page = (id: string, input: unknown) => http(id, input, 'window')
  const tool = async (name: string, args: Record<string, unknown>): Promise<Answer> => {
    const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any }
    const json = r.structuredContent
    return { status: r.isError ? (json?.status ?? 500) : 200, code: r.isError ? json?.code : undefined, flag: json?.details?.flag, message: json?.message, json }
  }
  const flag = async (name: string, on: boolean) => {
    const r = await http('admin.flag', { name, on })
    assert.deepEqual([r.status, r.json.on], [200, on], JSON.stringify(r.json))
  }
  const revision = () => JSON.parse(readFileSync(join(ws.dir, 'decks', DECK, 'deck.json'), 'utf8')).revision as number
  const switchedOff = (answer: Answer, name: string, what: string) =>
    assert.deepEqual([answer.status, answer.code, answer.flag], [503, 'switched_off', name], `${what}: ${JSON.stringify(answer.json)}`)
  const notSwitchedOff = (answer: Answer, what: string) => assert.notEqual(answer.code, 'switched_off', `${what}: ${JSON.stringify(answer.json)}`)

  it('reads and sets all thirteen by name over HTTP and MCP', async () => {
    assert.equal(SWITCHES.length, 13)
    for (const name of SWITCHES) {
      assert.deepEqual([(await http('admin.flag', { name })).json.on], [false])
      assert.equal((await tool('deck_admin_flag', { name })).json.on, false)
    }
  })

  it('presence: presence.list refused over HTTP and MCP, answered again once off', async () => {
    await flag('presence', true)
    switchedOff(await http('presence.list', {}), 'presence', 'HTTP')
    switchedOff(await tool('deck_list_presence', {}), 'presence', 'MCP')
    await flag('presence', false)
    assert.equal((await http('presence.list', {})).status, 200)
  })

  it('comments: every comment write refused over HTTP, MCP and the page, reads still answer', async () => {
    const add = { anchor: { kind: 'deck' }, body: { text: 'Is this right?' } }
    await flag('comments', true)
    switchedOff(await http('comment.add', add), 'comments', 'HTTP')
    switchedOff(await tool('deck_add_comment', add), 'comments', 'MCP')
    switchedOff(await page('comment.add', add), 'comments', 'page')
    // Reads answer, and say the switch is on: the page hides its composers.
    const listed = await page('comment.list', {})
    assert.deepEqual([listed.status, listed.json.switchedOff], [200, true])
    await flag('comments', false)
    assert.equal((await page('comment.list', {})).json.switchedOff, undefined)
    const added = await http('comment.add', add)
    assert.equal(added.status, 200, JSON.stringify(added.json))
  })

  it('comments: the page hides its composers while the switch is on, and shows them again once off', async () => {
    const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')
    const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
    try {
      const page = await browser.newPage()
      const panel = async () => {
        await page.goto(`${server.url}/d/${DECK}/title-1`)
        await page.getByRole('button', { name: /^Comments/ }).click()
        await page.locator('.comments[data-loaded]').waitFor()
      }
      await flag('comments', true)
      await panel()
      await page.locator('.comments-off').waitFor()
      assert.equal(await page.getByRole('button', { name: 'New comment' }).count(), 0)
      assert.equal(await page.getByRole('button', { name: 'Reply' }).count(), 0)
      await flag('comments', false)
      await panel()
      await page.getByRole('button', { name: 'New comment' }).waitFor()
      assert.equal(await page.locator('.comments-off').count(), 0)
    } finally {
      await browser.close()
    }
  })

  it('invites: share.invite refused over HTTP and MCP', async (t) => {
    if (!ACTIONS.find((a) => a.id === 'share.invite')!.implemented) return t.skip('share.invite is built by the share helper')
    const input = { id: DECK, emails: ['ana@example.com'], role: 'editor', baseRevision: 0 }
    await flag('invites', true)
    switchedOff(await http('share.invite', input), 'invites', 'HTTP')
    switchedOff(await tool('deck_invite', input), 'invites', 'MCP')
    await flag('invites', false)
    notSwitchedOff(await http('share.invite', input), 'after')
  })

  it('exports: export.* and build.* refused over HTTP, MCP and the CLI, answered again once off', async () => {
    await flag('exports', true)
    switchedOff(await http('export.text', { slideIds: 'all' }), 'exports', 'HTTP')
    switchedOff(await tool('deck_export_markdown', {}), 'exports', 'MCP')
    switchedOff(await tool('deck_build', { out: 'dist/q.html' }), 'exports', 'MCP build')
    const cli = await studio(ws.dir, ['export', 'txt', 'all', '--json'])
    assert.deepEqual([cli.code, cli.json.code, cli.json.details.flag], [1, 'switched_off', 'exports'])
    await flag('exports', false)
    assert.equal((await http('export.text', { slideIds: 'all' })).status, 200)
  })

  it('uploads: asset bytes refused over HTTP and MCP (and a picture avatar), added again once off', async () => {
    await flag('uploads', true)
    const base = revision()
    switchedOff(await http('asset.add', { file: 'photos/harbour.jpg', id: 'harbour', role: 'picture', alt: 'Cranes', baseRevision: base }), 'uploads', 'HTTP')
    switchedOff(await tool('deck_asset_add', { file: 'photos/harbour.jpg', id: 'harbour', role: 'picture', alt: 'Cranes', baseRevision: base }), 'uploads', 'MCP')
    switchedOff(await page('account.setAvatar', { variant: 'picture', picture: 'data:image/png;base64,AAAA' }), 'uploads', 'page avatar')
    switchedOff(await tool('deck_set_slide_background_picture', { slideIds: ['title-1'], file: 'photos/harbour.jpg', baseRevision: base }), 'uploads', 'MCP background picture')
    assert.equal((await http('account.setAvatar', { variant: 'glyph' })).status, 200, 'other avatars are no upload')
    assert.equal(revision(), base)
    await flag('uploads', false)
    const added = await http('asset.add', { file: 'photos/harbour.jpg', id: 'harbour', role: 'picture', alt: 'Cranes', baseRevision: base })
    assert.equal(added.status, 200, JSON.stringify(added.json))
  })

  it('renderThumbs: render.slide and render.sheet refused over HTTP and MCP; reach the renderer again once off', async () => {
    await flag('renderThumbs', true)
    switchedOff(await http('render.slide', { slideIds: ['title-1'] }), 'renderThumbs', 'HTTP')
    switchedOff(await tool('deck_sheet', { slideIds: 'all' }), 'renderThumbs', 'MCP')
    await flag('renderThumbs', false)
    // An unknown slide is answered by the render itself, past the switch (no Chromium started).
    assert.equal((await http('render.slide', { slideIds: ['no-such-slide'] })).code, 'not_found')
  })

  it('materialize: material.capture and picture.materialize refused over HTTP and MCP', async () => {
    await flag('materialize', true)
    switchedOff(await http('material.capture', { materialId: 'paper:mesh-gradient', anchors: [0], baseRevision: revision() }), 'materialize', 'HTTP')
    switchedOff(await tool('deck_materialize_pictures', { slideIds: 'all', dryRun: true, baseRevision: revision() }), 'materialize', 'MCP')
    await flag('materialize', false)
    notSwitchedOff(await tool('deck_materialize_pictures', { slideIds: 'all', dryRun: true, baseRevision: revision() }), 'after')
  })

  it('htmlBlocks: a write adding an HTML block refused over HTTP and MCP, whatever action stages it; accepted once off', async () => {
    const slide = (id: string) => ({ id, layout: 'freeform', blocks: [{ id: 'h1', kind: 'html', html: '<b>hi</b>', pos: { x: 100, y: 100, w: 400, h: 200 } }] })
    await flag('htmlBlocks', true)
    const base = revision()
    switchedOff(await http('slide.insert', { sectionId: 'main', after: 'title-1', slide: slide('html-1'), baseRevision: base }), 'htmlBlocks', 'HTTP slide.insert')
    switchedOff(await tool('deck_insert_block', { slideId: 'title-1', slot: 'caption', block: { id: 'h2', kind: 'html', html: '<i>x</i>' }, baseRevision: base }), 'htmlBlocks', 'MCP block.insert')
    assert.equal(revision(), base)
    await flag('htmlBlocks', false)
    const inserted = await http('slide.insert', { sectionId: 'main', after: 'title-1', slide: slide('html-1'), baseRevision: base })
    assert.equal(inserted.status, 200, JSON.stringify(inserted.json))
    // A slide that already holds one stays writable while the switch is on.
    await flag('htmlBlocks', true)
    const skipped = await http('slide.skip', { slideIds: ['html-1'], skip: true, baseRevision: revision() })
    assert.equal(skipped.status, 200, JSON.stringify(skipped.json))
    await flag('htmlBlocks', false)
  })

  it('readOnly: every write refused over HTTP, MCP, the page and the CLI while reads answer; admin.flag turns it off', async () => {
    await flag('readOnly', true)
    const base = revision()
    switchedOff(await http('deck.rename', { name: 'Renamed', baseRevision: base }), 'readOnly', 'HTTP')
    switchedOff(await tool('deck_rename', { name: 'Renamed', baseRevision: base }), 'readOnly', 'MCP')
    switchedOff(await page('account.setName', { name: 'Ana Lima' }), 'readOnly', 'page')
    const cli = await studio(ws.dir, ['deck', 'rename', 'Renamed', '--json'])
    assert.deepEqual([cli.json.code, cli.json.details.flag], ['switched_off', 'readOnly'])
    assert.equal((await http('deck.get', {})).status, 200)
    assert.equal((await page('deck.get', {})).status, 200)
    assert.equal(revision(), base)
    const off = await tool('deck_admin_flag', { name: 'readOnly', on: false })
    assert.equal(off.json.on, false)
    assert.equal((await http('deck.rename', { name: 'Renamed', baseRevision: base })).status, 200)
  })

  it('maintenance: every write and every page call answers 503 with the maintenance sentence; HTTP and MCP reads answer', async () => {
    await flag('maintenance', true)
    const write = await http('deck.rename', { name: 'Again', baseRevision: revision() })
    switchedOff(write, 'maintenance', 'HTTP write')
    assert.match(write.message!, /down for maintenance/)
    switchedOff(await tool('deck_rename', { name: 'Again', baseRevision: revision() }), 'maintenance', 'MCP write')
    const read = await page('deck.get', {})
    switchedOff(read, 'maintenance', 'page read')
    assert.equal((await http('deck.get', {})).status, 200)
    assert.equal((await tool('deck_get', {})).status, 200)
    // The page's admin screen can still turn it off.
    assert.equal((await page('admin.flag', { name: 'maintenance', on: false })).json.on, false)
    assert.equal((await page('deck.get', {})).status, 200)
  })

  it('email: no mail is captured or sent while it is on; signup: signupAllowed answers false', async () => {
    const workspace = new Workspace(ws.dir, ws.dir)
    const mailFile = join(ws.dir, '.studio', 'mail.jsonl')
    const previous = process.env.STUDIO_MAIL
    process.env.STUDIO_MAIL = 'capture'
    try {
      await flag('email', true)
      assert.equal(await sendMail(workspace, { to: 'ana@example.com', subject: 'Hi', text: 'x' }), false)
      assert.equal(existsSync(mailFile), false)
      await flag('email', false)
      assert.equal(await sendMail(workspace, { to: 'ana@example.com', subject: 'Hi', text: 'x' }), true)
      assert.equal(readFileSync(mailFile, 'utf8').trim().split('\n').length, 1)
    } finally {
      if (previous === undefined) delete process.env.STUDIO_MAIL
      else process.env.STUDIO_MAIL = previous
    }
    assert.equal(signupAllowed(workspace), true)
    await flag('signup', true)
    assert.equal(signupAllowed(workspace), false)
    await flag('signup', false)
    assert.equal(signupAllowed(workspace), true)
  })
})
