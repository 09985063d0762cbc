import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { drawnText, fontFaceCss, fontFileOf } from '../../../src/render/faces.js'

const rules = (css: string) => css.split('\n').filter(Boolean)
const families = (css: string) => new Set(rules(css).map((r) => /font-family:'([^']+)'/.exec(r)![1]))
const url = (file: string) => `/f/${file}`

describe('the @font-face rules a page loads', () => {
  it('writes every subset of the theme faces and every fallback slice, each with its unicode-range, when not told the text', () => {
    const css = fontFaceCss({ theme: 'simple' }, url)
    assert.deepEqual([...families(css)].sort(), ['Inter', 'Noto Emoji', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans JP', 'Noto Sans KR', 'Noto Sans SC'])
    for (const rule of rules(css)) assert.match(rule, /unicode-range:U\+[0-9a-f]/i)
    assert.ok(rules(css).some((r) => r.includes('inter-cyrillic-700-italic.woff2')))
    assert.ok(rules(css).length > 300)
  })

  it('writes only the subsets the text draws: latin always, a fallback face only for what the theme faces lack', () => {
    const latin = fontFaceCss({ theme: 'simple' }, url, 'Quarterly review — 42% ‐ done')
    assert.deepEqual([...families(latin)], ['Inter'])
    assert.ok(rules(latin).every((r) => r.includes('-latin-')), 'a Latin deck loads no other subset')
    const polish = fontFaceCss({ theme: 'simple' }, url, 'Zażółć')
    assert.ok(rules(polish).some((r) => r.includes('inter-latin-ext-400-normal')))
    const korean = fontFaceCss({ theme: 'simple' }, url, '안녕하세요 🚀')
    assert.deepEqual([...families(korean)].sort(), ['Inter', 'Noto Emoji', 'Noto Sans KR'])
    assert.ok(rules(korean).filter((r) => r.includes('noto-sans-kr')).length < 10, 'a few slices, not the whole face')
  })

  it('reads characters written as entities in the deck', () => {
    assert.ok(families(fontFaceCss({ theme: 'simple' }, url, drawnText({}, [{ text: '&#x05e9;' }]))).has('Noto Sans Hebrew'))
  })

  it('serves only files of the catalogue', () => {
    assert.ok(fontFileOf('@fontsource-variable/noto-sans-sc/files/noto-sans-sc-119-wght-normal.woff2'))
    assert.ok(fontFileOf('@fontsource/inter/files/inter-greek-500-italic.woff2'))
    assert.equal(fontFileOf('@fontsource/inter/package.json'), undefined)
    assert.equal(fontFileOf('../../etc/passwd'), undefined)
  })
})
