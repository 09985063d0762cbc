/**
 * Sign-in without passwords, under /auth/ of `studio serve` (only where the studio has accounts):
 *
 * - `POST /auth/mail` {email, next?}: mails a one-use sign-in link valid 15 minutes. The answer is the
 *   same whether or not an account exists (and when the `signup` switch keeps new people out).
 * - `GET /auth/mail/<secret>`: a page with one button; `POST /auth/mail/<secret>` signs in (a mail
 *   scanner that follows links consumes nothing). The person is made on first sign-in, their address
 *   verified, and a sign-in session opened (cookie `studio_session`).
 * - Passkeys (WebAuthn, @simplewebauthn/server): `POST /auth/passkey/register/options|verify` for a
 *   signed-in person, `POST /auth/passkey/login/options|verify` by discoverable credential; the
 *   relying party is the Host's name; challenges are one use, five minutes. `GET /auth/passkey` is a
 *   minimal page driving both (the studio page has its own).
 *
 * Decoding and encoding only: the records are src/identity/'s.
 */
import { clientKey, consumeHourly, LIMITS } from '../../identity/limits.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fail } from '../../core/errors.js'
import { originOf, secureRequest, sessionCookie } from '../../identity/account.js'
import { SESSION_COOKIE, type Caller } from '../../identity/caller.js'
import { identityOf, type IdentityTx } from '../../identity/db.js'
import { checkEmail, ensurePerson, personByEmail } from '../../identity/principals.js'
import { hashOf, mintSecret, newId, wellFormed } from '../../identity/secrets.js'
import { openSession, SESSION_TTL } from '../../identity/sessions.js'
import type { Workspace } from '../../store/workspace.js'
import { BODY_LIMIT, clientAddress, readBody, type EdgePolicy } from './edge.js'

export interface AuthContext {
  ws: Workspace
  caller?: Caller
  policy: EdgePolicy
  send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void
}

const MAGIC_TTL_MS = 15 * 60_000
const CHALLENGE_TTL_MS = 5 * 60_000
export const MAIL_SENT = 'If this address may sign in here, a sign-in link is on its way. It works once, for 15 minutes.'

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, BODY_LIMIT)
  if (!raw.length) return {}
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch {
    fail('invalid_input', 'The body is not valid JSON.')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', 'The body must be a JSON object.')
  return value as Record<string, unknown>
}

/** A path on this studio to go to after sign-in (never another site: `//x`, `/\x`, a scheme). */
function safeNext(next: unknown): string | null {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.length > 500 || /[\u0000-\u001f]/.test(next)) return null
  return next
}

/** This studio's address as the browser sees it: STUDIO_PUBLIC_URL, else the request's (checked) Origin, else its Host. */
function signInCookie(req: IncomingMessage, secret: string): string {
  return sessionCookie(SESSION_COOKIE, secret, { secure: secureRequest(req), maxAgeSeconds: SESSION_TTL.signin / 1000 })
}

function html(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ...headers,
  })
  res.end(`<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Deck Studio sign-in</title><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">${body}</body>`)
}

export async function handleAuth(req: IncomingMessage, res: ServerResponse, url: URL, method: string, ctx: AuthContext): Promise<boolean> {
  const path = url.pathname
  const identity = await identityOf(ctx.ws)
  if (!identity) return false
  const userAgent = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined

  if (path === '/auth/mail' && method === 'POST') {
    const body = await jsonBody(req)
    const email = checkEmail(typeof body.email === 'string' ? body.email : '')
    const next = safeNext(body.next)
    // Sign-in mail is limited per address and per client address, the same whether an account exists
    // or not (the limit tells nothing): a mailbox is not flooded and a script cannot send for everyone.
    await consumeMailLimit(email, clientKey(clientAddress(req)))
    const { flagOn } = await import('../../store/flags.js')
    const known = await personByEmail(identity.db, email)
    const mailLink = async () => {
      const minted = mintSecret('magic')
      const now = new Date()
      await identity.write((tx) =>
        tx.insertInto('magic_links').values({ id: newId('m_'), email, secret_hash: minted.hash, next, created_at: now.toISOString(), expires_at: new Date(now.getTime() + MAGIC_TTL_MS).toISOString(), used_at: null }).execute(),
      )
      const { sendMail } = await import('../../comments/mail.js')
      const link = `${originOf(req)}/auth/mail/${minted.secret}`
      await sendMail(ctx.ws, { to: email, subject: 'Sign in to Deck Studio', text: `Open this link to sign in (it works once, for 15 minutes):\n\n${link}\n\nIf you did not ask for it, ignore this mail.` })
    }
    if (!flagOn(ctx.ws, 'signup')) await mailLink()
    else if (known) {
      // The `signup` switch keeps new people out: no mail to an address no account has. A known address's
      // mail then goes after the answer, so the two answer alike in time as in words (no telling which exist).
      void mailLink().catch(() => undefined)
    }
    ctx.send(res, 200, { sent: true, message: MAIL_SENT })
    return true
  }

  const magic = /^\/auth\/mail\/([^/]+)$/.exec(path)
  if (magic && method === 'GET') {
    // same-origin, not the server's no-referrer: under no-referrer a browser's form POST says Origin "null", which the edge refuses.
    html(res, 200, `<h1>Sign in to Deck Studio</h1><form method="post"><button type="submit">Sign in</button></form>`, { 'referrer-policy': 'same-origin' })
    return true
  }
  if (magic && method === 'POST') {
    const secret = magic[1]
    const { flagOn } = await import('../../store/flags.js')
    const signupOff = flagOn(ctx.ws, 'signup')
    const outcome = wellFormed(secret, 'magic')
      ? await identity.write(async (tx) => {
          const now = new Date().toISOString()
          const row = await tx.selectFrom('magic_links').selectAll().where('secret_hash', '=', hashOf(secret)).executeTakeFirst()
          if (!row || row.used_at !== null || row.expires_at <= now) return null
          await tx.updateTable('magic_links').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).execute()
          if (signupOff && !(await personByEmail(tx, row.email))) return 'signup' as const
          const person = await ensurePerson(tx, row.email, { verified: true })
          const opened = await openSession(tx, person.id, 'signin', { method: 'mail', userAgent })
          return { secret: opened.secret, next: row.next }
        })
      : null
    if (outcome === 'signup') {
      html(res, 403, '<h1>Sign-up is closed</h1><p>This studio takes no new people just now. Ask its administrator.</p>')
      return true
    }
    if (!outcome) {
      html(res, 410, '<h1>This sign-in link does not work</h1><p>It was used already, or it is older than 15 minutes, or it was mistyped. Ask for a new one.</p>')
      return true
    }
    res.writeHead(303, { location: outcome.next ?? '/', 'set-cookie': signInCookie(req, outcome.secret), 'cache-control': 'no-store' })
    res.end()
    return true
  }

  if (path === '/auth/passkey' && method === 'GET') {
    html(res, 200, `<h1>Passkeys</h1><p><button id="register">Add a passkey</button> <button id="login">Sign in with a passkey</button></p><pre id="out"></pre><script src="/auth/passkey.js"></script>`)
    return true
  }
  if (path === '/auth/passkey.js' && method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
    res.end(PASSKEY_SCRIPT)
    return true
  }
  const passkey = /^\/auth\/passkey\/(register|login)\/(options|verify)$/.exec(path)
  if (passkey && method === 'POST') {
    const sw = await import('@simplewebauthn/server')
    const rpID = new URL(originOf(req)).hostname
    const expectedOrigin = originOf(req)
    const body = await jsonBody(req)
    const [, purpose, step] = passkey
    const now = new Date()
    if (purpose === 'register') {
      const principalId = ctx.caller?.kind === 'person' ? ctx.caller.principalId : undefined
      if (!principalId || !ctx.caller?.sessionId) fail('unauthorized', 'Sign in first (a mail link), then add a passkey.')
      // A passkey outlives every session: adding one asks for a sign-in of the last 10 minutes, so a stolen
      // old session cookie cannot turn itself into a lasting credential.
      const { recentlyAuthenticated } = await import('../../identity/auth.js')
      if (!recentlyAuthenticated(ctx.caller, 10)) fail('reauth_required', 'Adding a passkey needs a sign-in within the last 10 minutes: sign in again by a mail link, then add it.')
      if (step === 'options') {
        const person = (await identity.db.selectFrom('principals').select(['email', 'name']).where('id', '=', principalId).executeTakeFirst())!
        const existing = await identity.db.selectFrom('passkeys').select(['id']).where('principal_id', '=', principalId).execute()
        const options = await sw.generateRegistrationOptions({
          rpName: 'Deck Studio',
          rpID,
          userName: person.email ?? principalId,
          userID: new TextEncoder().encode(principalId),
          attestationType: 'none',
          excludeCredentials: existing.map((p) => ({ id: p.id })),
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        })
        const challengeId = await saveChallenge(identity, options.challenge, 'register', principalId, now)
        ctx.send(res, 200, { challengeId, options })
        return true
      }
      const challenge = await takeChallenge(identity, body.challengeId, 'register', principalId)
      const verification = await sw
        .verifyRegistrationResponse({ response: body.response as never, expectedChallenge: (c: string) => hashOf(c) === challenge, expectedOrigin, expectedRPID: rpID, requireUserVerification: true })
        .catch((error: Error) => fail('refused', `The passkey was not accepted: ${error.message}`))
      if (!verification.verified || !verification.registrationInfo) fail('refused', 'The passkey was not accepted.')
      const { credential } = verification.registrationInfo
      await identity.write(async (tx) => {
        if (await tx.selectFrom('passkeys').select('id').where('id', '=', credential.id).executeTakeFirst()) fail('refused', 'This passkey is already registered here.')
        await tx
          .insertInto('passkeys')
          .values({ id: credential.id, principal_id: principalId, public_key: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: credential.transports ? JSON.stringify(credential.transports) : null, name: typeof body.name === 'string' ? body.name.slice(0, 80) : null, created_at: now.toISOString(), last_used_at: null })
          .execute()
      })
      ctx.send(res, 200, { registered: true, passkeyId: credential.id })
      return true
    }
    if (step === 'options') {
      // Anyone may ask for a sign-in challenge: limited per client, so a script cannot fill the table.
      await consumeHourly([[LIMITS.passkeyChallengesPerClient, clientKey(clientAddress(req))]], 'Too many passkey sign-ins begun')
      const options = await sw.generateAuthenticationOptions({ rpID, userVerification: 'required', allowCredentials: [] })
      const challengeId = await saveChallenge(identity, options.challenge, 'authenticate', null, now)
      ctx.send(res, 200, { challengeId, options })
      return true
    }
    const challenge = await takeChallenge(identity, body.challengeId, 'authenticate', null)
    const response = body.response as { id?: unknown } | undefined
    const credentialId = typeof response?.id === 'string' ? response.id : ''
    const stored = await identity.db.selectFrom('passkeys').selectAll().where('id', '=', credentialId).executeTakeFirst()
    if (!stored) fail('unauthorized', 'This passkey is not known here.')
    const verification = await sw
      .verifyAuthenticationResponse({
        response: body.response as never,
        expectedChallenge: (c: string) => hashOf(c) === challenge,
        expectedOrigin,
        expectedRPID: rpID,
        requireUserVerification: true,
        credential: { id: stored.id, publicKey: Buffer.from(stored.public_key, 'base64url'), counter: stored.counter, transports: stored.transports ? JSON.parse(stored.transports) : undefined },
      })
      .catch(() => fail('unauthorized', 'The passkey sign-in was not accepted.'))
    if (!verification.verified) fail('unauthorized', 'The passkey sign-in was not accepted.')
    const opened = await identity.write(async (tx: IdentityTx) => {
      await tx.updateTable('passkeys').set({ counter: verification.authenticationInfo.newCounter, last_used_at: now.toISOString() }).where('id', '=', stored.id).execute()
      await tx.updateTable('principals').set({ trust: 'verified' }).where('id', '=', stored.principal_id).execute()
      return openSession(tx, stored.principal_id, 'signin', { method: 'passkey', userAgent })
    })
    ctx.send(res, 200, { signedIn: true, principal: stored.principal_id }, { 'set-cookie': signInCookie(req, opened.secret) })
    return true
  }
  return false
}

async function saveChallenge(identity: { write: <T>(fn: (tx: IdentityTx) => Promise<T>) => Promise<T> }, challenge: string, purpose: 'register' | 'authenticate', principalId: string | null, now: Date): Promise<string> {
  const id = newId('c_')
  await identity.write(async (tx) => {
    await tx.deleteFrom('challenges').where('expires_at', '<=', now.toISOString()).execute()
    await tx.insertInto('challenges').values({ id, challenge: hashOf(challenge), purpose, principal_id: principalId, created_at: now.toISOString(), expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString() }).execute()
  })
  return id
}

/** The challenge of `id`, removed as it is read (one use); refused when unknown, expired, of another purpose or person. */
async function takeChallenge(identity: { write: <T>(fn: (tx: IdentityTx) => Promise<T>) => Promise<T> }, id: unknown, purpose: 'register' | 'authenticate', principalId: string | null): Promise<string> {
  if (typeof id !== 'string') fail('invalid_input', 'challengeId is required.', { pointer: '/challengeId' })
  const row = await identity.write(async (tx) => {
    const found = await tx.selectFrom('challenges').selectAll().where('id', '=', id).executeTakeFirst()
    if (found) await tx.deleteFrom('challenges').where('id', '=', id).execute()
    return found
  })
  if (!row || row.purpose !== purpose || row.principal_id !== principalId || row.expires_at <= new Date().toISOString()) fail('refused', 'The challenge is unknown, used or expired: start again.')
  // Stored as its SHA-256 only, as every secret is: the verifier compares the hash of what came back.
  return row.challenge
}

/** The script of GET /auth/passkey: WebAuthn in the browser, base64url both ways. */
const PASSKEY_SCRIPT = String.raw`
const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0))
const out = document.getElementById('out')
async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}), credentials: 'same-origin' })
  const json = await res.json()
  if (!res.ok) throw new Error(json.message || res.status)
  return json
}
async function register() {
  const { challengeId, options } = await post('/auth/passkey/register/options')
  const cred = await navigator.credentials.create({ publicKey: { ...options, challenge: unb64(options.challenge), user: { ...options.user, id: unb64(options.user.id) }, excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: unb64(c.id) })) } })
  const response = { id: cred.id, rawId: b64(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(), authenticatorAttachment: cred.authenticatorAttachment,
    response: { clientDataJSON: b64(cred.response.clientDataJSON), attestationObject: b64(cred.response.attestationObject), transports: cred.response.getTransports ? cred.response.getTransports() : [] } }
  return post('/auth/passkey/register/verify', { challengeId, response })
}
async function login() {
  const { challengeId, options } = await post('/auth/passkey/login/options')
  const cred = await navigator.credentials.get({ publicKey: { ...options, challenge: unb64(options.challenge), allowCredentials: [] } })
  const response = { id: cred.id, rawId: b64(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(), authenticatorAttachment: cred.authenticatorAttachment,
    response: { clientDataJSON: b64(cred.response.clientDataJSON), authenticatorData: b64(cred.response.authenticatorData), signature: b64(cred.response.signature), userHandle: cred.response.userHandle ? b64(cred.response.userHandle) : undefined } }
  return post('/auth/passkey/login/verify', { challengeId, response })
}
const show = (p) => p.then((v) => { out.textContent = JSON.stringify(v) }, (e) => { out.textContent = 'error: ' + e.message })
document.getElementById('register').onclick = () => show(register())
document.getElementById('login').onclick = () => show(login())
window.studioPasskey = { register, login }
`

/** Counts one sign-in mail against its client and its address (src/identity/limits.ts); 429 past either. */
function consumeMailLimit(email: string, client: string): Promise<void> {
  return consumeHourly([[LIMITS.signinMailsPerClient, client], [LIMITS.signinMailsPerAddress, email]], 'Too many sign-in mails asked for')
}
