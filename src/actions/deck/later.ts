/**
 * Declared, not built: assist.propose and assist.apply need an assistant backend this project does not have, so they answer 501.
 */
import { defineAction } from '../../core/action.js'
import { arr, BR, obj, oneOf, opt, SlideId, SlideIds, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { MUTATION_KINDS } from '../slide/mutations.js'

export const assistPropose = defineAction({
  id: 'assist.propose',
  label: 'Ask for a proposal',
  doc: 'Asks an assistant for a proposal over named slides: a shorter rewrite, speaker notes, or a free ask. Nothing is written; the proposal is returned for assist.apply.',
  group: 'deck',
  milestone: 'M8',
  mutates: false,
  transports: 'MHP',
  input: obj({ slideIds: SlideIds, kind: oneOf(['shorten', 'notes', 'ask']), ask: opt(str({ maxLength: 2000, description: 'The free ask (kind ask).' })) }),
  output: planned(result({
    proposalId: str({ description: 'The id assist.apply takes.' }),
    mutations: arr(
      obj({ slideId: SlideId, mutations: arr({ type: 'object', required: ['kind'], properties: { kind: oneOf(MUTATION_KINDS) }, additionalProperties: true, description: 'A slide.update mutation (its members: slide.update input).' }) }),
      { description: 'slide.update mutations per slide.' },
    ),
    summary: str({ description: 'Prose.' }),
  })),
  cli: null,
  mcp: null,
  example: { slideIds: ['title-body-2'], kind: 'shorten' },
})

export const assistApply = defineAction({
  id: 'assist.apply',
  label: 'Apply a proposal',
  doc: 'Applies a proposal from assist.propose as one write (its mutations, through slide.update rules).',
  group: 'deck',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  input: obj({ proposalId: str({ minLength: 1 }), baseRevision: BR }),
  output: planned(written({ changed: arr(SlideId, { description: 'The slide ids changed.' }) })),
  cli: 'assist apply <proposalId>',
  mcp: 'deck_apply_proposal',
  example: { proposalId: 'p-1a2b', baseRevision: 3 },
})
