import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { blueNoise64, screen, screenPng, type Pattern } from '../../../src/media/dither.js'

const REFERENCES = new URL('../../fixtures/dither/', import.meta.url).pathname
const UPDATE = process.env.STUDIO_UPDATE_REFERENCES === '1'

/** A 96 × 64 test picture: a horizontal ramp with a dark disc, so every level and an edge appear. */
function ramp(): { grey: Uint8Array; width: number; height: number } {
  const width = 96
  const height = 64
  const grey = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const disc = (x - 30) ** 2 + (y - 32) ** 2 < 14 ** 2
      grey[y * width + x] = disc ? 40 : Math.round((x / (width - 1)) * 255)
    }
  }
  return { grey, width, height }
}

const flat = (level: number, width = 64, height = 64) => new Uint8Array(width * height).fill(level)

describe('the two-tone screen', () => {
  it('screens a flat level to exactly its share of paper with Bayer 8×8', () => {
    const s = screen(flat(64), 64, 64, { pattern: 'bayer8', cell: 1 })
    assert.deepEqual(s.coverage, [0.75, 0.25])
    assert.deepEqual(screen(flat(191), 64, 64, { pattern: 'bayer4', cell: 1 }).coverage, [0.25, 0.75])
    assert.deepEqual(screen(flat(64), 64, 64, { pattern: 'bayer8', cell: 1, polarity: 'inverted' }).coverage, [0.25, 0.75])
  })

  it('applies black and white points, gamma and spread before the pattern', () => {
    assert.deepEqual(screen(flat(60), 64, 64, { black: 0.25 }).coverage, [1, 0])
    assert.deepEqual(screen(flat(200), 64, 64, { white: 0.75 }).coverage, [0, 1])
    const plain = screen(flat(64), 64, 64, { cell: 1 }).coverage[1]
    const bright = screen(flat(64), 64, 64, { cell: 1, gamma: 2 }).coverage[1]
    assert.ok(bright > plain, `gamma 2: ${bright} paper, gamma 1: ${plain}`)
    assert.deepEqual(screen(flat(120), 64, 64, { spread: 0 }).coverage, [1, 0])
    assert.deepEqual(screen(flat(140), 64, 64, { spread: 0 }).coverage, [0, 1])
  })

  it('repeats a threshold over a cell of 1–4 pixels', () => {
    const { grey, width, height } = ramp()
    const s = screen(grey, width, height, { cell: 3 })
    for (let y = 0; y < 60; y += 3) for (let x = 0; x < 90; x += 3) {
      // Within a cell every pixel meets the same threshold; on the flat disc the cell is uniform.
      if ((x - 30) ** 2 + (y - 32) ** 2 < 10 ** 2) assert.equal(s.tones[y * width + x], s.tones[(y + 2) * width + x + 2], `${x},${y}`)
    }
  })

  it('makes three tones from two screened halves', () => {
    const s = screen(flat(128), 64, 64, { tone: 'three', cell: 1 })
    assert.equal(s.depth, 2)
    assert.equal(s.coverage.length, 3)
    assert.equal(s.coverage[0], 0)
    const dark = screen(flat(32), 64, 64, { tone: 'three', cell: 1 })
    assert.equal(dark.coverage[2], 0)
  })

  it('has a blue-noise matrix that is a permutation, deterministic, and lumpier nowhere than white noise', () => {
    const m = blueNoise64()
    assert.equal(new Set(Array.from(m)).size, 4096)
    assert.equal(blueNoise64(), m)
    // Local density at 50 %: the 4 × 4 windows of blue noise hold close to 8 dots; white noise strays more.
    const spread = (pattern: Pattern) => {
      const s = screen(flat(128, 64, 64), 64, 64, { pattern, cell: 1, seed: 7 })
      let deviation = 0
      for (let y = 0; y < 64; y += 4) for (let x = 0; x < 64; x += 4) {
        let sum = 0
        for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 4; dx++) sum += s.tones[(y + dy) * 64 + x + dx]
        deviation += Math.abs(sum - 8)
      }
      return deviation
    }
    assert.ok(spread('blue64') < spread('random') / 2, `blue ${spread('blue64')}, random ${spread('random')}`)
  })

  it('writes a palette PNG of depth 1 or 2 that decodes to the screened tones in the palette colours', async () => {
    const { grey, width, height } = ramp()
    const s = screen(grey, width, height, { pattern: 'bayer8', cell: 2 })
    const png = screenPng(s, ['#1d1d1b', '#f4efe6'])
    const meta = await sharp(png).metadata()
    assert.deepEqual([meta.width, meta.height, meta.bitsPerSample, meta.isPalette], [width, height, 1, true])
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    for (const i of [0, 17, 2000, width * height - 1]) {
      const rgb = [data[i * info.channels], data[i * info.channels + 1], data[i * info.channels + 2]]
      assert.deepEqual(rgb, s.tones[i] ? [0xf4, 0xef, 0xe6] : [0x1d, 0x1d, 0x1b], `pixel ${i}`)
    }
  })

  it('gives the committed reference bytes for every pattern and tone', () => {
    const { grey, width, height } = ramp()
    mkdirSync(REFERENCES, { recursive: true })
    const problems: string[] = []
    for (const pattern of ['bayer8', 'bayer4', 'blue64', 'random'] as Pattern[]) {
      for (const tone of ['two', 'three'] as const) {
        const png = screenPng(screen(grey, width, height, { pattern, tone, cell: 2, gamma: 1.2, black: 0.05, white: 0.95, seed: 42 }), ['#111111', '#2f5bea', '#ffffff'])
        const file = join(REFERENCES, `${pattern}-${tone}.png`)
        if (UPDATE) writeFileSync(file, png)
        else if (!existsSync(file) || !readFileSync(file).equals(png)) problems.push(`${pattern}-${tone}`)
      }
    }
    assert.deepEqual(problems, [])
  })
})
