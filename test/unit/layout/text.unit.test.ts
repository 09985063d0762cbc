import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { measureText, stripMarkup, textWidth } from '../../../src/layout/index.js'

const require = createRequire(import.meta.url)
const WORDS = ['a', 'the', 'quarterly', 'review', 'margins', 'grew', 'Acme', 'well-known', 'supercalifragilisticexpialidocious', 'W', 'iii', '42%', 'déjà', 'x']
const words = fc.array(fc.constantFrom(...WORDS), { maxLength: 40 })
const weight = fc.constantFrom(400 as const, 500 as const, 600 as const, 700 as const)

describe('measureText', () => {
  it('sums the advance widths and kerning pairs of the font for a known string, as fontkit lays it out', () => {
    const fontkit = require('fontkit') as { openSync(p: string): { unitsPerEm: number; glyphForCodePoint(c: number): { advanceWidth: number }; layout(t: string, f: Record<string, boolean>, script: string): { positions: { xAdvance: number }[] } } }
    for (const w of [400, 700] as const) {
      const font = fontkit.openSync(require.resolve(`@fontsource/inter/files/inter-latin-${w}-normal.woff2`))
      const text = 'Quarterly review: Acme grew 42% To WAVY'
      let units = 0
      for (const p of font.layout(text, { kern: true, liga: false, calt: false, mark: false, mkmk: false }, 'latn').positions) units += p.xAdvance
      const expected = (units * 28) / font.unitsPerEm
      const m = measureText(text, { size: 28, width: 5000, weight: w })
      assert.equal(m.lines, 1)
      assert.ok(Math.abs(m.width - expected) < 1e-6, `${m.width} vs ${expected}`)
      assert.ok(Math.abs(textWidth(text, 28, w) - expected) < 1e-6)
    }
  })

  it('takes from a kerned word exactly its pairs\' adjustments, kerns across a space inside a line and never across a line break', () => {
    const fontkit = require('fontkit') as { openSync(p: string): { unitsPerEm: number; glyphForCodePoint(c: number): { advanceWidth: number }; layout(t: string, f: Record<string, boolean>, script: string): { positions: { xAdvance: number }[] } } }
    const features = { kern: true, liga: false, calt: false, mark: false, mkmk: false }
    const font = fontkit.openSync(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff2'))
    const word = 'AVAWATa'
    const advance = (ch: string) => font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth
    let plain = 0
    for (const ch of word) plain += advance(ch)
    let pairs = 0
    for (let i = 0; i + 1 < word.length; i++) {
      const two = font.layout(word.slice(i, i + 2), features, 'latn').positions
      pairs += two[0].xAdvance + two[1].xAdvance - advance(word[i]) - advance(word[i + 1])
    }
    assert.ok(pairs < -200, `AVAWATa kerns by ${pairs} units`)
    const px = (units: number) => (units * 96) / font.unitsPerEm
    assert.ok(Math.abs(measureText(word, { size: 96, width: 5000 }).width - px(plain + pairs)) < 1e-6)
    // Across a space: Source Serif 4 kerns a letter with the space beside it; the line holds the pairs the words do not.
    const serif = fontkit.openSync(require.resolve('@fontsource/source-serif-4/files/source-serif-4-latin-400-normal.woff2'))
    let line = 0
    for (const p of serif.layout('Ty VA', features, 'latn').positions) line += p.xAdvance
    let words = 0
    for (const w of ['Ty', 'VA']) for (const p of serif.layout(w, features, 'latn').positions) words += p.xAdvance
    assert.notEqual(line, words + serif.glyphForCodePoint(32).advanceWidth, 'Source Serif 4 kerns T or A with a space')
    assert.ok(Math.abs(measureText('Ty VA', { size: 96, width: 5000, family: 'Source Serif 4' }).width - (line * 96) / serif.unitsPerEm) < 1e-6)
    // A break between two words: each line is the word alone, kerned inside only.
    const alone = measureText('VA', { size: 96, width: 5000, family: 'Source Serif 4' }).width
    const two = measureText('Ty VA', { size: 96, width: alone + 1, family: 'Source Serif 4' })
    assert.equal(two.lines, 2)
    assert.ok(Math.abs(two.width - Math.max(alone, measureText('Ty', { size: 96, width: 5000, family: 'Source Serif 4' }).width)) < 1e-6)
  })

  it('is one line at 1.25 × size by default and honours lineHeight', () => {
    assert.deepEqual(
      { lines: measureText('Why now', { size: 56, width: 1440 }).lines, height: measureText('Why now', { size: 56, width: 1440 }).height },
      { lines: 1, height: 70 },
    )
    assert.equal(measureText('Why now', { size: 20, width: 1440, lineHeight: 2 }).height, 40)
  })

  it('starts a paragraph at every "\\n", an empty paragraph one line tall', () => {
    assert.equal(measureText('Costs fell.\nMargins grew.', { size: 28, width: 1440 }).lines, 2)
    assert.equal(measureText('a\n\nb', { size: 28, width: 1440 }).lines, 3)
    assert.equal(measureText('', { size: 28, width: 1440 }).lines, 1)
  })

  it('wraps by words and breaks a word wider than the line', () => {
    const one = measureText('alpha beta gamma delta', { size: 28, width: 5000 })
    const narrow = measureText('alpha beta gamma delta', { size: 28, width: one.width / 2 })
    assert.ok(narrow.lines >= 2)
    assert.ok(narrow.width <= one.width / 2)
    const long = measureText('W'.repeat(60), { size: 28, width: 200 })
    assert.ok(long.lines >= 8)
    assert.ok(long.width <= 200)
  })

  it('flows across columns 32 px apart', () => {
    const text = Array.from({ length: 30 }, (_, i) => `Line ${i}`).join('\n')
    assert.equal(measureText(text, { size: 28, width: 1440, columns: 3 }).height, 10 * 35)
    assert.equal(measureText(text, { size: 28, width: 1440, columns: 2 }).height, 15 * 35)
    // 3 columns in 1440 are 458.67 wide: a line of 440 px fits, one of 470 px does not.
    const size = 28
    const probe = 'm'.repeat(30)
    const w = textWidth(probe, size)
    const cols = (1440 - 64) / 3
    assert.equal(measureText(probe, { size, width: 1440, columns: 3 }).lines, w <= cols ? 1 : 2)
  })

  it('narrows the line by the indent', () => {
    const text = 'one two three four five six seven'
    const full = measureText(text, { size: 28, width: 5000 }).width
    assert.equal(measureText(text, { size: 28, width: full + 1 }).lines, 1)
    assert.equal(measureText(text, { size: 28, width: full + 1, indent: 64 }).lines, 2)
  })

  it('measures the plain text of inline markup and entities', () => {
    const plain = measureText('Tom & Jerry <3 "x"', { size: 28, width: 1440 })
    const marked = measureText('<i>Tom</i> &amp; <span style="color:red">Jerry</span> &lt;3 <a href="https://x.y">&quot;x&quot;</a>', { size: 28, width: 1440 })
    assert.equal(marked.width, plain.width)
    assert.equal(stripMarkup('a<sup>2</sup> &gt; b<sub>1</sub> <u>u</u><s>s</s>'), 'a2 > b1 us')
  })

  it('reads a < that starts no tag of the subset, and an unknown entity, as text', () => {
    assert.equal(stripMarkup('x<y then z>w'), 'x<y then z>w')
    assert.equal(stripMarkup('a < b &foo; &#65;'), 'a < b &foo; A')
  })

  it('never lowers the height when words are added', () => {
    fc.assert(
      fc.property(words, words, fc.integer({ min: 40, max: 1600 }), fc.integer({ min: 1, max: 3 }), weight, (a, b, width, columns, w) => {
        const before = measureText(a.join(' '), { size: 28, width, columns, weight: w })
        const after = measureText([...a, ...b].join(' '), { size: 28, width, columns, weight: w })
        return after.height >= before.height
      }),
      { numRuns: 300 },
    )
  })

  it('never raises the height when the box gets wider', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 20, max: 1600 }), fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 128 }), (ws, width, more, indent) => {
        const text = ws.join(' ')
        const narrow = measureText(text, { size: 28, width, indent })
        const wide = measureText(text, { size: 28, width: width + more, indent })
        return wide.height <= narrow.height && wide.lines <= narrow.lines
      }),
      { numRuns: 300 },
    )
  })

  it('keeps every line within the column width unless one glyph is wider', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 40, max: 1600 }), (ws, width) => measureText(ws.join(' '), { size: 28, width }).width <= width + 0.01),
      { numRuns: 200 },
    )
  })
})

describe('measureText in every script', () => {
  const em = (text: string, weight: 400 | 700 = 400) => textWidth(text, 100, weight) / 100

  it('measures what the theme face lacks in the fallback face that draws it: CJK at one em, hangul in the Korean face, emoji at the emoji face\'s advance', () => {
    assert.equal(em('中文字'), 3)
    assert.equal(em('かな'), 2)
    // Noto Sans KR's hangul is 0.92 em; a Han character in a Korean text is still a full em.
    assert.equal(em('한국'), 1.84)
    assert.equal(em('한國'), 1.92)
    assert.equal(em('🚀'), 2600 / 2048)
    // Never the .notdef box: it is what a character no shipped face has gets.
    const notdef = em('\u{10fffd}')
    for (const ch of ['ż', 'Ж', 'λ', 'ש', 'ب', '中', '한', '🚀']) assert.notEqual(em(ch), notdef, ch)
  })

  it('measures an emoji sequence (ZWJ family, flag, skin tone, selector) as the one glyph it draws', () => {
    const one = em('👩')
    assert.equal(em('👩‍👩‍👧'), one)
    assert.equal(em('👍🏽'), em('👍'))
    assert.equal(em('🇵🇱'), em('🇵'))
    assert.equal(em('🇵🇱🇩🇪'), 2 * em('🇵'))
    assert.equal(em('✅\ufe0f'), em('✅'))
  })

  it('takes the advance at the weight asked for from a variable fallback face', () => {
    assert.ok(em('שלום', 700) > em('שלום', 400))
  })

  it('breaks CJK text between characters, keeping closing punctuation with the one before it', () => {
    const line = '你好世界欢迎你们来到这里'
    const size = 40
    const m = measureText(line, { size, width: size * 5 + 1 })
    assert.equal(m.lines, 3)
    assert.equal(m.width, size * 5)
    // 。 may not start a line: with room for 4 characters, "四五。" is not split before the stop.
    assert.equal(measureText('一二三四五。', { size, width: size * 5 + 1 }).lines, 2)
    assert.equal(measureText('一二三四五。', { size, width: size * 5 + 1 }).width, size * 4)
    // A Latin word next to CJK text still moves whole.
    assert.equal(measureText('中文 Quarterly', { size, width: textWidth('Quarterly', size) + 1 }).lines, 2)
  })
})

describe('measureText in a joining script', () => {
  const width = (text: string, weight: 400 | 700 = 400) => textWidth(text, 1000, weight)

  it('measures Arabic letters in the forms their neighbours give them, and lam-alef as the face draws it', () => {
    // Noto Sans Arabic (units per em 1000): beh alone 993; initial 269 + final 1093 joined; a third beh takes the medial 343.
    assert.equal(width('ب'), 993)
    assert.equal(width('بب'), 269 + 1093)
    assert.equal(width('ببب'), 269 + 343 + 1093)
    // Alef joins only the letter before it: after it a beh starts again (isolated).
    assert.equal(width('اب'), 238 + 993)
    // A space ends a word's joins; a mark between two letters does not.
    assert.ok(Math.abs(width('ب ب') - (2 * 993 + width(' '))) < 1e-6)
    assert.equal(width('بَب'), width('بب'))
    // Lam then alef: the pair's own widths, not lam's initial and alef's final.
    assert.equal(width('لا'), 582)
    assert.notEqual(width('لا'), 260 + 291)
    // Bold is wider: each form's advance at the weight asked for.
    assert.ok(width('مرحبا', 700) > width('مرحبا', 400))
  })

  it('kerns Arabic letters in their forms and Hebrew letters as the fallback faces kern them (fontkit\'s layout at the default instance)', () => {
    const fontkit = require('fontkit') as { openSync(p: string): { unitsPerEm: number; layout(t: string, f: Record<string, boolean>): { positions: { xAdvance: number }[] } } }
    const laid = (file: string, text: string, kern: boolean) => {
      const font = fontkit.openSync(require.resolve(file))
      let units = 0
      for (const p of font.layout(text, { kern, liga: false, calt: false, mark: false, mkmk: false }).positions) units += p.xAdvance
      return (units * 1000) / font.unitsPerEm
    }
    const arabic = '@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2'
    const hebrew = '@fontsource-variable/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-wght-normal.woff2'
    // Reh's final form before hah's initial one (in "marhaba") kerns.
    assert.ok(laid(arabic, 'مرحبا', true) < laid(arabic, 'مرحبا', false))
    assert.ok(Math.abs(width('مرحبا') - laid(arabic, 'مرحبا', true)) < 1e-6)
    // Hebrew letters do not join: the word is its letters' advances (at 400) less the pairs' kerning (the default instance, Thin, kerns the same).
    const letters = (word: string) => [...word].reduce((sum, ch) => sum + width(ch), 0)
    for (const word of ['שלום', 'עולם', 'ירושלים']) assert.ok(Math.abs(letters(word) - width(word) - (laid(hebrew, word, false) - laid(hebrew, word, true))) < 1e-6, word)
    assert.ok(laid(hebrew, 'שלום', true) < laid(hebrew, 'שלום', false))
  })
})
