import { defineAction } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { orderedSlides, type Slide, cloneDoc } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { arr, bool, BR, int, obj, opt, ref, SlideId, SlideIds, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { replaceAll, replaceAllPlain, slideTexts } from '../../model/text.js'
import { WITH_BODY_SLIDE } from '../given.js'

interface ReplaceInput {
  find: string
  replace: string
  matchCase?: boolean
  slideIds?: string[]
}

interface Changed {
  id: string
  count: number
}

/** Replaces in every Text of one slide and in its notes; answers how many replacements were made. */
function replaceInSlide(slide: Slide, input: ReplaceInput): number {
  let count = 0
  for (const site of slideTexts(slide)) {
    let replaced: { text: string; count: number }
    try {
      replaced = replaceAll(site.value, input.find, input.replace, input.matchCase ?? false)
    } catch (error) {
      if (error instanceof StudioError) fail('invalid_input', `The stored Text at ${slide.id} ${site.pointer} cannot be edited: ${error.message}`)
      throw error
    }
    if (replaced.count) site.set(replaced.text)
    count += replaced.count
  }
  if (typeof slide.notes === 'string') {
    const notes = replaceAllPlain(slide.notes, input.find, input.replace, input.matchCase ?? false)
    slide.notes = notes.text
    count += notes.count
  }
  return count
}

export const textReplaceAll = defineAction({
  id: 'text.replaceAll',
  label: 'Replace text everywhere',
  doc:
    'Finds and replaces in every Text of every block (paragraphs, headings, text boxes, shapes, list items, table cells, captions, chart titles), ' +
    'title-slide fields (title, subtitle, byline, attribution) and speaker notes, in one write. The find and the replacement are plain text: ' +
    'matches are found in the plain text and may cross marks; text around them keeps its marks, and a replacement takes the marks of the first ' +
    'character it replaces. Case-insensitive unless matchCase. No match writes nothing. The result counts replacements and names the slides changed.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    find: str({ minLength: 1, description: 'The text to find (plain text).' }),
    replace: str({ description: 'The replacement (plain text).' }),
    matchCase: opt(bool({ default: false, description: 'Match case; false (case-insensitive) when absent.' })),
    slideIds: opt({ ...SlideIds, description: 'Restrict to these slides; every slide when absent.' }),
    baseRevision: BR,
  }),
  output: written({
    replacements: int({ minimum: 0, description: 'How many replacements were made.' }),
    changed: arr(obj({ id: SlideId, count: int({ minimum: 1 }) }), { description: 'Per changed slide, in deck order: its id and count.' }),
    slides: arr(ref('Slide'), { description: 'The changed slides, normalized.' }),
    revision: int({ minimum: 0, description: 'The new revision (the current one when nothing matched).' }),
  }),
  cli: 'text replace <find> <replace> --match-case --slides <slideIds>',
  mcp: 'deck_replace_text',
  annotations: { destructive: true },
  given: WITH_BODY_SLIDE,
  example: { find: 'Acme', replace: 'Globex', baseRevision: 1 },
  human: (answer: unknown) => {
    const result = answer as { replacements: number; changed: Changed[]; revision: number }
    return result.replacements
      ? `Replaced ${result.replacements} time(s) on ${result.changed.map((c) => `${c.id} (${c.count})`).join(', ')}; revision ${result.revision}.`
      : `No match; nothing written (revision ${result.revision}).`
  },
  run: async (ctx, input: ReplaceInput) => {
    const current = await ctx.target()
    const doc = cloneDoc(current)
    const wanted = input.slideIds ? new Set(input.slideIds.map((id, i) => findSlide(doc, id, `/slideIds/${i}`).id)) : undefined
    const changed: Changed[] = []
    for (const slide of orderedSlides(doc)) {
      if (wanted && !wanted.has(slide.id)) continue
      const count = replaceInSlide(slide, input)
      if (count) changed.push({ id: slide.id, count })
    }
    const replacements = changed.reduce((n, c) => n + c.count, 0)
    if (!replacements) return { replacements: 0, changed: [], slides: [], revision: current.manifest.revision }
    const deckId = doc.manifest.id
    ctx.stage(deckId, doc)
    return (docs: Map<string, typeof doc | null>) => {
      const next = docs.get(deckId)!
      return { replacements, changed, slides: changed.map((c) => next.slides[c.id]), revision: next.manifest.revision }
    }
  },
})
