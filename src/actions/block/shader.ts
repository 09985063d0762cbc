import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { BlockId, Box, BR, obj, openObj, opt, Pointer, ref, str, unknown } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { contentBox, slotBoxes, type Box as SheetBox, type LayoutOptions } from '../../layout/index.js'
import { blockIn, blockOfKind, blocksOf, canvasSlide, editSlide, humanResult, nextBlockId, setStack, stackOf } from './canvas.js'
import { pointerTokens, setAtPointer } from './edit.js'
import { blockId, slideId } from './common.js'
import { WITH_BODY_SLIDE, WITH_CANVAS_SLIDE } from '../given.js'

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
  output: written({ id: { ...BlockId, description: 'The id the block got: the one the editor selects.' }, block: { ...ref('Block'), description: 'The shader block.' }, slide: ref('Slide') }),
  cli: 'shader insert <slideId> <materialId> --preset <preset> --controls <controls> --at <at>',
  mcp: 'deck_shader_insert',
  human: humanResult,
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', materialId: 'paper:mesh-gradient', preset: 'dusk', controls: { speed: 0.5, grain: 0.2 }, baseRevision: 1 },
  run: async (ctx, input: InsertInput) => {
    const { blockControls, findMaterial, presetsFor, resolveUniforms } = await import('../../media/shaders.js')
    const { largestFreeRect } = await import('../../layout/free.js')
    return editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const entry = findMaterial(input.materialId)
        const preset = input.preset ?? entry.featured
        const uniforms = resolveUniforms(entry, { preset, controls: input.controls }, presetsFor(doc.manifest))
        const before = findSlide(doc, input.slideId)
        // The body slot of the layout the slide had (the content box where it has none, as on the canvas).
        const region = slotBoxes(before.layout, before.layoutOptions as LayoutOptions | undefined).body ?? contentBox()
        const slide = canvasSlide(doc, input.slideId)
        let at = input.at
        if (!at) {
          const taken = blocksOf(slide).filter((b) => b.pos && b.background !== true).map((b) => b.pos as SheetBox)
          const free = largestFreeRect(region, taken)
          // A sliver is no place for a material: below a quarter of the region it takes the region itself.
          at = free && free.w * free.h >= (region.w * region.h) / 4 ? free : region
        }
        const id = nextBlockId(slide)
        const block: Block = {
          id,
          kind: 'shader',
          materialId: entry.id,
          preset,
          controls: blockControls(entry, input.controls, uniforms),
          uniforms,
          anchor: entry.anchor,
          motion: 'play',
          pos: { x: at.x, y: at.y, w: at.w, h: at.h },
          ...(input.alt !== undefined ? { alt: input.alt } : {}),
        }
        blocksOf(slide).push(block)
        setStack(slide, [...stackOf(slide).filter((b) => b !== id), id])
        return id
      },
      (slide, id) => ({ id, block: blockIn(slide, id) }),
    )
  },
})

interface InsertInput {
  slideId: string
  materialId: string
  preset?: string
  controls?: Record<string, number>
  at?: SheetBox
  alt?: string
}

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
  output: written({ block: { ...ref('Block'), description: 'The shader block after the write.' }, slide: ref('Slide') }),
  cli: 'shader set <slideId> <blockId> <path> <value>',
  mcp: 'deck_shader_set',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b6', path: '/controls/speed', value: 0.5, baseRevision: 2 },
  run: async (ctx, input: { slideId: string; blockId: string; path: string; value?: unknown }) => {
    const { blockControls, checkUniforms, findMaterial, presetsFor, resolveUniforms, writeControls } = await import('../../media/shaders.js')
    return editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const block = blockOfKind(slide, input.blockId, ['shader'], 'a shader block')
        const entry = findMaterial(String(block.materialId), '/blockId')
        const presets = presetsFor(doc.manifest)
        const tokens = pointerTokens(input.path)
        const [head, name, ...deeper] = tokens
        const value = input.value
        if (head === 'preset' && name === undefined) {
          if (value !== undefined && (typeof value !== 'string' || !presets.some((p) => p.name === value))) {
            fail('invalid_input', `No preset ${JSON.stringify(value)}; the presets are ${presets.map((p) => p.name).join(', ')}.`, { pointer: '/value' })
          }
          if (value === undefined) delete block.preset
          else block.preset = value
          delete block.controls
          delete block.uniforms
        } else if (head === 'controls' && !deeper.length) {
          const preset = typeof block.preset === 'string' ? block.preset : entry.featured
          if (name === undefined && value === undefined) {
            delete block.controls
            delete block.uniforms
          } else if (name === undefined) {
            if (!value || typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', '/controls takes an object of control values, e.g. {"speed": 0.5}.', { pointer: '/value' })
            const controls = value as Record<string, number>
            const uniforms = resolveUniforms(entry, { preset, controls }, presets, { preset: '/path', controls: '/value', uniforms: '/value' })
            block.controls = blockControls(entry, controls, uniforms)
            block.uniforms = uniforms
          } else {
            if (value !== undefined && typeof value !== 'number') fail('invalid_input', `The ${name} control takes a number.`, { pointer: '/value' })
            const written = writeControls(entry, { preset, controls: block.controls as Record<string, number> | undefined, uniforms: block.uniforms as Record<string, never> | undefined }, { [name]: (value as number | undefined) ?? null }, presets)
            block.controls = written.controls
            block.uniforms = written.uniforms
          }
        } else if (head === 'controls') {
          fail('invalid_input', 'A control is one number: the path is /controls or /controls/<name>.', { pointer: '/path' })
        } else if (!head || head === 'id' || head === 'kind' || head === 'materialId') {
          fail('refused', `shader.set does not write /${head ?? ''}: rename or re-kind a block with block.set, or insert a shader of another material.`, { pointer: '/path' })
        } else {
          if (head === 'uniforms' && value !== undefined) {
            if (name === undefined) {
              if (!value || typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', '/uniforms takes an object of uniform values.', { pointer: '/value' })
              checkUniforms(entry, value as Record<string, unknown>, '/value')
            } else if (!deeper.length) checkUniforms(entry, { [name]: value }, '/value')
          }
          setAtPointer(block, tokens, structuredClone(value))
        }
        return block.id
      },
      (slide, id) => ({ block: blockIn(slide, id) }),
    )
  },
})
