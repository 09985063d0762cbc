import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { StudioError } from '../../../src/core/errors.js'
import {
  blockText,
  blockTexts,
  canonical,
  fromPlain,
  paragraphs,
  parse,
  plainText,
  replaceAll,
  replaceAllPlain,
  serialize,
  slideTexts,
  styleRange,
  type Marks,
  type Run,
  type StyleMarks,
} from '../../../src/model/text.js'

/** Expects `fn` to fail with `code` (and `pointer` when given). */
function refuses(fn: () => unknown, code: string, pointer?: string) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof StudioError, String(error))
    assert.equal(error.code, code, error.message)
    if (pointer !== undefined) assert.equal(error.extra.pointer, pointer)
    return true
  })
}

/** The marks of every character (code point) of the plain text. */
function charMarks(markup: string): Marks[] {
  return parse(markup).flatMap((run) => [...run.text].map(() => run.marks))
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const CHARS = ['a', 'b', 'A', 'B', 'c', ' ', '\n', '&', '<', '>', '"', "'", 'é', '😀']
const plainArb = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 40 })

const colourArb = fc.constantFrom('accent', 'ink', '#ff0000', '#abc')
const marksArb: fc.Arbitrary<Marks> = fc
  .record(
    {
      href: fc.constantFrom('https://example.com/a?b=1&c=2', 'mailto:x@example.com', '#slide:title-1'),
      color: colourArb,
      highlight: colourArb,
      size: fc.constantFrom(12, 24, 31.5),
      italic: fc.constant(true as const),
      underline: fc.constant(true as const),
      strike: fc.constant(true as const),
      superscript: fc.constant(true as const),
      subscript: fc.constant(true as const),
    },
    { requiredKeys: [] },
  )
  .map((m) => m as Marks)

const runsArb: fc.Arbitrary<Run[]> = fc.array(fc.record({ text: plainArb, marks: marksArb }), { maxLength: 6 })

/** Markup written by hand, not canonically: redundant, nested in any order, split and empty tags. */
type Node = string | { tag: string; children: Node[] }
const tagArb = fc.constantFrom(
  '<i>', '<u>', '<s>', '<sup>', '<sub>', '<span style="color:accent">', "<span style='background: #abc ; font-size:18px'>",
  '<span>', '<a href="https://example.com">', '<A HREF="#slide:x-2">', '<I>',
)
const nodeArb: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainArb.map(fromPlain),
    fc.record({ tag: tagArb, children: fc.array(tie('node'), { maxLength: 3 }) }),
  ),
})).node
function render(node: Node): string {
  if (typeof node === 'string') return node
  const name = /^<([a-zA-Z]+)/.exec(node.tag)![1]
  return `${node.tag}${node.children.map(render).join('')}</${name}>`
}
const markupArb = fc.oneof(runsArb.map(serialize), fc.array(nodeArb, { maxLength: 4 }).map((nodes) => nodes.map(render).join('')))

const rangeFor = (length: number) => fc.tuple(fc.nat(length), fc.nat(length)).filter(([a, b]) => a !== b).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number])

const styleArb: fc.Arbitrary<StyleMarks> = fc
  .record(
    {
      italic: fc.boolean(),
      underline: fc.boolean(),
      strike: fc.boolean(),
      superscript: fc.boolean(),
      subscript: fc.boolean(),
      color: fc.option(colourArb),
      highlight: fc.option(colourArb),
      size: fc.option(fc.constantFrom(10, 40)),
      href: fc.option(fc.constantFrom('https://example.com/x', '#slide:two-columns-3')),
    },
    { requiredKeys: [] },
  )
  .filter((m) => !(m.superscript === true && m.subscript === true))

/** Only setting changes (true or a value), for the style-then-clear round trip. */
const settingArb: fc.Arbitrary<StyleMarks> = fc
  .record(
    {
      italic: fc.constant(true),
      underline: fc.constant(true),
      strike: fc.constant(true),
      superscript: fc.constant(true),
      subscript: fc.constant(true),
      color: colourArb,
      highlight: colourArb,
      size: fc.constantFrom(10, 40),
      href: fc.constantFrom('https://example.com/x', '#slide:two-columns-3'),
    },
    { requiredKeys: [] },
  )
  .filter((m) => !(m.superscript === true && m.subscript === true))

const clearing = (m: StyleMarks): StyleMarks =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'boolean' ? false : null])) as StyleMarks

// ---------------------------------------------------------------------------------------------

describe('Text markup: reading', () => {
  it('reads marks, nested spans and links into runs', () => {
    assert.deepEqual(parse('a<i>b<span style="color:accent;font-size:24px">c</span></i><a href="https://x.io">d</a>'), [
      { text: 'a', marks: {} },
      { text: 'b', marks: { italic: true } },
      { text: 'c', marks: { color: 'accent', size: 24, italic: true } },
      { text: 'd', marks: { href: 'https://x.io' } },
    ])
  })

  it('decodes the entities and reads a bare & or a < that starts no tag as text', () => {
    assert.equal(plainText('&amp; &lt;i&gt; &quot;q&quot; &#39;s&#x27; R&D a < b x<y then &bogus;'), `& <i> "q" 's' R&D a < b x<y then &bogus;`)
  })

  it('never marks a paragraph break: marks close before "\\n" and reopen after it', () => {
    assert.equal(canonical('<i>one\ntwo</i>'), '<i>one</i>\n<i>two</i>')
    assert.deepEqual(parse('<i>a\nb</i>')[1], { text: '\n', marks: {} })
  })

  it('refuses tags, attributes and styles outside the subset with invalid_input and the pointer given', () => {
    for (const bad of [
      '<b>x</b>', '<br>', '<br/>', '<i/>', '<div>x</div>', '<i class="x">x</i>', '<span style="font-weight:bold">x</span>',
      '<span style="color:red;color:blue">x</span>'.replace('color:blue', 'colour:blue'), '<span style="font-size:12pt">x</span>',
      '<span style="color:rgb(1,2,3)">x</span>', '<span title="t">x</span>', '<a>x</a>', '<a href="javascript:alert(1)">x</a>',
      '<a href="x" target="_blank">x</a>', '<i>x', 'x</i>', '<i><u>x</i></u>', '<!-- note -->', '<?xml?>', '<i id="a" id="b">x</i>',
      '<script>alert(1)</script>', '<a href=" javascript:alert(1)">x</a>', '<a href="JAVASCRIPT:alert(1)">x</a>', '<a href="data:text/html,x">x</a>',
    ]) refuses(() => parse(bad, '/blocks/1/text'), 'invalid_input', '/blocks/1/text')
  })

  it('reads names of JavaScript built-ins as nothing special: no tag, no entity, no attribute', () => {
    for (const name of ['constructor', 'tostring', 'valueof', 'hasownproperty', 'prototype']) {
      refuses(() => parse(`<${name}>x</${name}>`), 'invalid_input')
      assert.equal(plainText(`&${name};`), `&${name};`)
    }
    refuses(() => parse('<i constructor="x">y</i>'), 'invalid_input')
    refuses(() => parse('<a constructor="x" href="https://example.com">y</a>'), 'invalid_input')
  })
})

describe('Text markup: canonical writing', () => {
  it('nests marks in a fixed order, shares common tags and merges equal neighbours', () => {
    assert.equal(canonical('<u><i>a</i></u><i>b</i>'), '<i><u>a</u>b</i>')
    assert.equal(canonical('<i>a</i><i>b</i>'), '<i>ab</i>')
    assert.equal(canonical('<sub><span style="font-size:10px ; background:ink;color:#fff">x</span></sub>'), '<span style="color:#fff;background:ink;font-size:10px"><sub>x</sub></span>')
    assert.equal(canonical('<i></i>a<span>b</span>'), 'ab')
    assert.equal(canonical('<I>x</I> > y'), '<i>x</i> &gt; y')
    assert.equal(canonical('<a href="https://e.com/?a=1&amp;b=&quot;2&quot;"><i>l</i>ink</a>'), '<a href="https://e.com/?a=1&amp;b=&quot;2&quot;"><i>l</i>ink</a>')
  })

  it('leaves plain text as it is (escaping only &, < and >)', () => {
    assert.equal(canonical('Costs fell by half at Acme.\nMargins grew.'), 'Costs fell by half at Acme.\nMargins grew.')
    assert.equal(fromPlain('a < b & "c"'), 'a &lt; b &amp; "c"')
  })

  it('splits paragraphs, each as markup of its own', () => {
    assert.deepEqual(paragraphs('<i>a\nb</i>c\n\nd'), ['<i>a</i>', '<i>b</i>c', '', 'd'])
  })

  it('property: serialize∘parse is idempotent and keeps the plain text', () => {
    fc.assert(
      fc.property(markupArb, (markup) => {
        const once = canonical(markup)
        assert.equal(canonical(once), once)
        assert.equal(plainText(once), plainText(markup))
      }),
      { numRuns: 400 },
    )
  })

  it('property: parse∘serialize gives back the runs (merged)', () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        const markup = serialize(runs)
        assert.equal(serialize(parse(markup)), markup)
        assert.equal(plainText(markup), runs.map((r) => r.text).join(''))
      }),
      { numRuns: 300 },
    )
  })
})

describe('Text markup: styling a range', () => {
  const text = 'Costs fell by half at Acme.\nMargins grew.'

  it('sets marks over the range only, across paragraphs', () => {
    assert.equal(styleRange(text, [0, 5], { italic: true, color: 'accent' }), '<span style="color:accent"><i>Costs</i></span> fell by half at Acme.\nMargins grew.')
    assert.equal(styleRange(text, [22, 35], { underline: true }), 'Costs fell by half at <u>Acme.</u>\n<u>Margins</u> grew.')
  })

  it('clears marks (false, null) and keeps the others', () => {
    const styled = '<span style="color:accent;font-size:30px"><i><u>Costs</u></i></span> fell'
    assert.equal(styleRange(styled, [0, 5], { underline: false, color: null }), '<span style="font-size:30px"><i>Costs</i></span> fell')
    assert.equal(styleRange(styled, [2, 5], { italic: false, size: null, color: null, underline: false }), '<span style="color:accent;font-size:30px"><i><u>Co</u></i></span>sts fell')
  })

  it('makes superscript and subscript exclusive, and refuses both at once', () => {
    assert.equal(styleRange('<sub>x2</sub>', [1, 2], { superscript: true }), '<sub>x</sub><sup>2</sup>')
    refuses(() => styleRange('x2', [0, 1], { superscript: true, subscript: true }), 'invalid_input')
  })

  it('refuses an empty range, a range beyond the text, and bad values', () => {
    refuses(() => styleRange('abc', [2, 2], { italic: true }), 'invalid_input')
    refuses(() => styleRange('abc', [1, 4], { italic: true }), 'invalid_input')
    refuses(() => styleRange('abc', [0, 1], { color: 'rgb(0,0,0)' }), 'invalid_input')
    refuses(() => styleRange('abc', [0, 1], { href: 'javascript:x' }), 'invalid_input')
  })

  it('counts offsets in code points: an emoji or any astral character is one character', () => {
    assert.equal(styleRange('a😀b', [1, 2], { italic: true }), 'a<i>😀</i>b')
    assert.equal(styleRange('a😀b', [2, 3], { italic: true }), 'a😀<i>b</i>')
    assert.equal(styleRange('😀😀 𝒜cme', [3, 5], { underline: true }), '😀😀 <u>𝒜c</u>me')
    assert.equal(styleRange('👩‍💻 dev', [0, 3], { italic: true }), '<i>👩‍💻</i> dev', 'a joined emoji is as many characters as code points')
    refuses(() => styleRange('a😀b', [0, 4], { italic: true }), 'invalid_input')
    assert.throws(() => styleRange('a😀b', [1, 5], { italic: true }), /ends beyond the text \(3 characters, counted in code points\)/)
    assert.throws(() => parse('😀😀<b>x</b>'), /at character 2\)/, 'markup errors name code points too')
  })

  it('property: styling keeps the plain text and marks exactly the range', () => {
    fc.assert(
      fc.property(
        markupArb.chain((markup) => {
          const length = [...plainText(markup)].length
          return fc.tuple(fc.constant(markup), length ? rangeFor(length) : fc.constant(null), styleArb)
        }),
        ([markup, range, style]) => {
          if (!range) return
          const styled = styleRange(markup, range, style)
          assert.equal(plainText(styled), plainText(markup))
          assert.equal(canonical(styled), styled)
          const before = charMarks(markup)
          const after = charMarks(styled)
          const plain = [...plainText(markup)]
          after.forEach((marks, i) => {
            const inside = i >= range[0] && i < range[1] && plain[i] !== '\n'
            if (!inside) assert.deepEqual(marks, before[i])
            else if (style.italic !== undefined) assert.equal(marks.italic === true, style.italic)
          })
        },
      ),
      { numRuns: 400 },
    )
  })

  it('property: styling [a, b] then clearing the same marks gives back markup without marks', () => {
    fc.assert(
      fc.property(
        plainArb.filter((s) => s.length > 0).chain((plain) => fc.tuple(fc.constant(plain), rangeFor([...plain].length), settingArb)),
        ([plain, range, style]) => {
          const markup = fromPlain(plain)
          assert.equal(styleRange(styleRange(markup, range, style), range, clearing(style)), markup)
        },
      ),
      { numRuns: 400 },
    )
  })
})

describe('Text markup: replacing', () => {
  it('replaces across marks, keeps the marks of untouched text, and counts', () => {
    assert.deepEqual(replaceAll('Costs at <i>Ac</i>me and acme, <u>ACME</u>.', 'acme', 'Globex'), {
      text: 'Costs at <i>Globex</i> and Globex, <u>Globex</u>.',
      count: 3,
    })
    assert.deepEqual(replaceAll('Acme and acme', 'acme', 'Globex', true), { text: 'Acme and Globex', count: 1 })
  })

  it('keeps marks where they were when a replacement crosses a mark boundary', () => {
    const replace = (markup: string, find: string, by: string) => replaceAll(markup, find, by).text
    assert.equal(replace('<i>Ac</i>me', 'Acme', 'Acme Corp'), '<i>Ac</i>me Corp', 'the common beginning keeps its marks; an insertion takes the marks before it')
    assert.equal(replace('Acme <i>Corp</i>', 'Acme Corp', 'Globex Corp'), 'Globex <i>Corp</i>', 'the common end keeps its marks')
    assert.equal(replace('<i>Acme</i> Corp', 'Acme Corp', 'Acme Inc'), '<i>Acme</i> Inc', 'the changed middle takes the marks of the first character it replaces')
    assert.equal(replace('<i>Ac</i><u>me</u>', 'acme', 'ACNE'), '<i>AC</i><u>NE</u>', 'alignment ignores case')
    assert.equal(replace('<i>Ac</i>me', 'Acme', 'The Acme'), '<i>The Ac</i>me', 'an insertion at the very start takes the marks after it')
    assert.equal(replace('x <i>Ac</i>me 😀 <u>A😀</u>', 'a😀', 'B😀😀'), 'x <i>Ac</i>me 😀 <u>B😀😀</u>', 'characters are code points')
  })

  it('treats find and replacement as plain text, and answers markup without a match unchanged', () => {
    assert.deepEqual(replaceAll('a &lt; b', '<', '<i>'), { text: 'a &lt;i&gt; b', count: 1 })
    assert.deepEqual(replaceAll('R&D <i>x</i>', 'zzz', 'y'), { text: 'R&D <i>x</i>', count: 0 })
    assert.deepEqual(replaceAll('a.b.c', '.', '+'), { text: 'a+b+c', count: 2 })
    assert.deepEqual(replaceAllPlain('Welcome to Acme. acme!', 'ACME', 'Globex'), { text: 'Welcome to Globex. Globex!', count: 2 })
  })

  it('property: the count equals the occurrences, and the plain text is replaced', () => {
    const wordArb = fc.string({ unit: fc.constantFrom('a', 'b', 'A', '\n', '&', '.'), minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(markupArb, wordArb, fc.string({ unit: fc.constantFrom('x', 'Y', '<', '\n'), maxLength: 3 }), fc.boolean(), (markup, find, replace, matchCase) => {
        const plain = plainText(markup)
        const haystack = matchCase ? plain : plain.toLowerCase()
        const needle = matchCase ? find : find.toLowerCase()
        const expected = haystack.split(needle).length - 1
        const result = replaceAll(markup, find, replace, matchCase)
        assert.equal(result.count, expected)
        if (matchCase) assert.equal(plainText(result.text), plain.split(find).join(replace))
        else assert.equal(plainText(result.text).length, plain.length + expected * (replace.length - find.length))
      }),
      { numRuns: 400 },
    )
  })
})

describe('Texts of blocks and slides', () => {
  it('finds every Text of each block kind and of a slide', () => {
    const slide = {
      id: 's',
      layout: 'title',
      title: 'T',
      subtitle: 'S',
      blocks: [
        { id: 'a', kind: 'list', items: [{ text: 'one' }, { text: 'two', level: 2 }] },
        { id: 'b', kind: 'table', rows: [['h1', 'h2'], ['c1', 'c2']] },
        { id: 'c', kind: 'picture', asset: 'x', caption: 'cap' },
        { id: 'd', kind: 'shape', shape: 'rect' },
        { id: 'e', kind: 'html', html: '<b>x</b>' },
      ],
    }
    assert.deepEqual(
      slideTexts(slide).map((s) => `${s.pointer}=${s.value}`),
      ['/title=T', '/subtitle=S', '/blocks/0/items/0/text=one', '/blocks/0/items/1/text=two', '/blocks/1/rows/0/0=h1', '/blocks/1/rows/0/1=h2', '/blocks/1/rows/1/0=c1', '/blocks/1/rows/1/1=c2', '/blocks/2/caption=cap'],
    )
    slideTexts(slide)[3].set('zwei')
    assert.equal(slide.blocks[0].items![1].text, 'zwei')
    assert.deepEqual(blockTexts(slide.blocks[4]), [])
  })

  it('answers not_found for an item the block lacks, invalid_input for a pointer that is no Text of the kind', () => {
    const list = { id: 'a', kind: 'list', items: [{ text: 'one' }] }
    assert.equal(blockText(list, '/items/0/text').value, 'one')
    refuses(() => blockText(list, '/items/3/text'), 'not_found', '/path')
    refuses(() => blockText(list, '/text'), 'invalid_input', '/path')
    refuses(() => blockText({ id: 't', kind: 'table', rows: [['a']] }, '/rows/0/1'), 'not_found', '/path')
    refuses(() => blockText({ id: 'p', kind: 'picture', asset: 'x' }, '/text'), 'invalid_input', '/path')
    const shape: Record<string, unknown> = { id: 'd', kind: 'shape', shape: 'rect' }
    const site = blockText(shape as never, '/text')
    assert.equal(site.value, '')
    site.set('Plan')
    assert.equal(shape.text, 'Plan')
  })
})
