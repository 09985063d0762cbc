/**
 * Passkeys end to end (issue 26): a person signed in by a mail link adds a passkey from
 * /auth/passkey in Chromium with a CDP virtual authenticator (CTAP2, internal, resident key, user
 * verified), then, with no cookie left, signs in with it by discoverable credential and is the same
 * person. A challenge answers once.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import Database from 'better-sqlite3'
import { request } from 'undici'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { serve, type Served, type TestWorkspace } from '../helpers/studio.js'

const require = createRequire(import.meta.url)
const { chromium } = require('playwright-core') as typeof import('playwright-core')

describe('passkeys in Chromium with a virtual authenticator', () => {
  let ws: TestWorkspace
  let server: Served
  let base: string
  let browser: Browser
  let context: BrowserContext
  let page: Page

  async function mailSession(email: string): Promise<string> {
    const asked = await request(`${base}/auth/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
    await asked.body.text()
    const mail = readFileSync(join(ws.dir, '.studio', 'mail.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((m) => m.to === email).at(-1)
    const link = /http\S+\/auth\/mail\/\S+/.exec(mail.text)![0]
    const followed = await request(link, { method: 'POST' })
    await followed.body.text()
    return /studio_session=([^;]+)/.exec(String(followed.headers['set-cookie']))![1]
  }

  const me = () =>
    page.evaluate(async () => {
      const res = await fetch('/api/actions/account.me', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      return { status: res.status, body: await res.json() }
    })

  before(async () => {
    ws = await newUserWorkspace()
    server = await serve(ws.dir, ['--accounts'], { env: { STUDIO_MAIL: 'capture' } })
    // WebAuthn wants a name, not an address, as the relying party: localhost is this loopback server too.
    base = server.url.replace('127.0.0.1', 'localhost')
    browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
    context = await browser.newContext()
    page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } })
  })
  after(async () => {
    await browser?.close()
    await server?.stop()
    ws?.cleanup()
  })

  it('registers a passkey for a signed-in person and signs them in with it later', async () => {
    const secret = await mailSession('pat@example.com')
    await context.addCookies([{ name: 'studio_session', value: secret, url: base }])
    await page.goto(`${base}/auth/passkey`)
    const before = await me()
    assert.equal(before.status, 200)
    const registered = await page.evaluate(() => (window as unknown as { studioPasskey: { register(): Promise<unknown> } }).studioPasskey.register())
    assert.equal((registered as { registered: boolean }).registered, true)

    await context.clearCookies()
    assert.equal((await me()).status, 401)
    const signedIn = await page.evaluate(() => (window as unknown as { studioPasskey: { login(): Promise<unknown> } }).studioPasskey.login())
    assert.equal((signedIn as { signedIn: boolean }).signedIn, true)
    const cookies = await context.cookies(base)
    const session = cookies.find((c) => c.name === 'studio_session')
    assert.ok(session?.httpOnly)
    assert.equal(session?.sameSite, 'Lax')
    const after = await me()
    assert.equal(after.status, 200)
    assert.equal(after.body.principal.id, before.body.principal.id)
    assert.equal(after.body.trust, 'verified')
    const sessions = after.body.sessions as { current: boolean }[]
    assert.equal(sessions.length, 2)
  })

  it('refuses a challenge answered twice', async () => {
    // A string, not a function: the test's transpiler names inner functions with a helper the page lacks.
    const answer = (await page.evaluate(`(async () => {
      const post = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }))
      const options = await post('/auth/passkey/login/options', {})
      const first = await post('/auth/passkey/login/verify', { challengeId: options.body.challengeId, response: { id: 'x' } })
      const second = await post('/auth/passkey/login/verify', { challengeId: options.body.challengeId, response: { id: 'x' } })
      return { first: first.status, second: second.body.message }
    })()`)) as { first: number; second: string }
    assert.equal(answer.first, 401)
    assert.match(answer.second, /unknown, used or expired/)
  })

  it('adds no passkey without a signed-in session', async () => {
    await context.clearCookies()
    const status = await page.evaluate(async () => (await fetch('/auth/passkey/register/options', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status)
    assert.equal(status, 401)
  })

  it('asks for a recent sign-in to add a passkey, and keeps only the hash of a challenge', async () => {
    const secret = await mailSession('quinn@example.com')
    // The session signed in 11 minutes ago: too old to add a lasting credential.
    const db = new Database(join(ws.dir, '.studio', 'identity.db'))
    db.prepare('update sessions set authenticated_at = ? where principal_id = (select id from principals where email = ?)').run(new Date(Date.now() - 11 * 60_000).toISOString(), 'quinn@example.com')
    const post = async (path: string) => {
      const res = await request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `studio_session=${secret}`, origin: base, 'sec-fetch-site': 'same-origin' }, body: '{}' })
      return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
    }
    const old = await post('/auth/passkey/register/options')
    assert.equal(old.status, 403, JSON.stringify(old.body))
    assert.equal(old.body.code, 'reauth_required')
    // A challenge handed out is stored as its hash only.
    const options = await post('/auth/passkey/login/options')
    assert.equal(options.status, 200)
    const stored = db.prepare('select challenge from challenges where id = ?').get(options.body.challengeId) as { challenge: string }
    db.close()
    assert.ok(stored)
    assert.notEqual(stored.challenge, options.body.options.challenge)
    for (const file of readdirSync(join(ws.dir, '.studio')).filter((f) => f.startsWith('identity.db'))) assert.equal(readFileSync(join(ws.dir, '.studio', file)).includes(options.body.options.challenge), false, file)
  })
})
