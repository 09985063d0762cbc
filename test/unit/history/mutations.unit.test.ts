import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Manifest, Slide } from '../../../src/model/deck.js'
import { groupByAuthor, groupByTarget, touchedBy, type MutationSummary } from '../../../src/history/mutations.js'
import { FIXTURE_SLIDES } from '../../helpers/fixture.js'

const slide = (id: string) => structuredClone(FIXTURE_SLIDES.find((s) => s.id === id)) as Slide
const manifest = (): Manifest => ({
  id: 'quarterly-review',
  title: 'Quarterly review',
  theme: 'studio-simple',
  sections: [
    { id: 'opening', title: 'Opening', slides: ['title-1', 'title-body-2'] },
    { id: 'detail', title: 'Detail', slides: ['two-columns-3', 'freeform-4'] },
  ],
  revision: 3,
  stamps: { createdAt: 'a', updatedAt: 'a' },
})

describe('what one mutation touched', () => {
  it('names the blocks a slide edit changed, and the slide for slide-level fields', () => {
    const after = slide('freeform-4')
    after.blocks![2].pos = { x: 1040, y: 100, w: 300, h: 300 }
    after.notes = 'Say it slowly.'
    assert.deepEqual(touchedBy([{ path: 'slides/freeform-4.json', before: slide('freeform-4'), after }]), ['freeform-4', 'freeform-4#b3'])
    const retitled = slide('title-body-2')
    retitled.blocks![0].text = 'Pricing'
    assert.deepEqual(touchedBy([{ path: 'slides/title-body-2.json', before: slide('title-body-2'), after: retitled }]), ['title-body-2#title'])
  })

  it('names the deck for manifest fields, moved slides by id, and leaves out revision-only changes', () => {
    const renamed = { ...manifest(), title: 'Q3', revision: 4 }
    assert.deepEqual(touchedBy([{ path: 'deck.json', before: manifest(), after: renamed }]), ['deck'])
    assert.deepEqual(touchedBy([{ path: 'deck.json', before: manifest(), after: { ...manifest(), revision: 4 } }]), [])
    const moved = manifest()
    moved.sections[0].slides = ['title-1']
    moved.sections[1].slides.unshift('title-body-2')
    assert.deepEqual(touchedBy([{ path: 'deck.json', before: manifest(), after: moved }]), ['title-body-2'])
  })

  it('names added and removed slides, the version log, and other files by their folder', () => {
    assert.deepEqual(
      touchedBy([
        { path: 'slides/agenda-5.json', before: null, after: { id: 'agenda-5', layout: 'agenda' } },
        { path: 'versions.json', before: null, after: [] },
        { path: 'assets/logo.png', before: null, after: null },
      ]),
      ['agenda-5', 'versions', 'assets'],
    )
  })
})

describe('mutations grouped by target and by author', () => {
  const summaries: MutationSummary[] = [
    { revision: 4, action: 'slide.update', author: 'alice', at: 't4', commit: 'c4', touched: ['title-body-2#title'] },
    { revision: 5, action: 'block.nudge', author: 'bob', at: 't5', commit: 'c5', touched: ['freeform-4#b3'] },
    { revision: 6, action: 'deck.rename', author: 'alice', at: 't6', commit: 'c6', touched: ['deck'] },
    { revision: 7, action: 'slide.update', author: 'bob', at: 't7', commit: 'c7', touched: ['title-body-2#title', 'title-body-2'] },
  ]
  const doc = { manifest: manifest(), slides: Object.fromEntries(FIXTURE_SLIDES.map((s) => [s.id, s as Slide])), versions: [] }

  it('puts the deck first, then slides and blocks in deck order', () => {
    const groups = groupByTarget(summaries, doc)
    assert.deepEqual(
      groups.map((g) => [g.target, g.title ?? null, g.mutations.map((m) => `r${m.revision} ${m.author}`).join(', ')]),
      [
        ['deck', null, 'r6 alice'],
        ['title-body-2', 'Why now', 'r7 bob'],
        ['title-body-2#title', 'Why now', 'r4 alice, r7 bob'],
        ['freeform-4#b3', '', 'r5 bob'],
      ],
    )
    assert.deepEqual(groups[2].blockId, 'title')
  })

  it('lists each author once, with what each of their mutations touched', () => {
    assert.deepEqual(groupByAuthor(summaries), [
      { author: 'alice', mutations: [{ revision: 4, action: 'slide.update', at: 't4', touched: ['title-body-2#title'] }, { revision: 6, action: 'deck.rename', at: 't6', touched: ['deck'] }] },
      { author: 'bob', mutations: [{ revision: 5, action: 'block.nudge', at: 't5', touched: ['freeform-4#b3'] }, { revision: 7, action: 'slide.update', at: 't7', touched: ['title-body-2#title', 'title-body-2'] }] },
    ])
  })
})
