/**
 * Helpers every slide and block handler uses: find what the input names (404 with the pointer of
 * the input field otherwise), edit a copy of the deck, stage it, and answer with the normalized
 * slide(s) once the engine has normalized the document.
 */
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import type { Block, DeckDoc, Slide } from './deck.js'
import { cloneDoc } from './deck.js'
import { has, own } from './own.js'

export function findSlide(doc: DeckDoc, slideId: string, pointer = '/slideId'): Slide {
  const slide = own(doc.slides, slideId)
  if (!slide) fail('not_found', `No slide "${slideId}" in deck "${doc.manifest.id}".`, { pointer })
  return slide
}

export function findBlock(slide: Slide, blockId: string, pointer = '/blockId'): Block {
  const block = slide.blocks?.find((b) => b.id === blockId)
  if (!block) fail('not_found', `No block "${blockId}" on slide "${slide.id}".`, { pointer })
  return block
}

/** The section holding a slide, and the slide's index in it. */
export function sectionOf(doc: DeckDoc, slideId: string): { sectionIndex: number; index: number } | undefined {
  for (let sectionIndex = 0; sectionIndex < doc.manifest.sections.length; sectionIndex++) {
    const index = doc.manifest.sections[sectionIndex].slides.indexOf(slideId)
    if (index >= 0) return { sectionIndex, index }
  }
  return undefined
}

/**
 * The mark a page tab leaves in the slide ids it mints: the first four base36 characters of its client
 * id (lowercased; other characters skipped), or undefined when it has fewer than four.
 */
export function clientMark(clientId: string | undefined): string | undefined {
  const mark = (clientId ?? '').toLowerCase().replace(/[^0-9a-z]/g, '').slice(0, 4)
  return mark.length === 4 ? mark : undefined
}

/**
 * The one rule for a new slide's id: `<base>-<n>` with the first free n (n from 1); a call made by a
 * page tab (`clientId`) mints `<base>-<n>-<mark>` instead (clientMark), so two tabs adding slides at
 * once do not reach for the same id.
 */
export function freeSlideId(doc: DeckDoc, base: string, taken: Set<string> = new Set(), clientId?: string): string {
  const mark = clientMark(clientId)
  for (let n = 1; ; n++) {
    const id = mark ? `${base}-${n}-${mark}` : `${base}-${n}`
    if (!has(doc.slides, id) && !taken.has(id)) return id
  }
}

/** A block id not used on the slide: `<base>` or `<base>-<n>`. */
export function freeBlockId(slide: Slide, base: string, taken: Set<string> = new Set()): string {
  const used = new Set([...(slide.blocks ?? []).map((b) => b.id), ...taken])
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

export type Staged<R> = (docs: Map<string, DeckDoc | null>) => R

/**
 * Edits the target deck: `change` gets a deep copy to mutate (and may return extra result members);
 * the result is `{ slide }` (or `{ slides }`) as normalized by the engine, plus those members.
 */
export async function editDeck<E extends Record<string, unknown>>(
  ctx: ActionContext,
  slideIds: string[],
  change: (doc: DeckDoc) => E | void,
): Promise<Staged<E & { slide?: Slide; slides?: Slide[]; revision?: number }>> {
  const doc = cloneDoc(await ctx.target())
  const extra = (change(doc) ?? {}) as E
  const id = doc.manifest.id
  ctx.stage(id, doc)
  return (docs) => {
    const next = docs.get(id)!
    const slides = slideIds.map((s) => own(next.slides, s)).filter((s): s is Slide => Boolean(s))
    return { ...(slides.length === 1 ? { slide: slides[0] } : { slides }), ...extra, revision: next.manifest.revision }
  }
}
