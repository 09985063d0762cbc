import { existsSync } from 'node:fs'
import { themeFonts } from '../../model/themes.js'
import { join } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc } from '../../model/deck.js'
import { isPicturePlaceholder, placeholderHint, Shadow, SHADOW_DEFAULTS } from '../../model/blocks.js'
import { findBlock, findSlide } from '../../model/edit.js'
import { arr, BlockId, bool, BR, nullable, obj, oneOf, opt, ref, SlideId, SLUG, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'
import { deckAssetIds } from '../../model/assets.js'
import { contentBox, fitText, roomFor } from '../../layout/index.js'
import { tidy } from '../../model/arrange.js'
import { gather, given, targetAsList } from './cli.js'
import { blockIn, editSlide, findBlocks, followConnectors, isCanvas, humanResult } from './canvas.js'
import { blockId, blockIds, slideId } from './common.js'
import { readAssetSync } from '../../store/safe-open.js'
import { WITH_BODY_SLIDE, WITH_CANVAS_SLIDE } from '../given.js'

const SHADOW_FIELDS = ['color', 'opacity', 'angle', 'distance', 'blur'] as const

/** Kinds whose alt text lives on the block; a picture keeps its description on its asset. */
export const ALT_ON_BLOCK = new Set(['shape', 'chart', 'line', 'textbox', 'shader'])

/** Kinds that hold text and so can fit it. */
export const FITTING_KINDS = ['text', 'heading', 'list', 'table', 'shape', 'textbox']

/** Every picture of the deck showing an asset. */
function picturesOf(doc: DeckDoc, assetId: string): { slideId: string; blockId: string }[] {
  const out: { slideId: string; blockId: string }[] = []
  for (const slide of Object.values(doc.slides)) for (const block of slide.blocks ?? []) if (block.kind === 'picture' && block.asset === assetId) out.push({ slideId: slide.id, blockId: block.id })
  return out.sort((a, b) => a.slideId.localeCompare(b.slideId) || a.blockId.localeCompare(b.blockId))
}

export const blockSetAlt = defineAction({
  id: 'block.setAlt',
  label: 'Set alt text',
  doc:
    'Sets the alt text: on the block for a shape, chart, line, text box or shader; on the asset record (assets/<assetId>.json, made when the asset has a file but no record) for a picture ' +
    '(two pictures of one asset share one description; a picture naming an asset the deck does not hold answers 404 and writes nothing). Text, heading, list, table and html blocks are read as text and take none. The result names where it went.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, alt: str({ description: 'The description.' }), baseRevision: BR }),
  output: written({
    alt: str({ description: 'The alt text written.' }),
    on: oneOf(['block', 'asset'], { description: 'Where it went.' }),
    assetId: opt(str({ description: 'The asset, when written on an asset.' })),
    file: opt(str({ description: 'The asset record written (decks/<id>/assets/<assetId>.json), when written on an asset.' })),
    pictures: opt(arr(obj({ slideId: SlideId, blockId: BlockId }), { description: 'Every picture of the deck sharing that description, when written on an asset.' })),
    slide: ref('Slide'),
  }),
  cli: 'block alt <slideId>#<blockId> <alt>',
  mcp: 'deck_set_alt_text',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', alt: 'The GitHub mark', baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; alt: string; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const block = findBlock(findSlide(doc, input.slideId), input.blockId)
        if (block.kind === 'picture') {
          if (isPicturePlaceholder(block)) fail('invalid_input', placeholderHint(block.id), { pointer: '/blockId' })
          const assetId = String(block.asset)
          if (!new RegExp(SLUG).test(assetId)) fail('refused', `Picture "${block.id}" names asset "${assetId}", which is not an asset id.`, { pointer: '/blockId' })
          if (!deckAssetIds(ctx.ws, doc.manifest.id, new Map(), [], []).has(assetId)) {
            fail('not_found', `Picture "${block.id}" names asset "${assetId}", which deck "${doc.manifest.id}" does not hold; add the asset first (asset.add), or point the picture at one it holds.`, { pointer: '/blockId' })
          }
          const file = `decks/${doc.manifest.id}/assets/${assetId}.json`
          const path = join(ctx.ws.root, file)
          let record: Record<string, unknown> = { id: assetId, role: 'picture' }
          if (existsSync(path)) {
            try {
              record = JSON.parse(readAssetSync(path).toString('utf8'))
            } catch (error) {
              fail('storage', `${file} is not valid JSON (${(error as Error).message}). Fix it by hand or restore it with git.`)
            }
          }
          ctx.stageFile(file, canonicalJson({ ...record, alt: input.alt }))
          delete block.alt
          return { on: 'asset', assetId, file, pictures: picturesOf(doc, assetId) }
        }
        if (!ALT_ON_BLOCK.has(block.kind)) {
          fail('invalid_input', `A ${block.kind} block is read as text and takes no alt text; alt text is for shapes, charts, lines, text boxes, shaders and pictures.`, { pointer: '/blockId' })
        }
        block.alt = input.alt
        return { on: 'block' }
      },
      (_slide, where) => ({ alt: input.alt, ...where }),
    ),
})

export const blockShadow = defineAction({
  id: 'block.shadow',
  label: 'Set shadow',
  doc: 'Sets or removes the shadow of objects; absent members take the defaults (ink, 0.3, 45°, 8 px, 16 px), null removes it. On the command line, no flags and no --on removes it.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    shadow: { ...nullable(Shadow), description: 'The shadow (colour, opacity, angle, distance, blur; absent members take ink, 0.3, 45°, 8 px, 16 px), or null to remove it.' },
    baseRevision: BR,
  }),
  output: written({ blocks: arr(obj({ id: BlockId, shadow: nullable(Shadow) }), { description: 'The changed blocks with their shadow (or null).' }), slide: ref('Slide') }),
  cli: 'block shadow <slideId>#<blockId> --on --color <color> --opacity <opacity> --angle <angle> --distance <distance> --blur <blur>',
  mcp: 'deck_set_shadow',
  human: humanResult,
  cliInput: (parsed) => {
    const fields = gather(parsed, SHADOW_FIELDS.filter((f) => f !== 'color'))
    const color = given(parsed, 'color')
    const members = fields || color !== undefined ? { ...fields, ...(color !== undefined ? { color } : {}) } : undefined
    // Flags build the shadow; without any (and without --on) an --input shadow stands, else null removes it.
    const shadow = members ?? (given(parsed, 'on') ? {} : parsed.input.shadow !== undefined ? parsed.input.shadow : null)
    return { ...targetAsList(parsed, [...SHADOW_FIELDS, 'on', 'shadow']), shadow }
  },
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2'], shadow: { opacity: 0.25, blur: 24 }, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockIds: string[]; shadow: Record<string, unknown> | null; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        for (const block of findBlocks(findSlide(doc, input.slideId), input.blockIds)) {
          if (input.shadow === null) delete block.shadow
          else block.shadow = { ...SHADOW_DEFAULTS, ...input.shadow }
        }
      },
      (slide) => ({ blocks: (slide.blocks ?? []).filter((b) => input.blockIds.includes(b.id)).map((b) => ({ id: b.id, shadow: b.shadow ?? null })) }),
    ),
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
  output: written({
    block: { ...ref('Block'), description: 'The block after the write.' },
    written: arr(oneOf(['/pos/h', '/size']), { description: 'Pointers of the fields the fit wrote (/pos/h for grow, /size for shrink); empty unless applied.' }),
    slide: ref('Slide'),
  }),
  cli: 'block autofit <slideId>#<blockId> <autofit> --apply',
  mcp: 'deck_set_autofit',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b2', autofit: 'shrink', apply: true, baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockId: string; autofit: 'none' | 'shrink' | 'grow'; apply?: boolean; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const block = findBlock(slide, input.blockId)
        if (!FITTING_KINDS.includes(block.kind)) fail('invalid_input', `A ${block.kind} block holds no text to fit.`, { pointer: '/blockId' })
        if (input.autofit === 'grow' && !block.pos) fail('refused', `grow is for positioned blocks (objects on a canvas); block "${block.id}" sits in a slot. Use shrink, or convert the slide with slide.toCanvas.`, { pointer: '/autofit' })
        block.autofit = input.autofit
        const written: string[] = []
        if (input.apply && input.autofit !== 'none') {
          // A slotted block fits the room its slot leaves it, not the natural height it is drawn at.
          const box = (block.pos as { x: number; y: number; w: number; h: number } | undefined) ?? roomFor(slide, block.id, themeFonts(doc.manifest)) ?? contentBox()
          const fit = fitText(block as Block, box, slide.layout, themeFonts(doc.manifest))
          if (input.autofit === 'grow') {
            block.pos = { ...box, h: tidy(fit.height) }
            written.push('/pos/h')
            if (isCanvas(slide)) followConnectors(slide, [block.id])
          } else {
            block.size = tidy(fit.size)
            written.push('/size')
          }
        }
        return written
      },
      (slide, written) => ({ block: blockIn(slide, input.blockId), written }),
    ),
})
