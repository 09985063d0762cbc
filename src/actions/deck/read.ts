import { defineAction } from '../../core/action.js'
import { slideCount, type DeckDoc } from '../../model/deck.js'
import { plainDoc, slideSummaries, stateOf, type SlideSummary } from '../../store/deck-state.js'
import { arr, bool, DeckId, int, obj, opt, ref, SectionId, SlideId, str } from '../../model/schema.js'
import { CurrentRevision, result, RESULT_DEFS, withDefs } from '../../model/results.js'
import { findTheme } from '../../model/themes.js'

/** The counts deck.info and deck.list report (from the slides' summaries: no slide is read for them). */
export function deckCounts(doc: DeckDoc) {
  return { ...sectionsPart(doc).counts, guides: guideCount(doc) }
}

const guideCount = (doc: DeckDoc) => (doc.manifest.guides?.vertical?.length ?? 0) + (doc.manifest.guides?.horizontal?.length ?? 0)

type SectionsPart = { sections: readonly { id: string; title: string; slides: { id: string; title: string }[] }[]; counts: Omit<ReturnType<typeof deckCountsOf>, 'guides'> }

/**
 * The sections with slide titles and the counts: the part of deck.info that grows with the deck.
 * Kept while the section list and the slides are the same (a rename makes a new state of the deck
 * but leaves this part as it was), frozen so that a transport serializes it once.
 */
const sectionParts = new WeakMap<object, { slides: number; part: SectionsPart }>()

function sectionsPart(doc: DeckDoc): SectionsPart {
  const state = stateOf(doc)
  if (!state || !Object.isFrozen(doc.manifest.sections)) return buildSections(doc)
  // Keyed by the section list itself: a state made by a write that left it equal keeps the same object.
  const hit = sectionParts.get(doc.manifest.sections)
  if (hit && hit.slides === state.slidesVersion) return hit.part
  const part = buildSections(doc)
  Object.freeze(part.sections)
  sectionParts.set(doc.manifest.sections, { slides: state.slidesVersion, part })
  return part
}

function deckCountsOf(doc: DeckDoc, summaries: ReadonlyMap<string, SlideSummary>) {
  let charts = 0
  let canvas = 0
  let skipped = 0
  for (const section of doc.manifest.sections) {
    for (const id of section.slides) {
      const summary = summaries.get(id)
      if (!summary) continue
      charts += summary.charts
      if (summary.layout === 'freeform') canvas++
      if (summary.skip) skipped++
    }
  }
  return { slides: slideCount(doc), sections: doc.manifest.sections.length, canvas, charts, guides: guideCount(doc), skipped }
}

function buildSections(doc: DeckDoc): SectionsPart {
  const summaries = slideSummaries(doc)
  const { guides: _guides, ...counts } = deckCountsOf(doc, summaries)
  const sections = doc.manifest.sections.map((section) => ({
    id: section.id,
    title: section.title,
    slides: section.slides.map((id) => ({ id, title: summaries.get(id)?.title ?? '' })),
  }))
  return { sections, counts }
}

/**
 * deck.info's answer: the same frozen object for as long as the store's state of the deck is the
 * same, its sections part shared while they are unchanged.
 */
export function deckInfo(doc: DeckDoc) {
  const state = stateOf(doc)
  let info = state?.memo.get('deck.info') as ReturnType<typeof buildInfo> | undefined
  if (!info) {
    info = Object.freeze(buildInfo(doc))
    state?.memo.set('deck.info', info)
  }
  return info
}

function buildInfo(doc: DeckDoc) {
  const { manifest } = doc
  const { sections, counts } = sectionsPart(doc)
  return {
    id: manifest.id,
    title: manifest.title,
    theme: findTheme(manifest.theme)?.id ?? manifest.theme,
    sections,
    counts: { ...counts, guides: guideCount(doc) },
    revision: manifest.revision,
    ...(manifest.trashedAt ? { trashedAt: manifest.trashedAt } : {}),
  }
}

export const deckInfoAction = defineAction({
  id: 'deck.info',
  label: 'Deck info',
  doc: 'The deck at a glance: title, theme, sections with slide ids and titles, counts (slides, sections, canvas slides, charts, guides) and the current revision.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({
    id: DeckId,
    title: str({ description: 'The deck title.' }),
    theme: str({ description: 'The theme id (theme.list).' }),
    sections: arr(obj({ id: SectionId, title: str(), slides: arr(obj({ id: SlideId, title: str({ description: 'Plain text; empty when the slide has none.' }) })) }), { description: 'Sections in order, with slide ids and titles.' }),
    counts: ref('DeckCounts'),
    revision: CurrentRevision,
    trashedAt: opt(str({ format: 'date-time', description: 'When the deck was trashed; present only while it is in the trash.' })),
  }),
  cli: 'info',
  mcp: 'deck_get_info',
  example: {},
  run: async (ctx) => deckInfo(await ctx.target()),
  human: (info: ReturnType<typeof deckInfo>) =>
    [
      `${info.title}  (${info.id}, revision ${info.revision}, theme ${info.theme})`,
      `${info.counts.slides} slides in ${info.counts.sections} sections; ${info.counts.canvas} canvas, ${info.counts.charts} charts, ${info.counts.guides} guides`,
      ...info.sections.flatMap((s) => [`  ${s.title}`, ...s.slides.map((slide) => `    ${slide.id}  ${slide.title}`)]),
    ].join('\n'),
})

export const deckList = defineAction({
  id: 'deck.list',
  label: 'List decks',
  doc: 'Every deck in the workspace, newest first, with title, slide and section counts, revision and stamps. Trashed decks are left out unless asked for; then each carries trashedAt.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({ includeTrashed: opt(bool({ description: 'Include decks in the trash.' })) }),
  output: result({
    decks: arr(
      obj({
        id: DeckId,
        title: str(),
        slides: int({ minimum: 0, description: 'Slide count.' }),
        sections: int({ minimum: 0, description: 'Section count.' }),
        revision: int({ minimum: 0 }),
        stamps: obj({ createdAt: str(), updatedAt: str() }),
        trashedAt: opt(str({ description: 'Present only for a trashed deck.' })),
      }),
      { description: 'Newest first.' },
    ),
  }),
  cli: 'deck list --include-trashed',
  mcp: 'deck_list',
  example: { includeTrashed: true },
  run: async (ctx, input: { includeTrashed?: boolean }) => {
    const decks = []
    // With accounts: the decks the caller may read (src/identity/roles.ts); every deck on a checkout.
    const readable = ctx.caller && !ctx.caller.root ? await (await import('../../identity/roles.js')).canRead(ctx.ws, ctx.caller) : undefined
    for (const id of await ctx.ws.deckIds()) {
      if (readable && !(await readable(id))) continue
      const doc = await ctx.load(id)
      const m = doc.manifest
      if (m.trashedAt && !input.includeTrashed) continue
      decks.push({ id, title: m.title, slides: slideCount(doc), sections: m.sections.length, revision: m.revision, stamps: m.stamps, ...(m.trashedAt ? { trashedAt: m.trashedAt } : {}) })
    }
    decks.sort((a, b) => (a.stamps.updatedAt < b.stamps.updatedAt ? 1 : a.stamps.updatedAt > b.stamps.updatedAt ? -1 : a.id.localeCompare(b.id)))
    return { decks }
  },
  human: (r: { decks: { id: string; title: string; slides: number; revision: number; trashedAt?: string }[] }) =>
    r.decks.length ? r.decks.map((d) => `${d.id}  ${d.title}  (${d.slides} slides, revision ${d.revision})${d.trashedAt ? '  [trashed]' : ''}`).join('\n') : 'No decks.',
})

export const deckGet = defineAction({
  id: 'deck.get',
  label: 'Get the deck document',
  doc: 'The whole normalized deck document: the manifest, every slide by id and the version log. The same document a 409 carries as `current`.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: withDefs(RESULT_DEFS.DeckDocument),
  cli: 'deck get',
  mcp: 'deck_get',
  example: {},
  run: async (ctx) => plainDoc(await ctx.target()),
})
