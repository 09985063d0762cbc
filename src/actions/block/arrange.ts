import { defineAction } from '../../core/action.js'
import { bool, BR, int, num, obj, oneOf, opt, outline } from '../../model/schema.js'
import { blockId, blockIds, slideId } from './common.js'

const arranged = outline({ blocks: 'The moved blocks with their boxes.', slide: 'The normalized slide.', revision: 'The new revision.' })

export const blockAlign = defineAction({
  id: 'block.align',
  label: 'Align blocks',
  doc:
    'Aligns objects of a freeform slide on one edge, against the selection, the content box or the sheet; converts a non-canvas slide first. ' +
    "Against the selection the shared edge is the extreme object's own edge unless snap is true; slide and content-box edges are exact.",
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
  output: arranged,
  cli: 'block align <slideId> --blocks <blockIds> --edge <edge> --to <to>',
  mcp: 'deck_align_blocks',
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockIds: ['logo', 'title'], edge: 'left', baseRevision: 3 },
})

export const blockDistribute = defineAction({
  id: 'block.distribute',
  label: 'Distribute blocks',
  doc: 'Spaces objects with equal gaps between the first and last block along an axis, or with a fixed gap; snap rounds moved edges to the 8 px grid.',
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
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockIds: ['b1', 'b2', 'b3'], axis: 'horizontal', baseRevision: 3 },
})

export const blockOrder = defineAction({
  id: 'block.order',
  label: 'Order block',
  doc: 'Moves an object in the stack (front, back, forward, backward) or to a rank (0 at the back); the stack is renumbered densely.',
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
  output: outline({ order: 'Block ids from back to front.', slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'block order <slideId>#<blockId> --move <move> --z <z>',
  mcp: 'deck_order_block',
  example: { slideId: 'freeform-3', blockId: 'b1', move: 'front', baseRevision: 3 },
})
