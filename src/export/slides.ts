/**
 * The slides a download writes (export.run, export.text, build.run): the named ones (or all) in deck
 * order. A skipped slide is left out unless includeSkipped asks for it, also when slideIds names it;
 * when that leaves nothing, or the deck has no slides, the download is refused and the error says
 * what to do.
 */
import { fail } from '../core/errors.js'
import { orderedSlides, type DeckDoc, type Slide } from '../model/deck.js'

export function exportSlides(doc: DeckDoc, slideIds: 'all' | string[] | undefined, includeSkipped: boolean): Slide[] {
  const all = orderedSlides(doc)
  if (!all.length) fail('invalid_input', `Deck "${doc.manifest.id}" has no slides yet: add one first (studio slide insert, or slide.insert).`)
  if (slideIds !== undefined && slideIds !== 'all') {
    slideIds.forEach((id, i) => {
      if (!Object.hasOwn(doc.slides, id)) fail('not_found', `Deck "${doc.manifest.id}" has no slide "${id}".`, { pointer: `/slideIds/${i}` })
    })
  }
  const named = slideIds === undefined || slideIds === 'all' ? all : all.filter((s) => slideIds.includes(s.id))
  const slides = includeSkipped ? named : named.filter((s) => !s.skip)
  if (!slides.length) {
    const which = named.length === all.length ? 'every slide of the deck is skipped' : named.length === 1 ? `slide "${named[0].id}" is skipped` : 'every slide named is skipped'
    // The whole deck skipped: the way out is includeSkipped; slides named and skipped: the names.
    fail('invalid_input', `No slide to write: ${which}. Skipped slides are written only when asked (includeSkipped; --include-skipped on the command line).`, { pointer: slideIds === undefined || slideIds === 'all' ? '/includeSkipped' : '/slideIds' })
  }
  return slides
}


/** Whether a PDF gives the slide a notes page: notes were asked for and the slide has some. */
export const hasNotesPage = (slide: Slide, includeNotes: boolean): boolean => includeNotes && typeof slide.notes === 'string' && slide.notes.trim() !== ''

/**
 * Where each slide's page is in a PDF of these slides (0-based), and the pages in all: with notes
 * asked for, a slide with notes is followed by its notes page; a slide without has none.
 */
export function pdfPages(slides: readonly Slide[], includeNotes: boolean): { slidePages: number[]; pages: number } {
  const slidePages: number[] = []
  let page = 0
  for (const slide of slides) {
    slidePages.push(page)
    page += hasNotesPage(slide, includeNotes) ? 2 : 1
  }
  return { slidePages, pages: page }
}
