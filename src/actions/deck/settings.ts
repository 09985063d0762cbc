import { defineAction, type CliParsed } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc, Guides, Manifest } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { SHEET } from '../../model/layouts.js'
import { anyOf, arr, bool, BR, Colour, DeckId, lit, nullable, num, obj, oneOf, opt, ref, SectionId, SlideId, str, unknown, type Schema } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { findTheme, THEMES } from '../../model/themes.js'
import { WITH_BODY_SLIDE } from '../given.js'

type Staged = (docs: Map<string, DeckDoc | null>) => unknown

/** Runs `change` on a copy of the current deck, stages it, and answers with the manifest fields named. */
async function editManifest(
  ctx: Parameters<NonNullable<ReturnType<typeof defineAction>['run']>>[0],
  change: (manifest: Manifest, doc: DeckDoc) => void,
  answer: (manifest: Manifest) => Record<string, unknown>,
): Promise<Staged> {
  const doc = cloneDoc(await ctx.target())
  change(doc.manifest, doc)
  const id = doc.manifest.id
  ctx.stage(id, doc)
  return (docs) => {
    const manifest = docs.get(id)!.manifest
    return { id, ...answer(manifest), revision: manifest.revision }
  }
}

export const DECK_SET_PATHS = ['/title', '/theme', '/defaults/appearance', '/defaults/counter', '/defaults/notes'] as const
type DeckSetPath = (typeof DECK_SET_PATHS)[number]

/** Applies one deck.set (also a slide.update mutation kind): validates the value for its path. */
export function applyDeckSet(manifest: Manifest, path: DeckSetPath, value: unknown): void {
  const bad = (expected: string): never => fail('invalid_input', `${path} takes ${expected}.`, { pointer: '/value' })
  const defaults = { ...(manifest.defaults ?? {}) }
  switch (path) {
    case '/title':
      if (value === undefined) fail('refused', 'A deck must keep a title; /title cannot be removed.', { pointer: '/value' })
      if (typeof value !== 'string' || !value.trim() || value.length > 200) bad('a string of 1 to 200 characters')
      manifest.title = (value as string).trim()
      return
    case '/theme': {
      if (value === undefined) fail('refused', 'A deck must keep a theme; /theme cannot be removed.', { pointer: '/value' })
      const theme = typeof value === 'string' ? findTheme(value) : undefined
      if (!theme) bad(`a theme id: ${THEMES.map((t) => t.id).join(', ')}`)
      manifest.theme = theme!.storedId
      return
    }
    case '/defaults/appearance':
      if (value !== undefined && value !== 'light' && value !== 'dark') bad('"light" or "dark"')
      defaults.appearance = value as 'light' | 'dark' | undefined
      break
    case '/defaults/counter':
      if (value !== undefined && typeof value !== 'boolean') bad('true or false')
      defaults.counter = value as boolean | undefined
      break
    case '/defaults/notes':
      if (value !== undefined && typeof value !== 'string') bad('a string')
      defaults.notes = value as string | undefined
      break
  }
  manifest.defaults = defaults
}

export const deckRename = defineAction({
  id: 'deck.rename',
  label: 'Rename a deck',
  doc: 'Sets the deck title (the name shown in the sidebar head, toolbar and deck list). Equivalent to one deck.set of /title; the id does not change.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  input: obj({ name: str({ minLength: 1, maxLength: 200, description: 'New title.' }), baseRevision: BR }),
  output: written({ id: DeckId, title: str({ description: 'The new title.' }) }),
  cli: 'deck rename <name>',
  mcp: 'deck_rename',
  example: { name: 'Quarterly review, final', baseRevision: 0 },
  run: (ctx, input: { name: string }) => editManifest(ctx, (m) => applyDeckSet(m, '/title', input.name), (m) => ({ title: m.title })),
})

export const deckSet = defineAction({
  id: 'deck.set',
  label: 'Set a deck field',
  doc: 'Sets one manifest field: /title, /theme (a theme id from theme.list), /defaults/appearance (light or dark), /defaults/counter (slide numbers on or off), /defaults/notes (default speaker notes). Omit value to remove the field.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  input: obj({ path: oneOf(DECK_SET_PATHS, { description: 'Which field.' }), value: opt(unknown('The new value; omitted removes the field.')), baseRevision: BR }),
  output: written({
    id: DeckId,
    path: oneOf(DECK_SET_PATHS, { description: 'The field.' }),
    value: anyOf([str(), bool(), { type: 'null' }], { description: 'Its value now (a theme by its id); null once removed.' }),
  }),
  cli: 'deck set <path> <value>',
  mcp: 'deck_set',
  example: { path: '/defaults/appearance', value: 'dark', baseRevision: 0 },
  run: (ctx, input: { path: DeckSetPath; value?: unknown }) =>
    editManifest(
      ctx,
      (m) => applyDeckSet(m, input.path, input.value),
      (m) => {
        const [, a, b] = input.path.split('/')
        const value = b ? (m as unknown as Record<string, Record<string, unknown> | undefined>)[a]?.[b] : (m as unknown as Record<string, unknown>)[a]
        return { path: input.path, value: a === 'theme' ? findTheme(String(value))?.id : value ?? null }
      },
    ),
})

const BackgroundInput: Schema = nullable(anyOf([Colour, obj({ color: Colour })]))

/** A background given as a colour string or as { color }; null removes. */
export function backgroundValue(background: unknown): string | undefined {
  if (background === null || background === undefined) return undefined
  if (typeof background === 'string') return background
  return (background as { color: string }).color
}

export const deckSetBackground = defineAction({
  id: 'deck.setBackground',
  label: 'Set the deck background',
  doc: 'Sets the default background colour for slides without their own: a palette token (paper, ink, accent, ...) or a hex colour. null removes it so the theme default applies.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  input: obj({ background: { ...BackgroundInput, description: 'A colour, { color }, or null.' }, baseRevision: BR }),
  output: written({ id: DeckId, background: { ...nullable(Colour), description: 'The background now, or null.' } }),
  cli: 'deck background --color <color>',
  mcp: 'deck_set_background',
  example: { background: '#f5f1e8', baseRevision: 0 },
  cliInput: (parsed: CliParsed) => ({ background: null, ...parsed.input, ...(parsed.flags.color !== undefined ? { background: parsed.flags.color } : {}) }),
  run: (ctx, input: { background: unknown }) =>
    editManifest(
      ctx,
      (m) => {
        const value = backgroundValue(input.background)
        if (value === undefined) delete m.background
        else m.background = value
      },
      (m) => ({ background: m.background ?? null }),
    ),
})

const GuideRef = obj({ axis: oneOf(['vertical', 'horizontal']), at: num({ minimum: 0, maximum: SHEET.width }) })
const GuideMove = obj({ axis: oneOf(['vertical', 'horizontal']), from: num(), to: num({ minimum: 0, maximum: SHEET.width }) })
const GuideSet = obj({ vertical: opt(arr(num({ minimum: 0, maximum: SHEET.width }))), horizontal: opt(arr(num({ minimum: 0, maximum: SHEET.height }))) })

interface GuidesInput {
  add?: { axis: 'vertical' | 'horizontal'; at: number }[]
  remove?: { axis: 'vertical' | 'horizontal'; at: number }[]
  move?: { axis: 'vertical' | 'horizontal'; from: number; to: number }[]
  set?: Guides
  clear?: true
}

/** Applies guide edits in the order clear, set, remove, move, add; normalization sorts and drops out-of-sheet guides. */
export function applyGuides(current: Guides | undefined, input: GuidesInput): Guides {
  let guides: Guides = input.clear ? {} : input.set ? structuredClone(input.set) : structuredClone(current ?? {})
  const list = (axis: 'vertical' | 'horizontal') => (guides[axis] ??= [])
  for (const { axis, at } of input.remove ?? []) {
    const values = list(axis)
    const index = values.indexOf(at)
    if (index < 0) fail('not_found', `No ${axis} guide at ${at}.`, { pointer: '/remove' })
    values.splice(index, 1)
  }
  for (const { axis, from, to } of input.move ?? []) {
    const values = list(axis)
    const index = values.indexOf(from)
    if (index < 0) fail('not_found', `No ${axis} guide at ${from}.`, { pointer: '/move' })
    values[index] = to
  }
  for (const { axis, at } of input.add ?? []) list(axis).push(at)
  return guides
}

const numbers = (value: unknown): number[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean).map(Number)

export const deckGuides = defineAction({
  id: 'deck.guides',
  label: 'Edit guides',
  doc: 'Adds, removes, moves, replaces or clears the vertical and horizontal guide lines (sheet pixels, the same on every slide). Guides are kept sorted and inside the 1600 × 900 sheet; an empty result removes the field.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    add: opt(arr(GuideRef, { description: 'Guides to add.' })),
    remove: opt(arr(GuideRef, { description: 'Guides to remove (exact position).' })),
    move: opt(arr(GuideMove, { description: 'Guides to move from one position to another.' })),
    set: opt({ ...GuideSet, description: 'Replaces both lists.' }),
    clear: opt(lit(true, { description: 'Removes every guide.' })),
    baseRevision: BR,
  }),
  output: written({
    id: DeckId,
    guides: obj({ vertical: arr(num(), { description: 'Sorted, sheet px.' }), horizontal: arr(num(), { description: 'Sorted, sheet px.' }) }, { description: 'The guides now.' }),
  }),
  cli: 'deck guides --add-vertical <x> --add-horizontal <y> --remove-vertical <x> --remove-horizontal <y> --set <json> --clear',
  mcp: 'deck_set_guides',
  example: { add: [{ axis: 'vertical', at: 800 }], baseRevision: 0 },
  cliInput: (parsed: CliParsed) => {
    const f = parsed.flags
    const refs = (key: string, axis: 'vertical' | 'horizontal') => numbers(f[key]).map((at) => ({ axis, at }))
    const add = [...refs('add-vertical', 'vertical'), ...refs('add-horizontal', 'horizontal')]
    const remove = [...refs('remove-vertical', 'vertical'), ...refs('remove-horizontal', 'horizontal')]
    const input: Record<string, unknown> = { ...parsed.input }
    for (const key of ['x', 'y']) delete input[key]
    if (add.length) input.add = add
    if (remove.length) input.remove = remove
    if (f.set !== undefined) input.set = typeof f.set === 'string' ? JSON.parse(f.set) : f.set
    if (f.clear) input.clear = true
    return input
  },
  run: (ctx, input: GuidesInput) =>
    editManifest(
      ctx,
      (m) => (m.guides = applyGuides(m.guides, input)),
      (m) => ({ guides: { vertical: m.guides?.vertical ?? [], horizontal: m.guides?.horizontal ?? [] } }),
    ),
})

const SectionInput = obj({ id: SectionId, title: str({ minLength: 1, maxLength: 200 }), slides: arr(SlideId) })

export const sectionSet = defineAction({
  id: 'section.set',
  label: 'Set the sections',
  doc: 'Replaces the whole section list (the only place slide order lives). Every slide of the deck must appear exactly once; section ids must be unique.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  input: obj({ sections: arr(SectionInput, { minItems: 1 }), baseRevision: BR }),
  output: written({ id: DeckId, sections: arr(ref('Section'), { description: 'The sections now.' }) }),
  cli: 'sections set < sections.json',
  annotations: { destructive: true, idempotent: true },
  mcp: 'deck_set_sections',
  given: WITH_BODY_SLIDE,
  example: { sections: [{ id: 'intro', title: 'Introduction', slides: ['title-1'] }, { id: 'appendix', title: 'Appendix', slides: ['title-body-2'] }], baseRevision: 1 },
  stdinField: 'sections',
  run: (ctx, input: { sections: { id: string; title: string; slides: string[] }[] }) =>
    editManifest(
      ctx,
      (m, doc) => {
        const seenSections = new Set<string>()
        const seenSlides = new Set<string>()
        input.sections.forEach((section, i) => {
          if (seenSections.has(section.id)) fail('invalid_input', `Section id "${section.id}" appears twice.`, { pointer: `/sections/${i}/id` })
          seenSections.add(section.id)
          section.slides.forEach((slideId, j) => {
            if (!Object.hasOwn(doc.slides, slideId)) fail('not_found', `No slide "${slideId}" in this deck.`, { pointer: `/sections/${i}/slides/${j}` })
            if (seenSlides.has(slideId)) fail('invalid_input', `Slide "${slideId}" appears twice.`, { pointer: `/sections/${i}/slides/${j}` })
            seenSlides.add(slideId)
          })
        })
        const missing = Object.keys(doc.slides).filter((id) => !seenSlides.has(id))
        if (missing.length) fail('invalid_input', `Every slide must be placed; missing: ${missing.join(', ')}. Remove slides with slide.remove.`, { pointer: '/sections' })
        m.sections = input.sections
      },
      (m) => ({ sections: m.sections }),
    ),
})
