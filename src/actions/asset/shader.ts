import { readFileSync } from 'node:fs'
import { defineAction } from '../../core/action.js'
import { arr, BlockId, BR, num, obj, openObj, opt, ref, SlideId, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { Backend, MaterialId } from './schemas.js'
import { CategorySchema, ControlSchema, deckPresets, materialMembers, stillsOf } from './shader-common.js'

export const shaderList = defineAction({
  id: 'shader.list',
  label: 'List shaders',
  doc: "The shader library in gallery order: each entry's category, featured preset, stills, uniform schema and palette presets computed from the deck's brand kit, plus the eleven common controls with ranges and sentences and the five category chips.",
  group: 'asset',
  milestone: 'M10',
  mutates: false,
  transports: 'CMHP',
  input: obj({ materialId: opt({ ...MaterialId, description: 'Only this library entry.' }) }),
  output: result({
    shaders: arr(
      obj({
        ...materialMembers,
        featured: str({ description: 'The featured preset: what shader.insert takes when no preset is named.' }),
        stills: arr(str(), { description: 'Still pictures of the entry under its featured preset: package-relative file names (docs/images/shaders/<name>.webp).' }),
        controls: arr(str(), { description: 'The common controls this entry takes (blend, intensity and grain only where it maps them).' }),
        drives: openObj('The uniforms blend, intensity and grain drive, by control name.'),
      }),
      { description: 'The shader library in gallery order.' },
    ),
    controls: arr(ControlSchema, { description: 'The eleven common controls with ranges and sentences.' }),
    categories: arr(CategorySchema, { description: 'The five category chips, in order.' }),
  }),
  cli: 'shader list',
  mcp: 'deck_shader_list',
  example: {},
  run: async (ctx, input: { materialId?: string }) => {
    const { CATEGORIES, CONTROLS, MATERIALS, findMaterial, shaderRecord } = await import('../../media/shaders.js')
    const presets = await deckPresets(ctx)
    const entries = input.materialId ? [findMaterial(input.materialId)] : MATERIALS
    return {
      shaders: entries.map((entry) => shaderRecord(entry, presets, stillsOf)),
      controls: CONTROLS,
      categories: CATEGORIES.map((c) => ({ ...c, count: MATERIALS.filter((m) => m.category === c.id).length })),
    }
  },
  human: (r: { shaders: { id: string; category: string; featured: string }[]; categories: { label: string; count: number }[] }) =>
    [r.categories.map((c) => `${c.label} (${c.count})`).join(' · '), ...r.shaders.map((s) => `${s.id.padEnd(30)} ${s.category.padEnd(9)} featured ${s.featured}`)].join('\n'),
})

export const shaderFrame = defineAction({
  id: 'shader.frame',
  label: 'Store a shader frame',
  doc: "Stores a shader block's rendered frame as assets/frame-<16 hex of frameKey>@2x.png, writes the block's /asset and removes the superseded frame in one revision. A frameKey that no longer matches the block's recipe answers 409; the same bytes under the same id store nothing.",
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj(
    {
      slideId: SlideId,
      blockId: BlockId,
      frameKey: str({ minLength: 1, description: "Key of the recipe the frame was drawn from; checked against the block as the document reads now." }),
      bytes: opt(str({ contentEncoding: 'base64', description: 'The frame as base64 PNG, or WebP when the PNG exceeds the function cap.' })),
      upload: opt(str({ description: 'Presigned upload key instead of bytes.' })),
      renderer: opt(str({ description: 'Client WebGL renderer string.' })),
      baseRevision: BR,
    },
    { anyOf: [{ required: ['bytes'] }, { required: ['upload'] }] },
  ),
  output: planned(written({ asset: { ...ref('Asset'), description: 'The frame asset.' }, block: { ...ref('Block'), description: 'The shader block with its new /asset.' } })),
  cli: 'shader frame <slideId> <blockId> --frame-key <frameKey> < frame.png',
  mcp: 'deck_shader_frame',
  // `< frame.png` is binary, not the JSON the generic stdin reader expects: read it here as base64.
  cliInput: (parsed) =>
    parsed.input.bytes !== undefined || parsed.input.upload !== undefined || process.stdin.isTTY
      ? parsed.input
      : { ...parsed.input, bytes: readFileSync(0).toString('base64') },
  example: { slideId: 'title-1', blockId: 'b1', frameKey: '3f9a0c7d12e4b856aa01', bytes: 'iVBORw0KGgo=', baseRevision: 3 },
})

export const shaderCapture = defineAction({
  id: 'shader.capture',
  label: 'Capture a shader block',
  doc: "Hosted fallback when the editor has no WebGL: renders one shader block's recipe at its box aspect with long side 3200 in the capture browser, then writes it as shader.frame does. Bounded at 30 seconds hosted; a failure answers one sentence.",
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, blockId: BlockId, backend: opt(Backend), baseRevision: BR }),
  output: planned(written({ asset: { ...ref('Asset'), description: 'The frame asset.' }, block: { ...ref('Block'), description: 'The shader block with its new /asset.' } })),
  cli: 'shader capture <slideId> <blockId>',
  mcp: 'deck_shader_capture',
  example: { slideId: 'title-1', blockId: 'b1', baseRevision: 3 },
})
