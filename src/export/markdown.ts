/**
 * A deck as Marp Markdown (export.markdown): front matter, one slide per `---`, presenter notes as
 * HTML comments, pictures as relative paths to copies of their asset files. Read back by import.run,
 * the Markdown gives the same text, order, notes and pictures; the layout travels as a Marp class
 * (`<!-- _class: two-columns -->`, `lead` for a title slide) and Slidev's `::right::` opens a right
 * column. What Markdown cannot hold (bold is not a mark of ours either; colours, sizes, positions,
 * shapes without text, lines, shaders, HTML blocks) is left out and reported.
 */
import { existsSync, readdirSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { Block, DeckDoc, Slide } from '../model/deck.js'
import { isPicturePlaceholder } from '../model/blocks.js'
import { SLOTS } from '../model/layouts.js'
import { parse, plainText, type Run } from '../model/text.js'

export interface MarkdownSkip {
  slideId: string
  blockId?: string
  reason: string
}

export interface MarkdownDeck {
  markdown: string
  /** Asset ids the Markdown names, each with the file name it is written under. */
  pictures: Map<string, string>
  skipped: MarkdownSkip[]
}

const THEME_NAMES: Record<string, string> = { 'studio-simple': '' }

/** Backslash-escapes what Markdown would read as syntax in running text. */
function escapeText(text: string): string {
  let out = text.replace(/[\\`*_[\]<>&|~$]/g, '\\$&')
  // At the start of a line: headings, list markers, block quotes, Slidev slots, setext underlines.
  out = out.replace(/^(\s*)([#+=:-])/, '$1\\$2').replace(/^(\s*\d+)([.)])(\s|$)/, '$1\\$2$3')
  return out
}

function wrap(text: string, run: Run): string {
  const [, lead, inner, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!
  if (!inner) return text
  let out = inner
  if (run.marks.strike) out = `~~${out}~~`
  if (run.marks.italic) out = `*${out}*`
  if (run.marks.href) out = `[${out}](${run.marks.href.replace(/[()\s]/g, (c) => encodeURIComponent(c))})`
  return `${lead}${out}${trail}`
}

/** Text markup as inline Markdown; paragraph breaks become `lineBreak` (a hard break, `<br>` in a table cell). */
export function inlineMarkdown(markup: string, lineBreak = '\\\n'): string {
  let runs: Run[]
  try {
    runs = parse(markup)
  } catch {
    runs = [{ text: plainText(markup), marks: {} }]
  }
  const lines: string[] = ['']
  for (const run of runs) {
    run.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push('')
      if (part) lines[lines.length - 1] += wrap(escapeText(part.replace(/\s+/g, ' ')), run)
    })
  }
  return lines.map((line) => line.trim()).join(lineBreak)
}

/** The file of an asset in a deck's assets/ folder: `<id>.<ext>`, else its largest twin. */
export function assetFileName(deckDir: string, assetId: string): string | undefined {
  const dir = join(deckDir, 'assets')
  if (!existsSync(dir)) return undefined
  const names = readdirSync(dir).filter((name) => /\.(png|jpe?g|gif|webp|avif|svg)$/i.test(name))
  return (
    names.find((name) => name === `${assetId}${extname(name)}`) ??
    names
      .filter((name) => name.startsWith(`${assetId}@`) || name.startsWith(`${assetId}.dark.`))
      .sort()
      .pop()
  )
}

const quoteYaml = (value: string) => JSON.stringify(value)

/**
 * The deck's slides (in the order given) as Marp Markdown. `alt` answers an asset's alt text,
 * `fileOf` its file name in the deck (undefined: the picture is left out and reported), `dir` the
 * folder the picture copies go to, relative to the Markdown file.
 */
export function deckMarkdown(
  doc: DeckDoc,
  slides: Slide[],
  options: { notes: boolean; dir: string; alt: (assetId: string) => string; fileOf: (assetId: string) => string | undefined },
): MarkdownDeck {
  const m = doc.manifest
  const front = ['---', 'marp: true', `title: ${quoteYaml(m.title)}`]
  const theme = THEME_NAMES[m.theme] ?? m.theme
  if (theme) front.push(`theme: ${quoteYaml(theme)}`)
  if (m.defaults?.counter) front.push('paginate: true')
  if (m.defaults?.appearance === 'dark') front.push('class: invert')
  front.push('---')
  const pictures = new Map<string, string>()
  const skipped: MarkdownSkip[] = []

  const picturePath = (slide: Slide, block: Block): string | undefined => {
    if (isPicturePlaceholder(block)) {
      skipped.push({ slideId: slide.id, blockId: block.id, reason: 'An empty picture placeholder: there is no picture to write.' })
      return undefined
    }
    const asset = String(block.asset ?? '')
    const file = options.fileOf(asset)
    if (!file) {
      skipped.push({ slideId: slide.id, blockId: block.id, reason: `The asset "${asset}" has no picture file; the picture is left out.` })
      return undefined
    }
    pictures.set(asset, file)
    return `${options.dir}/${encodeURIComponent(file)}`
  }
  const image = (slide: Slide, block: Block, keywords: string): string | undefined => {
    const path = picturePath(slide, block)
    if (!path) return undefined
    const alt = options.alt(String(block.asset)).replace(/\s+/g, ' ').replace(/[[\]\\]/g, '\\$&')
    const caption = typeof block.caption === 'string' && block.caption ? ` "${plainText(block.caption).replace(/\s+/g, ' ').replace(/["\\]/g, '\\$&')}"` : ''
    return `![${[keywords, alt].filter(Boolean).join(' ')}](${path}${caption})`
  }

  const bodies = slides.map((slide) => {
    const out: string[] = []
    const layout = slide.layout
    if (layout === 'title') out.push('<!-- _class: lead -->')
    else if (layout !== 'title-body') out.push(`<!-- _class: ${layout} -->`)
    if (typeof slide.background === 'string' && /^#[0-9a-fA-F]{3,6}$/.test(slide.background)) out.push(`<!-- _backgroundColor: "${slide.background}" -->`)
    if (typeof slide.title === 'string' && slide.title) out.push(`# ${inlineMarkdown(slide.title, ' ')}`)
    for (const field of ['subtitle', 'byline'] as const) if (typeof slide[field] === 'string' && slide[field]) out.push(inlineMarkdown(slide[field] as string))

    const rank = (b: Block) => (typeof b.slot === 'string' ? (SLOTS as readonly string[]).indexOf(b.slot) : SLOTS.length)
    const at = (b: Block) => (b.pos as { x: number; y: number } | undefined) ?? { x: 0, y: 0 }
    const blocks = [...(slide.blocks ?? [])].sort(layout === 'freeform' ? (a, b) => at(a).y - at(b).y || at(a).x - at(b).x : (a, b) => rank(a) - rank(b))
    let right = false
    for (const block of blocks) {
      if (!right && block.slot === 'right' && layout !== 'freeform') {
        out.push('::right::')
        right = true
      }
      const text = typeof block.text === 'string' ? block.text : ''
      switch (block.kind) {
        case 'heading': {
          const depth = block.slot === 'title' ? 1 : Math.min(6, Number(block.level ?? 1) + 1)
          if (text) out.push(`${'#'.repeat(depth)} ${inlineMarkdown(text, ' ')}`)
          break
        }
        case 'text':
        case 'textbox':
        case 'shape':
          if (!text) {
            if (block.kind === 'shape') skipped.push({ slideId: slide.id, blockId: block.id, reason: 'A shape without text has no Markdown form.' })
            break
          }
          if (block.kind === 'text' && /^code\d*$/.test(block.id)) out.push(fence(plainText(text).replace(/\u00a0/g, ' ')))
          else if (layout === 'quote' && block.slot === 'body') out.push(inlineMarkdown(text, '\\\n').split('\n').map((l) => `> ${l}`).join('\n'))
          else out.push(inlineMarkdown(text))
          break
        case 'list': {
          const items = (block.items as { text: string; level?: number }[] | undefined) ?? []
          const numbered = block.marker === 'number'
          const counters: number[] = []
          let previous = 0
          const lines = items.map((item) => {
            // A level may grow by one step at a time in Markdown.
            const level = Math.max(1, Math.min(item.level ?? 1, previous + 1))
            previous = level
            counters.length = level
            counters[level - 1] = (counters[level - 1] ?? (level === 1 && typeof block.start === 'number' ? block.start - 1 : 0)) + 1
            const marker = numbered ? `${counters[level - 1]}.` : '-'
            return `${'    '.repeat(level - 1)}${marker} ${inlineMarkdown(item.text ?? '', ' ')}`
          })
          if (lines.length) out.push(lines.join('\n'))
          break
        }
        case 'table': {
          const rows = (block.rows as string[][] | undefined) ?? []
          if (!rows.length) break
          const width = Math.max(...rows.map((r) => r.length))
          const row = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => inlineMarkdown(cells[i] ?? '', '<br>') || ' ').join(' | ')} |`
          out.push([row(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(row)].join('\n'))
          break
        }
        case 'picture': {
          const keywords = block.background ? 'bg' : block.slot === 'media' && layout === 'picture-left' ? 'bg left' : block.slot === 'media' && layout === 'picture-full' ? 'bg' : ''
          const written = image(slide, block, keywords)
          if (written) out.push(written)
          break
        }
        case 'chart': {
          const data = block.data as { categories?: string[]; series?: { name: string; values: (number | null)[] }[] } | undefined
          const categories = data?.categories ?? []
          const series = data?.series ?? []
          if (typeof block.title === 'string' && block.title) out.push(inlineMarkdown(block.title))
          const cells = (r: string[]) => `| ${r.map((c) => escapeText(c) || ' ').join(' | ')} |`
          out.push([cells(['', ...series.map((s) => s.name)]), `|${' --- |'.repeat(series.length + 1)}`, ...categories.map((c, i) => cells([c, ...series.map((s) => String(s.values[i] ?? ''))]))].join('\n'))
          skipped.push({ slideId: slide.id, blockId: block.id, reason: 'The chart is written as a table of its data.' })
          break
        }
        default:
          skipped.push({ slideId: slide.id, blockId: block.id, reason: `A ${block.kind} block has no Markdown form.` })
      }
    }
    if (typeof slide.attribution === 'string' && slide.attribution) {
      // Inside the quote above it, as its last paragraph: import.run reads "— Name" there as the attribution.
      const by = `> — ${inlineMarkdown(slide.attribution, ' ')}`
      if (out.length && out[out.length - 1].startsWith('> ')) out[out.length - 1] += `\n>\n${by}`
      else out.push(by)
    }
    if (options.notes && slide.notes?.trim()) out.push(`<!--\n${slide.notes.trim().replace(/--+>/g, (s) => `${s.slice(0, -1)} >`)}\n-->`)
    return out.join('\n\n')
  })
  return { markdown: `${front.join('\n')}\n\n${bodies.join('\n\n---\n\n')}\n`, pictures, skipped }
}

function fence(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}\n${code}\n${ticks}`
}
