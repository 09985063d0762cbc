import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block } from '../../model/deck.js'
import { findBlock, findSlide } from '../../model/edit.js'
import {
  centreOf,
  flipPlacements,
  lineBox,
  mirrorPoint,
  resizeBox,
  rotatePlacements,
  rotatePoint,
  selectionCentre,
  snapToGrid,
  type Placement,
  type Point,
} from '../../model/arrange.js'
import { wrapAngle as normalizeAngle } from '../../model/arrange.js'
import { arr, BlockId, bool, BR, num, obj, oneOf, opt, ref } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { given, targetAsList, without } from './cli.js'
import { canvasSlide, editSlide, findBlocks, followConnectors, isPointLine, lineEnds, moveTo, placedOf, placementOf, posOf, setLineEnds, setPlacement, humanResult } from './canvas.js'
import { blockId, blockIds, slideId } from './common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

type About = 'each' | 'selection'

interface RotateInput {
  slideId: string
  blockIds: string[]
  to?: number
  by?: number
  about?: About
  baseRevision: number
}

interface FlipInput {
  slideId: string
  blockIds: string[]
  axis: 'h' | 'v'
  about?: About
  baseRevision: number
}

/** How an object counts in a selection: a point line as the box of its points, unturned. */
function selectionPlacement(block: Block): Placement {
  if (!isPointLine(block)) return placementOf(block)
  const [from, to] = lineEnds(block)
  return { box: lineBox(from, to), angle: 0, flip: {} }
}

/** The direction of a point line, degrees clockwise from pointing right; the angle of any other object. */
function angleOf(block: Block): number {
  if (!isPointLine(block)) return placementOf(block).angle
  const [from, to] = lineEnds(block)
  return normalizeAngle((Math.atan2(to.y - from.y, to.x - from.x) * 180) / Math.PI)
}

function lineCentre(block: Block): Point {
  const [from, to] = lineEnds(block)
  return centreOf(lineBox(from, to))
}

/** Turns objects by per-object degrees, each about its centre or all about one pivot. */
export function rotateBlocks(blocks: Block[], degrees: (block: Block) => number, pivot?: Point): void {
  for (const block of blocks) {
    const delta = degrees(block)
    if (isPointLine(block)) {
      const about = pivot ?? lineCentre(block)
      const [from, to] = lineEnds(block)
      setLineEnds(block, rotatePoint(from, about, delta), rotatePoint(to, about, delta))
    } else setPlacement(block, rotatePlacements([placementOf(block)], delta, pivot)[0])
  }
}

/** Mirrors objects on one axis, each about its centre or all about one pivot. */
export function flipBlocks(blocks: Block[], axis: 'h' | 'v', pivot?: Point): void {
  for (const block of blocks) {
    if (isPointLine(block)) {
      const about = pivot ?? lineCentre(block)
      const [from, to] = lineEnds(block)
      setLineEnds(block, mirrorPoint(from, axis, about), mirrorPoint(to, axis, about))
    } else setPlacement(block, flipPlacements([placementOf(block)], axis, pivot)[0])
  }
}

const about = opt(oneOf(['each', 'selection'], { default: 'each', description: 'each turns every object about its own centre; selection moves members around the union centre.' }))
const moved = written({ blocks: arr(ref('Placed'), { description: 'The changed blocks with their boxes and angles.' }), slide: ref('Slide') })

export const ANCHORS = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const

export const blockRotate = defineAction({
  id: 'block.rotate',
  label: 'Rotate blocks',
  doc:
    'Rotates objects to an angle or by added degrees (give one), clockwise, normalized to 0 up to 360. About the selection the members move around the union centre ' +
    '(of what they cover on screen) and to turns every member by what brings the first one to that angle; a line drawn between points turns its points. ' +
    'Attached connectors follow; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    to: opt(num({ description: 'The angle in degrees, clockwise.' })),
    by: opt(num({ description: 'Degrees added, clockwise.' })),
    about,
    baseRevision: BR,
  }),
  output: moved,
  cli: 'block rotate <slideId>#<blockId> --to <to> --by <by> --about <about>',
  mcp: 'deck_rotate_block',
  human: humanResult,
  cliInput: (parsed) => targetAsList(parsed),
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1'], by: 15, baseRevision: 2 },
  run: (ctx, input: RotateInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        if (input.to === undefined && input.by === undefined) fail('invalid_input', 'Give to (an angle) or by (degrees to add).', { pointer: '/by' })
        if (input.to !== undefined && input.by !== undefined) fail('invalid_input', 'Give to or by, not both.', { pointer: '/by' })
        const slide = canvasSlide(doc, input.slideId)
        const blocks = findBlocks(slide, input.blockIds)
        const selection = input.about === 'selection'
        const pivot = selection ? selectionCentre(blocks.map(selectionPlacement)) : undefined
        // About the selection, `to` turns every member by what brings the first one to that angle.
        const reference = angleOf(blocks[0])
        rotateBlocks(blocks, (block) => input.by ?? input.to! - (selection ? reference : angleOf(block)), pivot)
        followConnectors(slide, input.blockIds)
      },
      (slide) => ({ blocks: placedOf(slide, input.blockIds) }),
    ),
})

export const blockFlip = defineAction({
  id: 'block.flip',
  label: 'Flip blocks',
  doc:
    'Toggles one flip axis of objects. About the selection each member also mirrors about the union centre and its angle becomes 360 minus itself; ' +
    'a line drawn between points mirrors its points. Connectors follow; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    axis: oneOf(['h', 'v'], { description: 'h flips left to right, v top to bottom.' }),
    about,
    baseRevision: BR,
  }),
  output: moved,
  cli: 'block flip <slideId>#<blockId> --axis <axis> --about <about>',
  mcp: 'deck_flip_block',
  human: humanResult,
  cliInput: (parsed) => targetAsList(parsed),
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2'], axis: 'h', about: 'selection', baseRevision: 2 },
  run: (ctx, input: FlipInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const blocks = findBlocks(slide, input.blockIds)
        const pivot = input.about === 'selection' ? selectionCentre(blocks.map(selectionPlacement)) : undefined
        flipBlocks(blocks, input.axis, pivot)
        followConnectors(slide, input.blockIds)
      },
      (slide) => ({ blocks: placedOf(slide, input.blockIds) }),
    ),
})

export const blockResize = defineAction({
  id: 'block.resize',
  label: 'Resize block',
  doc:
    'Sets the width and/or height of an object in sheet px, keeping the anchor point fixed (top-left when absent); a side left out keeps its size. ' +
    'Attached connectors follow; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    w: opt(num({ exclusiveMinimum: 0, description: 'New width in sheet px.' })),
    h: opt(num({ exclusiveMinimum: 0, description: 'New height in sheet px.' })),
    anchor: opt(oneOf(ANCHORS, { default: 'top-left', description: 'The point of the box that stays where it is.' })),
    baseRevision: BR,
  }),
  output: moved,
  cli: 'block resize <slideId>#<blockId> --w <w> --h <h> --anchor <anchor>',
  mcp: 'deck_resize_block',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b1', w: 320, h: 240, anchor: 'center', baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; w?: number; h?: number; anchor?: string; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        if (input.w === undefined && input.h === undefined) fail('invalid_input', 'Give w, h or both.', { pointer: '/w' })
        const slide = canvasSlide(doc, input.slideId)
        const block = findBlock(slide, input.blockId)
        moveTo(block, resizeBox(posOf(block), { w: input.w, h: input.h }, input.anchor))
        followConnectors(slide, [block.id])
      },
      (slide) => ({ blocks: placedOf(slide, [input.blockId]) }),
    ),
})

export const blockNudge = defineAction({
  id: 'block.nudge',
  label: 'Nudge blocks',
  doc: 'Moves objects by an offset in sheet px (positive is right and down); snap rounds the edges that moved (x when dx, y when dy) to the 8 px grid. Connectors follow; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    dx: opt(num({ description: 'Horizontal offset in px; 0 when absent.' })),
    dy: opt(num({ description: 'Vertical offset in px; 0 when absent.' })),
    snap: opt(bool({ description: 'Round moved edges to the 8 px grid.' })),
    baseRevision: BR,
  }),
  output: moved,
  cli: 'block nudge <slideId> --blocks <blockIds> --dx <dx> --dy <dy> --snap',
  mcp: 'deck_nudge_blocks',
  human: humanResult,
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2'], dx: 8, dy: 0, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockIds: string[]; dx?: number; dy?: number; snap?: boolean; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const dx = input.dx ?? 0
        const dy = input.dy ?? 0
        for (const block of findBlocks(slide, input.blockIds)) {
          const box = posOf(block)
          let x = box.x + dx
          let y = box.y + dy
          if (input.snap && dx) x = snapToGrid(x)
          if (input.snap && dy) y = snapToGrid(y)
          moveTo(block, { ...box, x, y })
        }
        followConnectors(slide, input.blockIds)
      },
      (slide) => ({ blocks: placedOf(slide, input.blockIds) }),
    ),
})

export const blockLock = defineAction({
  id: 'block.lock',
  label: 'Lock blocks',
  doc: 'Locks objects so the editor will not move, resize or rotate them by pointer (the locked field on the block), or unlocks them.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    locked: bool({ description: 'true locks, false unlocks.' }),
    baseRevision: BR,
  }),
  output: written({ blocks: arr(obj({ id: BlockId, locked: bool() }), { description: 'The named blocks with their locked state.' }), slide: ref('Slide') }),
  cli: 'block lock <slideId> --blocks <blockIds> --off',
  mcp: 'deck_lock_blocks',
  human: humanResult,
  cliInput: (parsed) => ({ ...without(parsed.input, ['off']), locked: given(parsed, 'off') ? false : (parsed.input.locked ?? true) }),
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b3'], locked: true, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockIds: string[]; locked: boolean; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        for (const block of findBlocks(findSlide(doc, input.slideId), input.blockIds)) {
          if (input.locked) block.locked = true
          else delete block.locked
        }
      },
      (slide) => ({ blocks: (slide.blocks ?? []).filter((b) => input.blockIds.includes(b.id)).map((b) => ({ id: b.id, locked: b.locked === true })) }),
    ),
})
