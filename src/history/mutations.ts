/**
 * What each mutation touched, and the mutations of a range grouped by touched block and by author
 * (version.diff). A target is `deck` (manifest fields, sections), `versions` (the named-version log),
 * a slide id (the slide as a whole: added, removed, moved, layout, notes, skip, ...), or
 * `<slideId>#<blockId>` (one block); other files of the deck folder count under their first path
 * segment (`assets`, `comments`).
 */
import type { DeckDoc, Manifest, Slide } from '../model/deck.js'
import { diffDecks, manifestChanges, slideClauses, titleOf } from './diff.js'
import type { Mutation } from './history.js'
import type { ObjectReader } from './objects.js'

export interface MutationSummary {
  revision: number
  action: string | null
  author: string
  at: string
  commit: string
  touched: string[]
  /** The titles of the slides whose files it changed (as it left them, or as they were when it removed them), by slide id. */
  titles?: Record<string, string>
}

export interface BlockGroup {
  target: string
  slideId?: string
  blockId?: string
  /** The slide's title where the target is a slide or a block on one. */
  title?: string
  mutations: { revision: number; action: string | null; author: string; at: string }[]
}

export interface AuthorGroup {
  author: string
  mutations: { revision: number; action: string | null; at: string; touched: string[] }[]
}

/** A parsed file change: the JSON before and after (null where the file did not exist). */
export interface ParsedChange {
  path: string
  before: unknown
  after: unknown
}

function skeleton(manifest: Manifest): DeckDoc {
  const slides: Record<string, Slide> = {}
  for (const section of manifest.sections) for (const id of section.slides) slides[id] = { id, layout: 'skeleton' }
  return { manifest: { ...manifest, title: '', theme: '' }, slides, versions: [] }
}

/** The targets one commit touched, in a stable order (deck, versions, slides and blocks, the rest). */
export function touchedBy(changes: ParsedChange[]): string[] {
  const out = new Set<string>()
  const rest = new Set<string>()
  for (const change of changes) {
    if (change.path === 'deck.json') {
      const before = change.before as Manifest | null
      const after = change.after as Manifest | null
      if (!before || !after) {
        out.add('deck')
        continue
      }
      // Most writes change only the revision and stamps here: say so without diffing.
      const { revision: _r1, stamps: _s1, sections: sectionsBefore, ...restBefore } = before
      const { revision: _r2, stamps: _s2, sections: sectionsAfter, ...restAfter } = after
      const sectionsSame = JSON.stringify(sectionsBefore) === JSON.stringify(sectionsAfter)
      if (sectionsSame && JSON.stringify(restBefore) === JSON.stringify(restAfter)) continue
      if (manifestChanges(before, after).length) out.add('deck')
      // Slides whose place changed (added and removed ones are named by their own files).
      if (!sectionsSame) for (const moved of diffDecks(skeleton(before), skeleton(after)).slides) if (moved.kind === 'moved') out.add(moved.slideId)
      continue
    }
    if (change.path === 'versions.json') {
      out.add('versions')
      continue
    }
    const slide = /^slides\/(.+)\.json$/.exec(change.path)
    if (slide) {
      const id = slide[1]
      const before = change.before as Slide | null
      const after = change.after as Slide | null
      if (!before || !after) {
        out.add(id)
        continue
      }
      const clauses = slideClauses(before, after)
      if (clauses.parts.length > clauses.blocks.length || !clauses.parts.length) out.add(id)
      for (const block of clauses.blocks) out.add(`${id}#${block}`)
      continue
    }
    rest.add(change.path.split('/')[0].replace(/\.json$/, ''))
  }
  return [...out, ...[...rest].sort()]
}

function parse(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Summaries of mutations, reading every JSON blob they changed in one round of the reader. */
export async function summarize(reader: ObjectReader, mutations: Mutation[]): Promise<MutationSummary[]> {
  const json = (path: string) => path === 'deck.json' || path === 'versions.json' || /^slides\/.+\.json$/.test(path)
  const shas = new Set<string>()
  for (const m of mutations) for (const c of m.changes) if (json(c.path)) for (const sha of [c.before, c.after]) if (sha) shas.add(sha)
  const list = [...shas]
  const texts = await reader.texts(list)
  const parsed = new Map<string, unknown>()
  list.forEach((sha, i) => parsed.set(sha, parse(texts[i])))
  return mutations.map((m) => {
    const changes = m.changes.map((c) => ({
      path: c.path,
      before: json(c.path) && c.before ? parsed.get(c.before) ?? null : null,
      after: json(c.path) && c.after ? parsed.get(c.after) ?? null : null,
    }))
    const titles: Record<string, string> = Object.create(null)
    for (const change of changes) {
      const slide = /^slides\/(.+)\.json$/.exec(change.path)
      const state = (change.after ?? change.before) as Slide | null
      if (slide && state && typeof state === 'object') {
        const title = titleOf(state)
        if (title) titles[slide[1]] = title
      }
    }
    return { revision: m.revision, action: m.action, author: m.author, at: m.at, commit: m.commit, touched: touchedBy(changes), titles }
  })
}

/**
 * Groups by target: deck first, then slides and their blocks in the order of `doc`, then the rest.
 * A slide is titled as `doc` shows it, else (a slide removed since) by the title it had when a
 * mutation last touched its file.
 */
export function groupByTarget(summaries: MutationSummary[], doc: DeckDoc | null): BlockGroup[] {
  const groups = new Map<string, BlockGroup>()
  const lastTitles = new Map<string, string>()
  for (const s of summaries) for (const [id, title] of Object.entries(s.titles ?? {})) lastTitles.set(id, title)
  for (const s of summaries) {
    for (const target of s.touched) {
      let group = groups.get(target)
      if (!group) {
        const [slideId, blockId] = target.includes('#') ? target.split('#') : [target, undefined]
        const slide = doc && Object.hasOwn(doc.slides, slideId) ? doc.slides[slideId] : undefined
        const isSlide = Boolean(blockId) || Boolean(slide) || !['deck', 'versions', 'assets', 'comments'].includes(target)
        const title = slide ? titleOf(slide) : isSlide ? lastTitles.get(slideId) : undefined
        group = { target, ...(isSlide ? { slideId } : {}), ...(blockId ? { blockId } : {}), ...(title !== undefined ? { title } : {}), mutations: [] }
        groups.set(target, group)
      }
      group.mutations.push({ revision: s.revision, action: s.action, author: s.author, at: s.at })
    }
  }
  const order = new Map<string, number>()
  order.set('deck', 0)
  order.set('versions', 1)
  let rank = 2
  for (const section of doc?.manifest.sections ?? []) {
    for (const id of section.slides) {
      order.set(id, rank++)
      for (const block of doc!.slides[id]?.blocks ?? []) order.set(`${id}#${block.id}`, rank++)
    }
  }
  const key = (g: BlockGroup) => order.get(g.target) ?? (g.slideId && order.has(g.slideId) ? order.get(g.slideId)! + 0.5 : Number.MAX_SAFE_INTEGER)
  return [...groups.values()].sort((a, b) => key(a) - key(b) || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0))
}

/** Groups by author, in the order each author first appears. */
export function groupByAuthor(summaries: MutationSummary[]): AuthorGroup[] {
  const groups = new Map<string, AuthorGroup>()
  for (const s of summaries) {
    let group = groups.get(s.author)
    if (!group) groups.set(s.author, (group = { author: s.author, mutations: [] }))
    group.mutations.push({ revision: s.revision, action: s.action, at: s.at, touched: s.touched })
  }
  return [...groups.values()]
}
