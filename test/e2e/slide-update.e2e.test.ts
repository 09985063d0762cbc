/**
 * slide.update (`studio slide patch`) and its 16 mutation kinds, all or nothing; slide.lease and
 * the lease check every write passes through.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { MUTATION_KINDS } from '../../src/actions/slide/mutations.js'
import { applyAll } from '../../src/actions/slide/update.js'
import { StudioError } from '../../src/core/errors.js'
import type { DeckDoc } from '../../src/model/deck.js'
import { applyMutation, mutationKinds, type Mutation } from '../../src/model/mutations/index.js'
import { FIXTURE_DECK, FIXTURE_SLIDES, fixtureWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

let fixture: Awaited<ReturnType<typeof fixtureWorkspace>>
const copies: string[] = []

function ws() {
  const dir = mkdtempSync(join(tmpdir(), 'studio-slide-update-'))
  cpSync(fixture.dir, dir, { recursive: true })
  copies.push(dir)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
  return {
    dir,
    run: (args: string[], stdin?: string) => studio(dir, [...args, '--json'], { stdin }),
    commits: () => Number(git('rev-list', '--count', 'HEAD').trim()),
    status: () => git('status', '--porcelain'),
    manifest: () => JSON.parse(readFileSync(join(dir, 'decks', FIXTURE_DECK, 'deck.json'), 'utf8')),
    slide: (id: string) => JSON.parse(readFileSync(join(dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`), 'utf8')),
  }
}

before(async () => {
  fixture = await fixtureWorkspace()
})
after(() => {
  fixture.cleanup()
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

/** The fixture deck in memory, for the in-process checks of the mutation kinds. */
function fixtureDoc(): DeckDoc {
  const now = '2026-11-22T00:00:00.000Z'
  return {
    manifest: {
      id: FIXTURE_DECK,
      title: 'Quarterly review',
      theme: 'studio-simple',
      sections: [
        { id: 'opening', title: 'Opening', slides: ['title-1', 'title-body-2'] },
        { id: 'detail', title: 'Detail', slides: ['two-columns-3', 'freeform-4'] },
      ],
      revision: 3,
      stamps: { createdAt: now, updatedAt: now },
    },
    slides: Object.fromEntries(structuredClone(FIXTURE_SLIDES).map((s) => [s.id, s])) as DeckDoc['slides'],
    versions: [],
  }
}

describe('slide.update on the command line', () => {
  it('patches a pointer with --set and answers the slide with its findings, in one commit', async () => {
    const w = ws()
    const r = await w.run(['slide', 'patch', 'title-body-2', '--set', '/notes="Hi"', '--set', '/blocks/1/text=Costs fell.'])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(r.json.slide.notes, 'Hi')
    assert.equal(w.slide('title-body-2').blocks[1].text, 'Costs fell.')
    assert.ok(Array.isArray(r.json.findings))
    assert.equal(r.json.revision, 4)
    assert.equal(w.commits(), Number(execFileSync('git', ['rev-list', '--count', 'HEAD~1'], { cwd: w.dir, encoding: 'utf8' })) + 1)
    assert.equal(w.status(), '')
    const stale = await w.run(['slide', 'patch', 'title-body-2', '--set', '/notes=x', '--rev', '3'])
    assert.equal(stale.json.status, 409)
    assert.equal(stale.json.currentRevision, 4)
    const missing = await w.run(['slide', 'patch', 'nope-1', '--set', '/notes=x'])
    assert.equal(missing.json.status, 404)
    assert.equal(missing.json.pointer, '/slideId')
  })

  it('applies every kind of mutation in one write', async () => {
    const w = ws()
    const before = w.commits()
    const mutations = [
      { kind: 'set', pointer: '/blocks/1/size', value: 32 },
      { kind: 'remove', pointer: '/blocks/1/size' },
      { kind: 'text.replace', pointer: '/blocks/1/text', text: 'Costs <i>fell</i>.' },
      { kind: 'deck.set', path: '/title', value: 'Q3 review' },
      { kind: 'block.insert', block: { id: 'b9', kind: 'text', text: 'New' }, slot: 'body', after: 'b1' },
      { kind: 'block.set', blockId: 'b9', path: '/align', value: 'center' },
      { kind: 'block.move', blockId: 'b2', slot: 'footer' },
      { kind: 'blocks.reorder', slot: 'body', blockIds: ['b9', 'b1'] },
      { kind: 'block.replace', block: { id: 'b9', kind: 'heading', text: 'Replaced' } },
      { kind: 'block.remove', blockId: 'b2' },
      { kind: 'notes.set', notes: 'Pause here.' },
      { kind: 'skip.set', skip: true },
      { kind: 'background.set', background: 'accent' },
      { kind: 'title.set', text: 'Why now, really' },
      { kind: 'layout.set', layout: 'two-columns' },
      { kind: 'block.position', blockId: 'b9', pos: { x: 100, y: 100, w: 400, h: 100 }, z: 0 },
    ]
    assert.deepEqual(new Set(mutations.map((m) => m.kind)), new Set(MUTATION_KINDS))
    const r = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations })])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(w.commits(), before + 1)
    const slide = w.slide('title-body-2')
    assert.equal(slide.layout, 'freeform')
    assert.equal(slide.notes, 'Pause here.')
    assert.equal(slide.skip, true)
    assert.equal(slide.background, 'accent')
    const byId = Object.fromEntries(slide.blocks.map((b: any) => [b.id, b]))
    assert.deepEqual(Object.keys(byId).sort(), ['b1', 'b9', 'title'])
    assert.equal(byId.b9.kind, 'heading')
    assert.deepEqual(byId.b9.pos, { x: 100, y: 100, w: 400, h: 100 })
    assert.equal(byId.b9.z, 0)
    assert.equal(byId.b1.text, 'Costs <i>fell</i>.')
    assert.equal(byId.title.text, 'Why now, really')
    for (const b of slide.blocks) assert.ok(b.pos && typeof b.z === 'number' && b.slot === undefined)
    assert.equal(w.manifest().title, 'Q3 review')
  })

  it('an update whose third mutation is invalid answers 400 naming it, with no commit and a clean tree', async () => {
    const w = ws()
    const before = w.commits()
    const mutations = [
      { kind: 'notes.set', notes: 'Written?' },
      { kind: 'deck.set', path: '/title', value: 'Never' },
      { kind: 'block.remove', blockId: 'no-such-block' },
      { kind: 'skip.set', skip: true },
    ]
    const r = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations })])
    assert.equal(r.code, 2)
    assert.equal(r.json.status, 400)
    assert.equal(r.json.pointer, '/mutations/2/blockId')
    assert.match(r.json.message, /Mutation 2 \(block\.remove\)/)
    assert.equal(w.commits(), before)
    assert.equal(w.status(), '')
    assert.equal(w.slide('title-body-2').notes, undefined)
    assert.equal(w.manifest().title, 'Quarterly review')
  })

  it('a step that would leave the slide invalid is named by its index; so is a malformed step', async () => {
    const w = ws()
    const before = w.commits()
    const bad = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: [{ kind: 'notes.set', notes: 'x' }, { kind: 'set', pointer: '/blocks/0/text', value: 5 }] })])
    assert.equal(bad.json.status, 400)
    assert.equal(bad.json.pointer, '/mutations/1')
    assert.match(bad.json.message, /blocks\/0\/text/)
    const twice = await w.run(['slide', 'patch', 'title-body-2', '--set', '/blocks/-={"id":"b1","kind":"text","slot":"body","text":"again"}'])
    assert.equal(twice.json.pointer, '/mutations/0')
    assert.match(twice.json.message, /appears twice/)
    const unknown = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: [{ kind: 'notes.set', notes: 'x' }, { kind: 'notes.set', notes: 'y', extra: 1 }] })])
    assert.equal(unknown.json.code, 'unknown_field')
    assert.equal(unknown.json.pointer, '/mutations/1/extra')
    const kind = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: [{ kind: 'nope' }] })])
    assert.equal(kind.json.status, 400)
    assert.equal(kind.json.pointer, '/mutations/0')
    const markup = await w.run(['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: [{ kind: 'text.replace', pointer: '/blocks/1/text', text: '<b>bold</b>' }] })])
    assert.equal(markup.json.status, 400)
    assert.equal(markup.json.pointer, '/mutations/0')
    assert.match(markup.json.message, /markup/)
    const id = await w.run(['slide', 'patch', 'title-body-2', '--set', '/id=other'])
    assert.equal(id.json.pointer, '/mutations/0/pointer')
    assert.equal(w.commits(), before)
    assert.equal(w.status(), '')
  })
})

describe('the mutation kinds', () => {
  it('are registered once each, one per declared kind', () => {
    assert.deepEqual([...mutationKinds()].sort(), [...MUTATION_KINDS].sort())
  })

  it('answer a step that does not apply with ok: false and a pointer, never an exception', () => {
    const cases: [string, Mutation, string][] = [
      ['title-body-2', { kind: 'set', pointer: '/blocks/9/text', value: 'x' }, '/pointer'],
      ['title-body-2', { kind: 'remove', pointer: '/nope' }, '/pointer'],
      ['title-body-2', { kind: 'text.replace', pointer: '/blocks/2/items', text: 'x' }, '/pointer'],
      ['title-body-2', { kind: 'deck.set', path: '/theme', value: 'nope' }, '/value'],
      ['title-body-2', { kind: 'block.insert', block: { id: 'b1', kind: 'text', text: 'x' }, slot: 'body' }, '/block/id'],
      ['title-body-2', { kind: 'block.remove', blockId: 'zz' }, '/blockId'],
      ['title-body-2', { kind: 'block.move', blockId: 'b1', slot: 'body', after: 'title' }, '/after'],
      ['title-body-2', { kind: 'block.replace', block: { id: 'zz', kind: 'text', text: 'x' } }, '/block/id'],
      ['title-body-2', { kind: 'block.set', blockId: 'b1', path: '/id', value: 'x' }, '/path'],
      ['title-body-2', { kind: 'block.position', blockId: 'zz', pos: { x: 0, y: 0, w: 1, h: 1 } }, '/blockId'],
      ['title-body-2', { kind: 'blocks.reorder', slot: 'body', blockIds: ['b1'] }, '/blockIds'],
      ['title-body-2', { kind: 'title.set', text: 'x', field: 'byline' }, '/field'],
      ['freeform-4', { kind: 'block.move', blockId: 'b1', slot: 'body' }, '/slot'],
      ['freeform-4', { kind: 'block.insert', block: { id: 'b9', kind: 'text', text: 'x' } }, '/block/pos'],
    ]
    for (const [slideId, mutation, pointer] of cases) {
      const doc = fixtureDoc()
      const result = applyMutation(doc.slides[slideId], mutation, doc)
      assert.equal(result.ok, false, `${mutation.kind} should fail`)
      if (!result.ok) assert.equal(result.pointer, pointer, `${mutation.kind}: ${result.message}`)
    }
  })

  it('applies any list all or nothing: the original document never changes, a failure names a step in range', async () => {
    const text = fc.string({ maxLength: 12 })
    const blockId = fc.constantFrom('title', 'b1', 'b2', 'b3', 'zz')
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), pointer: fc.constantFrom('/notes', '/blocks/0/text', '/blocks/7', '/skip', '/title'), value: fc.oneof(text, fc.integer(), fc.boolean()) }),
      fc.record({ kind: fc.constant('remove' as const), pointer: fc.constantFrom('/notes', '/blocks/1', '/blocks/0/text', '/nope') }),
      fc.record({ kind: fc.constant('text.replace' as const), pointer: fc.constantFrom('/blocks/0/text', '/blocks/1/text', '/title'), text }),
      fc.record({ kind: fc.constant('block.remove' as const), blockId }),
      fc.record({ kind: fc.constant('block.move' as const), blockId, slot: fc.constantFrom('body', 'left', 'right', 'footer') }),
      fc.record({ kind: fc.constant('block.insert' as const), block: fc.record({ id: blockId, kind: fc.constant('text'), text }), slot: fc.constantFrom('body', 'left') }),
      fc.record({ kind: fc.constant('notes.set' as const), notes: text }),
      fc.record({ kind: fc.constant('skip.set' as const), skip: fc.boolean() }),
      fc.record({ kind: fc.constant('title.set' as const), text }),
      fc.record({ kind: fc.constant('layout.set' as const), layout: fc.constantFrom('title', 'two-columns', 'freeform', 'main-point', 'title-body') }),
      fc.record({ kind: fc.constant('block.position' as const), blockId, pos: fc.constant({ x: 10, y: 10, w: 100, h: 50 }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('title-1', 'title-body-2', 'two-columns-3', 'freeform-4'), fc.array(mutation, { minLength: 1, maxLength: 6 }), async (slideId, mutations) => {
        const original = fixtureDoc()
        const frozen = JSON.stringify(original)
        const copy = structuredClone(original)
        try {
          await applyAll(copy, slideId, mutations)
        } catch (error) {
          assert.ok(error instanceof StudioError, String(error))
          // 400 for a step that does not apply; 409 id_taken for a block inserted under an id in use.
          assert.ok(error.status === 400 || error.code === 'id_taken', `${error.status} ${error.code}`)
          const index = Number(/^\/mutations\/(\d+)/.exec(error.extra.pointer ?? '')?.[1])
          assert.ok(index >= 0 && index < mutations.length, error.extra.pointer)
        }
        assert.equal(JSON.stringify(original), frozen)
      }),
      { numRuns: 150 },
    )
  })
})

describe('slide.lease', () => {
  it("takes a lease (no commit); another author's write answers 409 naming the holder unless forced", async () => {
    const w = ws()
    const before = w.commits()
    const lease = await w.run(['lease', 'two-columns-3', '--minutes', '5', '--author', 'alice'])
    assert.equal(lease.code, 0, lease.stdout)
    assert.equal(lease.json.lease.author, 'alice')
    const minutes = (Date.parse(lease.json.lease.until) - Date.now()) / 60_000
    assert.ok(minutes > 4 && minutes <= 5, String(minutes))
    assert.equal(w.commits(), before)
    assert.equal(w.status(), '')

    const blocked = await w.run(['slide', 'patch', 'two-columns-3', '--set', '/notes=bob', '--author', 'bob'])
    assert.equal(blocked.code, 4)
    assert.equal(blocked.json.status, 409)
    assert.equal(blocked.json.code, 'leased')
    assert.equal(blocked.json.holder.author, 'alice')
    const skip = await w.run(['slide', 'skip', 'title-1,two-columns-3', '--author', 'bob'])
    assert.equal(skip.json.code, 'leased')
    assert.equal(w.commits(), before)
    // the holder writes; another slide is free; force overrides
    assert.equal((await w.run(['slide', 'patch', 'two-columns-3', '--set', '/notes=alice', '--author', 'alice'])).code, 0)
    assert.equal((await w.run(['slide', 'patch', 'title-1', '--set', '/notes=bob', '--author', 'bob'])).code, 0)
    const forced = await w.run(['slide', 'patch', 'two-columns-3', '--set', '/notes=bob', '--author', 'bob', '--force'])
    assert.equal(forced.code, 0, forced.stdout)
    assert.equal(w.slide('two-columns-3').notes, 'bob')
  })

  it('releases only for the holder (or with force), and renews for the holder', async () => {
    const w = ws()
    await w.run(['lease', 'title-1', '--author', 'alice'])
    const taken = await w.run(['lease', 'title-1', '--author', 'bob'])
    assert.equal(taken.json.code, 'leased')
    assert.equal(taken.json.holder.author, 'alice')
    const release = await w.run(['lease', 'title-1', '--release', '--author', 'bob'])
    assert.equal(release.json.code, 'leased')
    const renewed = await w.run(['lease', 'title-1', '--minutes', '30', '--author', 'alice'])
    assert.ok(Date.parse(renewed.json.lease.until) - Date.now() > 25 * 60_000)
    const released = await w.run(['lease', 'title-1', '--release', '--author', 'alice'])
    assert.equal(released.code, 0, released.stdout)
    assert.equal(released.json.lease, null)
    assert.equal((await w.run(['slide', 'patch', 'title-1', '--set', '/notes=bob', '--author', 'bob'])).code, 0)
    await w.run(['lease', 'title-1', '--author', 'alice'])
    const stolen = await w.run(['lease', 'title-1', '--force', '--author', 'bob'])
    assert.equal(stolen.json.lease.author, 'bob')
    const unknown = await w.run(['lease', 'nope-1'])
    assert.equal(unknown.json.status, 404)
    assert.equal(unknown.json.pointer, '/slideId')
    const bad = await w.run(['lease', 'title-1', '--minutes', '0'])
    assert.equal(bad.json.status, 400)
    assert.equal(bad.json.pointer, '/minutes')
  })

  it('an expired lease does not hold a write back', async () => {
    const w = ws()
    mkdirSync(join(w.dir, '.studio'), { recursive: true })
    const past = new Date(Date.now() - 60_000).toISOString()
    writeFileSync(join(w.dir, '.studio', 'leases.json'), JSON.stringify({ [FIXTURE_DECK]: { 'title-1': { author: 'alice', until: past } } }))
    const r = await w.run(['slide', 'patch', 'title-1', '--set', '/notes=bob', '--author', 'bob'])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(w.slide('title-1').notes, 'bob')
  })
})
