import { defineAction } from '../../core/action.js'
import { BlockSchema } from '../../model/deck.js'
import { SLOTS } from '../../model/layouts.js'
import { BlockId, BR, obj, oneOf, opt, outline, Pointer, unknown } from '../../model/schema.js'
import { blockId, blockIds, slideId } from './common.js'

const blockResult = outline({ block: 'The block after the write.', slide: 'The normalized slide.', revision: 'The new revision.' })

export const blockGet = defineAction({
  id: 'block.get',
  label: 'Get block',
  doc: 'Reads one block: its document, the slot or box it sits in (the measured box on slotted layouts) and the assets it references.',
  group: 'block',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideId, blockId }),
  output: outline({
    block: 'The normalized block document.',
    box: 'The box it is drawn at in sheet px (its pos on a canvas, measured otherwise).',
    slot: 'The slot it is filed in, on slotted layouts.',
    assets: 'The assets it references.',
    revision: 'The current revision.',
  }),
  cli: 'block get <slideId>#<blockId>',
  mcp: 'deck_get_block',
  example: { slideId: 'title-body-2', blockId: 'b1' },
})

export const blockSet = defineAction({
  id: 'block.set',
  label: 'Set block property',
  doc: 'Writes one property of a block at a JSON pointer inside the block; omitting value deletes the property.',
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
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', blockId: 'b1', path: '/text', value: 'Why now', baseRevision: 3 },
})

export const blockInsert = defineAction({
  id: 'block.insert',
  label: 'Insert block',
  doc: 'Inserts a block document into a slot, after a sibling or first. A block carrying pos on a non-canvas slide converts the slide first and lands as an object.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    slot: oneOf(SLOTS, { description: 'The slot the block is filed into.' }),
    after: opt({ ...BlockId, description: 'The block it follows; first in the slot when absent.' }),
    block: BlockSchema,
    baseRevision: BR,
  }),
  output: blockResult,
  cli: 'block insert <slideId> --slot <slot> --after <after> < block.json',
  mcp: 'deck_insert_block',
  stdinField: 'block',
  example: { slideId: 'title-body-2', slot: 'body', block: { id: 'b2', kind: 'text', text: 'Costs fell by half.' }, baseRevision: 3 },
})

export const blockRemove = defineAction({
  id: 'block.remove',
  label: 'Remove block',
  doc: 'Removes a block from its slide.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId, baseRevision: BR }),
  output: outline({ removed: 'The id of the removed block.', slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'block remove <slideId>#<blockId>',
  mcp: 'deck_remove_block',
  annotations: { destructive: true },
  example: { slideId: 'title-body-2', blockId: 'b2', baseRevision: 3 },
})

export const blockMove = defineAction({
  id: 'block.move',
  label: 'Move block',
  doc: 'Moves a block to a slot, after a sibling or first in the slot when after is absent.',
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
  annotations: { idempotent: true },
  example: { slideId: 'two-columns-3', blockId: 'b2', slot: 'right', baseRevision: 3 },
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
  output: outline({ blocks: 'The copies: new id and the id it was copied from.', slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'block duplicate <slideId> --blocks <blockIds>',
  mcp: 'deck_duplicate_block',
  example: { slideId: 'freeform-3', blockIds: ['b1', 'b2'], baseRevision: 3 },
})
