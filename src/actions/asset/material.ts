import { defineAction } from '../../core/action.js'
import { cloneDoc } from '../../model/deck.js'
import { fail } from '../../core/errors.js'
import { deckPresets, materialMembers } from './shader-common.js'
import { arr, bool, BR, num, obj, oneOf, openObj, opt, ref, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { AssetId, Backend, MaterialId, Plate, Size, Treatment, Uniforms } from './schemas.js'

export const materialCapture = defineAction<CaptureInput, any>({
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
    anchors: arr(num({ minimum: 0 }), { minItems: 1, maxItems: 12, description: 'Frame times in ms (at most 12 in one call).' }),
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
  output: written({
    asset: opt({ ...ref('Asset'), description: 'The frame asset (one anchor).' }),
    assets: opt(arr(ref('Asset'), { description: 'The frame assets (several anchors), in anchor order.' })),
  }),
  cli: 'material capture <materialId> --preset <preset> --uniforms <uniforms> --anchor <anchors> --two-tone --plate <plate>',
  mcp: 'deck_material_capture',
  example: { materialId: 'paper:mesh-gradient', anchors: [0, 2400], role: 'opener', alt: 'A slow coral and violet gradient', baseRevision: 0 },
  run: async (ctx, input: CaptureInput) => {
    const { aspectOf, findMaterial, frameKey, presetsFor, resolveUniforms, FRAME_LONG_SIDE } = await import('../../media/shaders.js')
    const { stageFrame } = await import('./frames.js')
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const entry = findMaterial(input.materialId)
    const preset = input.preset ?? entry.featured
    const uniforms = resolveUniforms(entry, { preset, uniforms: input.uniforms }, presetsFor(doc.manifest))
    const [width, height] = input.size ?? [FRAME_LONG_SIDE, 1800]
    if (Math.max(width, height) !== FRAME_LONG_SIDE) fail('invalid_input', `A frame's long side is ${FRAME_LONG_SIDE} px; [${width}, ${height}] has ${Math.max(width, height)}.`, { pointer: '/size' })
    const several = input.anchors.length > 1
    const base = input.id ?? `${entry.name}-${preset}`
    const ids = input.anchors.map((anchor) => (several ? `${base}-${String(anchor).replace('.', '-')}` : base))
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) fail('invalid_input', `Anchor ${input.anchors[i]} is named twice.`, { pointer: `/anchors/${i}` })
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id) || id.length > 120) fail('invalid_input', `"${id}" is not an asset id (a slug).`, { pointer: '/id' })
    })
    const { deckAssetIds } = await import('../../model/assets.js')
    const existing = deckAssetIds(ctx.ws, deckId, new Map(), [], [])
    const recipes = input.anchors.map((anchor) => ({ materialId: entry.id, preset, uniforms, anchor, aspect: aspectOf(width, height) }))
    const taken = ids.filter((id) => existing.has(id))
    if (taken.length) fail('id_taken', `Deck "${deckId}" already has ${taken.length === 1 ? `an asset "${taken[0]}"` : `assets ${taken.map((t) => `"${t}"`).join(', ')}`}; name the frames with id.`, { pointer: '/id' })
    const { renderFrames } = await import('../../render/shader.js')
    const run = await renderFrames(recipes.map((recipe) => ({ recipe, width, height })), { backend: input.backend, timeoutMs: 30_000 * recipes.length })
    const records = recipes.map((recipe, i) =>
      stageFrame(ctx, deckId, { png: run.frames[i].png, width, height }, { id: ids[i], role: input.role ?? 'frame', alt: input.alt, recipe, key: input.frameKey ?? frameKey(recipe), renderer: run.renderer }),
    )
    if (input.twoTone || input.treatment !== undefined || input.plate !== undefined) {
      // Two-tone frames: each frame is kept as the continuous source and its twins are the screen.
      const { stageTwoTone } = await import('./add.js')
      const { twoTonePalette } = await import('../../render/variants.js')
      const palette = twoTonePalette(doc.manifest)
      for (const [i, record] of records.entries()) {
        const options = { treatment: input.treatment, plate: input.plate as import('../../media/variants.js').PlateName | undefined, palette }
        records[i] = (await stageTwoTone(ctx, deckId, record, { bytes: run.frames[i].png, format: 'png', width, height }, options)).record
      }
    }
    // The deck's revision moves with the files (one commit).
    ctx.stage(deckId, cloneDoc(doc))
    return several ? { assets: records } : { asset: records[0] }
  },
  human: (r: { asset?: { id: string }; assets?: { id: string }[]; revision: number }) => `Captured ${(r.assets ?? [r.asset!]).map((a) => a.id).join(', ')}\nrevision ${r.revision}`,
})

interface CaptureInput {
  materialId: string
  preset?: string
  uniforms?: Record<string, unknown>
  size?: [number, number]
  anchors: number[]
  id?: string
  role?: 'opener' | 'mood' | 'frame'
  alt?: string
  twoTone?: boolean
  treatment?: Record<string, unknown>
  plate?: string
  backend?: 'swiftshader' | 'angle-metal'
  frameKey?: string
}

export const materialList = defineAction({
  id: 'material.list',
  label: 'List materials',
  doc: "The material catalog: every paper:* entry with its uniform schema and palette presets (the brand ones computed from the deck's brand kit), and the proto:* engines with their availability.",
  group: 'asset',
  milestone: 'M10',
  mutates: false,
  capability: null,
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
