/**
 * Fencing: a writer that stalls past its lock's staleness (SIGSTOP at a named point of its write, see
 * src/store/fault.ts) while a second writer with the same baseRevision takes the deck over, then goes on.
 * Exactly one of the two is acknowledged, HEAD holds it, the working tree is HEAD's and git fsck is clean;
 * over the CLI, HTTP and MCP, and with the stall before the first rename, inside the commit and inside repair.
 * The stalled writer is a process of its own; the second writer and the checks after run in the file's CLI
 * host when it is free (`oneProcess`): another process all the same, which is all the race needs.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { BIN, commitCount, serve, studio, workspaceWithDeck, type TestWorkspace } from '../helpers/studio.js'

/** Whether a process is stopped (state T in /proc/<pid>/stat). */
function stopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'T'
  } catch {
    return false
  }
}

async function untilStopped(pid: number, what: string): Promise<void> {
  for (let waited = 0; !stopped(pid); waited += 20) {
    if (waited > 60_000) throw new Error(`${what} never reached its stall point`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The outcome of a write: acknowledged, or refused with its status (409 for both kinds of refusal here). */
interface Outcome {
  acknowledged: boolean
  status?: number
  code?: string
  detail: string
}

interface Stalled {
  pid: number
  outcome: Promise<Outcome>
  close: () => Promise<void>
}

/** The CLI form of the racing write: a rename (one file rewritten) unless the case names another. */
type CliWrite = (name: string) => string[]
const rename: CliWrite = (name) => ['deck', 'rename', name, '--rev', '0', '--json']

/** A deck.rename to `name` at revision 0 (or `write` over the CLI) that stops itself at `point`, over one transport. */
async function stalledWriter(ws: TestWorkspace, transport: 'CLI' | 'HTTP' | 'MCP', point: string, name: string, write: CliWrite): Promise<Stalled> {
  const env = { STUDIO_STALL: point }
  if (transport === 'CLI') {
    const child = spawn(process.execPath, [BIN, ...write(name)], { cwd: ws.dir, env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    const outcome = new Promise<Outcome>((resolve) =>
      child.on('close', (code) => {
        let json: any
        try {
          json = JSON.parse(out.slice(out.indexOf('{')))
        } catch {
          json = undefined
        }
        resolve({ acknowledged: code === 0, status: json?.status, code: json?.code, detail: `exit ${code}: ${out}` })
      }),
    )
    return { pid: child.pid!, outcome, close: async () => void (await outcome) }
  }
  const server = await serve(ws.dir, [], { env })
  if (transport === 'HTTP') {
    const outcome = fetch(`${server.url}/api/actions/deck.rename`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, baseRevision: 0 }) }).then(async (res) => {
      const body = await res.json()
      return { acknowledged: res.status === 200, status: res.status, code: body.code, detail: `${res.status}: ${JSON.stringify(body).slice(0, 400)}` }
    })
    return { pid: server.pid, outcome, close: server.stop }
  }
  const client = new Client({ name: 'fencing-e2e', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
  const outcome = client.callTool({ name: 'deck_rename', arguments: { name, baseRevision: 0 } }).then((result: any) => {
    const error = result.isError ? result.structuredContent : undefined
    return { acknowledged: !result.isError, status: error?.status, code: error?.code, detail: JSON.stringify(result).slice(0, 400) }
  })
  return {
    pid: server.pid,
    outcome,
    close: async () => {
      await client.close().catch(() => undefined)
      await server.stop()
    },
  }
}

/** Runs the race and checks its end: exactly one acknowledged, HEAD and the working tree hold it, fsck clean. */
async function race(
  transport: 'CLI' | 'HTTP' | 'MCP',
  point: string,
  options: { prepare?: (ws: TestWorkspace) => Promise<void>; write?: CliWrite; winner?: (head: any, name: string) => void } = {},
): Promise<{ first: Outcome; second: Outcome }> {
  const write = options.write ?? rename
  const holds = options.winner ?? ((head: any, name: string) => assert.equal(head.title, name, 'HEAD holds the acknowledged write'))
  const ws = await workspaceWithDeck('Fenced')
  let writer: Stalled | undefined
  try {
    await options.prepare?.(ws)
    const commitsBefore = await commitCount(ws.git)
    writer = await stalledWriter(ws, transport, point, 'First writer', write)
    await untilStopped(writer.pid, `the ${transport} writer`)
    // The stalled writer's lock goes stale after 3 s; the second writer waits that out and takes over.
    const secondRun = await studio(ws.dir, write('Second writer'), { oneProcess: true })
    const second: Outcome = { acknowledged: secondRun.code === 0, status: secondRun.json?.status, code: secondRun.json?.code, detail: `exit ${secondRun.code}: ${secondRun.stdout}${secondRun.stderr}` }
    process.kill(writer.pid, 'SIGCONT')
    const first = await writer.outcome
    await writer.close()
    writer = undefined

    assert.equal(Number(first.acknowledged) + Number(second.acknowledged), 1, `exactly one acknowledged:\nfirst ${first.detail}\nsecond ${second.detail}`)
    const refused = first.acknowledged ? second : first
    assert.equal(refused.status, 409, `the refusal is a 409: ${refused.detail}`)
    const winner = first.acknowledged ? 'First writer' : 'Second writer'
    assert.equal(await commitCount(ws.git), commitsBefore + 1, 'one new commit')
    const head = JSON.parse(await ws.git('show', `HEAD:decks/${ws.deckId}/deck.json`))
    holds(head, winner)
    assert.equal(head.revision, 1)
    const info = await studio(ws.dir, ['info', '--json'], { oneProcess: true })
    holds(info.json, winner)
    assert.equal((await ws.git('status', '--porcelain')).trim(), '', 'the working tree is HEAD')
    await ws.git('fsck', '--full', '--strict')
    // The deck goes on: the next write from the acknowledged revision lands.
    const next = await studio(ws.dir, ['deck', 'rename', 'After', '--rev', '1', '--json'], { oneProcess: true })
    assert.equal(next.code, 0, next.stdout + next.stderr)
    return { first, second }
  } finally {
    if (writer) {
      process.kill(writer.pid, 'SIGCONT')
      await writer.close().catch(() => undefined)
    }
    ws.cleanup()
  }
}

/** A new slide: a file added (and the manifest rewritten). */
const newSlide: CliWrite = () => ['slide', 'new', '--layout', 'title-body', '--rev', '0', '--json']

/** Leaves the journal of a new slide killed after its files were written and before its commit. */
async function crashedWrite(ws: TestWorkspace): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...newSlide('')], { cwd: ws.dir, env: { ...process.env, STUDIO_FAULT: 'after-write', STUDIO_ROOT: '' }, stdio: 'ignore' })
  await new Promise((resolve) => child.on('exit', resolve))
}

describe('a writer stalled past its lock while another takes the deck over', { concurrency: 3 }, () => {
  for (const transport of ['CLI', 'HTTP', 'MCP'] as const) {
    it(`over ${transport}, stalled before its first rename: the second writer is acknowledged, the first refused`, async () => {
      const { first, second } = await race(transport, 'before-rename')
      assert.ok(second.acknowledged && !first.acknowledged)
      assert.equal(first.code, 'workspace_busy', first.detail)
    })
  }

  it('stalled inside the commit (objects written, branch not moved): the first is acknowledged, the second refused', async () => {
    // The stalled commit holds git's index: the new holder's repair will not roll back a live write.
    const { first, second } = await race('CLI', 'in-objects')
    assert.ok(first.acknowledged && !second.acknowledged)
  })

  it('over HTTP, stalled inside the commit: the same', async () => {
    const { first } = await race('HTTP', 'in-objects')
    assert.ok(first.acknowledged)
  })

  it('stalled inside the repair of an earlier crashed write: the second writer is acknowledged, the first refused, and the resumed repair undoes nothing of it', async () => {
    // The crashed write had added slides/title-body-1.json; the second writer adds it again and commits.
    // A resumed repair that went on would remove it from under that commit.
    const { first, second } = await race('CLI', 'in-repair', {
      prepare: crashedWrite,
      write: newSlide,
      winner: (head) => assert.ok(head.counts ? head.counts.slides === 2 : head.sections.some((s: any) => s.slides.includes('title-body-1'))),
    })
    assert.ok(second.acknowledged && !first.acknowledged)
  })
})

describe('the commit moves the branch only if the folders it writes are as the write read them', () => {
  /** A rename stalled before its first rename while `meanwhile` commits beside studio; then resumed. */
  async function besideStudio(meanwhile: (ws: TestWorkspace & { deckId: string }) => Promise<void>): Promise<{ ws: TestWorkspace & { deckId: string }; outcome: Outcome; json: any }> {
    const ws = await workspaceWithDeck('Fenced')
    const child = spawn(process.execPath, [BIN, 'deck', 'rename', 'Studio write', '--rev', '0', '--json'], { cwd: ws.dir, env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_STALL: 'before-rename' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    await untilStopped(child.pid!, 'the writer')
    await meanwhile(ws)
    process.kill(child.pid!, 'SIGCONT')
    const code = await closed
    const json = JSON.parse(out)
    return { ws, outcome: { acknowledged: code === 0, status: json.status, code: json.code, detail: out }, json }
  }

  it('refuses with 409 and the current document when the deck was committed meanwhile (its lock never taken over)', async () => {
    const { ws, outcome, json } = await besideStudio(async (ws) => {
      const file = `${ws.dir}/decks/${ws.deckId}/deck.json`
      const manifest = JSON.parse(readFileSync(file, 'utf8'))
      writeFileSync(file, JSON.stringify({ ...manifest, title: 'Committed by hand', revision: 1 }, null, 2) + '\n')
      await ws.git('commit', '-qam', 'by hand')
    })
    try {
      assert.equal(outcome.acknowledged, false, outcome.detail)
      assert.equal(outcome.status, 409)
      assert.equal(outcome.code, 'stale_revision')
      assert.equal(json.currentRevision, 1)
      assert.equal(json.current.manifest.title, 'Committed by hand')
      assert.equal(JSON.parse(await ws.git('show', `HEAD:decks/${ws.deckId}/deck.json`)).title, 'Committed by hand')
      assert.equal((await ws.git('log', '-1', '--format=%s')).trim(), 'by hand')
      assert.equal((await ws.git('status', '--porcelain')).trim(), '', 'the refused write put its file back')
    } finally {
      ws.cleanup()
    }
  })

  it('lands when only another folder was committed meanwhile', async () => {
    const { ws, outcome } = await besideStudio(async (ws) => {
      writeFileSync(`${ws.dir}/NOTES.md`, 'mine\n')
      await ws.git('add', 'NOTES.md')
      await ws.git('commit', '-qm', 'notes')
    })
    try {
      assert.equal(outcome.acknowledged, true, outcome.detail)
      assert.equal(JSON.parse(await ws.git('show', `HEAD:decks/${ws.deckId}/deck.json`)).title, 'Studio write')
      assert.equal((await ws.git('show', 'HEAD~1:NOTES.md')), 'mine\n')
      await ws.git('fsck', '--full', '--strict')
    } finally {
      ws.cleanup()
    }
  })
})
