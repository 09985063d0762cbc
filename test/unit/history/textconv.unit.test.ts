import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { findAction } from '../../../src/actions/index.js'
import { dispatch } from '../../../src/core/engine.js'
import type { StudioError } from '../../../src/core/errors.js'
import { textconv } from '../../../src/history/textconv.js'
import { Workspace } from '../../../src/store/workspace.js'
import { canonicalJson } from '../../../src/store/canonical.js'
import { FIXTURE_SLIDES } from '../../helpers/fixture.js'

const slide = (id: string) => canonicalJson(FIXTURE_SLIDES.find((s) => s.id === id))

describe("the text git's diff driver shows for deck JSON files", () => {
  it('prints a slotted slide as its title, blocks in order with their plain text, and notes', () => {
    assert.equal(
      textconv(slide('title-body-2')),
      [
        'Slide title-body-2 (title-body)',
        '[title] heading (in title)',
        '  Why now',
        '[b1] text (in body)',
        '  Costs fell by half at Acme.',
        '  Margins grew.',
        '[b2] list (in body)',
        '  - Faster builds',
        '    - Fewer incidents',
        '  - Happier teams',
        '',
      ].join('\n'),
    )
    assert.equal(textconv(slide('title-1')), 'Slide title-1 (title)\nTitle: Quarterly review\nSubtitle: Q3 results\nNotes:\n  Welcome everyone to Acme.\n')
  })

  it('prints a picture placeholder as one, not as a picture of an asset', () => {
    const placeholder = { id: 'picture-caption-2', layout: 'picture-caption', blocks: [{ id: 'media', kind: 'picture', slot: 'media' }] }
    assert.equal(textconv(JSON.stringify(placeholder)), 'Slide picture-caption-2 (picture-caption)\n[media] picture (in media, placeholder, no picture yet)\n')
  })

  it('prints canvas blocks with their boxes, tables as rows, charts as series, connectors with their ends', () => {
    assert.equal(
      textconv(slide('freeform-4')),
      [
        'Slide freeform-4 (freeform)',
        '[b1] shape (at 100, 100 size 300 × 200)',
        '  Plan',
        '[b2] textbox (at 500, 150 size 400 × 120)',
        '  Build',
        '[b3] picture (at 1000, 100 size 300 × 300, asset logo)',
        '[b4] line (at 400, 200 size 100 × 10, from b1 to b2)',
        '[b5] chart (at 100, 450 size 600 × 350, bar)',
        '  Revenue: Q1 1, Q2 2',
        '',
      ].join('\n'),
    )
    assert.match(textconv(slide('two-columns-3')), /\[b3\] table \(in right\)\n {2}\| Metric \| Value \|\n {2}\| Lead time \| 2 days \|\n$/)
  })

  it('prints deck.json as title, theme and sections with slide ids, leaving out revision and stamps', () => {
    const manifest = {
      id: 'quarterly-review',
      title: 'Quarterly review',
      theme: 'studio-simple',
      defaults: { appearance: 'light', counter: true },
      sections: [{ id: 'opening', title: 'Opening', slides: ['title-1', 'title-body-2'] }],
      revision: 7,
      stamps: { createdAt: '2026-11-22T00:00:00.000Z', updatedAt: '2026-11-23T00:00:00.000Z' },
    }
    const text = 'Deck: Quarterly review\nTheme: simple\nAppearance: light\nSlide numbers: on\nSection opening: Opening\n  title-1\n  title-body-2\n'
    assert.equal(textconv(canonicalJson(manifest)), text)
    assert.equal(textconv(canonicalJson({ ...manifest, revision: 8, stamps: { ...manifest.stamps, updatedAt: 'later' } })), text)
  })

  it('prints the version log one line per version, and passes anything else through', () => {
    assert.equal(textconv(canonicalJson([{ n: 1, author: 'alice', note: 'Board draft', revision: 5, at: '2026-11-22T00:00:00.000Z' }])), 'Version 1 at revision 5 by alice: Board draft\n')
    assert.equal(textconv('{"id":"logo","role":"logo"}\n'), '{"id":"logo","role":"logo"}\n')
    assert.equal(textconv('not json'), 'not json')
  })

  it('reads a local file on the command line only: over HTTP and MCP, textconv is refused', async () => {
    const ws = Workspace.find({})
    for (const transport of ['H', 'M'] as const) {
      await assert.rejects(
        dispatch(findAction('diff.run')!, { textconv: '/etc/passwd' }, { ws, transport }),
        (e: StudioError) => e.code === 'refused' && e.extra.pointer === '/textconv',
      )
    }
  })
})
