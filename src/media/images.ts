/**
 * Raster pictures as they enter a deck (asset.add, background pictures, captures): decoded and
 * re-encoded with sharp, so what is stored is a clean file of a known format.
 *
 * - EXIF orientation is applied to the pixels, then every metadata block (EXIF, XMP, IPTC, ICC
 *   comments, GPS) is dropped: a phone photo carries no location into a deck.
 * - Decompression bombs are refused by pixel count before decoding (`limitInputPixels`), whatever the
 *   file's byte size; a file over the byte cap is refused before it is read.
 * - The longest side is capped (6400 px: twice the 3200 px a 2x render of a full-bleed picture needs);
 *   larger pictures are scaled down, never up.
 * - JPEG stays JPEG (mozjpeg, quality 88), PNG stays PNG, WebP stays WebP; GIF (first frame), TIFF,
 *   AVIF and HEIF become PNG when they have transparency, else JPEG. Animated pictures keep their
 *   first frame.
 * - Twins: the rendered sizes the deck's renders and exports draw (1600 and 3200 px wide, never wider
 *   than the picture), `<id>@1x.<ext>` and `<id>@2x.<ext>`.
 */
import { createHash } from 'node:crypto'
import { fail, StudioError } from '../core/errors.js'

export const MAX_BYTES = 25 * 1024 * 1024
/** 80 megapixels: a 10000 × 8000 picture; a bomb of any byte size stops here. */
export const MAX_PIXELS = 80_000_000
export const MAX_SIDE = 6400
/** An SVG's intrinsic width or height, in px: a drawing this wide is still drawn at ≥ 1 dpi for its twins. */
export const SVG_MAX_SIDE = 100_000
export const TWIN_WIDTHS = [1600, 3200] as const

export type StoredFormat = 'jpg' | 'png' | 'webp' | 'svg'

export interface IngestedImage {
  bytes: Buffer
  format: StoredFormat
  width: number
  height: number
  /** sha256 of the stored bytes (hex). */
  digest: string
  /** SVG only: what sanitizing removed. */
  removed?: string[]
  /** What the input was, as sharp read it. */
  input: { format: string; width: number; height: number; orientation?: number; pages?: number; hasAlpha: boolean }
}

type Sharp = (typeof import('sharp'))['default']
let sharpModule: Sharp | undefined
async function sharp(): Promise<Sharp> {
  return (sharpModule ??= (await import('sharp')).default)
}

const ENCODED: Record<string, StoredFormat | undefined> = { jpeg: 'jpg', png: 'png', webp: 'webp' }

/** Decodes, orients, strips, caps and re-encodes a raster picture; refuses what is not one. */
export async function ingestRaster(input: Buffer, options: { pointer?: string; maxBytes?: number } = {}): Promise<IngestedImage> {
  const pointer = options.pointer ?? '/file'
  const maxBytes = options.maxBytes ?? MAX_BYTES
  if (input.length > maxBytes) fail('payload_too_large', `The picture is ${input.length} bytes; the cap is ${maxBytes}.`, { pointer })
  const load = await sharp()
  let meta: import('sharp').Metadata
  try {
    meta = await load(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).metadata()
  } catch (error) {
    return fail('invalid_input', `The file is not a picture studio can read (${firstLine(error)}).`, { pointer })
  }
  if (!meta.format || !meta.width || !meta.height) fail('invalid_input', 'The file is not a raster picture.', { pointer })
  if (meta.format === 'svg') fail('invalid_input', 'An SVG is not a raster picture: it is sanitized and stored as SVG.', { pointer })
  const pixels = meta.width * meta.height
  if (pixels > MAX_PIXELS) fail('unprocessable', `The picture is ${meta.width} × ${meta.height} (${Math.round(pixels / 1e6)} megapixels); the cap is ${MAX_PIXELS / 1e6} megapixels.`, { pointer })
  const hasAlpha = Boolean(meta.hasAlpha)
  const format: StoredFormat = ENCODED[meta.format] ?? (hasAlpha ? 'png' : 'jpg')
  try {
    // rotate() with no angle applies the EXIF orientation; output carries no metadata unless asked.
    let image = load(input, { limitInputPixels: MAX_PIXELS, failOn: 'error', pages: 1 }).rotate()
    const oriented = (meta.orientation ?? 1) >= 5 ? { w: meta.height, h: meta.width } : { w: meta.width, h: meta.height }
    if (Math.max(oriented.w, oriented.h) > MAX_SIDE) image = image.resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    image = encode(image, format)
    const { data, info } = await image.toBuffer({ resolveWithObject: true })
    return {
      bytes: data,
      format,
      width: info.width,
      height: info.height,
      digest: createHash('sha256').update(data).digest('hex'),
      input: { format: meta.format, width: meta.width, height: meta.height, ...(meta.orientation ? { orientation: meta.orientation } : {}), ...(meta.pages ? { pages: meta.pages } : {}), hasAlpha },
    }
  } catch (error) {
    return fail('invalid_input', `The picture could not be decoded (${firstLine(error)}).`, { pointer })
  }
}

function encode(image: import('sharp').Sharp, format: Exclude<StoredFormat, 'svg'> | StoredFormat): import('sharp').Sharp {
  if (format === 'jpg') return image.flatten({ background: '#ffffff' }).jpeg({ quality: 88, mozjpeg: true })
  if (format === 'webp') return image.webp({ quality: 88 })
  return image.png({ compressionLevel: 9 })
}

/**
 * An SVG picture: sanitized (src/media/svg.ts) and stored as SVG; its size from width/height or the
 * viewBox (1600 × 900 when it gives none).
 */
export async function ingestSvg(input: Buffer, options: { pointer?: string } = {}): Promise<IngestedImage> {
  const { sanitizeSvg } = await import('./svg.js')
  let clean: import('./svg.js').SanitizedSvg
  try {
    // 2 MiB: the sanitizer's worst case grows with element count (5 MiB of tiny elements took seconds).
    clean = sanitizeSvg(input, { maxBytes: 2 * 1024 * 1024 })
  } catch (error) {
    // The sanitizer's refusal keeps its code (422 for a drawing over a processing limit).
    const { code, extra } = error instanceof StudioError ? error : { code: 'invalid_input' as const, extra: {} }
    return fail(code, (error as Error).message, { ...extra, pointer: options.pointer ?? '/file' })
  }
  const bytes = Buffer.from(clean.svg, 'utf8')
  // Its size: width and height, else the viewBox, else the sheet's.
  const width = Math.max(1, Math.round(clean.width ?? clean.viewBox?.[2] ?? 1600))
  const height = Math.max(1, Math.round(clean.height ?? clean.viewBox?.[3] ?? 900))
  const pointer = options.pointer ?? '/file'
  if (width > SVG_MAX_SIDE || height > SVG_MAX_SIDE) fail('unprocessable', `The SVG is ${width} × ${height} px; the limit is ${SVG_MAX_SIDE} px a side.`, { pointer, details: { limit: 'side' } })
  // Its twins are drawn 1600 and 3200 px wide: the larger must stay under the pixel cap.
  const widest = TWIN_WIDTHS[TWIN_WIDTHS.length - 1]
  const twinPixels = widest * Math.round((widest * height) / width)
  if (twinPixels > MAX_PIXELS) fail('unprocessable', `The SVG is ${width} × ${height} px: drawn ${widest} px wide it would be ${Math.round(twinPixels / 1e6)} megapixels; the cap is ${MAX_PIXELS / 1e6} megapixels.`, { pointer, details: { limit: 'pixels' } })
  return { bytes, format: 'svg', width, height, digest: createHash('sha256').update(bytes).digest('hex'), removed: clean.removed, input: { format: 'svg', width, height, hasAlpha: true } }
}

/** The twins of a stored picture: its rendered widths (never wider than a raster picture; an SVG is drawn to PNG at both). */
export async function twinsOf(image: IngestedImage): Promise<{ scale: 1 | 2; width: number; height: number; format: StoredFormat; bytes: Buffer }[]> {
  const load = await sharp()
  const out: { scale: 1 | 2; width: number; height: number; format: StoredFormat; bytes: Buffer }[] = []
  for (const [i, target] of TWIN_WIDTHS.entries()) {
    if (image.format === 'svg') {
      const density = Math.min(2400, Math.max(1, (72 * target) / image.width))
      let drawn: { data: Buffer; info: import('sharp').OutputInfo }
      try {
        drawn = await load(image.bytes, { density, limitInputPixels: MAX_PIXELS }).resize({ width: target }).png().toBuffer({ resolveWithObject: true })
      } catch (error) {
        return fail('unprocessable', `The SVG could not be drawn (${firstLine(error)}).`)
      }
      const { data, info } = drawn
      out.push({ scale: (i + 1) as 1 | 2, width: info.width, height: info.height, format: 'png', bytes: data })
      continue
    }
    const width = Math.min(target, image.width)
    const resized = encode(load(image.bytes).resize({ width, withoutEnlargement: true }), image.format)
    const { data, info } = await resized.toBuffer({ resolveWithObject: true })
    out.push({ scale: (i + 1) as 1 | 2, width: info.width, height: info.height, format: image.format, bytes: data })
  }
  return out
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0].slice(0, 200)
}
