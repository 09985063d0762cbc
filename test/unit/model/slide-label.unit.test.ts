/**
 * What a slide is called where it needs a name (a PDF's outline, the HTML build's slide list): its
 * title, else its first text (a quote, a big number), never "Slide 5" while the slide says something.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { slideLabel } from '../../../src/model/deck.js'

it('names a slide by its title, else by its first text cut at a word within 80 characters, else by its number', () => {
  assert.equal(slideLabel({ id: 't', layout: 'title', title: 'Quarterly <i>review</i>' }, 1), 'Quarterly review')
  assert.equal(slideLabel({ id: 'h', layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Costs' }, { id: 'b', kind: 'text', slot: 'body', text: 'Fell' }] }, 2), 'Costs')
  const quote = { id: 'q', layout: 'quote', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'Simplicity is <i>prerequisite</i> for reliability.' }, { id: 'b2', kind: 'text', slot: 'caption', text: 'Edsger W. Dijkstra' }] }
  assert.equal(slideLabel(quote as never, 5), 'Simplicity is prerequisite for reliability.')
  // The brand sample's quotes carry their attribution as a slide field: still named by the quote.
  assert.equal(slideLabel({ id: 'q2', layout: 'quote', attribution: 'A customer', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: '“We stopped arguing.”' }] } as never, 5), '“We stopped arguing.”')
  assert.equal(slideLabel({ id: 'q3', layout: 'quote', attribution: 'A customer', blocks: [] } as never, 5), 'A customer')
  const long = slideLabel({ id: 'm', layout: 'main-point', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: 'word '.repeat(40) }] } as never, 6)
  assert.ok(long.length <= 81 && long.endsWith('word…'), long)
  assert.equal(slideLabel({ id: 'f', layout: 'freeform', blocks: [] }, 7), 'Slide 7')
})
