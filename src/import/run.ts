/**
 * import.run for a Markdown file: `prepareMarkdown` reads and checks the whole file and every picture
 * it names (outside the deck's lock, before anything is written), `importMarkdown` builds the slides
 * into a new deck or onto the end of an existing one, for the engine to commit in one write.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { basename, dirname, extname, join, relative, resolve } from 'node:path'
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import { cloneDoc, type Block, type DeckDoc, type Slide } from '../model/deck.js'
import { freeSlideId } from '../model/edit.js'
import { plainOf } from '../model/lint.js'
import { RESERVED_DECK_IDS } from '../store/workspace.js'
import { freeAssetId, isMarkdownSource, pictureFile, type ImportInput, type ImportResult, type Skipped } from '../actions/deck/import.js'
import { importResult, type StagedAsset } from './result.js'
import { MAX_MARKDOWN_BYTES, parseMarkdown, planSlide, type MdBlock, type MdDeck, type Placed } from './markdown.js'

interface Picture {
  path: string
  bytes: Buffer
  ext: string
  aspect?: number
}

export interface MdPrepared {
  path: string
  deck: MdDeck
  /** The picture of each src that came over (by src). */
  pictures: Map<string, Picture>
  /** The new deck's id and title when no `into` names one. */
  id: string
  title: string
}

/** What prepare read, by the input object the engine hands to prepare, locks and run alike. */
const preparedFor = new WeakMap<object, MdPrepared>()

/** The Markdown source read whole, or undefined for an HTML source (that path reads its file in run). */
export async function prepareMarkdown(input: ImportInput): Promise<MdPrepared | undefined> {
  const path = resolve(input.from)
  if (!existsSync(path) || !statSync(path).isFile()) fail('not_found', `No file "${input.from}".`, { pointer: '/from' })
  const handle = await open(path, 'r')
  const head = Buffer.alloc(512)
  try {
    await handle.read(head, 0, 512, 0)
  } finally {
    await handle.close()
  }
  if (!isMarkdownSource(path, head)) return undefined
  if (statSync(path).size > MAX_MARKDOWN_BYTES) fail('payload_too_large', `"${input.from}" is larger than ${MAX_MARKDOWN_BYTES / 1024 / 1024} MB.`, { pointer: '/from' })
  const deck = parseMarkdown(await readFile(path))
  const pictures = new Map<string, Picture>()
  const dir = dirname(path)
  const keep = async (blocks: MdBlock[], slide: number) => {
    const out: MdBlock[] = []
    for (const block of blocks) {
      if (block.kind !== 'picture') {
        out.push(block)
        continue
      }
      const src = block.picture.src
      if (!pictures.has(src)) {
        // Slidev serves `/name.png` from the public/ folder beside the slides.
        const local = deck.dialect === 'slidev' && /^\/[^/]/.test(src) ? `public${src}` : src
        const found = pictureFile(local, dir, 'the Markdown file', true)
        if ('reason' in found) {
          deck.findings.push({ slide, element: 'img', reason: found.reason })
          continue
        }
        const bytes = await readFile(found.path)
        pictures.set(src, { path: found.path, bytes, ext: extname(found.path).toLowerCase(), aspect: await aspectOf(bytes) })
      }
      out.push(block)
    }
    return out
  }
  for (const slide of deck.slides) {
    slide.blocks = await keep(slide.blocks, slide.index)
    slide.right = await keep(slide.right, slide.index)
  }
  const stem = basename(path, extname(path))
  const firstHeading = deck.slides[0]?.blocks.find((b) => b.kind === 'heading')
  const title = (deck.title ?? (firstHeading?.kind === 'heading' ? plainOf(firstHeading.text) : '')).trim() || stem
  const prepared: MdPrepared = { path, deck, pictures, id: input.into ?? (await deckIdOf(deck.title, stem)), title: title.slice(0, 200) }
  preparedFor.set(input, prepared)
  return prepared
}

/** The lock key's deck id for a Markdown import without `into` (prepare ran first on the same input). */
export async function markdownDeckId(input: ImportInput): Promise<string | undefined> {
  return preparedFor.get(input)?.id
}

async function deckIdOf(title: string | undefined, stem: string): Promise<string> {
  const { default: slugify } = await import('@sindresorhus/slugify')
  for (const name of [title, stem]) {
    const slug = name ? slugify(name).slice(0, 60).replace(/-+$/, '') : ''
    if (slug && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) return RESERVED_DECK_IDS.has(slug) ? `${slug}-deck` : slug
  }
  fail('invalid_input', 'Neither the front matter title nor the file name gives a usable deck id; name the deck with --into.', { pointer: '/into' })
}

/** Width over height of a raster picture, when sharp can read its header. */
async function aspectOf(bytes: Buffer): Promise<number | undefined> {
  try {
    const { default: sharp } = await import('sharp')
    const meta = await sharp(bytes).metadata()
    const turned = (meta.orientation ?? 1) >= 5
    const [w, h] = turned ? [meta.height, meta.width] : [meta.width, meta.height]
    return w && h ? Number((w / h).toFixed(4)) : undefined
  } catch {
    return undefined
  }
}

export async function importMarkdown(ctx: ActionContext, input: ImportInput, prepared: MdPrepared): Promise<(docs: Map<string, DeckDoc | null>) => ImportResult> {
  const { default: slugify } = await import('@sindresorhus/slugify')
  const id = prepared.id
  const exists = ctx.ws.deckExists(id)
  if (!exists && (RESERVED_DECK_IDS.has(id) || existsSync(ctx.ws.deckDir(id)))) fail('id_taken', `"${id}" cannot be used for a new deck; name another with --into.`, { pointer: '/into' })
  if (exists && !input.into) {
    fail('id_taken', `A deck "${id}" already exists. Append the slides to it with --into ${id}, or create a new deck with --into <new-id>.`, { pointer: '/into' })
  }
  const { deck } = prepared
  const now = new Date().toISOString()
  const doc: DeckDoc = exists
    ? cloneDoc(await ctx.load(id))
    : cloneDoc({
        manifest: {
          id,
          title: prepared.title,
          theme: deck.theme ?? 'studio-simple',
          defaults: { appearance: deck.appearance ?? 'light', ...(deck.paginate ? { counter: true } : {}) },
          sections: [],
          revision: 0,
          stamps: { createdAt: now, updatedAt: now },
        },
        slides: {},
        versions: [],
      })
  if (exists && (deck.theme || deck.appearance || deck.paginate)) deck.findings.push({ element: 'front matter', reason: `The deck "${id}" keeps its own theme and settings; the front matter's were not applied.` })

  const assetDir = join(ctx.ws.deckDir(id), 'assets')
  const takenAssets = new Set(existsSync(assetDir) ? readdirSync(assetDir).map((name) => name.replace(/(@\dx)?\.[^.]+(\.[^.]+)?$/, '')) : [])
  const assets = new Map<string, StagedAsset>()
  const assetOf = (src: string, alt: string): string => {
    const picture = prepared.pictures.get(src)!
    let asset = assets.get(picture.path)
    if (!asset) {
      const assetId = freeAssetId(slugify, basename(picture.path, picture.ext), takenAssets)
      takenAssets.add(assetId)
      asset = { id: assetId, file: `${assetId}${picture.ext}`, source: relative(dirname(prepared.path), picture.path), bytes: picture.bytes, alt }
      assets.set(picture.path, asset)
    }
    return asset.id
  }

  const takenSlides = new Set<string>()
  const slideIds: string[] = []
  const layouts: string[] = []
  for (const [i, source] of deck.slides.entries()) {
    const plan = planSlide(source, i === 0 && !exists, i === deck.slides.length - 1)
    const slideId = freeSlideId(doc, plan.layout, takenSlides, ctx.clientId)
    takenSlides.add(slideId)
    let n = 0
    let code = 0
    const blocks: Block[] = plan.blocks.map((p) => toBlock(plan.layout, p, p.kind === 'heading' && p.title ? 'title' : p.kind === 'text' && p.code ? `code${++code}` : `b${++n}`, assetOf, prepared))
    const slide: Slide = { id: slideId, layout: plan.layout }
    for (const field of ['title', 'subtitle', 'byline', 'attribution'] as const) if (plan[field] !== undefined) slide[field] = plan[field]
    if (blocks.length || !['title', 'section'].includes(plan.layout)) slide.blocks = blocks
    if (source.notes) slide.notes = source.notes.slice(0, 50000)
    // The theme colours the text: a background is kept only where that text stays readable on it.
    if (source.background && isDark(source.background) === (doc.manifest.defaults?.appearance === 'dark')) slide.background = source.background
    else if (source.background) deck.findings.push({ slide: source.index, element: 'background', reason: `The background ${source.background} is left out: the theme's text would be hard to read on it.` })
    doc.slides[slideId] = slide
    slideIds.push(slideId)
    layouts.push(plan.layout)
  }

  const sections = doc.manifest.sections
  if (exists) {
    if (!sections.length) sections.push({ id: 'main', title: 'Main', slides: [] })
    sections[sections.length - 1].slides.push(...slideIds)
  } else {
    // A new deck gets a section at each section header, as its author outlined the talk.
    for (const slideId of slideIds) {
      const slide = doc.slides[slideId]
      if (!sections.length || (slide.layout === 'section' && sections[sections.length - 1].slides.length)) {
        const title = slide.layout === 'section' ? plainOf(String(slide.title ?? '')).slice(0, 200) || 'Section' : 'Opening'
        const base = slugify(title).slice(0, 60).replace(/-+$/, '') || 'section'
        let sectionId = /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(base) ? base : 'section'
        for (let k = 2; sections.some((s) => s.id === sectionId); k++) sectionId = `${base}-${k}`
        sections.push({ id: sectionId, title, slides: [] })
      }
      sections[sections.length - 1].slides.push(slideId)
    }
  }
  const section = sections[sections.length - 1]

  ctx.stage(id, doc, exists ? {} : { create: true })
  const skipped: Skipped[] = deck.findings.map((f) => ({ ...(f.slide ? { slide: f.slide } : {}), element: f.element, reason: f.reason }))
  return importResult(ctx, {
    from: prepared.path,
    format: `markdown (${deck.dialect})`,
    into: id,
    created: !exists,
    section: section.id,
    slideIds,
    assets: assets.values(),
    skipped,
    at: now,
    slideReport: (slideId, i) => ({
      id: slideId,
      source: `slide ${deck.slides[i].index} (line ${deck.slides[i].line})`,
      layout: layouts[i],
      title: titleOf(doc.slides[slideId]),
      blocks: doc.slides[slideId].blocks?.length ?? 0,
      notes: Boolean(doc.slides[slideId].notes),
    }),
  })
}

/** Whether a hex colour is dark (relative luminance under 0.4). */
function isDark(hex: string): boolean {
  const full = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.4
}

function titleOf(slide: Slide): string | null {
  if (typeof slide.title === 'string') return plainOf(slide.title)
  const heading = slide.blocks?.find((b) => b.slot === 'title' && typeof b.text === 'string')
  return heading ? plainOf(heading.text as string) : null
}

function toBlock(layout: string, p: Placed, blockId: string, assetOf: (src: string, alt: string) => string, prepared: MdPrepared): Block {
  switch (p.kind) {
    case 'heading':
      return { id: blockId, kind: 'heading', slot: p.slot, ...(p.title ? {} : { level: p.level }), text: p.text }
    case 'text':
      // Code keeps its lines close together, as an editor shows them.
      return { id: blockId, kind: 'text', slot: p.slot, text: p.text, ...(p.code ? { spacing: { line: 1.15 } } : {}) }
    case 'list':
      return { id: blockId, kind: 'list', slot: p.slot, marker: p.marker, ...(p.start !== undefined ? { start: p.start } : {}), items: p.items }
    case 'table':
      return { id: blockId, kind: 'table', slot: p.slot, rows: p.rows, ...(p.header ? { header: true } : {}) }
    case 'picture': {
      const aspect = prepared.pictures.get(p.picture.src)?.aspect
      return {
        id: blockId,
        kind: 'picture',
        slot: p.slot,
        asset: assetOf(p.picture.src, p.picture.alt),
        ...(aspect ? { aspect } : {}),
        ...(p.picture.title ? { caption: p.picture.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') } : {}),
        ...(p.background ? { background: true } : {}),
        // A chart or a portrait is shown whole; only a picture that fills a side or the sheet is cropped to it.
        ...(p.background || layout === 'picture-left' || layout === 'picture-full' ? {} : { fit: 'contain' }),
      }
    }
  }
}
