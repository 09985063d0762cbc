import { defineAction } from '../../core/action.js'
import { obj, opt, outline, SectionId, SlideId } from '../../model/schema.js'

export const slideList = defineAction({
  id: 'slide.list',
  label: 'List slides',
  doc: 'Lists every slide in deck order with its number, section, title, kind and lint counts.',
  group: 'slide',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ sectionId: opt({ ...SectionId, description: 'Only the slides of this section.' }) }),
  output: outline({
    slides: 'Every slide in deck order: id, number, section, title, kind, lint counts.',
    revision: 'The current revision.',
  }),
  cli: 'slides',
  mcp: 'deck_list_slides',
  example: {},
})

export const slideGet = defineAction({
  id: 'slide.get',
  label: 'Get slide',
  doc: 'Reads one slide: the normalized slide document, the assets it references and its last render record.',
  group: 'slide',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideId: SlideId }),
  output: outline({
    slide: 'The normalized slide document.',
    assets: 'The assets the slide references.',
    render: 'Its last render record, when there is one.',
    revision: 'The current revision.',
  }),
  cli: 'slide get <slideId>',
  mcp: 'deck_get_slide',
  example: { slideId: 'title-1' },
})
