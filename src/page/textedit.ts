/**
 * Editing text in place, inside the renderer's own drawing of the block: the block's text element
 * becomes editable and what the person types is read back as Text markup (src/model/text.ts, the
 * same reader and writer the server uses), limited to the subset the model has: italic, underline,
 * strike, superscript, subscript, colour, highlight, size and links, paragraphs, and for lists items
 * with levels 1 to 9. There is no bold mark in the model (headings are bold, other text regular).
 *
 * Each run the renderer drew is tagged with its marks when editing starts, so text typed into a run
 * keeps that run's marks; a mark changed with a shortcut is applied to the runs and the paragraph
 * redrawn, with the selection kept.
 */
import { normalizeRuns, parse, serialize, type Marks, type Run } from '../model/text.js'

export type MarkKey = 'italic' | 'underline' | 'strike' | 'superscript' | 'subscript'

export interface TextEditor {
  readonly element: HTMLElement
  /** The current value: a Text for text blocks and fields, the items for a list. */
  value(): string | { text: string; level?: number }[]
  /** Toggles a mark over the selection (all of it marked: cleared; else set). */
  toggle(mark: MarkKey): void
  /** Links the selection to `href`, or unlinks it with null. */
  link(href: string | null): void
  /** Steps the levels of the selected list items in (1) or out (-1). */
  level(by: 1 | -1): boolean
  /** The marks at the caret (for the toolbar's pressed states). */
  marksAtCaret(): Marks
  destroy(): void
}

function readRuns(markup: string): Run[] {
  try {
    return parse(markup)
  } catch {
    return [{ text: markup.replace(/<[^>]*>/g, ''), marks: {} }]
  }
}

/** Paragraphs of runs (a "\n" ends one). */
function paragraphsOf(runs: Run[]): Run[][] {
  const out: Run[][] = [[]]
  for (const run of runs) {
    run.text.split('\n').forEach((part, i) => {
      if (i > 0) out.push([])
      if (part) out[out.length - 1].push({ text: part, marks: run.marks })
    })
  }
  return out
}

const isParagraph = (node: Node) => node instanceof HTMLElement && (node.tagName === 'P' || node.tagName === 'DIV' || node.tagName === 'LI')
const isMarker = (node: Node) => node instanceof HTMLElement && node.dataset.marker !== undefined

function marksOf(node: Node, stop: HTMLElement): Marks {
  for (let el = node.parentElement; el && el !== stop; el = el.parentElement) {
    if (el.dataset.m) return JSON.parse(el.dataset.m) as Marks
  }
  return {}
}

/** The paragraph elements of the editable element (stray inline content becomes its own paragraph). */
function paragraphElements(root: HTMLElement): HTMLElement[] {
  const stray: Node[] = []
  for (const node of [...root.childNodes]) {
    if (isParagraph(node)) {
      if (stray.length) wrap(root, stray.splice(0), node)
    } else if (!(node instanceof Text && !node.data.trim() && !stray.length)) stray.push(node)
  }
  if (stray.length) wrap(root, stray, null)
  return [...root.children].filter(isParagraph) as HTMLElement[]
}

function wrap(root: HTMLElement, nodes: Node[], before: Node | null): void {
  const p = document.createElement('p')
  root.insertBefore(p, before)
  for (const n of nodes) p.append(n)
}

/** The runs of one paragraph element, read from its text nodes and their tagged marks. */
function readParagraph(p: HTMLElement): Run[][] {
  const out: Run[][] = [[]]
  const walk = (node: Node) => {
    if (isMarker(node)) return
    if (node instanceof Text) {
      if (node.data) out[out.length - 1].push({ text: node.data.replace(/\u00a0/g, ' ').replace(/\u200b/g, ''), marks: marksOf(node, p) })
      return
    }
    if (node instanceof HTMLBRElement) {
      // A trailing <br> only keeps an empty paragraph one line tall; one inside a paragraph breaks it.
      if (node.nextSibling) out.push([])
      return
    }
    if (isParagraph(node) && node !== p) {
      if (out[out.length - 1].length) out.push([])
      node.childNodes.forEach(walk)
      out.push([])
      return
    }
    node.childNodes.forEach(walk)
  }
  p.childNodes.forEach(walk)
  while (out.length > 1 && !out[out.length - 1].length) out.pop()
  return out
}

function runStyle(marks: Marks, colours: Map<string, string>): string {
  const style: string[] = []
  if (marks.italic) style.push('font-style:italic')
  const lines = [marks.underline ? 'underline' : '', marks.strike ? 'line-through' : ''].filter(Boolean)
  if (lines.length) style.push(`text-decoration:${lines.join(' ')}`)
  if (marks.color) style.push(`color:${colours.get(marks.color) ?? (marks.color.startsWith('#') ? marks.color : 'inherit')}`)
  if (marks.highlight) style.push(`background:${colours.get(`bg:${marks.highlight}`) ?? (marks.highlight.startsWith('#') ? marks.highlight : 'transparent')}`)
  if (marks.size) style.push(`font-size:${marks.size}px`)
  if (marks.superscript || marks.subscript) style.push(`font-size:0.7em;position:relative;top:${marks.superscript ? '-0.45em' : '0.25em'}`)
  if (marks.href) style.push('text-decoration:underline')
  return style.join(';')
}

function drawRuns(p: HTMLElement, runs: Run[], colours: Map<string, string>): void {
  const marker = [...p.childNodes].find(isMarker)
  p.replaceChildren(...(marker ? [marker] : []))
  for (const run of runs) {
    const span = document.createElement('span')
    span.dataset.m = JSON.stringify(run.marks)
    const style = runStyle(run.marks, colours)
    if (style) span.setAttribute('style', style)
    span.textContent = run.text
    p.append(span)
  }
  if (!runs.some((r) => r.text)) p.append(document.createElement('br'))
}

/** Tags the renderer's run elements of a paragraph with their marks (they were drawn one element or text node per run). */
function tagParagraph(p: HTMLElement, runs: Run[], colours: Map<string, string>): void {
  const nodes = [...p.childNodes].filter((n) => !isMarker(n) && !(n instanceof HTMLBRElement))
  if (nodes.length !== runs.length) {
    drawRuns(p, runs, colours)
    return
  }
  nodes.forEach((node, i) => {
    const marks = runs[i].marks
    if (node instanceof Text) {
      const span = document.createElement('span')
      span.dataset.m = JSON.stringify(marks)
      node.replaceWith(span)
      span.append(node)
    } else if (node instanceof HTMLElement) {
      node.dataset.m = JSON.stringify(marks)
      const inner = node.querySelector('span[style]')
      const styled = (inner ?? node) as HTMLElement
      if (marks.color && styled.style.color) colours.set(marks.color, styled.style.color)
      if (marks.highlight && styled.style.background) colours.set(`bg:${marks.highlight}`, styled.style.background)
      // A link stays text while editing: a click places the caret.
      if (node instanceof HTMLAnchorElement) node.removeAttribute('href')
    }
  })
}

interface Point {
  node: Node
  offset: number
}

/** Text nodes of the editable element in order, with the paragraph index of each. */
function textNodes(paragraphs: HTMLElement[]): { node: Text; para: number }[] {
  const out: { node: Text; para: number }[] = []
  paragraphs.forEach((p, para) => {
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.parentElement?.closest('[data-marker]') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT) })
    for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push({ node: n as Text, para })
  })
  return out
}

/** The plain-text offset of a DOM point (one character per paragraph break). */
function offsetOf(paragraphs: HTMLElement[], point: Point): number {
  let offset = 0
  const para = paragraphs.findIndex((p) => p === point.node || p.contains(point.node))
  if (para < 0) return 0
  for (let i = 0; i < para; i++) offset += textNodes([paragraphs[i]]).reduce((n, t) => n + t.node.data.length, 0) + 1
  const range = document.createRange()
  range.setStart(paragraphs[para], 0)
  range.setEnd(point.node, point.offset)
  for (const { node } of textNodes([paragraphs[para]])) {
    if (range.comparePoint(node, 0) > 0) break
    if (range.comparePoint(node, node.data.length) <= 0) offset += node.data.length
    else offset += point.node === node ? point.offset : 0
  }
  return offset
}

function pointAt(paragraphs: HTMLElement[], offset: number): Point {
  let left = offset
  for (let i = 0; i < paragraphs.length; i++) {
    const nodes = textNodes([paragraphs[i]])
    const length = nodes.reduce((n, t) => n + t.node.data.length, 0)
    if (left <= length) {
      for (const { node } of nodes) {
        if (left <= node.data.length) return { node, offset: left }
        left -= node.data.length
      }
      return { node: paragraphs[i], offset: paragraphs[i].childNodes.length }
    }
    left -= length + 1
  }
  const last = paragraphs[paragraphs.length - 1]
  return { node: last, offset: last.childNodes.length }
}

export function startEditing(element: HTMLElement, initial: string | { text: string; level?: number }[], rootNode: ShadowRoot): TextEditor {
  const list = Array.isArray(initial)
  const colours = new Map<string, string>()
  const paragraphs = [...element.children].filter(isParagraph) as HTMLElement[]
  const texts = list ? (initial as { text: string; level?: number }[]).map((i) => i.text) : paragraphsOf(readRuns(initial as string)).map((runs) => serialize(runs))
  if (paragraphs.length === texts.length) {
    paragraphs.forEach((p, i) => {
      const marker = list ? (p.firstElementChild as HTMLElement | null) : null
      if (marker && marker.style.position === 'absolute') {
        marker.dataset.marker = ''
        marker.contentEditable = 'false'
      }
      if (list) p.dataset.level = String((initial as { level?: number }[])[i].level ?? 1)
      tagParagraph(p, normalizeRuns(readRuns(texts[i])).filter((r) => r.text), colours)
    })
  } else {
    element.replaceChildren()
    for (const text of texts) {
      const p = document.createElement('p')
      element.append(p)
      drawRuns(p, normalizeRuns(readRuns(text)), colours)
    }
  }
  element.contentEditable = 'true'
  element.spellcheck = true
  element.setAttribute('role', 'textbox')
  element.setAttribute('aria-multiline', 'true')
  element.classList.add('editing')
  element.style.outline = 'none'
  element.style.cursor = 'text'
  element.style.whiteSpace = 'pre-wrap'

  const selection = (): { start: number; end: number } | null => {
    const sel = (rootNode as unknown as { getSelection?: () => Selection | null }).getSelection?.() ?? document.getSelection()
    if (!sel || !sel.rangeCount) return null
    const range = sel.getRangeAt(0)
    if (!element.contains(range.startContainer)) return null
    const paras = paragraphElements(element)
    const a = offsetOf(paras, { node: range.startContainer, offset: range.startOffset })
    const b = offsetOf(paras, { node: range.endContainer, offset: range.endOffset })
    return { start: Math.min(a, b), end: Math.max(a, b) }
  }

  const select = (start: number, end: number) => {
    const paras = paragraphElements(element)
    const a = pointAt(paras, start)
    const b = pointAt(paras, end)
    const sel = document.getSelection()
    if (!sel) return
    sel.setBaseAndExtent(a.node, a.offset, b.node, b.offset)
  }

  /** Every paragraph's runs (a list: every item's). */
  const allRuns = (): Run[][] => paragraphElements(element).flatMap((p) => readParagraph(p))

  const restyle = (change: (marks: Marks, all: boolean) => Marks, predicate: (marks: Marks) => boolean) => {
    const range = selection()
    if (!range || range.start === range.end) return
    const paras = paragraphElements(element)
    const runs = paras.map((p) => readParagraph(p)[0] ?? [])
    // Whether every selected character already has the mark.
    let offset = 0
    let all = true
    runs.forEach((pr) => {
      for (const run of pr) {
        const from = Math.max(range.start, offset)
        const to = Math.min(range.end, offset + run.text.length)
        if (from < to && !predicate(run.marks)) all = false
        offset += run.text.length
      }
      offset += 1
    })
    offset = 0
    runs.forEach((pr, i) => {
      const next: Run[] = []
      for (const run of pr) {
        const a = run.text.length
        const from = Math.max(0, Math.min(a, range.start - offset))
        const to = Math.max(0, Math.min(a, range.end - offset))
        if (from > 0) next.push({ text: run.text.slice(0, from), marks: run.marks })
        if (to > from) next.push({ text: run.text.slice(from, to), marks: change(run.marks, all) })
        if (to < a) next.push({ text: run.text.slice(Math.max(from, to)), marks: run.marks })
        offset += a
      }
      offset += 1
      drawRuns(paras[i], normalizeRuns(next), colours)
    })
    select(range.start, range.end)
    element.dispatchEvent(new Event('input', { bubbles: true }))
  }

  return {
    element,
    value() {
      const paras = paragraphElements(element)
      if (list) {
        const items: { text: string; level?: number }[] = []
        for (const p of paras) {
          const level = Math.min(9, Math.max(1, Number(p.dataset.level ?? '1') || 1))
          for (const runs of readParagraph(p)) items.push({ text: serialize(normalizeRuns(runs)), ...(level > 1 ? { level } : {}) })
        }
        return items.length ? items : [{ text: '' }]
      }
      const runs: Run[] = []
      allRuns().forEach((pr, i) => {
        if (i > 0) runs.push({ text: '\n', marks: {} })
        runs.push(...pr)
      })
      return serialize(normalizeRuns(runs))
    },
    toggle(mark) {
      restyle(
        (marks, all) => {
          const next: Marks = { ...marks }
          if (all) delete next[mark]
          else {
            next[mark] = true
            if (mark === 'superscript') delete next.subscript
            if (mark === 'subscript') delete next.superscript
          }
          return next
        },
        (marks) => marks[mark] === true,
      )
    },
    link(href) {
      restyle(
        (marks) => {
          const next: Marks = { ...marks }
          if (href) next.href = href
          else delete next.href
          return next
        },
        (marks) => (href ? marks.href === href : marks.href === undefined),
      )
    },
    level(by) {
      if (!list) return false
      const range = selection()
      if (!range) return false
      const paras = paragraphElements(element)
      let offset = 0
      paras.forEach((p) => {
        const length = textNodes([p]).reduce((n, t) => n + t.node.data.length, 0)
        const start = offset
        const end = offset + length
        if (end >= range.start && start <= range.end) {
          const level = Math.min(9, Math.max(1, Number(p.dataset.level ?? '1') + by))
          const was = Number(p.dataset.level ?? '1')
          p.dataset.level = String(level)
          const pad = parseFloat(p.style.paddingLeft || '0') + (level - was) * 64
          p.style.paddingLeft = `${pad}px`
          const marker = [...p.childNodes].find(isMarker) as HTMLElement | undefined
          if (marker) marker.style.left = `${parseFloat(marker.style.left || '0') + (level - was) * 64}px`
        }
        offset = end + 1
      })
      element.dispatchEvent(new Event('input', { bubbles: true }))
      return true
    },
    marksAtCaret() {
      const sel = document.getSelection()
      const node = sel?.anchorNode
      return node && element.contains(node) ? marksOf(node instanceof Text ? node : (node.firstChild ?? node), element) : {}
    },
    destroy() {
      element.contentEditable = 'false'
      element.classList.remove('editing')
    },
  }
}
