/**
 * Picture edits: crop, mask, reset and adjustments. (The two-tone and materialize actions of the
 * picture group live in picture.ts.)
 */
import { defineAction, type ActionContext, type CliParsed } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc } from '../../model/deck.js'
import { MASKS } from '../../model/blocks.js'
import { findSlide } from '../../model/edit.js'
import { arr, BR, nullable, num, obj, oneOf, opt, ref } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { gather, given, numeric, without } from './cli.js'
import { blockIn, blockOfKind, canvasSlide, editSlide, isCanvas, humanResult } from './canvas.js'
import { blockId, slideId } from './common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

const fraction = (side: string) => opt(num({ minimum: 0, maximum: 0.99, description: `Fraction trimmed from the ${side}, 0 to 0.99; 0 when absent.` }))
const TRIM_SIDES = ['left', 'right', 'top', 'bottom'] as const
type Trim = Partial<Record<(typeof TRIM_SIDES)[number], number>>

const pictureResult = written({ block: { ...ref('Block'), description: 'The picture block after the write.' }, slide: ref('Slide') })

/** The picture a call names (404 for an unknown id, 400 for a block of another kind). */
export function pictureIn(doc: DeckDoc, slideIdValue: string, blockIdValue: string) {
  return blockOfKind(findSlide(doc, slideIdValue), blockIdValue, ['picture'], 'a picture')
}

/** Runs a change on one picture (on the canvas first when `convert` and the picture is positioned) and answers with it. */
function editPicture(ctx: ActionContext, input: { slideId: string; blockId: string }, change: (picture: Record<string, unknown>) => unknown, convert = false) {
  return editSlide(
    ctx,
    input.slideId,
    (doc) => {
      const picture = pictureIn(doc, input.slideId, input.blockId)
      if (!convert || !picture.pos || isCanvas(findSlide(doc, input.slideId))) return change(picture)
      canvasSlide(doc, input.slideId)
      return change(pictureIn(doc, input.slideId, input.blockId))
    },
    (slide, extra) => ({ block: blockIn(slide, input.blockId), ...(extra && typeof extra === 'object' ? extra : {}) }),
  )
}

export const blockCrop = defineAction({
  id: 'block.crop',
  label: 'Crop picture',
  doc:
    'Crops a picture by the fractions trimmed from each side (absent sides trim nothing; all zero removes the crop); ' +
    'converts a non-canvas slide first when the picture is positioned.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    trim: obj(
      { left: fraction('left'), right: fraction('right'), top: fraction('top'), bottom: fraction('bottom') },
      { description: 'Fractions trimmed from the left, right, top and bottom.' },
    ),
    baseRevision: BR,
  }),
  output: pictureResult,
  cli: 'block crop <slideId>#<blockId> --left <left> --right <right> --top <top> --bottom <bottom>',
  mcp: 'deck_crop_image',
  human: humanResult,
  cliInput: (parsed) => ({ ...without(parsed.input, TRIM_SIDES), trim: gather(parsed, TRIM_SIDES) ?? parsed.input.trim ?? {} }),
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', trim: { left: 0.1, right: 0.1 }, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; trim: Trim; baseRevision: number }) =>
    editPicture(
      ctx,
      input,
      (picture) => {
        for (const [a, b] of [['left', 'right'], ['top', 'bottom']] as const) {
          if ((input.trim[a] ?? 0) + (input.trim[b] ?? 0) >= 1) fail('invalid_input', `Trimming ${a} and ${b} together must leave some of the picture (their sum is under 1).`, { pointer: `/trim/${b}` })
        }
        const crop = Object.fromEntries(TRIM_SIDES.filter((side) => input.trim[side]).map((side) => [side, input.trim[side]]))
        if (Object.keys(crop).length) picture.crop = crop
        else delete picture.crop
      },
      true,
    ),
})

export const blockMask = defineAction({
  id: 'block.mask',
  label: 'Mask picture',
  doc: 'Masks a picture to a closed shape preset; null (or none on the command line) removes the mask.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    mask: { ...nullable(oneOf(MASKS)), description: `A closed shape preset (${MASKS.join(', ')}); null removes the mask.` },
    baseRevision: BR,
  }),
  output: pictureResult,
  cli: 'block mask <slideId>#<blockId> <mask>',
  mcp: 'deck_mask_image',
  human: humanResult,
  cliInput: (parsed) => ({ ...parsed.input, ...(parsed.input.mask === 'none' ? { mask: null } : {}) }),
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', mask: 'circle', baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; mask: string | null; baseRevision: number }) =>
    editPicture(ctx, input, (picture) => {
      if (input.mask === null) delete picture.mask
      else picture.mask = input.mask
    }),
})

/** What a reset takes off a picture. */
export const IMAGE_EDITS = ['crop', 'mask', 'brightness', 'contrast', 'transparency', 'cropAnchor', 'aspect'] as const

export const blockResetImage = defineAction({
  id: 'block.resetImage',
  label: 'Reset picture',
  doc: 'Removes crop, mask, adjustments (brightness, contrast, transparency) and the round-one crop anchor and aspect of a picture in one write.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, baseRevision: BR }),
  output: written({ block: { ...ref('Block'), description: 'The picture block after the write.' }, removed: arr(oneOf(IMAGE_EDITS), { description: 'The fields that were removed.' }), slide: ref('Slide') }),
  cli: 'block reset-image <slideId>#<blockId>',
  mcp: 'deck_reset_image',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; baseRevision: number }) =>
    editPicture(ctx, input, (picture) => {
      const removed = IMAGE_EDITS.filter((field) => picture[field] !== undefined)
      for (const field of removed) delete picture[field]
      return { removed }
    }),
})

const adjustment = (min: number, what: string) =>
  opt({ ...nullable(num({ minimum: min, maximum: 1 })), description: `${what}, ${min} to 1; null clears it, absent leaves it.` })
const ADJUSTMENTS = ['transparency', 'brightness', 'contrast'] as const

export const blockAdjust = defineAction({
  id: 'block.adjust',
  label: 'Adjust picture',
  doc: 'Sets the transparency (0 to 1), brightness and contrast (-1 to 1) of a picture; null (or none on the command line) clears one, an absent one is left as it is.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    transparency: adjustment(0, 'Transparency'),
    brightness: adjustment(-1, 'Brightness'),
    contrast: adjustment(-1, 'Contrast'),
    baseRevision: BR,
  }),
  output: pictureResult,
  cli: 'block adjust <slideId>#<blockId> --transparency <transparency> --brightness <brightness> --contrast <contrast>',
  mcp: 'deck_adjust_image',
  human: humanResult,
  cliInput: (parsed: CliParsed) => {
    const input = { ...parsed.input }
    for (const name of ADJUSTMENTS) {
      const value = given(parsed, name)
      if (value === 'null' || value === 'none') input[name] = null
      else if (value !== undefined) input[name] = numeric(value)
    }
    return input
  },
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', brightness: 0.1, contrast: null, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; transparency?: number | null; brightness?: number | null; contrast?: number | null; baseRevision: number }) =>
    editPicture(ctx, input, (picture) => {
      if (ADJUSTMENTS.every((name) => input[name] === undefined)) fail('invalid_input', 'Give transparency, brightness or contrast.', { pointer: '/brightness' })
      for (const name of ADJUSTMENTS) {
        if (input[name] === null) delete picture[name]
        else if (input[name] !== undefined) picture[name] = input[name]
      }
    }),
})
