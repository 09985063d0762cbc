import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { readFileSync } from 'node:fs'
import { advanceAt, buildFallbackTable, buildMetricsTable, faceKey, fallbackAdvances, fallbackMetricsFile, metricsTable, type FallbackTable } from '../../../src/layout/metrics.js'
import { faceFile, FALLBACK_FAMILIES, FONT_FAMILIES } from '../../../src/model/fonts.js'
import { fallbackSubsets, familySubsets } from '../../../src/layout/subsets.js'

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
        // Beyond latin, each from the subset whose range holds it (Polish, Cyrillic, Greek, Vietnamese).
        for (const ch of 'żółćęą Привет Καλημέρα ệ') {
          const cp = ch.codePointAt(0)!
          if (ch === ' ') continue
          const subset = familySubsets(family, weight, 'normal').find((s) => s.spans.some(([a, b]) => cp >= a && cp <= b))
          assert.ok(subset, `${family.name}: no subset holds ${ch}`)
          assert.equal(metrics.advances[cp], fontkit.openSync(load.resolve(subset.file)).glyphForCodePoint(cp).advanceWidth, `${family.name} ${weight} ${ch}`)
        }
      }
    }
  })
})

describe('the committed fallback advance table (fonts/fallback-metrics.json)', () => {
  it('holds what fontkit reads from the fallback faces: Arabic and Hebrew whole, a slice of each CJK face and of emoji (npm run fonts:metrics rewrites it)', () => {
    const committed = JSON.parse(readFileSync(fallbackMetricsFile(), 'utf8')) as FallbackTable
    assert.deepEqual(Object.keys(committed), FALLBACK_FAMILIES.map((f) => f.name))
    // Cutting every CJK slice takes tens of seconds; the last slice of each (the most common characters) and two emoji slices stand for the rest.
    const sample = new Set(FALLBACK_FAMILIES.flatMap((f) => {
      const files = fallbackSubsets(f).map((s) => s.file)
      return f.script === 'arabic' || f.script === 'hebrew' ? files : files.slice(-2)
    }))
    const cut = buildFallbackTable((_, file) => sample.has(file))
    const read = fallbackAdvances()
    let compared = 0
    for (const family of FALLBACK_FAMILIES) {
      const fresh = cut[family.name]
      assert.equal(fresh.unitsPerEm, committed[family.name].unitsPerEm, family.name)
      for (let i = 0; i < fresh.runs.length; i += 3) {
        for (let k = 0; k < fresh.runs[i + 1]; k++) {
          const cp = fresh.runs[i] + k
          assert.equal(read.get(family.name)!.regular.get(cp), fresh.runs[i + 2], `${family.name} U+${cp.toString(16)}`)
          compared++
        }
      }
      for (const [weight, deltas] of Object.entries(fresh.deltas)) {
        for (let i = 0; i < deltas.length; i += 2) assert.equal(advanceAt(read.get(family.name)!, deltas[i], Number(weight)), deltas[i + 1], `${family.name} ${weight} U+${deltas[i].toString(16)}`)
      }
    }
    assert.ok(compared > 2000, `only ${compared} code points compared`)
    // Arabic's letters in each joined form, at each weight, as fontkit's shaper gives them.
    assert.deepEqual(cut['Noto Sans Arabic'].joining, committed['Noto Sans Arabic'].joining)
    assert.deepEqual(Object.keys(committed['Noto Sans Arabic'].joining ?? {}), ['400', '500', '600', '700'])
    // Weight matters where the face says so: Hebrew bold is wider than regular.
    const hebrew = read.get('Noto Sans Hebrew')!
    assert.ok(advanceAt(hebrew, 0x5e9, 700)! > advanceAt(hebrew, 0x5e9, 400)!)
  })
})

