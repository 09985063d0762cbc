import { existsSync } from 'node:fs'
import { themeFonts } from '../../model/themes.js'
import { join } from 'node:path'
import { checkInputBlock } from '../../model/check.js'
import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, Slide } from '../../model/deck.js'
import { BlockSchema } from '../../model/deck.js'
import { DUPLICATE_OFFSET } from '../../model/blocks.js'
import { findBlock, findSlide } from '../../model/edit.js'
import { has, isPrototypeKey } from '../../model/own.js'
import { SLOTS } from '../../model/layouts.js'
import { layoutSlots } from '../../model/mutations/slide-ops.js'
import { arr, BlockId, Box, BR, nullable, obj, oneOf, opt, Pointer, ref, SLUG, unknown } from '../../model/schema.js'
import { CurrentRevision, result, written } from '../../model/results.js'
import { blockHeight, contentBox, drawnBoxes } from '../../layout/index.js'
import { restack } from '../../model/arrange.js'
import {
  blockIn,
  blocksOf,
  canvasSlide,
  detachFrom,
  dropLoneGroups,
  editSlide,
  findBlocks,
  followConnectors,
  isCanvas,
  isPointLine,
  lineEnds,
  nextBlockId,
  setLineEnds,
  setStack,
  stackOf,
  topZ,
  humanResult,
} from './canvas.js'
import { blockId, blockIds, slideId } from './common.js'
import { readAssetSync } from '../../store/safe-open.js'
import { WITH_BODY_SLIDE, WITH_CANVAS_SLIDE, WITH_COLUMNS_SLIDE } from '../given.js'

const blockResult = written({ block: { ...ref('Block'), description: 'The block after the write.' }, slide: ref('Slide') })

/** The reference tokens of a JSON pointer (`/a/b~1c` → ['a', 'b/c']). */
export function pointerTokens(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)

/**
 * Sets (or with `undefined` deletes) the value at a pointer inside a block. Missing parent objects
 * are made on a set; `-` appends to an array. Deleting what is not there changes nothing.
 */
export function setAtPointer(block: Block, tokens: string[], value: unknown): void {
  const bad = (message: string): never => fail('invalid_input', message, { pointer: '/path' })
  if (tokens.some(isPrototypeKey)) bad('__proto__ is not a member a block can hold.')
  let parent: unknown = block
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]
    const where = `/${tokens.slice(0, i + 1).join('/')}`
    if (Array.isArray(parent)) {
      const index = arrayIndex(parent, token, false)
      if (index === undefined) bad(`${where} is not an index of the array.`)
      parent = parent[index!]
    } else if (isObject(parent)) {
      if (!has(parent, token) || parent[token] === undefined) {
        if (value === undefined) return
        parent[token] = {}
      }
      parent = parent[token]
    } else bad(`${where} lies inside a value that is neither an object nor an array.`)
  }
  const last = tokens[tokens.length - 1]
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, value !== undefined)
    if (index === undefined) bad(`${last} is not an index of the array at /${tokens.slice(0, -1).join('/')}.`)
    if (value === undefined) parent.splice(index!, 1)
    else parent[index!] = value
  } else if (isObject(parent)) {
    if (value === undefined) delete parent[last]
    else parent[last] = value
  } else bad(`/${tokens.slice(0, -1).join('/')} is neither an object nor an array.`)
}

/** An array index token: 0..length-1, or `-`/length (the end) where appending is allowed. */
function arrayIndex(array: unknown[], token: string, append: boolean): number | undefined {
  if (token === '-') return append ? array.length : undefined
  if (!/^(0|[1-9]\d*)$/.test(token)) return undefined
  const index = Number(token)
  return index < array.length || (append && index === array.length) ? index : undefined
}

/** Renames a block and the connector ends attached to it. */
function renameBlock(slide: Slide, block: Block, id: unknown): void {
  if (typeof id !== 'string') fail('invalid_input', 'A block id is a string.', { pointer: '/value' })
  if (id === block.id) return
  if (blocksOf(slide).some((b) => b.id === id)) fail('id_taken', `Slide "${slide.id}" already has a block "${id}".`, { pointer: '/value' })
  for (const line of blocksOf(slide)) {
    for (const end of ['start', 'end'] as const) {
      const attachment = line[end] as { block?: string } | undefined
      if (attachment?.block === block.id) attachment.block = id
    }
  }
  block.id = id
}

/** The index a block takes in the array: after `after`, else before the first block of its slot, else at the end. */
function slotIndex(blocks: Block[], slot: string, after: string | undefined): number {
  if (after !== undefined) return blocks.findIndex((b) => b.id === after) + 1
  const first = blocks.findIndex((b) => b.slot === slot)
  return first < 0 ? blocks.length : first
}

/** Checks `after` names a block of the target slot (not the block itself). */
function checkAfter(slide: Slide, after: string | undefined, slot: string, self?: string): void {
  if (after === undefined) return
  const sibling = findBlock(slide, after, '/after')
  if (sibling.id === self) fail('invalid_input', 'A block cannot follow itself.', { pointer: '/after' })
  if (!isCanvas(slide) && sibling.slot !== slot) fail('invalid_input', `Block "${after}" is in slot "${sibling.slot ?? 'none'}", not "${slot}".`, { pointer: '/after' })
}

/** The asset records a block references (decks/<id>/assets/<assetId>.json), or just their ids when there is none. */
function assetsOf(ctx: ActionContext, deckId: string, block: Block): Record<string, unknown>[] {
  const ids = [block.asset].filter((a): a is string => typeof a === 'string')
  return ids.map((id) => {
    const file = join(ctx.ws.deckDir(deckId), 'assets', `${id}.json`)
    if (!new RegExp(SLUG).test(id) || !existsSync(file)) return { id }
    try {
      return JSON.parse(readAssetSync(file).toString('utf8')) as Record<string, unknown>
    } catch {
      return { id }
    }
  })
}

/** A tag no block of the slide carries: `<base>-<n>`. */
export function freshTag(slide: Slide, tag: string, taken: Set<string> = new Set()): string {
  const used = new Set([...blocksOf(slide).map((b) => b.group), ...taken])
  const base = tag.replace(/-\d+$/, '') || 'group'
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

interface SetInput {
  slideId: string
  blockId: string
  path: string
  value?: unknown
  baseRevision: number
}

interface InsertInput {
  slideId: string
  slot?: string
  after?: string
  block: Block
  baseRevision: number
}

interface MoveInput {
  slideId: string
  blockId: string
  slot: string
  after?: string
  baseRevision: number
}


export const blockGet = defineAction({
  id: 'block.get',
  label: 'Get block',
  doc: 'Reads one block: its document, the slot or box it sits in (the measured box on slotted layouts) and the assets it references.',
  group: 'block',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideId, blockId }),
  output: result({
    block: ref('Block'),
    box: { ...nullable(Box), description: 'The box it is drawn at in sheet px (its pos on a canvas, measured otherwise); null when it is not drawn.' },
    slot: { ...nullable(oneOf(SLOTS)), description: 'The slot it is filed in, on slotted layouts.' },
    assets: arr({ ...ref('Asset'), description: 'An asset record, or just { id } when the asset has none.' }, { description: 'The assets it references.' }),
    revision: CurrentRevision,
  }),
  cli: 'block get <slideId>#<blockId>',
  mcp: 'deck_get_block',
  human: humanResult,
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b1' },
  run: async (ctx, input: { slideId: string; blockId: string }) => {
    const doc = await ctx.target()
    const slide = findSlide(doc, input.slideId)
    const block = findBlock(slide, input.blockId)
    const box = (block.pos as object | undefined) ?? drawnBoxes(slide, themeFonts(doc.manifest)).get(block.id) ?? null
    return { block, box, slot: block.slot ?? null, assets: assetsOf(ctx, doc.manifest.id, block), revision: doc.manifest.revision }
  },
})

export const blockSet = defineAction({
  id: 'block.set',
  label: 'Set block property',
  doc:
    'Writes one property of a block at a JSON pointer inside the block (missing parent objects are made; - appends to an array); omitting value deletes the property. ' +
    'The block must stay valid for its kind. Setting /id renames the block and the connector ends attached to it. ' +
    'Setting /asset on a picture placeholder (a picture block with no asset, as slide.new and slide.insert put in a picture slot) to an asset id from asset.add fills it and keeps its id.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: { ...Pointer, description: 'JSON pointer inside the block, e.g. /key.' },
    value: opt(unknown('The new value (any JSON); omit to delete the property.')),
    baseRevision: BR,
  }),
  output: blockResult,
  cli: 'block set <slideId>#<blockId> <path> <value>',
  mcp: 'deck_update_block',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b1', path: '/text', value: 'Costs fell by two thirds.', baseRevision: 1 },
  run: (ctx, input: SetInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const block = findBlock(slide, input.blockId)
        const tokens = pointerTokens(input.path)
        if (!tokens.length) fail('invalid_input', 'The path must name a member inside the block, e.g. /text.', { pointer: '/path' })
        if (tokens.length === 1 && (tokens[0] === 'id' || tokens[0] === 'kind') && input.value === undefined) {
          fail('refused', `A block keeps its ${tokens[0]}; /${tokens[0]} cannot be removed.`, { pointer: '/path' })
        }
        if (tokens.length === 1 && tokens[0] === 'id') renameBlock(slide, block, input.value)
        else setAtPointer(block, tokens, structuredClone(input.value))
        if (isCanvas(slide) && ['pos', 'angle', 'flip', 'from', 'to', 'start', 'end'].includes(tokens[0])) followConnectors(slide, [block.id])
        return block.id
      },
      (slide, id) => ({ block: blockIn(slide, id) }),
    ),
})

export const blockInsert = defineAction({
  id: 'block.insert',
  label: 'Insert block',
  doc:
    'Inserts a block document into a slot, after a sibling or first; an id already used on the slide answers 409 id_taken. ' +
    'A block carrying pos on a non-canvas slide converts the slide first and lands as an object on top of the stack; on a canvas (freeform) slide slot may be omitted and is not kept. ' +
    'A slotted slide needs the slot.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    slot: opt(oneOf(SLOTS, { description: 'The slot the block is filed into: required on a slotted layout, not needed (and not kept) on a canvas slide or for a block carrying pos.' })),
    after: opt({ ...BlockId, description: 'The block it follows; first in the slot when absent.' }),
    block: BlockSchema,
    baseRevision: BR,
  }),
  output: written({ id: { ...BlockId, description: 'The id the block got.' }, block: { ...ref('Block'), description: 'The block after the write.' }, slide: ref('Slide') }),
  cli: 'block insert <slideId> --slot <slot> --after <after> < block.json',
  mcp: 'deck_insert_block',
  human: humanResult,
  stdinField: 'block',
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', slot: 'body', after: 'b1', block: { id: 'b3', kind: 'text', text: 'Margins grew by a third.' }, baseRevision: 1 },
  run: async (ctx, input: InsertInput) => {
    await checkInputBlock(input.block, '/block')
    return editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const block = structuredClone(input.block)
        let slide = findSlide(doc, input.slideId)
        if (block.pos !== undefined) slide = canvasSlide(doc, input.slideId)
        const slot = input.slot
        if (slot === undefined && !isCanvas(slide)) {
          fail('invalid_input', `Slide "${slide.id}" (layout ${slide.layout}) files its blocks into slots: name one with slot (${layoutSlots(slide.layout).join(', ')}), or give the block a pos to place it freely.`, { pointer: '/slot' })
        }
        checkAfter(slide, input.after, slot ?? '')
        const blocks = blocksOf(slide)
        if (blocks.some((b) => b.id === block.id)) fail('id_taken', `Slide "${slide.id}" already has a block "${block.id}"; give the block a free id (${nextBlockId(slide)} is free).`, { pointer: '/block/id' })
        if (isCanvas(slide)) {
          delete block.slot
          if (!block.pos && isPointLine(block)) {
            const [from, to] = lineEnds(block)
            setLineEnds(block, from, to)
          } else if (!block.pos) {
            const content = contentBox()
            block.pos = { x: content.x, y: content.y, w: content.w, h: Math.max(blockHeight(block, content.w, slide.layout, themeFonts(doc.manifest)), 40) }
          }
          const z = block.z
          delete block.z
          blocks.splice(input.after !== undefined ? blocks.findIndex((b) => b.id === input.after) + 1 : blocks.length, 0, block)
          const stack = stackOf(slide).filter((id) => id !== block.id)
          stack.push(block.id)
          setStack(slide, typeof z === 'number' ? restack(stack, block.id, { z }) : stack)
          if (block.kind === 'line') followConnectors(slide, [block.id])
        } else {
          block.slot = slot
          blocks.splice(slotIndex(blocks, slot!, input.after), 0, block)
        }
        return block.id
      },
      (slide, id) => ({ id, block: blockIn(slide, id) }),
    )
  },
})

export const blockRemove = defineAction({
  id: 'block.remove',
  label: 'Remove block',
  doc: 'Removes a block from its slide; connectors attached to it let go of it and stay where they are drawn.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, baseRevision: BR }),
  output: written({ removed: { ...BlockId, description: 'The id of the removed block.' }, detached: opt(arr(BlockId, { description: 'Connector lines that let go of it, when any.' })), slide: ref('Slide') }),
  cli: 'block remove <slideId>#<blockId>',
  mcp: 'deck_remove_block',
  human: humanResult,
  annotations: { destructive: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b2', baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockId: string; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        findBlock(slide, input.blockId)
        const detached = detachFrom(slide, new Set([input.blockId]))
        slide.blocks = blocksOf(slide).filter((b) => b.id !== input.blockId)
        dropLoneGroups(slide)
        return detached
      },
      (_slide, detached) => ({ removed: input.blockId, ...(detached.length ? { detached } : {}) }),
    ),
})

export const blockMove = defineAction({
  id: 'block.move',
  label: 'Move block',
  doc: 'Moves a block to a slot, after a sibling or first in the slot when after is absent. Slotted layouts only: canvas objects have boxes, not slots.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    slot: oneOf(SLOTS, { description: 'The target slot.' }),
    after: opt({ ...BlockId, description: 'The block it follows; first in the slot when absent.' }),
    baseRevision: BR,
  }),
  output: blockResult,
  cli: 'block move <slideId>#<blockId> --slot <slot> --after <after>',
  mcp: 'deck_move_block',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b1', slot: 'right', after: 'b2', baseRevision: 1 },
  run: (ctx, input: MoveInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const block = findBlock(slide, input.blockId)
        if (isCanvas(slide)) fail('refused', `Slide "${slide.id}" is a canvas: its objects have boxes, not slots. Use block.nudge or block.order.`, { pointer: '/slot' })
        checkAfter(slide, input.after, input.slot, block.id)
        const blocks = blocksOf(slide).filter((b) => b.id !== block.id)
        block.slot = input.slot
        blocks.splice(slotIndex(blocks, input.slot, input.after), 0, block)
        slide.blocks = blocks
        return block.id
      },
      (slide, id) => ({ block: blockIn(slide, id) }),
    ),
})

export const blockDuplicate = defineAction({
  id: 'block.duplicate',
  label: 'Duplicate blocks',
  doc:
    'Copies blocks with fresh ids, each after its original; a positioned copy sits 16 px right and down, on top of the stack. ' +
    'A copied group gets a fresh tag; copied connectors keep attachments to copied targets.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockIds, baseRevision: BR }),
  output: written({ blocks: arr(obj({ id: BlockId, from: BlockId }), { description: 'The copies: new id and the id it was copied from.' }), slide: ref('Slide') }),
  cli: 'block duplicate <slideId> --blocks <blockIds>',
  mcp: 'deck_duplicate_block',
  human: humanResult,
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2', 'b4'], baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockIds: string[]; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => duplicateBlocks(findSlide(doc, input.slideId), input.blockIds),
      (_slide, copies) => ({ blocks: copies }),
    ),
})

/**
 * Copies blocks in place: fresh ids, each right after its original; positioned copies offset by
 * 16 px and stacked on top in their original order; copies sharing a group tag share a fresh one (a
 * lone copy of a group member is ungrouped); copied connectors attach to the copies of their targets
 * and let go of targets that were not copied.
 */
export function duplicateBlocks(slide: Slide, ids: string[]): { id: string; from: string }[] {
  const originals = findBlocks(slide, ids)
  const taken = new Set<string>()
  const copyOf = new Map<string, string>()
  for (const original of originals) {
    const id = nextBlockId(slide, taken)
    taken.add(id)
    copyOf.set(original.id, id)
  }
  const tagCount = new Map<string, number>()
  for (const original of originals) if (typeof original.group === 'string') tagCount.set(original.group, (tagCount.get(original.group) ?? 0) + 1)
  const newTag = new Map<string, string>()
  const takenTags = new Set<string>()
  for (const [tag, count] of tagCount) {
    if (count < 2) continue
    const fresh = freshTag(slide, tag, takenTags)
    takenTags.add(fresh)
    newTag.set(tag, fresh)
  }
  const copies: Block[] = []
  for (const original of originals) {
    const copy = structuredClone(original)
    copy.id = copyOf.get(original.id)!
    if (typeof copy.group === 'string') {
      if (newTag.has(copy.group)) copy.group = newTag.get(copy.group)
      else delete copy.group
    }
    if (copy.pos) {
      if (isPointLine(copy)) {
        const [from, to] = lineEnds(copy)
        setLineEnds(copy, { x: from.x + DUPLICATE_OFFSET, y: from.y + DUPLICATE_OFFSET }, { x: to.x + DUPLICATE_OFFSET, y: to.y + DUPLICATE_OFFSET })
      } else {
        const pos = copy.pos as { x: number; y: number; w: number; h: number }
        copy.pos = { ...pos, x: pos.x + DUPLICATE_OFFSET, y: pos.y + DUPLICATE_OFFSET }
      }
    }
    if (copy.kind === 'line') {
      for (const end of ['start', 'end'] as const) {
        const attachment = copy[end] as { block: string } | undefined
        if (!attachment) continue
        if (copyOf.has(attachment.block)) attachment.block = copyOf.get(attachment.block)!
        else delete copy[end]
      }
      if (!copy.start && !copy.end) delete copy.connector
    }
    copies.push(copy)
  }
  const blocks = blocksOf(slide)
  originals.forEach((original, i) => blocks.splice(blocks.indexOf(original) + 1, 0, copies[i]))
  const positioned = copies.filter((c) => c.pos).sort((a, b) => ((a.z as number) ?? 0) - ((b.z as number) ?? 0))
  let z = topZ(slide)
  for (const copy of positioned) copy.z = z++
  followConnectors(slide, copies.filter((c) => c.kind === 'line').map((c) => c.id))
  return copies.map((copy, i) => ({ id: copy.id, from: originals[i].id }))
}
