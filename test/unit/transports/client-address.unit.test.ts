/**
 * Whom a request comes from (src/transports/http/edge.ts): the socket's address, unless the socket is a
 * proxy named in STUDIO_TRUSTED_PROXIES, then the first hop of X-Forwarded-For from the right that is not a
 * trusted proxy; a request from loopback that carries a forwarding header is not local.
 */
import assert from 'node:assert/strict'
import type { IncomingMessage } from 'node:http'
import { afterEach, describe, it } from 'node:test'
import { clientAddress, isLocalRequest, trustedProxies } from '../../../src/transports/http/edge.js'

function req(remoteAddress: string, headers: Record<string, string | string[]> = {}): IncomingMessage {
  return { headers, socket: { remoteAddress } } as unknown as IncomingMessage
}

describe('the client address', () => {
  afterEach(() => {
    delete process.env.STUDIO_TRUSTED_PROXIES
  })

  it('is the socket\'s, whatever X-Forwarded-For says, with no trusted proxy', () => {
    assert.equal(clientAddress(req('10.0.0.7', { 'x-forwarded-for': '203.0.113.5' })), '10.0.0.7')
  })

  it('is the first untrusted hop from the right behind a trusted proxy: a client cannot name itself', () => {
    process.env.STUDIO_TRUSTED_PROXIES = '10.0.0.0/8, 172.18.0.5, fd00::/8'
    assert.equal(clientAddress(req('10.0.0.7', { 'x-forwarded-for': '203.0.113.5' })), '203.0.113.5')
    // What the client wrote to the left of what the proxy appended is never read.
    assert.equal(clientAddress(req('172.18.0.5', { 'x-forwarded-for': '198.51.100.1, 203.0.113.5' })), '203.0.113.5')
    // Two trusted proxies in a row: the walk passes both.
    assert.equal(clientAddress(req('::ffff:10.0.0.7', { 'x-forwarded-for': '198.51.100.1, 203.0.113.5, 10.9.9.9' })), '203.0.113.5')
    assert.equal(clientAddress(req('fd00::1', { 'x-forwarded-for': '2001:db8::9, [fd00::2]' })), '2001:db8::9')
    // Several headers are read as one list.
    assert.equal(clientAddress(req('10.0.0.7', { 'x-forwarded-for': ['198.51.100.1', '203.0.113.6'] })), '203.0.113.6')
    // No header, or a hop that is no address: the last real hop, never a made-up one.
    assert.equal(clientAddress(req('10.0.0.7')), '10.0.0.7')
    assert.equal(clientAddress(req('10.0.0.7', { 'x-forwarded-for': 'evil, 10.0.0.8' })), '10.0.0.8')
    assert.equal(clientAddress(req('10.0.0.7', { 'x-forwarded-for': 'not-an-address' })), '10.0.0.7')
    // A socket that is not a trusted proxy: the header is ignored.
    assert.equal(clientAddress(req('192.0.2.44', { 'x-forwarded-for': '203.0.113.5' })), '192.0.2.44')
  })

  it('refuses a malformed STUDIO_TRUSTED_PROXIES entry, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', 'fd00::/129', '10.0.0.0/x']) {
      process.env.STUDIO_TRUSTED_PROXIES = `127.0.0.1, ${bad}`
      assert.throws(() => trustedProxies(), (e: { code: string; message: string }) => e.code === 'invalid_input' && e.message.includes(`"${bad}"`), bad)
    }
  })

  it('is local only from a loopback socket with no forwarding header', () => {
    assert.equal(isLocalRequest(req('127.0.0.1')), true)
    assert.equal(isLocalRequest(req('::1')), true)
    assert.equal(isLocalRequest(req('::ffff:127.0.0.1')), true)
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) assert.equal(isLocalRequest(req('127.0.0.1', { [header]: '127.0.0.1' })), false, header)
    assert.equal(isLocalRequest(req('10.0.0.7')), false)
    process.env.STUDIO_TRUSTED_PROXIES = '127.0.0.1'
    assert.equal(isLocalRequest(req('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })), false, 'forwarded by a trusted proxy is still forwarded')
  })
})
