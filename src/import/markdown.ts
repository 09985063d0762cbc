/**
 * Marp and Slidev Markdown → slide drafts (import.run with a Markdown source).
 *
 * Two steps, both pure: `parseMarkdown` reads the whole file (front matter, slide separators,
 * directives, notes, blocks) and refuses a file it cannot read with `invalid_input` before anything
 * is written; `planSlide` chooses each slide's layout from its hints and content, as a designer
 * would, and files its blocks into the layout's slots. The action (src/actions/deck/import.ts)
 * resolves pictures to assets and commits.
 *
 * Dialects. A file whose front matter says `marp: true` is read as Marp: slides are split at
 * top-level thematic breaks (`---`, as Marpit does on markdown-it's tokens, so a `---` under a
 * paragraph is a setext heading), newlines inside a paragraph are line breaks (Marp's `breaks`),
 * HTML comments are directives when every key is one (`_class: lead`, `paginate: true`) and
 * presenter notes otherwise. A file with Slidev's keys or themes in its front matter, a `::right::`
 * slot or a slide front matter opening with `layout:` is read as Slidev: slides split at `---` lines outside code fences, a `---` followed at once by a
 * line of text opens that slide's front matter (`layout: two-cols`), the last comment of a slide is
 * its notes. Anything else is read with Marp's rules.
 */
import MarkdownIt from 'markdown-it'
import { parse as parseYaml } from 'yaml'
import { fail } from '../core/errors.js'
import { runsToText } from '../actions/deck/import.js'
import { LAYOUTS, type LayoutName } from '../model/layouts.js'
import { HREF, type Marks, type Run } from '../model/text.js'

export type Dialect = 'marp' | 'slidev'

export interface MdPicture {
  src: string
  alt: string
  /** The image title (`![alt](src "title")`): the picture's caption. */
  title?: string
  /** Marp `![bg](…)`: a background picture; `left` / `right` split the slide (`![bg left](…)`). */
  background?: 'cover' | 'left' | 'right'
}

export type MdBlock =
  | { kind: 'heading'; depth: number; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'list'; ordered: boolean; start?: number; items: { text: string; level?: number }[] }
  | { kind: 'table'; rows: string[][]; header: boolean }
  | { kind: 'code'; lang?: string; text: string }
  | { kind: 'quote'; text: string; attribution?: string }
  | { kind: 'picture'; picture: MdPicture }

export interface MdFinding {
  /** 1-based slide number in the source. */
  slide?: number
  element: string
  reason: string
}

export interface MdSlide {
  /** 1-based position in the source. */
  index: number
  /** 1-based line where the slide starts. */
  line: number
  /** Blocks in source order; Slidev's `::right::` (and `::left::`) move the blocks after them to that column. */
  blocks: MdBlock[]
  right: MdBlock[]
  notes?: string
  /** A layout of ours asked for by a hint (Marp `_class`, Slidev `layout:`). */
  layout?: LayoutName
  /** Marp `lead` (or Slidev `cover` / `intro`): a title slide when it has a heading. */
  lead?: boolean
  /** A hex background colour (Marp `backgroundColor`, Slidev `background` when a colour). */
  background?: string
}

export interface MdDeck {
  dialect: Dialect
  title?: string
  /** Our theme id, when the source names one we have (or a close sibling). */
  theme?: string
  appearance?: 'light' | 'dark'
  paginate?: boolean
  slides: MdSlide[]
  findings: MdFinding[]
}

/** Largest Markdown file read. */
export const MAX_MARKDOWN_BYTES = 5 * 1024 * 1024

const MARP_GLOBAL = new Set(['theme', 'style', 'headingDivider', 'lang', 'title', 'description', 'author', 'image', 'keywords', 'url', 'size', 'math', 'marp'])
const MARP_LOCAL = new Set(['paginate', 'header', 'footer', 'class', 'backgroundColor', 'backgroundImage', 'backgroundPosition', 'backgroundRepeat', 'backgroundSize', 'color'])
const SLIDEV_KEYS = new Set([
  'layout', 'highlighter', 'drawings', 'transition', 'mdc', 'colorSchema', 'info', 'fonts', 'lineNumbers', 'download', 'exportFilename',
  'canvasWidth', 'aspectRatio', 'routerMode', 'themeConfig', 'addons', 'seoMeta', 'favicon', 'titleTemplate', 'presenter', 'record', 'contextMenu',
  'wakeLock', 'monaco', 'selectable', 'hideInToc', 'clicks', 'level', 'routeAlias', 'preload', 'dragPos', 'src', 'hide', 'disabled',
])
const SLIDEV_THEMES = new Set(['seriph', 'apple-basic', 'bricks', 'shibainu'])
/** Slidev's built-in layouts → ours (a layout absent here is chosen from the content). */
const SLIDEV_LAYOUTS: Record<string, LayoutName | 'lead'> = {
  cover: 'lead', intro: 'lead', section: 'section', quote: 'quote', statement: 'statement', fact: 'big-number', center: 'main-point',
  'two-cols': 'two-columns', 'two-cols-header': 'two-columns', 'image-left': 'picture-left', 'image-right': 'picture-left', image: 'picture-full',
  end: 'closing', full: 'blank', none: 'blank',
}
const THEMES: Record<string, string> = {
  simple: 'studio-simple', 'studio-simple': 'studio-simple', editorial: 'editorial', mono: 'mono', contrast: 'contrast', midnight: 'midnight', paper: 'paper',
  // Sources' themes with a near sibling of ours.
  default: 'studio-simple', seriph: 'editorial', gaia: 'paper', uncover: 'contrast',
}
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
/** Marp's image keywords (sizes, filters, background placement): left out of the alt text. */
const MARP_IMAGE_WORD = /^(bg|left|right|contain|cover|fit|auto|vertical|sepia|grayscale|invert|blur|brightness|contrast|drop-shadow|hue-rotate|opacity|saturate|\d+(\.\d+)?%|(w|h|width|height|left|right|blur|brightness|contrast|drop-shadow|grayscale|hue-rotate|invert|opacity|saturate|sepia):\S*)$/

type Token = import('markdown-it').Token

const fromYaml = (text: string, line: number, what: string): Record<string, unknown> => {
  let value: unknown
  try {
    value = parseYaml(text)
  } catch (error) {
    const pos = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line
    const first = String((error as Error).message).split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
    fail('invalid_input', `The ${what} at line ${line + (pos ?? 1)} is not valid YAML: ${first}.`, { pointer: '/from' })
  }
  if (value === null || value === undefined) return Object.create(null)
  if (typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', `The ${what} at line ${line + 1} is not a list of "key: value" lines.`, { pointer: '/from' })
  return Object.assign(Object.create(null), value) as Record<string, unknown>
}

/** The front matter at the top (between `---` lines) and the line the body starts at. */
function headmatter(lines: string[]): { data: Record<string, unknown>; body: number } {
  if (lines[0]?.trimEnd() !== '---') return { data: Object.create(null), body: 0 }
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i])) return { data: fromYaml(lines.slice(1, i).join('\n'), 1, 'front matter'), body: i + 1 }
  }
  fail('invalid_input', 'The front matter opened by "---" on line 1 is never closed by another "---" line.', { pointer: '/from' })
}

/** Reads a whole Marp or Slidev file; refuses (`invalid_input`, pointer /from) what it cannot read. */
export function parseMarkdown(bytes: Buffer): MdDeck {
  if (bytes.length > MAX_MARKDOWN_BYTES) fail('payload_too_large', `The Markdown file is larger than ${MAX_MARKDOWN_BYTES / 1024 / 1024} MB.`, { pointer: '/from' })
  let source: string
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    fail('invalid_input', 'The file is not UTF-8 text.', { pointer: '/from' })
  }
  if (source.includes('\u0000')) fail('invalid_input', 'The file holds NUL bytes: it is not Markdown text.', { pointer: '/from' })
  const lines = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n')
  const { data: head, body } = headmatter(lines)
  const slidev =
    Object.keys(head).some((k) => SLIDEV_KEYS.has(k)) ||
    (typeof head.theme === 'string' && SLIDEV_THEMES.has(head.theme)) ||
    lines.some((l, i) => /^::(right|left|default)::\s*$/.test(l) || (/^---\s*$/.test(l) && /^layout:\s*\S/.test(lines[i + 1] ?? '')))
  const dialect: Dialect = head.marp !== true && slidev ? 'slidev' : 'marp'
  const deck: MdDeck = { dialect, slides: [], findings: [] }
  if (typeof head.title === 'string' && head.title.trim()) deck.title = head.title.trim().slice(0, 200)
  if (typeof head.theme === 'string') {
    const theme = THEMES[head.theme.toLowerCase()]
    if (theme) deck.theme = theme
    else deck.findings.push({ element: 'theme', reason: `The theme "${head.theme.slice(0, 60)}" has no counterpart here; the deck uses Simple.` })
  }
  const classes = typeof head.class === 'string' ? head.class.split(/\s+/) : []
  if (classes.includes('invert') || head.colorSchema === 'dark') deck.appearance = 'dark'
  if (head.paginate === true) deck.paginate = true
  const md = new MarkdownIt({ html: true, breaks: dialect === 'marp', linkify: false })
  if (dialect === 'marp') readMarp(md, lines, body, head, deck)
  else readSlidev(md, lines, body, head, deck)
  if (!deck.slides.length) fail('invalid_input', 'The Markdown file holds no slide content.', { pointer: '/from' })
  return deck
}

// ---------------------------------------------------------------------------------------------
// Marp

interface MarpState {
  /** Local directives in force (set in the front matter or a comment, inherited by the slides after). */
  local: Record<string, unknown>
}

function readMarp(md: MarkdownIt, lines: string[], body: number, head: Record<string, unknown>, deck: MdDeck): void {
  const offset = body
  const tokens = md.parse(lines.slice(body).join('\n'), {})
  const state: MarpState = { local: Object.create(null) }
  for (const key of MARP_LOCAL) if (key in head) state.local[key] = head[key]
  const divider = typeof head.headingDivider === 'number' ? head.headingDivider : undefined
  let chunk: Token[] = []
  let start = offset + 1
  const flush = (nextLine: number) => {
    if (chunk.length || deck.slides.length) pushMarp(chunk, start, deck, state)
    chunk = []
    start = nextLine
  }
  for (const token of tokens) {
    const line = offset + (token.map?.[0] ?? 0) + 1
    if (token.level === 0 && token.type === 'hr') {
      flush(line + 1)
      continue
    }
    if (divider && token.level === 0 && token.type === 'heading_open' && Number(token.tag.slice(1)) <= divider && chunk.length) flush(line)
    chunk.push(token)
  }
  pushMarp(chunk, start, deck, state)
  // A file that opens with a separator leaves an empty first slide behind.
  deck.slides = deck.slides.filter((s) => s.blocks.length || s.right.length || s.notes).map((s, i) => ({ ...s, index: i + 1 }))
}

/** A comment's text is a directive when it is a YAML mapping whose every key is a Marp directive. */
function marpDirectives(text: string): Record<string, unknown> | undefined {
  if (!/^\s*_?[A-Za-z]+\s*:/.test(text)) return undefined
  let value: unknown
  try {
    value = parseYaml(text)
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const keys = Object.keys(value)
  if (!keys.length || !keys.every((k) => MARP_GLOBAL.has(k) || MARP_LOCAL.has(k.replace(/^_/, '')))) return undefined
  return Object.assign(Object.create(null), value) as Record<string, unknown>
}

function pushMarp(tokens: Token[], line: number, deck: MdDeck, state: MarpState): void {
  const index = deck.slides.length + 1
  const slide: MdSlide = { index, line, blocks: [], right: [] }
  const spot: Record<string, unknown> = Object.create(null)
  const notes: string[] = []
  const comment = (text: string) => {
    const directives = marpDirectives(text)
    if (!directives) {
      if (text.trim()) notes.push(text.trim())
      return
    }
    for (const [key, value] of Object.entries(directives)) {
      if (key.startsWith('_')) spot[key.slice(1)] = value
      else if (MARP_LOCAL.has(key)) state.local[key] = value
    }
  }
  readBlocks(tokens, slide, deck.findings, 'marp', comment)
  const directive = (key: string) => (key in spot ? spot[key] : state.local[key])
  const classes = String(directive('class') ?? '').split(/\s+/).filter(Boolean)
  for (const name of classes) {
    if (name === 'lead') slide.lead = true
    else if ((LAYOUTS as readonly string[]).includes(name) && name !== 'freeform') slide.layout = name as LayoutName
  }
  const background = directive('backgroundColor')
  if (typeof background === 'string' && HEX.test(background.trim())) slide.background = background.trim().toLowerCase()
  if (directive('color') !== undefined) deck.findings.push({ slide: index, element: 'color', reason: 'Text colours (the color directive) are not imported; the theme colours the text.' })
  if (notes.length) slide.notes = notes.join('\n\n')
  deck.slides.push(slide)
}

// ---------------------------------------------------------------------------------------------
// Slidev

function readSlidev(md: MarkdownIt, lines: string[], body: number, head: Record<string, unknown>, deck: MdDeck): void {
  // The headmatter is also the first slide's front matter (its layout, its background).
  let matter: Record<string, unknown> = head
  let start = body
  let fence: string | undefined
  const flush = (end: number) => {
    const text = lines.slice(start, end).join('\n')
    if (text.trim() || Object.keys(matter).length) pushSlidev(md, text, start + 1, matter, deck)
  }
  for (let i = body; i < lines.length; i++) {
    const line = lines[i].trimEnd()
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined
      continue
    }
    if (opener) {
      fence = opener
      continue
    }
    if (!/^---\s*$/.test(line)) continue
    flush(i)
    matter = Object.create(null)
    start = i + 1
    // A separator followed at once by a line of text opens the slide's front matter, closed by the next `---`.
    if (i + 1 < lines.length && lines[i + 1].trim()) {
      let close = i + 1
      while (close < lines.length && !/^---\s*$/.test(lines[close])) close++
      if (close >= lines.length) fail('invalid_input', `The slide front matter opened by "---" on line ${i + 1} is never closed by another "---" line.`, { pointer: '/from' })
      matter = fromYaml(lines.slice(i + 1, close).join('\n'), i + 1, 'slide front matter')
      start = close + 1
      i = close
    }
  }
  flush(lines.length)
  // Slides hidden in Slidev stay hidden here: they are not imported.
  deck.slides = deck.slides.map((s, i) => ({ ...s, index: i + 1 }))
}

function pushSlidev(md: MarkdownIt, text: string, line: number, matter: Record<string, unknown>, deck: MdDeck): void {
  const index = deck.slides.length + 1
  if (matter.hide === true || matter.disabled === true) {
    deck.findings.push({ slide: index, element: 'slide', reason: 'The slide is hidden in the source (hide: true); it was not imported.' })
    return
  }
  if (typeof matter.src === 'string') {
    deck.findings.push({ slide: index, element: 'slide', reason: `The slide imports "${matter.src.slice(0, 80)}" (src:); import that file on its own.` })
    return
  }
  const slide: MdSlide = { index, line, blocks: [], right: [] }
  const tokens = md.parse(text, {})
  const comments: { text: string; last: boolean }[] = []
  readBlocks(tokens, slide, deck.findings, 'slidev', (c) => comments.push({ text: c, last: false }))
  // The notes are the comment that ends the slide (Slidev: the last comment block).
  const lastToken = [...tokens].reverse().find((t) => t.type !== 'html_block' || t.content.trim())
  if (comments.length && lastToken?.type === 'html_block' && /-->\s*$/.test(lastToken.content)) {
    const note = comments[comments.length - 1].text.trim()
    if (note) slide.notes = note
  }
  const layout = typeof matter.layout === 'string' ? matter.layout : undefined
  if (layout) {
    const ours = SLIDEV_LAYOUTS[layout] ?? ((LAYOUTS as readonly string[]).includes(layout) && layout !== 'freeform' ? (layout as LayoutName) : undefined)
    if (ours === 'lead') slide.lead = true
    else if (ours) slide.layout = ours
    else deck.findings.push({ slide: index, element: 'layout', reason: `Slidev's layout "${layout.slice(0, 60)}" has no counterpart; the layout was chosen from the content.` })
  }
  // Slidev's picture layouts and covers name their picture in the front matter.
  const image = typeof matter.image === 'string' ? matter.image : undefined
  const background = typeof matter.background === 'string' ? matter.background.trim() : undefined
  if (image) slide.blocks.unshift({ kind: 'picture', picture: { src: image, alt: '', ...(layout === 'image' ? {} : { background: layout === 'image-right' ? 'right' : 'left' }) } })
  if (background && HEX.test(background)) slide.background = background.toLowerCase()
  else if (background) slide.blocks.push({ kind: 'picture', picture: { src: background, alt: '', background: 'cover' } })
  if (typeof matter.class === 'string' && matter.class.split(/\s+/).includes('lead')) slide.lead = true
  deck.slides.push(slide)
}

// ---------------------------------------------------------------------------------------------
// Blocks (both dialects)

const COMMENT = /<!--([\s\S]*?)-->/g

/** Reads top-level block tokens into the slide; comments go to `comment` in order. */
function readBlocks(tokens: Token[], slide: MdSlide, findings: MdFinding[], dialect: Dialect, comment: (text: string) => void): void {
  let column: MdBlock[] = slide.blocks
  const breaks = dialect === 'marp'
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (token.level !== 0) continue
    const close = closing(tokens, i)
    const inner = tokens.slice(i + 1, close)
    switch (token.type) {
      case 'heading_open': {
        const { text } = inlineOf(inner[0], breaks, comment, () => undefined)
        if (text) column.push({ kind: 'heading', depth: Number(token.tag.slice(1)), text: text.replace(/\n/g, ' ') })
        break
      }
      case 'paragraph_open': {
        const only = inner[0]?.content.trim() ?? ''
        const slot = /^::(right|left|default)::$/.exec(only)?.[1]
        if (slot) {
          column = slot === 'right' ? slide.right : slide.blocks
          break
        }
        const pictures: MdPicture[] = []
        const { text } = inlineOf(inner[0], breaks, comment, (p) => pictures.push(p))
        for (const picture of pictures) column.push({ kind: 'picture', picture })
        if (text) column.push({ kind: 'text', text })
        break
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const items: { text: string; level?: number }[] = []
        listItems(tokens, i, 1, items, breaks, comment, slide.index, findings)
        const start = Number(token.attrGet('start') ?? 1)
        if (items.length) column.push({ kind: 'list', ordered: token.type === 'ordered_list_open', ...(token.type === 'ordered_list_open' && start !== 1 ? { start } : {}), items })
        break
      }
      case 'table_open': {
        const rows: string[][] = []
        let header = false
        for (let k = i + 1; k < close; k++) {
          if (tokens[k].type === 'thead_open') header = true
          if (tokens[k].type === 'tr_open') rows.push([])
          if (tokens[k].type === 'inline') rows[rows.length - 1]?.push(inlineOf(tokens[k], breaks, comment, () => undefined).text.replace(/\n/g, ' '))
        }
        if (rows.length) column.push({ kind: 'table', rows, header })
        break
      }
      case 'fence':
      case 'code_block': {
        const text = token.content.replace(/\n$/, '')
        if (text.trim()) column.push({ kind: 'code', ...(token.info.trim() ? { lang: token.info.trim().split(/\s+/)[0] } : {}), text })
        break
      }
      case 'blockquote_open': {
        // Read with line breaks kept, so a last line "— Name" stands out whatever the dialect.
        const paragraphs = inner.filter((t) => t.type === 'inline').map((t) => inlineOf(t, true, comment, () => undefined).text).filter(Boolean)
        const lastLines = (paragraphs.pop() ?? '').split('\n')
        // A last line "— Name" (or "-- Name") under the quote is its attribution.
        const by = /^\s*(?:—|–|--|-)\s*(.+)$/.exec(lastLines[lastLines.length - 1])
        const attributed = Boolean(by) && (lastLines.length > 1 || paragraphs.length > 0)
        if (attributed) lastLines.pop()
        const joined = [...paragraphs, lastLines.join('\n')].filter(Boolean).join('\n')
        const text = breaks ? joined : joined.replace(/\n/g, ' ')
        const attribution = attributed ? by![1].trim() : undefined
        if (text) column.push({ kind: 'quote', text, ...(attribution ? { attribution } : {}) })
        break
      }
      case 'html_block': {
        const rest = token.content.replace(COMMENT, (_m, text: string) => {
          comment(text)
          return ''
        })
        if (rest.trim()) findings.push({ slide: slide.index, element: 'html', reason: `Raw HTML (${rest.trim().slice(0, 40)}) is not imported.` })
        break
      }
      case 'hr':
        break
      default:
        if (token.nesting !== -1) findings.push({ slide: slide.index, element: token.tag || token.type, reason: `Markdown ${token.type.replace(/_open$/, '')} has no counterpart in the slide model.` })
    }
    i = close
  }
}

/** The index of the token closing the one at `i` (itself for a self-contained token). */
function closing(tokens: Token[], i: number): number {
  if (tokens[i].nesting !== 1) return i
  let depth = 0
  for (let k = i; k < tokens.length; k++) {
    depth += tokens[k].nesting
    if (depth === 0) return k
  }
  return tokens.length - 1
}

function listItems(
  tokens: Token[],
  at: number,
  level: number,
  items: { text: string; level?: number }[],
  breaks: boolean,
  comment: (text: string) => void,
  slide: number,
  findings: MdFinding[],
): void {
  const end = closing(tokens, at)
  for (let i = at + 1; i < end; i++) {
    if (tokens[i].type !== 'list_item_open') continue
    const itemEnd = closing(tokens, i)
    const parts: string[] = []
    let pushed = false
    const push = () => {
      if (!pushed) items.push({ text: parts.join(' '), ...(level > 1 ? { level } : {}) })
      pushed = true
    }
    for (let k = i + 1; k < itemEnd; k++) {
      const t = tokens[k]
      if (t.type === 'bullet_list_open' || t.type === 'ordered_list_open') {
        push()
        listItems(tokens, k, Math.min(level + 1, 9), items, breaks, comment, slide, findings)
        k = closing(tokens, k)
      } else if (t.type === 'inline' && !pushed) {
        const noPicture = (p: MdPicture) => findings.push({ slide, element: 'img', reason: `The picture "${p.src.slice(0, 80)}" inside a list item is not imported.` })
        parts.push(inlineOf(t, breaks, comment, noPicture).text.replace(/\n/g, ' '))
      } else if ((t.type === 'fence' || t.type === 'code_block') && !pushed) {
        parts.push(t.content.trim().replace(/\s*\n\s*/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;'))
      }
    }
    push()
    i = itemEnd
  }
}

/** An inline token as Text markup; pictures and comments in it go to their callbacks. */
function inlineOf(token: Token | undefined, breaks: boolean, comment: (text: string) => void, picture: (p: MdPicture) => void): { text: string } {
  const runs: Run[] = []
  const marks: Marks = {}
  const stack: (keyof Marks)[] = []
  for (const child of token?.children ?? []) {
    switch (child.type) {
      case 'text':
        runs.push({ text: child.content, marks: { ...marks } })
        break
      case 'code_inline':
        runs.push({ text: child.content, marks: { ...marks } })
        break
      case 'softbreak':
        runs.push({ text: breaks ? '\n' : ' ', marks: {} })
        break
      case 'hardbreak':
        runs.push({ text: '\n', marks: {} })
        break
      case 'em_open':
        marks.italic = true
        break
      case 'em_close':
        delete marks.italic
        break
      case 's_open':
        marks.strike = true
        break
      case 's_close':
        delete marks.strike
        break
      case 'link_open': {
        const href = child.attrGet('href') ?? ''
        stack.push(HREF.test(href) ? 'href' : ('none' as keyof Marks))
        if (HREF.test(href)) marks.href = href
        break
      }
      case 'link_close':
        if (stack.pop() === 'href') delete marks.href
        break
      case 'image':
        picture(pictureOf(child))
        break
      case 'html_inline': {
        if (/^<br\s*\/?>$/i.test(child.content)) runs.push({ text: '\n', marks: {} })
        else if (child.content.startsWith('<!--')) comment(child.content.replace(/^<!--|-->$/g, ''))
        break
      }
      default:
        // strong (the model has no bold mark: headings are bold, text regular), html tags: their text stays.
        break
    }
  }
  return { text: runsToText(runs) }
}

function pictureOf(token: Token): MdPicture {
  const words = token.content.trim().split(/\s+/).filter(Boolean)
  const marp = words.filter((w) => MARP_IMAGE_WORD.test(w))
  const bg = marp.includes('bg')
  const side = marp.find((w) => /^(left|right)(:|$)/.test(w))?.replace(/:.*$/, '') as 'left' | 'right' | undefined
  const title = token.attrGet('title') ?? undefined
  return {
    src: token.attrGet('src') ?? '',
    alt: words.filter((w) => !MARP_IMAGE_WORD.test(w)).join(' ').slice(0, 2000),
    ...(title ? { title } : {}),
    ...(bg ? { background: side ?? 'cover' } : {}),
  }
}

// ---------------------------------------------------------------------------------------------
// Layout choice

/** A block placed in a slot: the action turns it into a block of the model. */
export type Placed = { slot: string } & (
  | { kind: 'heading'; level: number; text: string; title?: true }
  | { kind: 'text'; text: string; code?: true }
  | { kind: 'list'; marker: 'bullet' | 'number'; start?: number; items: { text: string; level?: number }[] }
  | { kind: 'table'; rows: string[][]; header?: true }
  | { kind: 'picture'; picture: MdPicture; background?: true }
)

export interface PlannedSlide {
  layout: LayoutName
  title?: string
  subtitle?: string
  byline?: string
  attribution?: string
  blocks: Placed[]
}

const plainLength = (text: string) => text.replace(/<[^>]+>/g, '').length
const isText = (b: MdBlock) => b.kind === 'text' || b.kind === 'heading'
const textOf = (b: MdBlock) => (b.kind === 'text' || b.kind === 'heading' || b.kind === 'quote' ? b.text.replace(/\n/g, ' ') : '')

/**
 * The layout a designer would give a slide, and its blocks filed into the layout's slots. A hint
 * (Marp class, Slidev layout) wins; otherwise: a title and a line or two on the first slide → title;
 * a heading alone → section; a lone picture (with a title, a caption) → picture-caption; a
 * background picture alone → picture-full, beside content → picture-left; Slidev's right column →
 * two-columns; a title with a table alone → table; a quote alone → quote; a short statement with no
 * heading → main-point; a heading with anything else → title-body.
 */
export function planSlide(slide: MdSlide, first: boolean, last = false): PlannedSlide {
  const all = [...slide.blocks]
  // The title is the heading the slide opens with (background pictures aside).
  const headingAt = all.findIndex((b) => !(b.kind === 'picture' && b.picture.background))
  const titleBlock = headingAt >= 0 && all[headingAt].kind === 'heading' ? (all.splice(headingAt, 1)[0] as Extract<MdBlock, { kind: 'heading' }>) : undefined
  const title = titleBlock?.text
  const sidePicture = all.find((b) => b.kind === 'picture' && (b.picture.background === 'left' || b.picture.background === 'right'))
  const cover = all.filter((b) => b.kind === 'picture' && b.picture.background === 'cover')
  const rest = all.filter((b) => b !== sidePicture && !cover.includes(b))
  const right = slide.right
  const pictures = rest.filter((b) => b.kind === 'picture')
  const texts = rest.filter(isText)

  let layout: LayoutName
  if (slide.layout) layout = slide.layout
  else if (slide.lead && title) layout = 'title'
  else if (right.length) layout = 'two-columns'
  else if (sidePicture) layout = 'picture-left'
  else if (cover.length && !title && !rest.length) layout = 'picture-full'
  else if (first && title && rest.length <= 2 && rest.every(isText) && rest.every((b) => plainLength(textOf(b)) <= 200)) layout = 'title'
  else if (title && !rest.length && last) layout = 'closing'
  else if (title && !rest.length) layout = 'section'
  else if (last && title && rest.length === 1 && rest[0].kind === 'text' && plainLength(rest[0].text) <= 120) layout = 'closing'
  else if (pictures.length === 1 && rest.length - 1 <= 1 && texts.length === rest.length - 1) layout = 'picture-caption'
  else if (title && rest.length >= 1 && rest[0].kind === 'table' && rest.length <= 2 && rest.slice(1).every((b) => b.kind === 'text')) layout = 'table'
  else if (!title && rest.length === 1 && rest[0].kind === 'quote') layout = 'quote'
  else if (!title && rest.length && rest.length <= 2 && rest.every((b) => b.kind === 'text') && rest.every((b) => plainLength(textOf(b)) <= 160)) layout = 'main-point'
  else if (slide.lead && !title && rest.length) layout = 'main-point'
  else layout = title ? 'title-body' : 'blank'
  if (layout === 'picture-full' && (title || rest.length)) layout = title ? 'title-body' : 'blank'

  const plan: PlannedSlide = { layout, blocks: [] }
  const put = (slot: string, b: MdBlock) => plan.blocks.push(placed(slot, b))
  const titleSlot = () => title !== undefined && plan.blocks.push({ slot: 'title', kind: 'heading', level: 1, text: title, title: true })
  let queue = [...rest]
  const take = (pred: (b: MdBlock) => boolean) => {
    const at = queue.findIndex(pred)
    return at < 0 ? undefined : queue.splice(at, 1)[0]
  }

  switch (layout) {
    case 'title':
    case 'section': {
      if (title !== undefined) plan.title = title
      else {
        const lead = take(isText)
        plan.title = lead ? textOf(lead) : ''
      }
      const sub = take(isText)
      if (sub) plan.subtitle = textOf(sub)
      if (layout === 'title') {
        const by = take(isText)
        if (by) plan.byline = textOf(by)
      }
      for (const b of queue) put('subtitle', b)
      break
    }
    case 'quote':
    case 'big-number':
    case 'statement':
    case 'main-point': {
      if (title !== undefined) queue.unshift(titleBlock!)
      const quote = take((b) => b.kind === 'quote')
      if (quote && quote.kind === 'quote') {
        put('body', { kind: 'text', text: quote.text })
        if (quote.attribution && (layout === 'quote' || layout === 'big-number')) plan.attribution = quote.attribution
        else if (quote.attribution) put(layout === 'statement' ? 'subtitle' : 'body', { kind: 'text', text: quote.attribution })
      } else if (layout !== 'main-point') {
        const lead = take(() => true)
        if (lead) put('body', lead)
      }
      const second = layout === 'statement' ? 'subtitle' : layout === 'main-point' ? 'body' : 'caption'
      for (const b of queue) put(second, b)
      break
    }
    case 'two-columns':
    case 'comparison':
    case 'three-columns':
      titleSlot()
      for (const b of queue) put('left', b)
      for (const b of right) put('right', b)
      right.length = 0
      break
    case 'picture-caption': {
      titleSlot()
      const picture = take((b) => b.kind === 'picture') ?? sidePicture
      if (picture) put('media', picture)
      for (const b of queue) put('caption', b)
      break
    }
    case 'picture-left': {
      titleSlot()
      const picture = sidePicture ?? take((b) => b.kind === 'picture')
      if (picture) put('media', picture.kind === 'picture' ? { kind: 'picture', picture: { ...picture.picture, background: undefined } } : picture)
      for (const b of queue) put('body', b)
      break
    }
    case 'picture-full': {
      const picture = cover[0] ?? take((b) => b.kind === 'picture')
      if (picture && picture.kind === 'picture') put('media', { kind: 'picture', picture: { ...picture.picture, background: undefined } })
      cover.splice(0, 1)
      for (const b of queue) put('media', b)
      break
    }
    case 'table': {
      titleSlot()
      const table = take((b) => b.kind === 'table')
      if (table) put('body', table)
      for (const b of queue) put(b.kind === 'text' ? 'caption' : 'body', b)
      break
    }
    case 'closing':
      titleSlot()
      for (const b of queue) put('subtitle', b)
      break
    case 'blank':
      if (title !== undefined) queue.unshift(titleBlock!)
      for (const b of queue) put('body', b)
      break
    default:
      titleSlot()
      if (sidePicture) queue = [sidePicture, ...queue]
      for (const b of queue) put('body', b)
  }
  for (const b of right) put(layout === 'two-columns' ? 'right' : 'body', b)
  for (const b of cover) if (b.kind === 'picture') plan.blocks.unshift({ slot: 'body', kind: 'picture', picture: { ...b.picture, background: undefined }, background: true })
  return plan
}

function placed(slot: string, b: MdBlock): Placed {
  switch (b.kind) {
    case 'heading':
      return { slot, kind: 'heading', level: Math.min(3, Math.max(1, b.depth - 1)), text: b.text }
    case 'text':
      return { slot, kind: 'text', text: b.text }
    case 'quote':
      return { slot, kind: 'text', text: b.attribution ? `${b.text}\n— ${b.attribution}` : b.text }
    case 'code':
      return { slot, kind: 'text', text: codeText(b.text), code: true }
    case 'list':
      return { slot, kind: 'list', marker: b.ordered ? 'number' : 'bullet', ...(b.start !== undefined ? { start: b.start } : {}), items: b.items.map((item) => ({ ...item, text: item.text })) }
    case 'table':
      return { slot, kind: 'table', rows: b.rows, ...(b.header ? { header: true as const } : {}) }
    case 'picture':
      return { slot, kind: 'picture', picture: b.picture }
  }
}

/**
 * Code as Text: one paragraph per line, the markup's entities escaped, and leading spaces (and tabs,
 * as four) as no-break spaces so the renderer keeps the indentation.
 */
export function codeText(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)![0]
      const body = line.slice(indent.length).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      return '\u00a0'.repeat(indent.replace(/\t/g, '    ').length) + body
    })
    .join('\n')
}
