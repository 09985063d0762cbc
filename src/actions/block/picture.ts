import { defineAction } from '../../core/action.js'
import { arr, bool, BR, nullable, num, obj, oneOf, openObj, opt, ref, SlideIdsOrAll, str, type Schema } from '../../model/schema.js'
import { planned, RevisionIfWritten, written } from '../../model/results.js'
import { defined, gather, given, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'

/** Closed shape presets a picture can be masked to (the spec does not show the list). */

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

const TRIM_SIDES = ['left', 'right', 'top', 'bottom'] as const

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
  output: planned(
    written({
      block: { ...ref('Block'), description: 'The picture block after the write.' },
      variant: { ...nullable(str()), description: 'The variant key of the screened picture; null once the dither is off.' },
      metrics: { ...nullable(openObj('Tone metrics of the variant.')), description: 'Tone metrics of the variant; null once the dither is off.' },
      warnings: arr(str(), { description: 'Warnings (for example plate clearance).' }),
    }),
  ),
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
  output: planned(
    written({
      written: arr(str(), { description: 'Variant files written.' }),
      missing: arr(str(), { description: 'Variants that were missing (all a dry run reports).' }),
      pruned: arr(str(), { description: 'Variant files removed by prune.' }),
      revision: RevisionIfWritten,
    }),
  ),
  cli: 'picture materialize <slideIds> --prune --scale <scale> --dry-run',
  mcp: 'deck_materialize_pictures',
  annotations: { idempotent: true },
  example: { slideIds: 'all', scale: 2, dryRun: true, baseRevision: 3 },
})
