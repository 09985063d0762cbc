/**
 * Text markup to HTML: the runs of src/model/text.ts drawn as spans, one element per paragraph.
 *
 * Marks: italic, underline, strike, superscript and subscript (raised or lowered 0.7 em text that
 * leaves the line box alone, so the line heights geometry measured hold), text colour, highlight,
 * size and links. A Text written by hand that the strict reader refuses is drawn as its plain text
 * (markup stripped), never as HTML.
 */
import { parse, type Marks, type Run } from '../model/text.js'
import { stripMarkup } from '../layout/text.js'
import { colour, escapeHtml, px, type Paint } from './paint.js'

/** The paragraphs of a Text as runs; a paragraph break ends one. */
export function paragraphRuns(markup: string): Run[][] {
  let runs: Run[]
  try {
    runs = parse(markup)
  } catch {
    runs = [{ text: stripMarkup(markup), marks: {} }]
  }
  const out: Run[][] = [[]]
  for (const run of runs) {
    const parts = run.text.replace(/\r\n?/g, '\n').split('\n')
    parts.forEach((part, i) => {
      if (i > 0) out.push([])
      if (part) out[out.length - 1].push({ text: part, marks: run.marks })
    })
  }
  return out
}

function runStyle(paint: Paint, marks: Marks): string {
  const style: string[] = []
  if (marks.italic) style.push('font-style:italic')
  const lines = [marks.underline ? 'underline' : '', marks.strike ? 'line-through' : ''].filter(Boolean)
  if (lines.length) style.push(`text-decoration:${lines.join(' ')}`)
  if (marks.color) style.push(`color:${colour(paint, marks.color)}`)
  if (marks.highlight) style.push(`background:${colour(paint, marks.highlight, 'highlight')}`)
  if (marks.size) style.push(`font-size:${px(marks.size)}`)
  if (marks.superscript || marks.subscript) style.push(`font-size:0.7em;position:relative;top:${marks.superscript ? '-0.45em' : '0.25em'}`)
  return style.join(';')
}

/** One run as HTML. Links keep their target as data (a render is a picture; the page wires them). */
function runHtml(paint: Paint, run: Run): string {
  const text = escapeHtml(run.text)
  const style = runStyle(paint, run.marks)
  const inner = style ? `<span style="${style}">${text}</span>` : text
  if (run.marks.href) return `<a class="ln" href="${escapeHtml(run.marks.href)}">${inner}</a>`
  return inner
}

/** A paragraph's runs as HTML; an empty paragraph holds a line break so it is one line tall, as measured. */
export function paragraphHtml(paint: Paint, runs: Run[]): string {
  if (!runs.length) return '<br>'
  return runs.map((run) => runHtml(paint, run)).join('')
}

/** A whole Text as paragraphs (`<p>`), each with the given inline style. */
export function textHtml(paint: Paint, markup: string, paragraphStyle = ''): string {
  const attr = paragraphStyle ? ` style="${paragraphStyle}"` : ''
  return paragraphRuns(markup)
    // dir=auto: a paragraph in Arabic or Hebrew runs and aligns right to left; every other stays as the block sets it.
    .map((runs) => `<p dir="auto"${attr}>${paragraphHtml(paint, runs)}</p>`)
    .join('')
}
