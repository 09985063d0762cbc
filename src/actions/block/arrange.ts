import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { findBlock } from '../../model/edit.js'
import { alignBoxes, alignTarget, distributeBoxes, edgeAxis, restack, snapEdge, type Edge, type StackMove } from '../../model/arrange.js'
import { arr, BlockId, bool, BR, int, num, obj, oneOf, opt, ref } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { contentBox, SHEET } from '../../layout/index.js'
import { canvasSlide, editSlide, findBlocks, followConnectors, moveTo, placedOf, posOf, setStack, stackOf, humanResult } from './canvas.js'
import { blockId, blockIds, slideId } from './common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

interface AlignInput {
  slideId: string
  blockIds: string[]
  edge: Edge
  to?: 'selection' | 'content' | 'sheet'
  snap?: boolean
  baseRevision: number
}

interface DistributeInput {
  slideId: string
  blockIds: string[]
  axis: 'horizontal' | 'vertical'
  gap?: number
  snap?: boolean
  baseRevision: number
}

interface OrderInput {
  slideId: string
  blockId: string
  move?: StackMove
  z?: number
  baseRevision: number
}

const arranged = written({ blocks: arr(ref('Placed'), { description: 'The moved blocks with their boxes.' }), slide: ref('Slide') })
const aligned = written({
  to: oneOf(['selection', 'content', 'sheet'], { description: 'What the blocks were aligned to.' }),
  at: num({ description: 'The coordinate of the edge they share now (sheet px).' }),
  blocks: arr(ref('Placed'), { description: 'The moved blocks with their boxes.' }),
  slide: ref('Slide'),
})

export const blockAlign = defineAction({
  id: 'block.align',
  label: 'Align blocks',
  doc:
    'Aligns objects of a freeform slide on one edge, against the selection, the content box or the sheet; converts a non-canvas slide first. ' +
    "Against the selection the shared edge is the extreme object's own edge unless snap is true (then the nearest guide within 8 px, else the 8 px grid); " +
    'slide and content-box edges are exact. Boxes are the unrotated position boxes; connectors follow.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    edge: oneOf(['left', 'center', 'right', 'top', 'middle', 'bottom'], { description: 'left, center, right move x; top, middle, bottom move y.' }),
    to: opt(oneOf(['selection', 'content', 'sheet'], { description: 'What to align against; selection for several blocks, sheet for one, when unset.' })),
    snap: opt(bool({ default: false, description: "Snap the selection's shared edge to guides and grid; never applied to slide or content-box edges." })),
    baseRevision: BR,
  }),
  output: aligned,
  cli: 'block align <slideId> --blocks <blockIds> --edge <edge> --to <to>',
  mcp: 'deck_align_blocks',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b5'], edge: 'left', baseRevision: 2 },
  run: (ctx, input: AlignInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const blocks = findBlocks(slide, input.blockIds)
        const boxes = blocks.map(posOf)
        const to = input.to ?? (blocks.length > 1 ? 'selection' : 'sheet')
        const frame = to === 'sheet' ? { x: 0, y: 0, w: SHEET.width, h: SHEET.height } : to === 'content' ? contentBox() : undefined
        let target = alignTarget(boxes, input.edge, frame)
        if (to === 'selection' && input.snap) {
          const guides = edgeAxis(input.edge) === 'x' ? doc.manifest.guides?.vertical : doc.manifest.guides?.horizontal
          target = snapEdge(target, guides)
        }
        alignBoxes(boxes, input.edge, target).forEach((box, i) => moveTo(blocks[i], box))
        followConnectors(slide, input.blockIds)
        return { to, target }
      },
      (slide, { to, target }) => ({ to, at: target, blocks: placedOf(slide, input.blockIds) }),
    ),
})

export const blockDistribute = defineAction({
  id: 'block.distribute',
  label: 'Distribute blocks',
  doc:
    'Spaces objects along an axis in the order of their centres: the first and last stay and the gaps between neighbours become equal, ' +
    'or with a fixed gap the first stays and each next follows it by the gap; snap rounds moved edges to the 8 px grid. Converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds: { ...blockIds, minItems: 2 },
    axis: oneOf(['horizontal', 'vertical'], { description: 'The axis to distribute along.' }),
    gap: opt(num({ minimum: 0, description: 'A fixed gap in px instead of equal spacing.' })),
    snap: opt(bool({ description: 'Round moved edges to the 8 px grid.' })),
    baseRevision: BR,
  }),
  output: arranged,
  cli: 'block distribute <slideId> --blocks <blockIds> --axis <axis> --gap <gap>',
  mcp: 'deck_distribute_blocks',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2', 'b3'], axis: 'horizontal', baseRevision: 2 },
  run: (ctx, input: DistributeInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const blocks = findBlocks(slide, input.blockIds)
        const boxes = blocks.map(posOf)
        distributeBoxes(boxes, input.axis === 'horizontal' ? 'x' : 'y', { gap: input.gap, snap: input.snap }).forEach((box, i) => moveTo(blocks[i], box))
        followConnectors(slide, input.blockIds)
      },
      (slide) => ({ blocks: placedOf(slide, input.blockIds) }),
    ),
})

export const blockOrder = defineAction({
  id: 'block.order',
  label: 'Order block',
  doc: 'Moves an object in the stack (front, back, forward, backward) or to a rank (0 at the back; give move or z); the stack is renumbered densely. Converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    move: opt(oneOf(['front', 'back', 'forward', 'backward'], { description: 'Where to move it in the stack.' })),
    z: opt(int({ minimum: 0, description: 'Target rank, 0 at the back.' })),
    baseRevision: BR,
  }),
  output: written({ order: arr(BlockId, { description: 'Block ids from back to front.' }), z: int({ minimum: 0, description: 'The rank the block has now.' }), slide: ref('Slide') }),
  cli: 'block order <slideId>#<blockId> --move <move> --z <z>',
  mcp: 'deck_order_block',
  human: humanResult,
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b1', move: 'front', baseRevision: 2 },
  run: (ctx, input: OrderInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        if ((input.move === undefined) === (input.z === undefined)) fail('invalid_input', 'Give either move or z.', { pointer: input.move === undefined ? '/move' : '/z' })
        const slide = canvasSlide(doc, input.slideId)
        findBlock(slide, input.blockId)
        setStack(slide, restack(stackOf(slide), input.blockId, input))
      },
      (slide) => ({ order: stackOf(slide), z: slide.blocks!.find((b) => b.id === input.blockId)!.z }),
    ),
})
