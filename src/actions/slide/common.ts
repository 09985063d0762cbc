/**
 * Shared by the slide actions: the slide-document input schema, where slides land in the section
 * list, section headers starting sections, the assets a slide references, and lint findings.
 */
import type { ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { SLIDE_VARIANTS } from '../../model/blocks.js'
import type { Block, DeckDoc, Section, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { sectionOf } from '../../model/edit.js'
import { has, own } from '../../model/own.js'
import { countFindings, lintSlide, type AssetRecord, type Finding } from '../../model/lint.js'
import type { Schema } from '../../model/schema.js'
import { check, slideTexts } from '../../model/text.js'
import { readAssetRecords } from '../../store/asset-records.js'

/**
 * A slide document, one of six variants, discriminated on `layout` so that a bad member is named
 * by the variant its layout picks (not by the first variant tried).
 */
export const SlideInput: Schema = {
  type: 'object',
  required: ['layout'],
  discriminator: { propertyName: 'layout' },
  oneOf: Object.values(SLIDE_VARIANTS),
  description: 'A slide document: one of six variants (title, section, content, picture, statement, freeform), chosen by its layout.',
}

/** The variant a slide's layout belongs to: the kind listings show. */
export function slideKind(slide: Slide): string {
  return kindOfLayout(slide.layout)
}

/** The kind slide.list shows for a layout. */
export function kindOfLayout(layout: string): string {
  switch (layout) {
    case 'title':
      return 'title'
    case 'section':
      return 'section'
    case 'freeform':
      return 'freeform'
    case 'picture-full':
      return 'picture'
    case 'quote':
    case 'big-number':
      return 'statement'
    default:
      return 'content'
  }
}

/** Ids of the assets a slide shows: its pictures' assets and shader blocks' frames, in block order. */
export function slideAssets(slide: Slide): string[] {
  const ids = new Set<string>()
  for (const block of slide.blocks ?? []) if ((block.kind === 'picture' || block.kind === 'shader') && typeof block.asset === 'string') ids.add(block.asset)
  return [...ids]
}

/**
 * Rules of the slide model the schema cannot say: every Text is markup the reader accepts; block ids unique on the slide; on the canvas every
 * block has a box and no slot, on a slotted layout no block has a box (one without a slot is drawn
 * in the body, as geometry files it).
 */
export function checkSlide(slide: Slide, pointer: string, options: { markup?: boolean } = {}): void {
  if (options.markup !== false) for (const site of slideTexts(slide)) check(site.value, `${pointer}${site.pointer}`)
  const seen = new Set<string>()
  ;(slide.blocks ?? []).forEach((block: Block, i: number) => {
    const at = `${pointer}/blocks/${i}`
    if (seen.has(block.id)) fail('id_taken', `Block id "${block.id}" appears twice on the slide.`, { pointer: `${at}/id` })
    seen.add(block.id)
    if (slide.layout === 'freeform') {
      if (block.pos === undefined) fail('invalid_input', `Block "${block.id}" is on the canvas and needs its box (pos).`, { pointer: `${at}/pos` })
      if (block.slot !== undefined) fail('invalid_input', `Block "${block.id}" is on the canvas, which has no slots.`, { pointer: `${at}/slot` })
    } else {
      if (block.pos !== undefined || block.z !== undefined) fail('invalid_input', `Block "${block.id}" is on a slotted layout and takes a slot, not a box (pos, z).`, { pointer: `${at}/${block.pos !== undefined ? 'pos' : 'z'}` })
    }
  })
}

export interface Landing {
  sectionIndex: number
  index: number
}

/**
 * Where new slides land: after `after` (in its section, which must be `sectionId` when both are
 * given), else first in `sectionId`, else first in the last section (one is made when there is none).
 */
export function landing(doc: DeckDoc, where: { after?: string; sectionId?: string }, pointers = { after: '/after', sectionId: '/sectionId' }): Landing {
  const sections = doc.manifest.sections
  let sectionIndex: number | undefined
  if (where.sectionId !== undefined) {
    sectionIndex = sections.findIndex((s) => s.id === where.sectionId)
    if (sectionIndex < 0) fail('not_found', `No section "${where.sectionId}" in deck "${doc.manifest.id}".`, { pointer: pointers.sectionId })
  }
  if (where.after !== undefined) {
    const at = sectionOf(doc, where.after)
    if (!at) fail('not_found', `No slide "${where.after}" in deck "${doc.manifest.id}".`, { pointer: pointers.after })
    if (sectionIndex !== undefined && at.sectionIndex !== sectionIndex) {
      fail('invalid_input', `Slide "${where.after}" is in section "${sections[at.sectionIndex].id}", not "${where.sectionId}".`, { pointer: pointers.after })
    }
    return { sectionIndex: at.sectionIndex, index: at.index + 1 }
  }
  if (!sections.length) sections.push({ id: 'main', title: 'Main', slides: [] })
  const target = sectionIndex ?? sections.length - 1
  // "First in the section" is after the section header that opens it, when it opens with one.
  const opener = own(doc.slides, sections[target].slides[0] ?? '')
  return { sectionIndex: target, index: opener?.layout === 'section' ? 1 : 0 }
}

/** A section id the deck does not use: `section-<n>`. */
export function freeSectionId(doc: DeckDoc): string {
  const used = new Set(doc.manifest.sections.map((s) => s.id))
  for (let n = 1; ; n++) if (!used.has(`section-${n}`)) return `section-${n}`
}

const SECTION_TITLE_MAX = 200

function sectionTitle(slide: Slide | undefined): string {
  const text = typeof slide?.title === 'string' ? slide.title.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim() : ''
  return (text || 'New section').slice(0, SECTION_TITLE_MAX)
}

/**
 * Inserts slide ids into the section list at `at`, in order. Each id for which `startsSection`
 * holds (a section header) starts a new section right there that takes the slides after it, unless
 * it already lands first in its section.
 */
export function insertRun(doc: DeckDoc, at: Landing, ids: string[], startsSection: (id: string) => boolean = () => false): void {
  const sections = doc.manifest.sections
  sections[at.sectionIndex].slides.splice(at.index, 0, ...ids)
  let current = at.sectionIndex
  let position = at.index
  for (const id of ids) {
    if (startsSection(id) && position > 0) {
      const rest = sections[current].slides.splice(position)
      const section: Section = { id: freeSectionId(doc), title: sectionTitle(doc.slides[id]), slides: rest }
      sections.splice(current + 1, 0, section)
      current++
      position = 0
    }
    position++
  }
}

/** The section id holding a slide. */
export function sectionIdOf(doc: DeckDoc, slideId: string): string | undefined {
  const at = sectionOf(doc, slideId)
  return at ? doc.manifest.sections[at.sectionIndex].id : undefined
}

/** Every named slide must exist and be named once; 404 with the pointer of the first one that does not. */
export function checkSlideIds(doc: DeckDoc, ids: string[], pointer = '/slideIds'): void {
  const seen = new Set<string>()
  ids.forEach((id, i) => {
    if (!has(doc.slides, id)) fail('not_found', `No slide "${id}" in deck "${doc.manifest.id}".`, { pointer: `${pointer}/${i}` })
    if (seen.has(id)) fail('invalid_input', `Slide "${id}" is named twice.`, { pointer: `${pointer}/${i}` })
    seen.add(id)
  })
}

/** Lint of one slide, given the deck's asset records (read before staging: the answer is sync). */
export function findingsOf(slide: Slide, doc: DeckDoc, assets: Record<string, AssetRecord>): Finding[] {
  return lintSlide(slide, doc, { assets })
}

export { countFindings }

/** The asset records of the target deck, for lint. */
export async function assetRecords(ctx: ActionContext, doc: DeckDoc): Promise<Record<string, AssetRecord>> {
  return readAssetRecords(ctx.ws, doc.manifest.id)
}

/** Stages a copy of the target deck after `change`, and answers with `answer(next)` once normalized. */
export async function stageDeck<R>(ctx: ActionContext, change: (doc: DeckDoc) => void, answer: (next: DeckDoc) => R) {
  const doc = cloneDoc(await ctx.target())
  change(doc)
  const id = doc.manifest.id
  ctx.stage(id, doc)
  return (docs: Map<string, DeckDoc | null>) => {
    const next = docs.get(id)!
    return { ...answer(next), revision: next.manifest.revision }
  }
}
