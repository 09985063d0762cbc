import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { serve, workspaceWithDeck, type Served } from '../helpers/studio.js'
import { newUserWorkspace } from '../helpers/fixture.js'

const TOKEN = 'edge-test-secret-0123456789abcdef'

/** A request to the server at 127.0.0.1:<port>, with whatever Host and headers the test names. */
async function ask(port: number, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await request(`http://127.0.0.1:${port}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.body.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.statusCode, text, json }
}

/** A raw HTTP/1.1 request over a socket, for what fetch clients merge away (two Host headers). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let data = ''
    socket.on('data', (chunk) => (data += chunk))
    socket.on('end', () => resolve(data))
    socket.on('error', reject)
  })
}

describe('studio serve on a wildcard bind: the Host allowlist still holds', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  let port: number
  before(async () => {
    ws = await workspaceWithDeck('Edge deck')
    server = await serve(ws.dir, ['--host', '0.0.0.0', '--allow-host', 'studio.example.test', '--allow-host', 'https://proxy.example.test'], {
      env: { STUDIO_TOKEN: TOKEN, STUDIO_ALLOW_HOSTS: 'env-name.example.test, other.example.test' },
    })
    port = Number(new URL(server.url).port)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  it('answers the loopback names and the machine\'s own addresses', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      assert.equal((await ask(port, '/api/agent', { host })).status, 200, host)
    }
    const own = Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal && i.family === 'IPv4')
    for (const info of own) assert.equal((await ask(port, '/api/agent', { host: `${info!.address}:${port}` })).status, 200, info!.address)
  })

  it('refuses a foreign Host with 403 even with a valid token, before the token or loopback exemption is looked at', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'rebind.attacker.test', `0.0.0.0:${port}`]) {
      const withToken = await ask(port, '/api/actions/deck.info', { host, authorization: `Bearer ${TOKEN}` }, {})
      assert.equal(withToken.status, 403, host)
      assert.equal(withToken.json.code, 'forbidden')
      // From loopback without a token (the exemption), still 403.
      assert.equal((await ask(port, '/api/agent', { host })).status, 403, host)
    }
    // The bundle route needs a token even on loopback: a foreign Host is 403 there too, not 401.
    const bundle = await ask(port, '/api/decks/edge-deck/bundle', { host: 'evil.example' })
    assert.equal(bundle.status, 403)
  })

  it('answers the names given with --allow-host and STUDIO_ALLOW_HOSTS', async () => {
    for (const host of ['studio.example.test', `studio.example.test:${port}`, 'STUDIO.example.test', 'proxy.example.test', 'env-name.example.test', 'other.example.test']) {
      assert.equal((await ask(port, '/api/agent', { host })).status, 200, host)
    }
  })

  it('lets in an Origin only with this server\'s scheme, name and port', async () => {
    const host = `localhost:${port}`
    assert.equal((await ask(port, '/api/agent', { host, origin: `http://localhost:${port}` })).status, 200)
    assert.equal((await ask(port, '/api/agent', { host, origin: `http://studio.example.test:${port}` })).status, 200)
    assert.equal((await ask(port, '/api/agent', { host: 'proxy.example.test', origin: 'https://proxy.example.test' })).status, 200, 'an --allow-host origin')
    for (const origin of [
      'http://localhost:9999', // another port
      'http://localhost', // port 80
      `https://localhost:${port}`, // another scheme
      `http://evil.example:${port}`,
      'https://studio.example.test', // a name allowed only as http on this port
      'null',
      'not a url',
    ]) {
      const r = await ask(port, '/api/agent', { host, origin })
      assert.equal(r.status, 403, origin)
      assert.equal(r.json.code, 'forbidden')
    }
  })

  it('answers 400 for a request carrying two Host headers', async () => {
    const answer = await raw(port, `GET /api/agent HTTP/1.1\r\nHost: localhost:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)
    assert.match(answer, /^HTTP\/1\.1 400 /)
    assert.match(answer, /"code": "invalid_input"/)
    const single = await raw(port, `GET /api/agent HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`)
    assert.match(single, /^HTTP\/1\.1 200 /)
  })
})

describe('studio serve on a wildcard bind with no --allow-host', () => {
  it('still answers only its own names: never any Host', async () => {
    const ws = await workspaceWithDeck('Bare wildcard')
    const server = await serve(ws.dir, ['--host', '0.0.0.0'], { env: { STUDIO_TOKEN: TOKEN } })
    try {
      const port = Number(new URL(server.url).port)
      assert.equal((await ask(port, '/api/agent', { host: `localhost:${port}` })).status, 200)
      for (const host of ['evil.example', 'rebind.attacker.test:80']) {
        assert.equal((await ask(port, '/api/agent', { host, authorization: `Bearer ${TOKEN}` })).status, 403, host)
      }
    } finally {
      await server.stop()
      ws.cleanup()
    }
  })
})

describe('studio serve behind a proxy on the same machine', () => {
  let ws: Awaited<ReturnType<typeof newUserWorkspace>>
  let plain: Served
  let accounts: Served
  before(async () => {
    ws = await newUserWorkspace()
    // No token: a request that is not local is refused outright. The second server names the proxy.
    plain = await serve(ws.dir, [])
    accounts = await serve(ws.dir, ['--accounts'], { env: { STUDIO_MAIL: 'capture', STUDIO_TRUSTED_PROXIES: '127.0.0.1, ::1', STUDIO_SIGNIN_MAILS_PER_CLIENT_HOUR: '2' } })
  })
  after(async () => {
    await plain?.stop()
    await accounts?.stop()
    ws?.cleanup()
  })

  it('treats a loopback request that says it was forwarded as not local: it needs the token', async () => {
    const port = Number(new URL(plain.url).port)
    assert.equal((await ask(port, '/api/agent')).status, 200)
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const forwarded = await ask(port, '/api/agent', { [header]: header === 'forwarded' ? 'for=203.0.113.5' : '203.0.113.5' })
      assert.equal(forwarded.status, 401, header)
      assert.equal(forwarded.json.code, 'unauthorized')
    }
  })

  it('counts each client a trusted proxy forwards for apart, by the hop the proxy wrote', async () => {
    const port = Number(new URL(accounts.url).port)
    const mail = (client: string, email: string) => ask(port, '/auth/mail', { 'x-forwarded-for': client }, { email })
    assert.equal((await mail('203.0.113.5', 'a@example.com')).status, 200)
    assert.equal((await mail('203.0.113.5', 'b@example.com')).status, 200)
    const third = await mail('203.0.113.5', 'c@example.com')
    assert.equal(third.status, 429, 'the third mail from one client in an hour')
    assert.equal(third.json.code, 'rate_limited')
    // What a client writes left of the proxy's hop changes nothing; another client is not held up.
    assert.equal((await mail('198.51.100.1, 203.0.113.5', 'd@example.com')).status, 429)
    assert.equal((await mail('203.0.113.6', 'e@example.com')).status, 200)
  })
})
