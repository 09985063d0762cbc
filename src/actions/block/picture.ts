import { defineAction } from '../../core/action.js'
import { bool, BR, nullable, num, obj, oneOf, opt, outline, SlideIdsOrAll, str, type Schema } from '../../model/schema.js'
import { defined, gather, given, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'

/** Closed shape presets a picture can be masked to (the spec does not show the list). */
export const MASKS = ['rounded', 'circle', 'ellipse', 'pill', 'triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star', 'heart', 'arch', 'blob'] as const

export const MaterialId = str({ pattern: '^(paper|proto):[a-z0-9][a-z0-9-]*$', description: 'Catalog id from shader.list or material.list, e.g. paper:mesh-gradient.' })

const DITHER_FIELDS = ['pattern', 'tone', 'cell', 'strength', 'black', 'white', 'gamma', 'polarity'] as const

/** The deck's two-tone screen over a picture's continuous source; absent members take the deck's treatment. */
export const DitherSchema: Schema = obj(
  {
    pattern: opt(oneOf(['bayer8', 'bayer4', 'blue64', 'random'], { description: 'Screen pattern; bayer8 when absent.' })),
    tone: opt(oneOf(['two', 'three', 'original'], { description: 'Tones of the screen; two when absent.' })),
    cell: opt(oneOf([1, 2, 3, 4], { description: 'Sheet pixels per cell; 2 when absent.' })),
    strength: opt(num({ minimum: 0, maximum: 1, description: 'How strongly the screen replaces the source, 0 to 1.' })),
    black: opt(num({ minimum: 0, maximum: 1, description: 'Black point: source tones below it print as ink, 0 to 1.' })),
    white: opt(num({ minimum: 0, maximum: 1, description: 'White point: source tones above it print as paper, 0 to 1.' })),
    gamma: opt(num({ minimum: 0.1, maximum: 5, description: 'Gamma applied to the source before screening.' })),
    polarity: opt(oneOf(['normal', 'inverted'], { description: 'normal prints dark tones as ink; inverted swaps ink and paper.' })),
  },
  { description: 'Two-tone screen settings (pattern, tone, cell, strength, black, white, gamma, polarity); absent members take defaults.' },
)

const fraction = (side: string) => opt(num({ minimum: 0, exclusiveMaximum: 1, description: `Fraction trimmed from the ${side}; 0 when absent.` }))
const TRIM_SIDES = ['left', 'right', 'top', 'bottom'] as const

export const blockCrop = defineAction({
  id: 'block.crop',
  label: 'Crop picture',
  doc: 'Crops a picture by the fractions trimmed from each side; converts a non-canvas slide first when the picture is positioned.',
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
  output: outline({ block: 'The picture block after the write.', revision: 'The new revision.' }),
  cli: 'block crop <slideId>#<blockId> --left <left> --right <right> --top <top> --bottom <bottom>',
  mcp: 'deck_crop_image',
  cliInput: (parsed) => ({ ...without(parsed.input, TRIM_SIDES), trim: gather(parsed, TRIM_SIDES) ?? {} }),
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', trim: { left: 0.1, right: 0.1 }, baseRevision: 3 },
})

export const blockMask = defineAction({
  id: 'block.mask',
  label: 'Mask picture',
  doc: 'Masks a picture to a closed shape preset; null removes the mask.',
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
  output: outline({ block: 'The picture block after the write.', revision: 'The new revision.' }),
  cli: 'block mask <slideId>#<blockId> <mask>',
  mcp: 'deck_mask_image',
  cliInput: (parsed) => ({ ...parsed.input, mask: given(parsed, 'mask') === 'none' ? null : given(parsed, 'mask') }),
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', mask: 'circle', baseRevision: 3 },
})

export const blockResetImage = defineAction({
  id: 'block.resetImage',
  label: 'Reset picture',
  doc: 'Removes crop, mask, adjustments and the round-one crop anchor and aspect of a picture in one write.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, baseRevision: BR }),
  output: outline({ block: 'The picture block after the write.', removed: 'The fields that were removed.', revision: 'The new revision.' }),
  cli: 'block reset-image <slideId>#<blockId>',
  mcp: 'deck_reset_image',
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', baseRevision: 3 },
})

const adjustment = (min: number, what: string) =>
  opt({ ...nullable(num({ minimum: min, maximum: 1 })), description: `${what}, ${min} to 1; null clears it, absent leaves it.` })

export const blockAdjust = defineAction({
  id: 'block.adjust',
  label: 'Adjust picture',
  doc: 'Sets the transparency (0 to 1), brightness and contrast (-1 to 1) of a picture; null clears one.',
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
  output: outline({ block: 'The picture block after the write.', revision: 'The new revision.' }),
  cli: 'block adjust <slideId>#<blockId> --transparency <transparency> --brightness <brightness> --contrast <contrast>',
  mcp: 'deck_adjust_image',
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', brightness: 0.1, contrast: null, baseRevision: 3 },
})

export const pictureDither = defineAction({
  id: 'picture.dither',
  label: 'Dither picture',
  doc:
    "Writes the deck's two-tone screen over a picture's continuous source as a non-destructive field; null removes it. " +
    'Converts a non-canvas slide first when the picture is positioned; the result names the variant key, metrics and warnings.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    dither: { ...nullable(DitherSchema), description: 'The two-tone screen settings, or null to remove the field.' },
    baseRevision: BR,
  }),
  output: outline({
    block: 'The picture block after the write.',
    variant: 'The variant key of the screened picture.',
    metrics: 'Tone metrics of the variant.',
    warnings: 'Warnings (for example plate clearance).',
    revision: 'The new revision.',
  }),
  cli: 'block dither <slideId>#<blockId> --pattern <pattern> --tone <tone> --cell <cell> --strength <strength> --black <black> --white <white> --gamma <gamma> --polarity <polarity> --off',
  mcp: 'deck_dither_picture',
  cliInput: (parsed) => {
    const rest = without(parsed.input, [...DITHER_FIELDS, 'off', 'dither'])
    if (given(parsed, 'off')) return { ...rest, dither: null }
    return { ...rest, dither: defined(gather(parsed, DITHER_FIELDS) ?? {}) }
  },
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', dither: { pattern: 'bayer8', tone: 'two', cell: 2 }, baseRevision: 3 },
})

export const pictureMaterialize = defineAction({
  id: 'picture.materialize',
  label: 'Materialize pictures',
  doc:
    'Writes the variant files and records of every dithered picture on the slides, server side. ' +
    'prune removes variants no picture references; dryRun names the missing variants and writes nothing.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: opt({ ...SlideIdsOrAll, description: "'all' or a list of slide ids; all when absent." }),
    blockIds: opt({ ...blockIds, description: 'Only these picture blocks.' }),
    prune: opt(bool({ description: 'Remove variants no picture references.' })),
    scale: opt(oneOf([1, 2], { default: 2, description: 'Scale of the variant files; 2 when absent.' })),
    dryRun: opt(bool({ description: 'Name missing variants, write nothing.' })),
    baseRevision: BR,
  }),
  output: outline({
    written: 'Variant files written.',
    missing: 'Variants that were missing (all a dry run reports).',
    pruned: 'Variant files removed by prune.',
    revision: 'The new revision, when anything was written.',
  }),
  cli: 'picture materialize <slideIds> --prune --scale <scale> --dry-run',
  mcp: 'deck_materialize_pictures',
  annotations: { idempotent: true },
  example: { slideIds: 'all', scale: 2, dryRun: true, baseRevision: 3 },
})
