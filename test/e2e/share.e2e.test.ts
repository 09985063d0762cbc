/**
 * Sharing end to end (issue 26, the share part): the 21 share actions, admin.assignOwner and
 * account.decks over HTTP, MCP, the page's window transport and the command line of one served
 * studio with accounts; the States table's sharing rows; the access record's revision guard (a stale
 * write is 409 with the record, 20 parallel writes at one revision admit exactly one); share links
 * answered once, never shown again, and their visitors refused on the next request once the link
 * dies; share.requestAccess's one sentence and its rate limit; and no link token in the database, the
 * server's log, git's objects or a bundle.
 *
 * People are made straight in the identity database (principals and sign-in sessions), as the auth
 * part's sign-in would leave them; the studio's edge reads their session cookies.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request } from 'undici'
import { Workspace } from '../../src/store/workspace.js'
import { closeIdentities, identityOf, type Identity } from '../../src/identity/db.js'
import { createAccessRecord } from '../../src/identity/access-record.js'
import { mintSecret, newId } from '../../src/identity/secrets.js'
import { REQUEST_SENTENCE } from '../../src/actions/share/run.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const DECK = 'quarterly-review'
const REQUEST_LIMIT = 6
/** Where links point (STUDIO_PUBLIC_URL): the studio behind its public address. */
const PUBLIC = 'https://studio.example'

interface Person {
  id: string
  email: string
  cookie: string
  sessionId: string
}

describe('sharing on one served studio with accounts', () => {
  let ws: TestWorkspace
  let workspace: Workspace
  let identity: Identity
  let server: Served
  let mcp: Client
  const people = new Map<string, Person>()
  /** Every link token an answer handed out, to look for afterwards. */
  const tokens: string[] = []

  async function person(name: string, options: { admin?: boolean; authenticatedAt?: string } = {}): Promise<Person> {
    const id = newId('p_')
    const email = `${name}@example.com`
    const now = new Date().toISOString()
    const secret = mintSecret('session')
    const sessionId = newId('s_')
    await identity.write(async (tx) => {
      await tx.insertInto('principals').values({ id, kind: 'person', email, name, name_skeleton: null, avatar: null, trust: 'verified', is_admin: options.admin ? 1 : 0, created_at: now, last_seen_at: now }).execute()
      await tx
        .insertInto('sessions')
        .values({ id: sessionId, principal_id: id, kind: 'signin', secret_hash: secret.hash, link_id: null, deck_id: null, method: 'mail', user_agent: null, created_at: now, last_used_at: now, authenticated_at: options.authenticatedAt ?? now, expires_at: new Date(Date.now() + 86_400_000).toISOString(), revoked_at: null })
        .execute()
    })
    const p = { id, email, cookie: `studio_session=${secret.secret}`, sessionId }
    people.set(name, p)
    return p
  }

  const who = (name: string) => people.get(name)!

  /** POST an action over HTTP (or the page's window route) as a person (a cookie) or nobody. */
  async function call(as: string | null, id: string, input: unknown, options: { route?: 'actions' | 'window'; cookie?: string; headers?: Record<string, string> } = {}) {
    const cookie = options.cookie ?? (as ? who(as).cookie : undefined)
    const r = await request(`${server.url}/api/${options.route ?? 'actions'}/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie, origin: server.url } : {}), ...options.headers },
      body: JSON.stringify(input),
    })
    return { status: r.statusCode, headers: r.headers, json: (await r.body.json()) as any }
  }
  async function ok(as: string | null, id: string, input: unknown, options: Parameters<typeof call>[3] = {}) {
    const r = await call(as, id, input, options)
    assert.equal(r.status, 200, `${id}: ${JSON.stringify(r.json)}`)
    return r.json
  }
  const revision = async () => (await ok('olga', 'share.get', { id: DECK })).revision as number
  const keep = (url: string) => {
    const token = url.split('/s/')[1]
    tokens.push(token)
    return token
  }
  const visit = async (path: string, cookie?: string) => {
    const r = await request(`${server.url}${path}`, { headers: cookie ? { cookie } : {} })
    return { status: r.statusCode, headers: r.headers, text: await r.body.text() }
  }
  /** Opens a link's URL like a browser: answers the link session's cookie. */
  const open = async (token: string) => {
    const r = await visit(`/s/${token}`)
    assert.equal(r.status, 303, r.text)
    assert.equal(r.headers.location, `/d/${DECK}`)
    const set = String(r.headers['set-cookie'])
    assert.match(set, /HttpOnly/)
    assert.match(set, /SameSite=Lax/)
    assert.match(set, /Path=\//)
    assert.match(set, /Secure/)
    return set.split(';')[0]
  }
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any }
    return r
  }

  before(async () => {
    ws = await newUserWorkspace()
    workspace = new Workspace(ws.dir, ws.dir)
    identity = (await identityOf(workspace, { create: true }))!
    const olga = await person('olga')
    await person('eddie')
    await person('vera')
    await person('dave')
    await person('nora', { authenticatedAt: new Date(Date.now() - 60 * 60_000).toISOString() })
    await person('adam', { admin: true })
    await identity.write((tx) => createAccessRecord(tx, DECK, olga.id))
    server = await serve(ws.dir, [], { env: { STUDIO_MAIL: 'capture', STUDIO_ACCESS_REQUESTS_PER_HOUR: String(REQUEST_LIMIT), STUDIO_PUBLIC_URL: PUBLIC } })
    mcp = new Client({ name: 'share-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { cookie: olga.cookie, origin: server.url } } }))
  })
  after(async () => {
    await mcp?.close()
    await server?.stop()
    await closeIdentities()
    ws?.cleanup()
  })

  it('answers the owner the whole record and refuses a caller without access', async () => {
    const got = await ok('olga', 'share.get', { id: DECK })
    assert.equal(got.role, 'owner')
    assert.equal(got.via, 'owner')
    assert.ok(got.capabilities.includes('share'))
    assert.equal(got.access.owner, who('olga').id)
    assert.deepEqual(got.access.general, { mode: 'restricted', role: 'viewer' })
    assert.equal(got.revision, 0)
    const refused = await call('dave', 'share.get', { id: DECK })
    assert.equal(refused.status, 403)
    const anonymous = await call(null, 'share.get', { id: DECK })
    assert.equal(anonymous.status, 403)
  })

  it('invites by address, one grant each, with the same answer whether or not an account exists, and mails each', async () => {
    const base = await revision()
    const r = await ok('olga', 'share.invite', { id: DECK, emails: ['eddie@example.com', 'Zed@Example.com'], role: 'editor', message: 'Numbers, please.', baseRevision: base })
    assert.deepEqual(r.results, [
      { email: 'eddie@example.com', outcome: 'sent' },
      { email: 'zed@example.com', outcome: 'sent' },
    ])
    assert.equal(r.link, `${PUBLIC}/d/${DECK}`)
    assert.equal(r.revision, base + 1)
    const viaMcp = await tool('deck_invite', { id: DECK, emails: ['vera@example.com'], role: 'viewer', notify: false, baseRevision: base + 1 })
    assert.ok(!viaMcp.isError, JSON.stringify(viaMcp.structuredContent))
    assert.deepEqual(viaMcp.structuredContent.results, [{ email: 'vera@example.com', outcome: 'no-mail' }])
    const mail = readFileSync(join(ws.dir, '.studio', 'mail.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert.deepEqual(mail.map((m) => m.to).sort(), ['eddie@example.com', 'zed@example.com'])
    assert.match(mail[0].text, /Numbers, please\./)
    const grants = (await ok('olga', 'share.get', { id: DECK })).access.grants
    assert.deepEqual(grants.map((g: any) => [g.who.email, g.role]), [['eddie@example.com', 'editor'], ['zed@example.com', 'editor'], ['vera@example.com', 'viewer']])
  })

  it('shows a viewer only the owner, the general access mode, their own grant and their capabilities; an editor all of it', async () => {
    const viewer = await ok('vera', 'share.get', { id: DECK })
    assert.equal(viewer.role, 'viewer')
    assert.equal(viewer.via, 'grant')
    assert.deepEqual(Object.keys(viewer.access).sort(), ['general', 'grants', 'owner', 'ownerLabel', 'revision'])
    // The owner's name where they set one, never their address, for someone who cannot share.
    assert.ok(viewer.access.ownerLabel === null || !String(viewer.access.ownerLabel).includes('@'), String(viewer.access.ownerLabel))
    assert.deepEqual(viewer.access.grants, [{ who: { email: 'vera@example.com' }, role: 'viewer', expiresAt: null }])
    assert.ok(!viewer.capabilities.includes('share'))
    const editor = await ok('eddie', 'share.get', { id: DECK })
    assert.equal(editor.role, 'editor')
    assert.equal(editor.access.grants.length, 3)
    assert.ok(Array.isArray(editor.access.links) && Array.isArray(editor.access.deadLinks) && editor.access.settings)
    // A viewer shares nothing.
    const refused = await call('vera', 'share.createLink', { id: DECK, role: 'viewer', baseRevision: viewer.revision })
    assert.equal(refused.status, 403)
  })

  it('refuses a stale baseRevision with 409, the current revision and the record as the caller may see it, writing nothing', async () => {
    const base = await revision()
    const r = await call('olga', 'share.invite', { id: DECK, emails: ['late@example.com'], role: 'viewer', notify: false, baseRevision: base - 1 })
    assert.equal(r.status, 409)
    assert.equal(r.json.code, 'stale_revision')
    assert.equal(r.json.currentRevision, base)
    assert.equal(r.json.current.revision, base)
    assert.ok(Array.isArray(r.json.current.grants))
    assert.ok(!(await ok('olga', 'share.get', { id: DECK })).access.grants.some((g: any) => g.who.email === 'late@example.com'))
    // The same over MCP.
    const m = await tool('deck_stop_sharing', { id: DECK, baseRevision: base + 7 })
    assert.ok(m.isError)
    assert.equal(m.structuredContent.code, 'stale_revision')
  })

  it('creates links answered once, opens a link session at /s/, and refuses its visitor on the next request once revoked (States: active → revoked)', async () => {
    const created = await ok('olga', 'share.createLink', { id: DECK, role: 'commenter', label: 'Board', expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(), baseRevision: await revision() })
    const token = keep(created.url)
    assert.ok(created.url.startsWith(`${PUBLIC}/s/studio_lnk_`))
    assert.equal(created.link.role, 'commenter')
    const record = await ok('olga', 'share.get', { id: DECK })
    assert.ok(!JSON.stringify(record).includes(token), 'the token is never shown again')
    assert.ok(record.access.links.find((l: any) => l.id === created.link.id).tokenHash)
    const listed = await ok('eddie', 'share.listLinks', { id: DECK })
    assert.ok(!JSON.stringify(listed).includes(token))
    assert.ok(!('tokenHash' in listed.links[0]))

    const cookie = await open(token)
    const visitor = await ok(null, 'share.get', { id: DECK }, { cookie })
    assert.equal(visitor.role, 'commenter')
    assert.equal(visitor.via, 'link')
    assert.ok(!visitor.capabilities.includes('share'), 'a link visitor never shares')

    await ok('olga', 'share.revokeLink', { id: DECK, linkId: created.link.id, baseRevision: await revision() })
    assert.equal((await call(null, 'share.get', { id: DECK }, { cookie })).status, 403)
    const dead = await visit(`/s/${token}`)
    const unknown = await visit(`/s/${mintSecret('link').secret}`)
    assert.equal(dead.status, 404)
    assert.equal(unknown.status, 404)
    assert.equal(dead.text, unknown.text)
    assert.ok(!dead.text.includes(token))
    const afterRevoke = await ok('olga', 'share.listLinks', { id: DECK })
    assert.ok(afterRevoke.deadLinks.some((l: any) => l.id === created.link.id && l.endedAt))
  })

  it('rotates a link: the old token and its sessions die, the new URL is answered once (States: active → active with new token)', async () => {
    const created = await tool('deck_create_share_link', { id: DECK, role: 'viewer', baseRevision: await revision() })
    assert.ok(!created.isError, JSON.stringify(created.structuredContent))
    const old = keep(created.structuredContent.url)
    const cookie = await open(old)
    const rotated = await ok('eddie', 'share.rotateLink', { id: DECK, linkId: created.structuredContent.link.id, baseRevision: await revision() })
    const fresh = keep(rotated.url)
    assert.notEqual(fresh, old)
    assert.equal((await visit(`/s/${old}`)).status, 404)
    assert.equal((await call(null, 'share.get', { id: DECK }, { cookie })).status, 403)
    const again = await open(fresh)
    assert.equal((await ok(null, 'share.get', { id: DECK }, { cookie: again })).role, 'viewer')
    // Its role changes in place; the visitor reads the new one on the next request.
    await ok('olga', 'share.setLinkRole', { id: DECK, linkId: rotated.link.id, role: 'commenter', baseRevision: await revision() })
    assert.equal((await ok(null, 'share.get', { id: DECK }, { cookie: again })).role, 'commenter')
    // The link token itself works as a bearer too, until the link dies.
    assert.equal((await ok(null, 'share.get', { id: DECK }, { headers: { authorization: `Bearer ${fresh}` } })).via, 'link')
  })

  it('sets general access to link (a URL answered once) and back to restricted (States: restricted ↔ link)', async () => {
    const linked = await ok('olga', 'share.setGeneralAccess', { id: DECK, mode: 'link', role: 'viewer', baseRevision: await revision() })
    assert.deepEqual(linked.access.general, { mode: 'link', role: 'viewer' })
    const token = keep(linked.url)
    const cookie = await open(token)
    assert.equal((await ok(null, 'share.get', { id: DECK }, { cookie })).via, 'general')
    const again = await ok('olga', 'share.setGeneralAccess', { id: DECK, mode: 'link', role: 'commenter', baseRevision: await revision() })
    assert.equal(again.url, undefined, 'the live general link keeps its token: no URL again')
    const restricted = await ok('olga', 'share.setGeneralAccess', { id: DECK, mode: 'restricted', baseRevision: await revision() })
    assert.equal(restricted.access.general.mode, 'restricted')
    assert.equal((await call(null, 'share.get', { id: DECK }, { cookie })).status, 403)
    assert.equal((await visit(`/s/${token}`)).status, 404)
  })

  it('stops sharing: restricted and every link revoked (States: any → restricted, all links revoked)', async () => {
    const a = keep((await ok('olga', 'share.createLink', { id: DECK, role: 'viewer', baseRevision: await revision() })).url)
    keep((await ok('olga', 'share.setGeneralAccess', { id: DECK, mode: 'link', baseRevision: await revision() })).url)
    const cookie = await open(a)
    const live = (await ok('olga', 'share.listLinks', { id: DECK })).links.map((l: any) => l.id).sort()
    assert.ok(live.length >= 2)
    const stopped = await ok('olga', 'share.stop', { id: DECK, baseRevision: await revision() })
    assert.deepEqual([...stopped.revoked].sort(), live)
    assert.equal(stopped.access.general.mode, 'restricted')
    assert.deepEqual(stopped.access.links, [])
    assert.equal((await call(null, 'share.get', { id: DECK }, { cookie })).status, 403)
  })

  it("changes a role, an expiry (at most a year ahead) and removes grants; the owner's row is refused; anyone may leave", async () => {
    const role = await ok('eddie', 'share.setRole', { id: DECK, who: { email: 'zed@example.com' }, role: 'commenter', baseRevision: await revision() })
    assert.deepEqual(role.grant, { who: { email: 'zed@example.com' }, role: 'commenter', expiresAt: null })
    const owner = await call('olga', 'share.setRole', { id: DECK, who: { principal: who('olga').id }, role: 'viewer', baseRevision: await revision() })
    assert.equal(owner.status, 400)
    assert.equal(owner.json.code, 'refused')
    const far = await call('olga', 'share.setExpiry', { id: DECK, who: { email: 'zed@example.com' }, expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString(), baseRevision: await revision() })
    assert.equal(far.status, 400)
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const expiry = await ok('olga', 'share.setExpiry', { id: DECK, who: { email: 'zed@example.com' }, expiresAt: soon, baseRevision: await revision() })
    assert.equal(expiry.grant.expiresAt, soon)
    const cleared = await ok('olga', 'share.setExpiry', { id: DECK, who: { email: 'zed@example.com' }, expiresAt: null, baseRevision: await revision() })
    assert.equal(cleared.grant.expiresAt, null)
    // A viewer removes nobody else, but may leave.
    assert.equal((await call('vera', 'share.remove', { id: DECK, who: { email: 'zed@example.com' }, baseRevision: await revision() })).status, 403)
    const left = await ok('vera', 'share.remove', { id: DECK, who: { email: 'vera@example.com' }, baseRevision: await revision() })
    assert.equal(left.removed.role, 'viewer')
    assert.equal((await call('vera', 'share.get', { id: DECK })).status, 403)
    const removed = await ok('olga', 'share.remove', { id: DECK, who: { email: 'zed@example.com' }, baseRevision: await revision() })
    assert.equal(removed.removed.who.email, 'zed@example.com')
  })

  it('changes settings for the owner only, and on the page only after a sign-in within 10 minutes', async () => {
    const editor = await call('eddie', 'share.settings', { id: DECK, viewersCanSeeComments: true, baseRevision: await revision() })
    assert.equal(editor.status, 403)
    const set = await ok('olga', 'share.settings', { id: DECK, viewersCanSeeComments: true, baseRevision: await revision() })
    assert.equal(set.settings.viewersCanSeeComments, true)
    assert.equal(set.settings.editorsCanShare, true)
    const onPage = await ok('olga', 'share.settings', { id: DECK, editorsCanShare: false, baseRevision: await revision() }, { route: 'window' })
    assert.equal(onPage.settings.editorsCanShare, false)
    // editorsCanShare off: the editor shares no more.
    assert.equal((await call('eddie', 'share.createLink', { id: DECK, role: 'viewer', baseRevision: await revision() })).status, 403)
    // An owner whose last sign-in is an hour old is asked to sign in again on the page.
    const nora = who('nora')
    await ok('adam', 'admin.assignOwner', { id: DECK, to: { principal: nora.id }, baseRevision: await revision() })
    const stale = await call('nora', 'share.settings', { id: DECK, editorsCanShare: true, baseRevision: await revision() }, { route: 'window' })
    assert.equal(stale.status, 403)
    assert.equal(stale.json.code, 'reauth_required')
    assert.equal((await ok('nora', 'share.settings', { id: DECK, editorsCanShare: true, baseRevision: await revision() })).settings.editorsCanShare, true)
    // Back to olga (nora keeps an editor grant, as a previous owner does).
    const back = await ok('adam', 'admin.assignOwner', { id: DECK, to: { email: 'olga@example.com' }, baseRevision: await revision() })
    assert.equal(back.owner, who('olga').id)
    assert.equal(back.previousOwner, nora.id)
    assert.equal((await ok('nora', 'share.get', { id: DECK })).role, 'editor')
    assert.equal((await call('eddie', 'admin.assignOwner', { id: DECK, to: { principal: who('eddie').id }, baseRevision: await revision() })).status, 403)
  })

  it('answers an access request with one fixed sentence whether the deck exists or not, lists it once, and grants it (States: pending → approved / declined)', async () => {
    const asked = await ok('dave', 'share.requestAccess', { id: DECK, role: 'editor', message: 'I present on Friday.' })
    assert.deepEqual(asked, { message: REQUEST_SENTENCE })
    assert.deepEqual(await ok('dave', 'share.requestAccess', { id: DECK, role: 'editor' }), { message: REQUEST_SENTENCE })
    assert.deepEqual(await ok('dave', 'share.requestAccess', { id: 'no-such-deck', role: 'viewer' }), { message: REQUEST_SENTENCE })
    assert.deepEqual(await ok('eddie', 'share.requestAccess', { id: DECK, role: 'viewer' }), { message: REQUEST_SENTENCE })
    const anon = await ok(null, 'share.requestAccess', { id: DECK, role: 'viewer', email: 'stranger@example.com' })
    assert.deepEqual(anon, { message: REQUEST_SENTENCE })
    const listed = await ok('olga', 'share.listRequests', { id: DECK })
    assert.equal(listed.requests.length, 2, 'one pending request per requester; none from someone with access')
    const dave = listed.requests.find((r: any) => r.requester === 'dave')
    assert.equal(dave.role, 'editor')
    assert.equal(dave.message, 'I present on Friday.')
    const answered = await ok('olga', 'share.respond', { id: DECK, requestId: dave.id, grant: 'commenter', notify: true, baseRevision: await revision() })
    assert.equal(answered.grant.role, 'commenter')
    assert.equal((await ok('dave', 'share.check', { id: DECK })).role, 'commenter')
  })

  it('declines a request; a further request from one address past the limit answers 429 with Retry-After', async () => {
    const stranger = (await ok('olga', 'share.listRequests', { id: DECK })).requests[0]
    const declined = await tool('deck_respond_access_request', { id: DECK, requestId: stranger.id, grant: null, notify: true, baseRevision: await revision() })
    assert.ok(!declined.isError, JSON.stringify(declined.structuredContent))
    assert.equal(declined.structuredContent.grant, null)
    assert.deepEqual((await ok('olga', 'share.listRequests', { id: DECK })).requests, [])
    let limited: Awaited<ReturnType<typeof call>> | undefined
    for (let i = 0; i < REQUEST_LIMIT + 1 && !limited; i++) {
      const r = await call('dave', 'share.requestAccess', { id: 'no-such-deck', role: 'viewer' })
      if (r.status === 429) limited = r
      else assert.deepEqual(r.json, { message: REQUEST_SENTENCE })
    }
    assert.ok(limited, 'the limit bites')
    assert.equal(limited.json.code, 'rate_limited')
    assert.ok(Number(limited.headers['retry-after']) > 0)
  })

  it('checks what a principal or an address may do', async () => {
    const dave = await ok('olga', 'share.check', { id: DECK, who: { principal: who('dave').id } })
    assert.equal(dave.role, 'commenter')
    assert.equal(dave.via, 'grant')
    assert.ok(dave.capabilities.includes('comment'))
    const nobody = await ok('olga', 'share.check', { id: DECK, who: { email: 'nobody@example.com' } })
    assert.deepEqual(nobody, { role: null, via: null, expiresAt: null, capabilities: [] })
    const self = await ok('dave', 'share.check', { id: DECK })
    assert.equal(self.role, 'commenter')
    assert.equal((await call('dave', 'share.check', { id: DECK, who: { email: 'olga@example.com' } })).status, 403)
  })

  it('offers ownership, which the pending owner accepts (the previous owner becomes an editor); declines and cancels clear the offer', async () => {
    assert.equal((await call('eddie', 'share.transferOwnership', { id: DECK, to: { email: 'eddie@example.com' }, baseRevision: await revision() })).status, 403)
    const anonymousId = newId('p_')
    await identity.write((tx) => tx.insertInto('principals').values({ id: anonymousId, kind: 'anonymous', email: null, name: null, name_skeleton: null, avatar: null, trust: 'unverified', is_admin: 0, created_at: new Date().toISOString(), last_seen_at: null }).execute())
    assert.equal((await call('olga', 'share.transferOwnership', { id: DECK, to: { principal: anonymousId }, baseRevision: await revision() })).status, 400)

    let offer = await ok('olga', 'share.transferOwnership', { id: DECK, to: { email: 'dave@example.com' }, baseRevision: await revision() })
    assert.equal(offer.pendingOwner, 'dave@example.com')
    assert.equal((await call('eddie', 'share.acceptOwnership', { id: DECK, baseRevision: await revision() })).status, 403)
    offer = await ok('dave', 'share.declineOwnership', { id: DECK, baseRevision: await revision() })
    assert.equal(offer.pendingOwner, null)
    assert.equal(offer.owner, who('olga').id)

    await ok('olga', 'share.transferOwnership', { id: DECK, to: { principal: who('dave').id }, baseRevision: await revision() })
    offer = await ok('olga', 'share.cancelOwnership', { id: DECK, baseRevision: await revision() })
    assert.equal(offer.pendingOwner, null)

    await ok('olga', 'share.transferOwnership', { id: DECK, to: { principal: who('dave').id }, baseRevision: await revision() })
    const accepted = await tool('deck_accept_ownership', { id: DECK, baseRevision: (await ok('dave', 'share.get', { id: DECK })).revision })
    // The MCP session is olga's: she is not the pending owner.
    assert.ok(accepted.isError)
    const taken = await ok('dave', 'share.acceptOwnership', { id: DECK, baseRevision: (await ok('dave', 'share.get', { id: DECK })).revision })
    assert.equal(taken.owner, who('dave').id)
    assert.equal(taken.pendingOwner, null)
    assert.equal((await ok('olga', 'share.get', { id: DECK })).role, 'editor')
    // And back, so the tests after this one read olga as the owner.
    await ok('adam', 'admin.assignOwner', { id: DECK, to: { principal: who('olga').id }, baseRevision: (await ok('dave', 'share.get', { id: DECK })).revision })
  })

  it('admits exactly one of 20 parallel share writes at one baseRevision; the others are 409 and the record stays whole', async () => {
    const base = await revision()
    const grantsBefore = (await ok('olga', 'share.get', { id: DECK })).access.grants.length
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? call('olga', 'share.invite', { id: DECK, emails: [`p${i}@example.com`], role: 'viewer', notify: false, baseRevision: base }) : call('olga', 'share.createLink', { id: DECK, role: 'viewer', label: `race ${i}`, baseRevision: base }))),
    )
    const accepted = answers.filter((a) => a.status === 200)
    assert.equal(accepted.length, 1, JSON.stringify(answers.map((a) => a.status)))
    assert.equal(answers.filter((a) => a.status === 409 && a.json.code === 'stale_revision' && a.json.currentRevision === base + 1).length, 19)
    if (accepted[0].json.url) keep(accepted[0].json.url)
    const after = await ok('olga', 'share.get', { id: DECK })
    assert.equal(after.revision, base + 1)
    assert.equal(after.access.grants.length, grantsBefore + (accepted[0].json.url ? 0 : 1))
    const rows = await identity.db.selectFrom('links').select('label').where('label', 'like', 'race %').execute()
    const invited = await identity.db.selectFrom('grants').select('email').where('email', 'like', 'p%@example.com').execute()
    assert.equal(rows.length + invited.length, 1)
    const integrity = await identity.db.selectFrom('deck_access').select('revision').where('deck_id', '=', DECK).executeTakeFirstOrThrow()
    assert.equal(integrity.revision, base + 1)
  })

  it('lists the caller\'s decks by view; all needs an admin', async () => {
    const owned = await ok('olga', 'account.decks', { view: 'owned' })
    assert.deepEqual(owned.decks.map((d: any) => [d.id, d.role, d.owner]), [[DECK, 'owner', who('olga').id]])
    const shared = await ok('eddie', 'account.decks', { view: 'shared' })
    assert.deepEqual(shared.decks.map((d: any) => [d.id, d.role]), [[DECK, 'editor']])
    assert.deepEqual((await ok('vera', 'account.decks', { view: 'recent' })).decks, [])
    assert.equal((await call('eddie', 'account.decks', { view: 'all' })).status, 403)
    assert.equal((await ok('adam', 'account.decks', { view: 'all' })).decks.length, 1)
  })

  it('works on the command line of the workspace, which owns every deck', async () => {
    const got = await studio(ws.dir, ['share', 'get', DECK, '--json'])
    assert.equal(got.code, 0, got.stdout)
    assert.equal(got.json.role, 'owner')
    const link = await studio(ws.dir, ['share', 'link', DECK, '--role', 'viewer', '--label', 'CLI', '--expires', '7d', '--rev', String(got.json.revision), '--json'])
    assert.equal(link.code, 0, link.stdout + link.stderr)
    keep(link.json.url)
    const links = await studio(ws.dir, ['share', 'links', DECK, '--json'])
    assert.ok(links.json.links.some((l: any) => l.label === 'CLI'))
    const decks = await studio(ws.dir, ['account', 'decks', '--view', 'owned', '--json'])
    assert.equal(decks.json.decks[0].role, 'owner')
  })

  it('keeps every link token out of the database, the server log, git objects and a bundle', async () => {
    assert.ok(tokens.length >= 8)
    const dbBytes = readdirSync(join(ws.dir, '.studio'))
      .filter((f) => f.startsWith('identity.db'))
      .map((f) => readFileSync(join(ws.dir, '.studio', f)).toString('latin1'))
      .join('')
    const objects = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: ws.dir, maxBuffer: 256 * 1024 * 1024 }).toString('latin1')
    const bundle = join(ws.dir, 'out.zip')
    const packed = await studio(ws.dir, ['deck', 'pack', DECK, '--out', bundle, '--json'])
    assert.equal(packed.code, 0, packed.stdout)
    const unpacked = execFileSync('unzip', ['-p', bundle], { maxBuffer: 256 * 1024 * 1024 }).toString('latin1')
    const log = server.stderr()
    for (const token of tokens) {
      assert.ok(!dbBytes.includes(token), 'a token in the identity database')
      assert.ok(!objects.includes(token), 'a token in git')
      assert.ok(!unpacked.includes(token), 'a token in a bundle')
      assert.ok(!log.includes(token), 'a token in the server log')
    }
    assert.ok(dbBytes.length > 0 && objects.length > 0 && unpacked.length > 0)
  })
})
