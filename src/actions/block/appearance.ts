import { defineAction } from '../../core/action.js'
import { bool, BR, Colour, nullable, num, obj, oneOf, opt, outline, str } from '../../model/schema.js'
import { gather, given, targetAsList } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'

const SHADOW_FIELDS = ['color', 'opacity', 'angle', 'distance', 'blur'] as const

export const ShadowSchema = obj(
  {
    color: opt({ ...Colour, description: 'Shadow colour: a hex colour or palette token.' }),
    opacity: opt(num({ minimum: 0, maximum: 1, description: 'Opacity, 0 to 1.' })),
    angle: opt(num({ minimum: 0, exclusiveMaximum: 360, description: 'Direction the shadow falls, degrees clockwise.' })),
    distance: opt(num({ minimum: 0, description: 'Offset in px.' })),
    blur: opt(num({ minimum: 0, description: 'Blur radius in px.' })),
  },
  { description: 'Shadow (colour, opacity, angle, distance, blur); absent members take defaults.' },
)

export const blockSetAlt = defineAction({
  id: 'block.setAlt',
  label: 'Set alt text',
  doc:
    'Sets the alt text: on the block for a shape, chart, line or text box; on the asset for a block that shows a picture ' +
    '(two pictures of one asset share one description). The result names where it went.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, alt: str({ description: 'The description.' }), baseRevision: BR }),
  output: outline({ alt: 'The alt text written.', on: "Where it went: 'block' or 'asset'.", assetId: 'The asset, when written on an asset.', revision: 'The new revision.' }),
  cli: 'block alt <slideId>#<blockId> <alt>',
  mcp: 'deck_set_alt_text',
  annotations: { idempotent: true },
  example: { slideId: 'picture-caption-4', blockId: 'b1', alt: 'The harbour at dawn', baseRevision: 3 },
})

export const blockShadow = defineAction({
  id: 'block.shadow',
  label: 'Set shadow',
  doc: 'Sets or removes the shadow of objects; absent members take defaults, null removes it.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    shadow: { ...nullable(ShadowSchema), description: 'The shadow (colour, opacity, angle, distance, blur), or null to remove it.' },
    baseRevision: BR,
  }),
  output: outline({ blocks: 'The changed blocks.', revision: 'The new revision.' }),
  cli: 'block shadow <slideId>#<blockId> --on --color <color> --opacity <opacity> --angle <angle> --distance <distance> --blur <blur>',
  mcp: 'deck_set_shadow',
  cliInput: (parsed) => {
    const fields = gather(parsed, SHADOW_FIELDS)
    const shadow = fields || given(parsed, 'on') ? (fields ?? {}) : null
    return { ...targetAsList(parsed, [...SHADOW_FIELDS, 'on', 'shadow']), shadow }
  },
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockIds: ['b1'], shadow: { opacity: 0.3, distance: 8, blur: 16 }, baseRevision: 3 },
})

export const blockAutofit = defineAction({
  id: 'block.autofit',
  label: 'Set autofit',
  doc:
    'Sets how text fits its box: none, shrink or grow (grow for positioned blocks only). ' +
    'apply measures and writes the fit now (box height for grow, size step for shrink); the result names the fields written.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    autofit: oneOf(['none', 'shrink', 'grow'], { description: 'none, shrink, or grow (positioned blocks only).' }),
    apply: opt(bool({ description: 'Measure and write the fit now.' })),
    baseRevision: BR,
  }),
  output: outline({ block: 'The block after the write.', written: 'The fields the fit wrote, when applied.', revision: 'The new revision.' }),
  cli: 'block autofit <slideId>#<blockId> <autofit> --apply',
  mcp: 'deck_set_autofit',
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', blockId: 'b2', autofit: 'shrink', apply: true, baseRevision: 3 },
})
