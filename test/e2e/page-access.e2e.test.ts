/**
 * People and access in the page (issue 26, item 8 and the journey of "Done means"), in the system
 * Chromium against a real `studio serve` with accounts on loopback: the owner signs in by a magic link
 * read from captured mail, makes a deck, shares it by a commenter link from the share dialog (the URL
 * shown once); a second browser opens the link, sees no edit affordance, comments, and is refused an
 * edit over HTTP with its own cookies; the owner revokes the link and the visitor's next request is
 * refused, the page showing the access-request screen. axe finds nothing serious on the sign-in
 * screen, the share dialog and the access-request screen, light and dark.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { request } from 'undici'
import { identityOf, closeIdentities } from '../../src/identity/db.js'
import { Workspace } from '../../src/store/workspace.js'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { ROOT, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'
import { until } from '../helpers/until.js'

const require = createRequire(import.meta.url)
const { chromium } = require('playwright-core') as typeof import('playwright-core')

const OWNER = 'owner@example.com'
/** Screenshots for docs/ are written only when asked (STUDIO_SHOTS=1): tests never write into the checkout by default. */
const SHOTS = process.env.STUDIO_SHOTS === '1' ? join(ROOT, 'docs/images') : undefined

describe('people and access in the page', { timeout: 300_000 }, () => {
  let ws: TestWorkspace
  let server: Served
  let browser: Browser
  let owner: BrowserContext
  let visitor: BrowserContext
  let page: Page
  let guest: Page
  let deck = ''
  const axe = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')

  /** The newest captured mail to an address, and the first /auth/ link in it. */
  const mailedLink = async (to: string, since: number) => {
    const file = join(ws.dir, '.studio/mail.jsonl')
    const mails = (): { to: string; at: string; text: string }[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [])
    const message = (await until(`a mail to ${to}`, () => mails().filter((m) => m.to === to && Date.parse(m.at) >= since).at(-1), Boolean))!
    const link = /https?:\/\/\S+\/auth\/mail\/\S+/.exec(message.text)?.[0]
    assert.ok(link, `a sign-in link in: ${message.text}`)
    return link
  }

  /** No serious or critical axe-core violation on what the page shows now (axe injected: the context bypasses the CSP). */
  const audit = async (on: Page, where: string) => {
    await on.addScriptTag({ content: axe })
    const result = (await on.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))) as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`), [], where)
  }
  const inBoth = async (on: Page, where: string, shot?: string) => {
    for (const appearance of ['light', 'dark'] as const) {
      await on.evaluate((a) => {
        localStorage.setItem('studio.appearance', a)
        document.documentElement.dataset.theme = a
      }, appearance)
      await audit(on, `${where}, ${appearance}`)
      if (SHOTS && shot) {
        mkdirSync(SHOTS, { recursive: true })
        const name = shot.includes('{appearance}') ? shot.replace('{appearance}', appearance) : appearance === 'light' ? shot : undefined
        if (name) await on.screenshot({ path: join(SHOTS, name) })
      }
    }
  }
  /** A window-transport call with a context's cookies, as its page would send it (same origin). */
  const callAs = (context: BrowserContext, action: string, input: unknown, deckId?: string) =>
    context.request.post(`${server.url}/api/window/${action}${deckId ? `?deck=${deckId}` : ''}`, { data: input, headers: { origin: server.url, 'sec-fetch-site': 'same-origin' } })

  before(async () => {
    ws = await newUserWorkspace()
    // Accounts on: the workspace has an identity database.
    const workspace = new Workspace(ws.dir, ws.dir)
    await identityOf(workspace, { create: true })
    await closeIdentities()
    server = await serve(ws.dir, [], { ttl: 290, env: { STUDIO_MAIL: 'capture' } })
    browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
    owner = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    visitor = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    page = await owner.newPage()
    guest = await visitor.newPage()
    for (const p of [page, guest]) p.on('pageerror', (error) => console.error('page error:', error.message))
  })
  after(async () => {
    await browser?.close()
    await server?.stop()
    ws?.cleanup()
  })

  it('signs the owner in by a link from captured mail, after the same answer for any address', async () => {
    await page.goto(server.url + '/')
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await inBoth(page, 'sign-in screen', 'sign-in.png')
    // An address no one has: the same sentence.
    await page.getByLabel('Email address').fill('nobody@example.com')
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    const first = await page.locator('.check-mail').innerText()
    await page.reload()
    const since = Date.now() - 1000
    await page.getByLabel('Email address').fill(OWNER)
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    assert.equal(await page.locator('.check-mail').innerText(), first)
    await page.goto(await mailedLink(OWNER, since))
    await page.getByRole('button', { name: 'Sign in' }).click()
    // Signed in: the deck list, and the account menu names the person.
    await page.getByRole('heading', { name: 'New deck' }).waitFor()
    await page.getByRole('button', { name: /^Account|owner/ }).first().waitFor()
  })

  it('shares a new deck by a commenter link shown once, and the visitor comments but is offered and allowed no edit', async () => {
    await page.getByLabel('Name').fill('Board review')
    await page.getByRole('button', { name: 'Create deck' }).click()
    await page.waitForURL(/\/d\/board-review/)
    deck = /\/d\/([^/]+)/.exec(page.url())![1]
    await page.locator('.canvas .frame').first().waitFor()
    await page.getByRole('button', { name: 'Share' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share' })
    await dialog.getByRole('heading', { name: 'People with access' }).waitFor()
    await dialog.getByLabel('Role the new link gives').selectOption('commenter')
    await dialog.getByLabel('Label of the new link').fill('Reviewers')
    await dialog.getByRole('button', { name: 'Create link' }).click()
    const url = await dialog.locator('.once-value').inputValue()
    assert.match(url, /\/s\/\S+/)
    await dialog.getByText('it will not be shown again').waitFor()
    await dialog.locator('.links li', { hasText: 'Reviewers' }).waitFor()
    await inBoth(page, 'share dialog', 'share-dialog-{appearance}.png')
    // The list never shows the URL again.
    await dialog.getByRole('button', { name: 'Close share' }).click()
    await page.getByRole('button', { name: 'Share' }).click()
    await dialog.locator('.links li', { hasText: 'Reviewers' }).waitFor()
    assert.equal(await dialog.locator('.once-value').count(), 0)
    assert.ok(!(await dialog.innerText()).includes(url.split('/s/')[1]))
    await dialog.getByRole('button', { name: 'Close share' }).click()

    // The visitor opens the link in another browser: it names the address the owner's page reached.
    assert.equal(new URL(url).origin, new URL(server.url).origin)
    await guest.goto(url)
    await guest.waitForURL(new RegExp(`/d/${deck}`))
    await guest.locator('.canvas .frame').first().waitFor()
    await guest.locator('.role-note', { hasText: 'commenter' }).waitFor()
    for (const name of ['Undo', 'New slide', 'Layout', 'Arrange', 'Share']) assert.equal(await guest.getByRole('button', { name, exact: true }).count(), 0, `no ${name} button for a commenter`)
    assert.equal(await guest.getByLabel('Deck title').count(), 0, 'the title is not an input')
    assert.equal(await guest.locator('.inspector').count(), 0, 'no inspector')
    assert.equal(await guest.locator('#notes').getAttribute('readonly'), '')
    // Double-clicking text opens no editor.
    await guest.locator('.canvas .frame').first().dblclick()
    assert.equal(await guest.locator('[contenteditable="true"]').count(), 0)

    // Comments, through the page.
    await guest.getByRole('button', { name: 'Comment', exact: true }).click()
    const draft = guest.getByRole('group', { name: 'New thread' })
    await draft.waitFor()
    await draft.getByRole('combobox', { name: 'Comment' }).fill('Looks right to me')
    await guest.keyboard.press('Control+Enter')
    await guest.locator('.thread-card', { hasText: 'Looks right to me' }).waitFor()
    const threads = await until('the thread on disk', () => (existsSync(join(ws.dir, `decks/${deck}/comments`)) ? readFileSync(join(ws.dir, `decks/${deck}/deck.json`), 'utf8') : ''), Boolean)
    assert.ok(threads)

    // An edit over HTTP with the visitor's own cookies: refused.
    const doc = await (await callAs(visitor, 'deck.get', {}, deck)).json()
    const edit = await callAs(visitor, 'deck.set', { path: '/title', value: 'Hijacked', baseRevision: doc.manifest.revision }, deck)
    assert.equal(edit.status(), 403)
    assert.equal((await edit.json()).code, 'forbidden')
    assert.equal(JSON.parse(readFileSync(join(ws.dir, `decks/${deck}/deck.json`), 'utf8')).title, 'Board review')
  })

  it("refuses the visitor's next request once the owner revokes the link, and shows the access-request screen", async () => {
    await page.getByRole('button', { name: 'Share' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share' })
    await dialog.getByRole('button', { name: /^Revoke link “Reviewers”/ }).click()
    await dialog.getByText('No live links.').waitFor()
    await dialog.getByRole('button', { name: 'Close share' }).click()

    const read = await callAs(visitor, 'deck.get', {}, deck)
    assert.equal(read.status(), 403)
    await guest.reload()
    await guest.getByRole('heading', { name: 'You need access' }).waitFor()
    await inBoth(guest, 'access-request screen')
    await guest.getByLabel('Access to ask for').selectOption('commenter')
    await guest.getByLabel('Your email address (for the answer)').fill('visitor@example.com')
    await guest.getByLabel('Message to the owner (optional)').fill('I was reviewing this.')
    await guest.getByRole('button', { name: 'Ask for access' }).click()
    const sentence = await guest.locator('.access-request .check-mail').innerText()
    assert.ok(sentence.length > 10)
    // The owner sees the request in the share dialog.
    await page.getByRole('button', { name: 'Share' }).click()
    await dialog.locator('.requests li', { hasText: 'I was reviewing this.' }).waitFor()
    await dialog.getByRole('button', { name: 'Close share' }).click()
  })

  it('reloads the record on a stale revision and says what changed instead of writing over it', async () => {
    await page.getByRole('button', { name: 'Share' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share' })
    await dialog.getByRole('heading', { name: 'General access' }).waitFor()
    // Someone else changes sharing behind the open dialog (the owner's own cookies, another tab).
    const got = await (await callAs(owner, 'share.get', { id: deck }, deck)).json()
    const other = await callAs(owner, 'share.invite', { id: deck, emails: ['ana@example.com'], role: 'viewer', notify: false, baseRevision: got.revision }, deck)
    assert.equal(other.status(), 200, await other.text())
    await dialog.getByRole('combobox', { name: 'General access' }).selectOption('link')
    const notice = dialog.locator('.notice')
    await notice.waitFor()
    assert.match(await notice.innerText(), /not done/)
    assert.match(await notice.innerText(), /ana@example\.com was added as viewer/)
    // Nothing was written over: general access is still restricted, and the dialog shows the new person.
    const now = await (await callAs(owner, 'share.get', { id: deck }, deck)).json()
    assert.equal(now.access.general.mode, 'restricted')
    await dialog.locator('.people li', { hasText: 'ana@example.com' }).waitFor()
  })

  it('manages API keys, sessions and (for an administrator) kill switches from the account menu, axe clean', async () => {
    // The person at the checkout makes the owner an administrator.
    const made = await studio(ws.dir, ['admin', 'bootstrap', '--email', OWNER, '--json'])
    assert.equal(made.code, 0, made.stdout + made.stderr)
    await page.reload()
    const menu = async (item: string) => {
      await page.getByRole('button', { name: /^Account|owner/ }).first().click()
      await page.getByRole('button', { name: item }).click()
    }
    // API keys: made with a scope, the secret shown once, listed, revoked.
    await menu('API keys…')
    const keys = page.getByRole('dialog', { name: 'API keys' })
    await keys.getByLabel('Name of the new key').fill('ci reader')
    await keys.getByRole('button', { name: 'Create key' }).click()
    const secret = await keys.getByRole('textbox', { name: 'Secret of the key “ci reader”' }).inputValue()
    assert.match(secret, /^studio_key_/)
    await keys.locator('tr', { hasText: 'ci reader' }).waitFor()
    await inBoth(page, 'API keys', 'api-keys.png')
    assert.equal((await request(`${server.url}/api/actions/deck.get?deck=${deck}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' })).statusCode, 200)
    await keys.getByRole('button', { name: 'Revoke ci reader' }).click()
    await keys.locator('tr', { hasText: 'ci reader' }).waitFor({ state: 'detached' })
    // The key admin.bootstrap made is still listed.
    await keys.locator('tr', { hasText: 'bootstrap' }).waitFor()
    assert.equal((await request(`${server.url}/api/actions/deck.get?deck=${deck}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' })).statusCode, 401)
    await keys.getByRole('button', { name: 'Close api keys' }).click()
    // Sessions: this browser's, marked.
    await menu('Sessions…')
    const sessions = page.getByRole('dialog', { name: 'Sessions' })
    await sessions.getByText('(this browser)').waitFor()
    await inBoth(page, 'sessions')
    await sessions.getByRole('button', { name: 'Close sessions' }).click()
    // Kill switches: comments off stops a comment at once, on every transport; back on, it is allowed.
    await menu('Kill switches…')
    const switches = page.getByRole('dialog', { name: 'Kill switches' })
    const comments = switches.getByRole('switch', { name: 'Stop comments' })
    await comments.waitFor()
    await page.waitForFunction(() => !document.querySelector('[data-flag="comments"] input')?.hasAttribute('disabled'))
    await inBoth(page, 'kill switches', 'kill-switches.png')
    await comments.check()
    await switches.locator('[data-flag="comments"]', { hasText: 'changed' }).waitFor()
    const manifest = (await (await callAs(owner, 'deck.get', {}, deck)).json()).manifest
    const slideId = manifest.sections.flatMap((section: { slides: string[] }) => section.slides)[0]
    const refused = await callAs(owner, 'comment.add', { anchor: { kind: 'slide', slideId }, body: { text: 'While switched off' } }, deck)
    assert.equal(refused.status(), 503, await refused.text())
    await comments.uncheck()
    // The box unticks at the click; the switch is off once the page's admin.flag call has landed.
    await until('the comments switch off', async () => (await (await callAs(owner, 'admin.flag', { name: 'comments' })).json()).on, (on) => on === false)
    const allowed = await callAs(owner, 'comment.add', { anchor: { kind: 'slide', slideId }, body: { text: 'Switched back on' } }, deck)
    assert.equal(allowed.status(), 200, await allowed.text())
    await switches.getByRole('button', { name: 'Close kill switches' }).click()
  })
})
