/**
 * The contract test: generated from the table, it walks every implemented action offered on more
 * than one of the command line, MCP and HTTP, and holds that they behave identically (the page's
 * window transport too, `POST /api/window/<id>`, for the actions offered in the page):
 *
 * - the HTTP operation, the MCP tool and the CLI command exist, with the table's input schema;
 * - the action's example succeeds on each, from identical copies of a new user's workspace (`studio init`,
 *   `studio deck create "Quarterly review"`, through the real CLI) after the action's given steps,
 *   with the same result and the same number of commits; each given step leaves the revision it names;
 * - that result validates against the action's output schema on each transport (the schema MCP
 *   declares as `outputSchema` and OpenAPI as the 200 response);
 * - the example plus an unknown member gives unknown_field with the same pointer on each;
 * - for actions taking baseRevision, a stale one gives 409 stale_revision on each.
 *
 * New actions are covered the day they are implemented: their example must work on a new deck after
 * their given steps (src/actions/given.ts). The refusals run against the fixture (test/helpers/fixture.ts),
 * at revision 3, where every example's baseRevision 0 is stale. The examples no longer run there: written
 * for the new deck, their revisions are not the fixture's.
 *
 * The walk is split into parts (PARTS: action id prefixes), one test file each
 * (`test/contract/<part>.contract.test.ts` calls `contract('<part>')`), so the test runner spreads them
 * over its workers; parts.contract.test.ts holds that the parts cover every covered action exactly
 * once and that each part has its file.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import type { Action } from '../../src/core/action.js'
import { ERROR_CODES } from '../../src/core/errors.js'
import { AJV_OPTIONS } from '../../src/core/validate.js'
import { parseForm } from '../../src/transports/cli/form.js'
import { openApiDocument } from '../../src/transports/http/discovery.js'
import { runChecked } from '../helpers/spawner.js'
import { BIN, ROOT, serve, studio, type Served } from '../helpers/studio.js'
import { FIXTURE_DECK, fixtureWorkspace, FIXTURE_REVISION, newUserWorkspace, USER_PHOTO } from '../helpers/fixture.js'

/** One author on every transport, so results that name the author (a lease, a version) compare equal. */
const AUTHOR = 'agent:contract'

// CommonJS modules under NodeNext: the class and the plugin are the default exports' `default`.
const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule
const addFormats = ((addFormatsModule as unknown as { default: unknown }).default ?? addFormatsModule) as (ajv: unknown) => void
const ajv = new (Ajv as unknown as new (options: object) => import('ajv').default)(AJV_OPTIONS)
addFormats(ajv)
const resultChecks = new Map<string, import('ajv').ValidateFunction>()

/** A successful result, exactly as the transport answered it, holds to the action's output schema. */
function conforms(action: Action, transport: string, result: unknown): void {
  let check = resultChecks.get(action.id)
  if (!check) resultChecks.set(action.id, (check = ajv.compile(action.output)))
  assert.ok(check(result), `${action.id} on ${transport}: the result does not fit its output schema: ${ajv.errorsText(check.errors)}\n${JSON.stringify(result).slice(0, 400)}`)
}

type Outcome = { ok: true; result: unknown } | { ok: false; status: number; code: string; pointer?: string }

/**
 * Actions the spec refuses on a workspace without an identity database, so their example cannot run on
 * a new user's checkout; their own tests hold them (the caller's account and its keys, and
 * admin.bootstrap, which needs the static bearer: test/e2e/auth.e2e.test.ts and roles.e2e.test.ts;
 * admin.avatar.sweep: test/e2e/people.e2e.test.ts; admin.migrateStorage, which needs a hosted store's
 * PostgreSQL and bucket: test/e2e/migrate-storage.e2e.test.ts).
 */
const ACCOUNTS_ONLY: ReadonlySet<string> = new Set(['account.me', 'account.sessions', 'account.signOut', 'account.tokens.create', 'account.tokens.list', 'account.tokens.revoke', 'admin.bootstrap', 'admin.avatar.sweep', 'admin.migrateStorage'])

/** The actions the contract walks: implemented, and offered on two or more of C, M, H. */
/**
 * Actions that answer only where the workspace has accounts (an identity database): the share group,
 * admin.assignOwner and the account group but account.decks refuse on the contract's checkout, and
 * admin.bootstrap answers the command line and a network caller differently by design.
 * test/e2e/share.e2e.test.ts and test/e2e/auth.e2e.test.ts walk them on a studio with accounts instead.
 */
export const needsAccounts = (a: Action) => a.group === 'share' || a.id === 'admin.assignOwner' || a.id === 'admin.bootstrap' || (a.group === 'account' && a.id !== 'account.decks')
export const covered = ACTIONS.filter((a) => a.implemented && !needsAccounts(a) && !ACCOUNTS_ONLY.has(a.id) && ['C', 'M', 'H'].filter((t) => a.transportSet.has(t as 'C')).length >= 2)

/**
 * Results compared across transports: times and workspace paths vary by copy, nothing else may. A
 * version tag folds the deck's bytes together, its stamps' times included, so it varies with them.
 */
function normalize(value: unknown, root: string, key?: string): unknown {
  if (typeof value === 'string' && (key === 'tag' || key === 'currentTag') && /^[0-9a-f]{24}$/.test(value)) return '<tag>'
  if (typeof value === 'string') {
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return '<time>'
    return value.split(root).join('<ws>')
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v, root))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, root, k)]))
  return value
}

/**
 * Git, started by the small shell of test/helpers/spawner.ts: a process started from this one (large,
 * with the whole table loaded) costs this one more CPU than the git it runs.
 */
const git = (dir: string, ...args: string[]) => runChecked('git', args, { cwd: dir })
/**
 * Git commands run one after the other by one shell, stopping at the first that fails. `$1`, `$2`, ...
 * in the script are `args`.
 */
const gitScript = (dir: string, script: string, ...args: string[]) => runChecked('sh', ['-ec', script, 'sh', ...args], { cwd: dir })
/**
 * A workspace's commits and every change to its deck files (`.studio/`, git-ignored, holds caches
 * that reads refresh).
 */
async function commitsAndStatus(dir: string): Promise<{ commits: number; status: string }> {
  const out = await gitScript(dir, 'git rev-list --count HEAD; git status --porcelain --untracked-files=all')
  const newline = out.indexOf('\n')
  return { commits: Number(out.slice(0, newline)), status: out.slice(newline + 1) }
}
/** Puts a copy back to a commit, its git-ignored files included and the user's photo kept; answers the commits it had before. */
const putBack = async (dir: string, commit: string) =>
  Number(await gitScript(dir, 'git rev-list --count HEAD; git reset -q --hard "$1"; git clean -q -f -d -x -e "$2"', commit, `/${USER_PHOTO}`))

/**
 * Examples that fetch a page (asset.capture's https://example.com/pricing) run against a page on
 * loopback instead, which the guard's test switch lets through on every transport: the machines the
 * suite runs on reach no public host.
 */
let pageOrigin = ''
const NETWORKED = new Set(['asset.capture'])
const exampleOf = (action: Action): Record<string, unknown> =>
  NETWORKED.has(action.id) ? { ...action.example, url: `${pageOrigin}${new URL(String(action.example!.url)).pathname}` } : action.example!
/**
 * The networked examples' environment: the loopback page let through, and the capture's time budget
 * (30 s by default) raised to 5 minutes, a user's setting too: beside another heavy test file on two
 * cores a capture can take longer than 30 s, and the contract holds outcomes, not times.
 */
const FETCH_ALLOWED = { STUDIO_FETCH_ALLOW_PRIVATE: '127.0.0.1', STUDIO_CAPTURE_TIMEOUT_MS: '300000' }
const envOf = (action: Action): Record<string, string> => (NETWORKED.has(action.id) ? FETCH_ALLOWED : {})

/**
 * Examples a rule refuses for the contract's caller, an agent (`agent:contract`) on every transport:
 * presence.follow is refused for agents (spec: "refused for ... agents"). The contract then holds that
 * every transport refuses it the same way.
 */
const REFUSED_FOR_AGENTS = new Map<string, { status: number; code: string }>([['presence.follow', { status: 403, code: 'forbidden' }]])

/**
 * The stand-in for a language model (none runs here): an OpenAI-compatible chat completion on the
 * loopback page server (STUDIO_ASSIST_URL of the scratch and staging servers), answering speaker notes
 * for the first slide the request lists. assist.propose's own client, checks and storage are real.
 */
function assistantAnswer(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  let body = ''
  req.on('data', (d) => (body += d))
  req.on('end', () => {
    const user = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? ''
    const slideId = /^Slide (\S+) \(layout/m.exec(user)?.[1] ?? 'none'
    const proposal = { summary: 'Speaker notes for the slide.', slides: [{ slideId, mutations: [{ kind: 'notes.set', notes: 'Costs fell by half; margins grew.' }] }] }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'stand-in', choices: [{ message: { role: 'assistant', content: JSON.stringify(proposal) } }] }))
  })
}

/**
 * The CLI: the example in a process of its own, as a user runs it (started by the small shell of
 * test/helpers/spawner.ts, its output in files); a refusal in the file's shared CLI process (test/helpers/studio.ts).
 */
async function viaCli(dir: string, action: Action, input: Record<string, unknown>, refusal = false): Promise<Outcome> {
  const r = await studio(dir, [...parseForm(action.cli!).path, '--input', JSON.stringify(input), '--json'], { env: { STUDIO_AUTHOR: AUTHOR, ...envOf(action) }, oneProcess: refusal, viaShell: !refusal })
  if (r.code === 0) {
    conforms(action, 'the CLI', r.json)
    return { ok: true, result: normalize(r.json, dir) }
  }
  const expectedExit = ERROR_CODES[r.json.code as keyof typeof ERROR_CODES]?.[1]
  assert.equal(r.code, expectedExit, `${action.id}: CLI exit code ${r.code} for ${r.json.code}`)
  return { ok: false, status: r.json.status, code: r.json.code, pointer: r.json.pointer }
}

/**
 * HTTP (`POST /api/actions/<id>`) or the page's window transport on the same server
 * (`POST /api/window/<id>`; without a tab id the call is like any other).
 */
async function viaRoute(route: 'actions' | 'window', server: Served, dir: string, action: Action, input: Record<string, unknown>): Promise<Outcome> {
  const response = await request(`${server.url}/api/${route}/${action.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-studio-author': AUTHOR },
    body: JSON.stringify(input),
  })
  const json = (await response.body.json()) as any
  if (response.statusCode === 200) {
    conforms(action, route === 'actions' ? 'HTTP' : 'the window transport', json)
    return { ok: true, result: normalize(json, dir) }
  }
  assert.equal(json.status, response.statusCode)
  return { ok: false, status: json.status, code: json.code, pointer: json.pointer }
}

const viaHttp = (server: Served, dir: string, action: Action, input: Record<string, unknown>) => viaRoute('actions', server, dir, action, input)
const viaWindow = (server: Served, dir: string, action: Action, input: Record<string, unknown>) => viaRoute('window', server, dir, action, input)

/**
 * A `studio mcp` on a copy of the fixture, started on its deck: a session started without one moves
 * to the deck it creates (deck_create), and the scratch sessions live through every example.
 */
async function mcpClient(dir: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'contract', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--deck', FIXTURE_DECK, '--author', AUTHOR], stderr: 'ignore', env: { ...getDefaultEnvironment(), ...env } }))
  return client
}

async function viaMcp(client: Client, dir: string, action: Action, input: Record<string, unknown>): Promise<Outcome> {
  let r: { isError?: boolean; structuredContent?: any }
  try {
    // Renders and exports can take long on a loaded machine: the SDK gives up after 60 s by default.
    r = (await client.callTool({ name: action.mcp!, arguments: input }, undefined, { timeout: 600_000 })) as typeof r
  } catch (error) {
    // Every failure of a known tool, input validation included, is a tool result with isError: a JSON-RPC error is a protocol fault.
    assert.ok(!(error instanceof McpError && error.code === ErrorCode.InvalidParams), `${action.id}: -32602 instead of an isError result: ${String(error)}`)
    throw error
  }
  if (!r.isError) {
    conforms(action, 'MCP', r.structuredContent)
    return { ok: true, result: normalize(r.structuredContent, dir) }
  }
  const text = (r as { content?: { type: string; text?: string }[] }).content?.[0]?.text
  assert.deepEqual(JSON.parse(text ?? 'null'), r.structuredContent, `${action.id}: the isError result's text is the error body`)
  return { ok: false, status: r.structuredContent.status, code: r.structuredContent.code, pointer: r.structuredContent.pointer }
}

/**
 * The parts of the contract, one test file each, by action id prefix (the part of the id before the
 * dot), sized so that no file runs much over a minute and a half alone. A new prefix belongs in one
 * part: the guard (parts.contract.test.ts) fails until it is.
 */
export const PARTS: Readonly<Record<string, readonly string[]>> = {
  deck: ['deck', 'template', 'section', 'theme', 'validate', 'version', 'diff'],
  slide: ['slide', 'diagram', 'presence', 'admin', 'account'],
  block: ['block', 'comment', 'assist', 'notification', 'activity'],
  text: ['text', 'table', 'chart', 'picture'],
  media: ['asset', 'logo', 'material'],
  render: ['shader', 'render', 'export', 'build', 'font'],
}

/** The prefix an action is filed under in PARTS: `slide` for slide.insert. */
export const prefixOf = (action: Action) => action.id.slice(0, action.id.indexOf('.'))

/** The covered actions of one part. */
export function actionsOf(part: string): Action[] {
  const prefixes = PARTS[part]
  if (!prefixes) throw new Error(`no contract part ${part}`)
  return covered.filter((action) => prefixes.includes(prefixOf(action)))
}

/** Declares the contract's tests for the covered actions of one part of PARTS. */
export function contract(part: string): void {
  const actions = actionsOf(part)
  describe(`one contract for the command line, MCP and HTTP: ${PARTS[part].join(', ')}`, () => {
    contractTests(actions)
  })
}

type Transport = 'C' | 'M' | 'H' | 'P'

/** Runs one after the other, in the given order. */
async function inSequence<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (const item of items) out.push(await run(item))
  return out
}

/** Settles every promise, then rethrows the first failure in the given order (so no server is left running). */
async function allInOrder<T>(promises: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises)
  for (const s of settled) if (s.status === 'rejected') throw s.reason
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value)
}

/**
 * The tests of one part. The example runs on each transport from a new user's workspace after the
 * action's given steps, the transports side by side, each in a copy kept for the whole file and put
 * back to the new user's commit after each run (`git reset --hard`, `git clean -fdx`, `.studio/`
 * included, the user's photo kept): the CLI a process per call in a copy of its own; MCP through one
 * `studio mcp` in another; HTTP and then the window transport through one `studio serve` in a third,
 * so the long-lived processes also show that they follow a checkout moved under them (and the window
 * transport that it answers as HTTP did on the same server). The commits an example made are counted
 * from the count of the commit it started at, known once per start. The given steps run
 * once per distinct list, over HTTP in one more copy (`staging`, its own `studio serve`); every other
 * copy borrows staging's objects (git alternates) and checks out the commit they left. The refusals
 * (unknown member, stale revision) commit nothing, so they all run against one more copy, through a
 * server and a client of its own (the CLI's through the file's one CLI process, see `cliInOneProcess`);
 * that copy's commits and `git status` are held unchanged by each action's refusals.
 */
function contractTests(actions: Action[]): void {
  let fixture: string
  let cleanup: () => void
  let page: Server | undefined
  /** The copy the refusals run against, its server and its MCP client. */
  let shared: string
  let sharedServer: Served | undefined
  let sharedClient: Client | undefined
  /** The copies the examples run in, one per transport, with the client or server of each. */
  const scratch = new Map<Transport, { dir: string; server?: Served; client?: Client }>()
  /** The new user's workspace and its commit; staging, where given steps run, and its server. */
  let newUser: string
  let newUserHead: string
  let staging: string
  let stagingServer: Served | undefined
  /** The commit each distinct given list leaves in staging, by its JSON. */
  const givenHeads = new Map<string, string>()
  const copies: string[] = []
  const copy = async (from = fixture) => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-contract-'))
    copies.push(dir)
    await cp(from, dir, { recursive: true })
    return dir
  }
  /** A copy of the new user's workspace that can check out any commit staging made. */
  const newUserCopy = async () => {
    const dir = await copy(newUser)
    writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), join(staging, '.git', 'objects') + '\n')
    return dir
  }

  before(async () => {
    page = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/chat/completions') return assistantAnswer(req, res)
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Pricing</title><body style="margin:0;background:#f4efe6;font:48px sans-serif"><h1>Pricing</h1></body>')
    })
    await new Promise<void>((resolve) => page!.listen(0, '127.0.0.1', () => resolve()))
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
    const ws = await fixtureWorkspace({ contract: true })
    fixture = ws.dir
    cleanup = ws.cleanup
    const [info, validated] = await Promise.all([studio(fixture, ['info', '--json']), studio(fixture, ['validate', '--json'])])
    assert.equal(info.json.revision, FIXTURE_REVISION)
    assert.equal(validated.json.valid, true)
    const made = await newUserWorkspace()
    copies.push(made.dir)
    newUser = made.dir
    const newInfo = await studio(newUser, ['info', '--json'])
    assert.deepEqual([newInfo.json.id, newInfo.json.revision, newInfo.json.sections], ['quarterly-review', 0, [{ id: 'main', title: 'Main', slides: [{ id: 'title-1', title: 'Quarterly review' }] }]])
    newUserHead = (await git(newUser, 'rev-parse', 'HEAD')).trim()
    staging = await copy(newUser)
    const [c, m, h] = await Promise.all([newUserCopy(), newUserCopy(), newUserCopy()])
    shared = await copy()
    // Stopped in after(); the TTL only bounds a run that dies before it. The scratch servers and client
    // let the networked examples reach the loopback page; the shared ones, for refusals, do not. They
    // keep their Chromium between examples until they stop (a server's keep period, which a user sets the
    // same way), where the default 30 s would relaunch it after each slow CLI example of a loaded run.
    const scratchEnv = { ...FETCH_ALLOWED, STUDIO_BROWSER_IDLE_MS: '3600000', STUDIO_ASSIST_URL: pageOrigin }
    const [server, client, mcp, http, given] = await Promise.all([
      serve(shared, [], { ttl: 3600 }),
      mcpClient(shared),
      mcpClient(m, scratchEnv),
      serve(h, [], { ttl: 3600, env: scratchEnv }),
      serve(staging, [], { ttl: 3600, env: { STUDIO_ASSIST_URL: pageOrigin } }),
    ])
    ;[sharedServer, sharedClient, stagingServer] = [server, client, given]
    scratch.set('C', { dir: c }).set('M', { dir: m, client: mcp }).set('H', { dir: h, server: http }).set('P', { dir: h, server: http })
  })
  after(async () => {
    const all = [...scratch.values(), { server: sharedServer, client: sharedClient }, { server: stagingServer }]
    await Promise.all(all.map((s) => s.client?.close()))
    await Promise.all(all.map((s) => s.server?.stop()))
    page?.close()
    cleanup?.()
    for (const dir of copies) rmSync(dir, { recursive: true, force: true })
  })

  it('declares the same input schema on the HTTP operation, the MCP tool and the CLI command', async () => {
    const openapi = openApiDocument() as any
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
    const tools = new Map((await sharedClient!.listTools()).tools.map((t) => [t.name, t]))
    for (const action of actions) {
      if (action.transportSet.has('H')) {
        const body = openapi.paths[`/api/actions/${action.id}`]?.post?.requestBody?.content?.['application/json']?.schema
        assert.deepEqual(body, action.input, `${action.id}: OpenAPI request schema`)
      }
      if (action.mcp) assert.deepEqual(tools.get(action.mcp)?.inputSchema, action.input, `${action.id}: MCP inputSchema`)
      if (action.cli) assert.ok(manifest.commands[parseForm(action.cli).path.join(':')], `${action.id}: CLI command`)
    }
  })

  /**
   * The commit a new user's workspace is at after the action's given steps: they run over HTTP in
   * staging, once per distinct list, and each must succeed and leave the revision it names.
   */
  async function givenHead(action: Action): Promise<string> {
    if (!action.given?.length) return newUserHead
    const key = JSON.stringify(action.given)
    const known = givenHeads.get(key)
    if (known) return known
    await putBack(staging, newUserHead)
    for (const [i, step] of action.given.entries()) {
      const stepAction = ACTIONS.find((a) => a.id === step.action)
      assert.ok(stepAction?.implemented && stepAction.transportSet.has('H'), `${action.id}: given step ${i} names ${step.action}, not an implemented HTTP action`)
      const done = await viaHttp(stagingServer!, staging, stepAction, step.input)
      assert.ok(done.ok, `${action.id}: given step ${i} (${step.action}) fails on a new deck: ${JSON.stringify(done)}`)
      const info = await viaHttp(stagingServer!, staging, ACTIONS.find((a) => a.id === 'deck.info')!, {})
      assert.equal((info as { result: { revision: number } }).result.revision, step.revision, `${action.id}: given step ${i} (${step.action}) leaves another revision than it names`)
    }
    const head = (await git(staging, 'rev-parse', 'HEAD')).trim()
    givenHeads.set(key, head)
    return head
  }

  /**
   * The examples on every transport, side by side except the window transport's, which runs after
   * HTTP's on the same server and copy.
   */
  function examplesSideBySide(transports: readonly Transport[], action: Action, input: Record<string, unknown>, start: string) {
    const runs = new Map<Transport, Promise<{ outcome: Outcome; delta: number }>>()
    for (const t of transports) {
      const http = t === 'P' ? runs.get('H') : undefined
      const next = () => example(t, action, input, start)
      runs.set(t, http ? http.then(next, next) : next())
    }
    return [...runs.values()]
  }

  /**
   * The commits in the history of a commit staging made, counted once: every copy that starts an
   * example from it has exactly that many before the example runs.
   */
  const startCounts = new Map<string, Promise<number>>()
  const commitsAt = (commit: string) => {
    let known = startCounts.get(commit)
    if (!known) startCounts.set(commit, (known = git(staging, 'rev-list', '--count', commit).then((out) => Number(out.trim()))))
    return known
  }

  /** The example on one transport, from the commit the given steps left: its outcome and the commits it made. */
  async function example(t: Transport, action: Action, input: Record<string, unknown>, start: string): Promise<{ outcome: Outcome; delta: number }> {
    const { dir, server, client } = scratch.get(t)!
    // The copy is clean and at the new user's commit: the last run's finally put it back.
    if (start !== newUserHead) await git(dir, 'reset', '-q', '--hard', start)
    let outcome: Outcome
    try {
      if (t === 'C') outcome = await viaCli(dir, action, input)
      else if (t === 'M') outcome = await viaMcp(client!, dir, action, input)
      else outcome = await (t === 'H' ? viaHttp : viaWindow)(server!, dir, action, input)
    } catch (error) {
      await putBack(dir, newUserHead)
      throw error
    }
    const after = await putBack(dir, newUserHead)
    return { outcome, delta: after - (await commitsAt(start)) }
  }

  /**
   * The shared copy's commits and `git status`, as the last action's refusals left them: each action's
   * are held to the state the action before left, measured once between the two.
   */
  let sharedState: { commits: number; status: string } | undefined
  const measureShared = () => commitsAndStatus(shared)

  /**
   * A refusal on one transport, against the shared copy. The shared server and client run without
   * envOf's fetch allowance: an input refused by its schema or its revision never reaches a fetch.
   */
  function refusal(t: Transport, action: Action, input: Record<string, unknown>): Promise<Outcome> {
    if (t === 'C') return viaCli(shared, action, input, true)
    if (t === 'M') return viaMcp(sharedClient!, shared, action, input)
    return (t === 'H' ? viaHttp : viaWindow)(sharedServer!, shared, action, input)
  }

  for (const action of actions) {
    it(`${action.id}: the example succeeds with a result fitting its schema, same outcome, same unknown_field, same 409 on ${[...action.transportSet].join(' ')}`, async () => {
      const transports = (['C', 'M', 'H', 'P'] as const).filter((t) => action.transportSet.has(t) && (t !== 'M' || action.mcp) && (t !== 'C' || action.cli))
      // Comment writes take the comments revision and never refuse a stale one (their deck is locked, not guarded).
      const takesRevision = 'baseRevision' in ((action.input.properties as object) ?? {}) && !(action.deck?.kind === 'current' && action.deck.guard === false)
      const input = exampleOf(action)
      const staleInput = { ...input, baseRevision: 0 }
      const badInput = { ...input, zzUnknownMember: 1 }
      // Measured again when the action before did not get to its end.
      const known = sharedState
      sharedState = undefined
      const [sharedBefore, start] = await Promise.all([known ?? measureShared(), givenHead(action)])
      const refusalsOn = (t: Transport) => {
        const inputs = [badInput, ...(takesRevision ? [staleInput] : [])]
        // The CLI's one after the other, so both run in its shared process; the servers take theirs side by side.
        return t === 'C' ? inSequence(inputs, (i) => refusal(t, action, i)) : allInOrder(inputs.map((i) => refusal(t, action, i)))
      }
      const [refused, ran] = await Promise.all([
        allInOrder(transports.map(refusalsOn)),
        // A page capture starts a Chromium per transport and has a time budget: one at a time, so three
        // captures side by side on a loaded machine do not run out of it.
        NETWORKED.has(action.id) ? inSequence(transports, (t) => example(t, action, input, start)) : allInOrder(examplesSideBySide(transports, action, input, start)),
      ])
      const unknown = Object.fromEntries(transports.map((t, i) => [t, refused[i][0]]))
      const stale = Object.fromEntries(transports.map((t, i) => [t, refused[i][1]]))
      const outcomes = Object.fromEntries(transports.map((t, i) => [t, ran[i].outcome]))
      const deltas = Object.fromEntries(transports.map((t, i) => [t, ran[i].delta]))
      // A refusal writes nothing: no commit, no change to the shared copy's files.
      const sharedAfter = await measureShared()
      assert.equal(sharedAfter.commits, sharedBefore.commits, `${action.id}: a refusal committed`)
      assert.equal(sharedAfter.status, sharedBefore.status, `${action.id}: a refusal changed files`)
      sharedState = sharedAfter
      const [first, ...rest] = transports
      // The example is the action's documentation: it must work as written on a new deck after its given steps.
      const refusalForAgents = REFUSED_FOR_AGENTS.get(action.id)
      if (refusalForAgents) assert.deepEqual(outcomes[first], { ok: false, status: refusalForAgents.status, code: refusalForAgents.code, pointer: '/clientId' }, `${action.id}: refused for an agent`)
      else assert.ok(outcomes[first].ok, `${action.id}: the example fails on ${first}: ${JSON.stringify(outcomes[first])}`)
      for (const t of rest) {
        assert.deepEqual(outcomes[t], outcomes[first], `${action.id}: ${t} vs ${first} outcome`)
        assert.equal(deltas[t], deltas[first], `${action.id}: commits on ${t} vs ${first}`)
      }
      for (const t of transports) {
        assert.deepEqual(unknown[t], { ok: false, status: 400, code: 'unknown_field', pointer: '/zzUnknownMember' }, `${action.id} on ${t}`)
        if (takesRevision) {
          assert.equal((stale[t] as { code?: string }).code, 'stale_revision', `${action.id} on ${t}: ${JSON.stringify(stale[t])}`)
          assert.equal((stale[t] as { status?: number }).status, 409)
        }
      }
      // One accepted write is at most one commit (a lease, or a write that changes nothing, makes none).
      assert.ok(deltas[first] <= 1, `${action.id}: ${deltas[first]} commits`)
      if (!action.mutates) assert.equal(deltas[first], 0, `${action.id}: a read committed`)
    })
  }
}
