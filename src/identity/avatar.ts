/**
 * Avatars (account.setAvatar) and the mark: the SVG the page draws for a principal, from its avatar
 * choice. Four variants: initials on a colour, a glyph, a dither plate (both picked by `salt`,
 * deterministic from the principal and the salt), or a picture.
 *
 * A picture arrives as a data URL (JPEG, PNG, WebP or GIF under 512 KB), is decoded by sharp within a
 * pixel budget outside any lock (the action's `prepare`), cropped square and re-encoded as a 256×256
 * WebP without its metadata (EXIF, GPS, ICC comments), and stored as an object named by the SHA-256 of
 * what was written: `<workspace>/.studio/u/<key>` (issue 27 moves it to the object store). The bytes
 * the caller sent are never written anywhere. admin.avatar.sweep removes objects no profile names.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fail } from '../core/errors.js'
import type { Workspace } from '../store/workspace.js'

export type AvatarVariant = 'initials' | 'glyph' | 'dither' | 'picture'

/** The avatar choice as stored (principals.avatar, or a checkout's profile). */
export interface AvatarChoice {
  variant: AvatarVariant
  initials?: string
  salt?: number
  /** The picture's object key (a SHA-256, hex), for the picture variant. */
  picture?: string
}

/** Who a mark is drawn for: a stable key (the principal id, or the author on a checkout), the name shown, the choice. */
export interface MarkSubject {
  key: string
  label: string
  avatar?: AvatarChoice | null
}

export const PICTURE_MAX_BYTES = 512 * 1024
/** The decoder's budget: a picture of more pixels is refused before it is decoded (a 512 KB file can claim far more). */
export const PICTURE_MAX_PIXELS = 40_000_000
export const PICTURE_SIZE = 256
const PICTURE_KEY = /^[0-9a-f]{64}$/

/** Where picture objects live. */
export const avatarDir = (ws: Workspace) => join(ws.stateDir, 'u')

/** Whether a string is a picture object key (a SHA-256 in hex). */
export const isPictureKey = (key: string) => PICTURE_KEY.test(key)

const COLOURS = ['#2f6f4e', '#1f5f8b', '#7a3b8f', '#a8431f', '#8a6d1d', '#336b87', '#6b4226', '#3f51b5', '#00796b', '#ad1457', '#5d4037', '#455a64']

/** 16 glyphs drawn in a 64×64 box, white on the colour. */
const GLYPHS = [
  '<circle cx="32" cy="32" r="14"/>',
  '<rect x="19" y="19" width="26" height="26" rx="3"/>',
  '<path d="M32 16 48 46H16Z"/>',
  '<path d="M32 14 50 32 32 50 14 32Z"/>',
  '<path d="M32 15l5 11 12 1-9 8 3 12-11-7-11 7 3-12-9-8 12-1Z"/>',
  '<path d="M32 50s-16-10-16-21a8 8 0 0 1 16-3 8 8 0 0 1 16 3c0 11-16 21-16 21Z"/>',
  '<path d="M28 16h8v12h12v8H36v12h-8V36H16v-8h12Z"/>',
  '<path d="M20 44 32 20l12 24M24 36h16" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round"/>',
  '<circle cx="22" cy="32" r="7"/><circle cx="42" cy="32" r="7"/>',
  '<path d="M16 40c8-16 24-16 32 0" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>',
  '<path d="M32 14a18 18 0 1 0 0 36 13 13 0 0 1 0-36Z"/>',
  '<path d="M18 18h28v28H18Z" fill="none" stroke="#fff" stroke-width="5"/><circle cx="32" cy="32" r="5"/>',
  '<path d="M14 38 26 24l8 10 6-6 10 10Z"/>',
  '<path d="M32 14v36M14 32h36M20 20l24 24M44 20 20 44" stroke="#fff" stroke-width="4" stroke-linecap="round"/>',
  '<path d="M22 16h20l6 16-16 18-16-18Z"/>',
  '<path d="M16 44 32 16l16 28Z" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round"/>',
]

/** A number from the principal and the salt: the same pair always picks the same glyph, plate and colour. */
function pick(key: string, salt: number | undefined, what: string): number {
  return createHash('sha256').update(`${what}\0${key}\0${salt ?? 0}`).digest().readUInt32BE(0)
}

/** The initials a name gives by default: the first letter of its first and last words (one for a one-word name). */
export function defaultInitials(label: string): string {
  const words = label.replace(/^agent:/, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  const first = (word: string | undefined) => (word ? [...word][0] : '')
  const out = words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : first(words[0])
  return (out || '?').toLocaleUpperCase()
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The 4×4 Bayer matrix: a dither plate thresholds a gradient with it. */
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

function ditherPlate(seed: number): string {
  // A two-tone plate: a gradient at one of eight angles, ordered-dithered on an 16×16 grid of 4-unit cells.
  const angle = ((seed >>> 8) % 8) * (Math.PI / 4)
  const dx = Math.cos(angle)
  const dy = Math.sin(angle)
  const cells: string[] = []
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const t = ((x - 7.5) * dx + (y - 7.5) * dy) / 16 + 0.5
      if (t * 16 > BAYER[(y % 4) * 4 + (x % 4)]) cells.push(`M${x * 4} ${y * 4}h4v4h-4Z`)
    }
  }
  return `<path fill="#fff" fill-opacity="0.85" d="${cells.join('')}"/>`
}

/**
 * The mark of a principal as SVG (64×64): initials on a colour, a glyph, a dither plate, or the
 * picture (whose bytes the caller reads with `pictureOf`; without them the initials are drawn).
 */
export function markOf(subject: MarkSubject, picture?: Buffer): string {
  const avatar = subject.avatar ?? { variant: 'initials' as const }
  const seed = pick(subject.key, avatar.salt, avatar.variant)
  const colour = COLOURS[pick(subject.key, 0, 'colour') % COLOURS.length]
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="${escapeXml(subject.label)}">`
  if (avatar.variant === 'picture' && picture) {
    return `${open}<image width="64" height="64" href="data:image/webp;base64,${picture.toString('base64')}"/></svg>`
  }
  if (avatar.variant === 'glyph') return `${open}<rect width="64" height="64" rx="32" fill="${colour}"/><g fill="#fff">${GLYPHS[seed % GLYPHS.length]}</g></svg>`
  if (avatar.variant === 'dither') return `${open}<rect width="64" height="64" fill="${COLOURS[seed % COLOURS.length]}"/>${ditherPlate(seed)}</svg>`
  const initials = avatar.initials ?? defaultInitials(subject.label)
  const size = [...initials].length > 2 ? 20 : 26
  return `${open}<rect width="64" height="64" rx="32" fill="${colour}"/><text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="600" font-size="${size}" fill="#fff">${escapeXml(initials)}</text></svg>`
}

/** The mark as a PNG (sharp renders the SVG), for `studio account me --avatar-png <path>`. */
export async function markPng(svg: string, size = 256): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  return sharp(Buffer.from(svg), { density: Math.round((72 * size) / 64) }).resize(size, size).png().toBuffer()
}

/** A stored picture's bytes, or undefined when the object is gone. */
export async function pictureOf(ws: Workspace, key: string | undefined): Promise<Buffer | undefined> {
  if (!key || !isPictureKey(key)) return undefined
  return readFile(join(avatarDir(ws), key)).catch(() => undefined)
}

const DATA_URL = /^data:image\/(jpeg|png|webp|gif);base64,([A-Za-z0-9+/]*={0,2})$/

/**
 * Decodes a picture's data URL and re-encodes it: square-cropped, 256×256 WebP, no metadata. Refuses
 * (413) a file of 512 KB or more, (400) what is not a JPEG, PNG, WebP or GIF, or does not decode, and
 * (422) one past the pixel budget. Slow: runs in the action's `prepare`, outside any lock.
 */
export async function reencodePicture(dataUrl: string): Promise<{ key: string; bytes: Buffer }> {
  const match = DATA_URL.exec(dataUrl)
  if (!match) fail('invalid_input', 'A picture is a data URL of a JPEG, PNG, WebP or GIF: data:image/<type>;base64,<data>.', { pointer: '/picture' })
  const input = Buffer.from(match[2], 'base64')
  if (input.length >= PICTURE_MAX_BYTES) fail('payload_too_large', 'An avatar picture must be under 512 KB.', { pointer: '/picture', details: { limit: PICTURE_MAX_BYTES } })
  const { default: sharp } = await import('sharp')
  let meta: { format?: string; width?: number; height?: number }
  try {
    meta = await sharp(input, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: 'error' }).metadata()
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) fail('unprocessable', `An avatar picture may have at most ${PICTURE_MAX_PIXELS} pixels.`, { pointer: '/picture', details: { limit: PICTURE_MAX_PIXELS } })
    fail('invalid_input', 'The picture does not decode as a JPEG, PNG, WebP or GIF.', { pointer: '/picture' })
  }
  if (!['jpeg', 'png', 'webp', 'gif'].includes(meta.format ?? '')) fail('invalid_input', 'The picture does not decode as a JPEG, PNG, WebP or GIF.', { pointer: '/picture' })
  let bytes: Buffer
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped; sharp keeps none unless asked.
    bytes = await sharp(input, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize(PICTURE_SIZE, PICTURE_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer()
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) fail('unprocessable', `An avatar picture may have at most ${PICTURE_MAX_PIXELS} pixels.`, { pointer: '/picture', details: { limit: PICTURE_MAX_PIXELS } })
    fail('invalid_input', 'The picture does not decode as a JPEG, PNG, WebP or GIF.', { pointer: '/picture' })
  }
  return { key: createHash('sha256').update(bytes).digest('hex'), bytes }
}

/** Stores a re-encoded picture under its key (atomically; the same bytes twice are one object). */
export async function storePicture(ws: Workspace, picture: { key: string; bytes: Buffer }): Promise<void> {
  await mkdir(avatarDir(ws), { recursive: true })
  const { default: writeFileAtomic } = await import('write-file-atomic')
  await writeFileAtomic(join(avatarDir(ws), picture.key), picture.bytes, { mode: 0o600 })
}
