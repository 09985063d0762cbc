import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { blockHeight, textStyle } from '../../../src/layout/blocks.js'
import { measureText } from '../../../src/layout/text.js'
import { drawnBoxes } from '../../../src/layout/stack.js'
import { faceFile, findFamily, FONT_FAMILIES } from '../../../src/model/fonts.js'
import { findTheme, paletteTokens, THEMES, themeFonts } from '../../../src/model/themes.js'
import { luminance } from '../../../src/render/paint.js'

const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}
const load = createRequire(import.meta.url)

describe('the shipped themes', () => {
  it('are at least six, with Simple first and stored under its longer id', () => {
    assert.ok(THEMES.length >= 6)
    assert.deepEqual([THEMES[0].id, THEMES[0].storedId], ['simple', 'studio-simple'])
    assert.equal(findTheme('studio-simple'), THEMES[0])
    assert.equal(new Set(THEMES.map((t) => t.id)).size, THEMES.length)
  })

  it('each have the common tokens, chart colours, both appearances and fonts from the catalogue', () => {
    for (const theme of THEMES) {
      for (const token of ['ink', 'paper', 'accent', 'muted', 'rule', 'highlight', 'chart1', 'chart2', 'chart3', 'chart4', 'chart5', 'chart6']) {
        assert.ok(Object.hasOwn(theme.palette, token), `${theme.id} ${token}`)
        for (const appearance of ['light', 'dark'] as const) assert.match(theme.palette[token][appearance], /^#[0-9a-f]{6}$/, `${theme.id} ${token} ${appearance}`)
      }
      assert.deepEqual([...theme.appearances].sort(), ['dark', 'light'])
      assert.ok(findFamily(theme.fonts.heading) && findFamily(theme.fonts.body), theme.id)
      assert.deepEqual(themeFonts({ theme: theme.storedId }), theme.fonts)
      assert.ok(paletteTokens({ theme: theme.storedId }).has('chart1'))
    }
  })

  it('set text ink on paper at WCAG AA (4.5:1) and muted text at 3:1, in both appearances', () => {
    for (const theme of THEMES) {
      for (const appearance of ['light', 'dark'] as const) {
        const c = (token: string) => theme.palette[token][appearance]
        assert.ok(ratio(c('ink'), c('paper')) >= 4.5, `${theme.id} ${appearance}: ink ${ratio(c('ink'), c('paper')).toFixed(2)}`)
        assert.ok(ratio(c('muted'), c('paper')) >= 3, `${theme.id} ${appearance}: muted ${ratio(c('muted'), c('paper')).toFixed(2)}`)
      }
    }
  })

  it('ship every face file they draw and measure with', () => {
    for (const family of FONT_FAMILIES) {
      for (const weight of family.weights) for (const style of ['normal', 'italic'] as const) assert.ok(existsSync(load.resolve(faceFile(family, weight, style, 'woff2'))), `${family.name} ${weight} ${style}`)
    }
  })

  it("measure text with the theme's own faces: a serif or mono theme wraps differently, Simple as before", () => {
    const text = 'Quarterly revenue grew by eighteen percent while operating costs fell for the third quarter running.'
    const inter = measureText(text, { size: 28, width: 600 })
    assert.deepEqual(measureText(text, { size: 28, width: 600, family: 'Inter' }), inter)
    const serif = measureText(text, { size: 28, width: 600, family: 'Source Serif 4' })
    const mono = measureText(text, { size: 28, width: 600, family: 'JetBrains Mono' })
    assert.notEqual(serif.width, inter.width)
    assert.notDeepEqual(mono, inter)
    const heading = { id: 'h', kind: 'heading', text: 'A heading long enough to wrap at this width, surely' }
    assert.equal(blockHeight(heading, 700, 'title-body'), blockHeight(heading, 700, 'title-body', themeFonts({ theme: 'studio-simple' })))
    assert.notEqual(blockHeight(heading, 700, 'title-body', themeFonts({ theme: 'mono' })), blockHeight(heading, 700, 'title-body'))
  })

  it("scale default text sizes by the theme's type scale, keeping sizes a block sets", () => {
    const text = { id: 't', kind: 'text', slot: 'body', text: 'Costs fell by half.' }
    const contrast = themeFonts({ theme: 'contrast' })
    assert.equal(contrast.scale, 1.125)
    assert.equal(textStyle(text, 'title-body', 'body').size, 28)
    assert.equal(textStyle(text, 'title-body', 'body', contrast).size, 32)
    assert.equal(textStyle({ ...text, size: 40 }, 'title-body', 'body', contrast).size, 40)
    assert.equal(textStyle({ id: 'h', kind: 'heading', slot: 'title', text: 'T' }, 'title', 'title', themeFonts({ theme: 'mono' })).size, 90)
  })

  it("stack a slot's blocks with the theme's gap", () => {
    const slide = { id: 's', layout: 'title-body', blocks: [{ id: 'a', kind: 'text', slot: 'body', text: 'One' }, { id: 'b', kind: 'text', slot: 'body', text: 'Two' }] }
    const gap = (theme: string) => {
      const boxes = drawnBoxes(slide, themeFonts({ theme }))
      return boxes.get('b')!.y - (boxes.get('a')!.y + boxes.get('a')!.h)
    }
    assert.equal(gap('studio-simple'), 24)
    assert.equal(gap('paper'), 32)
  })
})

