/**
 * Readable text of one deck JSON file, for git's diff driver (`studio diff --textconv <file>`):
 * with `.gitattributes` saying `decks/**\/*.json diff=studio`, plain `git diff` and `git log -p`
 * print these lines instead of raw JSON.
 *
 *   slide files   the slide text: title, blocks in order with their plain text, notes
 *   deck.json     title, theme, defaults and sections with their slide ids (no revision or
 *                 stamps: they change on every write and would make every commit show a change)
 *   versions.json one line per named version
 *
 * The kind of file is told from its content (git hands textconv a temporary file for older
 * versions); anything else, or text that is not JSON, passes through unchanged.
 */
import type { Block, Manifest, Slide, Version } from '../model/deck.js'
import { findTheme } from '../model/themes.js'
import { blockText, plain } from './diff.js'
import { commentFileProse } from '../comments/prose.js'

function num(n: unknown): string {
  return typeof n === 'number' ? String(Math.round(n * 10) / 10) : '?'
}

function blockLines(block: Block): string[] {
  const where: string[] = []
  if (block.slot) where.push(`in ${block.slot}`)
  const pos = block.pos as { x: number; y: number; w: number; h: number } | undefined
  if (pos) where.push(`at ${num(pos.x)}, ${num(pos.y)} size ${num(pos.w)} × ${num(pos.h)}`)
  if (typeof block.angle === 'number' && block.angle) where.push(`rotated ${num(block.angle)}°`)
  if (block.kind === 'picture') where.push(block.asset === undefined ? 'placeholder, no picture yet' : `asset ${String(block.asset)}`)
  if (block.kind === 'chart') where.push(String(block.chartType))
  const start = (block.start as { block?: string } | undefined)?.block
  const end = (block.end as { block?: string } | undefined)?.block
  if (start || end) where.push(`from ${start ?? 'a point'} to ${end ?? 'a point'}`)
  const head = `[${block.id}] ${block.kind}${where.length ? ` (${where.join(', ')})` : ''}`
  if (block.kind === 'list') {
    const items = (block.items as { text: string; level?: number }[] | undefined) ?? []
    return [head, ...items.map((item) => `${'  '.repeat(item.level ?? 1)}- ${plain(item.text)}`)]
  }
  if (block.kind === 'table') {
    const rows = (block.rows as string[][] | undefined) ?? []
    return [head, ...rows.map((row) => `  | ${row.map(plain).join(' | ')} |`)]
  }
  if (block.kind === 'chart') {
    const data = block.data as { categories?: string[]; series?: { name: string; values: (number | null)[] }[] } | undefined
    const lines = [head]
    if (plain(block.title)) lines.push(`  ${plain(block.title)}`)
    for (const series of data?.series ?? []) {
      lines.push(`  ${series.name}: ${(data?.categories ?? []).map((c, i) => `${c} ${series.values[i] ?? '-'}`).join(', ')}`)
    }
    return lines
  }
  const text = blockText(block)
  if (block.kind === 'text' || block.kind === 'heading' || block.kind === 'textbox' || block.kind === 'shape') {
    // Paragraphs on their own lines, so a one-paragraph edit is a one-line diff.
    const paragraphs = String(block.text ?? '').split('\n').map(plain).filter(Boolean)
    return [head, ...paragraphs.map((p) => `  ${p}`)]
  }
  return text ? [head, `  ${text}`] : [head]
}

export function slideText(slide: Slide): string {
  const lines = [`Slide ${slide.id} (${slide.layout})${slide.skip ? ' [skipped]' : ''}`]
  for (const field of ['title', 'subtitle', 'byline', 'attribution'] as const) {
    const value = plain(slide[field])
    if (value) lines.push(`${field[0].toUpperCase()}${field.slice(1)}: ${value}`)
  }
  if (slide.background) lines.push(`Background: ${slide.background}`)
  for (const block of slide.blocks ?? []) lines.push(...blockLines(block))
  if (plain(slide.notes)) {
    lines.push('Notes:')
    for (const paragraph of String(slide.notes).split('\n').map(plain).filter(Boolean)) lines.push(`  ${paragraph}`)
  }
  return lines.join('\n') + '\n'
}

export function manifestText(manifest: Manifest): string {
  const lines = [`Deck: ${manifest.title}`, `Theme: ${findTheme(manifest.theme)?.id ?? manifest.theme}`]
  const d = manifest.defaults ?? {}
  if (d.appearance) lines.push(`Appearance: ${d.appearance}`)
  if (d.counter !== undefined) lines.push(`Slide numbers: ${d.counter ? 'on' : 'off'}`)
  if (d.notes) lines.push(`Default notes: ${plain(d.notes)}`)
  if (manifest.background) lines.push(`Background: ${manifest.background}`)
  if (manifest.guides?.vertical?.length) lines.push(`Vertical guides: ${manifest.guides.vertical.join(', ')}`)
  if (manifest.guides?.horizontal?.length) lines.push(`Horizontal guides: ${manifest.guides.horizontal.join(', ')}`)
  if (manifest.trashedAt) lines.push(`In the trash since ${manifest.trashedAt}`)
  for (const section of manifest.sections) {
    lines.push(`Section ${section.id}: ${section.title}`)
    for (const id of section.slides) lines.push(`  ${id}`)
  }
  return lines.join('\n') + '\n'
}

export function versionsText(versions: Version[]): string {
  return versions.map((v) => `Version ${v.n} at revision ${v.revision} by ${v.author}: ${v.note}`).join('\n') + '\n'
}

/** The readable text of a deck JSON file's content. */
export function textconv(content: string): string {
  let value: unknown
  try {
    value = JSON.parse(content)
  } catch {
    return content
  }
  if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && typeof v.n === 'number' && typeof v.note === 'string')) {
    return versionsText(value as Version[])
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    if (Array.isArray(record.sections) && typeof record.title === 'string') return manifestText(record as unknown as Manifest)
    if (typeof record.id === 'string' && typeof record.layout === 'string') return slideText(record as unknown as Slide)
    const comments = commentFileProse(record, content)
    if (comments !== null) return comments
  }
  return content
}
