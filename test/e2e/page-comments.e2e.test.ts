/**
 * Comments in the page (issue 25, item 5), in the system Chromium against a real `studio serve` on
 * loopback: a thread an agent adds over MCP, or a command in another process adds, shows in the open
 * page on its own (the room's `comments` message); a range pin covers exactly its words; replying and
 * resolving from a card are commits; comment.link's address opens the card; a selection in the text
 * becomes a range thread with a mention picked by completion.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import WebSocket from 'ws'
import { EMOJI } from '../../src/actions/comment/schemas.js'
import { EMOJI_CHARS } from '../../src/page/emoji.js'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { COMMENTED_SLIDE, newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, commitCount, ROOT, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'
import { until } from '../helpers/until.js'

// The CLI runs in this test's process: to `studio serve` it is another process, as a person's terminal is.
cliInOneProcess()

const require = createRequire(import.meta.url)
const { chromium } = require('playwright-core') as typeof import('playwright-core')

const DECK = 'quarterly-review'
const SLIDE = COMMENTED_SLIDE

describe('comments in the page', { timeout: 300_000 }, () => {
  let ws: TestWorkspace
  let server: Served
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let mcp: Client

  const threadFile = (id: string) => JSON.parse(readFileSync(join(ws.dir, `decks/${DECK}/comments/${id}.json`), 'utf8'))
  const cli = async (args: string[]) => {
    const r = await studio(ws.dir, [...args, '--json'])
    assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
    return r.json
  }
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any }
    assert.ok(!r.isError, JSON.stringify(r.structuredContent))
    return r.structuredContent
  }
  /** Opens the deck on the slide with the comments panel, once the page has read the threads. */
  const openPanel = async (query = '') => {
    await page.goto(`${server.url}/d/${DECK}/numbers-2${query}`)
    await page.locator('.canvas[data-slide="numbers-2"] .frame[data-frame="b1"]').waitFor()
    if (!query) await page.getByRole('button', { name: /^Comments/ }).click()
    await page.getByRole('region', { name: 'Comments' }).waitFor()
    await page.locator('.comments[data-loaded]').waitFor()
    // The room is live: from here a write anywhere reaches this page by the room, not by a reload.
    await page.locator('.roster').waitFor()
  }
  const lastAction = async () => (await ws.git('log', '-1', '--format=%(trailers:key=Studio-Action,valueonly)')).trim()

  before(async () => {
    ws = await newUserWorkspace()
    await cli(['slide', 'insert', '--input', JSON.stringify({ sectionId: 'main', after: 'title-1', slide: SLIDE, baseRevision: 0 })])
    server = await serve(ws.dir, [], { ttl: 290 })
    browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
    mcp = new Client({ name: 'page-comments-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { 'x-studio-author': 'agent:reviewer' } } }))
  })
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    page = await context.newPage()
    page.on('pageerror', (error) => console.error('page error:', error.message))
  })
  afterEach(async () => {
    await context?.close()
  })
  after(async () => {
    await mcp?.close()
    await browser?.close()
    await server?.stop()
    ws?.cleanup()
  })

  it("tells the deck's room of each comment write once: from the engine with who made it, from the watcher for another process", async () => {
    const messages: any[] = []
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/room/${DECK}?client=roomtest0001`)
    socket.on('message', (data) => messages.push(JSON.parse(String(data))))
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)))
    try {
      await until('the welcome', () => messages.length, (n) => n > 0)
      const byAgent = await tool('deck_add_comment', { anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [28, 35] }, body: { text: 'From an agent' } })
      const first = await until('the comments message', () => messages.filter((m) => m.type === 'comments'), (m) => m.length > 0)
      assert.deepEqual(first[0], { type: 'comments', deckId: DECK, revision: byAgent.baseRevision, by: { transport: 'M' }, threadId: byAgent.thread.id, actionId: 'comment.add' })
      // A comment write moves no deck revision: no `changed`.
      assert.equal(messages.filter((m) => m.type === 'changed').length, 0)
      const byCli = await cli(['comment', 'reply', byAgent.thread.id, '-m', 'From a terminal'])
      const second = await until('the second comments message', () => messages.filter((m) => m.type === 'comments'), (m) => m.length > 1)
      assert.deepEqual(second[1], { type: 'comments', deckId: DECK, revision: byCli.baseRevision, by: { transport: 'git' } })
      // Edits that move the thread's anchor rewrite its file in their own commit, at the same comments
      // revision: they are `changed`, and the watcher's look at comments/ after them tells nothing new.
      for (const text of ['Costs fell by half at Acme Co.\nMargins grew.', SLIDE.blocks[1].text]) {
        const { revision } = JSON.parse(readFileSync(join(ws.dir, `decks/${DECK}/deck.json`), 'utf8'))
        await tool('deck_update_slide', { slideId: 'numbers-2', baseRevision: revision, mutations: [{ kind: 'text.replace', pointer: '/blocks/1/text', text }] })
        await until('the changed message', () => messages.filter((m) => m.type === 'changed').length, (n) => n === (text === SLIDE.blocks[1].text ? 2 : 1))
      }
      assert.deepEqual(threadFile(byAgent.thread.id).anchor.range, [28, 35])
      // Give the watcher's poll (every 250 ms) its look.
      await new Promise((r) => setTimeout(r, 600))
      assert.equal(messages.filter((m) => m.type === 'comments').length, 2)
    } finally {
      socket.close()
    }
  })

  it('shows the 24 palette names of the reactions, each as an emoji', () => {
    assert.deepEqual(Object.keys(EMOJI_CHARS), [...EMOJI])
  })

  it('shows a thread an agent adds over MCP in the open page within a second, its pin on exactly the words', async () => {
    await openPanel()
    const added = await tool('deck_add_comment', {
      anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [28, 35] },
      body: { text: 'Is this still true?' },
    })
    const id = added.thread.id as string
    // The room's `comments` message, not a poll of the page: a second is plenty.
    await page.locator(`.thread-card[data-thread="${id}"]`).waitFor({ timeout: 1000 })
    const pin = page.locator(`.pin[data-pin="${id}"]`)
    await pin.waitFor({ state: 'attached', timeout: 1000 })
    // "Margins", in the second paragraph: the paragraph break counts one character.
    assert.equal(await pin.getAttribute('data-text'), 'Margins')
    const area = (await pin.locator('.pin-area').first().boundingBox())!
    const frame = (await page.locator('.frame[data-frame="b1"]').boundingBox())!
    assert.ok(area.width > 0 && area.x >= frame.x - 1 && area.y >= frame.y - 1 && area.x + area.width <= frame.x + frame.width + 1, `${JSON.stringify(area)} inside ${JSON.stringify(frame)}`)
    assert.match(await page.locator(`.thread-card[data-thread="${id}"]`).innerText(), /agent:reviewer[\s\S]*Is this still true\?/)
  })

  it('shows a thread another process adds (the watcher of the deck\'s comments) and outlines its table cell', async () => {
    await openPanel()
    const added = await cli(['comment', 'add', 'numbers-2#b2/cell:2,1', '-m', 'Costs of 8? check', '--author', 'Cy'])
    const id = added.thread.id as string
    await page.locator(`.thread-card[data-thread="${id}"]`).waitFor({ timeout: 5000 })
    const cell = (await page.locator(`.pin[data-pin="${id}"] .pin-area`).boundingBox())!
    const table = (await page.locator('.frame[data-frame="b2"]').boundingBox())!
    // Row 2 of 3, column 1 of 3: the middle column of the bottom row.
    assert.ok(cell.y > table.y + table.height / 2 && cell.x > table.x + table.width / 4 && cell.x + cell.width < table.x + (table.width * 3) / 4, `${JSON.stringify(cell)} in ${JSON.stringify(table)}`)
  })

  it('replies to and resolves a thread from its card: one commit each', async () => {
    const added = await tool('deck_add_comment', { anchor: { kind: 'block', slideId: 'numbers-2', blockId: 'title' }, body: { text: 'A sharper title?' } })
    const id = added.thread.id as string
    await openPanel()
    // The pin on the slide opens the card, and focus moves to it.
    await page.locator(`.pin[data-pin="${id}"] .pin-mark`).click()
    const card = page.locator(`.thread-card[data-thread="${id}"]`)
    await card.locator('.thread-body').waitFor()
    assert.equal(await page.evaluate(() => document.activeElement?.id), `thread-${id}`)
    let commits = await commitCount(ws.git)
    await card.getByRole('combobox', { name: 'Reply' }).fill('Done: "Why now, in numbers".')
    await card.getByRole('button', { name: 'Reply', exact: true }).click()
    await until('the reply commit', () => commitCount(ws.git), (n) => n === commits + 1)
    assert.equal(await lastAction(), 'comment.reply')
    assert.equal(threadFile(id).comments.length, 2)
    await card.locator('.comment[data-comment="c2"]').waitFor()
    commits = await commitCount(ws.git)
    await card.getByRole('button', { name: 'Resolve' }).click()
    await until('the resolve commit', () => commitCount(ws.git), (n) => n === commits + 1)
    assert.equal(await lastAction(), 'comment.resolve')
    assert.equal(threadFile(id).state, 'resolved')
    await card.getByRole('button', { name: 'Reopen' }).waitFor()
  })

  it('reacts, assigns, marks done and deletes and restores its own comment from a card, each one commit', async () => {
    const added = await tool('deck_add_comment', { anchor: { kind: 'deck' }, body: { text: 'Ready for Monday?' } })
    const id = added.thread.id as string
    const other = (await tool('deck_add_comment', { anchor: { kind: 'deck' }, body: { text: 'Not for the page author' } })).thread.id as string
    await openPanel()
    const me = (await ws.git('config', 'user.name')).trim()
    // A deck thread is the badge in the slide's corner.
    await page.locator('.pin-badge').click()
    const card = page.locator(`.thread-card[data-thread="${id}"]`)
    await card.locator('.thread-body').waitFor()
    const step = async (what: string, press: () => Promise<void>, action: string, check: (thread: any) => boolean) => {
      const commits = await commitCount(ws.git)
      await press()
      await until(`${what}: the commit`, () => commitCount(ws.git), (n) => n === commits + 1)
      assert.equal(await lastAction(), action)
      assert.ok(check(threadFile(id)), `${what}: ${JSON.stringify(threadFile(id))}`)
    }
    await card.getByRole('button', { name: 'Add a reaction' }).click()
    await step('react', () => card.getByRole('button', { name: 'rocket' }).click(), 'comment.react', (t) => JSON.stringify(t.comments[0].reactions.rocket) === JSON.stringify([me]))
    await card.getByRole('button', { name: /^rocket: 1/ }).and(page.locator('[aria-pressed="true"]')).waitFor()
    await card.getByRole('combobox', { name: /Assign to/ }).fill(me)
    await step('assign', () => card.getByRole('button', { name: 'Assign', exact: true }).click(), 'comment.assign', (t) => t.assignee?.principal === me && t.done === false)
    // Assigned to this tab's author: the thread is "for me".
    await page.getByRole('radio', { name: 'For me' }).click()
    await page.locator(`.thread-card[data-thread="${other}"]`).waitFor({ state: 'detached' })
    // Listed for what it is, not only because its card is the open one.
    await card.locator('.thread-head').click()
    await card.locator('.thread-head[aria-expanded="false"]').waitFor()
    await card.locator('.thread-head').click()
    await card.getByText(`Assigned to ${me}`).waitFor()
    await step('done', () => card.getByRole('button', { name: 'Done', exact: true }).click(), 'comment.done', (t) => t.done === true)
    await card.getByRole('combobox', { name: 'Reply' }).fill('Yes.')
    await step('reply', () => card.getByRole('button', { name: 'Reply', exact: true }).click(), 'comment.reply', (t) => t.comments.length === 2)
    // Only one's own comments can be deleted from the page: the agent's has no Delete.
    await card.locator('.comment[data-comment="c2"]').getByRole('button', { name: /^Delete/ }).waitFor()
    assert.equal(await card.locator('.comment[data-comment="c1"]').getByRole('button', { name: /^Delete/ }).count(), 0)
    await step('delete', () => card.locator('.comment[data-comment="c2"]').getByRole('button', { name: /^Delete/ }).click(), 'comment.delete', (t) => Boolean(t.comments[1].deletedAt))
    await card.locator('.comment[data-comment="c2"]', { hasText: 'Comment deleted.' }).waitFor()
    await step('restore', () => card.locator('.comment[data-comment="c2"]').getByRole('button', { name: /^Restore/ }).click(), 'comment.delete', (t) => !t.comments[1].deletedAt)
    await card.locator('.comment[data-comment="c2"]', { hasText: 'Yes.' }).waitFor()
  })

  it("opens comment.link's address on the thread's slide with its card expanded", async () => {
    const added = await tool('deck_add_comment', { anchor: { kind: 'notes', slideId: 'numbers-2' }, body: { text: 'Too long a pause?' } })
    const id = added.thread.id as string
    const link = await cli(['comment', 'link', id])
    const url = new URL(link.editorUrl)
    assert.equal(url.pathname, `/d/${DECK}/numbers-2`)
    await openPanel(url.search)
    const card = page.locator(`.thread-card[data-thread="${id}"]`)
    await card.locator('.thread-body').waitFor()
    assert.equal(await card.locator('.thread-head').getAttribute('aria-expanded'), 'true')
    assert.equal(await page.evaluate(() => document.activeElement?.id), `thread-${id}`)
    // A notes thread marks the notes.
    await page.locator(`.notes .pin-notes[data-pin="${id}"]`).waitFor()
  })

  it('comments on words selected in the text, mentioning a person picked by completion', async () => {
    await openPanel()
    const me = (await ws.git('config', 'user.name')).trim()
    await page.locator('.frame[data-frame="b1"]').dblclick()
    await page.locator('[data-block="b1"] .t[contenteditable="true"]').waitFor()
    // "half": characters 14 to 18 of the first paragraph.
    await page.keyboard.press('Control+Home')
    for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowRight')
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('Control+Alt+M')
    const draft = page.getByRole('group', { name: 'New thread' })
    await draft.waitFor()
    assert.equal(await draft.locator('.quote').innerText(), 'half')
    const box = draft.getByRole('combobox', { name: 'Comment' })
    await box.focus()
    await page.keyboard.type(`Ask @${me.slice(0, 2)}`)
    await draft.getByRole('option', { name: me }).waitFor()
    await page.keyboard.press('Enter')
    await page.keyboard.type('about it')
    const commits = await commitCount(ws.git)
    await page.keyboard.press('Control+Enter')
    await until('the new thread commit', () => commitCount(ws.git), (n) => n === commits + 1)
    assert.equal(await lastAction(), 'comment.add')
    const id = (await ws.git('log', '-1', '--format=%(trailers:key=Studio-Thread,valueonly)')).trim()
    const thread = threadFile(id)
    assert.deepEqual(thread.anchor, { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [14, 18] })
    assert.deepEqual(thread.comments[0].body, { text: 'Ask {@0} about it', mentions: [{ principal: me }] })
    // The card shows the mention as the name, and it is the open one.
    const card = page.locator(`.thread-card[data-thread="${id}"]`)
    await card.locator('.mention', { hasText: `@${me}` }).waitFor()
  })

  it('has no serious or critical axe-core violations with the panel, an open card, pins and the mention list, in light and dark', async () => {
    // axe is injected as a script: this context bypasses the page's CSP (which allows only the page's own script).
    const audit = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
    const tab = await audit.newPage()
    const axe = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')
    const check = async (where: string) => {
      await tab.addScriptTag({ content: axe })
      const result = (await tab.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))) as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`), [], where)
    }
    try {
      const added = await tool('deck_add_comment', { anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [14, 18] }, body: { text: 'Which half?' } })
      await tool('deck_react_comment', { threadId: added.thread.id, commentId: 'c1', emoji: 'eyes', on: true })
      for (const appearance of ['light', 'dark']) {
        await tab.goto(server.url + '/')
        await tab.evaluate((a) => localStorage.setItem('studio.appearance', a), appearance)
        await tab.goto(`${server.url}/d/${DECK}/numbers-2?thread=${added.thread.id}`)
        await tab.locator(`.thread-card[data-thread="${added.thread.id}"] .thread-body`).waitFor()
        await tab.locator(`.pin[data-pin="${added.thread.id}"]`).waitFor({ state: 'attached' })
        await check(`comments panel with an open card, ${appearance}`)
        await tab.getByRole('button', { name: 'New comment' }).click()
        await tab.getByRole('group', { name: 'New thread' }).getByRole('combobox').pressSequentially('@')
        await tab.getByRole('listbox', { name: 'People to mention' }).waitFor()
        await check(`a new thread with the mention list, ${appearance}`)
      }
    } finally {
      await audit.close()
    }
  })
})
