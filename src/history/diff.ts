/**
 * The prose diff: two states of a deck compared structurally, said the way a writer would say it.
 *
 *   Deck title changed from 'Q3' to 'Q3 review'
 *   Slide 4 'Pricing': title changed from 'Plans' to 'Pricing'; block b3 moved 40 px right
 *   Slide 7 'Appendix': skipped
 *
 * Pure: no I/O, no clock. Every sentence it can produce is pinned word for word by
 * test/unit/history/diff.unit.test.ts; change them together. Slides are named by their number in
 * the deck (the newer state's order; a removed slide by its number in the older state) and their
 * title; blocks by their id, except the title slot's block, which is "title".
 */
import type { Block, DeckDoc, Manifest, Slide, Version } from '../model/deck.js'
import { parse, type Marks } from '../model/text.js'
import { findTheme } from '../model/themes.js'

export type SlideChangeKind = 'added' | 'removed' | 'moved' | 'changed'

export interface SlideChange {
  kind: SlideChangeKind
  slideId: string
  /** Position in the deck: in the newer state, or in the older one for a removed slide. */
  number: number
  title: string
  /** The clauses, in reading order (for added and removed: one clause saying so). */
  parts: string[]
  /** Ids of the blocks this change touched. */
  blocks: string[]
}

export interface DeckDiff {
  /** Deck-level sentences: title, theme, settings, sections, named versions. */
  deck: string[]
  slides: SlideChange[]
}

const MAX_QUOTE = 60

/** Plain text of a Text value: tags dropped, entities decoded, whitespace collapsed, trimmed. */
export function plain(text: unknown): string {
  if (typeof text !== 'string') return ''
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A quoted, shortened plain text: 'Costs fell by half'. */
export function quote(text: string): string {
  const short = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1).trimEnd()}…` : text
  return `'${short}'`
}

/** The plain text a block shows (list items and table rows joined with " / ", cells with " | "). */
export function blockText(block: Block): string {
  switch (block.kind) {
    case 'list':
      return ((block.items as { text: string }[] | undefined) ?? []).map((item) => plain(item.text)).join(' / ')
    case 'table':
      return ((block.rows as string[][] | undefined) ?? []).map((row) => row.map(plain).join(' | ')).join(' / ')
    case 'chart':
      return plain(block.title)
    case 'picture':
      return plain(block.caption)
    default:
      return plain(block.text)
  }
}

/** The title a slide shows: its title field, else its title slot's (or first heading's) text. */
export function titleOf(slide: Slide): string {
  if (typeof slide.title === 'string' && plain(slide.title)) return plain(slide.title)
  const heading = (slide.blocks ?? []).find((b) => b.slot === 'title') ?? (slide.blocks ?? []).find((b) => b.kind === 'heading')
  return heading ? plain(heading.text) : ''
}

/** "Slide 4 'Pricing'", or "Slide 4 (freeform-4)" for an untitled slide. */
export function slideLabel(number: number, title: string, slideId: string): string {
  return title ? `Slide ${number} ${quote(title)}` : `Slide ${number} (${slideId})`
}

/** 40 → "40"; 12.5 → "12.5"; 0.333 → "0.3". */
function px(n: number): string {
  const rounded = Math.round(n * 10) / 10
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1)
}

function and(items: string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** The ids of `after` that keep their relative order from `before` (a longest common subsequence). */
function keptInOrder(before: string[], after: string[]): Set<string> {
  const n = before.length
  const m = after.length
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) table[i][j] = before[i] === after[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1])
  }
  const kept = new Set<string>()
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (before[i] === after[j]) {
      kept.add(before[i])
      i++
      j++
    } else if (table[i + 1][j] >= table[i][j + 1]) i++
    else j++
  }
  return kept
}

// ---------------------------------------------------------------- formatting

/** The marks formatting clauses name, in the order they are said. */
const MARK_WORDS: [keyof Marks, string][] = [
  ['italic', 'italic'],
  ['underline', 'underline'],
  ['strike', 'strikethrough'],
  ['superscript', 'superscript'],
  ['subscript', 'subscript'],
  ['color', 'text colour'],
  ['highlight', 'highlight'],
  ['size', 'size'],
  ['href', 'link'],
]

const MAX_MARK_CLAUSES = 4

/** The characters of a Text with their marks; null when the markup cannot be read (a hand edit). */
function marked(text: string): { ch: string; marks: Marks }[] | null {
  try {
    return parse(text).flatMap((run) => [...run.text].map((ch) => ({ ch, marks: run.marks })))
  } catch {
    return null
  }
}

function markValue(key: keyof Marks, value: unknown): string {
  if (key === 'size') return `${value} px`
  if (key === 'href') return `to ${value}`
  return String(value)
}

/**
 * What changed in the formatting of a Text whose words stayed the same: "italic on 'half'",
 * "underline removed from 'Margins'", "text colour accent on 'grew'", "size 40 px on 'Costs'",
 * "link to https://example.com on 'site'". `what` names the Text ("item 2 "); empty when it is the
 * block's own text. Markup that cannot be read says "formatting changed".
 */
export function formattingClauses(what: string, before: string, after: string): string[] {
  if (before === after) return []
  const a = marked(before)
  const b = marked(after)
  if (!a || !b || a.length !== b.length || a.some((c, i) => c.ch !== b[i].ch)) return [`${what}formatting changed`]
  const out: string[] = []
  for (const [key, word] of MARK_WORDS) {
    let start = -1
    const flush = (end: number) => {
      if (start < 0) return
      const span = quote(a.slice(start, end).map((c) => c.ch).join('').replace(/\s+/g, ' ').trim())
      const value = b[start].marks[key]
      if (value === undefined) out.push(`${what}${word} removed from ${span}`)
      else if (value === true) out.push(`${what}${word} on ${span}`)
      else out.push(`${what}${word} ${markValue(key, value)} on ${span}`)
      start = -1
    }
    for (let i = 0; i <= a.length; i++) {
      const changed = i < a.length && a[i].ch !== '\n' && a[i].marks[key] !== b[i].marks[key]
      // A span is the characters that changed the same way (from one value to one other).
      if (start >= 0 && (!changed || a[i].marks[key] !== a[start].marks[key] || b[i].marks[key] !== b[start].marks[key])) flush(i)
      if (changed && start < 0) start = i
    }
  }
  if (!out.length) return [`${what}formatting changed`]
  if (out.length > MAX_MARK_CLAUSES) return [...out.slice(0, MAX_MARK_CLAUSES), `${out.length - MAX_MARK_CLAUSES} more formatting changes`]
  return out
}

/** A Text's change: its words (textClause) when they changed, else its formatting. */
function textChange(what: string, before: unknown, after: unknown): string[] {
  const a = plain(before)
  const b = plain(after)
  if (a !== b) return [textClause(what, a, b)]
  if (typeof before === 'string' && typeof after === 'string') return formattingClauses(what ? `${what} ` : '', before, after)
  return []
}

// ---------------------------------------------------------------- deck level

function themeName(stored: string): string {
  return findTheme(stored)?.id ?? stored
}

function orderOf(manifest: Manifest): string[] {
  return manifest.sections.flatMap((s) => s.slides)
}

function sectionTitle(manifest: Manifest, sectionId: string): string {
  return manifest.sections.find((s) => s.id === sectionId)?.title ?? sectionId
}

function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'none'
  return typeof value === 'string' ? quote(value) : JSON.stringify(value)
}

/** Deck-level sentences between two manifests (and version logs). */
export function manifestChanges(before: Manifest, after: Manifest, versionsBefore: Version[] = [], versionsAfter: Version[] = []): string[] {
  const out: string[] = []
  if (before.title !== after.title) out.push(`Deck title changed from ${quote(before.title)} to ${quote(after.title)}`)
  if (themeName(before.theme) !== themeName(after.theme)) out.push(`Theme changed from ${themeName(before.theme)} to ${themeName(after.theme)}`)
  const a = before.defaults ?? {}
  const b = after.defaults ?? {}
  if (a.appearance !== b.appearance) out.push(`Default appearance changed from ${a.appearance ?? 'none'} to ${b.appearance ?? 'none'}`)
  if (a.counter !== b.counter) out.push(b.counter ? 'Slide numbers turned on' : 'Slide numbers turned off')
  if (a.notes !== b.notes) out.push(b.notes === undefined ? 'Default notes removed' : `Default notes changed to ${quote(plain(b.notes))}`)
  if (before.background !== after.background) out.push(`Deck background changed from ${describeValue(before.background)} to ${describeValue(after.background)}`)
  if (!same(before.guides ?? {}, after.guides ?? {})) {
    const list = (g: Manifest['guides']) =>
      `vertical ${g?.vertical?.length ? g.vertical.join(', ') : 'none'}; horizontal ${g?.horizontal?.length ? g.horizontal.join(', ') : 'none'}`
    out.push(`Guides changed to ${list(after.guides)}`)
  }
  if (!before.trashedAt && after.trashedAt) out.push('Deck moved to the trash')
  if (before.trashedAt && !after.trashedAt) out.push('Deck taken out of the trash')

  const oldSections = new Map(before.sections.map((s) => [s.id, s]))
  const newSections = new Map(after.sections.map((s) => [s.id, s]))
  for (const section of after.sections) {
    const old = oldSections.get(section.id)
    if (!old) out.push(`Section ${quote(section.title)} added`)
    else if (old.title !== section.title) out.push(`Section ${quote(old.title)} renamed to ${quote(section.title)}`)
  }
  for (const section of before.sections) if (!newSections.has(section.id)) out.push(`Section ${quote(section.title)} removed`)
  const common = (m: Manifest) => m.sections.map((s) => s.id).filter((id) => oldSections.has(id) && newSections.has(id))
  const oldOrder = common(before)
  const newOrder = common(after)
  if (!same(oldOrder, newOrder)) out.push(`Sections reordered: ${newOrder.map((id) => quote(newSections.get(id)!.title)).join(', ')}`)

  const known = new Map(versionsBefore.map((v) => [v.n, v]))
  for (const version of versionsAfter) if (!known.has(version.n)) out.push(`Named version ${version.n} saved: ${quote(version.note)}`)
  const kept = new Set(versionsAfter.map((v) => v.n))
  for (const version of versionsBefore) if (!kept.has(version.n)) out.push(`Named version ${version.n} dropped: ${quote(version.note)}`)
  return out
}

// ---------------------------------------------------------------- blocks

const CANVAS_KEYS = new Set(['pos', 'z', 'slot'])
const CONTENT_KEYS = new Set(['id', 'kind', 'text', 'items', 'rows', 'header', 'data', 'chartType', 'title', 'caption', 'asset', 'angle'])

function blockName(block: Block): string {
  return block.slot === 'title' ? 'title' : `block ${block.id}`
}

function moveClause(a: { x: number; y: number }, b: { x: number; y: number }): string | null {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const parts: string[] = []
  if (Math.abs(dx) >= 0.05) parts.push(`${px(Math.abs(dx))} px ${dx > 0 ? 'right' : 'left'}`)
  if (Math.abs(dy) >= 0.05) parts.push(`${px(Math.abs(dy))} px ${dy > 0 ? 'down' : 'up'}`)
  return parts.length ? `moved ${parts.join(' and ')}` : null
}

function textClause(what: string, before: string, after: string): string {
  if (!before) return `${what} set to ${quote(after)}`
  if (!after) return `${what} cleared (was ${quote(before)})`
  return `${what} changed from ${quote(before)} to ${quote(after)}`
}

function listClauses(before: Block, after: Block): string[] {
  type Item = { text: string; level?: number }
  const a = (before.items as Item[] | undefined) ?? []
  const b = (after.items as Item[] | undefined) ?? []
  const out: string[] = []
  if (a.length === b.length) {
    a.forEach((item, i) => {
      if (plain(item.text) !== plain(b[i].text)) out.push(`item ${i + 1} changed from ${quote(plain(item.text))} to ${quote(plain(b[i].text))}`)
      else out.push(...formattingClauses(`item ${i + 1} `, item.text, b[i].text))
      if ((item.level ?? 1) !== (b[i].level ?? 1)) out.push(`item ${i + 1} ${(b[i].level ?? 1) > (item.level ?? 1) ? 'indented' : 'outdented'} to level ${b[i].level ?? 1}`)
    })
    return out
  }
  const oldTexts = a.map((i) => plain(i.text))
  const newTexts = b.map((i) => plain(i.text))
  for (const text of newTexts) if (!oldTexts.includes(text)) out.push(`item ${quote(text)} added`)
  for (const text of oldTexts) if (!newTexts.includes(text)) out.push(`item ${quote(text)} removed`)
  if (!out.length) out.push(`items changed from ${quote(oldTexts.join(' / '))} to ${quote(newTexts.join(' / '))}`)
  return out
}

function tableClauses(before: Block, after: Block): string[] {
  const rawA = (before.rows as string[][] | undefined) ?? []
  const rawB = (after.rows as string[][] | undefined) ?? []
  const a = rawA.map((r) => r.map(plain))
  const b = rawB.map((r) => r.map(plain))
  const cols = (rows: string[][]) => Math.max(0, ...rows.map((r) => r.length))
  if (a.length !== b.length || cols(a) !== cols(b)) return [`table resized from ${a.length} × ${cols(a)} to ${b.length} × ${cols(b)}`]
  const cells: string[] = []
  a.forEach((row, r) => row.forEach((cell, c) => {
    if (cell !== b[r][c]) cells.push(`cell ${r + 1},${c + 1} changed from ${quote(cell)} to ${quote(b[r][c])}`)
    else if (typeof rawA[r][c] === 'string' && typeof rawB[r]?.[c] === 'string') cells.push(...formattingClauses(`cell ${r + 1},${c + 1} `, rawA[r][c], rawB[r][c]))
  }))
  if (cells.length > 3) return [...cells.slice(0, 3), `${cells.length - 3} more cells changed`]
  return cells
}

/** Clauses for one block present in both states ("moved 40 px right", "text changed from ..."). */
export function blockClauses(before: Block, after: Block, layoutChanged: boolean): string[] {
  if (before.kind !== after.kind) return [`replaced by a ${after.kind} (was a ${before.kind})`]
  const out: string[] = []
  if (!layoutChanged) {
    if (before.slot !== after.slot && before.slot && after.slot) out.push(`moved from the ${before.slot} slot to the ${after.slot} slot`)
    const a = before.pos as { x: number; y: number; w: number; h: number } | undefined
    const b = after.pos as { x: number; y: number; w: number; h: number } | undefined
    if (a && b) {
      const moved = moveClause(a, b)
      if (moved) out.push(moved)
      if (a.w !== b.w || a.h !== b.h) out.push(`resized from ${px(a.w)} × ${px(a.h)} to ${px(b.w)} × ${px(b.h)}`)
    }
  }
  const angleA = (before.angle as number | undefined) ?? 0
  const angleB = (after.angle as number | undefined) ?? 0
  if (angleA !== angleB) out.push(`rotated from ${px(angleA)}° to ${px(angleB)}°`)
  switch (before.kind) {
    case 'list':
      out.push(...listClauses(before, after))
      break
    case 'table':
      out.push(...tableClauses(before, after))
      if (Boolean(before.header) !== Boolean(after.header)) out.push(after.header ? 'header row turned on' : 'header row turned off')
      break
    case 'chart':
      if (before.chartType !== after.chartType) out.push(`chart type changed from ${before.chartType} to ${after.chartType}`)
      if (!same(before.data, after.data)) out.push('chart data changed')
      out.push(...textChange('chart title', before.title, after.title))
      break
    case 'picture':
      if (before.asset === undefined && after.asset !== undefined) out.push(`picture placeholder filled with ${quote(String(after.asset))}`)
      else if (after.asset === undefined && before.asset !== undefined) out.push(`picture ${quote(String(before.asset))} taken out (an empty placeholder stays)`)
      else if (before.asset !== after.asset) out.push(`picture changed from ${quote(String(before.asset))} to ${quote(String(after.asset))}`)
      out.push(...textChange('caption', before.caption, after.caption))
      break
    default: {
      const a = plain(before.text)
      const b = plain(after.text)
      if (a !== b) out.push(before.slot === 'title' ? textClause('', a, b).trimStart() : textClause('text', a, b))
      else if (typeof before.text === 'string' && typeof after.text === 'string') out.push(...formattingClauses('', before.text, after.text))
    }
  }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  const styled = [...keys].filter((k) => !CONTENT_KEYS.has(k) && !CANVAS_KEYS.has(k) && !same(before[k], after[k])).sort()
  if (styled.length) out.push(`${and(styled)} changed`)
  return out
}

/** How a block is introduced when added or removed: "text: 'Hello'", "chart". */
function blockSummary(block: Block): string {
  const text = blockText(block)
  return text ? `${block.kind}: ${quote(text)}` : block.kind
}

function stackOrder(blocks: Block[], common: Set<string>): string[] {
  return blocks.filter((b) => common.has(b.id)).sort((x, y) => ((x.z as number) ?? 0) - ((y.z as number) ?? 0)).map((b) => b.id)
}

// ---------------------------------------------------------------- slides

const SLIDE_TEXT_FIELDS = ['title', 'subtitle', 'byline', 'attribution'] as const

/** Clauses for one slide present in both states, and the blocks they touched (moves are added by the caller). */
export function slideClauses(before: Slide, after: Slide): { parts: string[]; blocks: string[] } {
  const parts: string[] = []
  const touched: string[] = []
  const layoutChanged = before.layout !== after.layout
  if (layoutChanged) parts.push(`layout changed from ${before.layout} to ${after.layout}`)
  for (const field of SLIDE_TEXT_FIELDS) parts.push(...textChange(field, before[field], after[field]))
  const oldBlocks = before.blocks ?? []
  const newBlocks = after.blocks ?? []
  const oldById = new Map(oldBlocks.map((b) => [b.id, b]))
  const newById = new Map(newBlocks.map((b) => [b.id, b]))
  for (const block of newBlocks) {
    const old = oldById.get(block.id)
    if (!old) {
      parts.push(`${blockName(block)} added (${blockSummary(block)})`)
      touched.push(block.id)
      continue
    }
    const clauses = blockClauses(old, block, layoutChanged)
    if (!clauses.length) continue
    touched.push(block.id)
    parts.push(`${blockName(block)} ${clauses.join(', ')}`)
  }
  for (const block of oldBlocks) {
    if (newById.has(block.id)) continue
    parts.push(`${blockName(block)} removed (${blockSummary(block)})`)
    touched.push(block.id)
  }
  const common = new Set(oldBlocks.filter((b) => newById.has(b.id)).map((b) => b.id))
  if (!layoutChanged) {
    if (after.layout === 'freeform') {
      if (!same(stackOrder(oldBlocks, common), stackOrder(newBlocks, common))) parts.push('stacking order changed')
    } else {
      const order = (blocks: Block[]) => blocks.filter((b) => common.has(b.id) && oldById.get(b.id)!.slot === newById.get(b.id)!.slot).map((b) => b.id)
      if (!same(order(oldBlocks), order(newBlocks))) parts.push('block order changed')
    }
  }
  if (before.background !== after.background) parts.push(`background changed from ${describeValue(before.background)} to ${describeValue(after.background)}`)
  const notesA = plain(before.notes)
  const notesB = plain(after.notes)
  if (notesA !== notesB) parts.push(!notesA ? `notes added: ${quote(notesB)}` : !notesB ? `notes removed (were ${quote(notesA)})` : `notes changed from ${quote(notesA)} to ${quote(notesB)}`)
  if (Boolean(before.skip) !== Boolean(after.skip)) parts.push(after.skip ? 'skipped' : 'shown again')
  const extra = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !['id', 'layout', 'blocks', 'notes', 'skip', 'background', ...SLIDE_TEXT_FIELDS].includes(k) && !same(before[k], after[k]))
    .sort()
  if (extra.length) parts.push(`${and(extra)} changed`)
  return { parts, blocks: touched }
}

/** The structured diff of two deck states (either may be null: a deck added or removed). */
export function diffDecks(before: DeckDoc | null, after: DeckDoc | null): DeckDiff {
  if (!before && !after) return { deck: [], slides: [] }
  if (!before) return { deck: [`Deck ${quote(after!.manifest.title)} added with ${orderOf(after!.manifest).length} slides`], slides: [] }
  if (!after) return { deck: [`Deck ${quote(before.manifest.title)} removed (it had ${orderOf(before.manifest).length} slides)`], slides: [] }
  const deck = manifestChanges(before.manifest, after.manifest, before.versions, after.versions)
  const oldOrder = orderOf(before.manifest).filter((id) => before.slides[id])
  const newOrder = orderOf(after.manifest).filter((id) => after.slides[id])
  const oldSet = new Set(oldOrder)
  const newSet = new Set(newOrder)
  const oldIndex = new Map(oldOrder.map((id, i) => [id, i]))
  const sectionMap = (m: Manifest) => new Map(m.sections.flatMap((s) => s.slides.map((id) => [id, s.id] as const)))
  const oldSection = sectionMap(before.manifest)
  const newSection = sectionMap(after.manifest)
  const slides: SlideChange[] = []

  // A slide moved to another section says so; inside a section, the slides out of their old
  // relative order moved (a section moved as a whole is "Sections reordered", not a slide move).
  const crossed = new Set(newOrder.filter((id) => oldSet.has(id) && oldSection.get(id) !== newSection.get(id)))
  const kept = new Set<string>()
  for (const section of after.manifest.sections) {
    const old = before.manifest.sections.find((s) => s.id === section.id)
    if (!old) continue
    const stay = (order: string[], other: Set<string>) => order.filter((id) => other.has(id) && !crossed.has(id))
    for (const id of keptInOrder(stay(old.slides, newSet), stay(section.slides, oldSet))) kept.add(id)
  }

  newOrder.forEach((id, index) => {
    const slide = after.slides[id]
    const number = index + 1
    const title = titleOf(slide)
    if (!oldSet.has(id)) {
      const section = newSection.get(id)!
      slides.push({ kind: 'added', slideId: id, number, title, parts: [`added (${slide.layout}) in section ${quote(sectionTitle(after.manifest, section))}`], blocks: [] })
      return
    }
    const parts: string[] = []
    if (crossed.has(id)) {
      const from = oldSection.get(id)!
      const to = newSection.get(id)!
      parts.push(`moved from section ${quote(sectionTitle(before.manifest, from))} to ${quote(sectionTitle(after.manifest, to))}`)
    } else if (!kept.has(id)) {
      parts.push(`moved from position ${oldIndex.get(id)! + 1} to ${number}`)
    }
    const content = slideClauses(before.slides[id], slide)
    parts.push(...content.parts)
    if (!parts.length) return
    slides.push({ kind: content.parts.length ? 'changed' : 'moved', slideId: id, number, title, parts, blocks: content.blocks })
  })
  oldOrder.forEach((id, index) => {
    if (newSet.has(id)) return
    slides.push({ kind: 'removed', slideId: id, number: index + 1, title: titleOf(before.slides[id]), parts: ['removed'], blocks: [] })
  })
  return { deck, slides }
}

/** One sentence per slide change: "Slide 4 'Pricing': title changed ...", "Slide 5 'Plans' added (...)". */
export function slideSentence(change: SlideChange): string {
  const label = slideLabel(change.number, change.title, change.slideId)
  if (change.kind === 'added' || change.kind === 'removed') return `${label} ${change.parts[0]}`
  return `${label}: ${change.parts.join('; ')}`
}

/** The mutation list in prose: deck sentences first, then one per slide, in deck order. */
export function proseLines(diff: DeckDiff): string[] {
  return [...diff.deck, ...diff.slides.map(slideSentence)]
}

/** The whole prose diff of two states, one sentence per line; "No changes." when there are none. */
export function proseDiff(before: DeckDoc | null, after: DeckDoc | null): string {
  const lines = proseLines(diffDecks(before, after))
  return lines.length ? lines.join('\n') : 'No changes.'
}
