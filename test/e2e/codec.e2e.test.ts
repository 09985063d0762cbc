/**
 * Files handed in over HTTP (issue 21): codec failures and files over a processing limit are 4xx
 * naming the limit and no server path, a job over its time or memory budget is stopped and leaves no
 * commit and no file, and `studio serve` answers other callers while a slow job runs (the codec runs
 * in its own process, before the deck's lock: src/media/codec.ts).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { commitCount, serve, workspaceWithDeck, type Served } from '../helpers/studio.js'

const NS = 'xmlns="http://www.w3.org/2000/svg"'

async function call(url: string, deckId: string, id: string, body: Record<string, unknown>) {
  const response = await request(`${url}/api/actions/${id}?deck=${deckId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await response.body.text()
  return { status: response.statusCode, text, json: JSON.parse(text) }
}

/** asset.add of `file` (workspace-relative) at the deck's current revision. */
async function add(url: string, deckId: string, file: string, id: string) {
  const info = await call(url, deckId, 'deck.info', {})
  return call(url, deckId, 'asset.add', { file, id, role: 'picture', alt: 'A drawing', baseRevision: info.json.revision })
}

/** Hostile and broken inputs, written under `inputs/` (kept out of git's sight). */
function writeInputs(dir: string) {
  mkdirSync(join(dir, 'inputs'))
  writeFileSync(join(dir, '.git', 'info', 'exclude'), 'inputs/\n')
  const put = (name: string, content: string | Buffer) => writeFileSync(join(dir, 'inputs', name), content)
  put('empty.svg', '')
  put('blank.svg', '<svg></svg>')
  put('wide.svg', `<svg ${NS} width="1e9" height="1e9"><rect width="10" height="10"/></svg>`)
  put('tall.svg', `<svg ${NS} width="10" height="90000"><rect width="10" height="10"/></svg>`)
  let levels = '<g id="l0"><rect width="1" height="1"/></g>'
  for (let i = 1; i <= 9; i++) levels += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(10)}</g>`
  put('use-bomb.svg', `<svg ${NS} width="100" height="100"><defs>${levels}</defs><use href="#l9"/></svg>`)
  put('use-loop.svg', `<svg ${NS} width="100" height="100"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>`)
  let filters = ''
  for (let i = 0; i < 300; i++) filters += `<filter id="f${i}"><feTurbulence baseFrequency="0.9" numOctaves="10"/><feGaussianBlur stdDeviation="50"/></filter><rect width="2000" height="2000" filter="url(#f${i})"/>`
  put('filters.svg', `<svg ${NS} width="2000" height="2000">${filters}</svg>`)
  put('corrupt.png', Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200, 7)]))
  put('small.svg', `<svg ${NS} viewBox="0 0 40 20"><rect width="40" height="20" fill="#0a7d5a"/></svg>`)
  // ≈ 2 MiB of small shapes: the sanitizer's cap and its slowest kind of input (seconds of work).
  let shapes = ''
  for (let i = 0; shapes.length < 2 * 1024 * 1024 - 200; i++) shapes += `<rect x="${i % 1000}" y="${(i / 1000) | 0}" width="3" height="2" fill="#0a7d5a"/>`
  put('big.svg', `<svg ${NS} viewBox="0 0 1000 60">${shapes}</svg>`)
  put('medium.svg', `<svg ${NS} viewBox="0 0 1000 60">${shapes.slice(0, shapes.indexOf('<rect', 600_000))}</svg>`)
}

function assertNoServerPath(dir: string, text: string) {
  assert.ok(!text.includes(dir), `names the workspace: ${text}`)
  assert.doesNotMatch(text, /\/(?:tmp|work|home|root|usr)\//, `names a server path: ${text}`)
}

/** Whether a codec process is running for workspace `dir` (it runs with the workspace as its folder). */
function codecRunning(dir: string): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('codec-child')) return true
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return false
}

describe('files handed in: codec refusals over HTTP', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let server: Served
  before(async () => {
    ws = await workspaceWithDeck('Codec deck')
    writeInputs(ws.dir)
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  const cases: [string, number, string, RegExp][] = [
    ['empty.svg', 400, 'invalid_input', /not a picture/],
    ['blank.svg', 400, 'invalid_input', /SVG namespace/],
    ['wide.svg', 422, 'unprocessable', /100000 px a side/],
    ['tall.svg', 422, 'unprocessable', /megapixels; the cap is 80 megapixels/],
    ['use-bomb.svg', 422, 'unprocessable', /<use> elements expand to more than 100000 drawn elements/],
    ['use-loop.svg', 422, 'unprocessable', /<use> that refers to itself/],
    ['filters.svg', 422, 'unprocessable', /more than 200 filter primitives/],
    ['corrupt.png', 400, 'invalid_input', /not a picture studio can read/],
  ]
  for (const [file, status, code, message] of cases) {
    it(`refuses ${file} with ${status} ${code}, naming the limit and no server path; nothing is written`, async () => {
      const commits = await commitCount(ws.git)
      const id = file.replace(/\.\w+$/, '')
      const answer = await add(server.url, ws.deckId, `inputs/${file}`, id)
      assert.equal(answer.status, status, answer.text)
      assert.equal(answer.json.code, code, answer.text)
      assert.match(answer.json.message, message)
      assertNoServerPath(ws.dir, answer.text)
      assert.equal(await commitCount(ws.git), commits)
      assert.equal((await ws.git('status', '--porcelain')).trim(), '')
      const assets = join(ws.dir, 'decks', ws.deckId, 'assets')
      assert.deepEqual(existsSync(assets) ? readdirSync(assets).filter((name) => name.startsWith(id)) : [], [])
    })
  }

  it('answers deck.info while a slow SVG job runs, and still adds the SVG', async () => {
    const info = await call(server.url, ws.deckId, 'deck.info', {})
    let uploaded = false
    const upload = call(server.url, ws.deckId, 'asset.add', { file: 'inputs/big.svg', id: 'big', role: 'picture', alt: 'Many small shapes', baseRevision: info.json.revision }).finally(() => (uploaded = true))
    while (!codecRunning(ws.dir)) {
      assert.equal(uploaded, false, 'the upload ended before its codec process was seen')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const during = await call(server.url, ws.deckId, 'deck.info', {})
    assert.equal(during.status, 200)
    assert.equal(uploaded, false, 'deck.info answered only once the upload was over')
    assert.ok(codecRunning(ws.dir), 'deck.info answered only once the codec was done')
    const added = await upload
    assert.equal(added.status, 200, added.text)
    assert.equal(added.json.asset.format, 'svg')
  })

  it("decodes before the deck's lock: a write to the deck lands while the upload is processed, and the upload is then stale", async () => {
    const info = await call(server.url, ws.deckId, 'deck.info', {})
    const commits = await commitCount(ws.git)
    let uploaded = false
    const upload = call(server.url, ws.deckId, 'asset.add', { file: 'inputs/big.svg', id: 'big-stale', role: 'picture', alt: 'Many small shapes', baseRevision: info.json.revision }).finally(() => (uploaded = true))
    while (!codecRunning(ws.dir)) {
      assert.equal(uploaded, false, 'the upload ended before its codec process was seen')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const renamed = await call(server.url, ws.deckId, 'deck.rename', { name: 'Renamed meanwhile', baseRevision: info.json.revision })
    assert.equal(renamed.status, 200, renamed.text)
    assert.equal(uploaded, false, 'the rename waited for the upload')
    const refused = await upload
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.json.code, 'stale_revision')
    assert.equal(await commitCount(ws.git), commits + 1)
    assert.ok(!existsSync(join(ws.dir, 'decks', ws.deckId, 'assets', 'big-stale.svg')))
  })
})

describe('files handed in: budgets', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  before(async () => {
    ws = await workspaceWithDeck('Codec deck')
    writeInputs(ws.dir)
  })
  after(() => ws?.cleanup())

  const budgets: [string, Record<string, string>, string, number, RegExp][] = [
    ['time', { STUDIO_CODEC_TIME_MS: '1' }, 'small.svg', 422, /over its time budget of 0.001 s and was stopped/],
    ['memory', { STUDIO_CODEC_HEAP_MB: '16' }, 'medium.svg', 413, /over its memory budget of 16 MB/],
  ]
  for (const [limit, env, file, status, message] of budgets) {
    it(`stops a job over its ${limit} budget with ${status}, leaving no commit and no file`, async () => {
      const server = await serve(ws.dir, [], { env })
      try {
        const commits = await commitCount(ws.git)
        const answer = await add(server.url, ws.deckId, `inputs/${file}`, `over-${limit}`)
        assert.equal(answer.status, status, answer.text)
        assert.match(answer.json.message, message)
        assert.equal(answer.json.details.limit, limit)
        assertNoServerPath(ws.dir, answer.text)
        assert.equal(await commitCount(ws.git), commits)
        assert.equal((await ws.git('status', '--porcelain')).trim(), '')
        assert.ok(!existsSync(join(ws.dir, 'decks', ws.deckId, 'assets', `over-${limit}.svg`)))
      } finally {
        await server.stop()
      }
    })
  }
})
