import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { buildMetricsTable, metricsTable, WEIGHTS } from '../../../src/layout/metrics.js'

describe('the built advance table', () => {
  it('holds exactly the advances fontkit reads from the shipped Inter files, for every weight', () => {
    const built = metricsTable()
    assert.ok(built, 'run npm run build first: dist/fonts/inter-metrics.json is missing')
    assert.deepEqual(built, JSON.parse(JSON.stringify(buildMetricsTable())))
    const load = createRequire(import.meta.url)
    const fontkit = load('fontkit')
    for (const weight of WEIGHTS) {
      const font = fontkit.openSync(load.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`))
      for (const ch of 'Quarterly review, Q3: 42% (faster) — “done”') {
        assert.equal(built[weight].advances[ch.codePointAt(0)!] ?? built[weight].notdef, font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth, `${weight} ${ch}`)
      }
    }
  })
})
