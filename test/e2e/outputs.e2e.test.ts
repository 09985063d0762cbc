/**
 * Outputs never clobber the workspace's own files (issue 21, item 5): a render, export, build,
 * shader, diff or sheet output path naming git's files (.gitattributes, .gitignore, .gitmodules,
 * .git), studio.json, or studio's state under .studio/ (kill switches, journal, locks) is refused
 * with 403 on the CLI and over a real `studio serve`, and a missing .gitattributes is never made a
 * folder. The outputs' own folders under .studio/ stay writable.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, serve, type Served, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

/** The bytes (or absence) of every file an output must not touch. */
function snapshot(dir: string): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const rel of ['.gitattributes', '.gitignore', '.gitmodules', 'studio.json', '.studio/flags.json', '.git/config', 'sub/.gitattributes']) {
    const file = join(dir, rel)
    out[rel] = existsSync(file) ? (statSync(file).isFile() ? readFileSync(file, 'utf8') : 'a folder') : null
  }
  return out
}

const OWN = ['.gitattributes', '.gitignore', '.gitmodules', 'studio.json', '.studio/flags.json', '.studio', '.studio/locks/x', '.git/config', '.gitattributes/x.html', 'sub/.gitattributes', 'sub/.GITIGNORE', '.Studio/flags.json']

describe('outputs never clobber the workspace\'s own files', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  before(async () => {
    ws = await workspaceWithDeck('Outputs')
    assert.equal((await studio(ws.dir, ['admin', 'flag', 'realtime', '--on', 'true', '--json'])).code, 0)
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })
  const call = async (id: string, body: unknown) => {
    const r = await fetch(`${server.url}/api/actions/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: r.status, json: (await r.json()) as any }
  }

  it('refuses a build over each of them, on the CLI and over HTTP', async () => {
    const before = snapshot(ws.dir)
    assert.notEqual(before['.studio/flags.json'], null)
    for (const out of OWN) {
      const cli = await studio(ws.dir, ['build', '--out', out, '--json'])
      assert.deepEqual([cli.code, cli.json?.code, cli.json?.pointer], [5, 'forbidden', '/out'], `CLI ${out}: ${cli.stdout}`)
      assert.doesNotMatch(cli.json.message, new RegExp(ws.dir))
      const http = await call('build.run', { out })
      assert.deepEqual([http.status, http.json.code, http.json.pointer], [403, 'forbidden', '/out'], `HTTP ${out}: ${JSON.stringify(http.json)}`)
      assert.doesNotMatch(http.json.message, new RegExp(ws.dir))
    }
    assert.deepEqual(snapshot(ws.dir), before)
    // The kill switch still reads as it was set.
    assert.equal((await studio(ws.dir, ['admin', 'flag', 'realtime', '--json'])).json.on, true)
  })

  it('refuses the render, sheet, shader, export and diff outputs there too, before any work', async () => {
    const before = snapshot(ws.dir)
    const cases: [string, string[], Record<string, unknown>][] = [
      ['render.slide', ['render', 'title-1', '--out', '.gitattributes', '--json'], { slideIds: ['title-1'], out: '.gitattributes' }],
      ['render.sheet', ['sheet', 'title-1', '--out', '.studio', '--json'], { slideIds: ['title-1'], out: '.studio' }],
      ['shader.render', ['shader', 'render', 'paper:mesh-gradient', '--out', '.gitattributes/x.png', '--json'], { materialId: 'paper:mesh-gradient', out: '.gitattributes/x.png' }],
      ['export.run', ['export', 'pdf', '--out', '.gitignore', '--json'], { format: 'pdf', out: '.gitignore' }],
      ['diff.run', ['diff', '0', '0', '--render', '--out', 'studio.json', '--json'], { from: 0, to: 0, render: true, out: 'studio.json' }],
    ]
    for (const [id, args, body] of cases) {
      const cli = await studio(ws.dir, args)
      assert.equal(cli.json?.code, 'forbidden', `CLI ${id}: ${cli.stdout} ${cli.stderr}`)
      const http = await call(id, body)
      assert.deepEqual([http.status, http.json.code], [403, 'forbidden'], `HTTP ${id}: ${JSON.stringify(http.json)}`)
    }
    assert.deepEqual(snapshot(ws.dir), before)
  })

  it('never turns a missing .gitattributes into a folder', async () => {
    rmSync(join(ws.dir, '.gitattributes'))
    try {
      const cli = await studio(ws.dir, ['build', '--out', '.gitattributes/x.html', '--json'])
      assert.equal(cli.json.code, 'forbidden', cli.stdout)
      const http = await call('build.run', { out: '.gitattributes/x.html' })
      assert.equal(http.status, 403)
      assert.equal(existsSync(join(ws.dir, '.gitattributes')), false)
    } finally {
      await ws.git('checkout', '--', '.gitattributes')
    }
  })

  it('answers 400, not 500, for an output that names a folder, and leaves the folder as it was', async () => {
    mkdirSync(join(ws.dir, 'dist', 'kept'), { recursive: true })
    const cli = await studio(ws.dir, ['build', '--out', 'dist', '--json'])
    assert.deepEqual([cli.code, cli.json?.status, cli.json?.code], [2, 400, 'invalid_input'], cli.stdout)
    assert.match(cli.json.message, /^dist is a folder: name a file/)
    const http = await call('build.run', { out: 'dist' })
    assert.deepEqual([http.status, http.json.code], [400, 'invalid_input'], JSON.stringify(http.json))
    assert.deepEqual(readdirSync(join(ws.dir, 'dist')), ['kept'])
  })

  it('writes into the outputs\' own folders under .studio/', async () => {
    const cli = await studio(ws.dir, ['build', '--out', '.studio/build/deck.html', '--json'])
    assert.equal(cli.code, 0, cli.stdout)
    const http = await call('build.run', { out: '.studio/export/deck.html' })
    assert.equal(http.status, 200, JSON.stringify(http.json))
    assert.equal(existsSync(join(ws.dir, '.studio/export/deck.html')), true)
  })
})
