import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { BIN, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'

// The races below are between processes of their own; every other call runs in the file's CLI host
// when it is free (`oneProcess`).

describe('concurrency across processes', () => {
  it('eight studio processes at one revision: exactly one success, seven 409s, one commit, git fsck clean', async () => {
    const ws = await workspaceWithDeck('Race')
    try {
      const before = await commitCount(ws.git)
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => studio(ws.dir, ['deck', 'rename', `Name ${i}`, '--rev', '0', '--json'])),
      )
      const ok = results.filter((r) => r.code === 0)
      const conflicts = results.filter((r) => r.code === 4)
      assert.equal(ok.length, 1, results.map((r) => r.stdout).join('\n'))
      assert.equal(conflicts.length, 7)
      for (const r of conflicts) {
        assert.equal(r.json.code, 'stale_revision')
        assert.equal(r.json.currentRevision, 1)
      }
      for (const r of results) assert.doesNotMatch(r.stdout + r.stderr, /index\.lock|fatal:/)
      assert.equal(await commitCount(ws.git), before + 1)
      await ws.git('fsck', '--full', '--strict')
      assert.equal(await ws.git('status', '--porcelain'), '')
    } finally {
      ws.cleanup()
    }
  })

  it('writers on different decks at once all land, one commit each', async () => {
    const ws = await workspaceWithDeck('One')
    try {
      for (const name of ['Two', 'Three', 'Four']) assert.equal((await studio(ws.dir, ['deck', 'create', name, '--json'], { oneProcess: true })).code, 0)
      const before = await commitCount(ws.git)
      const results = await Promise.all(['one', 'two', 'three', 'four'].map((id) => studio(ws.dir, ['deck', 'rename', `${id}!`, '--deck', id, '--rev', '0', '--json'])))
      assert.deepEqual(results.map((r) => r.code), [0, 0, 0, 0], results.map((r) => r.stdout).join('\n'))
      assert.equal(await commitCount(ws.git), before + 4)
      await ws.git('fsck', '--full')
    } finally {
      ws.cleanup()
    }
  })
})

/** Runs a write with a fault injected at a named point: the process kills itself with SIGKILL there. */
function crashAt(dir: string, point: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, STUDIO_FAULT: point }, stdio: 'ignore' })
    child.on('exit', (code, signal) => resolve(signal === 'SIGKILL' ? null : code))
  })
}

describe('bundles on the command line', () => {
  it('packs deterministically and unpacks byte-identical under a sibling id, or in place with --replace', async () => {
    const ws = await workspaceWithDeck('Bundle me')
    try {
      const a = await studio(ws.dir, ['deck', 'pack', 'bundle-me', '--out', 'a.zip', '--json'], { oneProcess: true })
      const b = await studio(ws.dir, ['deck', 'pack', 'bundle-me', '--out', 'b.zip', '--json'], { oneProcess: true })
      assert.equal(a.code, 0, a.stdout)
      assert.deepEqual(readFileSync(join(ws.dir, 'a.zip')), readFileSync(join(ws.dir, 'b.zip')))
      const sibling = await studio(ws.dir, ['deck', 'unpack', 'a.zip', '--json'], { oneProcess: true })
      assert.equal(sibling.code, 0, sibling.stdout)
      assert.equal(sibling.json.id, 'bundle-me-2')
      for (const file of ['slides/title-1.json']) {
        assert.deepEqual(readFileSync(join(ws.dir, 'decks/bundle-me-2', file)), readFileSync(join(ws.dir, 'decks/bundle-me', file)))
      }
      const replaced = await studio(ws.dir, ['deck', 'unpack', 'a.zip', '--replace', '--json'], { oneProcess: true })
      assert.equal(replaced.json.id, 'bundle-me')
      assert.equal(replaced.json.replaced, true)
      const manifestA = JSON.parse(readFileSync(join(ws.dir, 'decks/bundle-me-2/deck.json'), 'utf8'))
      assert.equal(manifestA.id, 'bundle-me-2')
    } finally {
      ws.cleanup()
    }
  })

  it('refuses a bundle with a wrong digest and writes nothing', async () => {
    const ws = await workspaceWithDeck('Tampered')
    try {
      const { readBundle, packBundle } = await import('../../src/store/bundle.js')
      const packed = await studio(ws.dir, ['deck', 'pack', 'tampered', '--out', 'ok.zip', '--json'], { oneProcess: true })
      assert.equal(packed.code, 0)
      const bundle = await readBundle(join(ws.dir, 'ok.zip'))
      const files = new Map(bundle.files)
      files.set('deck.json', Buffer.from(files.get('deck.json')!.toString().replace('Tampered', 'Evil')))
      const good = await packBundle(files, { deckId: 'tampered', revision: 0 })
      // Re-pack computes fresh digests; swap the original manifest back in to make them wrong.
      const { writeZip } = await import('../helpers/zip.js')
      const entries = [{ name: 'manifest.json', data: Buffer.from(JSON.stringify(bundle.manifest)) }, ...[...files].map(([name, data]) => ({ name, data }))]
      const { writeFileSync } = await import('node:fs')
      writeFileSync(join(ws.dir, 'bad.zip'), writeZip(entries))
      assert.ok(good.length > 0)
      const before = await commitCount(ws.git)
      const refused = await studio(ws.dir, ['deck', 'unpack', 'bad.zip', '--as', 'evil', '--json'], { oneProcess: true })
      assert.equal(refused.code, 2, refused.stdout)
      assert.equal(refused.json.code, 'refused')
      assert.match(refused.json.message, /sha256|digest/i)
      assert.equal(existsSync(join(ws.dir, 'decks/evil')), false)
      assert.equal(await commitCount(ws.git), before)
    } finally {
      ws.cleanup()
    }
  })
})

describe('studio deck repair', () => {
  it('puts back a deck whose creation was killed before its commit', async () => {
    const ws = await workspaceWithDeck('Keep')
    try {
      const signal = await crashAt(ws.dir, 'after-write', ['deck', 'create', 'Half made', '--json'])
      assert.equal(signal, null)
      assert.ok(existsSync(join(ws.dir, 'decks/half-made/deck.json')), 'the crash left files behind')
      const repaired = await studio(ws.dir, ['deck', 'repair', '--json'], { oneProcess: true })
      assert.equal(repaired.code, 0, repaired.stdout)
      assert.equal(repaired.json.repaired.length, 1)
      assert.equal(existsSync(join(ws.dir, 'decks/half-made')), false)
      assert.equal(await ws.git('status', '--porcelain'), '')
      assert.equal((await studio(ws.dir, ['deck', 'create', 'Half made', '--json'], { oneProcess: true })).code, 0)
    } finally {
      ws.cleanup()
    }
  })
})

describe('a workspace in a subfolder of a git repository', () => {
  it('commits with paths relative to the repository and never touches files outside the workspace', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { execFileSync } = await import('node:child_process')
    const repo = mkdtempSync(join(tmpdir(), 'studio-repo-'))
    try {
      execFileSync('git', ['init', '-q', repo])
      writeFileSync(join(repo, 'README.md'), 'project\n')
      execFileSync('git', ['-C', repo, 'add', 'README.md'])
      const sub = join(repo, 'slides')
      assert.equal((await studio(repo, ['init', 'slides', '--json'], { oneProcess: true })).code, 0)
      const created = await studio(sub, ['deck', 'create', 'Nested', '--json'], { oneProcess: true })
      assert.equal(created.code, 0, created.stdout)
      const files = execFileSync('git', ['-C', repo, 'show', '--name-only', '--format=', 'HEAD'], { encoding: 'utf8' }).trim().split('\n')
      assert.ok(files.every((f) => f.startsWith('slides/decks/nested/')), files.join(','))
      assert.equal(execFileSync('git', ['-C', repo, 'status', '--porcelain'], { encoding: 'utf8' }).trim(), 'A  README.md')
    } finally {
      rmSync(repo, { recursive: true, force: true })
    }
  })
})

describe('mixed transports racing for one revision', () => {
  it('20 mutations at one base revision over CLI processes, HTTP and MCP: exactly one accepted, one commit, git fsck clean', async () => {
    const { serve } = await import('../helpers/studio.js')
    const { request } = await import('undici')
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    const ws = await workspaceWithDeck('Mixed race')
    const server = await serve(ws.dir)
    const clients: InstanceType<typeof Client>[] = []
    try {
      for (let i = 0; i < 4; i++) {
        const client = new Client({ name: `race-${i}`, version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
        clients.push(client)
      }
      const before = await commitCount(ws.git)
      const cli = Array.from({ length: 8 }, (_, i) => studio(ws.dir, ['deck', 'rename', `CLI ${i}`, '--rev', '0', '--json']).then((r) => r.json.status ?? 200))
      const http = Array.from({ length: 8 }, async (_, i) => {
        const r = await request(`${server.url}/api/actions/deck.rename`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `HTTP ${i}`, baseRevision: 0 }) })
        await r.body.dump()
        return r.statusCode
      })
      const mcp = clients.map(async (client, i) => {
        const r = (await client.callTool({ name: 'deck_rename', arguments: { name: `MCP ${i}`, baseRevision: 0 } })) as { isError?: boolean; structuredContent?: { status?: number } }
        return r.isError ? r.structuredContent!.status : 200
      })
      const statuses = await Promise.all([...cli, ...http, ...mcp])
      assert.equal(statuses.length, 20)
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','))
      assert.equal(statuses.filter((s) => s === 409).length, 19, statuses.join(','))
      assert.equal(await commitCount(ws.git), before + 1)
      await ws.git('fsck', '--full', '--strict')
      assert.equal(await ws.git('status', '--porcelain'), '')
    } finally {
      for (const client of clients) await client.close().catch(() => undefined)
      await server.stop()
      ws.cleanup()
    }
  })
})
