import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { buildMetricsTable, faceKey, metricsTable } from '../../../src/layout/metrics.js'
import { faceFile, FONT_FAMILIES } from '../../../src/model/fonts.js'

describe('the built advance table', () => {
  it('holds exactly the advances fontkit reads from every shipped face, for every family and weight', () => {
    const built = metricsTable()
    assert.ok(built, 'run npm run build first: dist/fonts/metrics.json is missing')
    assert.deepEqual(built, JSON.parse(JSON.stringify(buildMetricsTable())))
    const load = createRequire(import.meta.url)
    const fontkit = load('fontkit')
    assert.equal(Object.keys(built).length, FONT_FAMILIES.reduce((n, f) => n + f.weights.length, 0))
    for (const family of FONT_FAMILIES) {
      for (const weight of family.weights) {
        const font = fontkit.openSync(load.resolve(faceFile(family, weight, 'normal', 'woff2')))
        const metrics: { advances: Record<string, number>; notdef: number } = built[faceKey(family.name, weight)]
        for (const ch of 'Quarterly review, Q3: 42% (faster) — “done”') {
          assert.equal(metrics.advances[ch.codePointAt(0)!] ?? metrics.notdef, font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth, `${family.name} ${weight} ${ch}`)
        }
      }
    }
  })
})
