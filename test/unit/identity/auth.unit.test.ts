/**
 * src/identity/auth.ts against a real identity database in a temp workspace: re-authentication time
 * (share.settings asks for 10 minutes), `last_used_at` written at most once a minute, a session whose
 * person is gone or that was revoked opening nothing, and no caller at all without accounts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { authenticate, recentlyAuthenticated } from '../../../src/identity/auth.js'
import { identityOf, type Identity } from '../../../src/identity/db.js'
import { mintKey } from '../../../src/identity/keys.js'
import { ensurePerson } from '../../../src/identity/principals.js'
import { openSession } from '../../../src/identity/sessions.js'
import { Workspace } from '../../../src/store/workspace.js'
import { workspace, type TestWorkspace } from '../../helpers/studio.js'

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

describe('authenticate', () => {
  let tws: TestWorkspace
  let ws: Workspace
  let identity: Identity

  before(async () => {
    tws = await workspace()
    ws = Workspace.find({ root: tws.dir })
  })
  after(async () => {
    await identity?.close()
    tws?.cleanup()
  })

  it('answers no caller without accounts', async () => {
    assert.equal(await authenticate(ws, { headers: { cookie: 'studio_session=x' } }), undefined)
    identity = (await identityOf(ws, { create: true }))!
  })

  it('knows when a session last signed in, and a key never counts as one', async () => {
    const { session, key } = await identity.write(async (tx) => {
      const person = await ensurePerson(tx, 'ana@example.com', { verified: true })
      return { session: await openSession(tx, person.id, 'signin', { method: 'mail' }), key: await mintKey(tx, person.id, { name: 'k', scopes: ['read'] }) }
    })
    const headers = { cookie: `studio_session=${session.secret}` }
    assert.equal(recentlyAuthenticated(await authenticate(ws, { headers }), 10), true)
    await identity.db.updateTable('sessions').set({ authenticated_at: ago(20 * 60_000) }).where('id', '=', session.row.id).execute()
    assert.equal(recentlyAuthenticated(await authenticate(ws, { headers }), 10), false)
    assert.equal(recentlyAuthenticated(await authenticate(ws, { headers: { authorization: `Bearer ${key.secret}` } }), 10), false)
  })

  it('writes last_used_at at most once a minute', async () => {
    const session = await identity.write(async (tx) => openSession(tx, (await ensurePerson(tx, 'bo@example.com')).id, 'signin'))
    const headers = { cookie: `studio_session=${session.secret}` }
    const lastUsed = async () => (await identity.db.selectFrom('sessions').select('last_used_at').where('id', '=', session.row.id).executeTakeFirstOrThrow()).last_used_at
    const recent = ago(30_000)
    await identity.db.updateTable('sessions').set({ last_used_at: recent }).where('id', '=', session.row.id).execute()
    await authenticate(ws, { headers })
    assert.equal(await lastUsed(), recent)
    const old = ago(120_000)
    await identity.db.updateTable('sessions').set({ last_used_at: old }).where('id', '=', session.row.id).execute()
    await authenticate(ws, { headers })
    assert.ok((await lastUsed())! > old)
  })

  it('opens nothing with a revoked session or one whose person is gone', async () => {
    const { person, session } = await identity.write(async (tx) => {
      const person = await ensurePerson(tx, 'cy@example.com')
      return { person, session: await openSession(tx, person.id, 'signin') }
    })
    const headers = { cookie: `studio_session=${session.secret}` }
    assert.equal((await authenticate(ws, { headers }))?.principalId, person.id)
    await identity.db.deleteFrom('principals').where('id', '=', person.id).execute()
    const gone = await authenticate(ws, { headers })
    assert.equal(gone?.principalId, undefined)
    assert.equal(gone?.kind, 'anonymous')
  })
})
