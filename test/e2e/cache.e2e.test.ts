/**
 * The deck cache of a long-lived `studio serve` is never stale (docs/storage.md#the-deck-cache): after
 * a CLI write, a checkout of another branch, a reset, or an edit of a file by hand, the next read over
 * HTTP answers what the files hold. And the branch-safe guard: a write naming a revision read before
 * the checkout moved is refused. The CLI writes a test reads back are processes of their own; the
 * set-up before a server starts runs in the file's CLI host (`oneProcess`).
 */
import assert from 'node:assert/strict'
import { openSync, readFileSync, statSync, utimesSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { BIN, serve, studio, workspace, type Served } from '../helpers/studio.js'

async function post(url: string, id: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${url}/api/actions/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const text = await response.body.text()
  return { status: response.statusCode, headers: response.headers, json: JSON.parse(text) }
}

/** Overwrites a file in place (same inode, no rename), as an editor that saves in place does. */
function overwriteInPlace(file: string, text: string): void {
  const fd = openSync(file, 'r+')
  try {
    writeSync(fd, text, 0)
  } finally {
    closeSync(fd)
  }
}

const slideTitle = (info: any, id: string) => info.sections.flatMap((s: any) => s.slides).find((s: any) => s.id === id)?.title

describe('the deck cache of studio serve', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  let server: Served
  let slideId: string
  before(async () => {
    ws = await workspace()
    const created = await studio(ws.dir, ['deck', 'create', 'Cached', '--from', 'brand-sample', '--json'], { oneProcess: true })
    assert.equal(created.code, 0, created.stdout)
    server = await serve(ws.dir)
    slideId = 'title-body-1'
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  /** Reads twice (the second read is answered warm), then returns the info. */
  async function warmInfo() {
    await post(server.url, 'deck.info', {})
    const info = await post(server.url, 'deck.info', {})
    assert.equal(info.status, 200)
    return info.json
  }

  it('answers a CLI write at the next read', async () => {
    const before = await warmInfo()
    await post(server.url, 'slide.get', { slideId })
    const written = await studio(ws.dir, ['block', 'set', `${slideId}#title`, '/text', 'Written by the CLI', '--json'])
    assert.equal(written.code, 0, written.stdout)
    const slide = await post(server.url, 'slide.get', { slideId })
    assert.equal(slide.json.slide.blocks[0].text, 'Written by the CLI')
    assert.equal(slide.json.revision, before.revision + 1)
    const info = await post(server.url, 'deck.info', {})
    assert.equal(slideTitle(info.json, slideId), 'Written by the CLI')
    assert.notEqual(info.json.tag, before.tag)
  })

  it('answers an edit by hand of a slide file, in place, of the same size and with its old mtime', async () => {
    await warmInfo()
    const file = join(ws.dir, 'decks', 'cached', 'slides', `${slideId}.json`)
    const text = readFileSync(file, 'utf8')
    const { atime, mtime } = statSync(file)
    const edited = text.replace('Written by the CLI', 'Written by the pen')
    assert.equal(edited.length, text.length)
    overwriteInPlace(file, edited)
    utimesSync(file, atime, mtime)
    assert.ok(Math.abs(statSync(file).mtimeMs - mtime.getTime()) < 1, 'the old mtime, to the millisecond')
    const info = await post(server.url, 'deck.info', {})
    assert.equal(slideTitle(info.json, slideId), 'Written by the pen')
    const slide = await post(server.url, 'slide.get', { slideId })
    assert.equal(slide.json.slide.blocks[0].text, 'Written by the pen')
  })

  it('answers an edit by hand of deck.json', async () => {
    await warmInfo()
    const file = join(ws.dir, 'decks', 'cached', 'deck.json')
    const text = readFileSync(file, 'utf8')
    overwriteInPlace(file, text.replace('"title": "Cached"', '"title": "Handed"'))
    const info = await post(server.url, 'deck.info', {})
    assert.equal(info.json.title, 'Handed')
    await ws.git('checkout', '--', 'decks/cached/deck.json')
    assert.equal((await post(server.url, 'deck.info', {})).json.title, 'Cached')
  })

  it('answers a git reset', async () => {
    await ws.git('checkout', '--', '.')
    const before = await warmInfo()
    const renamed = await post(server.url, 'deck.rename', { name: 'Renamed over HTTP', baseRevision: before.revision })
    assert.equal(renamed.status, 200)
    const slide = await post(server.url, 'block.set', { slideId, blockId: 'title', path: '/text', value: 'About to be reset', baseRevision: renamed.json.revision })
    assert.equal(slide.status, 200)
    assert.equal((await warmInfo()).title, 'Renamed over HTTP')
    await ws.git('reset', '--hard', 'HEAD~2')
    const info = await post(server.url, 'deck.info', {})
    assert.equal(info.json.title, 'Cached')
    assert.equal(info.json.revision, before.revision)
    assert.equal(info.json.tag, before.tag)
    assert.equal((await post(server.url, 'slide.get', { slideId })).json.slide.blocks[0].text, 'Written by the CLI')
  })

  it('answers a checkout of another branch, and back', async () => {
    const main = await warmInfo()
    const branch = (await ws.git('rev-parse', '--abbrev-ref', 'HEAD')).trim()
    await ws.git('checkout', '-q', '-b', 'elsewhere')
    const moved = await studio(ws.dir, ['slide', 'remove', 'agenda-1', '--json'])
    assert.equal(moved.code, 0, moved.stdout)
    await studio(ws.dir, ['block', 'set', `${slideId}#title`, '/text', 'On the other branch', '--json'])
    await ws.git('checkout', '-q', branch)
    assert.equal((await warmInfo()).revision, main.revision)
    await ws.git('checkout', '-q', 'elsewhere')
    const there = await post(server.url, 'deck.info', {})
    assert.equal(there.json.revision, main.revision + 2)
    assert.equal(slideTitle(there.json, slideId), 'On the other branch')
    assert.equal(slideTitle(there.json, 'agenda-1'), undefined)
    assert.equal(there.json.counts.slides, main.counts.slides - 1)
    await ws.git('checkout', '-q', branch)
    const back = await post(server.url, 'deck.info', {})
    assert.deepEqual(back.json, main)
  })
})

describe('the branch-safe revision guard of studio serve', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  let server: Served
  before(async () => {
    ws = await workspace()
    assert.equal((await studio(ws.dir, ['deck', 'create', 'Guarded', '--from', 'blank', '--json'], { oneProcess: true })).code, 0)
    // Two branches whose deck is at the same revision with different content.
    await ws.git('branch', 'other')
    assert.equal((await studio(ws.dir, ['deck', 'rename', 'Main title', '--json'], { oneProcess: true })).code, 0)
    await ws.git('checkout', '-q', 'other')
    assert.equal((await studio(ws.dir, ['deck', 'rename', 'Other title', '--json'], { oneProcess: true })).code, 0)
    await ws.git('checkout', '-q', '-')
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  it('gives every read a version tag, as a result member and an ETag', async () => {
    const info = await post(server.url, 'deck.info', {})
    assert.equal(info.json.revision, 1)
    assert.match(info.json.tag, /^[0-9a-f]{24}$/)
    assert.equal(info.headers.etag, `"${info.json.tag}"`)
    const slide = await post(server.url, 'slide.get', { slideId: 'title-1' })
    assert.equal(slide.json.tag, info.json.tag)
  })

  it('refuses a write whose If-Match is not the current tag, and accepts the current one', async () => {
    const info = await post(server.url, 'deck.info', {})
    const stale = await post(server.url, 'deck.rename', { name: 'Nope', baseRevision: info.json.revision }, { 'if-match': '"000000000000000000000000"' })
    assert.equal(stale.status, 409)
    assert.equal(stale.json.code, 'stale_revision')
    assert.equal(stale.json.currentTag, info.json.tag)
    const fresh = await post(server.url, 'deck.rename', { name: 'Main title', baseRevision: info.json.revision }, { 'if-match': info.headers.etag as string })
    assert.equal(fresh.status, 200, JSON.stringify(fresh.json))
  })

  it('keeps running while the checkout switches branches, and refuses a write carrying a revision read before the switch', async () => {
    const read = await post(server.url, 'deck.info', {})
    assert.equal(read.json.title, 'Main title')
    await ws.git('checkout', '-q', 'other')
    // The other branch's deck is at the very same revision number, with other content.
    const refused = await post(server.url, 'deck.rename', { name: 'Meant for main', baseRevision: read.json.revision })
    assert.equal(refused.status, 409, JSON.stringify(refused.json))
    assert.equal(refused.json.code, 'stale_revision')
    assert.equal(refused.json.currentRevision, read.json.revision)
    assert.equal(refused.json.current.manifest.title, 'Other title')
    assert.match(refused.json.message, /checkout moved/)
    const byTag = await post(server.url, 'deck.rename', { name: 'Meant for main', baseRevision: read.json.revision, baseTag: read.json.tag })
    assert.equal(byTag.status, 409)
    assert.equal((await ws.git('log', '-1', '--format=%s')).trim().startsWith('deck.rename guarded r1'), true)
    // Read on this branch, then write: accepted.
    const reread = await post(server.url, 'deck.info', {})
    assert.equal(reread.json.title, 'Other title')
    const accepted = await post(server.url, 'deck.rename', { name: 'Other, renamed', baseRevision: reread.json.revision })
    assert.equal(accepted.status, 200, JSON.stringify(accepted.json))
    assert.equal((await ws.git('log', '-1', '--format=%s')).trim(), `deck.rename guarded r${reread.json.revision + 1}`)
  })
})

describe('the deck cache of studio mcp (stdio)', () => {
  it('answers a CLI write and an edit by hand at the next tool call', async () => {
    const ws = await workspace()
    assert.equal((await studio(ws.dir, ['deck', 'create', 'Agent deck', '--from', 'brand-sample', '--json'], { oneProcess: true })).code, 0)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', ws.dir],
      cwd: ws.dir,
      env: Object.fromEntries(Object.entries({ ...process.env, STUDIO_ROOT: '', STUDIO_AUTHOR: '', NO_COLOR: '1' }).filter((e): e is [string, string] => e[1] !== undefined)),
      stderr: 'pipe',
    })
    const client = new Client({ name: 'cache-e2e', version: '1.0.0' })
    try {
      await client.connect(transport)
      const info = async () => (await client.callTool({ name: 'deck_get_info', arguments: {} })).structuredContent as any
      const first = await info()
      assert.equal((await info()).revision, first.revision)
      assert.equal((await studio(ws.dir, ['deck', 'rename', 'Renamed by the CLI', '--json'])).code, 0)
      const renamed = await info()
      assert.equal(renamed.title, 'Renamed by the CLI')
      assert.equal(renamed.revision, first.revision + 1)
      const file = join(ws.dir, 'decks', 'agent-deck', 'slides', 'title-body-1.json')
      overwriteInPlace(file, readFileSync(file, 'utf8').replace('"text": "Opening 2: what changed"', '"text": "Opening 2: what shifted"'))
      assert.equal(slideTitle(await info(), 'title-body-1'), 'Opening 2: what shifted')
    } finally {
      await client.close()
      ws.cleanup()
    }
  })
})
