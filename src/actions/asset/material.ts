import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { deckPresets, materialMembers } from './shader-common.js'
import { arr, bool, BR, num, obj, oneOf, openObj, opt, ref, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { AssetId, Backend, MaterialId, Plate, Size, Treatment, Uniforms } from './schemas.js'

export const materialCapture = defineAction({
  id: 'material.capture',
  label: 'Capture material frames',
  doc: 'Renders a material at 3200 by 1800 and stores frozen frames at the given anchor times as assets; one anchor returns the asset, several return a list named <id>-<anchor>.',
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    materialId: MaterialId,
    preset: opt(str({ description: 'Palette preset, under the uniforms.' })),
    uniforms: opt(Uniforms),
    size: opt(Size),
    anchors: arr(num({ minimum: 0 }), { minItems: 1, description: 'Frame times in ms.' }),
    id: opt({ ...AssetId, description: 'Asset id; <id>-<anchor> per anchor when several.' }),
    role: opt(oneOf(['opener', 'mood', 'frame'], { description: 'Asset role.' })),
    alt: opt(str({ description: 'Alt text of the frames.' })),
    twoTone: opt(bool({ description: 'Run the two-tone pipeline on the frames.' })),
    treatment: opt(Treatment),
    plate: opt(Plate),
    backend: opt(Backend),
    frameKey: opt(str({ description: 'Carried in the record as source.frameKey.' })),
    baseRevision: BR,
  }),
  output: planned(
    written({
      asset: opt({ ...ref('Asset'), description: 'The frame asset (one anchor).' }),
      assets: opt(arr(ref('Asset'), { description: 'The frame assets (several anchors).' })),
    }),
  ),
  cli: 'material capture <materialId> --preset <preset> --uniforms <uniforms> --anchor <anchors> --two-tone --plate <plate>',
  mcp: 'deck_material_capture',
  example: { materialId: 'paper:mesh-gradient', anchors: [0, 2400], role: 'opener', alt: 'Slow blue and orange gradient', baseRevision: 3 },
})

export const materialList = defineAction({
  id: 'material.list',
  label: 'List materials',
  doc: "The material catalog: every paper:* entry with its uniform schema and palette presets (the brand ones computed from the deck's brand kit), and the proto:* engines with their availability.",
  group: 'asset',
  milestone: 'M10',
  mutates: false,
  transports: 'CMHP',
  input: obj({ materialId: opt({ ...MaterialId, description: 'Only this catalog entry.' }) }),
  output: result({
    materials: arr(obj(materialMembers), { description: 'paper:* entries with uniform schema and palette presets, in gallery order.' }),
    engines: arr(obj({ id: str({ pattern: '^proto:[a-z0-9-]+$' }), label: str(), available: bool(), reason: str({ description: 'Why it is not available.' }) }), { description: 'proto:* engines with their availability.' }),
  }),
  cli: 'material list',
  mcp: 'deck_material_list',
  example: {},
  run: async (ctx, input: { materialId?: string }) => {
    const { ENGINES, MATERIALS, findMaterial, materialRecord } = await import('../../media/shaders.js')
    const presets = await deckPresets(ctx)
    if (input.materialId?.startsWith('proto:')) {
      const engine = ENGINES.find((e) => e.id === input.materialId)
      if (!engine) fail('not_found', `No engine "${input.materialId}".`, { pointer: '/materialId' })
      return { materials: [], engines: [engine] }
    }
    const entries = input.materialId ? [findMaterial(input.materialId)] : MATERIALS
    return { materials: entries.map((entry) => materialRecord(entry, presets)), engines: input.materialId ? [] : ENGINES }
  },
  human: (r: { materials: { id: string; category: string; sentence: string }[]; engines: { id: string; available: boolean }[] }) =>
    [...r.materials.map((m) => `${m.id.padEnd(30)} ${m.category.padEnd(9)} ${m.sentence}`), ...r.engines.map((e) => `${e.id.padEnd(30)} ${e.available ? 'available' : 'not available'}`)].join('\n'),
})
