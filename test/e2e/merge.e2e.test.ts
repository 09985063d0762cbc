/**
 * Decks that merge like code: real `git merge` (and rebase, cherry-pick) invoking the real merge
 * driver through the built bin/studio.js, registered by `studio init`. Each test gets its own
 * workspace with the brand sample deck, two branches edited through the CLI, then the merge.
 */
import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import fc from 'fast-check'
import type { DeckDoc } from '../../src/model/deck.js'
import { docFiles, readDeckFolder } from '../../src/store/decks.js'
import { planEdits } from '../helpers/merge-edits.js'
import { cliInOneProcess, type CliResult, fromTemplate, gitRun, studio, workspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof workspace>>

async function ok(ws: Ws, args: string[], stdin?: string): Promise<CliResult> {
  const r = await studio(ws.dir, args, stdin === undefined ? {} : { stdin })
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r
}

const opened: Ws[] = []
after(() => opened.forEach((ws) => ws.cleanup()))

/** A workspace holding the brand sample as deck "brand" on main, and a branch "feature" from it. */
async function brandWorkspace(): Promise<Ws> {
  // Made once in this file, a copy per test (fromTemplate).
  const ws = await fromTemplate('brand sample on main, branch feature', async () => {
    const made = await workspace()
    await ok(made, ['deck', 'create', 'Brand', '--from', 'brand-sample', '--json'])
    await made.git('branch', 'feature')
    return { dir: made.dir }
  })
  opened.push(ws)
  return ws
}

const deckFile = (ws: Ws, rel: string) => JSON.parse(readFileSync(join(ws.dir, 'decks', 'brand', rel), 'utf8'))
const slidesIn = (ws: Ws, section: string): string[] => deckFile(ws, 'deck.json').sections.find((s: { id: string }) => s.id === section).slides

async function onBranch(ws: Ws, branch: string, edits: (string[] | [string[], string])[]): Promise<void> {
  await ws.git('checkout', '-q', branch)
  for (const edit of edits) {
    if (typeof edit[1] === 'string' && Array.isArray(edit[0])) await ok(ws, edit[0] as string[], edit[1])
    else await ok(ws, edit as string[])
  }
  await ws.git('checkout', '-q', 'main')
}

async function validates(ws: Ws): Promise<void> {
  const r = await studio(ws.dir, ['validate', '--json'])
  assert.equal(r.code, 0, r.stdout)
  assert.equal(r.json.valid, true, JSON.stringify(r.json.issues))
  assert.equal((await gitRun(ws, 'status', '--porcelain', '--', 'decks')).out, '')
}

describe('git merge of two branches of a deck, through the studio merge driver', () => {
  it('merges two branches that edit different slides with no conflict, and the result validates', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Feature heading"']])
    await ok(ws, ['slide', 'patch', 'chart-1', '--set', '/blocks/0/text="Main chart"'])
    const before = deckFile(ws, 'deck.json').revision
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 0, merge.out)
    assert.match(merge.out, /Auto-merging decks\/brand\/deck\.json/)
    assert.equal(deckFile(ws, 'slides/title-body-1.json').blocks[0].text, 'Feature heading')
    assert.equal(deckFile(ws, 'slides/chart-1.json').blocks[0].text, 'Main chart')
    assert.equal(deckFile(ws, 'deck.json').revision, before + 1, 'one past the larger side (both at revision 1)')
    await validates(ws)
  })

  it('keeps slides both branches added after the same slide, ours first; one id taken on both sides keeps theirs under a fresh id', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [
      ['slide', 'new', '--layout', 'title-body', '--section', 'opening', '--after', 'title-1', '--id', 'feature-idea'],
      ['slide', 'patch', 'feature-idea', '--set', '/blocks/0/text="Feature idea"'],
    ])
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'opening', '--after', 'title-1', '--id', 'main-idea'])
    await ok(ws, ['slide', 'patch', 'main-idea', '--set', '/blocks/0/text="Main idea"'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 0, merge.out)
    assert.deepEqual(slidesIn(ws, 'opening').slice(0, 4), ['title-1', 'main-idea', 'feature-idea', 'title-body-1'])
    await validates(ws)

    // Both sides let studio name the slide: both get title-body-17.
    await onBranch(ws, 'feature', [['slide', 'new', '--layout', 'title-body', '--section', 'market', '--after', 'section-1'], ['slide', 'patch', 'title-body-17', '--set', '/blocks/0/text="Feature slide"']])
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'market', '--after', 'section-1'])
    await ok(ws, ['slide', 'patch', 'title-body-17', '--set', '/blocks/0/text="Main slide"'])
    const second = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(second.code, 1, 'git stops: the renamed slide is a file it must be told about')
    const status = await ok(ws, ['merge', 'status'])
    assert.match(status.stdout, /Both sides added a slide "title-body-17"; theirs is kept as "title-body-18"/)
    assert.match(status.stdout, /git add decks\/brand\/slides\/title-body-17\.json decks\/brand\/slides\/title-body-18\.json && git commit/)
    await ws.git('add', 'decks')
    await ws.git('commit', '-q', '--no-edit')
    assert.deepEqual(slidesIn(ws, 'market').slice(0, 3), ['section-1', 'title-body-17', 'title-body-18'])
    assert.equal(deckFile(ws, 'slides/title-body-17.json').blocks[0].text, 'Main slide')
    assert.equal(deckFile(ws, 'slides/title-body-18.json').blocks[0].text, 'Feature slide')
    await validates(ws)
  })

  it('keeps a move on one branch and an edit of the same slide on the other', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['slide', 'move', 'quote-1', '--to', 'market', '--after', 'section-1']])
    await ok(ws, ['slide', 'patch', 'quote-1', '--set', '/notes="Say it slowly."'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 0, merge.out)
    assert.deepEqual(slidesIn(ws, 'market').slice(0, 2), ['section-1', 'quote-1'])
    assert.ok(!slidesIn(ws, 'opening').includes('quote-1'))
    assert.equal(deckFile(ws, 'slides/quote-1.json').notes, 'Say it slowly.')
    await validates(ws)
  })

  it('stops on the same title changed differently: merge status names it, resolve --theirs settles it, the merge commit validates', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['deck', 'rename', 'Brand, the feature title'], ['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Kept from feature"']])
    await ok(ws, ['deck', 'rename', 'Brand, the main title'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 1, merge.out)
    assert.match(merge.out, /CONFLICT \(content\): Merge conflict in decks\/brand\/deck\.json/)
    assert.match(merge.out, /studio: 1 deck conflict in decks\/brand\/deck\.json; see studio merge status/)
    assert.equal(deckFile(ws, 'deck.json').title, 'Brand, the main title', 'ours on disk, valid')
    assert.equal((await studio(ws.dir, ['validate', '--json'])).json.valid, true)
    const status = await ok(ws, ['merge', 'status'])
    assert.equal(
      status.stdout,
      [
        'Merge in progress: ours is main, theirs is feature.',
        '1 deck conflict, 1 open:',
        "  1. [brand:deck/title] Deck title: ours (main) 'Brand, the main title', theirs (feature) 'Brand, the feature title' (was 'Brand'). Open: ours is on disk.",
        'Settle each with: studio merge resolve <n or id> --ours | --theirs | --value <json>',
        'Then: git add decks/brand/deck.json && git commit',
        '',
      ].join('\n'),
    )
    const resolved = await ok(ws, ['merge', 'resolve', 'brand:deck/title', '--theirs'])
    assert.match(resolved.stdout, /Settled 1 \[brand:deck\/title\]: Deck title is now 'Brand, the feature title'\./)
    assert.match((await ok(ws, ['merge', 'status'])).stdout, /Settled with theirs \(feature\)\.\nNext: git add decks\/brand\/deck\.json && git commit/)
    await ws.git('add', 'decks/brand/deck.json')
    await ws.git('commit', '-q', '--no-edit')
    assert.equal(deckFile(ws, 'deck.json').title, 'Brand, the feature title')
    assert.equal(deckFile(ws, 'slides/title-body-1.json').blocks[0].text, 'Kept from feature')
    assert.equal((await ws.git('rev-list', '--parents', '-n', '1', 'HEAD')).trim().split(' ').length, 3, 'a merge commit')
    await validates(ws)
  })

  it('keeps a slide removed on one branch and edited on the other until settled, then removes it with --theirs', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['slide', 'remove', 'quote-1']])
    await ok(ws, ['slide', 'patch', 'quote-1', '--set', '/notes="Edited on main."'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 1, merge.out)
    const status = await ok(ws, ['merge', 'status', '--json'])
    assert.deepEqual(status.json.conflicts.map((c: { id: string; kind: string }) => [c.id, c.kind]), [['brand:slide/quote-1', 'slide']])
    assert.match(status.json.text, /edited on ours, removed on theirs: ours \(main\) kept, edited, theirs \(feature\) removed/)
    assert.ok(slidesIn(ws, 'opening').includes('quote-1'))
    await ok(ws, ['merge', 'resolve', '1', '--theirs'])
    assert.ok(!slidesIn(ws, 'opening').includes('quote-1'))
    assert.ok(!existsSync(join(ws.dir, 'decks/brand/slides/quote-1.json')))
    await ws.git('add', '-A', 'decks')
    await ws.git('commit', '-q', '--no-edit')
    await validates(ws)
  })

  it('refuses a --value that would break the model, writing nothing', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['deck', 'set', '/defaults/appearance', 'dark']])
    await ok(ws, ['deck', 'set', '/defaults/appearance', 'light'])
    await ok(ws, ['deck', 'set', '/defaults/appearance', 'dark'])
    await ok(ws, ['deck', 'rename', 'Main'])
    await onBranch(ws, 'feature', [['deck', 'rename', 'Feature']])
    assert.equal((await gitRun(ws, 'merge', '--no-edit', 'feature')).code, 1)
    const before = readFileSync(join(ws.dir, 'decks/brand/deck.json'), 'utf8')
    const r = await studio(ws.dir, ['merge', 'resolve', '1', '--value', '""', '--json'])
    assert.equal(r.code, 2)
    assert.match(r.json.message, /\/manifest\/title/)
    assert.equal(readFileSync(join(ws.dir, 'decks/brand/deck.json'), 'utf8'), before)
    await ok(ws, ['merge', 'resolve', '1', '--value', '"Both"'])
    assert.equal(deckFile(ws, 'deck.json').title, 'Both')
  })

  it('merges guides and named versions three ways, like slides: each side\'s additions kept, removals honoured, theirs\' new version after ours\'', async () => {
    const ws = await brandWorkspace()
    await ok(ws, ['deck', 'guides', '--add-vertical', '100,200', '--add-horizontal', '50'])
    await ok(ws, ['version', 'save', '-m', 'Before the branches'])
    await ws.git('branch', '-f', 'feature')
    await onBranch(ws, 'feature', [['deck', 'guides', '--remove-vertical', '100', '--add-vertical', '1200'], ['version', 'save', '-m', 'Feature milestone']])
    // A hand edit on feature drops the version saved before the branches.
    await ws.git('checkout', '-q', 'feature')
    const versionsFile = join(ws.dir, 'decks/brand/versions.json')
    writeFileSync(versionsFile, JSON.stringify(JSON.parse(readFileSync(versionsFile, 'utf8')).filter((v: { note: string }) => v.note !== 'Before the branches'), null, 2) + '\n')
    await ws.git('commit', '-q', '-am', 'drop the first version')
    await ws.git('checkout', '-q', 'main')
    await ok(ws, ['deck', 'guides', '--remove-vertical', '200', '--add-vertical', '400', '--add-horizontal', '60'])
    await ok(ws, ['version', 'save', '-m', 'Main milestone'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.equal(merge.code, 0, merge.out)
    assert.match(merge.out, /Auto-merging decks\/brand\/versions\.json/)
    assert.deepEqual(deckFile(ws, 'deck.json').guides, { vertical: [400, 1200], horizontal: [50, 60] })
    assert.deepEqual(deckFile(ws, 'versions.json').map((v: { n: number; note: string }) => [v.n, v.note]), [[2, 'Main milestone'], [3, 'Feature milestone']])
    await validates(ws)
  })

  it('merges through a rebase too (ours is the branch rebased onto, theirs each replayed commit)', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Rebased heading"'], ['slide', 'move', 'quote-1', '--to', 'market']])
    await ok(ws, ['slide', 'patch', 'chart-1', '--set', '/blocks/0/text="Main chart"'])
    await ws.git('checkout', '-q', 'feature')
    const rebase = await gitRun(ws, 'rebase', 'main')
    assert.equal(rebase.code, 0, rebase.out)
    assert.equal(deckFile(ws, 'slides/title-body-1.json').blocks[0].text, 'Rebased heading')
    assert.equal(deckFile(ws, 'slides/chart-1.json').blocks[0].text, 'Main chart')
    assert.ok(slidesIn(ws, 'market').includes('quote-1'))
    await validates(ws)
  })

  it('reviews a merge commit: what each side brought, how each conflict was settled, what the merge commit changed by hand', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [
      ['deck', 'rename', 'Brand, feature', '--author', 'Fay Feature'],
      ['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Feature heading"', '--author', 'Fay Feature'],
      ['slide', 'patch', 'table-1', '--set', '/blocks/1/rows/2/2="25%"', '--author', 'Fay Feature'],
    ])
    await ok(ws, ['deck', 'rename', 'Brand, main', '--author', 'Max Main'])
    await ok(ws, ['slide', 'patch', 'table-1', '--set', '/blocks/1/rows/2/2="24%"', '--author', 'Max Main'])
    await ok(ws, ['slide', 'move', 'quote-1', '--to', 'market', '--author', 'Max Main'])
    assert.equal((await gitRun(ws, 'merge', '--no-edit', 'feature')).code, 1)
    await ok(ws, ['merge', 'resolve', 'brand:deck/title', '--theirs'])
    await ok(ws, ['merge', 'resolve', '2', '--value', '"24.5%"'])
    // A change made in the merge commit itself, by hand.
    const notesFile = join(ws.dir, 'decks/brand/slides/chart-1.json')
    writeFileSync(notesFile, readFileSync(notesFile, 'utf8').replace('"id": "chart-1",', '"id": "chart-1",\n  "notes": "Added while merging.",'))
    await ws.git('add', 'decks')
    await ws.git('commit', '-q', '--no-edit')
    const review = await ok(ws, ['review', '--merge', 'HEAD'])
    const mask = (text: string) => text.replace(/\b[0-9a-f]{7}\b/g, '<sha>')
    assert.equal(
      mask(review.stdout),
      [
        "Merge <sha> of feature into main (merge base <sha>): 1 deck changed.",
        '',
        'Brand, feature (brand): merge base revision 0, main revision 3, feature revision 3, merged revision 4',
        '  main (<sha>) brought, in 3 commits by Max Main:',
        "    Deck title changed from 'Brand' to 'Brand, main'",
        "    Slide 6 'Opening 7: numbers': block b1 cell 3,3 changed from '22%' to '24%'",
        "    Slide 13 (quote-1): moved from section 'Opening' to 'Market'",
        '  feature (<sha>) brought, in 3 commits by Fay Feature:',
        "    Deck title changed from 'Brand' to 'Brand, feature'",
        "    Slide 2 'Feature heading': title changed from 'Opening 2: what changed' to 'Feature heading'",
        "    Slide 7 'Opening 7: numbers': block b1 cell 3,3 changed from '22%' to '25%'",
        '  2 conflicts, settled:',
        "    Deck title: main 'Brand, main', feature 'Brand, feature' → took feature's",
        "    Slide 'Opening 7: numbers' (table-1), block b1 cell 3,3: main '24%', feature '25%' → set to '24.5%'",
        '  Changed in the merge commit itself:',
        "    Slide 7 'Opening 8: trend': notes added: 'Added while merging.'",
        '',
      ].join('\n'),
    )
    const json = await ok(ws, ['review', '--merge', 'HEAD', '--json'])
    assert.deepEqual(json.json.decks[0].conflicts.map((c: { id: string; settled: string }) => [c.id, c.settled]), [['brand:deck/title', 'theirs'], ['brand:slide/table-1#b1/rows/2/2', 'other']])
    assert.match((await ok(ws, ['review', '--merge', 'HEAD', '--markdown'])).stdout, /^## Merge review\n/)
    const notMerge = await studio(ws.dir, ['review', '--merge', 'HEAD~1', '--json'])
    assert.equal(notMerge.code, 2)
    assert.match(notMerge.json.message, /is not a merge of two commits/)
  })

  it('merges a lone cherry-pick file by file (git names no commit for it): deck.json on its own, clean and valid', async () => {
    const ws = await brandWorkspace()
    await onBranch(ws, 'feature', [['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Picked heading"'], ['deck', 'set', '/defaults/appearance', 'dark']])
    await ok(ws, ['slide', 'patch', 'chart-1', '--set', '/blocks/0/text="Main chart"'])
    await ok(ws, ['slide', 'move', 'quote-1', '--to', 'market'])
    const pick = await gitRun(ws, 'cherry-pick', 'feature~1')
    assert.equal(pick.code, 0, pick.out)
    assert.equal(deckFile(ws, 'slides/title-body-1.json').blocks[0].text, 'Picked heading')
    assert.ok(slidesIn(ws, 'market').includes('quote-1'))
    assert.equal(deckFile(ws, 'deck.json').defaults.appearance, 'light', 'only the picked commit came over')
    const record = JSON.parse(readFileSync(join(ws.dir, '.studio/merge/conflicts.json'), 'utf8'))
    assert.equal(record.merge.known, false)
    await validates(ws)
  })
})

describe('studio git setup', () => {
  it('registers both drivers in a repository that lacks them, once, and git merge then uses the studio driver', async () => {
    const ws = await brandWorkspace()
    await ws.git('rm', '-q', '.gitattributes')
    await ws.git('commit', '-q', '-m', 'no attributes')
    await ws.git('config', '--unset', 'merge.studio.driver')
    await ws.git('config', '--unset', 'diff.studio.textconv')
    const first = await ok(ws, ['git', 'setup', '--json'])
    assert.deepEqual(first.json.written, ['.gitattributes'])
    assert.match(readFileSync(join(ws.dir, '.gitattributes'), 'utf8'), /^decks\/\*\*\/deck\.json merge=studio$/m)
    assert.match((await ws.git('config', '--get', 'merge.studio.driver')).trim(), / merge driver %O %A %B %P$/)
    assert.match((await ws.git('config', '--get', 'diff.studio.textconv')).trim(), / diff --textconv$/)
    assert.deepEqual((await ok(ws, ['git', 'setup', '--json'])).json.written, [])
    await ws.git('add', '.gitattributes')
    await ws.git('commit', '-q', '-m', 'attributes')
    await ws.git('branch', '-f', 'feature')
    await onBranch(ws, 'feature', [['slide', 'patch', 'title-body-1', '--set', '/blocks/0/text="Feature heading"']])
    await ok(ws, ['slide', 'patch', 'chart-1', '--set', '/blocks/0/text="Main chart"'])
    assert.equal((await gitRun(ws, 'merge', '--no-edit', 'feature')).code, 0)
    await validates(ws)
  })
})

/** Writes a document as the deck's files on the current branch and commits them (a hand edit: no studio trailers). */
async function commitDoc(ws: Ws, doc: DeckDoc, message: string): Promise<void> {
  const dir = join(ws.dir, 'decks', 'brand')
  rmSync(join(dir, 'slides'), { recursive: true, force: true })
  mkdirSync(join(dir, 'slides'), { recursive: true })
  for (const [rel, text] of docFiles(doc)) writeFileSync(join(dir, rel), text)
  await ws.git('add', '-A', 'decks')
  await ws.git('commit', '-q', '-m', message)
}

describe('the merge property through real git', () => {
  for (const seed of [7, 21, 1451446905]) {
    it(`merges 20 random non-overlapping edits per branch cleanly and keeps every edit (seed ${seed})`, async () => {
      const ws = await brandWorkspace()
      const base = await readDeckFolder(join(ws.dir, 'decks', 'brand'))
      const [g] = fc.sample(fc.gen(), { seed, numRuns: 1 })
      const { ours, theirs, facts } = planEdits(g, base)
      await ws.git('checkout', '-q', 'feature')
      await commitDoc(ws, theirs, 'theirs')
      await ws.git('checkout', '-q', 'main')
      await commitDoc(ws, ours, 'ours')
      const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
      const status = await ok(ws, ['merge', 'status', '--json'])
      assert.deepEqual(status.json.conflicts, [], merge.out)
      if (merge.code !== 0) {
        // Only slides both sides added under one id stop git: theirs' file is new to it.
        assert.ok(status.json.toAdd.length > 0, merge.out)
        await ws.git('add', '-A', 'decks')
        await ws.git('commit', '-q', '--no-edit')
      }
      await validates(ws)
      const merged = await readDeckFolder(join(ws.dir, 'decks', 'brand'))
      assert.deepEqual(facts.map((fact) => fact(merged)).filter(Boolean), [])
      assert.equal(merged.manifest.revision, Math.max(ours.manifest.revision, theirs.manifest.revision) + 1)
    })
  }
})
