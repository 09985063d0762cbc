/**
 * Shape order in native PPTX. A slide's shape tree (`<p:spTree>`) is both its paint order (later
 * shapes draw over earlier ones) and the order PowerPoint's selection pane, its accessibility checker
 * and screen readers read it in. pptxgenjs writes shapes in the order they are added, which is paint
 * order; this puts them in reading order (src/layout/reading.ts, the title first) wherever that changes
 * nothing drawn: two shapes whose boxes overlap keep their order, everything else moves freely.
 *
 * It is a topological sort of the shapes, with an edge from each shape to every later one it overlaps;
 * of the shapes free to go next, the one read first goes (ties, and shapes of one block, in paint order).
 */

import type { EmuBox } from './pptx-title.js'

const XFRM = /<(?:a|p):xfrm\b([^>]*)>\s*<a:off x="(-?\d+)" y="(-?\d+)"\/>\s*<a:ext cx="(\d+)" cy="(\d+)"\/>/g

/**
 * Every box an XML fragment paints in: each placed frame (a rotated one as the square its turn can
 * sweep), grown by its outline's width and its shadow's reach, which paint outside the frame.
 */
export function boxesIn(xml: string): EmuBox[] {
  const lines = [...xml.matchAll(/<a:ln\b[^>]*\bw="(\d+)"/g)].map((m) => Number(m[1]))
  const shadows = [...xml.matchAll(/<a:outerShdw\b([^>]*)>/g)].map((m) => {
    const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(m[1])?.[1] ?? 0)
    return attr('blurRad') + attr('dist')
  })
  // Arrow heads reach past a line's ends by a few widths (lg is 5 widths long).
  const heads = /<a:(?:head|tail)End type="(?!none)/.test(xml) ? 3 : 1
  const grow = Math.max(0, ...lines) * heads + Math.max(0, ...shadows)
  return [...xml.matchAll(XFRM)].map((m) => {
    const [x, y, w, h] = m.slice(2, 6).map(Number)
    const turned = /\brot="-?[1-9]/.test(m[1])
    const d = Math.hypot(w, h)
    const box = turned ? { x: x + w / 2 - d / 2, y: y + h / 2 - d / 2, w: d, h: d } : { x, y, w, h }
    return { x: box.x - grow, y: box.y - grow, w: box.w + 2 * grow, h: box.h + 2 * grow }
  })
}

export const overlaps = (a: EmuBox, b: EmuBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

/** The top-level elements of a shape tree's content, or undefined when it holds anything else (then nothing is moved). */
function elements(content: string): { xml: string; name?: string }[] | undefined {
  const out: { xml: string; name?: string }[] = []
  let at = 0
  while (at < content.length) {
    const open = /^<([\w:]+)\b[^>]*?(\/?)>/.exec(content.slice(at))
    if (!open) return content.slice(at).trim() ? undefined : out
    const tag = open[1]
    let end = at + open[0].length
    if (!open[2]) {
      // Its matching close: the same tag may nest (a group in a group).
      const re = new RegExp(`<(/?)${tag.replace(':', '\\:')}\\b[^>]*?(/?)>`, 'g')
      re.lastIndex = end
      let depth = 1
      for (let m = re.exec(content); m; m = re.exec(content)) {
        if (m[1]) depth--
        else if (!m[2]) depth++
        if (depth === 0) {
          end = m.index + m[0].length
          break
        }
      }
      if (depth !== 0) return undefined
    }
    const xml = content.slice(at, end)
    const name = /<p:cNvPr id="\d+" name="([^"]*)"/.exec(xml)?.[1]
    out.push({ xml, name: name === undefined ? undefined : unescapeXml(name) })
    at = end
  }
  return out
}

const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&')

/**
 * The slide part with its shape tree in reading order. `rank` gives each shape's place in reading order
 * by its name (`<p:cNvPr name>`); consecutive shapes of one rank (one block's shapes) move together; a
 * shape without a rank is read last. What is drawn does not change: overlapping shapes keep their order.
 */
export function inReadingOrder(slide: string, rank: ReadonlyMap<string, number>): string {
  const open = slide.indexOf('<p:spTree>')
  const close = slide.lastIndexOf('</p:spTree>')
  if (open < 0 || close < open) return slide
  const props = /<\/p:grpSpPr>|<p:grpSpPr\/>/.exec(slide.slice(open))
  if (!props) return slide
  const start = open + props.index + props[0].length
  const shapes = elements(slide.slice(start, close))
  if (!shapes || shapes.length < 2) return slide
  // One node per run of shapes of the same rank: a block drawn as several shapes stays together.
  const nodes: { xml: string; rank: number; boxes: EmuBox[] }[] = []
  for (const shape of shapes) {
    const r = (shape.name !== undefined ? rank.get(shape.name) : undefined) ?? Infinity
    const last = nodes.at(-1)
    if (last && last.rank === r && r !== Infinity) {
      last.xml += shape.xml
      last.boxes.push(...boxesIn(shape.xml))
    } else {
      nodes.push({ xml: shape.xml, rank: r, boxes: boxesIn(shape.xml) })
    }
  }
  // A node that says nowhere where it paints could paint anywhere: it overlaps everything.
  const meets = (a: (typeof nodes)[number], b: (typeof nodes)[number]) => !a.boxes.length || !b.boxes.length || a.boxes.some((p) => b.boxes.some((q) => overlaps(p, q)))
  const before = nodes.map(() => 0)
  const after = nodes.map(() => [] as number[])
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++)
      if (meets(nodes[i], nodes[j])) {
        after[i].push(j)
        before[j]++
      }
  const order: number[] = []
  const free = new Set(nodes.map((_, i) => i).filter((i) => before[i] === 0))
  while (free.size) {
    let next = -1
    for (const i of free) if (next < 0 || nodes[i].rank < nodes[next].rank || (nodes[i].rank === nodes[next].rank && i < next)) next = i
    free.delete(next)
    order.push(next)
    for (const j of after[next]) if (--before[j] === 0) free.add(j)
  }
  return slide.slice(0, start) + order.map((i) => nodes[i].xml).join('') + slide.slice(close)
}
