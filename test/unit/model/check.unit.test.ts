import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { documentIssues, namingIssues, type CheckContext } from '../../../src/model/check.js'
import { assetIdOfFile, deckAssetIds } from '../../../src/model/assets.js'
import type { DeckDoc, Slide } from '../../../src/model/deck.js'
import type { Workspace } from '../../../src/store/workspace.js'

function deck(slides: Slide[], manifest: Partial<DeckDoc['manifest']> = {}): DeckDoc {
  return {
    manifest: {
      id: 'd',
      title: 'D',
      theme: 'studio-simple',
      sections: [{ id: 's', title: 'S', slides: slides.map((s) => s.id) }],
      revision: 1,
      stamps: { createdAt: '', updatedAt: '' },
      ...manifest,
    },
    slides: Object.fromEntries(slides.map((s) => [s.id, s])),
    versions: [],
  }
}

const issuesOf = async (doc: DeckDoc, context?: CheckContext) => (await documentIssues(doc, undefined, context)).map((i) => `${i.pointer}${i.code ? ` ${i.code}` : ''}`)

const SCRIPT = '<script>alert(1)</script>'

describe('the model check: Text markup', () => {
  it('names every Text of every kind that holds markup outside the subset, by its pointer', async () => {
    const title: Slide = { id: 't', layout: 'title', title: SCRIPT, subtitle: '<a href="javascript:x">y</a>', byline: 'ok' }
    const quote: Slide = { id: 'q', layout: 'quote', attribution: '<b>x</b>', blocks: [] }
    const canvas: Slide = {
      id: 'c',
      layout: 'freeform',
      blocks: [
        { id: 'a', kind: 'text', text: SCRIPT, pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'b', kind: 'heading', text: 'fine', pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'c', kind: 'list', items: [{ text: 'ok' }, { text: SCRIPT }], pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'd', kind: 'table', rows: [['ok', SCRIPT]], pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'e', kind: 'shape', shape: 'rect', text: SCRIPT, pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'f', kind: 'textbox', text: '<i onclick="x">y</i>', pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'g', kind: 'chart', chartType: 'bar', data: { categories: [], series: [] }, title: SCRIPT, pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'h', kind: 'html', html: SCRIPT, pos: { x: 0, y: 0, w: 1, h: 1 } },
      ],
    }
    assert.deepEqual(await issuesOf(deck([title, quote, canvas])), [
      '/slides/t/title',
      '/slides/t/subtitle',
      '/slides/q/attribution',
      '/slides/c/blocks/0/text',
      '/slides/c/blocks/2/items/1/text',
      '/slides/c/blocks/3/rows/0/1',
      '/slides/c/blocks/4/text',
      '/slides/c/blocks/5/text',
      '/slides/c/blocks/6/title',
    ])
  })

  it('checks only the slides a write changed', async () => {
    const doc = deck([{ id: 'a', layout: 'title', title: SCRIPT }, { id: 'b', layout: 'title', title: 'fine' }])
    assert.deepEqual((await documentIssues(doc, ['b'])).map((i) => i.pointer), [])
    assert.deepEqual((await documentIssues(doc, ['a'])).map((i) => i.pointer), ['/slides/a/title'])
  })
})

describe('the model check: colours', () => {
  it('refuses tokens outside the palette wherever a colour is, markup marks included', async () => {
    const slide: Slide = {
      id: 's',
      layout: 'freeform',
      background: 'banana',
      blocks: [
        { id: 'a', kind: 'shape', shape: 'rect', fill: 'banana', stroke: 'ink', color: 'banana', shadow: { color: 'banana' }, pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'b', kind: 'line', stroke: 'banana', pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'c', kind: 'textbox', text: '<span style="color:accent">a</span><span style="background:banana">b</span>', pos: { x: 0, y: 0, w: 1, h: 1 } },
        { id: 'd', kind: 'textbox', text: '<span style="color:#abc;background:#aabbcc">ok</span>', pos: { x: 0, y: 0, w: 1, h: 1 } },
      ],
    }
    assert.deepEqual(await issuesOf(deck([slide], { background: 'constructor' })), [
      '/manifest/background',
      '/slides/s/blocks/2/text',
      '/slides/s/background',
      '/slides/s/blocks/0/shadow/color',
      '/slides/s/blocks/0/fill',
      '/slides/s/blocks/0/color',
      '/slides/s/blocks/1/stroke',
    ])
  })

  it("takes hex colours, the theme's tokens and the tokens the brand kit adds", async () => {
    const slide: Slide = { id: 's', layout: 'title', title: '<span style="color:brand">x</span>', background: 'brand' }
    assert.equal((await issuesOf(deck([slide]))).length, 2)
    assert.deepEqual(await issuesOf(deck([slide], { brandKit: { palette: { brand: '#123456' } } })), [])
    assert.deepEqual(await issuesOf(deck([{ ...slide, title: 'x', background: '#fff' }])), [])
    assert.deepEqual(await issuesOf(deck([{ ...slide, title: 'x', background: 'muted' }], { theme: 'gone' })), [], 'a deck naming no shipped theme takes Simple\'s tokens')
  })
})

describe('the model check: pictures, ids and guides', () => {
  const picture = (asset: string): Slide => ({ id: 'p', layout: 'picture-full', blocks: [{ id: 'a', kind: 'picture', slot: 'media', asset }] })

  it('refuses a picture of an asset the deck does not hold, when told which it holds', async () => {
    const held: CheckContext = { assets: () => new Set(['logo']) }
    assert.deepEqual(await issuesOf(deck([picture('logo')]), held), [])
    assert.deepEqual(await issuesOf(deck([picture('nowhere')]), held), ['/slides/p/blocks/0/asset not_found'])
    assert.deepEqual(await issuesOf(deck([picture('constructor')]), held), ['/slides/p/blocks/0/asset not_found'])
    assert.deepEqual(await issuesOf(deck([picture('nowhere')])), [], 'without the asset list, assets are not checked')
    let asked = 0
    await documentIssues(deck([{ id: 't', layout: 'title', title: 'x' }]), undefined, { assets: () => (asked++, new Set()) })
    assert.equal(asked, 0, 'the asset list is read only when a checked slide holds a picture')
  })

  it('takes a picture placeholder (no asset) without asking which assets the deck holds, and refuses a dither on it', async () => {
    const held: CheckContext = { assets: () => new Set(['logo']) }
    const placeholder: Slide = { id: 'p', layout: 'picture-caption', blocks: [{ id: 'media', kind: 'picture', slot: 'media' }] }
    let asked = 0
    assert.deepEqual(await issuesOf(deck([placeholder]), { assets: () => (asked++, new Set()) }), [])
    assert.equal(asked, 0)
    // Beside it, a picture that names an asset is still held to the rule.
    const beside: Slide = { ...placeholder, blocks: [...placeholder.blocks!, { id: 'b', kind: 'picture', slot: 'media', asset: 'nowhere' }] }
    assert.deepEqual(await issuesOf(deck([beside]), held), ['/slides/p/blocks/1/asset not_found'])
    const dithered: Slide = { ...placeholder, blocks: [{ id: 'media', kind: 'picture', slot: 'media', dither: { pattern: 'bayer8' } }] }
    assert.deepEqual(await issuesOf(deck([dithered]), held), ['/slides/p/blocks/0/dither'])
    // An empty asset id is no placeholder: the schema refuses it.
    assert.deepEqual(await issuesOf(deck([picture('')]), held), ['/slides/p/blocks/0/asset'])
  })

  it('answers id_taken for a block id used twice on a slide', async () => {
    const slide: Slide = { id: 's', layout: 'title-body', blocks: [{ id: 'a', kind: 'text', slot: 'body', text: 'x' }, { id: 'a', kind: 'text', slot: 'body', text: 'y' }] }
    assert.deepEqual(await issuesOf(deck([slide])), ['/slides/s/blocks/1/id id_taken'])
  })

  it('refuses guides outside the sheet and guides that are no number', async () => {
    const doc = deck([], { guides: { vertical: [0, 1600, 1601], horizontal: [900] } })
    assert.deepEqual(await issuesOf(doc), ['/manifest/guides/vertical/2'])
    assert.deepEqual(await issuesOf(deck([], { guides: { horizontal: [Number.NaN] } })), ['/manifest/guides/horizontal/0'])
  })

  it('reads slide ids that are names of built-ins as ids: a section naming one without a file is an issue', async () => {
    const doc = deck([{ id: 'constructor', layout: 'title', title: 'x' }])
    doc.manifest.sections[0].slides.push('toString')
    assert.deepEqual(await issuesOf(doc), ['/manifest/sections/0/slides/1'])
    assert.deepEqual(await documentIssues(doc, ['valueOf']), [{ pointer: '/manifest/sections/0/slides/1', message: 'names slide "toString", which has no file' }])
  })
})

describe('the assets a deck holds', () => {
  it('names the asset of each file: record, file, twin, frame and source', () => {
    assert.deepEqual(
      ['logo.json', 'logo.svg', 'hero@2x.png', 'frame-0123456789abcdef@2x.png', 'mood.source.jpg', '.DS_Store', 'README'].map(assetIdOfFile),
      ['logo', 'logo', 'hero', 'frame-0123456789abcdef', 'mood', undefined, undefined],
    )
  })

  it('counts files on disk and files the same call stages or copies in, and not those it removes', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-'))
    try {
      const assets = join(root, 'decks', 'd', 'assets')
      mkdirSync(assets, { recursive: true })
      mkdirSync(join(root, 'decks', 'src', 'assets'), { recursive: true })
      writeFileSync(join(assets, 'logo.json'), '{}')
      writeFileSync(join(assets, 'old.png'), 'x')
      writeFileSync(join(root, 'decks', 'src', 'assets', 'copied@2x.png'), 'x')
      const ws = { root, deckDir: (id: string) => join(root, 'decks', id) } as unknown as Workspace
      const files = new Map<string, string | null>([
        ['decks/d/assets/staged.png', 'x'],
        ['decks/d/assets/old.png', null],
        ['decks/other/assets/elsewhere.png', 'x'],
      ])
      assert.deepEqual([...deckAssetIds(ws, 'd', files, [['decks/src/assets', 'decks/d/assets']], [])].sort(), ['copied', 'logo', 'staged'])
      assert.deepEqual([...deckAssetIds(ws, 'd', new Map(), [], ['decks/d'])], [], 'a replaced deck folder starts empty')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('namingIssues: the values that name files and ids, under the model\'s own rules', () => {
  const ok: Slide = { id: 'a', layout: 'title-body', blocks: [{ id: 'b1', kind: 'text', text: 'x' } as never] }
  const first = async (doc: Partial<DeckDoc>, files: string[] = []) => (await namingIssues(doc, files))[0]

  it('accepts a deck whose ids and layouts keep the rules, whatever else it holds', async () => {
    assert.deepEqual(await namingIssues(deck([{ ...ok, notes: 42 } as never], { title: '' }), ['a']), [])
  })

  it('refuses, with the pointer and the value JSON-escaped, every id, layout and file name that breaks the rules', async () => {
    const cases: [string, Partial<DeckDoc>, string[], RegExp][] = [
      ['a slide id climbing out', deck([{ ...ok, id: '../../x' }]), [], /^\/manifest\/sections\/0\/slides\/0 "\.\.\/\.\.\/x" must match pattern/],
      ['a slide held under another id', { slides: { a: { ...ok, id: 'b' } } }, [], /^\/slides\/a\/id "b" is held under another slide id, "a"$/],
      ['a NUL in a slide key', { slides: { 'a\u0000': { ...ok, id: 'a\u0000' } } }, [], /"a\\u0000" must match pattern/],
      ['a layout not of the 22', deck([{ ...ok, layout: '../x' as never }]), [], /^\/slides\/a\/layout "\.\.\/x" is not one of the 22 allowed values$/],
      ['a deck id', deck([ok], { id: '../d' }), [], /^\/manifest\/id "\.\.\/d" must match pattern/],
      ['a section id', deck([ok], { sections: [{ id: 'a/b', title: 'S', slides: ['a'] }] }), [], /^\/manifest\/sections\/0\/id "a\/b"/],
      ['a block id', deck([{ ...ok, blocks: [{ id: '..\\b', kind: 'text' } as never] }]), [], /^\/slides\/a\/blocks\/0\/id/],
      ['a brand kit logo', deck([ok], { brandKit: { logo: '/etc/passwd' } }), [], /^\/manifest\/brandKit\/logo "\/etc\/passwd"/],
      ['a slide file name', {}, ['a\\b'], /^\/files\/0 "a\\\\b" must match pattern/],
      ['a slide that is no object', { slides: { a: null as never } }, [], /^\/slides\/a null must be object$/],
    ]
    for (const [what, doc, files, message] of cases) {
      const issue = await first(doc, files)
      assert.ok(issue, what)
      assert.match(`${issue.pointer} ${issue.message}`, message, what)
    }
  })
})
