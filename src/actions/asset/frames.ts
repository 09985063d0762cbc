/**
 * Frozen shader frames in a deck: the recipe of a shader block as the document reads now, checking
 * a frame's bytes, staging a frame asset (`assets/frame-<frameKey>@2x.png` and its record) and
 * removing the frame it supersedes when nothing else shows it.
 *
 * Shared by shader.frame, shader.capture, material.capture and slide.setBackgroundMaterial.
 */
import { existsSync, readdirSync } from 'node:fs'
import { readAssetSync } from '../../store/safe-open.js'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { assetIdOfFile } from '../../model/assets.js'
import { themeFonts } from '../../model/themes.js'
import { drawnBoxes } from '../../layout/index.js'
import { canonicalJson } from '../../store/canonical.js'
import { aspectOf, findMaterial, frameKey, resolveUniforms, type Preset, type Recipe, type Uniforms } from '../../media/shaders.js'

/** The asset id of a frame: `frame-<frameKey>`. */
export const frameId = (key: string) => `frame-${key}`
const FRAME_ID = /^frame-[0-9a-f]{16}$/

/** Frames stored from a client: PNG (or WebP past the function cap), long side at most 3200. */
const MAX_FRAME_BYTES = 25 * 1024 * 1024

/**
 * The recipe of a shader block as the document reads now: its material and preset (the featured
 * one when none is set), its uniforms resolved over the preset and controls, its anchor (the
 * material's when none is set) and the aspect of the box the slide draws it in.
 */
export function blockRecipe(doc: DeckDoc, slide: Slide, block: Block, presets: Preset[]): Recipe {
  const entry = findMaterial(String(block.materialId), '/blockId')
  const preset = typeof block.preset === 'string' ? block.preset : entry.featured
  const pointers = { preset: '/blockId', controls: '/blockId', uniforms: '/blockId' }
  const uniforms = resolveUniforms(entry, { preset, controls: block.controls as Record<string, number> | undefined, uniforms: block.uniforms as Uniforms | undefined }, presets, pointers)
  const box = drawnBoxes(slide, themeFonts(doc.manifest)).get(block.id)
  if (!box || box.w <= 0 || box.h <= 0) fail('refused', `Block "${block.id}" is not drawn on slide "${slide.id}", so it has no box to draw a frame for.`, { pointer: '/blockId' })
  return { materialId: entry.id, preset, uniforms, anchor: typeof block.anchor === 'number' ? block.anchor : entry.anchor, aspect: aspectOf(box!.w, box!.h) }
}

export interface FramePicture {
  png: Buffer
  width: number
  height: number
}

/** Reads a client's frame: a PNG or WebP of at most 3200 px on its long side; a WebP is stored as PNG. */
export async function checkFrameBytes(bytes: Buffer, pointer: string): Promise<FramePicture> {
  if (!bytes.length) fail('invalid_input', 'The frame is empty.', { pointer })
  if (bytes.length > MAX_FRAME_BYTES) fail('payload_too_large', `The frame is ${bytes.length} bytes; the cap is ${MAX_FRAME_BYTES}.`, { pointer })
  const sharp = (await import('sharp')).default
  let meta: import('sharp').Metadata
  try {
    meta = await sharp(bytes, { limitInputPixels: 3200 * 3200, failOn: 'error' }).metadata()
  } catch (error) {
    return fail('invalid_input', `The frame is not a picture studio can read (${String((error as Error).message).split('\n')[0]}).`, { pointer })
  }
  if (meta.format !== 'png' && meta.format !== 'webp') fail('invalid_input', `A frame is a PNG (or a WebP); this is ${meta.format}.`, { pointer })
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  if (!width || !height || Math.max(width, height) > 3200) fail('invalid_input', `A frame is at most 3200 px on its long side; this one is ${width} × ${height}.`, { pointer })
  const png = meta.format === 'png' ? bytes : await sharp(bytes).png().toBuffer()
  return { png, width, height }
}

/** The stored frame of an asset id when its bytes are exactly these (a frame sent again). */
export function sameFrame(ctx: ActionContext, deckId: string, id: string, png: Buffer): Record<string, unknown> | undefined {
  const dir = join(ctx.ws.deckDir(deckId), 'assets')
  const file = join(dir, `${id}@2x.png`)
  const record = join(dir, `${id}.json`)
  if (!existsSync(file) || !existsSync(record) || !readAssetSync(file).equals(png)) return undefined
  return JSON.parse(readAssetSync(record).toString('utf8'))
}

export interface FrameRecordInput {
  id: string
  role: 'frame' | 'opener' | 'mood'
  alt?: string
  recipe: Recipe
  key: string
  renderer?: string
}

/** Stages a frame's PNG as `assets/<id>@2x.png` and its record as `assets/<id>.json`; answers the record. */
export function stageFrame(ctx: ActionContext, deckId: string, picture: FramePicture, input: FrameRecordInput): Record<string, unknown> & { id: string } {
  const folder = `decks/${deckId}/assets`
  const file = `${input.id}@2x.png`
  const entry = findMaterial(input.recipe.materialId)
  const record = {
    id: input.id,
    role: input.role,
    alt: input.alt ?? `${entry.label} (${input.recipe.preset}), a shader material`,
    source: {
      title: `${entry.label}, ${input.recipe.preset} preset, at ${input.recipe.anchor} ms`,
      materialId: input.recipe.materialId,
      preset: input.recipe.preset,
      anchor: input.recipe.anchor,
      aspect: input.recipe.aspect,
      frameKey: input.key,
      ...(input.renderer ? { renderer: input.renderer } : {}),
    },
    file,
    format: 'png',
    width: picture.width,
    height: picture.height,
    digest: createHash('sha256').update(picture.png).digest('hex'),
    twins: [file],
  }
  ctx.stageFile(`${folder}/${file}`, picture.png)
  ctx.stageFile(`${folder}/${input.id}.json`, canonicalJson(record))
  return record
}

/** Every asset id the deck's slides and brand kit show. */
function shownAssets(doc: DeckDoc): Set<string> {
  const ids = new Set<string>()
  for (const slide of Object.values(doc.slides)) for (const block of slide.blocks ?? []) if (typeof block.asset === 'string') ids.add(block.asset)
  if (doc.manifest.brandKit?.logo) ids.add(doc.manifest.brandKit.logo)
  return ids
}

/**
 * Stages the removal of the frames in `old` (ids of frames a write replaced) that the deck as staged
 * no longer shows: every file of the asset and its record. Answers the ids removed.
 */
export function dropSuperseded(ctx: ActionContext, doc: DeckDoc, old: Iterable<unknown>): string[] {
  const shown = shownAssets(doc)
  const deckId = doc.manifest.id
  const dir = join(ctx.ws.deckDir(deckId), 'assets')
  const removed: string[] = []
  for (const id of new Set(old)) {
    if (typeof id !== 'string' || !FRAME_ID.test(id) || shown.has(id) || !existsSync(dir)) continue
    for (const name of readdirSync(dir)) if (assetIdOfFile(name) === id) ctx.stageFile(`decks/${deckId}/assets/${name}`, null)
    removed.push(id)
  }
  return removed
}

/** The 409 of a frame drawn from a recipe that moved on. */
export function staleFrame(doc: DeckDoc, given: string, key: string, what: string, pointer: string): never {
  return fail('frame_stale', `The frame was drawn from a recipe that has moved on: ${what} now has frame key ${key}, not ${given}. Draw it again from the current recipe.`, {
    pointer,
    currentRevision: doc.manifest.revision,
    current: doc,
    details: { frameKey: key },
  })
}

export { frameKey }
