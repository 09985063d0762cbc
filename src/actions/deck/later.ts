/**
 * Assistant proposals (src/comments/assist.ts, docs/comments.md "Proposals"): assist.propose asks a
 * language model (MCP sampling of a connected client, else STUDIO_ASSIST_URL) and stores its answer as a
 * reviewable comment thread; assist.apply applies it as one write.
 */
import { defineAction } from '../../core/action.js'
import { arr, obj, oneOf, opt, SlideId, SlideIds, str, BR, int } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { MUTATION_KINDS } from '../slide/mutations.js'
import { COMMENTS_DECK, Thread } from '../comment/schemas.js'
import { WITH_BODY_SLIDE, WITH_PROPOSAL } from '../given.js'

const handlers = () => import('../comment/run.js')

export const assistPropose = defineAction({
  id: 'assist.propose',
  label: 'Ask for a proposal',
  doc:
    'Asks an assistant for a proposal over named slides: a shorter rewrite (shorten), speaker notes (notes), or a free ask (ask). The assistant is an MCP client connected to this studio that offers sampling, else the OpenAI-compatible endpoint STUDIO_ASSIST_URL (a local llama.cpp or Ollama server); with neither it answers 503. ' +
    'The answer is checked (only the slides named, text.replace and notes.set mutations that apply) and stored as a comment thread on the first slide, which people review like any thread; assist.apply applies it. The deck itself is not changed.',
  group: 'deck',
  milestone: 'M8',
  mutates: true,
  transports: 'MHP',
  deck: COMMENTS_DECK,
  capability: 'comment',
  input: obj({ slideIds: SlideIds, kind: oneOf(['shorten', 'notes', 'ask']), ask: opt(str({ maxLength: 2000, description: 'The free ask (kind ask).' })) }),
  output: written({
    proposalId: str({ description: 'The id assist.apply takes: the thread holding the proposal.' }),
    mutations: arr(
      obj({ slideId: SlideId, mutations: arr({ type: 'object', required: ['kind'], properties: { kind: oneOf(MUTATION_KINDS) }, additionalProperties: true, description: 'A slide.update mutation (its members: slide.update input).' }) }),
      { description: 'slide.update mutations per slide.' },
    ),
    summary: str({ description: "The assistant's summary of what it proposes." }),
    thread: { ...Thread, description: 'The thread holding the proposal.' },
    baseRevision: int({ minimum: 0, description: 'The comments revision after the write.' }),
    revision: RevisionIfWritten,
  }),
  cli: null,
  mcp: null,
  given: WITH_BODY_SLIDE,
  example: { slideIds: ['title-body-2'], kind: 'shorten' },
  prepare: async (ctx, input) => (await handlers()).prepareProposal(ctx, input),
  run: async (ctx, input, proposal) => (await handlers()).propose(ctx, input, proposal),
})

export const assistApply = defineAction({
  id: 'assist.apply',
  label: 'Apply a proposal',
  doc: "Applies a proposal from assist.propose as one write of the deck (its mutations, by slide.update's rules) under baseRevision, and resolves its thread with a reply naming the revision.",
  group: 'deck',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  input: obj({ proposalId: str({ minLength: 1 }), baseRevision: BR }),
  output: written({ changed: arr(SlideId, { description: 'The slide ids changed.' }) }),
  cli: 'assist apply <proposalId>',
  mcp: 'deck_apply_proposal',
  given: WITH_PROPOSAL,
  example: { proposalId: 't-21x4xw3gk7', baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).applyProposal(ctx, input),
})
