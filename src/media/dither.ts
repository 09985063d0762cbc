/**
 * The two-tone screen: a grey picture to one bit (two tones) or two bits (three tones) per cell, by
 * an ordered threshold matrix, and the 1-bit (or 2-bit) PNG written directly (a palette PNG through
 * sharp was measured slow).
 *
 * Tone curve first: black and white points stretch the levels, gamma bends them, polarity inverts
 * them. Then each cell (1–4 picture pixels square) compares its level with the pattern's threshold at
 * that cell: Bayer 8×8 or 4×4, a 64×64 blue-noise matrix (void and cluster, made once per process,
 * deterministic), or seeded white noise. `spread` pulls every threshold toward the middle (1: the
 * full pattern; 0: a hard cut at 50 %). Three tones split the levels in two halves, each screened.
 * Deterministic: the same picture and parameters give the same bytes.
 */
import { deflateSync } from 'node:zlib'

export type Pattern = 'bayer8' | 'bayer4' | 'blue64' | 'random'

export interface DitherParams {
  pattern?: Pattern
  /** Picture pixels per cell side, 1–4. */
  cell?: 1 | 2 | 3 | 4
  tone?: 'two' | 'three'
  /** 0–1: how much of the pattern's spread the thresholds keep (1 when absent; 0 is a hard cut at 50 %). Not the model's `strength`, which blends the screen over its source where it is drawn. */
  spread?: number
  /** Black and white points, 0–1 (levels at or below black are ink, at or above white are paper). */
  black?: number
  white?: number
  gamma?: number
  polarity?: 'normal' | 'inverted'
  /** Seed of the random pattern. */
  seed?: number
}

export interface Screened {
  width: number
  height: number
  /** Bits per pixel: 1 for two tones, 2 for three. */
  depth: 1 | 2
  /** One tone index per pixel: 0 ink … 1 (two tones) or 2 (three tones) paper. */
  tones: Uint8Array
  /** Share of pixels at each tone. */
  coverage: number[]
}

function bayer(n: 4 | 8): Float32Array {
  let m = [[0]]
  while (m.length < n) {
    const size = m.length
    const next: number[][] = Array.from({ length: size * 2 }, () => new Array(size * 2).fill(0))
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const v = 4 * m[y][x]
        next[y][x] = v
        next[y][x + size] = v + 2
        next[y + size][x] = v + 3
        next[y + size][x + size] = v + 1
      }
    }
    m = next
  }
  const out = new Float32Array(n * n)
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) out[y * n + x] = (m[y][x] + 0.5) / (n * n)
  return out
}

/** A seeded 32-bit generator (mulberry32). */
function random32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let blue: Float32Array | undefined

/** A 64×64 blue-noise threshold matrix by void and cluster (Ulichney), Gaussian σ 1.5 on a torus; deterministic. */
export function blueNoise64(): Float32Array {
  if (blue) return blue
  const n = 64
  const size = n * n
  const kernel = new Float32Array(size)
  for (let dy = 0; dy < n; dy++) {
    for (let dx = 0; dx < n; dx++) {
      const ex = Math.min(dx, n - dx)
      const ey = Math.min(dy, n - dy)
      kernel[dy * n + dx] = Math.exp(-(ex * ex + ey * ey) / (2 * 1.5 * 1.5))
    }
  }
  const energy = new Float32Array(size)
  const on = new Uint8Array(size)
  const toggle = (i: number, sign: number) => {
    const ix = i % n
    const iy = (i / n) | 0
    for (let y = 0; y < n; y++) {
      const row = ((y - iy + n) % n) * n
      for (let x = 0; x < n; x++) energy[y * n + x] += sign * kernel[row + ((x - ix + n) % n)]
    }
  }
  const rand = random32(0x5eed)
  // A random start of ~10 % ones, then swap the tightest cluster into the largest void until stable.
  for (let k = 0; k < size / 10; k++) {
    let i = Math.floor(rand() * size)
    while (on[i]) i = (i + 1) % size
    on[i] = 1
    toggle(i, 1)
  }
  const extreme = (want: 0 | 1, pickMax: boolean) => {
    let best = -1
    let value = pickMax ? -Infinity : Infinity
    for (let i = 0; i < size; i++) {
      if (on[i] !== want) continue
      if (pickMax ? energy[i] > value : energy[i] < value) {
        value = energy[i]
        best = i
      }
    }
    return best
  }
  for (let guard = 0; guard < size; guard++) {
    const cluster = extreme(1, true)
    on[cluster] = 0
    toggle(cluster, -1)
    const hole = extreme(0, false)
    on[hole] = 1
    toggle(hole, 1)
    if (hole === cluster) break
  }
  const rank = new Int32Array(size).fill(-1)
  const ones = on.reduce((a, b) => a + b, 0)
  // Rank the start pattern's ones by removing the tightest cluster, then fill the voids upward.
  const saved = on.slice()
  const savedEnergy = energy.slice()
  for (let r = ones - 1; r >= 0; r--) {
    const cluster = extreme(1, true)
    on[cluster] = 0
    toggle(cluster, -1)
    rank[cluster] = r
  }
  on.set(saved)
  energy.set(savedEnergy)
  for (let r = ones; r < size; r++) {
    const hole = extreme(0, false)
    on[hole] = 1
    toggle(hole, 1)
    rank[hole] = r
  }
  blue = new Float32Array(size)
  for (let i = 0; i < size; i++) blue[i] = (rank[i] + 0.5) / size
  return blue
}

function matrix(pattern: Pattern, seed: number): { n: number; t: Float32Array } {
  if (pattern === 'bayer4') return { n: 4, t: bayer(4) }
  if (pattern === 'blue64') return { n: 64, t: blueNoise64() }
  if (pattern === 'random') {
    const rand = random32(seed)
    const t = new Float32Array(64 * 64)
    for (let i = 0; i < t.length; i++) t[i] = rand()
    return { n: 64, t }
  }
  return { n: 8, t: bayer(8) }
}

/** Screens an 8-bit grey picture (one byte per pixel, row by row). */
export function screen(grey: Uint8Array, width: number, height: number, params: DitherParams = {}): Screened {
  if (grey.length !== width * height) throw new RangeError(`${grey.length} bytes for ${width} × ${height}`)
  const cell = params.cell ?? 2
  const three = params.tone === 'three'
  const spread = Math.min(1, Math.max(0, params.spread ?? 1))
  const black = params.black ?? 0
  const white = params.white ?? 1
  const gamma = params.gamma ?? 1
  const invert = params.polarity === 'inverted'
  // The tone curve as a 256-entry table.
  const curve = new Float32Array(256)
  const span = Math.max(1e-6, white - black)
  for (let v = 0; v < 256; v++) {
    let l = Math.min(1, Math.max(0, (v / 255 - black) / span))
    if (gamma !== 1) l = Math.pow(l, 1 / gamma)
    curve[v] = invert ? 1 - l : l
  }
  const { n, t } = matrix(params.pattern ?? 'bayer8', params.seed ?? 1)
  const thresholds = new Float32Array(t.length)
  for (let i = 0; i < t.length; i++) thresholds[i] = 0.5 + (t[i] - 0.5) * spread
  const tones = new Uint8Array(width * height)
  const counts = [0, 0, 0]
  for (let y = 0; y < height; y++) {
    const my = (((y / cell) | 0) % n) * n
    const row = y * width
    for (let x = 0; x < width; x++) {
      const threshold = thresholds[my + (((x / cell) | 0) % n)]
      const l = curve[grey[row + x]]
      let tone: number
      if (!three) tone = l > threshold ? 1 : 0
      else tone = l < 0.5 ? (l * 2 > threshold ? 1 : 0) : (l * 2 - 1 > threshold ? 2 : 1)
      tones[row + x] = tone
      counts[tone]++
    }
  }
  const total = width * height || 1
  return { width, height, depth: three ? 2 : 1, tones, coverage: (three ? counts : counts.slice(0, 2)).map((c) => c / total) }
}

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

const hex = (colour: string) => {
  const h = colour.replace('#', '')
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
}

/** The screened picture as a palette PNG of bit depth 1 or 2, its tones drawn in `palette` (ink first). */
export function screenPng(screened: Screened, palette: string[]): Buffer {
  const depth = screened.depth
  const perByte = 8 / depth
  const stride = Math.ceil(screened.width / perByte)
  const raw = Buffer.alloc((stride + 1) * screened.height)
  for (let y = 0; y < screened.height; y++) {
    const out = y * (stride + 1) + 1 // filter byte 0 (none) first
    const row = y * screened.width
    for (let x = 0; x < screened.width; x++) {
      const shift = 8 - depth * ((x % perByte) + 1)
      raw[out + ((x / perByte) | 0)] |= screened.tones[row + x] << shift
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(screened.width, 0)
  ihdr.writeUInt32BE(screened.height, 4)
  ihdr.set([depth, 3, 0, 0, 0], 8)
  const colours = palette.slice(0, depth === 1 ? 2 : 3)
  const plte = Buffer.from(colours.flatMap(hex))
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', Buffer.alloc(0))])
}
