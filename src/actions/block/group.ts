import { defineAction } from '../../core/action.js'
import { BR, obj, opt, outline, str } from '../../model/schema.js'
import { blockIds, slideId } from './common.js'

const tag = (description: string) => str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 120, description })
const grouped = outline({ group: 'The group tag.', blockIds: 'The members.', slide: 'The normalized slide.', revision: 'The new revision.' })

export const blockGroup = defineAction({
  id: 'block.group',
  label: 'Group blocks',
  doc: 'Tags two or more objects as one group in one write; converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds: { ...blockIds, minItems: 2, description: 'Two or more objects.' },
    group: opt(tag('The group tag; generated when absent.')),
    baseRevision: BR,
  }),
  output: grouped,
  cli: 'block group <slideId> --blocks <blockIds> --as <group>',
  mcp: 'deck_group_blocks',
  example: { slideId: 'freeform-3', blockIds: ['b1', 'b2'], group: 'hero', baseRevision: 3 },
})

export const blockUngroup = defineAction({
  id: 'block.ungroup',
  label: 'Ungroup blocks',
  doc: 'Removes the group tag from the named objects, or from every member of the named group.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds: opt({ ...blockIds, description: 'The objects to take out of their group.' }),
    group: opt(tag('The group whose members are all ungrouped.')),
    baseRevision: BR,
  }),
  output: grouped,
  cli: 'block ungroup <slideId> --group <group> --blocks <blockIds>',
  mcp: 'deck_ungroup_blocks',
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', group: 'hero', baseRevision: 3 },
})

export const blockRegroup = defineAction({
  id: 'block.regroup',
  label: 'Regroup blocks',
  doc: 'Writes a group tag back onto objects (the set remembered from the last ungroup).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockIds, group: tag('The group tag to write back.'), baseRevision: BR }),
  output: grouped,
  cli: 'block regroup <slideId> --blocks <blockIds> --as <group>',
  mcp: 'deck_regroup_blocks',
  annotations: { idempotent: true },
  example: { slideId: 'freeform-3', blockIds: ['b1', 'b2'], group: 'hero', baseRevision: 3 },
})
