import { defineAction } from '../../core/action.js'
import { Box, BR, obj, openObj, opt, Pointer, ref, str, unknown } from '../../model/schema.js'
import { planned, written } from '../../model/results.js'
import { blockId, slideId } from './common.js'

export const shaderInsert = defineAction({
  id: 'shader.insert',
  label: 'Insert shader',
  doc:
    'Lands a shader block with the common controls and their resolved uniforms, motion set to play in show mode, selected in the editor; ' +
    'converts a non-canvas slide first. Without a box it takes the largest free rectangle of the body slot.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    materialId: str({ pattern: '^paper:[a-z0-9][a-z0-9-]*$', description: 'Catalog id from shader.list, shape paper:<name>.' }),
    preset: opt(str({ description: "A palette preset; the entry's featured preset when absent." })),
    controls: opt(openObj('Common control values by name.')),
    at: opt({ ...Box, description: 'Box in sheet px; the largest free rectangle of the body slot when absent.' }),
    alt: opt(str({ description: 'Alt text of the shader block.' })),
    baseRevision: BR,
  }),
  output: planned(written({ block: { ...ref('Block'), description: 'The shader block.' }, slide: ref('Slide') })),
  cli: 'shader insert <slideId> <materialId> --preset <preset> --controls <controls> --at <at>',
  mcp: 'deck_shader_insert',
  example: { slideId: 'freeform-3', materialId: 'paper:mesh-gradient', preset: 'dusk', baseRevision: 3 },
})

export const shaderSet = defineAction({
  id: 'shader.set',
  label: 'Set shader',
  doc:
    'Writes one value under a shader block in one history entry. /preset writes the preset and clears control overrides and uniforms; ' +
    '/controls or /controls/<name> writes controls with their resolved uniforms; any other pointer is one block.set.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: { ...Pointer, description: 'Pointer under the block: /preset, /controls[/<name>], /anchor, /motion, /uniforms, /twoTone, /plate.' },
    value: opt(unknown('The new value; absent removes.')),
    baseRevision: BR,
  }),
  output: planned(written({ block: { ...ref('Block'), description: 'The shader block after the write.' }, slide: ref('Slide') })),
  cli: 'shader set <slideId> <blockId> <path> <value>',
  mcp: 'deck_shader_set',
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockId: 'b4', path: '/controls/speed', value: 0.5, baseRevision: 3 },
})
