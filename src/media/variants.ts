/**
 * Two-tone pictures: the deck's screen (src/media/dither.ts) applied to a picture's continuous
 * source, for two uses.
 *
 * - **Variants** of a dithered picture block (`picture.dither`'s non-destructive field): the source
 *   scaled to the size the picture is drawn at on the sheet, screened with cells of `cell` sheet
 *   pixels, in the theme's light ink and paper (a two-tone picture keeps its inks in dark renders, as a
 *   printed plate does). A variant is named by its key, 16 hex of a sha256 over the source's digest,
 *   the resolved screen (strength aside: the renderer draws the screen over its source at that
 *   opacity), the drawn size and the palette: `assets/<assetId>.dither-<key>@<scale>x.png` once
 *   `picture.materialize` writes it, computed on demand (and cached under `.studio/cache/variants/`)
 *   by the renderer until then.
 * - **Two-tone assets** (`asset.add --two-tone`, `asset.dither`): the asset's twins are the screen at
 *   1600 and 3200 pixels wide (cells in @1x pixels, which are sheet pixels for a full-width picture);
 *   the source is kept as `assets/<id>.source.<ext>`.
 *
 * Metrics: the share of ink and paper, and the plate's clearance, the share of paper in the plate
 * rectangle (lower-left, lower-right or upper-left; where a credit or caption sits over the picture).
 */
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { readAssetSync } from '../store/safe-open.js'
import { join } from 'node:path'
import { screen, screenPng, type DitherParams, type Screened } from './dither.js'
import { resolveDither, type ResolvedDither } from '../model/dither.js'

export { DITHER_DEFAULTS, resolveDither, type DitherField, type ResolvedDither } from '../model/dither.js'

export type PlateName = 'lower-left' | 'lower-right' | 'upper-left'

/** Plate rectangles as fractions of the picture (x, y, w, h). */
export const PLATES: Record<PlateName, [number, number, number, number]> = {
  'lower-left': [0, 0.7, 0.45, 0.3],
  'lower-right': [0.55, 0.7, 0.45, 0.3],
  'upper-left': [0, 0, 0.45, 0.3],
}

/** Below this share of paper, text on the plate may not read: a warning. */
export const PLATE_CLEARANCE_MIN = 0.85

export interface ToneMetrics {
  /** Share of pixels at each tone, ink first (two or three entries). */
  coverage: number[]
  /** The plate and its clearance, when a plate is named. */
  plate?: { name: PlateName; clearance: number }
  width: number
  height: number
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4

/** Coverage and plate clearance of a screened picture (paper is the highest tone). */
export function toneMetrics(screened: Pick<Screened, 'width' | 'height' | 'tones' | 'coverage' | 'depth'>, plate?: PlateName): ToneMetrics {
  const out: ToneMetrics = { coverage: screened.coverage.map(round4), width: screened.width, height: screened.height }
  if (plate) {
    const [fx, fy, fw, fh] = PLATES[plate]
    const x0 = Math.floor(fx * screened.width)
    const y0 = Math.floor(fy * screened.height)
    const x1 = Math.max(x0 + 1, Math.floor((fx + fw) * screened.width))
    const y1 = Math.max(y0 + 1, Math.floor((fy + fh) * screened.height))
    const paper = screened.depth === 1 ? 1 : 2
    let clear = 0
    let total = 0
    for (let y = y0; y < Math.min(y1, screened.height); y++) {
      const row = y * screened.width
      for (let x = x0; x < Math.min(x1, screened.width); x++) {
        total++
        if (screened.tones[row + x] === paper) clear++
      }
    }
    out.plate = { name: plate, clearance: round4(total ? clear / total : 1) }
  }
  return out
}

/** Warnings a reader should see about a screen's metrics. */
export function metricWarnings(metrics: ToneMetrics, what: string): string[] {
  const warnings: string[] = []
  if (metrics.plate && metrics.plate.clearance < PLATE_CLEARANCE_MIN) {
    warnings.push(`${what}: the ${metrics.plate.name} plate is ${Math.round(metrics.plate.clearance * 100)}% clear (under ${PLATE_CLEARANCE_MIN * 100}%); text on it may not read. Raise --white or --gamma, or choose another plate.`)
  }
  const ink = metrics.coverage[0]
  if (ink > 0.92) warnings.push(`${what}: ${Math.round(ink * 100)}% of the picture is ink; it prints almost solid. Raise --black or --gamma.`)
  if (ink < 0.02) warnings.push(`${what}: ${Math.round(ink * 100)}% of the picture is ink; it prints almost blank. Lower --white or --gamma.`)
  return warnings
}

type Sharp = (typeof import('sharp'))['default']
let sharpModule: Sharp | undefined
async function loadSharp(): Promise<Sharp> {
  return (sharpModule ??= (await import('sharp')).default)
}

/**
 * The continuous source of an asset: its kept source `<id>.source.<ext>`, else its own file
 * `<id>.<ext>`, else its largest twin `<id>@<n>x.<ext>` (a shader frame is only `<id>@2x.png`).
 */
export function sourceFileOf(assetsDir: string, assetId: string): string | undefined {
  if (!existsSync(assetsDir)) return undefined
  const names = readdirSync(assetsDir).sort()
  const kept = names.find((n) => n.startsWith(`${assetId}.source.`))
  if (kept) return join(assetsDir, kept)
  const picture = /\.(jpg|jpeg|png|webp|svg)$/i
  const own = names.find((n) => n.startsWith(`${assetId}.`) && n.split('.').length === 2 && picture.test(n))
  if (own) return join(assetsDir, own)
  const scale = (n: string) => Number(/^[^@]+@(\d+)x\.[a-z]+$/i.exec(n)?.[1] ?? 0)
  const twins = names.filter((n) => n.startsWith(`${assetId}@`) && scale(n) > 0 && picture.test(n)).sort((a, b) => scale(b) - scale(a))
  return twins.length ? join(assetsDir, twins[0]) : undefined
}

const digests = new Map<string, { stamp: string; digest: string }>()

/** sha256 (hex) of a file, remembered per path while its size and mtime hold. */
export function fileSha256(path: string): string {
  const stat = lstatSync(path)
  const stamp = `${stat.size}:${stat.mtimeMs}`
  const known = digests.get(path)
  if (known?.stamp === stamp && stat.isFile()) return known.digest
  const digest = createHash('sha256').update(readAssetSync(path)).digest('hex')
  digests.set(path, { stamp, digest })
  return digest
}

/** The palette of a screen: ink first, paper last (three tones put their mix between). */
export function screenPalette(ink: string, paper: string, tone: ResolvedDither['tone']): string[] {
  if (tone !== 'three') return [ink, paper]
  const a = hexRgb(ink)
  const b = hexRgb(paper)
  const mid = a.map((v, i) => Math.round((v + b[i]) / 2))
  return [ink, `#${mid.map((v) => v.toString(16).padStart(2, '0')).join('')}`, paper]
}

function hexRgb(colour: string): number[] {
  const h = colour.replace('#', '')
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
}

export interface VariantSpec {
  /** The source file (absolute) and its sha256. */
  source: string
  sourceDigest: string
  dither: ResolvedDither
  /** The size the picture is drawn at, sheet pixels. */
  width: number
  height: number
  /** Ink and paper. */
  ink: string
  paper: string
}

/** 16 hex naming a variant: everything its pixels depend on, strength aside. */
export function variantKey(spec: Omit<VariantSpec, 'source'>): string {
  const { strength: _strength, ...screenParams } = spec.dither
  const payload = JSON.stringify({ v: 1, s: spec.sourceDigest, d: screenParams, w: Math.round(spec.width), h: Math.round(spec.height), p: [spec.ink.toLowerCase(), spec.paper.toLowerCase()] })
  return createHash('sha256').update(payload).digest('hex').slice(0, 16)
}

export function variantFileName(assetId: string, key: string, scale: number): string {
  return `${assetId}.dither-${key}@${scale}x.png`
}

/** The screen parameters of the resolved field, for a picture sampled one pixel per cell. */
function screenParams(dither: ResolvedDither): DitherParams {
  return {
    pattern: dither.pattern,
    cell: 1,
    tone: dither.tone === 'three' ? 'three' : 'two',
    black: dither.black,
    white: dither.white,
    gamma: dither.gamma,
    polarity: dither.polarity,
  }
}

/** A screen of one pixel per cell spread to `width` × `height` pixels, each cell `cellPx` square (cells aligned to the corner). */
function spread(cells: Screened, cellPx: number, width: number, height: number): Screened {
  const tones = new Uint8Array(width * height)
  const counts = [0, 0, 0]
  for (let y = 0; y < height; y++) {
    const from = Math.min(cells.height - 1, (y / cellPx) | 0) * cells.width
    const row = y * width
    for (let x = 0; x < width; x++) {
      const tone = cells.tones[from + Math.min(cells.width - 1, (x / cellPx) | 0)]
      tones[row + x] = tone
      counts[tone]++
    }
  }
  const total = width * height || 1
  return { width, height, depth: cells.depth, tones, coverage: (cells.depth === 2 ? counts : counts.slice(0, 2)).map((c) => c / total) }
}

/** Reads a source picture as grey (and RGB for the original tone) at `width` × `height`, flattened on white. */
async function pixelsOf(source: string | Buffer, width: number, height: number, rgb: boolean): Promise<{ grey: Uint8Array; colour?: Buffer }> {
  const sharp = await loadSharp()
  const bytes = typeof source === 'string' ? readAssetSync(source) : source
  const isSvg = bytes.subarray(0, 256).toString('utf8').includes('<svg')
  const base = () => sharp(bytes, { limitInputPixels: 80_000_000, ...(isSvg ? { density: 300 } : {}) }).resize(width, height, { fit: 'fill' }).flatten({ background: '#ffffff' })
  const grey = await base().greyscale().raw().toBuffer()
  const colour = rgb ? await base().removeAlpha().raw().toBuffer() : undefined
  return { grey: new Uint8Array(grey.buffer, grey.byteOffset, grey.length), colour }
}

/**
 * Screens `source` at `width` × `height` pixels with cells of `dither.cell × cellScale` pixels and
 * encodes it: a 1- or 2-bit palette PNG written directly, or for the original tone an RGB PNG whose
 * ink cells keep the source's colour.
 */
export async function screenPicture(
  source: string | Buffer,
  dither: ResolvedDither,
  width: number,
  height: number,
  cellScale: number,
  palette: { ink: string; paper: string },
  plate?: PlateName,
): Promise<{ png: Buffer; screened: Screened; metrics: ToneMetrics }> {
  const w = Math.max(1, Math.round(width))
  const h = Math.max(1, Math.round(height))
  const original = dither.tone === 'original'
  // One sample per cell: the source averaged over each cell (sharp's resize), screened, then spread, so every cell is one tone.
  const cellPx = Math.max(1, Math.round(dither.cell * cellScale))
  const cw = Math.max(1, Math.ceil(w / cellPx))
  const ch = Math.max(1, Math.ceil(h / cellPx))
  const { grey, colour: cellColour } = await pixelsOf(source, cw, ch, original)
  const screened = spread(screen(grey, cw, ch, screenParams(dither)), cellPx, w, h)
  const metrics = toneMetrics(screened, plate)
  if (!original) return { png: screenPng(screened, screenPalette(palette.ink, palette.paper, dither.tone)), screened, metrics }
  // The original tone: ink cells keep the source's colour (its cell average), paper cells are paper.
  const paper = hexRgb(palette.paper)
  const out = Buffer.alloc(w * h * 3)
  for (let y = 0; y < h; y++) {
    const cellRow = Math.min(ch - 1, (y / cellPx) | 0) * cw
    for (let x = 0; x < w; x++) {
      const at = (y * w + x) * 3
      if (screened.tones[y * w + x] !== 0) out.set(paper, at)
      else {
        const from = (cellRow + Math.min(cw - 1, (x / cellPx) | 0)) * 3
        cellColour!.copy(out, at, from, from + 3)
      }
    }
  }
  const sharp = await loadSharp()
  const png = await sharp(out, { raw: { width: w, height: h, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer()
  return { png, screened, metrics }
}

/** A variant's PNG at `scale` (cells of `cell × scale` pixels) and its metrics. */
export async function drawVariant(spec: VariantSpec, scale: number): Promise<{ png: Buffer; metrics: ToneMetrics }> {
  const { png, metrics } = await screenPicture(spec.source, spec.dither, spec.width * scale, spec.height * scale, scale, { ink: spec.ink, paper: spec.paper })
  return { png, metrics }
}

/**
 * Reads a committed screen back: the tone of every pixel by its nearest palette colour, and how many
 * cells (squares of `cellPx` pixels, aligned to the picture's corner) are not a single tone.
 */
export async function readScreen(png: Buffer, palette: string[], cellPx: number): Promise<{ screened: Screened; mixedCells: number; cells: number }> {
  const sharp = await loadSharp()
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const colours = palette.map(hexRgb)
  const tones = new Uint8Array(info.width * info.height)
  const counts = new Array(colours.length).fill(0)
  for (let i = 0; i < tones.length; i++) {
    let best = 0
    let bestDistance = Infinity
    for (let c = 0; c < colours.length; c++) {
      const d = (data[i * info.channels] - colours[c][0]) ** 2 + (data[i * info.channels + 1] - colours[c][1]) ** 2 + (data[i * info.channels + 2] - colours[c][2]) ** 2
      if (d < bestDistance) {
        bestDistance = d
        best = c
      }
    }
    tones[i] = best
    counts[best]++
  }
  let mixed = 0
  let cells = 0
  for (let cy = 0; cy < info.height; cy += cellPx) {
    for (let cx = 0; cx < info.width; cx += cellPx) {
      cells++
      const first = tones[cy * info.width + cx]
      let same = true
      for (let y = cy; y < Math.min(cy + cellPx, info.height) && same; y++) for (let x = cx; x < Math.min(cx + cellPx, info.width); x++) if (tones[y * info.width + x] !== first) { same = false; break }
      if (!same) mixed++
    }
  }
  const total = tones.length || 1
  const screened: Screened = { width: info.width, height: info.height, depth: colours.length > 2 ? 2 : 1, tones, coverage: counts.map((c) => c / total) }
  return { screened, mixedCells: mixed, cells }
}

/** Cells (squares of `cellPx`) where two screens of the same size differ in any pixel. */
export function differingCells(a: Screened, b: Screened, cellPx: number): number {
  if (a.width !== b.width || a.height !== b.height) return Math.ceil(a.width / cellPx) * Math.ceil(a.height / cellPx)
  let differing = 0
  for (let cy = 0; cy < a.height; cy += cellPx) {
    for (let cx = 0; cx < a.width; cx += cellPx) {
      let differs = false
      for (let y = cy; y < Math.min(cy + cellPx, a.height) && !differs; y++) {
        for (let x = cx; x < Math.min(cx + cellPx, a.width); x++) {
          if (a.tones[y * a.width + x] !== b.tones[y * a.width + x]) {
            differs = true
            break
          }
        }
      }
      if (differs) differing++
    }
  }
  return differing
}

/** The screen settings a two-tone asset records (its treatment): the field's members but strength. */
export type Treatment = Omit<ResolvedDither, 'strength'>

export function resolveTreatment(treatment: Record<string, unknown> | undefined): Treatment {
  const { strength: _strength, ...rest } = resolveDither(treatment)
  return rest
}

/** Twin widths of a two-tone asset: @1x is sheet pixels (cells of `cell` pixels), @2x doubles them. */
export const TWO_TONE_WIDTHS = [1600, 3200] as const

export interface TwoTone {
  twins: { scale: 1 | 2; width: number; height: number; bytes: Buffer; screened: Screened }[]
  /** Metrics of the @1x twin. */
  metrics: ToneMetrics
}

/** The two-tone twins of a continuous source of `width` × `height`: the screen at 1600 and 3200 pixels wide. */
export async function twoToneTwins(source: Buffer, width: number, height: number, treatment: Treatment, palette: { ink: string; paper: string }, plate?: PlateName): Promise<TwoTone> {
  const twins: TwoTone['twins'] = []
  let metrics: ToneMetrics | undefined
  for (const [i, w] of TWO_TONE_WIDTHS.entries()) {
    const scale = (i + 1) as 1 | 2
    const h = Math.max(1, Math.round((w * height) / width))
    const { png, screened, metrics: m } = await screenPicture(source, { ...treatment, strength: 1 }, w, h, scale, palette, plate)
    if (scale === 1) metrics = m
    twins.push({ scale, width: w, height: h, bytes: png, screened })
  }
  return { twins, metrics: metrics! }
}
