/**
 * The two-tone variants a render draws (src/media/variants.ts): for each dithered picture of the
 * slides, its key from the source's digest, the screen, the drawn size and the theme's light ink and
 * paper; its bytes from the deck's materialized file when `picture.materialize` wrote one, else from
 * the workspace cache `.studio/cache/variants/` (never committed), else drawn now and cached.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Block, Manifest, Slide } from '../model/deck.js'
import { themeFonts } from '../model/themes.js'
import { drawnBoxes } from '../layout/index.js'
import { drawnPictureSize } from './html.js'
import { pictureHeight } from '../layout/blocks.js'
import { resolveDither, type ResolvedDither } from '../model/dither.js'
import { drawVariant, fileSha256, sourceFileOf, variantFileName, variantKey, type VariantSpec } from '../media/variants.js'
import { assetExistsSync, existsInside, readAssetSync, readInsideSync, writeInside } from '../store/safe-open.js'
import { colour, paintFor } from './paint.js'

/** The ink and paper two-tone pictures are drawn in: the theme's light ones, in every appearance. */
export function twoTonePalette(manifest: Pick<Manifest, 'theme' | 'brandKit'>): { ink: string; paper: string } {
  const paint = paintFor(manifest, 'light')
  return { ink: colour(paint, 'ink'), paper: colour(paint, 'paper', 'paper') }
}

export interface Variant {
  key: string
  assetId: string
  spec: VariantSpec
}

export class Variants {
  private readonly byKey = new Map<string, Variant>()
  private readonly palette: { ink: string; paper: string }

  constructor(
    private readonly deckDir: string,
    manifest: Pick<Manifest, 'theme' | 'brandKit'>,
    /** The workspace root (its .studio/cache holds drawn variants); none keeps them in memory only. */
    private readonly root?: string,
  ) {
    this.palette = twoTonePalette(manifest)
  }

  /** The variant of asset `assetId` screened with `dither` at `width` × `height` sheet pixels; undefined when the asset has no source. */
  variant(assetId: string, dither: ResolvedDither, width: number, height: number): Variant | undefined {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(assetId)) return undefined
    const source = sourceFileOf(join(this.deckDir, 'assets'), assetId)
    if (!source) return undefined
    const spec: VariantSpec = { source, sourceDigest: fileSha256(source), dither, width, height, ...this.palette }
    const key = variantKey(spec)
    const variant = { key, assetId, spec }
    this.byKey.set(key, variant)
    return variant
  }

  known(key: string): Variant | undefined {
    return this.byKey.get(key)
  }

  /** The PNG of a known variant at `scale`. */
  async bytes(key: string, scale: number): Promise<Buffer | undefined> {
    const variant = this.byKey.get(key)
    if (!variant) return undefined
    const committed = join(this.deckDir, 'assets', variantFileName(variant.assetId, key, scale))
    if (assetExistsSync(committed)) return readAssetSync(committed)
    const cached = this.root ? join(this.root, '.studio', 'cache', 'variants', `${key}@${scale}x.png`) : undefined
    if (cached && existsInside(this.root!, cached)) return readInsideSync(this.root!, cached)
    const { png } = await drawVariant(variant.spec, scale)
    if (cached) await writeInside(this.root!, cached, png)
    return png
  }
}

/** The screen a block draws its asset under: a picture's dither field, or the defaults for a two-tone shader block; undefined for none. */
export function screenOf(block: Block): ResolvedDither | undefined {
  if (typeof block.asset !== 'string') return undefined
  if (block.kind === 'picture' && block.dither && typeof block.dither === 'object') return resolveDither(block.dither as Record<string, unknown>)
  if (block.kind === 'shader' && block.twoTone === true) return resolveDither({})
  return undefined
}

/** The size (sheet px) a screened block of `slide` (a picture, or a shader block's frame) is drawn at, as the renderer draws it; undefined when the slide does not draw it. */
export function drawnSizeOf(manifest: Pick<Manifest, 'theme'>, slide: Slide, block: Block, deckDir: string): { w: number; h: number } | undefined {
  const fonts = themeFonts(manifest)
  const box = drawnBoxes(slide, fonts).get(block.id)
  if (!box) return undefined
  const natural = typeof block.asset === 'string' ? assetSize(deckDir, block.asset) : undefined
  if (block.kind === 'shader') return drawnPictureSize({ ...block, fit: 'cover' } as Block, box.w, box.h, natural)
  return drawnPictureSize(block, box.w, pictureHeight(block, box, fonts.body), natural)
}

/** An asset's own width and height, from its record (the aspect a dithered picture is screened at). */
export function assetSize(deckDir: string, id: string): { width?: number; height?: number; readsOn?: ReadsOn } {
  const record = join(deckDir, 'assets', `${id}.json`)
  if (!existsSync(record)) return {}
  try {
    const { width, height, readsOn } = JSON.parse(readAssetSync(record).toString('utf8')) as { width?: unknown; height?: unknown; readsOn?: unknown }
    const reads = readsOn && typeof readsOn === 'object' ? (readsOn as ReadsOn) : undefined
    return { ...(typeof width === 'number' && typeof height === 'number' ? { width, height } : {}), ...(reads ? { readsOn: reads } : {}) }
  } catch {
    return {}
  }
}

/** Whether a logo's drawing reads on the theme's light and dark paper (logo.insert records it). */
export interface ReadsOn {
  light?: boolean
  dark?: boolean
}
