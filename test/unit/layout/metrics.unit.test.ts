import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { readFileSync } from 'node:fs'
import { advanceAt, buildFallbackTable, buildMetricsTable, faceKey, fallbackAdvances, fallbackMetricsFile, metricsTable, type FallbackTable, type KernTable } from '../../../src/layout/metrics.js'
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


describe('the kerning pairs of the built table', () => {
  interface LayoutFont { characterSet: number[]; glyphForCodePoint(cp: number): { id: number; advanceWidth: number }; layout(text: string, features: Record<string, boolean>, script?: string): { glyphs: unknown[]; positions: { xAdvance: number }[] } }
  const load = createRequire(import.meta.url)
  const fontkit = load('fontkit') as { openSync(path: string): LayoutFont }
  // Features as the renderer sets them (mark positioning never changes an advance; fontkit's fails on some anchors).
  const FEATURES = { kern: true, liga: false, calt: false, mark: false, mkmk: false }
  const kernOf = (table: KernTable | undefined) => {
    const left = new Map<number, number>()
    const right = new Map<number, number>()
    const pairs = new Map<string, number>()
    for (let i = 0; table && i < table.left.length; i += 2) left.set(table.left[i], table.left[i + 1])
    for (let i = 0; table && i < table.right.length; i += 2) right.set(table.right[i], table.right[i + 1])
    for (let i = 0; table && i < table.pairs.length; i += 3) pairs.set(`${table.pairs[i]}:${table.pairs[i + 1]}`, table.pairs[i + 2])
    return (a: number, b: number) => pairs.get(`${left.get(a)}:${right.get(b)}`) ?? 0
  }
  // fontkit's script for a subset (for text of common characters only it takes DFLT, whose feature lists Inter's lookups twice and fontkit applies twice; HarfBuzz once).
  const scriptOf = (file: string) => (/cyrillic/.test(file) ? 'cyrl' : /greek/.test(file) ? 'grek' : 'latn')

  it('are the adjustments fontkit\'s layout applies between two characters of one subset file, for named pairs and random ones of every face', () => {
    const built = metricsTable()
    assert.ok(built, 'run npm run build first: dist/fonts/metrics.json is missing')
    let compared = 0
    let kerned = 0
    for (const family of FONT_FAMILIES) {
      for (const weight of family.weights) {
        const metrics = built[faceKey(family.name, weight)]
        const kern = kernOf(metrics.kern)
        const subsets = familySubsets(family, weight, 'normal')
        // The file Chromium and geometry take a code point from: the first subset whose range holds it.
        const fileOf = (cp: number) => subsets.find((s) => s.spans.some(([a, b]) => cp >= a && cp <= b))?.file
        const check = (font: LayoutFont, script: string, a: number, b: number) => {
          const run = font.layout(String.fromCodePoint(a, b), FEATURES, script)
          assert.equal(run.glyphs.length, 2)
          const drawn = run.positions[0].xAdvance + run.positions[1].xAdvance
          assert.equal(metrics.advances[a] + metrics.advances[b] + kern(a, b), drawn, `${family.name} ${weight} U+${a.toString(16)} U+${b.toString(16)}`)
          compared++
          if (kern(a, b)) kerned++
        }
        const latin = fontkit.openSync(load.resolve(subsets[0].file))
        for (const pair of ['AV', 'VA', 'To', 'Ty', 'WA', 'AW', 'Te', 'Yo', 'r.', 'r,', 'LT', 'P.', 'F.', 'y.', '"A', 'A"', 'T ', ' A']) check(latin, 'latn', pair.codePointAt(0)!, pair.codePointAt(1)!)
        // Random pairs in each subset file, of the code points geometry takes from it (a soft hyphen draws nothing in fontkit's layout).
        let seed = weight
        const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n)
        for (const subset of subsets) {
          const font = fontkit.openSync(load.resolve(subset.file))
          const own = font.characterSet.filter((cp) => cp !== 0xad && fileOf(cp) === subset.file && !/\p{M}/u.test(String.fromCodePoint(cp))).sort((x, y) => x - y)
          for (let i = 0; i < 60; i++) check(font, scriptOf(subset.file), own[random(own.length)], own[random(own.length)])
        }
      }
    }
    assert.ok(compared > 4000, `only ${compared} pairs compared`)
    assert.ok(kerned > 500, `only ${kerned} compared pairs kern`)
    // The monospaced face kerns nothing; the others kern the classic pairs.
    assert.equal(built[faceKey('JetBrains Mono', 400)].kern, undefined)
    for (const key of ['Inter/400', 'Inter/700', 'Source Serif 4/400']) {
      const kern = kernOf(built[key].kern)
      for (const pair of ['AV', 'To', 'Ty', 'WA']) assert.ok(kern(pair.codePointAt(0)!, pair.codePointAt(1)!) < 0, `${key} ${pair}`)
    }
  })
})
