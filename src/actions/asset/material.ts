import { defineAction } from '../../core/action.js'
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
  doc: 'The material catalog: every paper:* entry with its uniform schema and palette presets, and the proto:* engines with their availability.',
  group: 'asset',
  milestone: 'M10',
  mutates: false,
  transports: 'CMHP',
  input: obj({ materialId: opt({ ...MaterialId, description: 'Only this catalog entry.' }) }),
  output: planned(
    result({
      materials: arr(
        obj({ id: MaterialId, name: str(), uniforms: openObj('Uniform schema by name.'), presets: arr(openObj('A palette preset.')) }, { additionalProperties: true }),
        { description: 'paper:* entries with uniform schema and palette presets.' },
      ),
      engines: arr(obj({ id: MaterialId, available: bool() }, { additionalProperties: true }), { description: 'proto:* engines with their availability.' }),
    }),
  ),
  cli: 'material list',
  mcp: 'deck_material_list',
  example: {},
})
