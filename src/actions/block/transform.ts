import { defineAction } from '../../core/action.js'
import { bool, BR, num, obj, oneOf, opt, outline } from '../../model/schema.js'
import { given, targetAsList, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'

const about = opt(oneOf(['each', 'selection'], { default: 'each', description: 'each turns every object about its own centre; selection moves members around the union centre.' }))
const moved = outline({ blocks: 'The changed blocks with their boxes and angles.', slide: 'The normalized slide.', revision: 'The new revision.' })

export const ANCHORS = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const

export const blockRotate = defineAction({
  id: 'block.rotate',
  label: 'Rotate blocks',
  doc:
    'Rotates objects to an angle or by added degrees, clockwise, normalized to 0 up to 360. About the selection the members move around the union centre; ' +
    'attached connectors follow; converts a non-canvas slide first.',
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
  cliInput: (parsed) => targetAsList(parsed),
  example: { slideId: 'freeform-3', blockIds: ['b1'], by: 15, baseRevision: 3 },
})

export const blockFlip = defineAction({
  id: 'block.flip',
  label: 'Flip blocks',
  doc:
    'Toggles one flip axis of objects. About the selection each member also mirrors about the union centre and its angle becomes 360 minus itself; connectors follow.',
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
  cliInput: (parsed) => targetAsList(parsed),
  example: { slideId: 'freeform-3', blockIds: ['b1'], axis: 'h', baseRevision: 3 },
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
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockId: 'b1', w: 640, h: 360, anchor: 'center', baseRevision: 3 },
})

export const blockNudge = defineAction({
  id: 'block.nudge',
  label: 'Nudge blocks',
  doc: 'Moves objects by an offset in sheet px (positive is right and down); snap rounds moved edges to the 8 px grid. Connectors follow; converts a non-canvas slide first.',
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
  example: { slideId: 'freeform-3', blockIds: ['b1', 'b2'], dx: 8, dy: 0, baseRevision: 3 },
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
  output: outline({ blocks: 'The named blocks with their locked state.', revision: 'The new revision.' }),
  cli: 'block lock <slideId> --blocks <blockIds> --off',
  mcp: 'deck_lock_blocks',
  cliInput: (parsed) => ({ ...without(parsed.input, ['off']), locked: !given(parsed, 'off') }),
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockIds: ['logo'], locked: true, baseRevision: 3 },
})
