/**
 * The slide group on the command line, against the contract fixture (deck quarterly-review at
 * revision 3): listing, reading, and the structural writes (insert, remove, move, new, duplicate,
 * skip, background, put, import). Each write: the document afterwards, exactly one commit, 409 on a
 * stale --rev, and a bad input answered with its pointer.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

let fixture: Awaited<ReturnType<typeof fixtureWorkspace>>
const copies: string[] = []

/** A fresh copy of the fixture workspace for one test. */
function ws() {
  const dir = mkdtempSync(join(tmpdir(), 'studio-slide-'))
  cpSync(fixture.dir, dir, { recursive: true })
  copies.push(dir)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
  return {
    dir,
    run: (args: string[], stdin?: string) => studio(dir, [...args, '--json'], { stdin }),
    commits: () => Number(git('rev-list', '--count', 'HEAD').trim()),
    status: () => git('status', '--porcelain'),
    manifest: () => JSON.parse(readFileSync(join(dir, 'decks', FIXTURE_DECK, 'deck.json'), 'utf8')),
    slide: (id: string) => {
      const file = join(dir, 'decks', FIXTURE_DECK, 'slides', `${id}.json`)
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
    },
  }
}

type Ws = ReturnType<typeof ws>

/** Runs a write and checks it made exactly one commit and left the tree clean. */
async function oneCommit(w: Ws, args: string[], stdin?: string) {
  const before = w.commits()
  const r = await w.run(args, stdin)
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(w.commits(), before + 1, 'one commit')
  assert.equal(w.status(), '')
  return r.json
}

/** Runs a write that must fail: the status, code and pointer given, and nothing written. */
async function refused(w: Ws, args: string[], expected: { status: number; code?: string; pointer?: string }, stdin?: string) {
  const before = w.commits()
  const r = await w.run(args, stdin)
  assert.notEqual(r.code, 0, `${args.join(' ')} should fail`)
  assert.equal(r.json.status, expected.status, JSON.stringify(r.json))
  if (expected.code) assert.equal(r.json.code, expected.code)
  if (expected.pointer !== undefined) assert.equal(r.json.pointer, expected.pointer, JSON.stringify(r.json))
  assert.equal(w.commits(), before, 'no commit')
  assert.equal(w.status(), '')
  return r.json
}

const ids = (w: Ws) => w.manifest().sections.map((s: { id: string; slides: string[] }) => `${s.id}:${s.slides.join(',')}`)

before(async () => {
  fixture = await fixtureWorkspace()
})
after(() => {
  fixture.cleanup()
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

describe('slide.list and slide.get', () => {
  it('lists every slide in deck order with number, section, title, kind and lint counts', async () => {
    const w = ws()
    const r = await w.run(['slides'])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(r.json.slides.map((s: any) => [s.id, s.number, s.section, s.kind]), [
      ['title-1', 1, 'opening', 'title'],
      ['title-body-2', 2, 'opening', 'content'],
      ['two-columns-3', 3, 'detail', 'content'],
      ['freeform-4', 4, 'detail', 'freeform'],
    ])
    assert.equal(r.json.slides[1].title, 'Why now')
    for (const s of r.json.slides) assert.deepEqual(Object.keys(s.lint).sort(), ['error', 'info', 'warning'])
    assert.equal(r.json.revision, 3)
    const detail = await w.run(['slides', '--section-id', 'detail'])
    assert.deepEqual(detail.json.slides.map((s: any) => [s.id, s.number]), [['two-columns-3', 3], ['freeform-4', 4]])
    const unknown = await w.run(['slides', '--section-id', 'nope'])
    assert.equal(unknown.json.status, 404)
    assert.equal(unknown.json.pointer, '/sectionId')
  })

  it('reads one slide with the assets it references and no render record yet', async () => {
    const w = ws()
    const r = await w.run(['slide', 'get', 'freeform-4'])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(r.json.slide.id, 'freeform-4')
    assert.equal(r.json.slide.blocks.length, 5)
    assert.deepEqual(r.json.assets, ['logo'])
    assert.equal(r.json.render, null)
    assert.equal(r.json.section, 'detail')
    assert.equal(r.json.number, 4)
    const missing = await w.run(['slide', 'get', 'nope-9'])
    assert.equal(missing.code, 3)
    assert.equal(missing.json.code, 'not_found')
    assert.equal(missing.json.pointer, '/slideId')
  })
})

describe('slide.insert, slide.remove, slide.move', () => {
  it('inserts a slide document from stdin after a slide, with the first free <layout>-<n> id', async () => {
    const w = ws()
    const doc = { layout: 'agenda', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Agenda' }, { id: 'list', kind: 'list', slot: 'body', items: [{ text: 'One' }] }] }
    const r = await oneCommit(w, ['slide', 'insert', '--section', 'detail', '--after', 'two-columns-3'], JSON.stringify(doc))
    assert.equal(r.slide.id, 'agenda-1')
    assert.equal(r.sectionId, 'detail')
    assert.equal(r.revision, 4)
    assert.deepEqual(w.slide('agenda-1').blocks[1].items, [{ text: 'One' }])
    assert.deepEqual(w.manifest().sections[1].slides, ['two-columns-3', 'agenda-1', 'freeform-4'])
    // first in the section when --after is absent
    const first = await oneCommit(w, ['slide', 'insert', '--section', 'detail'], JSON.stringify(doc))
    assert.equal(first.slide.id, 'agenda-2')
    assert.equal(w.manifest().sections[1].slides[0], 'agenda-2')
  })

  it('refuses a stale revision, an unknown section, a taken id and a box on a slotted layout', async () => {
    const w = ws()
    const doc = JSON.stringify({ layout: 'title-body', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'x' }] })
    const stale = await refused(w, ['slide', 'insert', '--section', 'detail', '--rev', '2'], { status: 409, code: 'stale_revision' }, doc)
    assert.equal(stale.currentRevision, 3)
    await refused(w, ['slide', 'insert', '--section', 'nope'], { status: 404, pointer: '/sectionId' }, doc)
    await refused(w, ['slide', 'insert', '--section', 'opening', '--after', 'two-columns-3'], { status: 400, pointer: '/after' }, doc)
    await refused(w, ['slide', 'insert', '--section', 'detail'], { status: 409, code: 'id_taken', pointer: '/slide/id' }, JSON.stringify({ id: 'title-1', layout: 'title', title: 'x' }))
    const boxed = JSON.stringify({ layout: 'title-body', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'x', pos: { x: 0, y: 0, w: 10, h: 10 } }] })
    await refused(w, ['slide', 'insert', '--section', 'detail'], { status: 400, pointer: '/slide/blocks/0/pos' }, boxed)
    await refused(w, ['slide', 'insert', '--section', 'detail'], { status: 400, code: 'unknown_field', pointer: '/slide/colour' }, JSON.stringify({ layout: 'title', title: 'x', colour: 1 }))
  })

  it('removes a slide from the deck and its section', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'remove', 'title-body-2'])
    assert.equal(r.removed, 'title-body-2')
    assert.equal(w.slide('title-body-2'), undefined)
    assert.deepEqual(w.manifest().sections[0].slides, ['title-1'])
    await refused(w, ['slide', 'remove', 'title-body-2'], { status: 404, pointer: '/slideId' })
    await refused(w, ['slide', 'remove', 'title-1', '--rev', '3'], { status: 409, code: 'stale_revision' })
  })

  it('moves a slide to another section, after a slide or first', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'move', 'title-body-2', '--to', 'detail', '--after', 'two-columns-3'])
    assert.deepEqual(ids(w), ['opening:title-1', 'detail:two-columns-3,title-body-2,freeform-4'])
    assert.equal(r.sectionId, 'detail')
    await oneCommit(w, ['slide', 'move', 'freeform-4', '--to', 'opening'])
    assert.deepEqual(ids(w), ['opening:freeform-4,title-1', 'detail:two-columns-3,title-body-2'])
    await refused(w, ['slide', 'move', 'title-1', '--to', 'opening', '--after', 'two-columns-3'], { status: 400, pointer: '/after' })
    await refused(w, ['slide', 'move', 'title-1', '--to', 'nope'], { status: 404, pointer: '/sectionId' })
    await refused(w, ['slide', 'move', 'title-1', '--to', 'detail', '--rev', '3'], { status: 409 })
  })
})

describe('slide.new and slide.duplicate', () => {
  it('adds a slide of a layout with empty placeholders after the anchor', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'new', '--layout', 'two-columns', '--after', 'title-1'])
    assert.equal(r.slide.id, 'two-columns-1')
    assert.deepEqual(r.slide.blocks.map((b: any) => [b.slot, b.kind, b.text]), [['title', 'heading', ''], ['left', 'text', ''], ['right', 'text', '']])
    assert.deepEqual(w.manifest().sections[0].slides, ['title-1', 'two-columns-1', 'title-body-2'])
    const title = await oneCommit(w, ['slide', 'new', '--layout', 'title', '--section', 'detail'])
    assert.equal(title.slide.id, 'title-2')
    assert.equal(title.slide.title, '')
    assert.equal(w.manifest().sections[1].slides[0], 'title-2')
    const canvas = await oneCommit(w, ['slide', 'new', '--layout', 'freeform', '--id', 'blank-canvas'])
    assert.deepEqual(canvas.slide, { id: 'blank-canvas', layout: 'freeform', blocks: [] })
    await refused(w, ['slide', 'new', '--layout', 'freeform', '--id', 'title-1'], { status: 409, code: 'id_taken', pointer: '/id' })
    await refused(w, ['slide', 'new', '--layout', 'nope'], { status: 400, pointer: '/layout' })
    const table = await oneCommit(w, ['slide', 'new', '--layout', 'table'])
    assert.deepEqual(table.slide.blocks.map((b: any) => [b.slot, b.kind]), [['title', 'heading'], ['body', 'table'], ['caption', 'text']])
    const chart = await oneCommit(w, ['slide', 'new', '--layout', 'chart'])
    assert.deepEqual(chart.slide.blocks.map((b: any) => [b.slot, b.kind]), [['title', 'heading'], ['media', 'chart'], ['caption', 'text']])
    await refused(w, ['slide', 'new', '--layout', 'title', '--after', 'nope-1'], { status: 404, pointer: '/after' })
    await refused(w, ['slide', 'new', '--layout', 'title', '--rev', '3'], { status: 409 })
  })

  it('a new section header starts a section that takes the slides after the anchor', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'new', '--layout', 'section', '--after', 'title-1'])
    assert.equal(r.slide.id, 'section-1')
    assert.deepEqual(ids(w), ['opening:title-1', 'section-1:section-1,title-body-2', 'detail:two-columns-3,freeform-4'])
    assert.equal(r.sectionId, 'section-1')
    // first in a section: that section already starts there, no new one
    await oneCommit(w, ['slide', 'new', '--layout', 'section', '--section', 'detail'])
    assert.deepEqual(ids(w), ['opening:title-1', 'section-1:section-1,title-body-2', 'detail:section-2,two-columns-3,freeform-4'])
  })

  it('duplicates slides with fresh ids after the last of them, in one write', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'duplicate', 'two-columns-3,title-body-2'])
    assert.deepEqual(r.copies, [{ id: 'title-body-1', from: 'title-body-2' }, { id: 'two-columns-1', from: 'two-columns-3' }])
    assert.deepEqual(ids(w), ['opening:title-1,title-body-2', 'detail:two-columns-3,title-body-1,two-columns-1,freeform-4'])
    assert.deepEqual(w.slide('title-body-1').blocks, w.slide('title-body-2').blocks)
    await refused(w, ['slide', 'duplicate', 'title-1,nope-2'], { status: 404, pointer: '/slideIds/1' })
    await refused(w, ['slide', 'duplicate', 'title-1', '--rev', '3'], { status: 409 })
  })

  it('a copied section header starts a new section', async () => {
    const w = ws()
    await oneCommit(w, ['slide', 'new', '--layout', 'section', '--after', 'title-1'])
    await oneCommit(w, ['slide', 'duplicate', 'section-1'])
    assert.deepEqual(ids(w), ['opening:title-1', 'section-1:section-1', 'section-2:section-2,title-body-2', 'detail:two-columns-3,freeform-4'])
  })
})

describe('slide.skip, slide.setBackground, slide.replace', () => {
  it('skips slides and shows them again with --off', async () => {
    const w = ws()
    const r = await oneCommit(w, ['slide', 'skip', 'title-1,freeform-4'])
    assert.deepEqual(r.slides.map((s: any) => s.skip), [true, true])
    assert.equal(w.slide('freeform-4').skip, true)
    await oneCommit(w, ['slide', 'skip', 'freeform-4', '--off'])
    assert.equal(w.slide('freeform-4').skip, undefined)
    assert.equal(w.slide('title-1').skip, true)
    await refused(w, ['slide', 'skip', 'nope-1'], { status: 404, pointer: '/slideIds/0' })
    await refused(w, ['slide', 'skip', 'title-1', '--rev', '3'], { status: 409 })
  })

  it('sets and removes slide backgrounds', async () => {
    const w = ws()
    await oneCommit(w, ['slide', 'background', 'title-1,title-body-2', '--color', '#112233'])
    assert.equal(w.slide('title-body-2').background, '#112233')
    await oneCommit(w, ['slide', 'background', 'title-1'])
    assert.equal(w.slide('title-1').background, undefined)
    assert.equal(w.slide('title-body-2').background, '#112233')
    await refused(w, ['slide', 'background', 'title-1', '--color', 'Not a colour'], { status: 400, pointer: '/background/color' })
    await refused(w, ['slide', 'background', 'nope-1', '--color', 'ink'], { status: 404, pointer: '/slideIds/0' })
  })

  it('replaces a whole slide from stdin (slide put) and answers with its findings', async () => {
    const w = ws()
    const doc = { layout: 'main-point', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'One thing matters.' }], notes: 'Say it slowly.' }
    const r = await oneCommit(w, ['slide', 'put', 'title-body-2'], JSON.stringify(doc))
    assert.deepEqual(w.slide('title-body-2'), { id: 'title-body-2', ...doc })
    assert.ok(Array.isArray(r.findings))
    await refused(w, ['slide', 'put', 'title-body-2'], { status: 400, pointer: '/slide/id' }, JSON.stringify({ ...doc, id: 'other-1' }))
    await refused(w, ['slide', 'put', 'title-body-2'], { status: 400, pointer: '/slide/blocks/0/text' }, JSON.stringify({ layout: 'main-point', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 5 }] }))
    await refused(w, ['slide', 'put', 'title-body-2'], { status: 400, pointer: '/slide/blocks/0/text' }, JSON.stringify({ layout: 'main-point', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: '<b>x</b>' }] }))
    await refused(w, ['slide', 'put', 'nope-1'], { status: 404, pointer: '/slideId' }, JSON.stringify(doc))
    await refused(w, ['slide', 'put', 'title-body-2', '--rev', '3'], { status: 409 }, JSON.stringify(doc))
  })
})

describe('slide.import', () => {
  it('copies slides and their asset files from another deck in one write, renaming colliding ids', async () => {
    const w = ws()
    const other = await w.run(['deck', 'create', 'Other deck', '--from', 'blank'])
    assert.equal(other.code, 0, other.stdout)
    // the source deck gets a picture file beside the logo record
    writeFileSync(join(w.dir, 'decks', FIXTURE_DECK, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    execFileSync('git', ['add', '-A'], { cwd: w.dir })
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-qm', 'logo file'], { cwd: w.dir })
    const sourceBefore = execFileSync('git', ['rev-parse', `HEAD:decks/${FIXTURE_DECK}`], { cwd: w.dir, encoding: 'utf8' })
    const r = await oneCommit(w, ['slide', 'import', FIXTURE_DECK, 'freeform-4,title-1', '--after', 'title-1', '--deck', 'other-deck'])
    assert.deepEqual(r.slides.map((s: any) => [s.from, s.id, s.renamed]), [['freeform-4', 'freeform-4', false], ['title-1', 'title-2', true]])
    assert.deepEqual(r.assets, [{ id: 'logo', files: ['logo.json', 'logo.png'] }])
    const otherDir = join(w.dir, 'decks', 'other-deck')
    assert.ok(existsSync(join(otherDir, 'assets', 'logo.png')))
    assert.deepEqual(JSON.parse(readFileSync(join(otherDir, 'deck.json'), 'utf8')).sections[0].slides, ['title-1', 'freeform-4', 'title-2'])
    assert.equal(JSON.parse(readFileSync(join(otherDir, 'slides', 'title-2.json'), 'utf8')).title, 'Quarterly review')
    // the source deck was only read
    assert.equal(execFileSync('git', ['rev-parse', `HEAD:decks/${FIXTURE_DECK}`], { cwd: w.dir, encoding: 'utf8' }), sourceBefore)
    assert.equal(w.manifest().revision, 3)
    await refused(w, ['slide', 'import', 'no-such-deck', 'title-1', '--deck', 'other-deck'], { status: 404, pointer: '/sourceDeckId' })
    await refused(w, ['slide', 'import', FIXTURE_DECK, 'nope-1', '--deck', 'other-deck'], { status: 404, pointer: '/slideIds/0' })
    await refused(w, ['slide', 'import', FIXTURE_DECK, 'title-1', '--deck', 'other-deck', '--rev', '0'], { status: 409 })
  })
})

describe('slide new without --after', () => {
  it('lands first in the last section, after the section header that opens it', async () => {
    const order = await workspaceWithDeck('Order')
    try {
      assert.equal((await studio(order.dir, ['slide', 'new', '--layout', 'section', '--after', 'title-1', '--json'])).code, 0)
      const made = await studio(order.dir, ['slide', 'new', '--layout', 'two-columns', '--json'])
      assert.equal(made.code, 0, made.stdout)
      const info = await studio(order.dir, ['info', '--json'])
      const last = info.json.sections[info.json.sections.length - 1]
      assert.deepEqual(last.slides.map((s: { id: string }) => s.id), ['section-1', 'two-columns-1'])
    } finally {
      order.cleanup()
    }
  })
})
