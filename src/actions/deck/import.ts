import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { defineAction } from '../../core/action.js'
import { deckKey } from '../../core/engine.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { freeSlideId } from '../../model/edit.js'
import { plainOf } from '../../model/lint.js'
import { arr, bool, DeckId, int, obj, opt, ref, SectionId, SlideId, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { HREF, serialize, type Marks, type Run } from '../../model/text.js'
import { importResult, type StagedAsset as ImportedAsset } from '../../import/result.js'

/** A node of parse5's default tree, as much of it as the importer reads. */
interface HNode {
  nodeName: string
  tagName?: string
  attrs?: { name: string; value: string }[]
  childNodes?: HNode[]
  value?: string
  content?: HNode
}

export interface Skipped {
  /** 1-based position of the source slide element; absent for the page around the slides. */
  slide?: number
  element: string
  reason: string
}

/** A picture the HTML names, before its file is checked. */
interface PictureRef {
  src: string
  alt: string
  caption?: string
}

type Draft = { block: Omit<Block, 'id'> & { kind: string }; picture?: PictureRef }

export interface DraftSlide {
  index: number
  title?: string
  blocks: Draft[]
  notes?: string
}

const IMPORT_LAYOUT = 'title-body'
/** Largest HTML file read (a prototype deck with inline styles and scripts stays far below). */
const MAX_HTML_BYTES = 10 * 1024 * 1024
/** Largest picture copied (the URL-fetch cap of asset.add). */
const MAX_PICTURE_BYTES = 25 * 1024 * 1024
const PICTURE_TYPES = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif'])

/** Elements whose content is read as if it stood in their place. */
const CONTAINERS = new Set(['div', 'main', 'header', 'footer', 'article', 'aside', 'blockquote', 'hgroup', 'center', 'body', 'html', 'section'])
/** Inline elements: their text joins the paragraph being collected. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small',
  'span', 'strike', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr', 'font', 'label',
])
const INLINE_MARKS: Record<string, Marks> = {
  i: { italic: true }, em: { italic: true }, cite: { italic: true }, var: { italic: true }, dfn: { italic: true },
  u: { underline: true }, ins: { underline: true },
  s: { strike: true }, del: { strike: true }, strike: { strike: true },
  sup: { superscript: true }, sub: { subscript: true },
  mark: { highlight: 'highlight' },
}
/** Elements never read for text (their content is not shown as slide text). */
const IGNORED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link'])

const attr = (node: HNode, name: string) => node.attrs?.find((a) => a.name === name)?.value
const classes = (node: HNode) => (attr(node, 'class') ?? '').split(/\s+/).filter(Boolean)
const tag = (node: HNode) => (node.tagName ?? '').toLowerCase()
const isElement = (node: HNode) => typeof node.tagName === 'string'
const children = (node: HNode) => (tag(node) === 'template' ? node.content?.childNodes ?? [] : node.childNodes ?? [])

function isSlideElement(node: HNode): boolean {
  return isElement(node) && (tag(node) === 'section' || classes(node).includes('slide'))
}

function containsSlide(node: HNode): boolean {
  return children(node).some((child) => isSlideElement(child) || (isElement(child) && !IGNORED.has(tag(child)) && containsSlide(child)))
}

/** The slide elements of a page in document order; a slide element holding slides (a vertical stack) is not one itself. */
export function slideElements(root: HNode): HNode[] {
  const out: HNode[] = []
  const walk = (node: HNode) => {
    for (const child of children(node)) {
      if (!isElement(child) || IGNORED.has(tag(child))) continue
      if (isSlideElement(child) && !containsSlide(child)) out.push(child)
      else walk(child)
    }
  }
  walk(root)
  return out
}

// ---------------------------------------------------------------------------------------------
// Inline content → Text markup

/** Runs of inline content with HTML's white-space collapsing and the marks the Text subset has. */
function inlineRuns(nodes: HNode[], marks: Marks = {}, out: Run[] = [], pre = false): Run[] {
  for (const node of nodes) {
    if (node.nodeName === '#text') {
      out.push({ text: pre ? node.value ?? '' : (node.value ?? '').replace(/\s+/g, ' '), marks })
      continue
    }
    if (!isElement(node) || IGNORED.has(tag(node))) continue
    const name = tag(node)
    if (name === 'br') {
      out.push({ text: '\n', marks: {} })
      continue
    }
    if (name === 'img' || name === 'ul' || name === 'ol' || name === 'table') continue
    let next = { ...marks, ...(INLINE_MARKS[name] ?? {}) }
    if (name === 'a') {
      const href = attr(node, 'href')
      if (href && HREF.test(href)) next = { ...next, href }
    }
    const colour = /(?:^|;)\s*color\s*:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\s*(?:;|$)/.exec(attr(node, 'style') ?? '')
    if (colour) next = { ...next, color: colour[1] }
    inlineRuns(children(node), next, out, pre || name === 'pre')
  }
  return out
}

/** Runs as canonical markup, each paragraph trimmed and runs of spaces collapsed across tags. */
export function runsToText(runs: Run[]): string {
  const paragraphs: Run[][] = [[]]
  for (const run of runs) {
    const parts = run.text.split('\n')
    parts.forEach((part, i) => {
      if (i > 0) paragraphs.push([])
      if (part) paragraphs[paragraphs.length - 1].push({ text: part, marks: run.marks })
    })
  }
  const kept = paragraphs.map((paragraph) => {
    const out: Run[] = []
    for (const run of paragraph) {
      let text = run.text
      const previous = out[out.length - 1]
      if ((!previous || previous.text.endsWith(' ')) && text.startsWith(' ')) text = text.replace(/^ +/, '')
      if (text) out.push({ text, marks: run.marks })
    }
    while (out.length && !out[out.length - 1].text.trimEnd()) out.pop()
    if (out.length) out[out.length - 1] = { ...out[out.length - 1], text: out[out.length - 1].text.trimEnd() }
    return out
  })
  const joined: Run[] = []
  kept.forEach((paragraph, i) => {
    if (i > 0) joined.push({ text: '\n', marks: {} })
    joined.push(...paragraph)
  })
  return serialize(joined).replace(/^\n+|\n+$/g, '')
}

const inlineText = (nodes: HNode[]) => runsToText(inlineRuns(nodes))

/** The plain text content of a node (notes), paragraphs of block elements on lines of their own. */
function plainContent(node: HNode): string {
  const lines: string[] = []
  let line = ''
  const walk = (n: HNode) => {
    if (n.nodeName === '#text') line += (n.value ?? '').replace(/\s+/g, ' ')
    if (!isElement(n) || IGNORED.has(tag(n))) return
    const block = !INLINE.has(tag(n))
    if (block || tag(n) === 'br') {
      lines.push(line)
      line = ''
    }
    for (const child of children(n)) walk(child)
    if (block) {
      lines.push(line)
      line = ''
    }
  }
  for (const child of children(node)) walk(child)
  lines.push(line)
  return lines.map((l) => l.trim()).filter(Boolean).join('\n')
}

// ---------------------------------------------------------------------------------------------
// Block content → drafts

function listItems(list: HNode, level: number, items: { text: string; level?: number }[]): void {
  for (const li of children(list)) {
    if (!isElement(li) || tag(li) !== 'li') continue
    const own: HNode[] = []
    const nested: HNode[] = []
    for (const child of children(li)) (isElement(child) && (tag(child) === 'ul' || tag(child) === 'ol') ? nested : own).push(child)
    // Block children of an item (<li><p>…</p></li>) read as its text, one paragraph each joined by a space.
    const text = own.map((n) => (isElement(n) && !INLINE.has(tag(n)) ? inlineText(children(n)) : inlineText([n]))).filter(Boolean).join(' ')
    items.push(level > 1 ? { text, level } : { text })
    for (const sub of nested) listItems(sub, Math.min(level + 1, 9), items)
  }
}

function tableRows(table: HNode): { rows: string[][]; header: boolean } {
  const rows: string[][] = []
  let header = false
  const readRow = (tr: HNode, inHead: boolean) => {
    const cells = children(tr).filter((c) => isElement(c) && (tag(c) === 'td' || tag(c) === 'th'))
    if (!cells.length) return
    if (rows.length === 0 && (inHead || cells.every((c) => tag(c) === 'th'))) header = true
    rows.push(cells.map((c) => inlineText(children(c)).replace(/\n/g, ' ')))
  }
  for (const part of children(table)) {
    if (!isElement(part)) continue
    if (tag(part) === 'tr') readRow(part, false)
    else if (['thead', 'tbody', 'tfoot'].includes(tag(part))) for (const tr of children(part)) if (isElement(tr) && tag(tr) === 'tr') readRow(tr, tag(part) === 'thead')
  }
  const width = Math.max(0, ...rows.map((r) => r.length))
  return { rows: rows.map((r) => [...r, ...Array(width - r.length).fill('')]), header }
}

/** Reads one slide element into drafts; elements with no counterpart in the model are reported. */
export function readSlide(element: HNode, index: number, skipped: Skipped[]): DraftSlide {
  const slide: DraftSlide = { index, blocks: [] }
  let pending: HNode[] = []
  const text = (markup: string) => markup && slide.blocks.push({ block: { kind: 'text', slot: 'body', text: markup } })
  const flush = () => {
    if (pending.length) text(inlineText(pending))
    // Pictures inside inline content (<a href><img></a>) come over after the paragraph.
    for (const node of pending) for (const img of isElement(node) ? descendants(node, 'img') : []) picture(img)
    pending = []
  }
  const picture = (img: HNode, caption?: string) => {
    const src = attr(img, 'src') ?? ''
    slide.blocks.push({ block: { kind: 'picture', slot: 'body' }, picture: { src, alt: (attr(img, 'alt') ?? '').trim(), ...(caption ? { caption } : {}) } })
  }
  const walk = (nodes: HNode[]) => {
    for (const node of nodes) {
      if (node.nodeName === '#text') {
        pending.push(node)
        continue
      }
      if (!isElement(node)) continue
      const name = tag(node)
      if (IGNORED.has(name) && name !== 'script' && name !== 'style') continue
      if (INLINE.has(name)) {
        pending.push(node)
        continue
      }
      flush()
      if (name === 'h1' || name === 'h2') {
        const heading = inlineText(children(node)).replace(/\n/g, ' ')
        if (slide.title === undefined && heading) slide.title = heading
        else if (heading) slide.blocks.push({ block: { kind: 'heading', slot: 'body', level: name === 'h1' ? 1 : 2, text: heading } })
      } else if (/^h[3-6]$/.test(name)) {
        const heading = inlineText(children(node)).replace(/\n/g, ' ')
        if (heading) slide.blocks.push({ block: { kind: 'heading', slot: 'body', level: 3, text: heading } })
      } else if (name === 'p' || name === 'pre' || name === 'address') {
        text(runsToText(inlineRuns(children(node), {}, [], name === 'pre')))
        for (const img of descendants(node, 'img')) picture(img)
      } else if (name === 'ul' || name === 'ol') {
        const items: { text: string; level?: number }[] = []
        listItems(node, 1, items)
        const start = Number(attr(node, 'start'))
        if (items.length) {
          slide.blocks.push({
            block: { kind: 'list', slot: 'body', marker: name === 'ol' ? 'number' : 'bullet', items, ...(name === 'ol' && Number.isInteger(start) && start >= 0 && start !== 1 ? { start } : {}) },
          })
        }
      } else if (name === 'table') {
        const caption = children(node).find((c) => tag(c) === 'caption')
        if (caption) text(inlineText(children(caption)))
        const { rows, header } = tableRows(node)
        if (rows.length) slide.blocks.push({ block: { kind: 'table', slot: 'body', rows, ...(header ? { header: true } : {}) } })
      } else if (name === 'img') {
        picture(node)
      } else if (name === 'figure') {
        const captionNode = children(node).find((c) => tag(c) === 'figcaption')
        const caption = captionNode ? inlineText(children(captionNode)).replace(/\n/g, ' ') : undefined
        const imgs = descendants(node, 'img')
        imgs.forEach((img, i) => picture(img, i === 0 ? caption : undefined))
        if (!imgs.length) walk(children(node).filter((c) => c !== captionNode))
        if (!imgs.length && caption) text(caption)
      } else if (name === 'aside' && classes(node).includes('notes')) {
        const notes = plainContent(node)
        if (notes) slide.notes = slide.notes ? `${slide.notes}\n${notes}` : notes
      } else if (CONTAINERS.has(name)) {
        walk(children(node))
      } else if (name === 'hr' || name === 'figcaption') {
        // A rule or a stray caption carries nothing a slide keeps beyond its text.
        if (name === 'figcaption') text(inlineText(children(node)))
      } else {
        skipped.push({ slide: index, element: name, reason: `<${name}> has no counterpart in the slide model.` })
      }
    }
    flush()
  }
  walk(children(element))
  return slide
}

function descendants(node: HNode, name: string): HNode[] {
  const out: HNode[] = []
  for (const child of children(node)) {
    if (!isElement(child)) continue
    if (tag(child) === name) out.push(child)
    else out.push(...descendants(child, name))
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Pictures → assets

interface StagedAsset extends ImportedAsset {
  ext: string
}

/**
 * The file a picture's src names next to the source file, or why it cannot come over. With
 * `noLinks` (Markdown), a path through any symbolic link inside the folder is refused too.
 */
export function pictureFile(src: string, sourceDir: string, what = 'the HTML file', noLinks = false): { path: string } | { reason: string } {
  if (!src.trim()) return { reason: 'The picture has no src.' }
  if (/^https?:/i.test(src) && noLinks) return { reason: `"${src.slice(0, 120)}" is a remote picture and was not fetched: add it with \`studio asset add <url>\` (fetched through the guard) and place it on the slide.` }
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//')) return { reason: `"${src.slice(0, 80)}" is not a file next to ${what} (add remote pictures with asset.add).` }
  let rel: string
  try {
    rel = decodeURIComponent(src.replace(/[?#].*$/, ''))
  } catch {
    return { reason: `"${src}" is not a readable path.` }
  }
  if (isAbsolute(rel)) return { reason: `"${src}" is an absolute path; only files next to ${what} are copied.` }
  const path = resolve(sourceDir, rel)
  const inside = relative(sourceDir, path)
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return { reason: `"${src}" lies outside ${what}'s folder.` }
  if (noLinks) {
    // Every component from the folder down is looked at with lstat: no link is followed.
    let at = sourceDir
    for (const part of inside.split(sep)) {
      at = join(at, part)
      const stat = lstatSync(at, { throwIfNoEntry: false })
      if (!stat) return { reason: `"${src}" does not exist next to ${what}.` }
      if (stat.isSymbolicLink()) return { reason: `"${src}" goes through a symbolic link; only plain files inside ${what}'s folder are copied.` }
    }
  }
  if (!existsSync(path) || !statSync(path).isFile()) return { reason: `"${src}" does not exist next to ${what}.` }
  const real = relative(realpathSync(sourceDir), realpathSync(path))
  if (!real || real.startsWith('..') || isAbsolute(real)) return { reason: `"${src}" links to a file outside ${what}'s folder.` }
  const ext = extname(path).toLowerCase()
  if (!PICTURE_TYPES.has(ext)) return { reason: `"${src}" is not a PNG, JPEG, GIF, WebP or AVIF picture${ext === '.svg' ? ' (SVG is sanitized on the way in: add it with asset.add)' : ''}.` }
  if (statSync(path).size > MAX_PICTURE_BYTES) return { reason: `"${src}" is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MB.` }
  return { path }
}

/** An asset id not used in the deck's assets/ folder nor by this import. */
export function freeAssetId(slugify: (text: string) => string, base: string, taken: Set<string>): string {
  const stem = (slugify(base).slice(0, 100).replace(/-+$/, '') || 'picture').replace(/^-+/, '')
  if (!taken.has(stem)) return stem
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`
}

// ---------------------------------------------------------------------------------------------

export interface ImportInput {
  from: string
  into?: string
}

export interface ImportResult {
  id: string
  created: boolean
  section: string
  slideIds: string[]
  slides: Slide[]
  assets: string[]
  skipped: Skipped[]
  report: string
  revision: number
}

/** Whether the source is read as Markdown: by its extension, else by its first bytes (HTML opens with a tag). */
export function isMarkdownSource(path: string, head: Buffer): boolean {
  const ext = extname(path).toLowerCase()
  if (ext === '.md' || ext === '.markdown') return true
  if (ext === '.html' || ext === '.htm' || ext === '.xhtml') return false
  return !/^\s*</.test(head.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, ''))
}

export const importRun = defineAction({
  id: 'import.run',
  label: 'Import a deck from HTML or Markdown',
  doc:
    'Imports a file in one write. A Markdown file (.md, .markdown, or content that is not HTML) is read as Marp or Slidev Markdown (docs/markdown.md): front matter, `---` slide separators, ' +
    'headings, lists, tables, images, code, presenter notes in comments and per-slide layout hints; each slide gets the layout a designer would choose, local pictures next to the file are copied into assets/ ' +
    '(remote ones are reported, never fetched). Without `into` a new deck is created, its id the slug of the front matter title or the file name (409 id_taken when that deck exists); ' +
    '`into` names a deck to append to, or the id of a new one. ' +
    'A prototype deck HTML file is imported into an existing deck (`into` required): every <section> (or element of class "slide") becomes a title-body slide appended to the last section. ' +
    'h1/h2 → the heading in the title slot; p → text; ul/ol → list (nested lists → levels); table → table; img → picture, when the file lies next to the HTML ' +
    '(copied into assets/ with an asset record carrying its alt); aside.notes → speaker notes; every other element is reported as skipped. ' +
    'A file that cannot be read writes nothing. The import report (slides, assets, skipped elements) is written to .studio/import/<time>.json, local and not committed; its path is in the result.',
  group: 'deck',
  milestone: 'M2',
  mutates: true,
  transports: 'C',
  deck: { kind: 'none' },
  locks: async (input: ImportInput) => {
    if (input.into) return [deckKey(input.into)]
    const { markdownDeckId } = await import('../../import/run.js')
    const id = await markdownDeckId(input)
    return id ? [deckKey(id)] : []
  },
  input: obj({
    from: str({ minLength: 1, description: 'The HTML or Markdown file (relative to the working directory).' }),
    into: opt({ ...DeckId, description: 'The deck the slides are appended to (required for HTML). For Markdown: a new deck of this id when none exists; absent, a new deck named by the front matter title or the file name.' }),
  }),
  output: written({
    id: DeckId,
    created: bool({ description: 'Whether the import created the deck.' }),
    section: { ...SectionId, description: 'The section the slides were appended to (the last one).' },
    slideIds: arr(SlideId, { description: 'Ids of the slides imported, in order.' }),
    slides: arr(ref('Slide'), { description: 'The imported slides, normalized.' }),
    assets: arr(str(), { description: 'Asset ids copied in.' }),
    skipped: arr(
      obj({ slide: opt(int({ minimum: 1, description: '1-based position of the source slide; absent for the file as a whole.' })), element: str(), reason: str() }),
      { description: 'Elements left out, and pictures not copied (remote ones are never fetched).' },
    ),
    report: str({ description: 'Path of the import report (workspace-relative).' }),
  }),
  cli: 'import <from> --into <into>',
  mcp: null,
  example: { from: 'prototype.html', into: 'quarterly-review' },
  prepare: async (_ctx, input: ImportInput) => {
    const { prepareMarkdown } = await import('../../import/run.js')
    return prepareMarkdown(input)
  },
  run: async (ctx, input: ImportInput, prepared) => {
    if (prepared) {
      const { importMarkdown } = await import('../../import/run.js')
      return importMarkdown(ctx, input, prepared)
    }
    const into = input.into
    if (!into) fail('invalid_input', 'An HTML import appends to an existing deck: name it with --into.', { pointer: '/into' })
    const { default: slugify } = await import('@sindresorhus/slugify')
    if (!ctx.ws.deckExists(into)) fail('not_found', `No deck "${into}"; create it first (studio deck create).`, { pointer: '/into' })
    const htmlPath = resolve(input.from)
    if (!existsSync(htmlPath) || !statSync(htmlPath).isFile()) fail('not_found', `No file "${input.from}".`, { pointer: '/from' })
    if (statSync(htmlPath).size > MAX_HTML_BYTES) fail('payload_too_large', `"${input.from}" is larger than ${MAX_HTML_BYTES / 1024 / 1024} MB.`, { pointer: '/from' })
    const html = await readFile(htmlPath, 'utf8')
    const { parse } = await import('parse5')
    const page = parse(html) as unknown as HNode
    const elements = slideElements(page)
    if (!elements.length) fail('invalid_input', `"${input.from}" holds no <section> or class="slide" element to import.`, { pointer: '/from' })

    const skipped: Skipped[] = []
    const drafts = elements.map((element, i) => readSlide(element, i + 1, skipped))
    const current = await ctx.load(into)
    const doc: DeckDoc = cloneDoc(current)
    const deckDir = ctx.ws.deckDir(into)
    const assetDir = join(deckDir, 'assets')
    const takenAssets = new Set(existsSync(assetDir) ? readdirSync(assetDir).map((name) => name.replace(/(@\dx)?\.[^.]+(\.[^.]+)?$/, '')) : [])
    const assets = new Map<string, StagedAsset>()
    const htmlDir = dirname(htmlPath)
    const takenSlides = new Set<string>()
    const slideIds: string[] = []

    for (const draft of drafts) {
      const id = freeSlideId(doc, IMPORT_LAYOUT, takenSlides, ctx.clientId)
      takenSlides.add(id)
      const blocks: Block[] = []
      if (draft.title !== undefined) blocks.push({ id: 'title', kind: 'heading', slot: 'title', text: draft.title })
      let n = 0
      for (const { block, picture } of draft.blocks) {
        if (picture) {
          const found = pictureFile(picture.src, htmlDir)
          if ('reason' in found) {
            skipped.push({ slide: draft.index, element: 'img', reason: found.reason })
            continue
          }
          let asset = assets.get(found.path)
          if (!asset) {
            const ext = extname(found.path).toLowerCase()
            const assetId = freeAssetId(slugify, basename(found.path, extname(found.path)), takenAssets)
            takenAssets.add(assetId)
            asset = { id: assetId, file: `${assetId}${ext}`, source: relative(htmlDir, found.path), bytes: await readFile(found.path), ext, alt: picture.alt }
            assets.set(found.path, asset)
          }
          blocks.push({ id: `b${++n}`, kind: 'picture', slot: 'body', asset: asset.id, ...(picture.caption ? { caption: picture.caption } : {}) })
          continue
        }
        blocks.push({ id: `b${++n}`, ...block } as Block)
      }
      const slide: Slide = { id, layout: IMPORT_LAYOUT, blocks, ...(draft.notes ? { notes: draft.notes } : {}) }
      doc.slides[id] = slide
      slideIds.push(id)
    }
    if (!doc.manifest.sections.length) doc.manifest.sections.push({ id: 'imported', title: 'Imported', slides: [] })
    const section = doc.manifest.sections[doc.manifest.sections.length - 1]
    section.slides.push(...slideIds)

    ctx.stage(into, doc)
    return importResult(ctx, {
      from: htmlPath,
      into,
      created: false,
      section: section.id,
      slideIds,
      assets: assets.values(),
      skipped,
      at: new Date().toISOString(),
      slideReport: (id, i) => ({ id, source: `slide element ${drafts[i].index}`, title: drafts[i].title === undefined ? null : plainOf(drafts[i].title!), blocks: doc.slides[id].blocks?.length ?? 0, notes: Boolean(drafts[i].notes) }),
    })
  },
  human: (result: unknown) => {
    const r = result as ImportResult
    return [
      `Imported ${r.slideIds.length} slide${r.slideIds.length === 1 ? '' : 's'} into ${r.created ? 'the new deck ' : ''}${r.id} (section ${r.section}, revision ${r.revision}): ${r.slideIds.join(', ')}`,
      `${r.assets.length} picture${r.assets.length === 1 ? '' : 's'} copied${r.assets.length ? `: ${r.assets.join(', ')}` : ''}`,
      ...(r.skipped.length ? [`${r.skipped.length} element${r.skipped.length === 1 ? '' : 's'} skipped:`, ...r.skipped.map((s) => `  ${s.slide ? `slide ${s.slide}: ` : ''}<${s.element}> ${s.reason}`)] : []),
      `Report: ${r.report}`,
    ].join('\n')
  },
})
