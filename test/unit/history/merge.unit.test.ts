/**
 * The three-way deck merge (src/history/merge.ts), on the brand sample: the rules one by one, and a
 * property: 20 random non-overlapping edits per side always merge with no conflict, keep every
 * edit, and give a valid deck.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { fileURLToPath } from 'node:url'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'
import { documentIssues } from '../../../src/model/check.js'
import { normalizeDoc } from '../../../src/model/normalize.js'
import { readDeckFolder } from '../../../src/store/decks.js'
import { diff3, mergeDecks, mergeSlideAlone, mergeVersions, setAt, valueAt } from '../../../src/history/merge.js'
import { addSlideAfter, moveAfter, planEdits, sectionOf } from '../../helpers/merge-edits.js'
import { keepValid } from '../../../src/history/merge-driver.js'

const SAMPLE = fileURLToPath(new URL('../../../templates/brand-sample', import.meta.url))
const NOW = '2026-06-01T00:00:00.000Z'
let sample: DeckDoc | undefined
async function brand(): Promise<DeckDoc> {
  sample ??= await readDeckFolder(SAMPLE)
  return structuredClone(sample)
}

const block = (doc: DeckDoc, slide: string, id: string) => doc.slides[slide].blocks!.find((b) => b.id === id)!
async function valid(doc: DeckDoc) {
  assert.deepEqual(await documentIssues(normalizeDoc(doc)), [])
}

describe('diff3', () => {
  it('takes each side\'s change, keeps both inserts at one place, and leaves a region both changed as a conflict', () => {
    assert.deepEqual(diff3(['a', 'b', 'c'], ['A', 'b', 'c'], ['a', 'b', 'C']), [{ ok: ['A', 'b', 'C'] }])
    assert.deepEqual(diff3(['a', 'b'], ['a', 'x', 'b'], ['a', 'y', 'b']), [{ ok: ['a'] }, { base: [], ours: ['x'], theirs: ['y'] }, { ok: ['b'] }])
    assert.deepEqual(diff3(['a'], ['b'], ['c']), [{ base: ['a'], ours: ['b'], theirs: ['c'] }])
  })
})

describe('merging a deck three ways', () => {
  it('merges edits of different slides cleanly: the revision one past the larger side, updatedAt now, a valid deck', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    block(ours, 'title-body-1', 'title').text = 'Ours heading'
    ours.manifest.revision = base.manifest.revision + 4
    block(theirs, 'table-1', 'b1').rows = [['Metric', 'Q2', 'Q3'], ['Revenue ($M)', '1.2', '1.6'], ['Margin', '18%', '22%'], ['Lead time', '5 days', '2 days']]
    theirs.manifest.revision = base.manifest.revision + 7
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.conflicts, [])
    assert.equal(block(merged.doc, 'title-body-1', 'title').text, 'Ours heading')
    assert.equal((block(merged.doc, 'table-1', 'b1').rows as string[][])[1][2], '1.6')
    assert.equal(merged.doc.manifest.revision, base.manifest.revision + 8)
    assert.equal(merged.doc.manifest.stamps.updatedAt, NOW)
    await valid(merged.doc)
  })

  it('keeps slides both sides added after the same slide, ours first; one id added on both sides keeps theirs under a fresh id', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    addSlideAfter(ours, 'title-body-17', 'title-1', 'Ours new')
    addSlideAfter(theirs, 'title-body-17', 'title-1', 'Theirs new')
    addSlideAfter(theirs, 'title-body-99', 'title-body-17', 'Theirs second')
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.conflicts, [])
    assert.deepEqual(merged.renamed, [{ from: 'title-body-17', to: 'title-body-18' }])
    assert.deepEqual(merged.doc.manifest.sections[0].slides.slice(0, 5), ['title-1', 'title-body-17', 'title-body-18', 'title-body-99', 'title-body-1'])
    assert.equal(block(merged.doc, 'title-body-18', 'title').text, 'Theirs new')
    assert.match(merged.notes.join('\n'), /theirs is kept as "title-body-18"/)
    await valid(merged.doc)
  })

  it('keeps a move on one side and an edit of the same slide on the other', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    moveAfter(ours, 'quote-1', 'section-2')
    block(theirs, 'quote-1', 'b1').text = 'A new quote'
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.conflicts, [])
    assert.equal(sectionOf(merged.doc, 'quote-1')!.id, 'product')
    assert.equal(sectionOf(merged.doc, 'quote-1')!.slides[1], 'quote-1')
    assert.equal(block(merged.doc, 'quote-1', 'b1').text, 'A new quote')
  })

  it('records the same title changed differently as a conflict with both values, ours kept', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    ours.manifest.title = 'Brand, ours'
    theirs.manifest.title = 'Brand, theirs'
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.equal(merged.doc.manifest.title, 'Brand, ours')
    assert.deepEqual(merged.conflicts, [{
      deck: 'brand-sample', folder: 'decks/brand-sample', id: 'brand-sample:deck/title', file: 'deck.json', kind: 'value',
      path: ['manifest', 'title'], base: 'Brand sample', ours: 'Brand, ours', theirs: 'Brand, theirs', where: 'Deck title',
    }])
  })

  it('makes a slide removed on one side and edited on the other a conflict, keeping the edited slide', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    block(ours, 'chart-1', 'c1').text = 'Edited caption'
    delete theirs.slides['chart-1']
    sectionOf(theirs, 'chart-1')!.slides = sectionOf(theirs, 'chart-1')!.slides.filter((id) => id !== 'chart-1')
    delete theirs.slides['quote-1']
    sectionOf(theirs, 'quote-1')!.slides = sectionOf(theirs, 'quote-1')!.slides.filter((id) => id !== 'quote-1')
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.conflicts.map((c) => [c.id, c.kind, 'ours' in c, 'theirs' in c]), [['brand-sample:slide/chart-1', 'slide', true, false]])
    assert.ok(merged.doc.slides['chart-1'] && sectionOf(merged.doc, 'chart-1'))
    assert.ok(!merged.doc.slides['quote-1'] && !sectionOf(merged.doc, 'quote-1'), 'removed on one side, untouched on the other: removed')
  })

  it('merges one slide block by block: different blocks, different cells, different items, list and chart data, a block id added on both sides', async () => {
    const base = await brand()
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    // table: two cells in one row, one per side
    ;(block(ours, 'table-1', 'b1').rows as string[][])[2][1] = '19%'
    ;(block(theirs, 'table-1', 'b1').rows as string[][])[2][2] = '23%'
    // list: neighbouring items
    ;(block(ours, 'agenda-1', 'b1').items as { text: string }[])[0].text = 'Decide now'
    ;(block(theirs, 'agenda-1', 'b1').items as { text: string }[])[1].text = 'Staff up'
    // chart: a category added on one side, a value changed on the other
    const oc = block(ours, 'chart-1', 'b1').data as { categories: string[]; series: { values: number[] }[] }
    oc.categories.push('Q5')
    oc.series.forEach((s) => s.values.push(2))
    ;(block(theirs, 'chart-1', 'b1').data as { series: { values: number[] }[] }).series[1].values[0] = 1.1
    // the same new block id on both sides
    ours.slides['title-body-1'].blocks!.push({ id: 'b9', kind: 'text', slot: 'body', text: 'Ours block' })
    theirs.slides['title-body-1'].blocks!.push({ id: 'b9', kind: 'text', slot: 'body', text: 'Theirs block' })
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.conflicts, [])
    assert.deepEqual((block(merged.doc, 'table-1', 'b1').rows as string[][])[2], ['Margin', '19%', '23%'])
    assert.deepEqual((block(merged.doc, 'agenda-1', 'b1').items as { text: string }[]).map((i) => i.text), ['Decide now', 'Staff up', 'Review in a month'])
    assert.deepEqual(block(merged.doc, 'chart-1', 'b1').data, { categories: ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'], series: [{ name: 'Revenue', values: [1, 1.2, 1.5, 1.9, 2] }, { name: 'Costs', values: [1.1, 0.8, 0.7, 0.6, 2] }] })
    assert.deepEqual(merged.doc.slides['title-body-1'].blocks!.slice(-2).map((b) => [b.id, b.text]), [['b9', 'Ours block'], ['b9-2', 'Theirs block']])
    await valid(merged.doc)
  })

  it('merges a Text paragraph by paragraph and records a cell both sides changed as its own conflict', () => {
    const slide = (text: string, cell: string): Slide => ({ id: 's-1', layout: 'table', blocks: [{ id: 'p', kind: 'text', slot: 'body', text }, { id: 't', kind: 'table', slot: 'body', rows: [['a', cell], ['c', 'd']] }] as Block[] })
    // Neighbouring paragraphs: diff3 alone would call this one region both sides changed.
    const merged = mergeSlideAlone(slide('one\ntwo\nthree', 'b'), slide('ONE\ntwo\nthree', 'B1'), slide('one\nTWO\nthree', 'B2'), 'd')
    assert.equal(merged.slide.blocks![0].text, 'ONE\nTWO\nthree')
    assert.deepEqual(merged.conflicts.map((c) => [c.id, c.path, c.ours, c.theirs, c.where]), [
      ['d:slide/s-1#t/rows/0/1', ['slides', 's-1', 'blocks', { id: 't' }, 'rows', 0, 1], 'B1', 'B2', 'Slide s-1, block t cell 1,2'],
    ])
  })

  it('merges the canvas stacking as an order: a block sent to the front on one side, another added on the other', () => {
    const z = (ids: string[]) => ids.map((id, i) => ({ id, kind: 'shape', shape: 'rect', pos: { x: 0, y: 0, w: 10, h: 10 }, z: i })) as Block[]
    const slide = (blocks: Block[]): Slide => ({ id: 'freeform-1', layout: 'freeform', blocks })
    const base = slide(z(['a', 'b', 'c']))
    const ours = slide(z(['b', 'c', 'a']))
    ours.blocks!.sort((x, y) => x.id.localeCompare(y.id))
    const theirs = slide(z(['a', 'b', 'c', 'n']))
    const merged = mergeSlideAlone(base, ours, theirs, 'd')
    assert.deepEqual(merged.conflicts, [])
    assert.deepEqual(Object.fromEntries(merged.slide.blocks!.map((b) => [b.id, b.z])), { a: 2, b: 0, c: 1, n: 3 })
  })

  it('keeps named versions of both sides, theirs numbered after ours', () => {
    const v = (n: number, note: string) => ({ n, author: 'a', note, revision: n, at: `2026-01-0${n}T00:00:00.000Z` })
    assert.deepEqual(mergeVersions([v(1, 'base')], [v(1, 'base'), v(2, 'ours')], [v(1, 'base'), v(2, 'theirs')]).versions.map((x) => [x.n, x.note]), [[1, 'base'], [2, 'ours'], [3, 'theirs']])
  })

  it('never writes a merged slide that breaks the model: a palette token removed on one side and used on the other keeps ours\' slide, with a conflict', async () => {
    const base = await brand()
    base.manifest.brandKit = { palette: { brand: '#123456' } }
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    delete ours.manifest.brandKit
    block(theirs, 'title-body-1', 'title').color = 'brand'
    const merge = mergeDecks(base, ours, theirs, { now: NOW })
    assert.equal(merge.conflicts.length, 0, 'each side alone is fine')
    const doc = await keepValid(merge, ours, theirs)
    assert.equal(block(doc, 'title-body-1', 'title').color, undefined)
    assert.deepEqual(merge.conflicts.map((c) => [c.id, c.kind, c.file]), [['brand-sample:slide/title-body-1', 'whole', 'slides/title-body-1.json']])
    assert.match(merge.conflicts[0].where, /the merged slide breaks the model .*"brand"/)
    await valid(doc)
  })

  it('reads and writes the values a conflict path names', async () => {
    const doc = await brand()
    const path = ['slides', 'table-1', 'blocks', { id: 'b1' }, 'rows', 1, 2]
    assert.equal(valueAt(doc, path), '1.5')
    assert.ok(setAt(doc, path, '1.7'))
    assert.equal((block(doc, 'table-1', 'b1').rows as string[][])[1][2], '1.7')
    assert.ok(setAt(doc, ['slides', 'table-1', 'blocks', { id: 'c1' }], undefined))
    assert.equal(doc.slides['table-1'].blocks!.length, 2)
    assert.equal(valueAt(doc, ['slides', 'nope', 'title']), undefined)
  })
})

describe('guides and named versions merge by the rules slides merge by', () => {
  const guides = (doc: DeckDoc) => doc.manifest.guides
  const withGuides = (doc: DeckDoc, vertical: number[], horizontal: number[] = []) => {
    doc.manifest.guides = { ...(vertical.length ? { vertical } : {}), ...(horizontal.length ? { horizontal } : {}) }
    return doc
  }

  it('guides: each side\'s additions kept, each side\'s removals honoured, one change made on both sides once, each axis on its own', async () => {
    const base = withGuides(await brand(), [100, 200, 300], [50])
    const ours = withGuides(structuredClone(base), [100, 250, 300, 400], [50, 60])
    const theirs = withGuides(structuredClone(base), [200, 300, 400, 1200], [50])
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    // 100: removed on theirs; 200: removed on ours; 250 and 60 added on ours; 1200 added on theirs; 400 added on both.
    assert.deepEqual(guides(merged.doc), { vertical: [250, 300, 400, 1200], horizontal: [50, 60] })
    assert.deepEqual(merged.conflicts, [])
    await valid(merged.doc)
  })

  it('guides: the same removal on both sides once, a removal of every guide leaves no guides member, and sides swapped give the same guides', async () => {
    const base = withGuides(await brand(), [100, 200])
    const ours = withGuides(structuredClone(base), [200])
    const theirs = withGuides(structuredClone(base), [200])
    assert.deepEqual(guides(mergeDecks(base, ours, theirs, { now: NOW }).doc), { vertical: [200] })
    const cleared = structuredClone(base)
    delete cleared.manifest.guides
    const gone = mergeDecks(base, cleared, withGuides(structuredClone(base), [100]), { now: NOW }).doc
    assert.equal(Object.hasOwn(gone.manifest, 'guides'), false, '200 removed on both, 100 removed on ours')
    const a = withGuides(structuredClone(base), [100, 700])
    const b = withGuides(structuredClone(base), [200, 900])
    assert.deepEqual(guides(mergeDecks(base, a, b, { now: NOW }).doc), guides(mergeDecks(base, b, a, { now: NOW }).doc))
    assert.deepEqual(guides(mergeDecks(base, a, b, { now: NOW }).doc), { vertical: [700, 900] })
  })

  const v = (n: number, note: string, at = `2026-01-0${n}T00:00:00.000Z`) => ({ n, author: 'a', note, revision: n, at })

  it('versions: each side\'s additions kept (theirs numbered after ours), removals honoured, the same addition or edit on both sides once', async () => {
    const base = await brand()
    base.versions = [v(1, 'one'), v(2, 'two'), v(3, 'three')]
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    ours.versions = [v(2, 'two'), v(3, 'three, renamed'), v(4, 'ours'), v(5, 'both')]
    theirs.versions = [v(1, 'one'), v(3, 'three, renamed'), v(4, 'theirs', '2026-01-09T00:00:00.000Z'), v(5, 'both')]
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    // 1 removed on ours, 2 removed on theirs; 3 renamed alike on both; 4 added on both differently: theirs' after ours'; 5 added alike: once.
    assert.deepEqual(merged.doc.versions.map((x) => [x.n, x.note]), [[3, 'three, renamed'], [4, 'ours'], [5, 'both'], [6, 'theirs']])
    assert.deepEqual(merged.conflicts, [])
    await valid(merged.doc)
  })

  it('versions: a version changed differently on both sides, or removed on one side and edited on the other, is a conflict that keeps the edit', async () => {
    const base = await brand()
    base.versions = [v(1, 'one'), v(2, 'two')]
    const ours = structuredClone(base)
    const theirs = structuredClone(base)
    ours.versions = [v(1, 'one, ours'), v(2, 'two, ours')]
    theirs.versions = [v(1, 'one, theirs')]
    const merged = mergeDecks(base, ours, theirs, { now: NOW })
    assert.deepEqual(merged.doc.versions.map((x) => [x.n, x.note]), [[1, 'one, ours'], [2, 'two, ours']])
    assert.deepEqual(
      merged.conflicts.map((c) => [c.id, c.file, c.kind, c.path, c.where, (c.ours as { note?: string } | undefined)?.note, (c.theirs as { note?: string } | undefined)?.note]),
      [
        ['brand-sample:versions/1', 'versions.json', 'value', ['versions', 0], 'Named version 1: changed differently on both sides', 'one, ours', 'one, theirs'],
        ['brand-sample:versions/2', 'versions.json', 'value', ['versions', 1], 'Named version 2: edited on ours, removed on theirs', 'two, ours', undefined],
      ],
    )
    // Each conflict's path names its unit in the merged document, for merge resolve.
    assert.equal((valueAt(merged.doc, merged.conflicts[1].path) as { note: string }).note, 'two, ours')
    const swapped = mergeDecks(base, theirs, ours, { now: NOW })
    assert.deepEqual(swapped.doc.versions.map((x) => [x.n, x.note]), [[1, 'one, theirs'], [2, 'two, ours']])
    assert.equal(swapped.conflicts[1].where, 'Named version 2: removed on ours, edited on theirs')
    await valid(merged.doc)
  })

  it('versions.json merged on its own follows the same rules', () => {
    const merged = mergeVersions([v(1, 'one'), v(2, 'two')], [v(2, 'two'), v(3, 'ours')], [v(1, 'one'), v(2, 'two, theirs'), v(3, 'theirs')], 'q3')
    assert.deepEqual(merged.versions.map((x) => [x.n, x.note]), [[2, 'two, theirs'], [3, 'ours'], [4, 'theirs']])
    assert.deepEqual(merged.conflicts, [])
    const disputed = mergeVersions([v(1, 'one')], [v(1, 'ours')], [v(1, 'theirs')], 'q3')
    assert.deepEqual(disputed.conflicts.map((c) => [c.id, c.folder, c.file]), [['q3:versions/1', 'decks/q3', 'versions.json']])
  })
})

describe('the merge property', () => {
  it('20 random non-overlapping edits per side on the brand sample always merge cleanly, keep every edit and give a valid deck', async () => {
    const base = await brand()
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const { ours, theirs, facts } = planEdits(g, base)
        const merged = mergeDecks(base, ours, theirs, { now: NOW })
        assert.deepEqual(merged.conflicts.map((c) => c.id), [])
        const broken = facts.map((fact) => fact(merged.doc)).filter(Boolean)
        assert.deepEqual(broken, [])
        assert.equal(merged.doc.manifest.revision, Math.max(ours.manifest.revision, theirs.manifest.revision) + 1)
        assert.deepEqual(await documentIssues(normalizeDoc(merged.doc)), [])
      }),
      // No shrinking: the counterexample (seed and path) replays the failing case; shrinking a deck-sized plan takes minutes.
      { numRuns: 200, endOnFailure: true },
    )
  })
})
