import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'
import { blockText, diffDecks, plain, proseDiff, proseLines, quote } from '../../../src/history/diff.js'
import { FIXTURE_SLIDES } from '../../helpers/fixture.js'

/** The contract fixture as a document (revision 3). */
function fixtureDoc(): DeckDoc {
  const slides: Record<string, Slide> = {}
  for (const slide of structuredClone(FIXTURE_SLIDES) as Slide[]) slides[slide.id] = slide
  return {
    manifest: {
      id: 'quarterly-review',
      title: 'Quarterly review',
      theme: 'studio-simple',
      defaults: { appearance: 'light' },
      sections: [
        { id: 'opening', title: 'Opening', slides: ['title-1', 'title-body-2'] },
        { id: 'detail', title: 'Detail', slides: ['two-columns-3', 'freeform-4'] },
      ],
      revision: 3,
      stamps: { createdAt: '2026-11-22T00:00:00.000Z', updatedAt: '2026-11-22T00:00:00.000Z' },
    },
    slides,
    versions: [],
  }
}

function edit(change: (doc: DeckDoc) => void): [DeckDoc, DeckDoc] {
  const before = fixtureDoc()
  const after = structuredClone(before)
  change(after)
  after.manifest.revision++
  return [before, after]
}

const block = (doc: DeckDoc, slideId: string, blockId: string): Block => doc.slides[slideId].blocks!.find((b) => b.id === blockId)!

const prose = (change: (doc: DeckDoc) => void) => proseLines(diffDecks(...edit(change)))

describe('the prose diff of two deck states', () => {
  it('says nothing when only the revision and stamps changed', () => {
    assert.deepEqual(prose((d) => (d.manifest.stamps.updatedAt = '2026-12-01T00:00:00.000Z')), [])
    assert.equal(proseDiff(...edit(() => {})), 'No changes.')
  })

  it("names a title-slot change by the slide's number and new title", () => {
    assert.deepEqual(prose((d) => (block(d, 'title-body-2', 'title').text = 'Pricing')), ["Slide 2 'Pricing': title changed from 'Why now' to 'Pricing'"])
  })

  it('quotes old and new plain text of a block, marks dropped, whitespace trimmed', () => {
    assert.deepEqual(prose((d) => (block(d, 'title-body-2', 'b1').text = '  Costs fell by <i>two thirds</i>.\nMargins grew. ')), [
      "Slide 2 'Why now': block b1 text changed from 'Costs fell by half at Acme. Margins grew.' to 'Costs fell by two thirds. Margins grew.'",
    ])
  })

  it('says what formatting changed when the words stayed the same, never "No changes."', () => {
    assert.deepEqual(prose((d) => (block(d, 'title-body-2', 'b1').text = 'Costs fell by <i>half</i> at Acme.\nMargins grew.')), ["Slide 2 'Why now': block b1 italic on 'half'"])
    assert.deepEqual(
      prose((d) => {
        block(d, 'title-body-2', 'b1').text = '<span style="color:accent;font-size:40px">Costs</span> fell by half at <u>Acme</u>.\n<a href="https://example.com">Margins</a> grew.'
        block(d, 'title-body-2', 'title').text = '<s>Why</s> now'
      }),
      ["Slide 2 'Why now': title strikethrough on 'Why'; block b1 underline on 'Acme', text colour accent on 'Costs', size 40 px on 'Costs', link to https://example.com on 'Margins'"],
    )
    const [styled, plainAgain] = edit((d) => (block(d, 'title-body-2', 'b1').text = 'Costs fell by <i>half</i> at Acme.\nMargins grew.')).reverse()
    assert.deepEqual(proseLines(diffDecks(styled, plainAgain)), ["Slide 2 'Why now': block b1 italic removed from 'half'"])
    assert.deepEqual(
      prose((d) => {
        ;(block(d, 'title-body-2', 'b2').items as { text: string }[])[1].text = '<u>Fewer</u> incidents'
        ;(block(d, 'two-columns-3', 'b3').rows as string[][])[1][0] = '<i>Lead time</i>'
        d.slides['title-1'].subtitle = 'Q3 <sup>results</sup>'
      }),
      [
        "Slide 1 'Quarterly review': subtitle superscript on 'results'",
        "Slide 2 'Why now': block b2 item 2 underline on 'Fewer'",
        "Slide 3 'Before and after': block b3 cell 2,1 italic on 'Lead time'",
      ],
    )
    assert.notEqual(proseDiff(...edit((d) => (block(d, 'title-body-2', 'b1').text = 'Costs fell by half at <i>Acme</i>.\nMargins grew.'))), 'No changes.')
  })

  it('says when a picture placeholder is filled, and when a picture is taken out of its block', () => {
    const [placeholder, filled] = edit((d) => (block(d, 'freeform-4', 'b3').asset = 'harbour'))
    delete block(placeholder, 'freeform-4', 'b3').asset
    assert.deepEqual(proseLines(diffDecks(placeholder, filled)), ["Slide 4 (freeform-4): block b3 picture placeholder filled with 'harbour'"])
    assert.deepEqual(proseLines(diffDecks(filled, placeholder)), ["Slide 4 (freeform-4): block b3 picture 'harbour' taken out (an empty placeholder stays)"])
  })

  it('says how far a block moved and how it was resized, in px', () => {
    assert.deepEqual(
      prose((d) => {
        block(d, 'freeform-4', 'b3').pos = { x: 1040, y: 100, w: 300, h: 300 }
        block(d, 'freeform-4', 'b2').pos = { x: 480, y: 160, w: 440, h: 120 }
      }),
      ["Slide 4 (freeform-4): block b2 moved 20 px left and 10 px down, resized from 400 × 120 to 440 × 120; block b3 moved 40 px right"],
    )
  })

  it('reports a skipped slide, and one shown again', () => {
    assert.deepEqual(prose((d) => (d.slides['two-columns-3'].skip = true)), ["Slide 3 'Before and after': skipped"])
    const [before, after] = edit((d) => (d.slides['two-columns-3'].skip = true))
    assert.deepEqual(proseLines(diffDecks(after, before)), ["Slide 3 'Before and after': shown again"])
  })

  it('moves a slide between sections', () => {
    assert.deepEqual(
      prose((d) => {
        d.manifest.sections[0].slides = ['title-1']
        d.manifest.sections[1].slides = ['title-body-2', 'two-columns-3', 'freeform-4']
      }),
      ["Slide 2 'Why now': moved from section 'Opening' to 'Detail'"],
    )
  })

  it('names the one slide that moved inside a section, not the ones it passed', () => {
    const before = fixtureDoc()
    before.manifest.sections = [{ id: 'all', title: 'All', slides: ['title-1', 'title-body-2', 'two-columns-3', 'freeform-4'] }]
    const after = structuredClone(before)
    after.manifest.sections[0].slides = ['title-body-2', 'two-columns-3', 'freeform-4', 'title-1']
    assert.deepEqual(proseLines(diffDecks(before, after)), ["Slide 4 'Quarterly review': moved from position 1 to 4"])
    // Two slides that swap places: one of them is said to move.
    assert.deepEqual(prose((d) => (d.manifest.sections[1].slides = ['freeform-4', 'two-columns-3'])), ["Slide 4 'Before and after': moved from position 3 to 4"])
  })

  it('lists slides added (with layout and section) and removed (with their old number)', () => {
    assert.deepEqual(
      prose((d) => {
        d.slides['agenda-5'] = { id: 'agenda-5', layout: 'agenda', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Next steps' }] }
        d.manifest.sections[1].slides.push('agenda-5')
        delete d.slides['title-1']
        d.manifest.sections[0].slides = ['title-body-2']
      }),
      ["Slide 4 'Next steps' added (agenda) in section 'Detail'", "Slide 1 'Quarterly review' removed"],
    )
  })

  it('lists blocks added and removed with their kind and text', () => {
    assert.deepEqual(
      prose((d) => {
        const slide = d.slides['two-columns-3']
        slide.blocks = slide.blocks!.filter((b) => b.id !== 'b1')
        slide.blocks.push({ id: 'b4', kind: 'text', slot: 'left', text: 'Before: monthly releases.' })
      }),
      ["Slide 3 'Before and after': block b4 added (text: 'Before: monthly releases.'); block b1 removed (text: 'Before: weekly releases.')"],
    )
  })

  it('changes list items one by one, and says when items come and go', () => {
    assert.deepEqual(
      prose((d) => {
        const list = block(d, 'title-body-2', 'b2') as Block & { items: { text: string; level?: number }[] }
        list.items[0].text = 'Faster releases'
        list.items[1].level = 1
      }),
      ["Slide 2 'Why now': block b2 item 1 changed from 'Faster builds' to 'Faster releases', item 2 outdented to level 1"],
    )
    assert.deepEqual(
      prose((d) => (block(d, 'title-body-2', 'b2') as Block & { items: unknown[] }).items.push({ text: 'Lower costs' })),
      ["Slide 2 'Why now': block b2 item 'Lower costs' added"],
    )
  })

  it('names changed table cells by row and column', () => {
    assert.deepEqual(
      prose((d) => ((block(d, 'two-columns-3', 'b3').rows as string[][])[1][1] = '1 day')),
      ["Slide 3 'Before and after': block b3 cell 2,2 changed from '2 days' to '1 day'"],
    )
  })

  it('reports layout changes, notes, backgrounds and style properties', () => {
    assert.deepEqual(
      prose((d) => {
        d.slides['title-1'].notes = 'Welcome everyone.'
        d.slides['title-1'].subtitle = 'Q4 results'
        d.slides['title-body-2'].layout = 'two-columns'
        d.slides['two-columns-3'].background = 'accent'
        Object.assign(block(d, 'freeform-4', 'b1'), { fill: 'accent', angle: 45 })
      }),
      [
        "Slide 1 'Quarterly review': subtitle changed from 'Q3 results' to 'Q4 results'; notes changed from 'Welcome everyone to Acme.' to 'Welcome everyone.'",
        "Slide 2 'Why now': layout changed from title-body to two-columns",
        "Slide 3 'Before and after': background changed from none to 'accent'",
        'Slide 4 (freeform-4): block b1 rotated from 0° to 45°, fill changed',
      ],
    )
  })

  it('reports deck title, theme settings, sections and named versions', () => {
    assert.deepEqual(
      prose((d) => {
        d.manifest.title = 'Q3 review'
        d.manifest.defaults = { appearance: 'dark', counter: true }
        d.manifest.sections[1].title = 'Details'
        d.manifest.sections.reverse()
        d.versions.push({ n: 1, author: 'alice', note: 'Sent to the board', revision: 3, at: '2026-11-22T00:00:00.000Z' })
      }),
      [
        "Deck title changed from 'Quarterly review' to 'Q3 review'",
        'Default appearance changed from light to dark',
        'Slide numbers turned on',
        "Section 'Detail' renamed to 'Details'",
        "Sections reordered: 'Details', 'Opening'",
        "Named version 1 saved: 'Sent to the board'",
      ],
    )
  })

  it('says a deck was added or removed as a whole', () => {
    const doc = fixtureDoc()
    assert.deepEqual(proseLines(diffDecks(null, doc)), ["Deck 'Quarterly review' added with 4 slides"])
    assert.deepEqual(proseLines(diffDecks(doc, null)), ["Deck 'Quarterly review' removed (it had 4 slides)"])
  })

  it('shortens long quotes to 60 characters', () => {
    assert.equal(quote('x'.repeat(80)), `'${'x'.repeat(59)}…'`)
    assert.equal(plain(' A &amp; <b>B</b>\n\nC '), 'A & B C')
    assert.equal(blockText({ id: 't', kind: 'table', rows: [['a', 'b'], ['c', 'd']] }), 'a | b / c | d')
  })

  it('compares any two states without throwing, and a state with itself as unchanged', () => {
    const texts = fc.string({ maxLength: 12 })
    fc.assert(
      fc.property(texts, texts, fc.boolean(), fc.integer({ min: -50, max: 50 }), (title, notes, skip, dx) => {
        const [before, after] = edit((d) => {
          block(d, 'title-body-2', 'title').text = title
          d.slides['title-1'].notes = notes
          d.slides['freeform-4'].skip = skip
          ;(block(d, 'freeform-4', 'b1').pos as { x: number }).x += dx
        })
        proseLines(diffDecks(before, after))
        assert.deepEqual(proseLines(diffDecks(after, after)), [])
      }),
      { numRuns: 200 },
    )
  })
})
