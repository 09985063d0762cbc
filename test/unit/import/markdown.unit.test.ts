/**
 * The Markdown reader (Marp and Slidev) one construct at a time, the layout a slide gets, and the
 * Markdown writer read back by the reader.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseMarkdown, planSlide, type MdDeck } from '../../../src/import/markdown.js'
import { deckMarkdown, inlineMarkdown } from '../../../src/export/markdown.js'
import type { DeckDoc, Slide } from '../../../src/model/deck.js'

const read = (text: string): MdDeck => parseMarkdown(Buffer.from(text))
const refused = (text: string | Buffer, message: RegExp) =>
  assert.throws(() => parseMarkdown(Buffer.isBuffer(text) ? text : Buffer.from(text)), (e: { code?: string; extra?: { pointer?: string }; message: string }) => {
    assert.equal(e.extra?.pointer, '/from')
    assert.match(e.message, message)
    return true
  })

describe('reading Marp Markdown', () => {
  it('reads the front matter: marp, title, theme, paginate and the invert class', () => {
    const deck = read('---\nmarp: true\ntitle: My talk\ntheme: uncover\npaginate: true\nclass: invert\n---\n\n# One\n')
    assert.equal(deck.dialect, 'marp')
    assert.equal(deck.title, 'My talk')
    assert.equal(deck.theme, 'contrast')
    assert.equal(deck.paginate, true)
    assert.equal(deck.appearance, 'dark')
  })

  it('reports a theme it has no counterpart for and keeps the default', () => {
    const deck = read('---\nmarp: true\ntheme: my-corporate\n---\n# One\n')
    assert.equal(deck.theme, undefined)
    assert.match(deck.findings[0].reason, /my-corporate/)
  })

  it('splits slides at top-level rulers only: a --- in a code fence stays, a --- under a paragraph is a setext heading', () => {
    const deck = read('---\nmarp: true\n---\n\n# A\n\n---\n\n```yaml\n---\nkey: 1\n```\n\n---\n\nTitle here\n---\n\ntext\n')
    assert.equal(deck.slides.length, 3)
    assert.deepEqual(deck.slides[1].blocks[0], { kind: 'code', lang: 'yaml', text: '---\nkey: 1' })
    assert.deepEqual(deck.slides[2].blocks[0], { kind: 'heading', depth: 2, text: 'Title here' })
  })

  it('splits at headings with the headingDivider directive', () => {
    const deck = read('---\nmarp: true\nheadingDivider: 2\n---\n# A\n\ntext\n\n## B\n\n### C stays\n')
    assert.equal(deck.slides.length, 2)
    assert.equal(deck.slides[1].blocks.length, 2)
  })

  it('reads headings, paragraphs with Marp line breaks, italic, strike and links as Text markup; bold and inline code keep their text', () => {
    const deck = read('---\nmarp: true\n---\n# Title *one*\n\nA **bold** `code` ~~gone~~ [site](https://example.com) & <3\nnext line\n')
    assert.deepEqual(deck.slides[0].blocks, [
      { kind: 'heading', depth: 1, text: 'Title <i>one</i>' },
      { kind: 'text', text: 'A bold code <s>gone</s> <a href="https://example.com">site</a> &amp; &lt;3\nnext line' },
    ])
  })

  it('reads bullet and numbered lists with their nesting and start number', () => {
    const deck = read('---\nmarp: true\n---\n- a\n  - a1\n    - a1x\n- b\n\n3. three\n4. four\n')
    assert.deepEqual(deck.slides[0].blocks, [
      { kind: 'list', ordered: false, items: [{ text: 'a' }, { text: 'a1', level: 2 }, { text: 'a1x', level: 3 }, { text: 'b' }] },
      { kind: 'list', ordered: true, start: 3, items: [{ text: 'three' }, { text: 'four' }] },
    ])
  })

  it('reads a table with its header row', () => {
    const deck = read('---\nmarp: true\n---\n| A | *B* |\n|---|---|\n| 1 | 2 |\n')
    assert.deepEqual(deck.slides[0].blocks, [{ kind: 'table', header: true, rows: [['A', '<i>B</i>'], ['1', '2']] }])
  })

  it('reads images with their alt, title and Marp keywords (bg, bg left, sizes) left out of the alt', () => {
    const deck = read('---\nmarp: true\n---\n![w:300 A chart](img/a%20b.png "Revenue")\n\n![bg left:40% sepia](team.jpg)\n\n![bg](cover.png)\n')
    assert.deepEqual(
      deck.slides[0].blocks.map((b) => b.kind === 'picture' && b.picture),
      [
        { src: 'img/a%20b.png', alt: 'A chart', title: 'Revenue' },
        { src: 'team.jpg', alt: '', background: 'left' },
        { src: 'cover.png', alt: '', background: 'cover' },
      ],
    )
  })

  it('reads fenced and indented code with its language', () => {
    const deck = read('---\nmarp: true\n---\n```js\nif (a) {\n  b()\n}\n```\n\n    indented\n')
    assert.deepEqual(deck.slides[0].blocks, [
      { kind: 'code', lang: 'js', text: 'if (a) {\n  b()\n}' },
      { kind: 'code', text: 'indented' },
    ])
  })

  it('takes comments that are not directives as presenter notes, and directives (spot, local) as hints', () => {
    const deck = read('---\nmarp: true\n---\n<!-- _class: lead -->\n# A\n\n<!-- First note. -->\n\n<!--\nSecond: note with a colon\n-->\n\n---\n\n<!-- class: two-columns -->\n<!-- _backgroundColor: "#FFEEDD" -->\n# B\n\n---\n\n# C\n')
    assert.equal(deck.slides[0].notes, 'First note.\n\nSecond: note with a colon')
    assert.equal(deck.slides[0].lead, true)
    assert.equal(deck.slides[1].layout, 'two-columns')
    assert.equal(deck.slides[1].background, '#ffeedd')
    assert.equal(deck.slides[2].layout, 'two-columns', 'a local directive holds for the slides after it')
    assert.equal(deck.slides[2].background, undefined, 'a spot directive holds for its slide only')
  })

  it('reads a quote and its attribution line', () => {
    const deck = read('---\nmarp: true\n---\n> Simple is better.\n> — Tim Peters\n')
    assert.deepEqual(deck.slides[0].blocks, [{ kind: 'quote', text: 'Simple is better.', attribution: 'Tim Peters' }])
  })

  it('reports raw HTML and reads plain Markdown (no front matter) with Marp rules', () => {
    const deck = read('# A\n\n<div class="x">hi</div>\n\n---\n\n# B\n')
    assert.equal(deck.dialect, 'marp')
    assert.equal(deck.slides.length, 2)
    assert.equal(deck.findings[0].element, 'html')
  })
})

describe('reading Slidev Markdown', () => {
  const SLIDEV = [
    '---', 'theme: seriph', 'title: Calm APIs', 'layout: cover', '---', '', '# Calm APIs', '', 'Subtitle', '',
    '---', 'layout: two-cols', '---', '', '# Cols', '', 'left text', '', '::right::', '', 'right text', '', '<!-- not the note -->', '', 'more', '', '<!--', 'The note.', '-->', '',
    '---', '', '# Plain', '', '```md', '---', 'inside a fence', '```', '',
    '---', 'layout: image-right', 'image: /pic.png', '---', '', '# Pic', '',
    '---', 'hide: true', '---', '', '# Hidden', '',
  ].join('\n')

  it('knows Slidev by its front matter and maps its theme', () => {
    const deck = read(SLIDEV)
    assert.equal(deck.dialect, 'slidev')
    assert.equal(deck.theme, 'editorial')
    assert.equal(deck.title, 'Calm APIs')
  })

  it('splits at --- lines outside fences and reads each slide front matter', () => {
    const deck = read(SLIDEV)
    assert.equal(deck.slides.length, 4)
    assert.equal(deck.slides[0].lead, true)
    assert.equal(deck.slides[1].layout, 'two-columns')
    assert.deepEqual(deck.slides[2].blocks[1], { kind: 'code', lang: 'md', text: '---\ninside a fence' })
    assert.equal(deck.slides[3].layout, 'picture-left')
    assert.deepEqual(deck.slides[3].blocks[0], { kind: 'picture', picture: { src: '/pic.png', alt: '', background: 'right' } })
    assert.ok(deck.findings.some((f) => /hidden/.test(f.reason)))
  })

  it('puts blocks after ::right:: in the right column and takes the last comment as the notes', () => {
    const slide = read(SLIDEV).slides[1]
    assert.deepEqual(slide.blocks, [{ kind: 'heading', depth: 1, text: 'Cols' }, { kind: 'text', text: 'left text' }])
    assert.deepEqual(slide.right, [{ kind: 'text', text: 'right text' }, { kind: 'text', text: 'more' }])
    assert.equal(slide.notes, 'The note.')
  })

  it('takes no notes from a comment that does not end the slide', () => {
    const deck = read('---\ntransition: fade\n---\n# A\n\n<!-- a remark, not notes -->\n\ntext after it\n')
    assert.equal(deck.slides[0].notes, undefined)
  })

  it('joins a paragraph\'s lines with a space (Slidev does not break lines)', () => {
    const deck = read('---\nlayout: center\n---\none\ntwo\n')
    assert.deepEqual(deck.slides[0].blocks, [{ kind: 'text', text: 'one two' }])
    assert.equal(deck.slides[0].layout, 'main-point')
  })
})

describe('refusing a file it cannot read, before anything is written', () => {
  it('refuses front matter that is not YAML, naming the line', () => refused('---\nmarp: true\ntitle: [unclosed\n---\n# A\n', /front matter at line \d+ is not valid YAML/))
  it('refuses front matter that is never closed', () => refused('---\nmarp: true\n# A\n', /never closed/))
  it('refuses front matter that is not a mapping', () => refused('---\n- a\n- b\n---\n# A\n', /not a list of "key: value" lines/))
  it('refuses a slide front matter that is never closed (Slidev)', () => refused('---\ntheme: seriph\n---\n# A\n\n---\nlayout: cover\n# B\n', /slide front matter opened by "---" on line 6 is never closed/))
  it('refuses bytes that are not UTF-8', () => refused(Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x41]), /not UTF-8/))
  it('refuses a file without slide content', () => refused('---\nmarp: true\n---\n\n---\n\n', /no slide content/))
})

describe('choosing layouts as a designer would', () => {
  const plan = (text: string, i = 0, last = false) => {
    const deck = read(`---\nmarp: true\n---\n${text}`)
    return planSlide(deck.slides[i], i === 0, last)
  }

  it('a title and a line or two on the first slide: the title layout with subtitle and byline', () => {
    assert.deepEqual(plan('# Talk\n\nSubtitle\n\nBy Ana\n'), { layout: 'title', title: 'Talk', subtitle: 'Subtitle', byline: 'By Ana', blocks: [] })
  })
  it('a heading alone: a section header', () => assert.equal(plan('# A\n\n---\n\n## Part two\n', 1).layout, 'section'))
  it('a heading and a list: title and body, the heading in the title slot', () => {
    const p = plan('# A\n\n---\n\n## Why\n\n- one\n- two\n', 1)
    assert.equal(p.layout, 'title-body')
    assert.deepEqual(p.blocks.map((b) => `${b.slot}:${b.kind}`), ['title:heading', 'body:list'])
  })
  it('Slidev columns: the two-column layout', () => {
    const deck = read('---\nlayout: default\n---\n# A\n\nleft\n\n::right::\n\nright\n')
    assert.deepEqual(planSlide(deck.slides[0], false).blocks.map((b) => `${b.slot}:${b.kind}`), ['title:heading', 'left:text', 'right:text'])
  })
  it('a lone picture with a caption: picture and caption', () => {
    const p = plan('# A\n\n---\n\n## Growth\n\n![Chart](c.png)\n\nDeploys per week\n', 1)
    assert.equal(p.layout, 'picture-caption')
    assert.deepEqual(p.blocks.map((b) => `${b.slot}:${b.kind}`), ['title:heading', 'media:picture', 'caption:text'])
  })
  it('a table (and its source line): the table layout', () => {
    const p = plan('# A\n\n---\n\n## Numbers\n\n| a |\n|---|\n| 1 |\n\nSource: log\n', 1)
    assert.equal(p.layout, 'table')
    assert.deepEqual(p.blocks.map((b) => `${b.slot}:${b.kind}`), ['title:heading', 'body:table', 'caption:text'])
  })
  it('code: a text block marked as code, lines kept and indentation as no-break spaces', () => {
    const p = plan('# A\n\n---\n\n## Code\n\n```\nif a:\n  b <c>\n```\n', 1)
    assert.deepEqual(p.blocks[1], { slot: 'body', kind: 'text', text: 'if a:\n\u00a0\u00a0b &lt;c&gt;', code: true })
  })
  it('a quote alone: the quote layout with its attribution', () => {
    const p = plan('# A\n\n---\n\n> Less is more.\n> — Mies\n', 1)
    assert.deepEqual(p, { layout: 'quote', attribution: 'Mies', blocks: [{ slot: 'body', kind: 'text', text: 'Less is more.' }] })
  })
  it('a background picture beside a list: picture-left; alone: picture-full', () => {
    assert.equal(plan('# A\n\n---\n\n![bg left](t.png)\n\n## Team\n\n- a\n', 1).layout, 'picture-left')
    assert.equal(plan('# A\n\n---\n\n![bg](t.png)\n', 1).layout, 'picture-full')
  })
  it('a short statement without a heading: main point; the last slide with a thank-you: closing', () => {
    assert.equal(plan('# A\n\n---\n\nShip small.\n', 1).layout, 'main-point')
    assert.equal(plan('# A\n\n---\n\n# Thanks!\n\nQuestions?\n', 1, true).layout, 'closing')
  })
  it('a hint wins over the content: _class two-columns, lead', () => {
    assert.equal(plan('# A\n\n---\n\n<!-- _class: agenda -->\n## Agenda\n\n- a\n', 1).layout, 'agenda')
    assert.equal(plan('# A\n\n---\n\n<!-- _class: lead -->\n# Again\n\n- a list\n', 1).layout, 'title')
  })
})

describe('writing Markdown that reads back the same', () => {
  it('escapes what Markdown would read as syntax, keeping italic, strike and links', () => {
    const markup = '# not a heading *x* _y_ [z] 1. &lt;b&gt; a|b ~ $5 \\ <i>it</i> <s>st</s> <a href="https://e.com/a(b)">link</a>'
    const md = inlineMarkdown(markup)
    const back = read(`---\nmarp: true\n---\n${md}\n`).slides[0].blocks
    assert.deepEqual(back, [{ kind: 'text', text: markup.replace(/&lt;b&gt;/, '&lt;b&gt;') }])
  })

  it('writes front matter, separators, notes, a title slide, columns, a quote with attribution, and pictures by relative path', () => {
    const slides: Slide[] = [
      { id: 'title-1', layout: 'title', title: 'Talk', subtitle: 'Sub', notes: 'Hello --> there' },
      { id: 'two-columns-1', layout: 'two-columns', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Cols' }, { id: 'b1', kind: 'text', slot: 'left', text: 'L' }, { id: 'b2', kind: 'text', slot: 'right', text: 'R' }] },
      { id: 'quote-1', layout: 'quote', attribution: 'Ana', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'Q' }] },
      { id: 'picture-caption-1', layout: 'picture-caption', blocks: [{ id: 'b1', kind: 'picture', slot: 'media', asset: 'chart', caption: 'Cap' }] },
    ]
    const doc = { manifest: { id: 'd', title: 'Talk: "one"', theme: 'paper', defaults: { counter: true }, sections: [], revision: 1, stamps: { createdAt: '', updatedAt: '' } }, slides: {}, versions: [] } as unknown as DeckDoc
    const out = deckMarkdown(doc, slides, { notes: true, dir: 'd-assets', alt: () => 'A chart', fileOf: (id) => `${id}.png` })
    assert.match(out.markdown, /^---\nmarp: true\ntitle: "Talk: \\"one\\""\ntheme: "paper"\npaginate: true\n---\n/)
    assert.deepEqual([...out.pictures], [['chart', 'chart.png']])
    const deck = read(out.markdown)
    assert.equal(deck.title, 'Talk: "one"')
    assert.equal(deck.slides.length, 4)
    assert.equal(deck.slides[0].notes, 'Hello -- > there')
    assert.deepEqual(planSlide(deck.slides[0], true), { layout: 'title', title: 'Talk', subtitle: 'Sub', blocks: [] })
    assert.deepEqual(deck.slides[1].right, [{ kind: 'text', text: 'R' }])
    assert.deepEqual(planSlide(deck.slides[2], false), { layout: 'quote', attribution: 'Ana', blocks: [{ slot: 'body', kind: 'text', text: 'Q' }] })
    assert.deepEqual(deck.slides[3].blocks[0], { kind: 'picture', picture: { src: 'd-assets/chart.png', alt: 'A chart', title: 'Cap' } })
  })

  it('leaves out the notes when asked and reports blocks Markdown cannot hold', () => {
    const doc = { manifest: { id: 'd', title: 'T', theme: 'studio-simple', sections: [], revision: 1, stamps: {} }, slides: {}, versions: [] } as unknown as DeckDoc
    const slide: Slide = { id: 'freeform-1', layout: 'freeform', notes: 'secret', blocks: [{ id: 'b1', kind: 'line', pos: { x: 0, y: 0, w: 1, h: 1 } }, { id: 'b2', kind: 'textbox', text: 'Hi', pos: { x: 0, y: 0, w: 1, h: 1 } }] }
    const out = deckMarkdown(doc, [slide], { notes: false, dir: 'x', alt: () => '', fileOf: () => undefined })
    assert.doesNotMatch(out.markdown, /secret/)
    assert.match(out.markdown, /\nHi\n/)
    assert.deepEqual(out.skipped, [{ slideId: 'freeform-1', blockId: 'b1', reason: 'A line block has no Markdown form.' }])
  })
})
