import { defineAction } from '../../core/action.js'
import { SlideSchema } from '../../model/deck.js'
import { LAYOUTS } from '../../model/layouts.js'
import { BR, DeckId, obj, oneOf, opt, outline, SectionId, SlideId, SlideIds } from '../../model/schema.js'

const slideResult = outline({ slide: 'The normalized slide.', sectionId: 'The section holding it.', revision: 'The new revision.' })

export const slideInsert = defineAction({
  id: 'slide.insert',
  label: 'Insert slide',
  doc: 'Inserts a slide document into a section, after a named slide or first in the section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sectionId: { ...SectionId, description: 'The section the slide lands in.' },
    after: opt({ ...SlideId, description: 'The slide it follows; first in the section when absent.' }),
    slide: SlideSchema,
    baseRevision: BR,
  }),
  output: slideResult,
  cli: 'slide insert --section <sectionId> --after <after> < slide.json',
  mcp: 'deck_insert_slide',
  stdinField: 'slide',
  example: {
    sectionId: 'main',
    after: 'title-1',
    slide: { id: 'title-body-2', layout: 'title-body', blocks: [{ id: 'b1', kind: 'heading', slot: 'title', text: 'Why now' }] },
    baseRevision: 3,
  },
})

export const slideRemove = defineAction({
  id: 'slide.remove',
  label: 'Remove slide',
  doc: 'Removes a slide from the deck and from its section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR }),
  output: outline({ removed: 'The id of the removed slide.', revision: 'The new revision.' }),
  cli: 'slide remove <slideId>',
  mcp: 'deck_remove_slide',
  annotations: { destructive: true },
  example: { slideId: 'title-body-2', baseRevision: 3 },
})

export const slideMove = defineAction({
  id: 'slide.move',
  label: 'Move slide',
  doc: 'Moves a slide into a section, after a named slide or first in the section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    sectionId: { ...SectionId, description: 'The target section.' },
    after: opt({ ...SlideId, description: 'The slide it follows; first in the section when absent.' }),
    baseRevision: BR,
  }),
  output: outline({ sections: 'The section list after the move.', revision: 'The new revision.' }),
  cli: 'slide move <slideId> --to <sectionId> --after <after>',
  mcp: 'deck_move_slide',
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', sectionId: 'main', after: 'title-1', baseRevision: 3 },
})

export const slideNew = defineAction({
  id: 'slide.new',
  label: 'New slide',
  doc:
    'Adds a slide of a layout with empty placeholders (one slide.insert), after a named slide or first in its section. ' +
    'A Section header layout starts a new section that takes the slides after the anchor.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    layout: oneOf(LAYOUTS, { description: 'One of the 22 layouts.' }),
    after: opt({ ...SlideId, description: 'The new slide follows it; first in the section when absent.' }),
    sectionId: opt({ ...SectionId, description: "The anchor's section, else the last section." }),
    id: opt({ ...SlideId, description: 'Slide id; <layout>-<n> with the first free n when absent.' }),
    baseRevision: BR,
  }),
  output: slideResult,
  cli: 'slide new --layout <layout> --after <after> --section <sectionId> --id <id>',
  mcp: 'deck_new_slide',
  example: { layout: 'title-body', after: 'title-1', baseRevision: 3 },
})

export const slideDuplicate = defineAction({
  id: 'slide.duplicate',
  label: 'Duplicate slides',
  doc: 'Copies one or more slides with fresh ids after the last of them, in one write; a copied section header starts a new section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideIds: { ...SlideIds, description: 'The slides to copy.' }, baseRevision: BR }),
  output: outline({ slides: 'The copies: new id and the id it was copied from.', revision: 'The new revision.' }),
  cli: 'slide duplicate <slideIds>',
  mcp: 'deck_duplicate_slide',
  example: { slideIds: ['title-body-2'], baseRevision: 3 },
})

export const slideImport = defineAction({
  id: 'slide.import',
  label: 'Import slides',
  doc:
    'Copies slides from another deck in one write, with the assets they use; colliding slide ids are renamed. ' +
    'The result lists the slides and assets that came over.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sourceDeckId: { ...DeckId, description: 'The deck the slides come from.' },
    slideIds: { ...SlideIds, description: 'Slides of the source deck, in landing order.' },
    after: opt({ ...SlideId, description: 'The slide they follow; first in the section when absent.' }),
    sectionId: opt({ ...SectionId, description: "The section they land in; the anchor's section, else the last section." }),
    baseRevision: BR,
  }),
  output: outline({
    slides: 'The slides that came over: source id and id in this deck (renamed when it collided).',
    assets: 'The assets copied with them.',
    revision: 'The new revision.',
  }),
  cli: 'slide import <sourceDeckId> <slideIds> --after <after> --section <sectionId>',
  mcp: 'deck_import_slides',
  example: { sourceDeckId: 'brand-sample', slideIds: ['title-1', 'title-body-2'], after: 'title-1', baseRevision: 3 },
})
