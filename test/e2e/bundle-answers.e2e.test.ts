/**
 * Honest answers of the bundle paths (issue 21, item 6): a replace that committed answers 200 with its
 * result, a bundle whose JSON nests without end is refused, and no bundle lands under a reserved id.
 * Each over the CLI (`studio deck unpack`) and HTTP (`POST /api/decks/bundle` of a real `studio serve`).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { packBundle, readBundle } from '../../src/store/bundle.js'
import { fixtureWorkspace, FIXTURE_DECK, FIXTURE_REVISION, FIXTURE_SLIDES } from '../helpers/fixture.js'
import { cliInOneProcess, commitCount, serve, studio, workspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

async function postBundle(url: string, zip: Buffer, query: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}/api/decks/bundle${query}`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(zip) })
  const text = await res.text()
  return { status: res.status, json: JSON.parse(text) }
}

/** A bundle of a one-slide deck `id`, the shape a valid deck has (read back from a real deck). */
async function smallDeckBundle(dir: string, name: string): Promise<Buffer> {
  const created = await studio(dir, ['deck', 'create', name, '--from', 'blank', '--json'])
  assert.equal(created.code, 0, created.stdout)
  const packed = await studio(dir, ['deck', 'pack', created.json.id, '--out', 'small.zip', '--json'])
  assert.equal(packed.code, 0, packed.stdout)
  return readFileSync(join(dir, 'small.zip'))
}

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('a bundle that replaces a deck', () => {
  it('answers 200 over the CLI with the new revision after exactly one commit, when the bundle has fewer slides', async () => {
    const ws = await fixtureWorkspace()
    try {
      const zip = await smallDeckBundle(ws.dir, 'Smaller')
      writeFileSync(join(ws.dir, 'small.zip'), zip)
      const commits = await commitCount(ws.git)
      const replaced = await studio(ws.dir, ['deck', 'unpack', 'small.zip', '--as', FIXTURE_DECK, '--replace', '--json'])
      assert.equal(replaced.code, 0, replaced.stdout)
      assert.equal(replaced.json.id, FIXTURE_DECK)
      assert.equal(replaced.json.replaced, true)
      assert.equal(replaced.json.revision, FIXTURE_REVISION + 1)
      assert.equal(await commitCount(ws.git), commits + 1)
      assert.equal((await ws.git('log', '-1', '--format=%s')).trim(), `deck.unpack ${FIXTURE_DECK} r${FIXTURE_REVISION + 1}`)
      const info = await studio(ws.dir, ['info', '--deck', FIXTURE_DECK, '--json'])
      assert.equal(info.json.revision, FIXTURE_REVISION + 1)
      assert.equal(info.json.sections.flatMap((s: { slides: unknown[] }) => s.slides).length, 1)
    } finally {
      ws.cleanup()
    }
  })

  it('answers 200 over HTTP with the new revision after exactly one commit each time, cold and with the deck cached', async () => {
    const ws = await fixtureWorkspace()
    try {
      const packed = await studio(ws.dir, ['deck', 'pack', FIXTURE_DECK, '--out', 'full.zip', '--json'])
      assert.equal(packed.code, 0, packed.stdout)
      const full = readFileSync(join(ws.dir, 'full.zip'))
      const small = await smallDeckBundle(ws.dir, 'Smaller')
      const server = await serve(ws.dir)
      const slideCount = async () => {
        const res = await fetch(`${server.url}/api/actions/deck.info?deck=${FIXTURE_DECK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
        const info = (await res.json()) as any
        assert.equal(res.status, 200, JSON.stringify(info))
        return { revision: info.revision, slides: info.sections.flatMap((s: { slides: unknown[] }) => s.slides).length }
      }
      try {
        let revision = FIXTURE_REVISION
        // First with nothing read before (cold), then twice with the deck in the server's cache.
        for (const [zip, slides] of [[small, 1], [full, FIXTURE_SLIDES.length], [small, 1]] as const) {
          const commits = await commitCount(ws.git)
          const answer = await postBundle(server.url, zip, `?as=${FIXTURE_DECK}&replace=1`)
          revision++
          assert.equal(answer.status, 200, JSON.stringify(answer.json))
          assert.equal(answer.json.id, FIXTURE_DECK)
          assert.equal(answer.json.replaced, true)
          assert.equal(answer.json.revision, revision)
          assert.equal(await commitCount(ws.git), commits + 1)
          assert.deepEqual(await slideCount(), { revision, slides })
        }
      } finally {
        await server.stop()
      }
    } finally {
      ws.cleanup()
    }
  })
})

describe('a bundle whose JSON nests too deeply', () => {
  const cases: Array<[string, Map<string, Buffer>]> = [
    ['deck.json', new Map([['deck.json', Buffer.from(`{"id":"deep","title":${deep(100_000)}}`)]])],
    [
      'a slide',
      new Map([
        ['deck.json', Buffer.from('{"id":"deep","title":"t","theme":"simple","sections":[{"id":"s","title":"S","slides":["a"]}]}')],
        ['slides/a.json', Buffer.from(`{"id":"a","layout":"title","title":${deep(100_000)}}`)],
      ]),
    ],
    [
      'versions.json',
      new Map([
        ['deck.json', Buffer.from('{"id":"deep","title":"t","theme":"simple","sections":[]}')],
        ['versions.json', Buffer.from(deep(100_000))],
      ]),
    ],
  ]

  it('is refused over the CLI and HTTP, naming no server path, writing nothing', async () => {
    const ws = await workspace()
    const server = await serve(ws.dir)
    try {
      const commits = await commitCount(ws.git)
      for (const [where, files] of cases) {
        const zip = await packBundle(files, { deckId: 'deep', revision: 0 })
        writeFileSync(join(ws.dir, 'deep.zip'), zip)
        const cli = await studio(ws.dir, ['deck', 'unpack', 'deep.zip', '--json'])
        assert.equal(cli.json?.code, 'refused', `${where} over the CLI: ${cli.stdout}`)
        assert.equal(cli.code, 2)
        assert.match(cli.json.message, /nest/)
        assert.doesNotMatch(cli.json.message, /\/tmp|studio-test|\.studio/, where)
        const http = await postBundle(server.url, zip, '')
        assert.equal(http.status, 400, `${where} over HTTP: ${JSON.stringify(http.json)}`)
        assert.equal(http.json.code, 'refused')
        assert.doesNotMatch(http.json.message, /\/tmp|studio-test|\.studio/, where)
      }
      assert.equal(await commitCount(ws.git), commits)
      assert.equal(existsSync(join(ws.dir, 'decks', 'deep')), false)
    } finally {
      await server.stop()
      ws.cleanup()
    }
  })
})

describe('a bundle whose deck.json is not a deck manifest', () => {
  it('is refused with the place named, never a 500', async () => {
    const ws = await workspace()
    try {
      const commits = await commitCount(ws.git)
      for (const manifest of ['{"id":"odd","title":"t"}', '{"id":"odd","title":"t","sections":[1]}', '{"id":"odd","title":"t","sections":[{"id":"a","slides":5}]}']) {
        const files = new Map([['deck.json', Buffer.from(manifest)], ['slides/a.json', Buffer.from('{"id":"a","layout":"title","blocks":[null]}')]])
        writeFileSync(join(ws.dir, 'odd.zip'), await packBundle(files, { deckId: 'odd', revision: 0 }))
        const cli = await studio(ws.dir, ['deck', 'unpack', 'odd.zip', '--json'])
        assert.equal(cli.json?.status, 400, `${manifest}: ${cli.stdout}`)
        assert.match(cli.json.pointer, /^\/manifest/)
      }
      assert.equal(await commitCount(ws.git), commits)
    } finally {
      ws.cleanup()
    }
  })
})

describe('a bundle under the reserved id "templates"', () => {
  it('is refused with --replace over the CLI and HTTP (bundle id or --as), and lands under a free sibling id without it', async () => {
    const ws = await workspace()
    const server = await serve(ws.dir)
    try {
      const zip = await smallDeckBundle(ws.dir, 'Plain')
      const { files } = await readBundle(zip)
      files.set('deck.json', Buffer.from(JSON.stringify({ ...JSON.parse(files.get('deck.json')!.toString()), id: 'templates' })))
      const named = await packBundle(files, { deckId: 'templates', revision: 0 })
      writeFileSync(join(ws.dir, 'named.zip'), named)
      const commits = await commitCount(ws.git)
      for (const args of [['named.zip', '--replace'], ['small.zip', '--as', 'templates', '--replace']]) {
        const cli = await studio(ws.dir, ['deck', 'unpack', ...args, '--json'])
        assert.equal(cli.json?.status, 400, `${args.join(' ')}: ${cli.stdout}`)
        assert.match(cli.json.message, /reserved/)
      }
      for (const [body, query] of [[named, '?replace=1'], [zip, '?as=templates&replace=1']] as const) {
        const http = await postBundle(server.url, body, query)
        assert.equal(http.status, 400, `${query}: ${JSON.stringify(http.json)}`)
        assert.match(http.json.message, /reserved/)
      }
      assert.equal(await commitCount(ws.git), commits)
      assert.equal(await ws.git('status', '--porcelain', '--', 'decks'), '')
      const cli = await studio(ws.dir, ['deck', 'unpack', 'named.zip', '--json'])
      assert.equal(cli.code, 0, cli.stdout)
      const http = await postBundle(server.url, zip, '?as=templates')
      assert.equal(http.status, 200, JSON.stringify(http.json))
      for (const landed of [cli.json.id, http.json.id]) {
        assert.notEqual(landed, 'templates')
        assert.equal(existsSync(join(ws.dir, 'decks', landed, 'deck.json')), true)
      }
      assert.equal(existsSync(join(ws.dir, 'decks', 'templates', 'deck.json')), false)
    } finally {
      await server.stop()
      ws.cleanup()
    }
  })
})
