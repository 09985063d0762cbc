/**
 * THE GENERATED ROLE TEST (issue 26): every action of the table × every role (owner, editor,
 * commenter, viewer, a visitor through an editor link, an API key of the owner's with the read scope
 * only) × every network transport it offers (MCP, HTTP, the page's window), over one in-process
 * `studio serve` with accounts. A call is refused with the role check's 403 exactly when the role table
 * (src/core/access.ts) says the caller lacks the action's capability, and never otherwise.
 *
 * Each call sends the action's example with one field no action knows (`probe`): the role check runs
 * before the input is validated, so an allowed call answers 400 unknown_field (or 501 where the action
 * is not built) and nothing runs, renders or writes; only the 403 decision is under test. The command
 * line on the checkout has no caller and is never refused by role (checked once per action).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import { capabilitiesOf, type Capability, type Role, type Scope } from '../../src/core/access.js'
import type { Action } from '../../src/core/action.js'
import { dispatch } from '../../src/core/engine.js'
import { toStudioError } from '../../src/core/errors.js'
import { createAccessRecord } from '../../src/identity/access-record.js'
import { identityOf } from '../../src/identity/db.js'
import { mintKey } from '../../src/identity/keys.js'
import { ensurePerson } from '../../src/identity/principals.js'
import { ADMIN_ONLY, NO_ACCESS } from '../../src/identity/roles.js'
import { mintSecret, newId } from '../../src/identity/secrets.js'
import { openSession } from '../../src/identity/sessions.js'
import { Workspace } from '../../src/store/workspace.js'
import { startServer, type RunningServer } from '../../src/transports/http/server.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import type { TestWorkspace } from '../helpers/studio.js'

const DECK = 'quarterly-review'

/**
 * What each action needs, written here independently of the declarations (docs/access.md says the
 * same): by group and whether it writes, then the actions that need something else. A declaration
 * that drifts from this (a capability removed or changed) turns this test red.
 */
const NEEDS: Readonly<Record<string, Capability | null>> = {
  'deck.create': null,
  'deck.pack': 'download',
  'deck.list': null,
  'deck.copy': 'read',
  'assist.propose': 'comment',
  'template.list': null,
  'template.slides': null,
  'template.rename': 'admin',
  'template.delete': 'admin',
  'template.setDefault': 'admin',
  'deck.setDefault': 'admin',
  'theme.list': null,
  'render.slide': 'export',
  'render.sheet': 'export',
  'font.list': null,
  'shader.render': null,
  'export.run': 'export',
  'export.text': 'export',
  'export.markdown': 'export',
  'build.run': 'export',
  'material.list': null,
  'shader.list': null,
  'logo.search': null,
  'logo.refresh': 'admin',
  'comment.add': 'comment',
  'comment.reply': 'comment',
  'comment.edit': 'comment',
  'comment.delete': 'comment',
  'comment.resolve': 'comment',
  'comment.reopen': 'comment',
  'comment.assign': 'comment',
  'comment.done': 'comment',
  'comment.react': 'comment',
  'comment.list': 'readComments',
  'comment.get': 'readComments',
  'comment.link': 'readComments',
  'notification.markRead': 'read',
  'notification.settings': 'read',
  'activity.list': 'readActivity',
  'share.remove': null,
  'share.requestAccess': null,
  'share.listRequests': 'share',
  'share.acceptOwnership': null,
  'share.listLinks': 'share',
  'share.declineOwnership': null,
  'admin.bootstrap': null,
  'presence.unfollow': 'read',
  'presence.pointer': 'read',
}

function needed(action: Action): Capability | null {
  if (Object.hasOwn(NEEDS, action.id)) return NEEDS[action.id]
  if (action.group === 'admin') return 'admin'
  if (action.group === 'account') return null
  if (action.group === 'share') return action.mutates ? 'share' : 'read'
  return action.mutates ? 'write' : 'read'
}

interface Who {
  name: string
  role: Role
  linkVisitor?: boolean
  scopes?: Scope[]
  headers: Record<string, string>
}

/** Whether an answer is the role check's refusal (not another 403: a path out of the workspace, an action's own rule). */
function roleRefusal(status: number, message: unknown): boolean {
  return status === 403 && typeof message === 'string' && (message === NO_ACCESS || message === ADMIN_ONLY || / needs the right to /.test(message))
}

function expectedRefused(action: Action, who: Who): boolean {
  const capability = needed(action)
  if (capability === null) return false
  if (capability === 'admin') return true
  const caps = capabilitiesOf({ role: who.role, ...(who.linkVisitor ? { linkVisitor: true } : {}), ...(who.scopes ? { scopes: new Set(who.scopes) } : {}) })
  return !caps.has(capability)
}

/** The example with the deck under test wherever the action names its deck in a field, and the probe field. */
function probeInput(action: Action): Record<string, unknown> {
  const input: Record<string, unknown> = { ...action.example, probe: true }
  const field = action.deck?.kind === 'field' ? action.deck.field : action.accessField
  if (field) input[field] = DECK
  return input
}

describe('the role table decides every action on every transport', () => {
  let tws: TestWorkspace
  let server: RunningServer
  const callers: Who[] = []
  const clients = new Map<string, Client>()

  before(async () => {
    tws = await newUserWorkspace()
    const ws = Workspace.find({ root: tws.dir })
    const identity = (await identityOf(ws, { create: true }))!
    await identity.write(async (tx) => {
      const people = new Map<string, string>()
      for (const role of ['owner', 'editor', 'commenter', 'viewer'] as const) {
        const person = await ensurePerson(tx, `${role}@example.com`, { verified: true })
        people.set(role, person.id)
        const session = await openSession(tx, person.id, 'signin', { method: 'mail' })
        callers.push({ name: role, role, headers: { cookie: `studio_session=${session.secret}`, 'sec-fetch-site': 'same-origin' } })
      }
      const owner = people.get('owner')!
      await createAccessRecord(tx, DECK, owner)
      for (const role of ['editor', 'commenter', 'viewer'] as const) {
        await tx.insertInto('grants').values({ id: newId('g_'), deck_id: DECK, principal_id: people.get(role)!, email: null, role, expires_at: null, created_at: new Date().toISOString(), created_by: owner }).execute()
      }
      const link = mintSecret('link')
      await tx.insertInto('links').values({ id: newId('l_'), deck_id: DECK, role: 'editor', label: 'editors', token_hash: link.hash, general: 0, expires_at: null, created_at: new Date().toISOString(), created_by: owner, dead_at: null, dead_reason: null }).execute()
      callers.push({ name: 'link visitor (editor link)', role: 'editor', linkVisitor: true, headers: { authorization: `Bearer ${link.secret}` } })
      const key = await mintKey(tx, owner, { name: 'reader', scopes: ['read'] })
      callers.push({ name: "owner's key with the read scope", role: 'owner', scopes: ['read'], headers: { authorization: `Bearer ${key.secret}` } })
    })
    server = await startServer({ ws, host: '127.0.0.1', port: 0, deck: DECK })
    for (const who of callers) {
      const client = new Client({ name: `roles-${who.name}`, version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: who.headers } }))
      clients.set(who.name, client)
    }
  })
  after(async () => {
    for (const client of clients.values()) await client.close().catch(() => undefined)
    await server?.close()
    tws?.cleanup()
  })

  async function outcome(action: Action, who: Who, transport: 'M' | 'H' | 'P'): Promise<{ status: number; message: unknown }> {
    const input = probeInput(action)
    if (transport === 'M') {
      const answer = await clients.get(who.name)!.callTool({ name: action.mcp!, arguments: input })
      const body = (answer.structuredContent ?? {}) as { status?: number; message?: string }
      return { status: answer.isError ? (body.status ?? 0) : 200, message: body.message }
    }
    const path = transport === 'H' ? `/api/actions/${action.id}?deck=${DECK}` : `/api/window/${action.id}?deck=${DECK}`
    const res = await request(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...who.headers }, body: JSON.stringify(input) })
    const text = await res.body.text()
    let message: unknown
    try {
      message = JSON.parse(text)?.message
    } catch {
      message = text
    }
    return { status: res.statusCode, message }
  }

  it('refuses with 403 exactly where the role table withholds the capability (M, H, P)', async () => {
    const wrong: string[] = []
    let calls = 0
    for (const action of ACTIONS) {
      // Actions needing no deck capability check their own rules (a 403 of theirs is not the role check's).
      if (needed(action) === null && !action.capability) continue
      // One action's calls at once (every role on every transport): the suite stays cheap.
      const pending: Promise<void>[] = []
      for (const transport of ['M', 'H', 'P'] as const) {
        if (!action.transportSet.has(transport) || (transport === 'M' && !action.mcp)) continue
        for (const who of callers) {
          pending.push(
            outcome(action, who, transport).then((got) => {
              calls++
              const refused = roleRefusal(got.status, got.message)
              if (refused !== expectedRefused(action, who)) wrong.push(`${action.id} ${transport} ${who.name}: ${got.status} ${String(got.message).slice(0, 160)} (capability ${action.capability})`)
              else if (!refused && got.status === 500) wrong.push(`${action.id} ${transport} ${who.name}: 500 ${String(got.message)}`)
            }),
          )
        }
      }
      await Promise.all(pending)
    }
    assert.ok(calls > 2000, `only ${calls} calls`)
    assert.deepEqual(wrong, [])
  })

  it('declares on every action the capability docs/access.md gives it', () => {
    const drift = ACTIONS.filter((a) => a.capability !== needed(a)).map((a) => `${a.id}: declares ${a.capability}, needs ${needed(a)}`)
    assert.deepEqual(drift, [])
  })

  it('never refuses the command line on the checkout by role (it owns every deck)', async () => {
    const ws = Workspace.find({ root: tws.dir })
    for (const action of ACTIONS) {
      if (!action.transportSet.has('C')) continue
      const error = await dispatch(action, probeInput(action), { ws, transport: 'C', deck: DECK }).then(
        () => undefined,
        (e: unknown) => toStudioError(e),
      )
      assert.ok(!error || !roleRefusal(error.status, error.message), `${action.id} on the checkout: ${error?.message}`)
    }
  })
})
