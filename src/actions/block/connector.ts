import { defineAction } from '../../core/action.js'
import { BlockId, BR, obj, oneOf, opt, outline } from '../../model/schema.js'
import { blockId, slideId } from './common.js'

const SIDES = ['auto', 'top', 'right', 'bottom', 'left', 'center'] as const
const side = (end: string) => opt(oneOf(SIDES, { default: 'auto', description: `Where the line meets the ${end} block; the nearest side when auto or absent.` }))

export const blockConnect = defineAction({
  id: 'block.connect',
  label: 'Connect blocks',
  doc:
    'Attaches a connector line from one object to another, so the line follows when either moves, rotates or flips. ' +
    'Names an existing line with lineId, else inserts a new connector line; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    from: { ...BlockId, description: 'The block the line starts at.' },
    to: { ...BlockId, description: 'The block the line ends at.' },
    lineId: opt({ ...BlockId, description: 'An existing line to attach; a new connector line is inserted when absent.' }),
    fromSide: side('start'),
    toSide: side('end'),
    baseRevision: BR,
  }),
  output: outline({ line: 'The connector line block with its attachments.', slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'block connect <slideId> --from <from> --to <to> --line <lineId> --from-side <fromSide> --to-side <toSide>',
  mcp: 'deck_connect_blocks',
  example: { slideId: 'freeform-3', from: 'b1', to: 'b2', baseRevision: 3 },
})

export const blockDisconnect = defineAction({
  id: 'block.disconnect',
  label: 'Disconnect line',
  doc: 'Detaches one or both ends of a connector line from their blocks; the line stays where it is drawn.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId: { ...blockId, description: 'The connector line.' },
    end: opt(oneOf(['start', 'end', 'both'], { default: 'both', description: 'Which end to detach; both when absent.' })),
    baseRevision: BR,
  }),
  output: outline({ line: 'The line block after the write.', revision: 'The new revision.' }),
  cli: 'block disconnect <slideId>#<blockId> --end <end>',
  mcp: 'deck_disconnect_blocks',
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockId: 'b5', end: 'both', baseRevision: 3 },
})
