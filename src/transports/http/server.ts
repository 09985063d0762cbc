/**
 * `studio serve`: plain HTTP over the action table, the discovery documents, the bundle endpoints
 * and MCP over streamable HTTP, on one node:http server. Decoding and encoding only: every rule is
 * the engine's.
 *
 * Every request passes the edge first (Host, Origin, bearer off loopback; see edge.ts), then its
 * body is read under the cap, then it is routed. Every answer carries nosniff and no-referrer;
 * API answers are no-store.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { access, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { findAction } from '../../actions/index.js'
import { defineAction, describeAction, type Action, type ActionContext } from '../../core/action.js'
import { dispatch } from '../../core/engine.js'
import { ERROR_TITLES, errorType, fail, StudioError, toStudioError } from '../../core/errors.js'
import { bool, DeckId, int, obj, openObj, opt, str } from '../../model/schema.js'
import { TRAILER_KEY } from '../../hosted/trailers.js'
import { packageRoot, type Workspace } from '../../store/workspace.js'
import { mkdirInside } from '../../store/safe-open.js'
import { deckUnpack, packDeck, unpackInto } from '../../actions/deck/bundle.js'
import { BODY_LIMIT, BUNDLE_LIMIT, checkEdge, clientAddress, isLoopbackHost, pathSegment, policyFor, readBody, type EdgePolicy } from './edge.js'
import { handlePage, isPublicPagePath, pageMethods } from './page.js'
import { accountsOn } from '../../identity/credentials.js'
import type { Caller } from '../../identity/caller.js'
import { takeCookies } from '../../identity/account.js'
import { handleShareLink, isShareLinkPath } from './share-routes.js'
import { logLine, logRequest, noteRequest } from './log.js'
import { bucket } from '../../hosted/s3.js'

export interface ServeOptions {
  ws: Workspace
  host: string
  port: number
  /** The deck calls use when they name none (else the workspace default). */
  deck?: string
  /** The deck the page opens at `/` (`studio serve --deck X`); without it `/` is the deck list. */
  openDeck?: string
  /** Static deployment bearer (STUDIO_TOKEN). Required to bind off loopback. */
  token?: string
  /** More host names to answer to (a proxy's public name). */
  allowedHosts?: string[]
  bundleLimit?: number
}

export interface RunningServer {
  url: string
  server: Server
  /**
   * Stops: readiness answers 503 at once, no new connection or request is taken (a request on a kept-alive
   * socket answers 503 shutting_down), the requests in flight finish — a write that has begun is committed
   * and answered — for up to `graceMs` (default: none, close at once), then every socket, MCP session and
   * room closes. Answers how many requests were still running at the deadline (0 when all finished).
   */
  close(options?: { graceMs?: number }): Promise<number>
}

const DECK_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * An answer the engine froze (deck.info's, kept with the deck's state) never changes, and neither do
 * its frozen members (its sections, kept while they are unchanged): each is encoded once, and the
 * answer's bytes are assembled from its members' bytes. They are exactly the bytes of
 * JSON.stringify(body, null, 2) + newline; any other answer is serialized as such.
 */
const encodedMembers = new WeakMap<object, Buffer>()
const encoded = new WeakMap<object, Buffer>()

function memberBytes(value: unknown): Buffer {
  const frozen = value !== null && typeof value === 'object' && Object.isFrozen(value)
  let bytes = frozen ? encodedMembers.get(value as object) : undefined
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(value, null, 2).replace(/\n/g, '\n  '))
    if (frozen) encodedMembers.set(value as object, bytes)
  }
  return bytes
}

export function serialize(body: unknown): string | Buffer {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !Object.isFrozen(body) || typeof (body as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(body, null, 2) + '\n'
  }
  let bytes = encoded.get(body)
  if (bytes === undefined) {
    const parts: Buffer[] = []
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue
      parts.push(Buffer.from(`${parts.length ? ',\n' : '{\n'}  ${JSON.stringify(key)}: `), memberBytes(value))
    }
    parts.push(Buffer.from(parts.length ? '\n}\n' : '{}\n'))
    encoded.set(body, (bytes = Buffer.concat(parts)))
  }
  return bytes
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const isBuffer = Buffer.isBuffer(body)
  const text = isBuffer ? body : typeof body === 'string' ? body : serialize(body)
  res.writeHead(status, {
    'content-type': isBuffer ? 'application/octet-stream' : typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}

/**
 * An error as RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status` and
 * `detail`, then the one error body's own members (`code`, `message`, `pointer`, `currentRevision`,
 * `current`, ...), so a client of either vocabulary reads it.
 */
export function problem(failure: StudioError): Record<string, unknown> {
  const { status, ...body } = failure.toJSON()
  return { type: errorType(failure.code), title: ERROR_TITLES[failure.code], status, detail: failure.message, ...body }
}

function sendError(res: ServerResponse, error: unknown): void {
  const failure = toStudioError(error)
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' }
  if (failure.extra.currentTag) headers.etag = `"${failure.extra.currentTag}"`
  if (failure.code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="studio"'
  if (failure.code === 'payload_too_large') headers.connection = 'close'
  const allow = (failure.extra.details as { allow?: string[] } | undefined)?.allow
  if (failure.code === 'method_not_allowed' && allow) headers.allow = allow.join(', ')
  const retryAfter = (failure.extra.details as { retryAfter?: number } | undefined)?.retryAfter
  if (failure.code === 'rate_limited' && retryAfter) headers['retry-after'] = String(retryAfter)
  send(res, failure.status, problem(failure), headers)
}

/** A deck's current revision from its manifest, or undefined when it cannot be read. */
async function readRevision(ws: Workspace, deck: string): Promise<number | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(ws.deckDir(deck), 'deck.json'), 'utf8')) as { revision?: unknown }
    return typeof manifest.revision === 'number' ? manifest.revision : undefined
  } catch {
    return undefined
  }
}

/** The methods each path answers (HEAD wherever GET is); undefined for a path nothing serves. */
function methodsOf(path: string): string[] | undefined {
  if (['/api/agent', '/openapi.json', '/llms.txt', '/healthz', '/readyz'].includes(path) || /^\/docs\/[a-z0-9-]+\.md$/.test(path)) return ['GET', 'HEAD']
  const page = pageMethods(path)
  if (page) return page
  if (isShareLinkPath(path)) return ['GET', 'HEAD']
  if (/^\/api\/actions\/[^/]+$/.test(path)) return ['GET', 'HEAD', 'POST']
  if (path === '/api/decks/bundle' || path === '/api/uploads') return ['POST']
  if (/^\/api\/decks\/[^/]+\/bundle$/.test(path)) return ['GET', 'HEAD']
  return undefined
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {}
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch (error) {
    fail('invalid_input', `The body is not valid JSON: ${(error as Error).message}`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', 'The body must be a JSON object holding the action input.')
  return value as Record<string, unknown>
}

/**
 * `If-Match: "<tag>"` on a write is its baseTag (the version tag an earlier answer's ETag carried);
 * a baseTag in the body wins. `*` and a read action's If-Match are ignored.
 */
function withIfMatch(action: Action, input: Record<string, unknown>, req: IncomingMessage): Record<string, unknown> {
  const header = req.headers['if-match']
  if (typeof header !== 'string' || !action.mutates || input.baseTag !== undefined) return input
  const value = header.trim()
  if (value === '*' || !value) return input
  const tag = /^"([^"]*)"$/.exec(value)?.[1]
  if (tag === undefined || !('baseTag' in ((action.input.properties as object) ?? {}))) {
    fail('invalid_input', `If-Match takes one version tag in quotes (an ETag this server sent)${tag === undefined ? '' : `; ${action.id} takes none`}.`, { pointer: '/baseTag' })
  }
  return { ...input, baseTag: tag }
}

interface CallBinding {
  deck?: string
  author?: string
  force: boolean
}

function binding(req: IncomingMessage, url: URL, fallbackDeck: string | undefined): CallBinding {
  const deck = url.searchParams.get('deck') ?? fallbackDeck
  if (deck !== undefined && deck !== null && !DECK_RE.test(deck)) fail('invalid_input', `Query deck "${deck}" is not a deck id.`, { pointer: '/deck' })
  const author = (req.headers['x-studio-author'] as string | undefined) ?? url.searchParams.get('author') ?? undefined
  const forceQuery = url.searchParams.get('force')
  const force = req.headers['x-studio-force'] === '1' || forceQuery === '' || forceQuery === 'true' || forceQuery === '1'
  return { deck: deck ?? undefined, author, force }
}

/**
 * The internal action behind POST /api/decks/bundle: unpack bytes (or a fetched URL) like deck.unpack.
 * `source` yields the bundle: the uploaded bytes, or the path of a file fetched into `.studio/tmp/`.
 */
function receiveAction(source: (ctx: ActionContext) => Promise<string | Buffer>): Action {
  return defineAction({
    id: 'deck.receive',
    label: 'Receive a bundle',
    doc: 'POST /api/decks/bundle: a pushed bundle, validated whole, then unpacked like deck.unpack.',
    group: 'deck',
    milestone: 'M4',
    mutates: true,
    transports: 'H',
    deck: { kind: 'none' },
    // It may replace any deck: with accounts, the deployment's or an administrator's.
    capability: 'admin',
    input: obj({ as: opt(DeckId), replace: opt(bool()), fromUrl: opt(str({ pattern: '^https?://' })) }),
    output: deckUnpack.output,
    cli: null,
    mcp: null,
    example: {},
    run: async (ctx: ActionContext, input: { as?: string; replace?: boolean }) => unpackInto(ctx, await source(ctx), input),
  })
}

/** GET /api/decks/<id>/changes?after=<seq>: a hosted studio's change log of one deck, for `studio deck pull`. */
const changesAction = defineAction({
  id: 'deck.changes',
  label: 'Send a change log',
  doc: "GET /api/decks/<id>/changes: a hosted studio's change log of the deck, a page at a time, with the bytes of the files each change writes (base64 by SHA-256).",
  group: 'deck',
  milestone: 'M9',
  mutates: false,
  transports: 'H',
  capability: 'download',
  deck: { kind: 'field', field: 'id' },
  input: obj({ id: DeckId, after: opt(int({ minimum: 0, description: 'The sequence number the page starts after.' })) }),
  output: openObj('The page: changes, objects, next.'),
  cli: null,
  mcp: null,
  example: { id: 'quarterly-review' },
  run: async (ctx: ActionContext, input: { id: string; after?: number }) => {
    const store = ctx.ws.store
    if (store?.engine !== 'hosted') fail('not_found', 'This studio keeps its decks in a git workspace, not a change log: pull the bundle (GET /api/decks/<id>/bundle).')
    if (!ctx.ws.deckExists(input.id)) fail('not_found', `No deck "${input.id}".`)
    return (store as import('../../hosted/deck-store.js').HostedStore).changesOf(input.id, input.after ?? 0, 200)
  },
})

/** POST /api/decks/<id>/changes: a deck new to a hosted studio, with its history (`studio deck push`). */
const receiveChangesAction = defineAction({
  id: 'deck.receiveChanges',
  label: 'Receive a change log',
  doc: "POST /api/decks/<id>/changes: a deck this hosted studio does not have, with its history: `changes` (oldest first: at, author, email, subject, trailers, files as path → SHA-256 or null) and `objects` (SHA-256 → base64), appended in one transaction once the deck they end with passes the model's checks.",
  group: 'deck',
  milestone: 'M9',
  mutates: true,
  transports: 'H',
  deck: { kind: 'none' },
  // As a pushed bundle: with accounts, the deployment's or an administrator's.
  capability: 'admin',
  input: obj({ id: DeckId, changes: { type: 'array', minItems: 1, maxItems: 100_000, items: { type: 'object' } }, objects: { type: 'object' } }),
  output: openObj('id, revision, commits.'),
  cli: null,
  mcp: null,
  example: { id: 'quarterly-review', changes: [], objects: {} },
  run: async (ctx: ActionContext, input: { id: string; changes: Record<string, unknown>[]; objects: Record<string, unknown> }) => {
    const store = ctx.ws.store
    if (store?.engine !== 'hosted') fail('not_found', 'This studio keeps its decks in a git workspace, not a change log: push the bundle (POST /api/decks/bundle).')
    const str = (v: unknown, max: number, what: string, i: number): string => {
      if (typeof v !== 'string' || v.length > max || /[\r\n]/.test(v)) fail('invalid_input', `changes[${i}].${what} must be one line of at most ${max} characters.`, { pointer: `/changes/${i}/${what}` })
      return v
    }
    const changes = input.changes.map((c, i) => {
      const at = str(c.at, 40, 'at', i)
      if (Number.isNaN(Date.parse(at))) fail('invalid_input', `changes[${i}].at is not a time.`, { pointer: `/changes/${i}/at` })
      const trailers: Record<string, string | number> = Object.create(null)
      for (const [name, value] of Object.entries((c.trailers as Record<string, unknown>) ?? {})) {
        if (!TRAILER_KEY.test(name) || (typeof value !== 'number' && (typeof value !== 'string' || /[\r\n]/.test(value)))) fail('invalid_input', `changes[${i}].trailers.${name.slice(0, 40)} is not a trailer.`, { pointer: `/changes/${i}/trailers` })
        trailers[name] = value as string | number
      }
      const files: Record<string, string | null> = Object.create(null)
      for (const [rel, sha] of Object.entries((c.files as Record<string, unknown>) ?? {})) files[rel] = sha === null ? null : str(sha, 64, 'files', i)
      return { at, subject: str(c.subject, 500, 'subject', i), author: str(c.author, 200, 'author', i), email: c.email === null || c.email === undefined ? null : str(c.email, 320, 'email', i), trailers, files }
    })
    const objects = new Map<string, Buffer>()
    for (const [sha, value] of Object.entries(input.objects)) {
      if (typeof value !== 'string') fail('invalid_input', `objects.${sha.slice(0, 64)} must be base64.`, { pointer: '/objects' })
      objects.set(sha, Buffer.from(value, 'base64'))
    }
    const landed = await (store as import('../../hosted/deck-store.js').HostedStore).appendHistory(input.id, changes, objects)
    await store.refresh(0)
    return { id: input.id, revision: landed.revision, commits: changes.length }
  },
})

const packAction = defineAction({
  id: 'deck.send',
  label: 'Send a bundle',
  doc: 'GET /api/decks/<id>/bundle: the bundle of a deck.',
  group: 'deck',
  milestone: 'M4',
  mutates: false,
  transports: 'H',
  capability: 'download',
  deck: { kind: 'field', field: 'id' },
  input: obj({ id: DeckId }),
  output: openObj('Not JSON: the bundle zip is the response body.'),
  cli: null,
  mcp: null,
  example: { id: 'welcome' },
  run: async (ctx: ActionContext, input: { id: string }) => packDeck(ctx, input.id),
})

/**
 * A bundle named by `fromUrl`, fetched through the SSRF guard (src/net/guarded-fetch.ts) and streamed
 * into `.studio/tmp/` so memory stays bounded; the file is removed when the call ends.
 */
async function fetchBundle(ctx: ActionContext, url: string, limit: number): Promise<string> {
  const { saveTo } = await import('../../net/guarded-fetch.js')
  const dir = join(ctx.ws.stateDir, 'tmp')
  mkdirInside(ctx.ws.root, dir)
  const file = join(dir, `bundle-fetch-${randomBytes(8).toString('hex')}.zip`)
  ctx.cleanup(() => rm(file, { force: true }))
  await saveTo(url, file, { limit, timeoutMs: FROM_URL_TIMEOUT_MS })
  return file
}

/** Largest bundle fetched from a URL (the upload cap does not apply; the bundle's own caps still do). */
const FROM_URL_LIMIT = 500 * 1024 * 1024
const FROM_URL_TIMEOUT_MS = 10 * 60 * 1000

/**
 * What /readyz checks: the workspace folder and its git repository can be read (a hosted instance's
 * replica), the hosted store's database answers and the replica has every change it committed, the
 * identity database answers (where accounts are on), and the server is not shutting down. Each check answers "ok" or why
 * not, in words that name no path outside the workspace and no secret.
 */
async function readiness(ws: Workspace, draining: boolean): Promise<Record<string, string>> {
  const checks: Record<string, string> = {}
  checks.serving = draining ? 'failing: shutting down' : 'ok'
  try {
    await access(ws.root, constants.R_OK | constants.W_OK)
    checks.workspace = 'ok'
  } catch {
    checks.workspace = 'failing: the workspace folder cannot be read and written'
  }
  if (!ws.embedded) {
    try {
      const head = await readFile(join(ws.git.gitDir, 'HEAD'), 'utf8')
      checks.git = /^(ref: refs\/|[0-9a-f]{40})/.test(head) ? 'ok' : 'failing: the repository\'s HEAD is not a branch or a commit'
    } catch {
      checks.git = 'failing: the git repository cannot be read'
    }
  }
  const store = ws.store
  if (store?.engine === 'hosted') {
    try {
      await (store as import('../../hosted/deck-store.js').HostedStore).status()
      const broken = (store as import('../../hosted/deck-store.js').HostedStore).broken
      checks.store = broken ? 'failing: this instance\'s replica missed a change it committed; restart it' : 'ok'
    } catch {
      checks.store = 'failing: the hosted store\'s database does not answer'
    }
  }
  if (accountsOn(ws)) {
    try {
      const { identityOf } = await import('../../identity/db.js')
      const { sql } = await import('kysely')
      const identity = await identityOf(ws)
      if (!identity) throw new Error('none')
      await sql`select 1`.execute(identity.db)
      checks.identity = 'ok'
    } catch {
      checks.identity = 'failing: the identity database does not answer'
    }
  }
  return checks
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token || undefined
  if (!isLoopbackHost(options.host) && !token) {
    fail(
      'refused',
      `Refusing to listen on ${options.host}: off loopback every request needs a bearer token, and none is configured. Set STUDIO_TOKEN (a long random secret) or bind 127.0.0.1.`,
    )
  }
  const bundleLimit = options.bundleLimit ?? (Number(process.env.STUDIO_BUNDLE_LIMIT) || BUNDLE_LIMIT)
  let policy: EdgePolicy = policyFor(options.host, options.port, token, options.allowedHosts ?? [])
  const { RoomHub } = await import('../../realtime/room.js')
  // The page's rooms (WebSocket upgrades at /api/room/<deckId>); MCP lists deck_goto_slide while one has a page.
  // On the hosted store, rooms of other instances join each roster (src/hosted/presence.ts).
  const store = options.ws.store
  const relay = store?.engine === 'hosted' ? await (await import('../../hosted/presence.js')).openPresenceRelay(store as import('../../hosted/deck-store.js').HostedStore) : undefined
  const rooms = new RoomHub({ ws: options.ws, policy: () => policy, onAttachChange: (deckId) => void mcp?.refreshTools(deckId), ...(relay ? { relay } : {}) })
  // MCP (the SDK and its schema library: ~170 modules, about as much start-up as the rest of serve) is
  // loaded by the first /mcp request; before it there is no session, so nothing to refresh or close.
  let mcp: import('../mcp/http.js').McpHttpHandler | undefined
  let mcpLoading: Promise<import('../mcp/http.js').McpHttpHandler> | undefined
  const mcpHandler = () =>
    (mcpLoading ??= import('../mcp/http.js').then(({ McpHttpHandler }) => (mcp = new McpHttpHandler({ ws: options.ws, defaultDeck: options.deck, room: rooms }))))
  const discovery = await import('./discovery.js')
  // The discovery documents depend only on the table and the address asked for: built once each.
  const documents = new Map<string, unknown>()
  const cached = <T>(key: string, build: () => T): T => {
    if (!documents.has(key)) {
      if (documents.size > 64) documents.clear()
      documents.set(key, build())
    }
    return documents.get(key) as T
  }

  // Shutting down (close()): readiness fails and new requests are refused while those in flight finish.
  let draining = false
  /** Requests being answered, but for MCP's event streams (GET /mcp), which last as long as their session. */
  const inFlight = new Set<ServerResponse>()
  let drained: (() => void) | undefined
  const server = createServer((req, res) => {
    const started = performance.now()
    const requestId = randomUUID()
    let failure: { code: string; message: string } | undefined
    res.setHeader('x-content-type-options', 'nosniff')
    res.setHeader('referrer-policy', 'no-referrer')
    res.setHeader('x-request-id', requestId)
    const pathname = (req.url ?? '').split('?', 1)[0]
    const streams = req.method === 'GET' && pathname === '/mcp'
    if (!streams) inFlight.add(res)
    res.once('close', () => {
      inFlight.delete(res)
      if (draining && inFlight.size === 0) drained?.()
      logRequest(req, res.statusCode, performance.now() - started, requestId, failure)
    })
    if (draining) res.setHeader('connection', 'close')
    // The probes still answer while draining: /readyz says 503 with its checks (serving: failing), /healthz 200.
    if (draining && pathname !== '/healthz' && pathname !== '/readyz') {
      return sendError(res, new StudioError('shutting_down', 'This studio is shutting down and takes no new request; send it again to another instance, or once it is back.'))
    }
    handle(req, res).catch((error) => {
      const known = toStudioError(error)
      if (known.status >= 500) failure = { code: known.code, message: known.message }
      if (!res.headersSent) sendError(res, error)
      else res.destroy()
    })
  })
  // An idle keep-alive socket stays open a minute (Node's default is 5 s). A client reuses a socket it
  // thinks is alive; when the server closes it in that moment (a busy client reads its last answer late),
  // the next request fails with "other side closed" before it is read. Clients that pace their calls
  // (agents, scripts, the fuzz suite on a loaded machine) stay well inside a minute.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://studio.invalid')
    const path = url.pathname
    const isBundle = path === '/api/decks/bundle' || /^\/api\/decks\/[^/]+\/bundle$/.test(path)
    const accounts = accountsOn(options.ws)
    const isAuth = path.startsWith('/auth/')
    const probe = path === '/healthz' || path === '/readyz'
    const edge = checkEdge(req, policy, { requireToken: isBundle && Boolean(token), anonymous: isPublicPagePath(path) || isAuth || isShareLinkPath(path) || probe, accounts })
    // Who the request is, where the studio has accounts (src/identity/auth.ts); undefined on a checkout.
    // The static bearer is the deployment itself (root) with or without accounts: admin.bootstrap asks for it.
    const caller: Caller | undefined = accounts
      ? await (await import('../../identity/auth.js')).authenticate(options.ws, { headers: req.headers, method: req.method, remoteAddress: clientAddress(req) }, { staticBearer: edge.staticBearer })
      : edge.staticBearer
        ? { root: true, kind: 'deployment', admin: true }
        : undefined
    // The origin the request reached (its Host passed the edge), for the /s/ links share answers hand back.
    if (caller && req.headers.host) caller.origin = `http://${req.headers.host}`
    noteRequest(req, caller ? { caller } : {})
    const base = `http://${req.headers.host}`
    const allowed = methodsOf(path)
    if (allowed && !allowed.includes(req.method ?? 'GET')) {
      fail('method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${req.method}.`, { details: { allow: allowed } })
    }
    // HEAD is answered as GET; node:http sends the headers and leaves the body out.
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')

    // Liveness and readiness (docs/hosting.md): no credential needed, nothing about any deck in them.
    if (method === 'GET' && path === '/healthz') return send(res, 200, { status: 'ok' }, { 'cache-control': 'no-store' })
    if (method === 'GET' && path === '/readyz') {
      const checks = await readiness(options.ws, draining)
      const ready = Object.values(checks).every((c) => c === 'ok')
      return send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unready', checks }, { 'cache-control': 'no-store' })
    }
    if (method === 'GET' && (await handleShareLink(req, res, path, options.ws, caller))) return
    if (path === '/mcp') {
      const bind = binding(req, url, options.deck)
      let body: unknown
      if (method === 'POST') {
        const raw = await readBody(req, BODY_LIMIT)
        try {
          body = JSON.parse(raw.toString('utf8'))
        } catch {
          // JSON-RPC: a body that is not JSON is a parse error (-32700), answered 400 with no id.
          return send(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' }, id: null })
        }
      }
      await (await mcpHandler()).handle(req, res, body, { deck: bind.deck, author: bind.author, force: bind.force, ...(caller ? { caller } : {}) })
      return
    }
    if (method === 'GET' && path === '/api/agent') return send(res, 200, cached(`agent ${base}`, () => discovery.agentManifest({ baseUrl: base, defaultDeck: options.deck })))
    if (method === 'GET' && path === '/openapi.json') return send(res, 200, cached(`openapi ${base}`, () => discovery.openApiDocument({ serverUrl: base })))
    if (method === 'GET' && path === '/llms.txt') {
      // Not cached: its examples carry the served deck's current revision.
      const deck = options.deck ?? (await options.ws.defaultDeckId().catch(() => undefined))
      const revision = deck ? await readRevision(options.ws, deck) : undefined
      return send(res, 200, discovery.llmsTxt({ baseUrl: base, deck, revision }), { 'content-type': 'text/plain; charset=utf-8' })
    }
    const doc = /^\/docs\/([a-z0-9-]+)\.md$/.exec(path)
    if (method === 'GET' && doc && discovery.SERVED_DOCS.includes(doc[1])) {
      const file = join(packageRoot(), 'docs', `${doc[1]}.md`)
      return send(res, 200, await readFile(file, 'utf8'), { 'content-type': 'text/markdown; charset=utf-8' })
    }
    const described = /^\/api\/actions\/([^/]+)$/.exec(path)
    if (described && method === 'GET') {
      const action = findAction(pathSegment(described[1]))
      if (!action || !action.transportSet.has('H')) fail('not_found', `No action "${described[1]}" on HTTP.`)
      return send(res, 200, describeAction(action))
    }
    if (described && method === 'POST') {
      const action = findAction(pathSegment(described[1]))
      if (!action || !action.transportSet.has('H')) fail('not_found', `No action "${described[1]}" on HTTP.`)
      noteRequest(req, { action: action.id })
      const input = withIfMatch(action, parseJsonObject(await readBody(req, BODY_LIMIT)), req)
      const bind = binding(req, url, options.deck)
      const { result } = await dispatch(action, input, { ws: options.ws, transport: 'H', deck: bind.deck, author: bind.author, force: bind.force, caller, assistant: () => mcp?.sampler(bind.deck) })
      const tag = (result as { tag?: unknown } | null)?.tag
      const cookies = takeCookies(caller)
      if (cookies.length) res.setHeader('set-cookie', cookies)
      return send(res, 200, result ?? null, typeof tag === 'string' ? { etag: `"${tag}"` } : {})
    }
    if (path === '/api/uploads' && method === 'POST') {
      // A presigned upload for a file too big for a request body (src/hosted/uploads.ts, docs/hosting.md).
      const uploads = await import('../../hosted/uploads.js')
      const uploader = uploads.uploaderOf(caller)
      // Not an action, so the engine's switch check does not run: the same switches and refusal, here.
      const [{ flagOn, refreshFlags }, { switchedOff }] = await Promise.all([import('../../store/flags.js'), import('../../core/switches.js')])
      await refreshFlags(options.ws)
      for (const name of ['maintenance', 'uploads'] as const) if (flagOn(options.ws, name)) switchedOff(name, 'POST /api/uploads')
      const { consumeHourly, LIMITS } = await import('../../identity/limits.js')
      await consumeHourly([[LIMITS.uploadsPerUploader, uploader]], 'Too many uploads begun')
      return send(res, 200, await uploads.presignUpload(uploader), { 'cache-control': 'no-store' })
    }
    if (path === '/api/decks/bundle' && method === 'POST') {
      const type = String(req.headers['content-type'] ?? '')
      const bind = binding(req, url, undefined)
      let input: Record<string, unknown>
      let source: (ctx: ActionContext) => Promise<string | Buffer>
      let upload: string | undefined
      if (type.startsWith('application/json')) {
        input = parseJsonObject(await readBody(req, BODY_LIMIT))
        if (typeof input.upload === 'string') {
          // A bundle the caller put in the object store by a presigned upload (POST /api/uploads).
          upload = input.upload
          delete input.upload
          const uploads = await import('../../hosted/uploads.js')
          const uploader = uploads.uploaderOf(caller)
          source = () => uploads.takeUpload(upload!, uploader, uploads.UPLOAD_LIMIT)
        } else {
          if (typeof input.fromUrl !== 'string') fail('invalid_input', 'A JSON body names the bundle with fromUrl, or with upload (a key from POST /api/uploads).', { pointer: '/fromUrl' })
          source = (ctx) => fetchBundle(ctx, input.fromUrl as string, FROM_URL_LIMIT)
        }
      } else {
        const body = await readBody(req, bundleLimit)
        input = {}
        const as = url.searchParams.get('as')
        if (as) input.as = as
        const replace = url.searchParams.get('replace')
        if (replace === '' || replace === '1' || replace === 'true') input.replace = true
        source = async () => body
      }
      const { result } = await dispatch(receiveAction(source), input, { ws: options.ws, transport: 'H', author: bind.author ?? 'agent:push', caller })
      if (upload) await (await import('../../hosted/uploads.js')).deleteUpload(upload)
      return send(res, 200, result)
    }
    const log = /^\/api\/decks\/([^/]+)\/changes$/.exec(path)
    if (log && method === 'POST') {
      const bind = binding(req, url, undefined)
      const input = { ...parseJsonObject(await readBody(req, bundleLimit)), id: pathSegment(log[1]) }
      const { result } = await dispatch(receiveChangesAction, input, { ws: options.ws, transport: 'H', author: bind.author ?? 'agent:push', caller })
      return send(res, 200, result)
    }
    if (log && method === 'GET') {
      const after = url.searchParams.get('after')
      const input = { id: pathSegment(log[1]), ...(after !== null ? { after: /^\d{1,15}$/.test(after) ? Number(after) : after } : {}) }
      const { result } = await dispatch(changesAction, input, { ws: options.ws, transport: 'H', caller })
      return send(res, 200, result)
    }
    const pull = /^\/api\/decks\/([^/]+)\/bundle$/.exec(path)
    if (pull && method === 'GET') {
      const { result } = await dispatch(packAction, { id: pathSegment(pull[1]) }, { ws: options.ws, transport: 'H', caller })
      const packed = result as { zip: Buffer; doc: { manifest: { revision: number } } }
      return send(res, 200, packed.zip, { 'content-type': 'application/zip', 'x-studio-revision': String(packed.doc.manifest.revision) })
    }
    if (isAuth && accounts && (await (await import('./auth-routes.js')).handleAuth(req, res, url, method, { ws: options.ws, send, caller, policy }))) return
    if (await handlePage(req, res, url, method, { ws: options.ws, defaultDeck: options.deck, openDeck: options.openDeck, send, caller, assistant: (deck) => mcp?.sampler(deck) })) return
    fail('not_found', `Nothing at ${method} ${path}.`)
  }

  server.on('upgrade', (req, socket, head) => rooms.handleUpgrade(req, socket, head))

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const address = server.address() as AddressInfo
  policy = policyFor(options.host, address.port, token, options.allowedHosts ?? [])
  rooms.advertise(address.port, options.host)
  // Where a bucket is set, uploads nobody took are deleted after a day (docs/hosting.md "Uploads").
  const stopSweeps = bucket()
    ? (await import('../../hosted/uploads.js')).startUploadSweeps(({ swept, error }) =>
        error ? logLine('warn', 'upload sweep failed', { error }) : logLine('info', 'uploads swept', { swept }),
      )
    : undefined
  // A hosted store's objects no change names (refused and killed writes' bytes) go after a day (docs/hosting.md).
  const hosted = options.ws.store?.engine === 'hosted' ? (options.ws.store as import('../../hosted/deck-store.js').HostedStore) : undefined
  const stopObjectSweeps = hosted
    ? (await import('../../hosted/sweep.js')).startObjectSweeps(hosted.pool, ({ swept, error }) =>
        error ? logLine('warn', 'object sweep failed', { error }) : logLine('info', 'objects swept', { swept }),
      )
    : undefined
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: async ({ graceMs = 0 } = {}) => {
      draining = true
      stopSweeps?.()
      stopObjectSweeps?.()
      // No new connection from here; idle kept-alive sockets go now, busy ones after their answer.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections?.()
      if (inFlight.size > 0 && graceMs > 0) {
        logLine('info', 'draining', { inFlight: inFlight.size, graceMs })
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())])
      }
      const unfinished = inFlight.size
      await rooms.close()
      if (mcpLoading) await (await mcpLoading).closeAll()
      server.closeAllConnections?.()
      await closed
      return unfinished
    },
  }
}
