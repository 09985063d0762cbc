/**
 * Running `studio serve` as an operator does (docs/hosting.md): liveness and readiness without a
 * credential, readiness naming the check that fails; structured logs (STUDIO_LOG=json), one line per
 * request with no secret in it; and a graceful stop: SIGTERM lets a write that has begun commit and be
 * answered, no new connection is taken meanwhile, and the process exits 0.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, renameSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { Workspace } from '../../src/store/workspace.js'
import { startServer } from '../../src/transports/http/server.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { BIN, serve, type TestWorkspace } from '../helpers/studio.js'
import { runToEnd } from '../helpers/spawner.js'

const TOKEN = 'static-bearer-for-serve-ops-0123456789'
const DECK = 'quarterly-review'

describe('studio serve for operators', () => {
  let ws: TestWorkspace

  /** `studio serve` as its own process (its exit code is under test), with JSON logs and `env` added. */
  async function spawnServe(env: Record<string, string>) {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--ttl', '120'], {
      cwd: ws.dir,
      env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_TOKEN: '', STUDIO_LOG: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d) => ((out += d), out.includes('\n') && resolve(JSON.parse(out.split('\n')[0]).url)))
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
    })
    return { child, url, exited, stderr: () => err }
  }
  before(async () => {
    ws = await newUserWorkspace()
  })
  after(() => ws?.cleanup())

  it('answers /healthz and /readyz without a credential, and readiness names the check that fails', async () => {
    const served = await serve(ws.dir, [], { env: { STUDIO_TOKEN: TOKEN } })
    try {
      const get = async (path: string, method: 'GET' | 'HEAD' = 'GET', headers: Record<string, string> = {}) => {
        const res = await request(`${served.url}${path}`, { method, headers })
        const text = await res.body.text()
        return { status: res.statusCode, body: text ? JSON.parse(text) : null }
      }
      assert.deepEqual(await get('/healthz'), { status: 200, body: { status: 'ok' } })
      assert.equal((await get('/healthz', 'HEAD')).status, 200)
      const ready = await get('/readyz')
      assert.equal(ready.status, 200, JSON.stringify(ready.body))
      assert.deepEqual(ready.body, { status: 'ready', checks: { serving: 'ok', workspace: 'ok', git: 'ok' } })
      // A Host the edge does not serve is refused on the probes too.
      assert.notEqual((await get('/healthz', 'GET', { host: 'studio.attacker.example' })).status, 200)
      // The repository broken under it: not ready, and the answer says which check.
      const head = join(ws.dir, '.git', 'HEAD')
      renameSync(head, `${head}.away`)
      try {
        const broken = await get('/readyz')
        assert.equal(broken.status, 503)
        assert.equal(broken.body.status, 'unready')
        assert.match(broken.body.checks.git, /^failing: /)
        assert.equal(broken.body.checks.workspace, 'ok')
      } finally {
        renameSync(`${head}.away`, head)
      }
      assert.equal((await get('/readyz')).status, 200)
      // The OpenAPI document lists both probes, with no security requirement.
      const openapi = (await get('/openapi.json', 'GET', { authorization: `Bearer ${TOKEN}` })).body
      assert.deepEqual(openapi.paths['/healthz'].get.security, [])
      assert.deepEqual(openapi.paths['/readyz'].get.security, [])
    } finally {
      await served.stop()
    }
  })

  it('logs one JSON line per request (STUDIO_LOG=json), naming the action and the caller, never a secret', async () => {
    const served = await serve(ws.dir, [], { env: { STUDIO_TOKEN: TOKEN, STUDIO_LOG: 'json' } })
    const linkToken = 'studio_lnk_AbCdEfGhIjKlMnOpQrStUvWxYz0123abcdef'
    const querySecret = 'query-secret-5e1f9a'
    const info = await request(`${served.url}/api/actions/deck.info?deck=${DECK}&token=${querySecret}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, cookie: `studio_session=${linkToken}x` } })
    assert.equal(info.statusCode, 200)
    await info.body.text()
    const requestId = String(info.headers['x-request-id'])
    await (await request(`${served.url}/s/${linkToken}`)).body.text()
    const window = await request(`${served.url}/api/window/deck.info?deck=${DECK}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } })
    await window.body.text()
    const windowId = String(window.headers['x-request-id'])
    await (await request(`${served.url}/api/actions/no.such`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } })).body.text()
    await served.stop()
    const log = served.stderr()
    const lines = log.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    const called = lines.find((l) => l.msg === 'request' && l.requestId === requestId)
    assert.ok(called, log)
    assert.equal(called.action, 'deck.info')
    assert.equal(called.status, 200)
    assert.equal(called.caller, 'deployment')
    assert.equal(called.method, 'POST')
    assert.equal(called.path, '/api/actions/deck.info')
    assert.equal(typeof called.ms, 'number')
    assert.ok(lines.some((l) => l.msg === 'request' && l.path === '/s/…'))
    assert.equal(lines.find((l) => l.requestId === windowId)?.action, 'deck.info', log)
    assert.ok(lines.some((l) => l.msg === 'request' && l.status === 404 && l.level === 'warn'))
    assert.ok(lines.some((l) => l.msg === 'listening') && lines.some((l) => l.msg === 'stopped'))
    for (const secret of [TOKEN, linkToken, querySecret]) assert.equal(log.includes(secret), false, `a secret in the log: ${secret.slice(0, 12)}…`)
  })

  it('logs a failed start as a JSON line too (STUDIO_LOG=json)', async () => {
    const ran = await runToEnd(process.execPath, [BIN, 'serve', '--port', '0', '--ttl', '5', '--deck', 'Not A Deck'], { cwd: ws.dir, env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_TOKEN: '', STUDIO_LOG: 'json' } })
    assert.notEqual(ran.code, 0)
    const line = JSON.parse(ran.stderr.trim()) as Record<string, unknown>
    assert.equal(line.level, 'error')
    assert.equal(line.msg, 'failed to start')
    assert.equal(line.code, 'invalid_input')
  })

  it('drains on close: a request in flight finishes, no new connection is taken, and a deadline ends the wait', async () => {
    const server = await startServer({ ws: new Workspace(ws.dir, ws.dir), host: '127.0.0.1', port: 0, deck: DECK })
    const { port } = new URL(server.url)
    // A request whose body is still arriving: in flight until its last byte.
    const body = '{}'.padEnd(40, ' ')
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    let answer = ''
    socket.on('data', (d) => (answer += d))
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    // The server has the request (its headers parsed) once it emits 'request': no sleeping on a guess.
    const requested = once(server.server, 'request')
    socket.write(`POST /api/actions/deck.info?deck=${DECK} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`)
    await requested
    // A second connection whose request line has arrived but not its headers' end: it will ask /readyz mid-drain.
    const accepted = once(server.server, 'connection')
    const prober = connect(Number(port), '127.0.0.1')
    await new Promise<void>((resolve) => prober.once('connect', () => resolve()))
    await accepted
    let probed = ''
    prober.on('data', (d) => (probed += d))
    const probeEnded = new Promise<void>((resolve) => prober.once('close', () => resolve()))
    prober.write(`GET /readyz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`)
    const closing = server.close({ graceMs: 60_000 })
    // The listener is closed: a new connection is refused while the request finishes.
    const refused = await new Promise<string>((resolve) => {
      const late = connect(Number(port), '127.0.0.1')
      late.once('connect', () => (late.destroy(), resolve('connected')))
      late.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    })
    assert.equal(refused, 'ECONNREFUSED')
    // Readiness answers 503 at once, naming the drain, while the request in flight is still running.
    prober.write('\r\n')
    await probeEnded
    assert.match(probed, /^HTTP\/1\.1 503 /, probed)
    const chunked = probed.slice(probed.indexOf('\r\n\r\n') + 4)
    assert.equal(JSON.parse(chunked.slice(chunked.indexOf('\r\n') + 2, chunked.lastIndexOf('}') + 1)).checks.serving, 'failing: shutting down')
    // (written, not ended: a half-closed socket would end the request on the server's side.)
    socket.write(body.slice(10))
    assert.equal(await closing, 0, 'every request in flight finished')
    await ended
    assert.match(answer, /^HTTP\/1\.1 200 /, answer)
    assert.match(answer, /"revision"/)

    // A request that never finishes: the deadline ends the wait and says one was cut off.
    const again = await startServer({ ws: new Workspace(ws.dir, ws.dir), host: '127.0.0.1', port: 0, deck: DECK })
    const stuck = connect(Number(new URL(again.url).port), '127.0.0.1')
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()))
    stuck.on('error', () => undefined)
    const stuckRequested = once(again.server, 'request')
    stuck.write(`POST /api/actions/deck.info HTTP/1.1\r\nhost: ${new URL(again.url).host}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`)
    await stuckRequested
    assert.equal(await again.close({ graceMs: 300 }), 1)
    stuck.destroy()
  })

  it('on SIGTERM commits and answers a write that had begun, then exits 0', async () => {
    // The server stops itself (SIGSTOP) inside the write, after its first file is ready (STUDIO_STALL).
    const { child, url, exited, stderr } = await spawnServe({ STUDIO_STALL: 'before-rename' })
    const revision = JSON.parse(readFileSync(join(ws.dir, 'decks', DECK, 'deck.json'), 'utf8')).revision as number
    const write = request(`${url}/api/actions/deck.rename?deck=${DECK}`, { method: 'POST', body: JSON.stringify({ name: 'Renamed while stopping', baseRevision: revision }), headers: { 'content-type': 'application/json' } })
    // Wait until the process has stopped itself mid-write.
    const state = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1][0]
    for (let i = 0; i < 600 && state() !== 'T'; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(state(), 'T', 'the server stopped inside the write')
    child.kill('SIGTERM')
    child.kill('SIGCONT')
    const answered = await write
    const text = await answered.body.text()
    assert.equal(answered.statusCode, 200, text)
    assert.equal(JSON.parse(text).revision, revision + 1)
    assert.equal(await exited, 0, stderr())
    assert.equal((await ws.git('log', '-1', '--format=%s')).trim(), `deck.rename ${DECK} r${revision + 1}`)
    assert.match(stderr(), /"msg":"stopped"/)
  })

  it('exits at once, with code 1, on a second SIGTERM during the drain, and says so', async () => {
    const served = await spawnServe({ STUDIO_SHUTDOWN_GRACE_MS: '30000' })
    const { child, exited } = served
    const url = new URL(served.url)
    const draining = new Promise<void>((resolve) => child.stderr!.on('data', () => served.stderr().includes('"msg":"draining"') && resolve()))
    // A request in flight that never finishes (its body never comes) holds the drain open.
    const stuck = connect(Number(url.port), '127.0.0.1')
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()))
    stuck.on('error', () => undefined)
    // Expect: 100-continue makes the server say when it has the request (its headers parsed): no sleeping on a guess.
    const continued = new Promise<void>((resolve) => stuck.on('data', (d) => String(d).startsWith('HTTP/1.1 100') && resolve()))
    stuck.write(`POST /api/actions/deck.info?deck=${DECK} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n{`)
    await continued
    let seen = ''
    stuck.on('data', (d) => (seen += d))
    child.kill('SIGTERM')
    await Promise.race([draining, exited.then((code) => assert.fail(`serve exited ${code} before draining; the client saw ${JSON.stringify(seen)}; its log: ${served.stderr()}`))])
    child.kill('SIGTERM')
    const err = served.stderr()
    assert.equal(await exited, 1, err)
    stuck.destroy()
    const lines = served.stderr().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    assert.ok(lines.some((l) => l.msg === 'stopped before the requests in flight finished' && l.signal === 'SIGTERM'), err)
    assert.equal(lines.some((l) => l.msg === 'stopped'), false, err)
  })
})
