/** Rate limits count a client by its address, an IPv6 client by its /64 (src/identity/limits.ts). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { clientKey, consumeHourly } from '../../../src/identity/limits.js'

describe('rate limits', () => {
  it('count an IPv6 client by its /64 network, an IPv4 one (mapped or not) by its address', () => {
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    assert.equal(clientKey('2001:db8:1:2::5'), '2001:db8:1:2::/64')
    assert.notEqual(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'))
    assert.equal(clientKey('::ffff:192.0.2.7'), '192.0.2.7')
    assert.equal(clientKey('192.0.2.7'), '192.0.2.7')
    assert.equal(clientKey('::1'), '0:0:0:0::/64')
    assert.equal(clientKey(undefined), 'local')
  })

  it('refuse past the limit with 429 rate_limited and when to retry, whatever address of the /64 asks', async () => {
    const limit = { env: 'STUDIO_TEST_LIMIT_PER_HOUR', fallback: 2 }
    await consumeHourly([[limit, clientKey('2001:db8:9:9::1')]], 'Too many')
    await consumeHourly([[limit, clientKey('2001:db8:9:9::2')]], 'Too many')
    await assert.rejects(consumeHourly([[limit, clientKey('2001:db8:9:9:1:2:3:4')]], 'Too many'), (e: { status: number; code: string; message: string }) => e.code === 'rate_limited' && e.status === 429 && /retry in \d+ seconds/.test(e.message))
    // Another network counts apart.
    await consumeHourly([[limit, clientKey('2001:db8:9:a::1')]], 'Too many')
  })
})
