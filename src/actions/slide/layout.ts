import { defineAction } from '../../core/action.js'
import { themeFonts } from '../../model/themes.js'
import type { Slide } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { LAYOUTS, type LayoutOptions } from '../../model/layouts.js'
import { LAYOUT_OPTION_SCHEMAS } from '../../model/blocks.js'
import { changeLayout, isCanvas, restructure } from '../../model/mutations/slide-ops.js'
import { toCanvas } from '../../layout/index.js'
import { arr, BlockId, BR, obj, oneOf, opt, ref, SlideId, SlideIds } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { numeric, without } from '../block/cli.js'
import { checkSlideIds, stageDeck } from './common.js'
import { WITH_BODY_SLIDE } from '../given.js'

const LAYOUT_OPTIONS = ['type', 'ratio', 'gap', 'layout'] as const

interface LayoutInput extends LayoutOptions {
  type: string
}

export const slideSetLayout = defineAction({
  id: 'slide.setLayout',
  label: 'Set slide layout',
  doc:
    'Changes the layout of one slide. To freeform it converts to the canvas, each block getting its measured position box; ' +
    'from freeform the boxes are dropped and blocks fall into the target slots by geometry (a block keeps its slot when the new layout has it). ' +
    'A Title slide keeps its fields and a Main point one statement; the result names what was dropped. ' +
    "ratio, gap and layout set the slide's region options (stored as layoutOptions; the ones not given take the layout's own): " +
    'two-columns, three-columns and comparison take all three; grid, agenda and picture-left take ratio and gap; other layouts none.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    layout: obj(
      {
        type: oneOf(LAYOUTS, { description: 'The target layout (one of 22).' }),
        ratio: opt(LAYOUT_OPTION_SCHEMAS.ratio),
        gap: opt(LAYOUT_OPTION_SCHEMAS.gap),
        layout: opt(LAYOUT_OPTION_SCHEMAS.layout),
      },
      { description: 'The target layout with its options (CLI flags type, ratio, gap, layout).' },
    ),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), dropped: arr(BlockId, { description: 'Ids of blocks the new layout does not hold (Title slide, Main point).' }) }),
  cli: 'slide set-layout <slideId> --type <type> --ratio <ratio> --gap <gap> --layout <layout>',
  mcp: 'deck_set_layout',
  // Flags build the layout object; an object given with --input is kept, flags override its members.
  cliInput: (parsed) => {
    const given = typeof parsed.input.layout === 'object' && parsed.input.layout !== null ? { ...(parsed.input.layout as object) } : {}
    const options: Record<string, unknown> = given
    for (const name of ['type', 'ratio', 'gap'] as const) if (parsed.flags[name] !== undefined) options[name] = name === 'type' ? parsed.flags[name] : numeric(parsed.flags[name])
    if (typeof parsed.flags.layout === 'string') options.layout = parsed.flags.layout
    return { ...without(parsed.input, LAYOUT_OPTIONS), layout: options }
  },
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', layout: { type: 'two-columns' }, baseRevision: 1 },
  run: async (ctx, input: { slideId: string; layout: LayoutInput }) => {
    const { type, ...options } = input.layout
    let dropped: string[] = []
    return stageDeck(
      ctx,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const changed = changeLayout(slide, type, options, themeFonts(doc.manifest))
        doc.slides[input.slideId] = changed.slide
        dropped = changed.dropped
      },
      (next) => ({ slide: next.slides[input.slideId], dropped }),
    )
  },
})

export const slideApplyLayout = defineAction({
  id: 'slide.applyLayout',
  label: 'Apply layout',
  doc:
    'Applies a layout to slides, one slide.replace per slide, in one write: title, body, lists, tables and pictures move to matching placeholders and the rest is appended. ' +
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
  output: written({
    slides: arr(ref('Slide'), { description: 'The normalized slides, in the order named.' }),
    dropped: { type: 'object', additionalProperties: arr(BlockId), description: 'Per slide id, the ids of blocks that did not fit (only slides that lost some).' },
  }),
  cli: 'slide apply-layout <slideIds> <layout>',
  mcp: 'deck_apply_layout',
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideIds: ['title-body-2'], layout: 'two-columns', baseRevision: 1 },
  run: async (ctx, input: { slideIds: string[]; layout: string }) => {
    const dropped: Record<string, string[]> = {}
    return stageDeck(
      ctx,
      (doc) => {
        checkSlideIds(doc, input.slideIds)
        for (const id of input.slideIds) {
          const result = restructure(doc.slides[id], input.layout, { drop: true, fonts: themeFonts(doc.manifest) })
          doc.slides[id] = result.slide
          if (result.dropped.length) dropped[id] = result.dropped
        }
      },
      (next) => ({ slides: input.slideIds.map((id) => next.slides[id]), dropped }),
    )
  },
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
  output: written({ slides: arr(ref('Slide'), { description: 'The normalized slides, in the order named.' }), converted: arr(SlideId, { description: 'Ids of the slides that were converted.' }) }),
  cli: 'slide to-canvas <slideIds>',
  mcp: 'deck_slide_to_canvas',
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideIds: ['title-body-2'], baseRevision: 1 },
  run: async (ctx, input: { slideIds: string[] }) => {
    const converted: string[] = []
    return stageDeck(
      ctx,
      (doc) => {
        checkSlideIds(doc, input.slideIds)
        for (const id of input.slideIds) {
          const slide: Slide = doc.slides[id]
          if (isCanvas(slide)) continue
          doc.slides[id] = { ...toCanvas(slide, themeFonts(doc.manifest)), id }
          converted.push(id)
        }
      },
      (next) => ({ slides: input.slideIds.map((id) => next.slides[id]), converted }),
    )
  },
})
