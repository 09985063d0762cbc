import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { resolveDither, screenPicture, toneMetrics, variantKey, readScreen, differingCells } from '../../../src/media/variants.js'

describe('two-tone variants', () => {
  it('resolves absent members to the defaults and drops members outside the field', () => {
    assert.deepEqual(resolveDither({ cell: 3, extra: 1 } as Record<string, unknown>), { pattern: 'bayer8', tone: 'two', cell: 3, strength: 1, black: 0, white: 1, gamma: 1, polarity: 'normal' })
  })

  it('keys a variant by what its pixels depend on: strength aside', () => {
    const base = { sourceDigest: 'a'.repeat(64), dither: resolveDither({}), width: 900, height: 600, ink: '#111111', paper: '#ffffff' }
    const key = variantKey(base)
    assert.match(key, /^[0-9a-f]{16}$/)
    assert.equal(variantKey({ ...base, dither: resolveDither({ strength: 0.4 }) }), key)
    for (const changed of [{ sourceDigest: 'b'.repeat(64) }, { dither: resolveDither({ cell: 3 }) }, { width: 901 }, { ink: '#000000' }]) assert.notEqual(variantKey({ ...base, ...changed }), key)
  })

  it('measures the plate clearance as the share of paper in the plate rectangle', () => {
    // 10 × 10: the lower-left plate (x < 4.5, y >= 7) all ink, the rest paper.
    const tones = new Uint8Array(100).fill(1)
    for (let y = 7; y < 10; y++) for (let x = 0; x < 4; x++) tones[y * 10 + x] = 0
    const screened = { width: 10, height: 10, depth: 1 as const, tones, coverage: [0.12, 0.88] }
    assert.equal(toneMetrics(screened, 'lower-left').plate!.clearance, 0)
    assert.equal(toneMetrics(screened, 'lower-right').plate!.clearance, 1)
    assert.equal(toneMetrics(screened, 'upper-left').plate!.clearance, 1)
  })

  it('screens one sample per cell, so every cell is one tone, and reads its own PNG back exactly', async () => {
    const raw = Buffer.alloc(64 * 48)
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 256
    const source = await sharp(raw, { raw: { width: 64, height: 48, channels: 1 } }).png().toBuffer()
    for (const cell of [1, 2, 3, 4] as const) {
      const { png, screened } = await screenPicture(source, resolveDither({ cell, pattern: 'blue64' }), 64, 48, 2, { ink: '#111111', paper: '#ffffff' })
      const back = await readScreen(png, ['#111111', '#ffffff'], cell * 2)
      assert.equal(back.mixedCells, 0, `cell ${cell}`)
      assert.equal(differingCells(back.screened, screened, cell * 2), 0)
    }
  })
})
