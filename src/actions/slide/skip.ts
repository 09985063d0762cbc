import { defineAction } from '../../core/action.js'
import { arr, bool, BR, obj, ref, SlideIds } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { given, without } from '../block/cli.js'
import { checkSlideIds, stageDeck } from './common.js'
import { WITH_BODY_SLIDE } from '../given.js'

export const slideSkip = defineAction({
  id: 'slide.skip',
  label: 'Skip slides',
  doc: 'Skips slides (left out of the slideshow, shared view, downloads and print) or shows them again.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: SlideIds,
    skip: bool({ description: 'true skips, false shows again.' }),
    baseRevision: BR,
  }),
  output: written({ slides: arr(ref('Slide'), { description: 'Each named slide, normalized (skip: true while skipped).' }) }),
  cli: 'slide skip <slideIds> --off',
  mcp: 'deck_skip_slide',
  // `--off` shows again; without it the slides are skipped (unless --input says otherwise).
  cliInput: (parsed) => ({ ...without(parsed.input, ['off']), skip: given(parsed, 'off') === true ? false : parsed.input.skip ?? true }),
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideIds: ['title-body-2'], skip: true, baseRevision: 1 },
  run: async (ctx, input: { slideIds: string[]; skip: boolean }) =>
    stageDeck(
      ctx,
      (doc) => {
        checkSlideIds(doc, input.slideIds)
        for (const id of input.slideIds) {
          if (input.skip) doc.slides[id].skip = true
          else delete doc.slides[id].skip
        }
      },
      (next) => ({ slides: input.slideIds.map((id) => next.slides[id]) }),
    ),
})
