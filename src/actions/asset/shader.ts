import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { arr, BlockId, bool, BR, obj, openObj, opt, ref, SlideId, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import type { Recipe } from '../../media/shaders.js'
import type { FramePicture } from './frames.js'
import { blockOfKind } from '../block/canvas.js'
import { Backend, MaterialId } from './schemas.js'
import { CategorySchema, ControlSchema, deckPresets, materialMembers, stillsOf } from './shader-common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

export const shaderList = defineAction({
  id: 'shader.list',
  label: 'List shaders',
  doc: "The shader library in gallery order: each entry's category, featured preset, stills, uniform schema and palette presets computed from the deck's brand kit, plus the eleven common controls with ranges and sentences and the five category chips.",
  group: 'asset',
  milestone: 'M10',
  mutates: false,
  capability: null,
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

const frameResult = written({
  asset: { ...ref('Asset'), description: 'The frame asset record.' },
  block: { ...ref('Block'), description: 'The shader block with its /asset.' },
  stored: bool({ description: 'False when the same bytes were already stored under the same id: nothing was written.' }),
  removed: arr(str(), { description: 'Frames the write superseded and removed (shown nowhere else).' }),
})

export const shaderFrame = defineAction<FrameInput, any>({
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
  output: frameResult,
  cli: 'shader frame <slideId> <blockId> --frame-key <frameKey> < frame.png',
  mcp: 'deck_shader_frame',
  // `< frame.png` is binary, not the JSON the generic stdin reader expects: read it here as base64.
  cliInput: async (parsed, stdin) =>
    parsed.input.bytes !== undefined || parsed.input.upload !== undefined || process.stdin.isTTY
      ? parsed.input
      : { ...parsed.input, bytes: (await stdin()).toString('base64') },
  given: WITH_CANVAS_SLIDE,
  example: {
    slideId: 'freeform-4',
    blockId: 'b6',
    frameKey: '7260c5eb5e21fcde',
    bytes: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQYlWNoiftOEmIY1RA3GEIJAPktCiBHLsdpAAAAAElFTkSuQmCC',
    renderer: 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)',
    baseRevision: 2,
  },
  run: async (ctx, input: FrameInput) => {
    if (input.upload !== undefined) fail('not_implemented', 'Hosted uploads are not built on this instance yet; send the frame as bytes.', { pointer: '/upload', details: { implemented: false } })
    const { blockRecipe, checkFrameBytes, frameKey, staleFrame } = await import('./frames.js')
    const { presetsFor } = await import('../../media/shaders.js')
    const doc = cloneDoc(await ctx.target())
    const slide = findSlide(doc, input.slideId)
    const block = blockOfKind(slide, input.blockId, ['shader'], 'a shader block')
    const recipe = blockRecipe(doc, slide, block, presetsFor(doc.manifest))
    const key = frameKey(recipe)
    if (input.frameKey !== key) staleFrame(doc, input.frameKey, key, `block "${block.id}" of slide "${slide.id}"`, '/frameKey')
    const picture = await checkFrameBytes(Buffer.from(input.bytes!, 'base64'), '/bytes')
    return writeBlockFrame(ctx, doc, slide.id, block.id, recipe, key, picture, input.renderer)
  },
  human: frameHuman,
})

export const shaderCapture = defineAction<{ slideId: string; blockId: string; backend?: 'swiftshader' | 'angle-metal' }, any>({
  id: 'shader.capture',
  label: 'Capture a shader block',
  doc: "Hosted fallback when the editor has no WebGL: renders one shader block's recipe at its box aspect with long side 3200 in the capture browser, then writes it as shader.frame does. Bounded at 30 seconds hosted; a failure answers one sentence.",
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, blockId: BlockId, backend: opt(Backend), baseRevision: BR }),
  output: frameResult,
  cli: 'shader capture <slideId> <blockId>',
  mcp: 'deck_shader_capture',
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b6', baseRevision: 2 },
  run: async (ctx, input: { slideId: string; blockId: string; backend?: 'swiftshader' | 'angle-metal' }) => {
    const { blockRecipe, frameKey } = await import('./frames.js')
    const { frameSize, presetsFor } = await import('../../media/shaders.js')
    const doc = cloneDoc(await ctx.target())
    const slide = findSlide(doc, input.slideId)
    const block = blockOfKind(slide, input.blockId, ['shader'], 'a shader block')
    const recipe = blockRecipe(doc, slide, block, presetsFor(doc.manifest))
    const [width, height] = frameSize(recipe.aspect)
    const { renderFrames } = await import('../../render/shader.js')
    const run = await renderFrames([{ recipe, width, height }], { backend: input.backend, timeoutMs: CAPTURE_BOUND_MS })
    const [frame] = run.frames
    return writeBlockFrame(ctx, doc, slide.id, block.id, recipe, frameKey(recipe), { png: frame.png, width, height }, run.renderer)
  },
  human: frameHuman,
})

/** Capture's bound: the spec's 30 seconds for the hosted job, here for every transport. */
const CAPTURE_BOUND_MS = 30_000

interface FrameInput {
  slideId: string
  blockId: string
  frameKey: string
  bytes?: string
  upload?: string
  renderer?: string
}

/**
 * The write of shader.frame and shader.capture: the PNG as `assets/frame-<frameKey>@2x.png` with its
 * record, the block's /asset, and the frame it replaces removed when nothing else shows it, in one
 * revision. The same bytes already stored under the same id write nothing.
 */
async function writeBlockFrame(ctx: ActionContext, doc: DeckDoc, slideId: string, blockId: string, recipe: Recipe, key: string, picture: FramePicture, renderer?: string) {
  const { dropSuperseded, frameId, sameFrame, stageFrame } = await import('./frames.js')
  const deckId = doc.manifest.id
  const block = doc.slides[slideId].blocks!.find((b) => b.id === blockId)!
  const id = frameId(key)
  const same = block.asset === id ? sameFrame(ctx, deckId, id, picture.png) : undefined
  if (same) return { asset: same, block, stored: false, removed: [], revision: doc.manifest.revision }
  const asset = stageFrame(ctx, deckId, picture, { id, role: 'frame', alt: typeof block.alt === 'string' ? block.alt : undefined, recipe, key, renderer })
  const old = block.asset
  block.asset = id
  const removed = dropSuperseded(ctx, doc, [old])
  ctx.stage(deckId, doc)
  return (docs: Map<string, DeckDoc | null>) => ({ asset, block: docs.get(deckId)!.slides[slideId].blocks!.find((b) => b.id === blockId)!, stored: true, removed })
}

function frameHuman(r: { asset: { id: string; width: number; height: number }; block: { id: string }; stored: boolean; removed: string[]; revision: number }): string {
  if (!r.stored) return `Block ${r.block.id} already shows these bytes as ${r.asset.id}; nothing written.`
  return `Block ${r.block.id} shows ${r.asset.id} (${r.asset.width} × ${r.asset.height})${r.removed.length ? `; removed ${r.removed.join(', ')}` : ''}\nrevision ${r.revision}`
}
