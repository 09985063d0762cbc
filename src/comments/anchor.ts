/**
 * Where a comment thread sits, and how it follows the content (docs/comments.md, decision 014).
 *
 * Six anchor kinds: the deck, a slide, a block, a text range inside one Text of a block, a table
 * cell, the notes of a slide. A range keeps the text it covers with a little context before and after
 * (the W3C Web Annotation TextQuoteSelector idea); a cell keeps its text, its row's first cell and its
 * column's first cell. An anchor is `attached` (it names what it covers now), `detached` (a range
 * whose text is gone: the quote is kept, and the thread re-attaches when the text comes back) or
 * `removed` (its slide, block, row or column is gone; it comes back with them).
 *
 * `follow` moves an anchor through one accepted write (the document before and after it): the
 * engine calls it on every thread of a deck it writes, so undo and version.restore go through it too.
 * `settle` resolves an anchor against a document alone (reads, and writes made beside studio: a
 * hand-edited file, a merge). Neither ever drops a thread.
 */
import type { Block, DeckDoc } from '../model/deck.js'
import { own } from '../model/own.js'
import { blockTexts, plainText } from '../model/text.js'

export type Anchor =
  | { kind: 'deck' }
  | { kind: 'slide'; slideId: string }
  | { kind: 'notes'; slideId: string }
  | { kind: 'block'; slideId: string; blockId: string }
  | { kind: 'range'; slideId: string; blockId: string; path: string; range: [number, number] }
  | { kind: 'cell'; slideId: string; blockId: string; row: number; col: number }

/** The text a range or cell covered: `exact`, with up to CONTEXT characters before (prefix) and after (suffix); for a cell, its row's and column's first cells. */
export interface Quote {
  exact: string
  prefix: string
  suffix: string
}

export type AnchorStatus = 'attached' | 'detached' | 'removed'

export interface Placed {
  anchor: Anchor
  quote?: Quote
  status: AnchorStatus
}

/** Characters of context kept on each side of a quoted range. */
export const CONTEXT = 32

const chars = (text: string): string[] => Array.from(text)

/** The plain text of a block's Text at `path`, or undefined when the block has no Text there. */
export function textAt(block: Block, path: string): string | undefined {
  const site = blockTexts(block).find((s) => s.pointer === path)
  if (!site) return undefined
  try {
    return plainText(site.value)
  } catch {
    return undefined
  }
}

const markupAt = (block: Block, path: string): string | undefined => blockTexts(block).find((s) => s.pointer === path)?.value

export function blockOf(doc: DeckDoc, slideId: string, blockId: string): Block | undefined {
  return own(doc.slides, slideId)?.blocks?.find((b) => b.id === blockId)
}

/** The quote of `range` in `text` (code points). */
export function quoteOf(text: string, range: readonly [number, number]): Quote {
  const cs = chars(text)
  return { exact: cs.slice(range[0], range[1]).join(''), prefix: cs.slice(Math.max(0, range[0] - CONTEXT), range[0]).join(''), suffix: cs.slice(range[1], range[1] + CONTEXT).join('') }
}

function tableRows(block: Block): string[][] | undefined {
  const rows = (block as { rows?: unknown }).rows
  if (block.kind !== 'table' || !Array.isArray(rows)) return undefined
  return rows.map((row) => (Array.isArray(row) ? row.map((cell) => safePlain(String(cell))) : []))
}

function safePlain(markup: string): string {
  try {
    return plainText(markup)
  } catch {
    return markup
  }
}

/** A cell's quote: its text, its row's first cell, its column's first cell. */
export function cellQuote(rows: string[][], row: number, col: number): Quote {
  return { exact: rows[row]?.[col] ?? '', prefix: rows[row]?.[0] ?? '', suffix: rows[0]?.[col] ?? '' }
}

/** How well an occurrence at [start, end) of `cs` agrees with the quote's context (characters matched). */
function contextScore(cs: string[], start: number, end: number, quote: Quote): number {
  const prefix = chars(quote.prefix)
  const suffix = chars(quote.suffix)
  let score = 0
  for (let i = 1; i <= prefix.length && start - i >= 0 && cs[start - i] === prefix[prefix.length - i]; i++) score++
  for (let i = 0; i < suffix.length && end + i < cs.length && cs[end + i] === suffix[i]; i++) score++
  return score
}

/** The best occurrence of the quote in `text`: most context agreeing, then nearest to `near`. */
function findQuote(text: string, quote: Quote, near: number, within?: [number, number]): [number, number] | undefined {
  const exact = chars(quote.exact)
  if (!exact.length) return undefined
  const cs = chars(text)
  let best: { at: number; score: number; distance: number } | undefined
  const first = within ? Math.max(0, within[0]) : 0
  const last = within ? Math.min(cs.length, within[1]) : cs.length
  outer: for (let at = first; at + exact.length <= last; at++) {
    for (let k = 0; k < exact.length; k++) if (cs[at + k] !== exact[k]) continue outer
    const score = contextScore(cs, at, at + exact.length, quote)
    const distance = Math.abs(at - near)
    if (!best || score > best.score || (score === best.score && distance < best.distance)) best = { at, score, distance }
  }
  return best ? [best.at, best.at + exact.length] : undefined
}

type RangeAnchor = Extract<Anchor, { kind: 'range' }>

/**
 * Searches the quote in the anchored block (blocks never move between slides): the anchored Text first,
 * then the block's other Texts (a list item moved, a cell of another row). Elsewhere in the deck the same
 * words are other words: a thread never jumps to them.
 */
function searchQuote(doc: DeckDoc, anchor: RangeAnchor, quote: Quote): Placed | undefined {
  const block = blockOf(doc, anchor.slideId, anchor.blockId)
  if (!block) return undefined
  const paths = blockTexts(block).map((s) => s.pointer)
  const ordered = paths.includes(anchor.path) ? [anchor.path, ...paths.filter((p) => p !== anchor.path)] : paths
  for (const path of ordered) {
    const text = textAt(block, path)
    const found = text === undefined ? undefined : findQuote(text, quote, path === anchor.path ? anchor.range[0] : 0)
    if (found) return { anchor: { ...anchor, path, range: found }, quote: quoteOf(text!, found), status: 'attached' }
  }
  return undefined
}

/** A range anchor on what it covers in `doc`, its quote taken from there; detached when that is empty. */
function attachRange(doc: DeckDoc, anchor: RangeAnchor, range: [number, number], fallback: Quote | undefined): Placed {
  const block = blockOf(doc, anchor.slideId, anchor.blockId)
  const text = block ? textAt(block, anchor.path) : undefined
  if (text === undefined || range[1] <= range[0] || range[1] > chars(text).length) return { anchor, ...(fallback ? { quote: fallback } : {}), status: 'detached' }
  return { anchor: { ...anchor, range }, quote: quoteOf(text, range), status: 'attached' }
}

/**
 * Where the offsets of `oldText` land in `newText` when the change between them is one region (the
 * longest common prefix and suffix kept): an offset before the region stays, one after it moves by
 * the change in length, one inside it has no image (undefined).
 */
export function offsetMap(oldText: string, newText: string): (offset: number, side: 'start' | 'end') => number | undefined {
  const a = chars(oldText)
  const b = chars(newText)
  const limit = Math.min(a.length, b.length)
  let prefix = 0
  while (prefix < limit && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < limit - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
  const oldEnd = a.length - suffix
  const delta = b.length - a.length
  return (offset, side) => {
    // Text inserted exactly at a range's start goes before the range; inserted at its end, after it.
    if (offset === prefix && prefix === oldEnd) return side === 'start' ? offset + delta : offset
    if (offset <= prefix) return offset
    if (offset >= oldEnd) return offset + delta
    return undefined
  }
}

function followRange(before: DeckDoc, after: DeckDoc, placed: Placed & { anchor: RangeAnchor }): Placed {
  const { anchor } = placed
  const quote = placed.quote
  const oldBlock = blockOf(before, anchor.slideId, anchor.blockId)
  const newBlock = blockOf(after, anchor.slideId, anchor.blockId)
  // The same markup: nothing moved (most writes touch other slides).
  if (placed.status === 'attached' && oldBlock && newBlock && (oldBlock === newBlock || markupAt(oldBlock, anchor.path) === markupAt(newBlock, anchor.path)) && markupAt(newBlock, anchor.path) !== undefined) return placed
  const oldText = oldBlock ? textAt(oldBlock, anchor.path) : undefined
  const newText = newBlock ? textAt(newBlock, anchor.path) : undefined
  if (placed.status === 'attached' && oldText !== undefined && newText !== undefined) {
    if (oldText === newText) return placed
    const map = offsetMap(oldText, newText)
    const start = map(anchor.range[0], 'start')
    const end = map(anchor.range[1], 'end')
    if (start !== undefined && end !== undefined && end > start) {
      // One change can be told two ways ("fell " typed before "fegrewa" reads as "ll fe" typed after
      // its "fe"): where the quote still stands within the change's reach, the range is on it.
      const covers = chars(newText).slice(start, end).join('')
      if (quote && covers !== quote.exact) {
        const reach = Math.abs(chars(newText).length - chars(oldText).length) + chars(quote.exact).length
        const found = findQuote(newText, quote, start, [start - reach, end + reach])
        if (found) return attachRange(after, anchor, found, quote)
      }
      // Edits outside the range, or inside it with both ends kept, move it; what it covers now is its quote.
      return attachRange(after, anchor, [start, end], quote)
    }
  }
  return relocate(after, anchor, quote)
}

/** The quote searched in `doc`; detached with the quote kept when it is nowhere. */
function relocate(doc: DeckDoc, anchor: RangeAnchor, quote: Quote | undefined): Placed {
  const found = quote ? searchQuote(doc, anchor, quote) : undefined
  if (found) return found
  return { anchor, ...(quote ? { quote } : {}), status: blockOf(doc, anchor.slideId, anchor.blockId) ? 'detached' : 'removed' }
}

/** Row or column signatures: the cells' texts joined. */
const rowKeys = (rows: string[][]) => rows.map((row) => row.join('\u0000'))
const colKeys = (rows: string[][]) => {
  const width = Math.max(0, ...rows.map((r) => r.length))
  return Array.from({ length: width }, (_, c) => rows.map((r) => r[c] ?? '').join('\u0000'))
}

/**
 * Where index `i` of `a` lands in `b`: through their longest common subsequence; an index in an
 * unmatched gap maps to the same place in the matching gap of `b` when that gap is long enough
 * (a row edited in place), else nowhere (removed).
 */
export function indexMap(a: string[], b: string[], i: number): number | undefined {
  if (a.length === b.length && a.every((v, k) => v === b[k])) return i
  const n = a.length
  const m = b.length
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let x = n - 1; x >= 0; x--) for (let y = m - 1; y >= 0; y--) table[x][y] = a[x] === b[y] ? table[x + 1][y + 1] + 1 : Math.max(table[x + 1][y], table[x][y + 1])
  // The matched pairs, in order, with the ends as sentinels.
  const pairs: [number, number][] = [[-1, -1]]
  for (let x = 0, y = 0; x < n && y < m; ) {
    if (a[x] === b[y]) {
      pairs.push([x, y])
      x++
      y++
    } else if (table[x + 1][y] >= table[x][y + 1]) x++
    else y++
  }
  pairs.push([n, m])
  for (let k = 1; k < pairs.length; k++) {
    const [nx, ny] = pairs[k]
    if (nx === i) return ny < m ? ny : undefined
    if (nx > i) {
      const [px, py] = pairs[k - 1]
      const at = py + 1 + (i - px - 1)
      return at < ny ? at : undefined
    }
  }
  return undefined
}

function followCell(before: DeckDoc, after: DeckDoc, placed: Placed & { anchor: Extract<Anchor, { kind: 'cell' }> }): Placed {
  const { anchor } = placed
  const newBlock = blockOf(after, anchor.slideId, anchor.blockId)
  const newRows = newBlock ? tableRows(newBlock) : undefined
  if (!newRows) return { ...placed, status: 'removed' }
  const oldBlock = blockOf(before, anchor.slideId, anchor.blockId)
  const oldRows = oldBlock ? tableRows(oldBlock) : undefined
  if (placed.status === 'attached' && oldRows) {
    const row = indexMap(rowKeys(oldRows), rowKeys(newRows), anchor.row)
    const col = indexMap(colKeys(oldRows), colKeys(newRows), anchor.col)
    if (row !== undefined && col !== undefined && col < (newRows[row]?.length ?? 0)) {
      return { anchor: { ...anchor, row, col }, quote: cellQuote(newRows, row, col), status: 'attached' }
    }
    return { ...placed, status: 'removed' }
  }
  return settleCell(newRows, placed)
}

/** A removed cell anchor comes back where its row's and column's first cells are again, or where it was. */
function settleCell(rows: string[][], placed: Placed & { anchor: Extract<Anchor, { kind: 'cell' }> }): Placed {
  const { anchor, quote } = placed
  const fits = (r: number, c: number) => r < rows.length && c < (rows[r]?.length ?? 0)
  if (quote) {
    const r = rows.findIndex((row) => row[0] === quote.prefix)
    const c = rows[0]?.findIndex((cell) => cell === quote.suffix) ?? -1
    if (r >= 0 && c >= 0 && fits(r, c) && (placed.status === 'attached' || rows[r][c] === quote.exact)) return { anchor: { ...anchor, row: r, col: c }, quote: cellQuote(rows, r, c), status: 'attached' }
    if (placed.status !== 'attached') return placed
  }
  if (fits(anchor.row, anchor.col)) return { anchor, quote: cellQuote(rows, anchor.row, anchor.col), status: 'attached' }
  return { ...placed, status: 'removed' }
}

/** An anchor moved through one write (`before` → `after`). */
export function follow(before: DeckDoc, after: DeckDoc, placed: Placed): Placed {
  const { anchor } = placed
  switch (anchor.kind) {
    case 'deck':
      return placed.status === 'attached' ? placed : { ...placed, status: 'attached' }
    case 'slide':
    case 'notes':
      return withStatus(placed, own(after.slides, anchor.slideId) ? 'attached' : 'removed')
    case 'block':
      return withStatus(placed, blockOf(after, anchor.slideId, anchor.blockId) ? 'attached' : 'removed')
    case 'range':
      return followRange(before, after, placed as Placed & { anchor: RangeAnchor })
    case 'cell':
      return followCell(before, after, placed as Placed & { anchor: Extract<Anchor, { kind: 'cell' }> })
  }
}

function withStatus(placed: Placed, status: AnchorStatus): Placed {
  return placed.status === status ? placed : { ...placed, status }
}

/**
 * An anchor resolved against `doc` alone: what reads answer, and what a write made beside studio is
 * met with. A range that no longer covers its quote is searched for; nothing is ever dropped.
 */
export function settle(doc: DeckDoc, placed: Placed): Placed {
  const { anchor } = placed
  switch (anchor.kind) {
    case 'deck':
    case 'slide':
    case 'notes':
    case 'block':
      return follow(doc, doc, placed)
    case 'range': {
      const block = blockOf(doc, anchor.slideId, anchor.blockId)
      const text = block ? textAt(block, anchor.path) : undefined
      if (text !== undefined && placed.quote) {
        const cs = chars(text)
        const [start, end] = anchor.range
        if (end <= cs.length && cs.slice(start, end).join('') === placed.quote.exact && placed.status === 'attached') return placed
      }
      return relocate(doc, anchor, placed.quote)
    }
    case 'cell': {
      const block = blockOf(doc, anchor.slideId, anchor.blockId)
      const rows = block ? tableRows(block) : undefined
      if (!rows) return withStatus(placed, 'removed')
      if (placed.status === 'attached' && placed.quote && rows[anchor.row]?.[anchor.col] === placed.quote.exact) return placed
      return settleCell(rows, { ...placed, status: placed.status === 'attached' ? 'detached' : placed.status } as Placed & { anchor: Extract<Anchor, { kind: 'cell' }> })
    }
  }
}

/**
 * A new anchor checked against `doc`: the slide, block, Text and cell must exist and a range must fit
 * its Text. Answers the placed anchor (with its quote) or a message for the input's /anchor.
 */
export function place(doc: DeckDoc, anchor: Anchor): Placed | { problem: string; code: 'not_found' | 'invalid_input' } {
  if (anchor.kind === 'deck') return { anchor, status: 'attached' }
  const slide = own(doc.slides, anchor.slideId)
  if (!slide) return { problem: `No slide "${anchor.slideId}" in this deck.`, code: 'not_found' }
  if (anchor.kind === 'slide' || anchor.kind === 'notes') return { anchor, status: 'attached' }
  const block = slide.blocks?.find((b) => b.id === anchor.blockId)
  if (!block) return { problem: `Slide "${anchor.slideId}" has no block "${anchor.blockId}".`, code: 'not_found' }
  if (anchor.kind === 'block') return { anchor, status: 'attached' }
  if (anchor.kind === 'cell') {
    const rows = tableRows(block)
    if (!rows) return { problem: `Block "${anchor.blockId}" is a ${block.kind} block; a cell anchor names a table's cell.`, code: 'invalid_input' }
    if (anchor.row >= rows.length || anchor.col >= (rows[anchor.row]?.length ?? 0)) return { problem: `Table "${anchor.blockId}" has no cell at row ${anchor.row}, column ${anchor.col} (it has ${rows.length} rows).`, code: 'not_found' }
    return { anchor, quote: cellQuote(rows, anchor.row, anchor.col), status: 'attached' }
  }
  const text = textAt(block, anchor.path)
  if (text === undefined) {
    const paths = blockTexts(block).map((s) => s.pointer)
    return { problem: `${anchor.path} is not a Text of block "${anchor.blockId}"${paths.length ? ` (its Texts: ${paths.join(', ')})` : ' (it holds no Text)'}.`, code: 'invalid_input' }
  }
  const [start, end] = anchor.range
  const length = chars(text).length
  if (!(end > start)) return { problem: `The range [${start}, ${end}] is empty: the end must come after the start.`, code: 'invalid_input' }
  if (end > length) return { problem: `The range [${start}, ${end}] ends beyond the text (${length} characters, counted in code points).`, code: 'invalid_input' }
  return { anchor, quote: quoteOf(text, [start, end]), status: 'attached' }
}
