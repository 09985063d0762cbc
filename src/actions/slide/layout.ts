import { defineAction } from '../../core/action.js'
import { LAYOUTS } from '../../model/layouts.js'
import { BR, num, obj, oneOf, opt, outline, SlideId, SlideIds } from '../../model/schema.js'
import { gather, without } from '../block/cli.js'

const LAYOUT_OPTIONS = ['type', 'ratio', 'gap', 'layout'] as const

export const slideSetLayout = defineAction({
  id: 'slide.setLayout',
  label: 'Set slide layout',
  doc:
    'Changes the layout of one slide. To freeform it converts to the canvas, each block getting its measured position box; ' +
    'from freeform the boxes are dropped and blocks fall into the target slots by geometry.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    layout: obj(
      {
        type: oneOf(LAYOUTS, { description: 'The target layout (one of 22).' }),
        ratio: opt(num({ exclusiveMinimum: 0, exclusiveMaximum: 1, description: "Share of the first region in a two-region layout (e.g. 0.5 for equal columns); the layout's own when absent." })),
        gap: opt(num({ minimum: 0, maximum: 400, description: "Gap between regions in sheet px; the layout's own when absent." })),
        layout: opt(oneOf(['columns', 'rows'], { description: 'Whether the regions sit side by side (columns) or stacked (rows); columns when absent.' })),
      },
      { description: 'The target layout with its options (CLI flags type, ratio, gap, layout).' },
    ),
    baseRevision: BR,
  }),
  output: outline({ slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'slide set-layout <slideId> --type <type> --ratio <ratio> --gap <gap> --layout <layout>',
  mcp: 'deck_set_layout',
  cliInput: (parsed) => ({ ...without(parsed.input, LAYOUT_OPTIONS), layout: gather(parsed, LAYOUT_OPTIONS) ?? {} }),
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', layout: { type: 'two-columns', ratio: 0.6, gap: 48 }, baseRevision: 3 },
})

export const slideApplyLayout = defineAction({
  id: 'slide.applyLayout',
  label: 'Apply layout',
  doc:
    'Applies a layout to slides, one slide.replace per slide: title, body, lists, tables and pictures move to matching placeholders and the rest is appended. ' +
    'Only a Title slide or Main point layout drops what does not fit, and the result names the dropped blocks.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: SlideIds,
    layout: oneOf(LAYOUTS, { description: 'One of the 22 layouts.' }),
    baseRevision: BR,
  }),
  output: outline({ slides: 'The normalized slides.', dropped: 'Per slide, the ids of blocks that did not fit.', revision: 'The new revision.' }),
  cli: 'slide apply-layout <slideIds> <layout>',
  mcp: 'deck_apply_layout',
  annotations: { idempotent: true },
  example: { slideIds: ['title-body-2'], layout: 'two-columns', baseRevision: 3 },
})

export const slideToCanvas = defineAction({
  id: 'slide.toCanvas',
  label: 'Convert to canvas',
  doc: 'Converts slides to the freeform canvas, each block getting the box it is drawn at; a slide already freeform is left as is. One write.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideIds: SlideIds, baseRevision: BR }),
  output: outline({ slides: 'The normalized slides.', converted: 'Ids of the slides that were converted.', revision: 'The new revision.' }),
  cli: 'slide to-canvas <slideIds>',
  mcp: 'deck_slide_to_canvas',
  annotations: { idempotent: true },
  example: { slideIds: ['title-body-2'], baseRevision: 3 },
})
