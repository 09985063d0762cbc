/**
 * The edge with accounts (src/transports/http/edge.ts): off loopback a session or link cookie and an
 * API key or link token are credentials beside the static bearer; a request with none is still 401;
 * without accounts a cookie opens nothing, and a bearer that is not the static one is 401 where a
 * token is configured.
 */
import assert from 'node:assert/strict'
import type { IncomingMessage } from 'node:http'
import { describe, it } from 'node:test'
import { StudioError } from '../../../src/core/errors.js'
import { mintSecret } from '../../../src/identity/secrets.js'
import { checkEdge, policyFor } from '../../../src/transports/http/edge.js'

const TOKEN = 'static-token-0123456789'
const policy = policyFor('0.0.0.0', 4321, TOKEN, [])

function req(headers: Record<string, string>, remoteAddress = '10.0.0.5'): IncomingMessage {
  const all = { host: '127.0.0.1:4321', ...headers }
  return { headers: all, rawHeaders: Object.entries(all).flat(), socket: { remoteAddress } } as unknown as IncomingMessage
}

function status(fn: () => unknown): number {
  try {
    fn()
    return 200
  } catch (error) {
    return (error as StudioError).status
  }
}

describe('the edge with accounts', () => {
  const key = mintSecret('key').secret
  const link = mintSecret('link').secret
  const session = mintSecret('session').secret

  it('takes cookies and account bearers as credentials off loopback only where accounts are on', () => {
    assert.equal(status(() => checkEdge(req({}), policy, { accounts: true })), 401)
    assert.equal(status(() => checkEdge(req({ cookie: `studio_session=${session}` }), policy, { accounts: true })), 200)
    assert.equal(status(() => checkEdge(req({ cookie: `studio_link_quarterly-review=${session}` }), policy, { accounts: true })), 200)
    assert.equal(status(() => checkEdge(req({ authorization: `Bearer ${key}` }), policy, { accounts: true })), 200)
    assert.equal(status(() => checkEdge(req({ authorization: `Bearer ${link}` }), policy, { accounts: true })), 200)
    assert.equal(status(() => checkEdge(req({ cookie: `studio_session=${session}` }), policy)), 401)
    assert.equal(status(() => checkEdge(req({ authorization: `Bearer ${key}` }), policy)), 401)
    assert.equal(status(() => checkEdge(req({ authorization: 'Bearer something-else' }), policy, { accounts: true })), 401)
    assert.equal(status(() => checkEdge(req({ cookie: 'other=1' }), policy, { accounts: true })), 401)
  })

  it('says when the static bearer was presented, and still asks bundles for it', () => {
    assert.equal(checkEdge(req({ authorization: `Bearer ${TOKEN}` }), policy, { accounts: true }).staticBearer, true)
    assert.equal(checkEdge(req({ authorization: `Bearer ${key}` }), policy, { accounts: true }).staticBearer, false)
    assert.equal(status(() => checkEdge(req({ authorization: `Bearer ${key}` }), policy, { accounts: true, requireToken: true })), 401)
    assert.equal(status(() => checkEdge(req({}, '127.0.0.1'), policy, { accounts: true })), 200)
  })
})
