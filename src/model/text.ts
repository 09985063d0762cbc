/**
 * Text: a string with inline marks in a small HTML subset, and the operations over it.
 *
 *   <i> <u> <s> <sup> <sub>                      italic, underline, strike, superscript, subscript
 *   <span style="color:…;background:…;font-size:…px">   any subset of the three properties
 *   <a href="…">                                 http(s), mailto or #slide:<id>
 *   &amp; &lt; &gt; &quot; (and &apos;, numeric references) as entities; "\n" separates paragraphs.
 *
 * The reader is strict about tags (a well-formed tag outside the subset, a bad attribute, tags that
 * do not nest, a comment: `invalid_input`) and forgiving about text: a bare `&` that starts no
 * entity, and a `<` that starts no well-formed tag (`a < b`, `x<y then`), are read as themselves.
 *
 * Positions are offsets into the plain text counted in Unicode code points (an emoji such as 😀 is
 * one character, as agents and most languages count them; not JavaScript's UTF-16 units), one
 * character per paragraph break. Every offset an action takes or an error message names counts
 * this way. A paragraph break never carries marks, so the canonical markup closes every mark
 * before a "\n" and reopens it after.
 *
 * Canonical markup (what `serialize` writes): adjacent runs with equal marks merged, empty runs
 * dropped, tags nested in the fixed order a > span > i > u > s > sup > sub (a run reuses the tags it
 * shares with the previous run as a common prefix), span properties in the order color, background,
 * font-size. `serialize(parse(x))` is a fixed point of itself.
 */
import { fail } from '../core/errors.js'
import { Colour } from './schema.js'
import type { Block, Slide } from './deck.js'

/** The marks of one run; absent means unmarked. */
export interface Marks {
  href?: string
  color?: string
  highlight?: string
  size?: number
  italic?: true
  underline?: true
  strike?: true
  superscript?: true
  subscript?: true
}

export interface Run {
  text: string
  marks: Marks
}

/** A style change: switches set (true) or clear (false); values set, or clear with null; absent leaves. */
export interface StyleMarks {
  italic?: boolean
  underline?: boolean
  strike?: boolean
  superscript?: boolean
  subscript?: boolean
  color?: string | null
  highlight?: string | null
  size?: number | null
  href?: string | null
}

const SWITCHES = ['italic', 'underline', 'strike', 'superscript', 'subscript'] as const
type Switch = (typeof SWITCHES)[number]
const SWITCH_TAGS: Record<Switch, string> = { italic: 'i', underline: 'u', strike: 's', superscript: 'sup', subscript: 'sub' }
// Keyed by tag names from the markup: a Map, so `<constructor>` names no switch.
const TAG_SWITCH = new Map<string, Switch>([
  ['i', 'italic'],
  ['u', 'underline'],
  ['s', 'strike'],
  ['sup', 'superscript'],
  ['sub', 'subscript'],
])
const MARK_KEYS = ['href', 'color', 'highlight', 'size', ...SWITCHES] as const

const COLOUR = new RegExp(Colour.pattern as string)
/** Link targets a Text may carry: web and mail addresses, and slides of the deck. */
export const HREF = /^(https?:\/\/|mailto:|#slide:[A-Za-z0-9][A-Za-z0-9_-]*$)/
export const SLIDE_HREF_PREFIX = '#slide:'

/** The length of a string in code points (the unit every Text offset counts in). */
export function codePoints(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** The JavaScript string index (UTF-16 units) of a code point offset (clamped to the end). */
export function unitOffset(text: string, offset: number): number {
  let i = 0
  for (let n = 0; n < offset && i < text.length; n++) i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1
  return i
}

// ---------------------------------------------------------------------------------------------
// Reading

const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
])

function decodeEntity(body: string): string | undefined {
  const named = ENTITIES.get(body)
  if (named !== undefined) return named
  const code = body.startsWith('#x') || body.startsWith('#X') ? parseInt(body.slice(2), 16) : body.startsWith('#') ? parseInt(body.slice(1), 10) : NaN
  if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) return undefined
  return String.fromCodePoint(code)
}

function decodeAttribute(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, body: string) => decodeEntity(body) ?? whole)
}

interface Frame {
  tag: string
  marks: Marks
}

const OPEN_TAG = /^<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/
const CLOSE_TAG = /^<\/([a-zA-Z][a-zA-Z0-9]*)\s*>/
const ATTRIBUTE = /([^\s=>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

/** Where a refusal is: a code point offset into the markup, or a function answering it (computed only on failure). */
type Where = number | (() => number)

function refuse(message: string, where: Where, pointer?: string): never {
  const at = typeof where === 'function' ? where() : where
  fail('invalid_input', `Text markup: ${message} (at character ${at}).`, pointer === undefined ? {} : { pointer })
}

function attributesOf(source: string, tag: string, at: Where, pointer?: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1].toLowerCase()
    if (Object.hasOwn(out, name)) refuse(`<${tag}> repeats the attribute ${name}`, at, pointer)
    out[name] = decodeAttribute(match[2] ?? match[3] ?? '')
  }
  return out
}

function spanMarks(style: string, at: Where, pointer?: string): Marks {
  const marks: Marks = {}
  for (const declaration of style.split(';')) {
    if (!declaration.trim()) continue
    const colon = declaration.indexOf(':')
    const property = (colon < 0 ? declaration : declaration.slice(0, colon)).trim().toLowerCase()
    const value = colon < 0 ? '' : declaration.slice(colon + 1).trim()
    if (property === 'color' || property === 'background') {
      if (!COLOUR.test(value)) refuse(`${property} "${value}" is not a hex colour or a palette token`, at, pointer)
      marks[property === 'color' ? 'color' : 'highlight'] = value
    } else if (property === 'font-size') {
      const size = /^(\d+(?:\.\d+)?)px$/.exec(value)
      if (!size || !(Number(size[1]) > 0)) refuse(`font-size "${value}" is not a size in px`, at, pointer)
      marks.size = Number(size![1])
    } else refuse(`the style property "${property}" is not allowed (color, background, font-size)`, at, pointer)
  }
  return marks
}

/** The marks an opening tag adds; refuses every tag and attribute outside the subset. */
function tagMarks(tag: string, attributeSource: string, at: Where, pointer?: string): Marks {
  const attributes = attributesOf(attributeSource, tag, at, pointer)
  const names = Object.keys(attributes)
  const only = (allowed: string[]) => {
    const extra = names.find((n) => !allowed.includes(n))
    if (extra) refuse(`<${tag}> takes ${allowed.length ? `only ${allowed.join(', ')}` : 'no attributes'}, not ${extra}`, at, pointer)
  }
  const switched = TAG_SWITCH.get(tag)
  if (switched) {
    only([])
    return { [switched]: true }
  }
  if (tag === 'span') {
    only(['style'])
    return spanMarks(attributes.style ?? '', at, pointer)
  }
  if (tag === 'a') {
    only(['href'])
    const href = attributes.href
    if (href === undefined) refuse('<a> needs an href', at, pointer)
    if (!HREF.test(href)) refuse(`the link "${href}" is not an http(s), mailto or #slide:<id> address`, at, pointer)
    return { href }
  }
  refuse(`<${tag}> is not allowed (allowed: i, u, s, sup, sub, span style, a href)`, at, pointer)
}

/**
 * Reads markup into runs (merged, no empty runs, paragraph breaks unmarked). Strict: a tag outside
 * the subset, a bad attribute, or tags that do not nest fail with `invalid_input` (carrying
 * `pointer` when given, the pointer of the input field or document member holding the markup).
 */
export function parse(markup: string, pointer?: string): Run[] {
  const runs: Run[] = []
  const stack: Frame[] = []
  let marks: Marks = {}
  let buffer = ''
  const flush = () => {
    if (buffer) pushText(runs, buffer, marks)
    buffer = ''
  }
  // Messages name places in code points, like every offset.
  const at = (index: number) => codePoints(markup.slice(0, index))
  let i = 0
  while (i < markup.length) {
    const ch = markup[i]
    if (ch === '<') {
      const next = markup[i + 1] ?? ''
      if (next === '!' || next === '?') refuse('comments and declarations are not allowed', at(i), pointer)
      const close = next === '/' ? CLOSE_TAG.exec(markup.slice(i)) : null
      if (close) {
        const tag = close[1].toLowerCase()
        const top = stack.pop()
        if (!top) refuse(`</${tag}> closes nothing`, at(i), pointer)
        if (top!.tag !== tag) refuse(`</${tag}> closes <${top!.tag}>`, at(i), pointer)
        flush()
        marks = top!.marks
        i += close[0].length
        continue
      }
      const open = /[a-zA-Z]/.test(next) ? OPEN_TAG.exec(markup.slice(i)) : null
      if (open) {
        const tag = open[1].toLowerCase()
        if (open[3]) refuse(`<${tag}/> (a self-closing tag) is not allowed`, at(i), pointer)
        const start = i
        const added = tagMarks(tag, open[2], () => at(start), pointer)
        flush()
        stack.push({ tag, marks })
        marks = { ...marks, ...added }
        i += open[0].length
        continue
      }
      // A "<" that starts no well-formed tag ("a < b", "x<y then") is text.
      buffer += ch
      i++
      continue
    }
    if (ch === '&') {
      const entity = /^&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]+);/.exec(markup.slice(i, i + 12))
      const decoded = entity ? decodeEntity(entity[1]) : undefined
      if (entity && decoded !== undefined) {
        buffer += decoded
        i += entity[0].length
        continue
      }
      buffer += ch
      i++
      continue
    }
    buffer += ch
    i++
  }
  if (stack.length) refuse(`<${stack[stack.length - 1].tag}> is never closed`, at(markup.length), pointer)
  flush()
  return runs
}

/** Refuses markup outside the subset (`invalid_input` with `pointer`); returns it unchanged otherwise. */
export function check(markup: string, pointer?: string): string {
  parse(markup, pointer)
  return markup
}

// ---------------------------------------------------------------------------------------------
// Runs

/** Marks with the members in canonical order and nothing unset. */
function cleanMarks(marks: Marks): Marks {
  const out: Marks = {}
  for (const key of MARK_KEYS) {
    const value = marks[key]
    if (value === undefined || value === null || value === (false as unknown)) continue
    ;(out as Record<string, unknown>)[key] = value
  }
  return out
}

export function sameMarks(a: Marks, b: Marks): boolean {
  for (const key of MARK_KEYS) if (a[key] !== b[key]) return false
  return true
}

/** Appends text with marks, splitting out paragraph breaks (unmarked) and merging with the last run. */
function pushText(runs: Run[], text: string, marks: Marks): void {
  const clean = cleanMarks(marks)
  const parts = text.split('\n')
  parts.forEach((part, index) => {
    if (index > 0) pushRun(runs, { text: '\n', marks: {} })
    if (part) pushRun(runs, { text: part, marks: clean })
  })
}

function pushRun(runs: Run[], run: Run): void {
  if (!run.text) return
  const last = runs[runs.length - 1]
  if (last && sameMarks(last.marks, run.marks)) last.text += run.text
  else runs.push({ text: run.text, marks: run.marks })
}

/** Runs merged and cleaned: no empty runs, equal neighbours joined, paragraph breaks unmarked. */
export function normalizeRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = []
  for (const run of runs) pushText(out, run.text, run.marks)
  return out
}

// ---------------------------------------------------------------------------------------------
// Writing

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;')
}

/** Plain text as markup: the text with &, < and > escaped (no marks). */
export function fromPlain(text: string): string {
  return escapeText(text)
}

/** The opening tags of a run, outermost first, as [name, opening tag] pairs. */
function openingTags(marks: Marks): [string, string][] {
  const tags: [string, string][] = []
  if (marks.href !== undefined) tags.push(['a', `<a href="${escapeAttribute(marks.href)}">`])
  const style = [
    marks.color !== undefined ? `color:${marks.color}` : '',
    marks.highlight !== undefined ? `background:${marks.highlight}` : '',
    marks.size !== undefined ? `font-size:${marks.size}px` : '',
  ].filter(Boolean)
  if (style.length) tags.push(['span', `<span style="${escapeAttribute(style.join(';'))}">`])
  for (const key of SWITCHES) if (marks[key]) tags.push([SWITCH_TAGS[key], `<${SWITCH_TAGS[key]}>`])
  return tags
}

/** Writes runs as canonical markup. */
export function serialize(runs: readonly Run[]): string {
  let out = ''
  let open: [string, string][] = []
  for (const run of normalizeRuns(runs)) {
    const wanted = openingTags(run.marks)
    let shared = 0
    while (shared < open.length && shared < wanted.length && open[shared][1] === wanted[shared][1]) shared++
    for (let k = open.length - 1; k >= shared; k--) out += `</${open[k][0]}>`
    for (let k = shared; k < wanted.length; k++) out += wanted[k][1]
    open = wanted
    out += escapeText(run.text)
  }
  for (let k = open.length - 1; k >= 0; k--) out += `</${open[k][0]}>`
  return out
}

/** The canonical form of markup (refuses markup outside the subset). */
export function canonical(markup: string, pointer?: string): string {
  return serialize(parse(markup, pointer))
}

/** The plain text of markup: marks dropped, entities decoded, one "\n" per paragraph break. */
export function plainText(markup: string, pointer?: string): string {
  return parse(markup, pointer).map((run) => run.text).join('')
}

/** The paragraphs of markup, each as canonical markup. */
export function paragraphs(markup: string, pointer?: string): string[] {
  const out: Run[][] = [[]]
  for (const run of parse(markup, pointer)) {
    run.text.split('\n').forEach((part, index) => {
      if (index > 0) out.push([])
      if (part) out[out.length - 1].push({ text: part, marks: run.marks })
    })
  }
  return out.map(serialize)
}

// ---------------------------------------------------------------------------------------------
// Editing

/** Splits runs so that a run boundary falls at `at` (a plain-text offset). */
function splitAt(runs: Run[], at: number): Run[] {
  const out: Run[] = []
  let offset = 0
  for (const run of runs) {
    const end = offset + run.text.length
    if (at > offset && at < end) {
      out.push({ text: run.text.slice(0, at - offset), marks: run.marks }, { text: run.text.slice(at - offset), marks: run.marks })
    } else out.push(run)
    offset = end
  }
  return out
}

/**
 * A range of the plain text, [start, end) in code points, checked; answers it as JavaScript string
 * indices (UTF-16 units) for slicing. Messages count code points too.
 */
export function checkRange(plain: string, range: readonly [number, number], pointer?: string): [number, number] {
  const [start, end] = range
  const extra = pointer === undefined ? {} : { pointer }
  const length = codePoints(plain)
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0) fail('invalid_input', `The range [${start}, ${end}] is not two offsets from 0 (offsets count code points).`, extra)
  if (start >= end) fail('invalid_input', `The range [${start}, ${end}] is empty: the end must come after the start.`, extra)
  if (end > length) fail('invalid_input', `The range [${start}, ${end}] ends beyond the text (${length} characters, counted in code points).`, extra)
  return [unitOffset(plain, start), unitOffset(plain, end)]
}

/** The marks of a run after a style change. */
export function applyMarks(marks: Marks, change: StyleMarks): Marks {
  const next: Record<string, unknown> = { ...marks }
  for (const key of SWITCHES) {
    if (change[key] === true) next[key] = true
    else if (change[key] === false) delete next[key]
  }
  if (change.superscript === true) delete next.subscript
  if (change.subscript === true) delete next.superscript
  for (const key of ['color', 'highlight', 'size', 'href'] as const) {
    if (change[key] === null) delete next[key]
    else if (change[key] !== undefined) next[key] = change[key]
  }
  return cleanMarks(next as Marks)
}

/** Refuses a style change that cannot be written (bad colour, size or link; both super- and subscript). */
export function checkStyle(change: StyleMarks, pointer?: string): void {
  const at = (member: string) => (pointer === undefined ? {} : { pointer: `${pointer}/${member}` })
  if (change.superscript === true && change.subscript === true) fail('invalid_input', 'A run is superscript or subscript, not both.', at('subscript'))
  for (const key of ['color', 'highlight'] as const) {
    const value = change[key]
    if (value !== undefined && value !== null && !COLOUR.test(value)) fail('invalid_input', `${key} "${value}" is not a hex colour or a palette token.`, at(key))
  }
  if (change.size !== undefined && change.size !== null && !(Number.isFinite(change.size) && change.size > 0)) fail('invalid_input', 'size is a positive number of px.', at('size'))
  if (change.href !== undefined && change.href !== null && !HREF.test(change.href)) fail('invalid_input', `"${change.href}" is not an http(s), mailto or #slide:<id> address.`, at('href'))
}

/**
 * Applies a style change over [start, end) of the plain text (code points) and answers canonical
 * markup. Paragraph breaks inside the range stay unmarked.
 */
export function styleRange(markup: string, range: readonly [number, number], change: StyleMarks, pointer?: string): string {
  checkStyle(change)
  let runs = parse(markup, pointer)
  const plain = runs.map((r) => r.text).join('')
  const [start, end] = checkRange(plain, range)
  runs = splitAt(splitAt(runs, start), end)
  let offset = 0
  const out = runs.map((run) => {
    const inside = offset >= start && offset < end
    offset += run.text.length
    // pushText keeps the paragraph breaks of a styled run unmarked.
    return inside ? { text: run.text, marks: applyMarks(run.marks, change) } : run
  })
  return serialize(out)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Where `find` occurs in `plain` (left to right, not overlapping). */
export function occurrences(plain: string, find: string, matchCase = false): { index: number; length: number }[] {
  if (!find) return []
  const pattern = new RegExp(escapeRegExp(find), matchCase ? 'gu' : 'giu')
  return [...plain.matchAll(pattern)].map((m) => ({ index: m.index!, length: m[0].length }))
}

const sameCharacter = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase()

/**
 * The runs a replacement is written as, aligned with the text it replaces so that marks stay where
 * they were: the longest common beginning and then the longest common end of the two (compared
 * character by character in code points, case-insensitively) keep the marks of the characters they
 * stand for; the changed middle takes the marks of the first character it replaces, or, when it
 * replaces nothing (a pure insertion), of the character before it (after it, at the very start).
 *
 *   <i>Ac</i>me  "Acme" → "Acme Corp"   <i>Ac</i>me Corp
 *   Acme <i>Corp</i>  "Acme Corp" → "Globex Corp"   Globex <i>Corp</i>
 */
export function alignedReplacement(replaced: readonly { ch: string; marks: Marks }[], replace: string): Run[] {
  const next = [...replace]
  const shorter = Math.min(replaced.length, next.length)
  let prefix = 0
  while (prefix < shorter && sameCharacter(replaced[prefix].ch, next[prefix])) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && sameCharacter(replaced[replaced.length - 1 - suffix].ch, next[next.length - 1 - suffix])) suffix++
  const middleMarks =
    replaced.length - suffix > prefix ? replaced[prefix].marks : prefix > 0 ? replaced[prefix - 1].marks : replaced.length ? replaced[replaced.length - suffix].marks : {}
  return next.map((ch, k) => {
    if (k < prefix) return { text: ch, marks: replaced[k].marks }
    if (k >= next.length - suffix) return { text: ch, marks: replaced[replaced.length - (next.length - k)].marks }
    return { text: ch, marks: middleMarks }
  })
}

/**
 * Replaces every occurrence of `find` (plain text) by `replace` (plain text, not markup). Text
 * outside the matches keeps its marks; each replacement keeps the marks where they were
 * (`alignedReplacement`). Markup without a match comes back exactly as given.
 */
export function replaceAll(markup: string, find: string, replace: string, matchCase = false, pointer?: string): { text: string; count: number } {
  const runs = parse(markup, pointer)
  const plain = runs.map((r) => r.text).join('')
  const found = occurrences(plain, find, matchCase)
  if (!found.length) return { text: markup, count: 0 }
  // The plain text as characters (code points) with their marks, each at its string index.
  const chars: { ch: string; marks: Marks; index: number }[] = []
  let offset = 0
  for (const run of runs) {
    for (const ch of run.text) {
      chars.push({ ch, marks: run.marks, index: offset })
      offset += ch.length
    }
  }
  const out: Run[] = []
  let k = 0
  for (const match of found) {
    while (k < chars.length && chars[k].index < match.index) out.push({ text: chars[k].ch, marks: chars[k++].marks })
    const replaced: typeof chars = []
    while (k < chars.length && chars[k].index < match.index + match.length) replaced.push(chars[k++])
    out.push(...alignedReplacement(replaced, replace))
  }
  while (k < chars.length) out.push({ text: chars[k].ch, marks: chars[k++].marks })
  return { text: serialize(out), count: found.length }
}

/** Plain-text replace (speaker notes are plain text, not markup). */
export function replaceAllPlain(text: string, find: string, replace: string, matchCase = false): { text: string; count: number } {
  const found = occurrences(text, find, matchCase)
  if (!found.length) return { text, count: 0 }
  let out = ''
  let cursor = 0
  for (const match of found) {
    out += text.slice(cursor, match.index) + replace
    cursor = match.index + match.length
  }
  return { text: out + text.slice(cursor), count: found.length }
}

// ---------------------------------------------------------------------------------------------
// Where Texts live in slides and blocks

/** One Text of a block: its pointer inside the block and its markup ("" for an absent optional Text). */
export interface TextSite {
  pointer: string
  value: string
  set(value: string): void
}

/** The Text fields a slide itself may carry. */
export const SLIDE_TEXT_FIELDS = ['title', 'subtitle', 'byline', 'attribution'] as const

/** Every Text of a block, in document order. */
export function blockTexts(block: Block): TextSite[] {
  const sites: TextSite[] = []
  const record = block as Record<string, unknown>
  const field = (name: string) => {
    if (typeof record[name] === 'string') sites.push({ pointer: `/${name}`, value: record[name] as string, set: (v) => (record[name] = v) })
  }
  switch (block.kind) {
    case 'text':
    case 'heading':
    case 'textbox':
    case 'shape':
      field('text')
      break
    case 'list':
      ;((record.items as { text: string }[] | undefined) ?? []).forEach((item, i) => {
        sites.push({ pointer: `/items/${i}/text`, value: item.text, set: (v) => (item.text = v) })
      })
      break
    case 'table':
      ;((record.rows as string[][] | undefined) ?? []).forEach((row, r) =>
        row.forEach((cell, c) => sites.push({ pointer: `/rows/${r}/${c}`, value: cell, set: (v) => (row[c] = v) })),
      )
      break
    case 'picture':
      field('caption')
      break
    case 'chart':
      field('title')
      break
  }
  return sites
}

/** The pointer shapes of the Texts a block kind holds, for messages. */
export function textPointerShapes(kind: string): string[] {
  switch (kind) {
    case 'text':
    case 'heading':
    case 'textbox':
    case 'shape':
      return ['/text']
    case 'list':
      return ['/items/<n>/text']
    case 'table':
      return ['/rows/<r>/<c>']
    case 'picture':
      return ['/caption']
    case 'chart':
      return ['/title']
    default:
      return []
  }
}

/**
 * The Text of a block at `pointer`. A pointer that names no Text of the block's kind is
 * `invalid_input`; one that names an item, row or cell the block does not have is `not_found`;
 * both carry `inputPointer` (the input field holding the pointer). An absent optional Text
 * (a shape without text) reads as "" and is created on write.
 */
export function blockText(block: Block, pointer: string, inputPointer = '/path'): TextSite {
  const found = blockTexts(block).find((site) => site.pointer === pointer)
  if (found) return found
  const shapes = textPointerShapes(block.kind)
  const segments = pointer.split('/').slice(1)
  const index = '(0|[1-9]\\d*)'
  const record = block as Record<string, unknown>
  const optional = new Map([
    ['shape', 'text'],
    ['picture', 'caption'],
    ['chart', 'title'],
  ])
  const name = optional.get(block.kind)
  if (name && pointer === `/${name}`) {
    return { pointer, value: '', set: (v) => (record[name] = v) }
  }
  const itemLike = new RegExp(`^/items/${index}/text$`).test(pointer) || new RegExp(`^/rows/${index}/${index}$`).test(pointer)
  if (itemLike && shapes.some((s) => s.split('/')[1] === segments[0])) {
    fail('not_found', `Block "${block.id}" has no Text at ${pointer}.`, { pointer: inputPointer })
  }
  fail('invalid_input', `${pointer} is not a Text of a ${block.kind} block${shapes.length ? ` (its Texts: ${shapes.join(', ')})` : ' (it holds no Text)'}.`, {
    pointer: inputPointer,
  })
}

/** Every Text of a slide (title-slide fields, then each block's), with pointers inside the slide. */
export function slideTexts(slide: Slide): TextSite[] {
  const sites: TextSite[] = []
  const record = slide as Record<string, unknown>
  for (const name of SLIDE_TEXT_FIELDS) {
    if (typeof record[name] === 'string') sites.push({ pointer: `/${name}`, value: record[name] as string, set: (v) => (record[name] = v) })
  }
  ;(slide.blocks ?? []).forEach((block, b) => {
    for (const site of blockTexts(block)) sites.push({ ...site, pointer: `/blocks/${b}${site.pointer}` })
  })
  return sites
}
