/**
 * Normalization rules, written once and applied by the engine after every write.
 *
 * - guides sorted and de-duplicated; an empty result removes the field (a guide outside the sheet is
 *   kept for the model check to refuse: normalization never drops what a caller asked for)
 * - empty optional fields dropped (defaults, background, notes, skip false, empty layoutOptions)
 * - sections drop ids of slides that no longer exist; every slide file is listed in some section
 * - z renumbered densely per slide and angles kept in [0, 360) for positioned blocks
 */
import type { DeckDoc, Guides, Slide } from './deck.js'
import { cowSlides, slideCountOf, slideKeys, slideMembership, touchedSlides } from './slide-map.js'

function normalizeAxis(values: number[] | undefined): number[] | undefined {
  if (!Array.isArray(values)) return values
  const kept = [...new Set(values)].sort((a, b) => a - b)
  return kept.length ? kept : undefined
}

export function normalizeGuides(guides: Guides | undefined): Guides | undefined {
  if (!guides) return undefined
  const vertical = normalizeAxis(guides.vertical)
  const horizontal = normalizeAxis(guides.horizontal)
  if (!vertical && !horizontal) return undefined
  return { ...(vertical ? { vertical } : {}), ...(horizontal ? { horizontal } : {}) }
}

export function normalizeAngle(angle: number): number {
  const a = angle % 360
  const wrapped = a < 0 ? a + 360 : a
  // -1e-15 + 360 rounds to 360 in floating point; that angle is 0.
  return wrapped >= 360 || Object.is(wrapped, -0) ? 0 : wrapped
}

function isRecord<T>(value: T): value is T & Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function normalizeSlide(slide: Slide): Slide {
  const out: Slide = { ...slide }
  if (!out.notes) delete out.notes
  if (out.skip !== true) delete out.skip
  if (out.background === null || out.background === '') delete out.background
  if (out.layoutOptions && typeof out.layoutOptions === 'object' && !Object.keys(out.layoutOptions).length) delete out.layoutOptions
  if (Array.isArray(out.blocks)) {
    const blocks = out.blocks.filter(isRecord)
    const positioned = blocks.filter((b) => typeof b.z === 'number').sort((a, b) => (a.z as number) - (b.z as number))
    positioned.forEach((block, index) => (block.z = index))
    for (const block of blocks) if (typeof block.angle === 'number') {
      const angle = normalizeAngle(block.angle)
      if (angle === 0) delete block.angle
      else block.angle = angle
    }
  }
  return out
}

/**
 * Returns the normalized document (a new object; the input is not changed). A copy-on-write record
 * (cloneDoc) normalizes only the slides it touched: the rest are the stored ones, normalized when
 * they were written (a slide changed by hand is normalized by the next write that touches it, and
 * checked by `studio validate`).
 */
export function normalizeDoc(doc: DeckDoc): DeckDoc {
  const manifest = { ...doc.manifest }
  const guides = normalizeGuides(manifest.guides)
  if (guides) manifest.guides = guides
  else delete manifest.guides
  if (manifest.background === null || manifest.background === '') delete manifest.background
  if (manifest.defaults) {
    const defaults = Object.fromEntries(Object.entries(manifest.defaults).filter(([, v]) => v !== undefined && v !== null && v !== ''))
    if (Object.keys(defaults).length) manifest.defaults = defaults
    else delete manifest.defaults
  }
  if (!manifest.trashedAt) delete manifest.trashedAt
  let slides: Record<string, Slide>
  const cow = touchedSlides(doc.slides)
  if (cow) {
    slides = cowSlides(cow.base)
    for (const id of cow.deleted) delete slides[id]
    for (const [id, slide] of cow.touched) slides[id] = normalizeSlide(slide)
  } else {
    slides = {}
    for (const [id, slide] of Object.entries(doc.slides)) slides[id] = normalizeSlide(slide)
  }
  const listed = new Set<string>()
  const exists = slideMembership(slides)
  // A document of another shape (a hand-made bundle) is left as it is for the model check to refuse.
  if (!Array.isArray(manifest.sections) || !manifest.sections.every((section) => isRecord(section) && Array.isArray(section.slides))) {
    return { manifest, slides, versions: doc.versions }
  }
  manifest.sections = manifest.sections.map((section) => {
    const ids = section.slides.filter((id) => exists(id) && !listed.has(id))
    ids.forEach((id) => listed.add(id))
    return { ...section, slides: ids }
  })
  // Every listed id is a slide, so when as many are listed as there are slides none is left out.
  const count = slideCountOf(slides)
  const orphans = listed.size === count ? [] : slideKeys(slides).filter((id) => !listed.has(id))
  if (orphans.length) {
    if (!manifest.sections.length) manifest.sections.push({ id: 'main', title: 'Main', slides: [] })
    manifest.sections[manifest.sections.length - 1].slides.push(...orphans.sort())
  }
  return { manifest, slides, versions: doc.versions }
}
