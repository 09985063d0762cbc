import { defineAction } from '../../core/action.js'
import { themeFonts } from '../../model/themes.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { findSlide, freeBlockId } from '../../model/edit.js'
import { SHEET } from '../../model/layouts.js'
import { blocksOf, convertToCanvas, placeInStack } from '../../model/mutations/slide-ops.js'
import { arr, BlockId, Box, BR, int, obj, oneOf, opt, ref, SlideId, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { numeric } from '../block/cli.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

const KINDS = ['grid', 'hierarchy', 'timeline', 'process', 'relationship', 'cycle'] as const
type Kind = (typeof KINDS)[number]
type Style = 'outline' | 'plate' | 'ink'
interface Rect { x: number; y: number; w: number; h: number }

/** The box a diagram fills when none is given: 1200 × 600, centred on the sheet. */
const DEFAULT_SIZE = { w: 1200, h: 600 }
/** The smallest box a diagram can be drawn in, sheet px. */
const MIN_SIDE = 64
const GAP = 32

const STYLES: Record<Style, { shape: Record<string, unknown>; line: Record<string, unknown> }> = {
  outline: { shape: { fill: 'paper', stroke: 'ink', strokeWidth: 2, color: 'ink' }, line: { stroke: 'ink', strokeWidth: 2 } },
  plate: { shape: { fill: 'accent', color: 'paper' }, line: { stroke: 'accent', strokeWidth: 3 } },
  ink: { shape: { fill: 'ink', color: 'paper' }, line: { stroke: 'ink', strokeWidth: 3 } },
}

const LABELS: Record<Kind, string> = {
  grid: 'Item',
  hierarchy: 'Role',
  timeline: 'Milestone',
  process: 'Step',
  relationship: 'Idea',
  cycle: 'Stage',
}

const round = (r: Rect): Rect => ({ x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.w), h: Math.round(r.h) })
const centre = (r: Rect) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 })

type Side = 'top' | 'right' | 'bottom' | 'left'

function sidePoint(r: Rect, side: Side) {
  const c = centre(r)
  return side === 'top' ? { x: c.x, y: r.y } : side === 'bottom' ? { x: c.x, y: r.y + r.h } : side === 'left' ? { x: r.x, y: c.y } : { x: r.x + r.w, y: c.y }
}

/** The facing sides of two boxes: left/right when they sit side by side, top/bottom otherwise. */
function facing(a: Rect, b: Rect): [Side, Side] {
  const ca = centre(a)
  const cb = centre(b)
  const dx = cb.x - ca.x
  const dy = cb.y - ca.y
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? ['right', 'left'] : ['left', 'right']
  return dy >= 0 ? ['bottom', 'top'] : ['top', 'bottom']
}

interface Plan {
  nodes: Rect[]
  /** Shape of the nodes. */
  shape: string
  /** Pairs of node indexes joined by a connector. */
  links: [number, number][]
  /** Plain lines (the timeline's axis). */
  axes: { from: { x: number; y: number }; to: { x: number; y: number } }[]
  /** Text objects beside the nodes (timeline labels), by node index. */
  labels: Rect[]
  /** Whether the node shapes carry their label text themselves. */
  inside: boolean
}

/** Where each object of a diagram goes inside box `b`. Pure arithmetic over the given box. */
export function planDiagram(kind: Kind, count: number, b: Rect): Plan {
  const plan: Plan = { nodes: [], shape: 'rounded', links: [], axes: [], labels: [], inside: true }
  const n = count
  switch (kind) {
    case 'grid': {
      const cols = Math.ceil(Math.sqrt(n))
      const rows = Math.ceil(n / cols)
      const w = (b.w - (cols - 1) * GAP) / cols
      const h = (b.h - (rows - 1) * GAP) / rows
      for (let i = 0; i < n; i++) plan.nodes.push({ x: b.x + (i % cols) * (w + GAP), y: b.y + Math.floor(i / cols) * (h + GAP), w, h })
      plan.shape = 'rect'
      break
    }
    case 'process': {
      const gap = n > 1 ? Math.min(96, b.w / (n * 3)) : 0
      const w = (b.w - (n - 1) * gap) / n
      const h = Math.min(b.h, w * 0.75)
      for (let i = 0; i < n; i++) plan.nodes.push({ x: b.x + i * (w + gap), y: b.y + (b.h - h) / 2, w, h })
      for (let i = 0; i + 1 < n; i++) plan.links.push([i, i + 1])
      break
    }
    case 'hierarchy': {
      const children = n - 1
      const h = children ? (b.h - 2 * GAP) / 2 : Math.min(b.h, 200)
      const w = children ? Math.min((b.w - (children - 1) * GAP) / children, b.w / 2) : Math.min(b.w, 360)
      const rootW = Math.min(b.w, Math.max(w, 240))
      plan.nodes.push({ x: b.x + (b.w - rootW) / 2, y: b.y, w: rootW, h })
      const rowW = children * w + (children - 1) * GAP
      for (let i = 0; i < children; i++) {
        plan.nodes.push({ x: b.x + (b.w - rowW) / 2 + i * (w + GAP), y: b.y + h + 2 * GAP, w, h })
        plan.links.push([0, i + 1])
      }
      break
    }
    case 'timeline': {
      const y = b.y + b.h / 2
      const d = Math.min(32, b.h / 4)
      const step = b.w / n
      plan.axes.push({ from: { x: b.x, y }, to: { x: b.x + b.w, y } })
      for (let i = 0; i < n; i++) {
        const cx = b.x + (i + 0.5) * step
        plan.nodes.push({ x: cx - d / 2, y: y - d / 2, w: d, h: d })
        const labelH = b.h / 2 - d
        const labelW = Math.max(step - 16, 16)
        plan.labels.push({ x: cx - labelW / 2, y: i % 2 === 0 ? b.y : y + d, w: labelW, h: labelH })
      }
      plan.shape = 'ellipse'
      plan.inside = false
      break
    }
    case 'relationship': {
      const d = Math.min(b.h, b.w / (1 + (n - 1) * 0.7))
      const total = d + (n - 1) * 0.7 * d
      for (let i = 0; i < n; i++) plan.nodes.push({ x: b.x + (b.w - total) / 2 + i * 0.7 * d, y: b.y + (b.h - d) / 2, w: d, h: d })
      plan.shape = 'ellipse'
      break
    }
    case 'cycle': {
      const c = centre(b)
      const side = Math.min(b.w, b.h)
      const s = n === 1 ? side / 2 : Math.min(side / 3, ((Math.PI * side) / n) * 0.45)
      const r = n === 1 ? 0 : side / 2 - s / 2
      for (let i = 0; i < n; i++) {
        const angle = -Math.PI / 2 + (i * 2 * Math.PI) / n
        plan.nodes.push({ x: c.x + r * Math.cos(angle) - s / 2, y: c.y + r * Math.sin(angle) - s / 2, w: s, h: s })
      }
      if (n > 1) for (let i = 0; i < n; i++) if (n > 2 || i === 0) plan.links.push([i, (i + 1) % n])
      plan.shape = 'ellipse'
      break
    }
  }
  plan.nodes = plan.nodes.map(round)
  plan.labels = plan.labels.map(round)
  return plan
}

/** A group tag no block of the slide uses: `<kind>-<n>`. */
function freeGroup(slide: Slide, kind: string): string {
  const used = new Set(blocksOf(slide).flatMap((b) => [b.group, b.id]).filter(Boolean))
  for (let n = 1; ; n++) {
    const tag = `${kind}-${n}`
    if (!used.has(tag) && !blocksOf(slide).some((b) => b.id.startsWith(`${tag}-`))) return tag
  }
}

export const diagramInsert = defineAction({
  id: 'diagram.insert',
  label: 'Insert diagram',
  doc:
    'Inserts one group of shape, text and line objects (grid, hierarchy, timeline, process, relationship or cycle of count items), ' +
    'centred on the sheet unless a box is given; converts a non-canvas slide first. The result names the group and the ids.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    kind: oneOf(KINDS, { description: 'The diagram kind.' }),
    count: int({ minimum: 1, maximum: 12, description: 'How many items the diagram holds.' }),
    style: opt(oneOf(['outline', 'plate', 'ink'], { description: 'The drawing style; outline when absent.' })),
    pos: opt({ ...Box, description: 'The box the diagram fills, in sheet px; 1200 × 600 centred on the sheet when absent. CLI: JSON or x,y,w,h.' }),
    after: opt({ ...BlockId, description: 'The block the group follows in the stack; on top when absent.' }),
    baseRevision: BR,
  }),
  output: written({ group: str({ description: 'The group tag of the diagram.' }), blockIds: arr(BlockId, { description: 'Ids of the inserted objects, back to front.' }), slide: ref('Slide') }),
  cli: 'diagram insert <slideId> --kind <kind> --count <count> --style <style> --pos <pos>',
  mcp: 'deck_insert_diagram',
  // `--pos 100,100,800,400` as well as JSON.
  cliInput: (parsed) => {
    const pos = parsed.input.pos
    if (typeof pos !== 'string') return parsed.input
    const parts = pos.split(',').map((p) => numeric(p.trim()))
    return parts.length === 4 ? { ...parsed.input, pos: { x: parts[0], y: parts[1], w: parts[2], h: parts[3] } } : parsed.input
  },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', kind: 'process', count: 4, style: 'outline', baseRevision: 2 },
  run: async (ctx, input: { slideId: string; kind: Kind; count: number; style?: Style; pos?: Rect; after?: string }) => {
    if (input.pos && (input.pos.w < MIN_SIDE || input.pos.h < MIN_SIDE)) {
      fail('invalid_input', `A diagram needs a box at least ${MIN_SIDE} × ${MIN_SIDE} px.`, { pointer: input.pos.w < MIN_SIDE ? '/pos/w' : '/pos/h' })
    }
    const box = input.pos ?? { x: (SHEET.width - DEFAULT_SIZE.w) / 2, y: (SHEET.height - DEFAULT_SIZE.h) / 2, ...DEFAULT_SIZE }
    const style = STYLES[input.style ?? 'outline']
    let group = ''
    const ids: string[] = []
    const doc = cloneDoc(await ctx.target())
    const slide = findSlide(doc, input.slideId)
    convertToCanvas(slide, themeFonts(doc.manifest))
    if (input.after !== undefined && !blocksOf(slide).some((b) => b.id === input.after)) {
      fail('not_found', `No block "${input.after}" on slide "${slide.id}".`, { pointer: '/after' })
    }
    group = freeGroup(slide, input.kind)
    const plan = planDiagram(input.kind, input.count, box)
    const made: Block[] = []
    const add = (base: string, block: { kind: string } & Record<string, unknown>) => {
      const id = freeBlockId({ ...slide, blocks: [...blocksOf(slide), ...made] }, base)
      made.push({ ...block, id, group })
      return id
    }
    const nodeIds = plan.nodes.map((rect, i) =>
      add(`${group}-${i + 1}`, {
        kind: 'shape',
        shape: plan.shape,
        pos: rect,
        ...style.shape,
        ...(plan.inside ? { text: `${LABELS[input.kind]} ${i + 1}`, align: 'center', valign: 'middle' } : {}),
        ...(input.kind === 'relationship' && input.style !== 'outline' && input.style !== undefined ? { transparency: 0.3 } : {}),
      }),
    )
    plan.axes.forEach((axis, i) => {
      add(`${group}-axis${i ? `-${i + 1}` : ''}`, {
        kind: 'line',
        from: axis.from,
        to: axis.to,
        pos: round({ x: axis.from.x, y: axis.from.y, w: axis.to.x - axis.from.x, h: axis.to.y - axis.from.y }),
        ...style.line,
      })
    })
    plan.links.forEach(([a, b], i) => {
      const [sa, sb] = facing(plan.nodes[a], plan.nodes[b])
      const p = sidePoint(plan.nodes[a], sa)
      const q = sidePoint(plan.nodes[b], sb)
      add(`${group}-line-${i + 1}`, {
        kind: 'line',
        connector: true,
        start: { block: nodeIds[a], side: sa },
        end: { block: nodeIds[b], side: sb },
        pos: round({ x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), w: Math.abs(q.x - p.x), h: Math.abs(q.y - p.y) }),
        arrow: 'end',
        ...style.line,
      })
    })
    plan.labels.forEach((rect, i) => {
      add(`${group}-label-${i + 1}`, { kind: 'textbox', pos: rect, text: `${LABELS[input.kind]} ${i + 1}`, align: 'center', valign: i % 2 === 0 ? 'bottom' : 'top' })
    })
    let anchor = input.after
    for (const block of made) {
      placeInStack(slide, block, anchor)
      if (anchor !== undefined) anchor = block.id
      ids.push(block.id)
    }
    ctx.stage(doc.manifest.id, doc)
    return (docs: Map<string, DeckDoc | null>) => {
      const next = docs.get(doc.manifest.id)!
      return { group, blockIds: ids, slide: next.slides[input.slideId], revision: next.manifest.revision }
    }
  },
})
