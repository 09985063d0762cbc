/**
 * The slides a download writes (export.run, export.text): the named ones (or all) in deck order. A
 * skipped slide is left out unless includeSkipped asks for it, also when slideIds names it; when that
 * leaves nothing, the export is refused and the error says how to ask.
 */
import { fail } from '../core/errors.js'
import { orderedSlides, type DeckDoc, type Slide } from '../model/deck.js'

export function exportSlides(doc: DeckDoc, slideIds: 'all' | string[] | undefined, includeSkipped: boolean): Slide[] {
  const all = orderedSlides(doc)
  if (slideIds !== undefined && slideIds !== 'all') {
    slideIds.forEach((id, i) => {
      if (!Object.hasOwn(doc.slides, id)) fail('not_found', `Deck "${doc.manifest.id}" has no slide "${id}".`, { pointer: `/slideIds/${i}` })
    })
  }
  const named = slideIds === undefined || slideIds === 'all' ? all : all.filter((s) => slideIds.includes(s.id))
  const slides = includeSkipped ? named : named.filter((s) => !s.skip)
  if (!slides.length) {
    const which = named.length === all.length ? 'every slide of the deck is skipped' : named.length === 1 ? `slide "${named[0].id}" is skipped` : 'every slide named is skipped'
    fail('invalid_input', `No slide to export: ${which}. Skipped slides are written only when asked (includeSkipped; --include-skipped on the command line).`, { pointer: '/slideIds' })
  }
  return slides
}

