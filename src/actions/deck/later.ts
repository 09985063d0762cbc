/**
 * Declared, not built: assist.propose and assist.apply need an assistant backend this project does not have, so they answer 501.
 */
import { defineAction } from '../../core/action.js'
import { BR, obj, oneOf, opt, outline, SlideIds, str } from '../../model/schema.js'

export const assistPropose = defineAction({
  id: 'assist.propose',
  label: 'Ask for a proposal',
  doc: 'Asks an assistant for a proposal over named slides: a shorter rewrite, speaker notes, or a free ask. Nothing is written; the proposal is returned for assist.apply.',
  group: 'deck',
  milestone: 'M8',
  mutates: false,
  transports: 'MHP',
  input: obj({ slideIds: SlideIds, kind: oneOf(['shorten', 'notes', 'ask']), ask: opt(str({ maxLength: 2000, description: 'The free ask (kind ask).' })) }),
  output: outline({ proposalId: 'id to apply', mutations: 'slide.update mutations per slide', summary: 'prose' }),
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
  output: outline({ changed: 'slide ids', revision: 'new revision' }),
  cli: 'assist apply <proposalId>',
  mcp: 'deck_apply_proposal',
  example: { proposalId: 'p-1a2b', baseRevision: 3 },
})
