import { defineAction } from '../../core/action.js'
import { arr, bool, BR, DeckId, obj, oneOf, openObj, opt, outline, SlideId, SlideIds, str } from '../../model/schema.js'

export const deckTailor = defineAction({
  id: 'deck.tailor',
  label: 'Tailor a deck for a customer',
  doc: 'Case-insensitive find and replace over every visible text and the notes (the customer name), swaps pictures whose alt text names the old customer for one logo asset, and skips the named slides, in one write. Result: counts per step and the slides that changed.',
  group: 'deck',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    replacements: opt(arr(obj({ from: str({ minLength: 1 }), to: str() }), { description: 'Find and replace pairs.' })),
    logo: opt(obj({ assetId: str({ minLength: 1 }), replaceAlt: opt(str({ description: 'Alt text naming the pictures to swap.' })) })),
    skip: opt(arr(SlideId, { description: 'Slides to skip.' })),
    baseRevision: BR,
  }),
  output: outline({ counts: 'replacements, logos swapped, slides skipped', changed: 'slide ids that changed' }),
  cli: 'tailor --replace <from>=<to> --skip <skip> --logo <assetId> --logo-alt <replaceAlt>',
  mcp: 'deck_tailor',
  example: { replacements: [{ from: 'Acme', to: 'Globex' }], skip: ['pricing-3'], baseRevision: 3 },
})

export const importRun = defineAction({
  id: 'import.run',
  label: 'Import a prototype deck',
  doc: 'Imports a prototype deck HTML file into a deck and writes an import report.',
  group: 'deck',
  milestone: 'M2',
  mutates: true,
  transports: 'C',
  deck: { kind: 'none' },
  input: obj({ from: str({ minLength: 1, description: 'The HTML file.' }), into: DeckId }),
  output: outline({ id: 'deck id', slides: 'slides imported', report: 'path of the import report' }),
  cli: 'import <from> --into <into>',
  mcp: null,
  example: { from: 'prototype.html', into: 'quarterly-review' },
})

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
  example: { slideIds: ['title-and-body-2'], kind: 'shorten' },
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

export const deckLint = defineAction({
  id: 'deck.lint',
  label: 'Lint a deck',
  doc: 'Findings per slide (overflowing text, empty placeholders, missing alt text, off-sheet objects, low contrast): the lint counts slide.list shows, in full.',
  group: 'deck',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideIds: opt(SlideIds) }),
  output: outline({ findings: 'per slide: rule, severity, block, message', counts: 'per severity' }),
  cli: 'deck lint --slides <slideIds>',
  mcp: 'deck_lint',
  example: {},
})

export const deckBrandKit = defineAction({
  id: 'deck.brandKit',
  label: 'Set the brand kit',
  doc: "Sets the deck's brand kit: name, logo asset and footer slots, palette overrides. Templates saved from the deck carry it.",
  group: 'deck',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({ kit: openObj('Brand kit: name, logo asset id, palette overrides, footer text.'), baseRevision: BR }),
  output: outline({ brandKit: 'the kit now', revision: 'new revision' }),
  cli: 'deck brand-kit < kit.json',
  mcp: 'deck_set_brand_kit',
  example: { kit: { name: 'Acme' }, baseRevision: 3 },
})
