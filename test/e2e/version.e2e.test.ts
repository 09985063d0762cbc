/**
 * Named versions, restore and the diff forms, through the CLI, on histories written by several
 * authors (--author) in the contract fixture (deck quarterly-review at revision 3: title-1,
 * title-body-2 in section Opening; two-columns-3, freeform-4 in section Detail).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { fixtureWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, type CliResult, commitCount, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>

async function ok(ws: Ws, args: string[], options: { stdin?: string } = {}): Promise<CliResult> {
  const r = await studio(ws.dir, [...args, '--json'], options)
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r
}

const slideFile = (ws: Ws, id: string) => join(ws.dir, 'decks/quarterly-review/slides', `${id}.json`)
const read = (file: string) => readFileSync(file, 'utf8')

describe('named versions: save, list, restore', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('saves a named version at the current revision in one commit, with the caller as author', async () => {
    await ok(ws, ['slide', 'patch', 'title-body-2', '--set', '/blocks/0/text="Pricing"', '--author', 'alice'])
    const commits = await commitCount(ws.git)
    const saved = await ok(ws, ['version', 'save', '-m', 'Board draft', '--author', 'carol'])
    assert.deepEqual({ ...saved.json.version, at: typeof saved.json.version.at }, { n: 1, author: 'carol', note: 'Board draft', revision: 4, at: 'string' })
    assert.equal(saved.json.revision, 5)
    assert.equal(await commitCount(ws.git), commits + 1)
    assert.match(await ws.git('log', '-1', '--format=%an %s'), /^carol version\.save quarterly-review r5/)
    const log = JSON.parse(read(join(ws.dir, 'decks/quarterly-review/versions.json')))
    assert.equal(log.length, 1)
    const listed = await ok(ws, ['version', 'list'])
    assert.deepEqual(listed.json.versions, log)
    assert.equal(listed.json.revision, 5)
    const unknown = await studio(ws.dir, ['version', 'list', '--input', '{"since":1}', '--json'])
    assert.equal(unknown.code, 2)
    assert.deepEqual([unknown.json.code, unknown.json.pointer], ['unknown_field', '/since'])
    const human = await studio(ws.dir, ['version', 'list'])
    assert.match(human.stdout, /^1 {2}r4 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}carol {2}Board draft\nCurrent revision: 5\n$/)
  })

  it('refuses an empty note with 400 and its pointer, and writes nothing', async () => {
    const commits = await commitCount(ws.git)
    const r = await studio(ws.dir, ['version', 'save', '-m', '', '--json'])
    assert.equal(r.code, 2)
    assert.equal(r.json.pointer, '/note')
    assert.equal(await commitCount(ws.git), commits)
  })

  it('restores a version as one new revision: slides added since go, removed ones come back, the log stays', async () => {
    const title1 = read(slideFile(ws, 'title-1'))
    const freeform = read(slideFile(ws, 'freeform-4'))
    await ok(ws, ['slide', 'remove', 'title-1', '--author', 'bob'])
    await ok(ws, ['slide', 'new', '--layout', 'agenda', '--section', 'detail', '--after', 'freeform-4', '--id', 'agenda-9', '--author', 'bob'])
    await ok(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '40', '--author', 'dave'])
    const second = await ok(ws, ['version', 'save', '-m', 'After the review', '--author', 'dave'])
    assert.equal(second.json.version.n, 2)
    assert.equal(second.json.version.revision, 8)
    const atEight = ['title-body-2', 'freeform-4', 'agenda-9'].map((id) => read(slideFile(ws, id)))

    const commits = await commitCount(ws.git)
    const restored = await ok(ws, ['version', 'restore', '1', '--author', 'erin'])
    // The result carries the new content's version tag beside its revision.
    assert.match(restored.json.tag, /^[0-9a-f]{24}$/)
    assert.deepEqual({ ...restored.json, tag: undefined }, {
      tag: undefined,
      restored: { n: 1, note: 'Board draft', revision: 4 },
      changes: [
        "Slide 1 'Quarterly review' added (title) in section 'Opening'",
        'Slide 4 (freeform-4): block b3 moved 40 px left',
        'Slide 4 (agenda-9) removed',
      ],
      revision: 10,
    })
    assert.equal(await commitCount(ws.git), commits + 1)
    assert.match(await ws.git('log', '-1', '--format=%an %s'), /^erin version\.restore quarterly-review r10/)
    assert.equal(read(slideFile(ws, 'title-1')), title1)
    assert.equal(read(slideFile(ws, 'freeform-4')), freeform)
    assert.equal(existsSync(slideFile(ws, 'agenda-9')), false)
    assert.match(read(slideFile(ws, 'title-body-2')), /"text": "Pricing"/)
    const versions = (await ok(ws, ['version', 'list'])).json
    assert.deepEqual(versions.versions.map((v: { n: number }) => v.n), [1, 2])
    assert.equal(versions.revision, 10)
    assert.equal(await ws.git('status', '--porcelain'), '')

    // Undo: restoring the version saved before brings revision 8 back.
    await ok(ws, ['version', 'restore', '2', '--author', 'erin'])
    assert.deepEqual(['title-body-2', 'freeform-4', 'agenda-9'].map((id) => read(slideFile(ws, id))), atEight)
    assert.equal(existsSync(slideFile(ws, 'title-1')), false)
  })

  it('shows the restore in history: version diff names it and its author, diff says what it did', async () => {
    const vd = await ok(ws, ['version', 'diff', '9', '10'])
    assert.deepEqual(vd.json.byAuthor.map((g: { author: string; mutations: { action: string; touched: string[] }[] }) => [g.author, g.mutations.map((m) => `${m.action} ${m.touched.join(' ')}`)]), [
      ['erin', ['version.restore agenda-9 freeform-4#b3 title-1']],
    ])
    const d = await studio(ws.dir, ['diff', '9', '10'])
    assert.equal(d.stdout, "Slide 1 'Quarterly review' added (title) in section 'Opening'\nSlide 4 (freeform-4): block b3 moved 40 px left\nSlide 4 (agenda-9) removed\n")
  })

  it('refuses a stale baseRevision with 409 and an unknown version with 404 on /n', async () => {
    const commits = await commitCount(ws.git)
    const stale = await studio(ws.dir, ['version', 'restore', '1', '--rev', '3', '--json'])
    assert.equal(stale.code, 4)
    assert.equal(stale.json.code, 'stale_revision')
    assert.equal(stale.json.currentRevision, 11)
    const missing = await studio(ws.dir, ['version', 'restore', '7', '--json'])
    assert.equal(missing.code, 3)
    assert.equal(missing.json.code, 'not_found')
    assert.equal(missing.json.pointer, '/n')
    assert.equal(await commitCount(ws.git), commits)
  })
})

describe('diffs between revisions, with several authors', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
    await ok(ws, ['slide', 'patch', 'title-body-2', '--set', '/blocks/0/text="Pricing"', '--author', 'alice']) // r4
    await ok(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '40', '--dy', '-8', '--author', 'bob']) // r5
    await ok(ws, ['deck', 'rename', 'Q3 review', '--author', 'alice']) // r6
    const sections = [
      { id: 'opening', title: 'Opening', slides: ['title-1'] },
      { id: 'detail', title: 'Detail', slides: ['two-columns-3', 'title-body-2', 'freeform-4'] },
    ]
    await ok(ws, ['sections', 'set', '--author', 'carol'], { stdin: JSON.stringify(sections) }) // r7
    await ok(ws, ['slide', 'skip', 'two-columns-3', '--author', 'bob']) // r8
  })
  after(() => ws.cleanup())

  it('describes every change between two revisions in prose, word for word', async () => {
    const r = await ok(ws, ['diff', '3', '8'])
    assert.deepEqual(r.json.changes, [
      "Deck title changed from 'Quarterly review' to 'Q3 review'",
      "Slide 2 'Before and after': skipped",
      "Slide 3 'Pricing': moved from section 'Opening' to 'Detail'; title changed from 'Why now' to 'Pricing'",
      'Slide 4 (freeform-4): block b3 moved 40 px right and 8 px up',
    ])
    assert.equal(r.json.from, 3)
    assert.equal(r.json.to, 8)
    assert.deepEqual(r.json.counts, { added: 0, removed: 0, moved: 0, changed: 3 })
    const human = await studio(ws.dir, ['diff', '3', '8'])
    assert.equal(human.stdout, r.json.changes.join('\n') + '\n')
  })

  it('diffs across a deck rename (the title changes, the id stays)', async () => {
    const r = await ok(ws, ['diff', '5', '6'])
    assert.deepEqual(r.json.changes, ["Deck title changed from 'Quarterly review' to 'Q3 review'"])
    assert.equal(r.json.deck, 'quarterly-review')
  })

  it('says a slide moved between sections, and nothing else, for a section.set', async () => {
    const r = await ok(ws, ['diff', '6', '7'])
    assert.deepEqual(r.json.changes, ["Slide 3 'Pricing': moved from section 'Opening' to 'Detail'"])
    assert.deepEqual(r.json.counts, { added: 0, removed: 0, moved: 1, changed: 0 })
  })

  it('lists the mutations grouped by touched block and by author', async () => {
    const r = await ok(ws, ['version', 'diff', '3', '8'])
    assert.equal(r.json.count, 5)
    const blocks = r.json.byBlock.map((g: { target: string; mutations: { revision: number; author: string; action: string }[] }) => `${g.target}: ${g.mutations.map((m) => `r${m.revision} ${m.action} by ${m.author}`).join(', ')}`)
    assert.deepEqual(blocks, [
      'deck: r6 deck.rename by alice',
      'two-columns-3: r8 slide.skip by bob',
      'title-body-2: r7 section.set by carol',
      'title-body-2#title: r4 slide.update by alice',
      'freeform-4#b3: r5 block.nudge by bob',
    ])
    const authors = r.json.byAuthor.map((g: { author: string; mutations: { revision: number; touched: string[] }[] }) => `${g.author}: ${g.mutations.map((m) => `r${m.revision} ${m.touched.join(' ')}`).join(', ')}`)
    assert.deepEqual(authors, ['alice: r4 title-body-2#title, r6 deck', 'bob: r5 freeform-4#b3, r8 two-columns-3', 'carol: r7 title-body-2'])
    const human = await studio(ws.dir, ['version', 'diff', '6', '8'])
    assert.equal(
      human.stdout,
      [
        'quarterly-review: 2 mutations from revision 6 to 8',
        'By block:',
        "  two-columns-3 'Before and after': r8 slide.skip (bob)",
        "  title-body-2 'Pricing': r7 section.set (carol)",
        'By author:',
        '  carol: r7 section.set title-body-2',
        '  bob: r8 slide.skip two-columns-3',
        '',
      ].join('\n'),
    )
  })

  it('diffs from the newest named version with staged (and diff.run without from)', async () => {
    await ok(ws, ['version', 'save', '-m', 'Sent to the board', '--author', 'carol']) // r9, names r8
    await ok(ws, ['slide', 'patch', 'title-1', '--set', '/notes="Open with the numbers."', '--author', 'alice']) // r10
    const staged = await ok(ws, ['version', 'diff', '--staged'])
    assert.equal(staged.json.from, 8)
    assert.equal(staged.json.to, 10)
    assert.deepEqual(staged.json.fromVersion, { n: 1, note: 'Sent to the board' })
    assert.deepEqual(staged.json.byBlock.map((g: { target: string }) => g.target), ['versions', 'title-1'])
    const prose = await ok(ws, ['diff'])
    assert.equal(prose.json.from, 8)
    assert.deepEqual(prose.json.changes, ["Named version 1 saved: 'Sent to the board'", "Slide 1 'Quarterly review': notes changed from 'Welcome everyone to Acme.' to 'Open with the numbers.'"])
    assert.deepEqual((await ok(ws, ['diff', '--staged'])).json.changes, prose.json.changes)
    // Without staged, version.diff covers the whole history: the deck's creation at 0 onwards.
    const all = await ok(ws, ['version', 'diff'])
    assert.equal(all.json.from, 0)
    assert.equal(all.json.count, 8)
    assert.deepEqual(all.json.byAuthor.map((g: { author: string }) => g.author), ['fixture', 'alice', 'bob', 'carol'])
  })

  it('writes before and after crops of every touched block with render, each side drawn as it was', async () => {
    const r = await ok(ws, ['diff', '3', '5', '--render', '--theme', 'light,dark'])
    const crops = r.json.crops as { slideId: string; blockId: string | null; theme: string; before: string; after: string; box: { x: number; y: number; w: number; h: number } }[]
    assert.deepEqual(crops.map((c) => `${c.slideId}#${c.blockId} ${c.theme}`), ['title-body-2#title light', 'title-body-2#title dark', 'freeform-4#b3 light', 'freeform-4#b3 dark'])
    for (const c of crops) {
      assert.match(c.before, /^\.studio\/diff\/quarterly-review-.*\.before\.png$/)
      const [before, after] = await Promise.all([sharp(join(ws.dir, c.before)).metadata(), sharp(join(ws.dir, c.after)).metadata()])
      assert.deepEqual([before.width, before.height], [c.box.w, c.box.h])
      assert.deepEqual([after.width, after.height], [c.box.w, c.box.h])
    }
    // The title's words changed: its two pictures differ. The nudged picture's crop spans both places (40 px apart).
    const pixels = async (file: string) => (await sharp(join(ws.dir, file)).raw().toBuffer()).toString('base64')
    assert.notEqual(await pixels(crops[0].before), await pixels(crops[0].after))
    assert.equal(crops[2].box.w, 300 + 40 + 2 * 24)
    // A slide that only moved between sections has nothing to picture.
    assert.deepEqual((await ok(ws, ['diff', '6', '7', '--render'])).json.crops, [])
  })

  it('refuses revisions out of order (400 /from), not yet made (404 /to) or never in history (404 /from)', async () => {
    const reversed = await studio(ws.dir, ['diff', '8', '3', '--json'])
    assert.equal(reversed.code, 2)
    assert.equal(reversed.json.pointer, '/from')
    const future = await studio(ws.dir, ['version', 'diff', '3', '99', '--json'])
    assert.equal(future.code, 3)
    assert.equal(future.json.pointer, '/to')
    // The fixture went from revision 0 straight to 3: there never was a revision 1.
    const never = await studio(ws.dir, ['diff', '1', '3', '--json'])
    assert.equal(never.code, 3)
    assert.equal(never.json.pointer, '/from')
  })
})

describe('the version log in bundles and copies', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
    await ok(ws, ['version', 'save', '-m', 'Packed', '--author', 'alice'])
  })
  after(() => ws.cleanup())

  it('packs the version log into the bundle; --no-versions drops it', async () => {
    await ok(ws, ['deck', 'pack', 'quarterly-review', '--out', 'with.zip'])
    await ok(ws, ['deck', 'pack', 'quarterly-review', '--out', 'without.zip', '--no-versions'])
    const withLog = await ok(ws, ['deck', 'unpack', 'with.zip', '--as', 'with-log'])
    const without = await ok(ws, ['deck', 'unpack', 'without.zip', '--as', 'without-log'])
    assert.equal(withLog.json.revision, 4)
    const listed = await ok(ws, ['version', 'list', '--deck', 'with-log'])
    assert.deepEqual(listed.json.versions.map((v: { n: number; note: string; revision: number }) => [v.n, v.note, v.revision]), [[1, 'Packed', 3]])
    assert.deepEqual((await ok(ws, ['version', 'list', '--deck', 'without-log'])).json.versions, [])
    assert.equal(existsSync(join(ws.dir, 'decks/without-log/versions.json')), false)
    assert.equal(without.json.revision, 4)
    // An unpacked deck's history starts at its own revision.
    const vd = await ok(ws, ['version', 'diff', '--deck', 'with-log'])
    assert.deepEqual([vd.json.from, vd.json.to, vd.json.count], [4, 4, 0])
  })

  it('starts a copy at revision 0 with an empty version log and a history of its own', async () => {
    const copy = await ok(ws, ['deck', 'copy', 'quarterly-review', '--name', 'Quarterly review (EU)', '--author', 'bob'])
    assert.equal(copy.json.revision, 0)
    assert.equal(existsSync(join(ws.dir, 'decks/quarterly-review-eu/versions.json')), false)
    const listed = await ok(ws, ['version', 'list', '--deck', 'quarterly-review-eu'])
    assert.deepEqual({ ...listed.json, tag: undefined }, { versions: [], revision: 0, tag: undefined })
    await ok(ws, ['deck', 'rename', 'EU review', '--deck', 'quarterly-review-eu', '--author', 'bob'])
    const d = await ok(ws, ['diff', '0', '1', '--deck', 'quarterly-review-eu'])
    assert.deepEqual(d.json.changes, ["Deck title changed from 'Quarterly review (EU)' to 'EU review'"])
    const vd = await ok(ws, ['version', 'diff', '--deck', 'quarterly-review-eu'])
    assert.deepEqual(vd.json.byAuthor, [{ author: 'bob', mutations: [{ revision: 1, action: 'deck.rename', at: vd.json.byAuthor[0].mutations[0].at, touched: ['deck'] }] }])
  })
})

describe('formatting-only changes and removed slides in diff, version diff and review', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
    await ws.git('checkout', '-q', '-b', 'feature')
    // Only formatting: the words stay, 'half' turns italic (r4) and 'Acme' underlined (r5).
    await ok(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '14,18', '--italic']) // r4
    await ok(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '22,26', '--underline']) // r5
  })
  after(() => ws.cleanup())

  it('studio diff says which formatting changed on which words, not "No changes."', async () => {
    const r = await ok(ws, ['diff', '3', '5'])
    assert.deepEqual(r.json.changes, ["Slide 2 'Why now': block b1 italic on 'half', underline on 'Acme'"])
    assert.deepEqual(r.json.counts, { added: 0, removed: 0, moved: 0, changed: 1 })
    const human = await studio(ws.dir, ['diff', '3', '4'])
    assert.equal(human.stdout, "Slide 2 'Why now': block b1 italic on 'half'\n")
  })

  it('studio review reports a branch that only changed formatting', async () => {
    const r = await studio(ws.dir, ['review', '--base', 'main', '--head', 'feature'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /1 deck changed/)
    assert.match(r.stdout, /Slide 2 'Why now': block b1 italic on 'half', underline on 'Acme'/)
    const json = (await ok(ws, ['review', '--base', 'main', '--head', 'feature'])).json
    assert.equal(json.decks[0].status, 'changed')
  })

  it('names a removed slide by its title in diff, review and version diff', async () => {
    await ok(ws, ['slide', 'remove', 'two-columns-3']) // r6
    const r = await ok(ws, ['diff', '5', '6'])
    assert.deepEqual(r.json.changes, ["Slide 3 'Before and after' removed"])
    const review = await studio(ws.dir, ['review', '--base', 'main', '--head', 'feature', '--markdown'])
    assert.match(review.stdout, /- 'Before and after' \(was slide 3\)/)
    const vd = await ok(ws, ['version', 'diff', '5', '6'])
    assert.deepEqual(vd.json.byBlock, [{ target: 'two-columns-3', slideId: 'two-columns-3', title: 'Before and after', mutations: vd.json.byBlock[0].mutations }])
    assert.match((await studio(ws.dir, ['version', 'diff', '5', '6'])).stdout, /two-columns-3 'Before and after': r6 slide\.remove/)
  })
})
