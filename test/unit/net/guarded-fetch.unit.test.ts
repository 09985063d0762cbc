import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { StudioError } from '../../../src/core/errors.js'
import { addressRefusal, checkUrl, fetchBytes, fetchPolicyFromEnv, guardedDispatcher, guardedFetch, saveTo } from '../../../src/net/guarded-fetch.js'

const SECRET = 'internal-secret-4f1c'

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<StudioError> {
  try {
    await (typeof promise === 'function' ? promise() : promise)
  } catch (error) {
    assert.ok(error instanceof StudioError, `expected a StudioError, got ${error}`)
    return error
  }
  assert.fail('expected a refusal')
}

describe('the SSRF checker: every spelling of a private address is refused', () => {
  // [URL as a caller may write it, the reason class the refusal names]
  const refused: [string, RegExp][] = [
    ['http://127.0.0.1/', /loopback/],
    ['http://2130706433/', /loopback/], // decimal
    ['http://0x7f.1/', /loopback/], // hex, short
    ['http://0x7f000001/', /loopback/],
    ['http://0177.0.0.1/', /loopback/], // octal
    ['http://017700000001/', /loopback/],
    ['http://127.1/', /loopback/], // short
    ['http://127.0.0.1./', /loopback/],
    ['http://[::1]/', /loopback/],
    ['http://[::ffff:127.0.0.1]/', /loopback/], // IPv4-mapped
    ['http://[0:0:0:0:0:ffff:7f00:1]/', /loopback/],
    ['http://[::127.0.0.1]/', /loopback/], // IPv4-compatible
    ['http://[64:ff9b::127.0.0.1]/', /loopback/], // NAT64
    ['http://[2002:7f00:1::]/', /loopback/], // 6to4 of 127.0.0.1
    ['http://10.0.0.1/', /private/],
    ['http://172.16.5.4/', /private/],
    ['http://192.168.1.1/', /private/],
    ['http://[::ffff:192.168.1.1]/', /private/],
    ['http://[::ffff:c0a8:101]/', /private/],
    ['http://[64:ff9b::10.0.0.1]/', /private/],
    ['http://[2002:c0a8:0101::1]/', /private/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/], // cloud metadata
    ['http://0xa9fea9fe/', /link-local/],
    ['http://[::ffff:169.254.169.254]/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://100.64.0.1/', /carrier-grade/],
    ['http://224.0.0.1/', /multicast/],
    ['http://[ff02::1]/', /multicast/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://240.0.0.1/', /reserved/],
    ['http://192.0.2.1/', /reserved/],
    ['http://[fc00::1]/', /unique-local/],
    ['http://[fd12:3456::1]/', /unique-local/],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo/],
    ['http://[2001:db8::1]/', /reserved/],
  ]
  for (const [url, reason] of refused) {
    it(`refuses ${url}`, async () => {
      const error = await rejection(() => checkUrl(url, {}))
      assert.equal(error.code, 'fetch_refused')
      assert.equal(error.status, 400)
      assert.match(error.message, reason)
      assert.match(error.message, new RegExp(`"${new URL(url).hostname.replace(/[[\]]/g, '\\$&')}"`), 'the message names the host')
    })
  }

  it('allows public addresses, in IPv4, IPv6 and their embedded forms', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1', '2a00:1450:4001:80b::200e', '::ffff:93.184.216.34', '64:ff9b::93.184.216.34']) {
      assert.equal(addressRefusal(address, {}), null, address)
    }
    assert.equal(checkUrl('https://93.184.216.34/bundle.zip', {}).hostname, '93.184.216.34')
    assert.equal(checkUrl('http://[2606:4700::1]:8080/x', {}).hostname, '[2606:4700::1]')
  })

  it('checks resolved addresses in every form dns.lookup answers', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', 'fe80::1%eth0', 'fd00::1', '169.254.169.254']) {
      assert.notEqual(addressRefusal(address, {}), null, address)
    }
    assert.equal(addressRefusal('not-an-address', {}), 'not an address')
  })

  it('refuses other schemes and credentials in the URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://93.184.216.34/x', 'gopher://93.184.216.34/', 'data:text/plain,x', 'javascript:alert(1)']) {
      assert.equal((await rejection(() => checkUrl(url, {}))).code, 'fetch_refused', url)
    }
    const credentials = await rejection(() => checkUrl('http://user:pass@93.184.216.34/', {}))
    assert.match(credentials.message, /credentials/)
    assert.doesNotMatch(credentials.message, /pass/)
    assert.equal((await rejection(() => checkUrl('not a url', {}))).code, 'fetch_refused')
  })

  it('lets the allow switch open private addresses, or only the listed ones, but never unspecified or multicast', () => {
    assert.deepEqual(fetchPolicyFromEnv({}), {})
    assert.deepEqual(fetchPolicyFromEnv({ STUDIO_FETCH_ALLOW_PRIVATE: '1' }), { allowPrivate: true })
    assert.deepEqual(fetchPolicyFromEnv({ STUDIO_FETCH_ALLOW_PRIVATE: '127.0.0.1, 10.0.0.0/8' }), { allow: ['127.0.0.1', '10.0.0.0/8'] })
    const all = fetchPolicyFromEnv({ STUDIO_FETCH_ALLOW_PRIVATE: '1' })
    assert.equal(addressRefusal('127.0.0.1', all), null)
    assert.equal(addressRefusal('169.254.169.254', all), null)
    assert.match(addressRefusal('0.0.0.0', all)!, /unspecified/)
    assert.match(addressRefusal('224.0.0.1', all)!, /multicast/)
    const listed = { allow: ['127.0.0.1', '10.0.0.0/8'] }
    assert.equal(addressRefusal('127.0.0.1', listed), null)
    assert.equal(addressRefusal('::ffff:127.0.0.1', listed), null, 'a mapped address matches its IPv4 entry')
    assert.equal(addressRefusal('10.9.8.7', listed), null)
    assert.match(addressRefusal('127.0.0.2', listed)!, /loopback/)
    assert.match(addressRefusal('::1', listed)!, /loopback/)
    assert.match(addressRefusal('192.168.0.1', listed)!, /private/)
  })
})

/** A real HTTP server on a loopback address; every request it receives is counted. */
async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0
  const server = createServer((req, res) => {
    hits++
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, hits: () => hits }
}

describe('the guarded dispatcher against real servers on loopback', () => {
  let inner: Awaited<ReturnType<typeof listen>> // 127.0.0.1 (localhost): the "internal service" holding the secret
  let innerV6: Awaited<ReturnType<typeof listen>> // ::1, the same
  let outer: Awaited<ReturnType<typeof listen>> // 127.0.0.2: the "public" server the tests allow
  let dir: string
  const onlyOuter = { allow: ['127.0.0.2'] }
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-fetch-'))
    inner = await listen('127.0.0.1', (_req, res) => res.writeHead(200).end(SECRET))
    innerV6 = await listen('::1', (_req, res) => res.writeHead(200).end(SECRET))
    outer = await listen('127.0.0.2', (req, res) => {
      const path = req.url ?? '/'
      if (path === '/ok') return res.writeHead(200, { 'content-type': 'application/zip' }).end('bundle-bytes')
      if (path === '/to-inner') return res.writeHead(302, { location: `${inner.url}/` }).end()
      if (path === '/to-inner-v6') return res.writeHead(307, { location: `${innerV6.url}/` }).end()
      if (path === '/to-localhost') return res.writeHead(301, { location: `http://localhost:${new URL(inner.url).port}/` }).end()
      if (path === '/to-decimal') return res.writeHead(302, { location: `http://2130706433:${new URL(inner.url).port}/` }).end()
      if (path === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end()
      if (path === '/relative') return res.writeHead(302, { location: '/ok' }).end()
      if (path.startsWith('/loop/')) return res.writeHead(302, { location: `/loop/${Number(path.slice(6)) + 1}` }).end()
      if (path === '/big') {
        // Chunked (no Content-Length): the cap must hold while streaming.
        res.writeHead(200)
        let sent = 0
        const push = () => {
          while (sent < 64) {
            sent++
            if (!res.write(Buffer.alloc(16 * 1024, 0x61))) return res.once('drain', push)
          }
          res.end()
        }
        return push()
      }
      if (path === '/sized') return res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024))
      if (path === '/hang') return res.writeHead(200).write('x') // never ends
      if (path === '/error') return res.writeHead(500, 'Internal ' + SECRET).end(`stack trace with ${SECRET}`)
      res.writeHead(404).end(SECRET)
    })
  })
  after(() => {
    for (const s of [inner, innerV6, outer]) {
      s?.server.closeAllConnections()
      s?.server.close()
    }
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a loopback server by default, by address and by name, without sending it a request', async () => {
    const byAddress = await rejection(fetchBytes(`${outer.url}/ok`, { policy: {} }))
    assert.equal(byAddress.code, 'fetch_refused')
    const byName = await rejection(fetchBytes(`http://localhost:${new URL(inner.url).port}/`, { policy: onlyOuter }))
    assert.equal(byName.code, 'fetch_refused')
    assert.match(byName.message, /"localhost": it resolves to a loopback address/)
    assert.equal(outer.hits(), 0)
    assert.equal(inner.hits(), 0)
  })

  it('refuses at connect time in the dispatcher itself, for a literal address and for a name', async () => {
    const { request } = await import('undici')
    const dispatcher = guardedDispatcher({})
    try {
      for (const url of [`${outer.url}/ok`, `http://localhost:${new URL(inner.url).port}/`]) {
        await assert.rejects(request(url, { dispatcher }), (error: Error) => /resolves to a loopback address/.test(error.message), url)
      }
    } finally {
      await dispatcher.close()
    }
    assert.equal(outer.hits(), 0)
    assert.equal(inner.hits(), 0)
  })

  it('fetches from an allowed address, and follows a relative redirect', async () => {
    assert.equal((await fetchBytes(`${outer.url}/ok`, { policy: onlyOuter })).toString(), 'bundle-bytes')
    const followed = await guardedFetch(`${outer.url}/relative`, { policy: onlyOuter })
    assert.equal(followed.url, `${outer.url}/ok`)
    followed.body.destroy()
  })

  it('re-checks every redirect hop: to 127.0.0.1, to [::1], to a name resolving to loopback and to a decimal spelling, all refused', async () => {
    for (const path of ['/to-inner', '/to-inner-v6', '/to-localhost', '/to-decimal']) {
      const error = await rejection(fetchBytes(`${outer.url}${path}`, { policy: onlyOuter }))
      assert.equal(error.code, 'fetch_refused', path)
      assert.match(error.message, /loopback/, path)
      assert.doesNotMatch(error.message, new RegExp(SECRET))
    }
    assert.equal(inner.hits(), 0, 'the internal service never saw a request')
    assert.equal(innerV6.hits(), 0)
  })

  it('refuses a redirect to another scheme, and more than 5 redirects', async () => {
    const scheme = await rejection(fetchBytes(`${outer.url}/to-file`, { policy: onlyOuter }))
    assert.equal(scheme.code, 'fetch_refused')
    assert.match(scheme.message, /only http and https/)
    const loop = await rejection(fetchBytes(`${outer.url}/loop/0`, { policy: onlyOuter }))
    assert.equal(loop.code, 'fetch_refused')
    assert.match(loop.message, /more than 5 times/)
  })

  it('aborts past the size cap while streaming, and refuses a declared size over it', async () => {
    const streamed = await rejection(fetchBytes(`${outer.url}/big`, { policy: onlyOuter, limit: 100 * 1024 }))
    assert.equal(streamed.code, 'payload_too_large')
    const declared = await rejection(fetchBytes(`${outer.url}/sized`, { policy: onlyOuter, limit: 1024 * 1024 }))
    assert.equal(declared.code, 'payload_too_large')
    const file = join(dir, 'big.zip')
    const saved = await rejection(saveTo(`${outer.url}/big`, file, { policy: onlyOuter, limit: 100 * 1024 }))
    assert.equal(saved.code, 'payload_too_large')
    assert.equal(existsSync(file), false, 'a transfer past the cap leaves no file')
  })

  it('answers fetch_failed for an upstream error without its body or status text', async () => {
    const error = await rejection(fetchBytes(`${outer.url}/error`, { policy: onlyOuter }))
    assert.equal(error.code, 'fetch_failed')
    assert.equal(error.status, 502)
    assert.match(error.message, /HTTP 500/)
    assert.doesNotMatch(JSON.stringify(error.toJSON()), new RegExp(SECRET))
  })

  it('gives up after the whole-request timeout', async () => {
    const error = await rejection(fetchBytes(`${outer.url}/hang`, { policy: onlyOuter, timeoutMs: 300 }))
    assert.equal(error.code, 'fetch_failed')
    assert.match(error.message, /did not finish/)
  })

  it('streams a body into a file', async () => {
    const file = join(dir, 'ok.zip')
    const saved = await saveTo(`${outer.url}/ok`, file, { policy: onlyOuter })
    assert.equal(saved.bytes, 12)
    assert.equal(readFileSync(file, 'utf8'), 'bundle-bytes')
  })
})
