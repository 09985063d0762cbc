/**
 * Arrange math of the canvas: align, distribute, stacking order, rotation and mirroring about a
 * centre, snapping, and where connector ends meet the blocks they attach to.
 *
 * Pure functions over boxes in sheet pixels; no slide documents, no I/O. Where a block is drawn is
 * geometry's business (src/layout); these functions only move boxes that are already known.
 *
 * Conventions: a box `{ x, y, w, h }` is the unrotated frame of an object (its `pos`); the object
 * is drawn rotated by `angle` degrees clockwise about the box centre, after mirroring in its own
 * frame by `flip`. y grows downwards, so the usual rotation matrix turns clockwise on screen.
 */
import { GRID } from './blocks.js'
import { normalizeAngle } from './normalize.js'

export interface Box {
  x: number
  y: number
  w: number
  h: number
}

export interface Point {
  x: number
  y: number
}

export interface Flip {
  h?: boolean
  v?: boolean
}

/** Where an object is drawn: its unrotated box, its angle and its mirroring. */
export interface Placement {
  box: Box
  angle: number
  flip: Flip
}

export type Edge = 'left' | 'center' | 'right' | 'top' | 'middle' | 'bottom'
export type Axis = 'x' | 'y'
export type Side = 'top' | 'right' | 'bottom' | 'left' | 'center'
export type StackMove = 'front' | 'back' | 'forward' | 'backward'

export const SIDES: readonly Exclude<Side, 'center'>[] = ['top', 'right', 'bottom', 'left']

/** The axis an edge moves objects along: left, center, right move x; top, middle, bottom move y. */
export function edgeAxis(edge: Edge): Axis {
  return edge === 'left' || edge === 'center' || edge === 'right' ? 'x' : 'y'
}

/** The coordinate of one edge (or centre line) of a box. */
export function edgeOf(box: Box, edge: Edge): number {
  switch (edge) {
    case 'left':
      return box.x
    case 'center':
      return box.x + box.w / 2
    case 'right':
      return box.x + box.w
    case 'top':
      return box.y
    case 'middle':
      return box.y + box.h / 2
    case 'bottom':
      return box.y + box.h
  }
}

/** The smallest box holding all of them. */
export function unionBox(boxes: readonly Box[]): Box {
  if (!boxes.length) throw new Error('unionBox of nothing')
  const left = Math.min(...boxes.map((b) => b.x))
  const top = Math.min(...boxes.map((b) => b.y))
  const right = Math.max(...boxes.map((b) => b.x + b.w))
  const bottom = Math.max(...boxes.map((b) => b.y + b.h))
  return { x: left, y: top, w: right - left, h: bottom - top }
}

export function centreOf(box: Box): Point {
  return { x: box.x + box.w / 2, y: box.y + box.h / 2 }
}

/** A box of the same size centred on a point. */
export function boxAt(box: Box, centre: Point): Box {
  return { x: centre.x - box.w / 2, y: centre.y - box.h / 2, w: box.w, h: box.h }
}

/**
 * The line a selection aligns to: the edge of the frame when one is given (content box, sheet),
 * else the selection's own shared edge: the extreme object's edge, or the centre line of their union.
 */
export function alignTarget(boxes: readonly Box[], edge: Edge, frame?: Box): number {
  return edgeOf(frame ?? unionBox(boxes), edge)
}

/** Moves every box along the edge's axis so that this edge lies on `target`; the other axis is untouched. */
export function alignBoxes(boxes: readonly Box[], edge: Edge, target: number): Box[] {
  const axis = edgeAxis(edge)
  return boxes.map((box) => {
    const shift = target - edgeOf(box, edge)
    return axis === 'x' ? { ...box, x: box.x + shift } : { ...box, y: box.y + shift }
  })
}

/** Rounds to the grid (8 px). */
export function snapToGrid(value: number, grid = GRID): number {
  return Math.round(value / grid) * grid
}

/**
 * Snaps a selection's shared edge: to the nearest guide of its axis within `reach` px, else to the
 * grid. Slide and content-box edges are never snapped (callers only snap selection edges).
 */
export function snapEdge(value: number, guides: readonly number[] = [], grid = GRID, reach = GRID): number {
  let best: number | undefined
  for (const guide of guides) {
    const distance = Math.abs(guide - value)
    if (distance <= reach && (best === undefined || distance < Math.abs(best - value))) best = guide
  }
  return best ?? snapToGrid(value, grid)
}

/** Start coordinate and size of a box along an axis. */
function span(box: Box, axis: Axis): [number, number] {
  return axis === 'x' ? [box.x, box.w] : [box.y, box.h]
}

function withStart(box: Box, axis: Axis, start: number): Box {
  return axis === 'x' ? { ...box, x: start } : { ...box, y: start }
}

/** Indexes of boxes in their order along an axis: by centre, then by input order. */
export function orderAlong(boxes: readonly Box[], axis: Axis): number[] {
  const centre = (box: Box) => {
    const [start, size] = span(box, axis)
    return start + size / 2
  }
  return boxes.map((_, i) => i).sort((a, b) => centre(boxes[a]) - centre(boxes[b]) || a - b)
}

/**
 * Distributes boxes along an axis (x for horizontal, y for vertical), in their order by centre.
 * Without a gap the first and last stay and the gaps between neighbours become equal; with a gap
 * the first stays and each next one starts `gap` after the end of the one before. `snap` rounds the
 * start edge of every moved box to the grid. Boxes come back in input order; the other axis is untouched.
 */
export function distributeBoxes(boxes: readonly Box[], axis: Axis, options: { gap?: number; snap?: boolean; grid?: number } = {}): Box[] {
  const out = boxes.map((b) => ({ ...b }))
  if (boxes.length < 2) return out
  const order = orderAlong(boxes, axis)
  const first = boxes[order[0]]
  const last = boxes[order[order.length - 1]]
  let gap = options.gap
  if (gap === undefined) {
    const [firstStart, firstSize] = span(first, axis)
    const [lastStart] = span(last, axis)
    const inner = order.slice(1, -1).reduce((sum, i) => sum + span(boxes[i], axis)[1], 0)
    gap = (lastStart - (firstStart + firstSize) - inner) / (order.length - 1)
  }
  const moving = options.gap === undefined ? order.slice(1, -1) : order.slice(1)
  let [cursor, size] = span(first, axis)
  cursor += size
  for (const i of order.slice(1)) {
    if (!moving.includes(i)) break
    let start = cursor + gap
    if (options.snap) start = snapToGrid(start, options.grid)
    out[i] = withStart(boxes[i], axis, start)
    cursor = start + span(boxes[i], axis)[1]
  }
  return out
}

/**
 * A stack (ids from back to front) after moving one id: to the front or back, one step forward or
 * backward, or to rank `z` (clamped to the stack). Ranks are the indexes: always dense.
 */
export function restack(stack: readonly string[], id: string, op: { move?: StackMove; z?: number }): string[] {
  const from = stack.indexOf(id)
  if (from < 0) throw new Error(`restack: ${id} is not in the stack`)
  const last = stack.length - 1
  let to = from
  if (op.z !== undefined) to = Math.max(0, Math.min(last, Math.trunc(op.z)))
  else if (op.move === 'front') to = last
  else if (op.move === 'back') to = 0
  else if (op.move === 'forward') to = Math.min(last, from + 1)
  else if (op.move === 'backward') to = Math.max(0, from - 1)
  const out = stack.filter((s) => s !== id)
  out.splice(to, 0, id)
  return out
}

/** An angle in [0, 360): normalizeAngle, with the float edge (a tiny negative wraps to 360) closed. */
export function wrapAngle(degrees: number): number {
  const a = normalizeAngle(degrees)
  return a >= 360 ? 0 : a
}

/** Cosine and sine of an angle in degrees, exact at quarter turns (so a 90° turn leaves no float noise). */
export function cosSin(degrees: number): [number, number] {
  const a = ((degrees % 360) + 360) % 360
  if (a === 0) return [1, 0]
  if (a === 90) return [0, 1]
  if (a === 180) return [-1, 0]
  if (a === 270) return [0, -1]
  const t = (a * Math.PI) / 180
  return [Math.cos(t), Math.sin(t)]
}

/** Turns a point about a centre by `degrees`, clockwise on screen. */
export function rotatePoint(point: Point, centre: Point, degrees: number): Point {
  const [cos, sin] = cosSin(degrees)
  const dx = point.x - centre.x
  const dy = point.y - centre.y
  return { x: centre.x + dx * cos - dy * sin, y: centre.y + dx * sin + dy * cos }
}

/** The axis-aligned box an object covers once rotated about its centre. */
export function visualBounds(box: Box, angle = 0): Box {
  const [c, s] = cosSin(angle)
  const cos = Math.abs(c)
  const sin = Math.abs(s)
  const w = box.w * cos + box.h * sin
  const h = box.w * sin + box.h * cos
  return boxAt({ x: 0, y: 0, w, h }, centreOf(box))
}

/** The centre of a selection: the centre of the union of what its members cover on screen. */
export function selectionCentre(items: readonly Placement[]): Point {
  return centreOf(unionBox(items.map((item) => visualBounds(item.box, item.angle))))
}

/** Turns every object by `degrees` about its own centre (`pivot` absent) or moves it around `pivot` too. */
export function rotatePlacements(items: readonly Placement[], degrees: number, pivot?: Point): Placement[] {
  return items.map((item) => ({
    box: pivot ? boxAt(item.box, rotatePoint(centreOf(item.box), pivot, degrees)) : { ...item.box },
    angle: wrapAngle(item.angle + degrees),
    flip: { ...item.flip },
  }))
}

/** A flip with one axis toggled; false members are dropped, so toggling twice gives the flip back. */
export function toggleFlip(flip: Flip, axis: 'h' | 'v'): Flip {
  const out: Flip = { ...flip }
  if (out[axis]) delete out[axis]
  else out[axis] = true
  for (const key of ['h', 'v'] as const) if (out[key] === false) delete out[key]
  return out
}

/**
 * Flips objects on one axis (h: left to right, v: top to bottom). Each toggles its flip; about a
 * pivot each also mirrors its centre across the pivot's line and its angle becomes 360 minus itself.
 */
export function flipPlacements(items: readonly Placement[], axis: 'h' | 'v', pivot?: Point): Placement[] {
  return items.map((item) => {
    if (!pivot) return { box: { ...item.box }, angle: item.angle, flip: toggleFlip(item.flip, axis) }
    const c = centreOf(item.box)
    const mirrored = axis === 'h' ? { x: 2 * pivot.x - c.x, y: c.y } : { x: c.x, y: 2 * pivot.y - c.y }
    return { box: boxAt(item.box, mirrored), angle: wrapAngle(360 - item.angle), flip: toggleFlip(item.flip, axis) }
  })
}

/** Mirrors a point across the vertical (h) or horizontal (v) line through a pivot. */
export function mirrorPoint(point: Point, axis: 'h' | 'v', pivot: Point): Point {
  return axis === 'h' ? { x: 2 * pivot.x - point.x, y: point.y } : { x: point.x, y: 2 * pivot.y - point.y }
}

/** The point where a connector meets an object: the centre of one side (or the centre), as drawn. */
export function sidePoint(item: Placement, side: Side): Point {
  const { w, h } = item.box
  const local: Point =
    side === 'top' ? { x: 0, y: -h / 2 } : side === 'bottom' ? { x: 0, y: h / 2 } : side === 'left' ? { x: -w / 2, y: 0 } : side === 'right' ? { x: w / 2, y: 0 } : { x: 0, y: 0 }
  if (item.flip.h) local.x = -local.x
  if (item.flip.v) local.y = -local.y
  const c = centreOf(item.box)
  return rotatePoint({ x: c.x + local.x, y: c.y + local.y }, c, item.angle)
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y)

/** The sides two objects face each other with: the pair of side centres nearest to each other. */
export function facingSides(a: Placement, b: Placement): [Side, Side] {
  let best: [Side, Side] = ['right', 'left']
  let bestDistance = Infinity
  for (const sa of SIDES) {
    for (const sb of SIDES) {
      const d = distance(sidePoint(a, sa), sidePoint(b, sb))
      if (d < bestDistance - 1e-9) {
        bestDistance = d
        best = [sa, sb]
      }
    }
  }
  return best
}

/** The nearest side of an object to a point (for a connector whose other end is free). */
export function sideFacing(item: Placement, point: Point): Side {
  let best: Side = 'center'
  let bestDistance = Infinity
  for (const side of SIDES) {
    const d = distance(sidePoint(item, side), point)
    if (d < bestDistance - 1e-9) {
      bestDistance = d
      best = side
    }
  }
  return best
}

/** The box a straight line between two points occupies. */
export function lineBox(from: Point, to: Point): Box {
  return { x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), w: Math.abs(to.x - from.x), h: Math.abs(to.y - from.y) }
}

/** Keeps a box's anchor point fixed while it takes a new size (anchor: top-left ... bottom-right, center). */
export function resizeBox(box: Box, size: { w?: number; h?: number }, anchor = 'top-left'): Box {
  const w = size.w ?? box.w
  const h = size.h ?? box.h
  const fx = anchor.endsWith('left') ? 0 : anchor.endsWith('right') ? 1 : 0.5
  const fy = anchor.startsWith('top') ? 0 : anchor.startsWith('bottom') ? 1 : 0.5
  return { x: box.x + (box.w - w) * fx, y: box.y + (box.h - h) * fy, w, h }
}

/** Rounds to hundredths of a pixel, so stored boxes do not carry floating-point noise. */
export function tidy(value: number): number {
  const rounded = Math.round(value * 100) / 100
  return Object.is(rounded, -0) ? 0 : rounded
}

export function tidyBox(box: Box): Box {
  return { x: tidy(box.x), y: tidy(box.y), w: tidy(box.w), h: tidy(box.h) }
}
