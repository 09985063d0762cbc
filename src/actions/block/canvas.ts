/**
 * What the block handlers share: editing one slide of a copy of the deck, converting a slide to the
 * canvas before a canvas action, finding the blocks an input names (404 with the pointer of the
 * field), reading and writing where an object is drawn, and keeping connectors on the blocks they
 * attach to.
 *
 * Lines: a line with both `from` and `to` is drawn between those points (sheet px) and its `pos` is
 * their bounding box; moving, turning or mirroring it moves the points, never its angle or flip. A
 * line without points is drawn along its box like any object. A connector's attached ends are
 * recomputed from the blocks they attach to whenever those blocks (or the line) move.
 */
import { themeFonts } from '../../model/themes.js'
import type { ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { editDeck, findBlock, findSlide } from '../../model/edit.js'
import { toCanvas } from '../../layout/index.js'
import {
  facingSides,
  lineBox,
  sideFacing,
  sidePoint,
  tidy,
  tidyBox,
  type Box,
  type Flip,
  type Placement,
  type Point,
  type Side,
} from '../../model/arrange.js'
import { wrapAngle as normalizeAngle } from '../../model/arrange.js'

export type Result = Record<string, unknown>

/**
 * Edits one slide of a copy of the target deck. `change` mutates the copy (and fails before anything
 * is staged when the input is bad); `answer` builds the result members from the normalized slide.
 * The result is those members, the normalized slide and the new revision.
 */
export async function editSlide<R>(
  ctx: ActionContext,
  slideId: string,
  change: (doc: DeckDoc) => R,
  answer: (slide: Slide, changed: R, doc: DeckDoc) => Result = () => ({}),
): Promise<(docs: Map<string, DeckDoc | null>) => Result> {
  let changed!: R
  let deckId = ''
  const staged = await editDeck(ctx, [slideId], (doc) => {
    deckId = doc.manifest.id
    changed = change(doc)
  })
  return (docs) => {
    const { slide, revision } = staged(docs)
    return { ...answer(slide!, changed, docs.get(deckId)!), slide, revision }
  }
}

export const isCanvas = (slide: Slide) => slide.layout === 'freeform'

/** The slide, converted to the canvas first when it is not one (geometry measures every box). */
export function canvasSlide(doc: DeckDoc, slideId: string): Slide {
  const slide = findSlide(doc, slideId)
  if (!isCanvas(slide)) doc.slides[slideId] = toCanvas(slide, themeFonts(doc.manifest))
  return doc.slides[slideId]
}

export function blocksOf(slide: Slide): Block[] {
  return (slide.blocks ??= [])
}

/** The blocks a list names, in its order; unknown ids answer 404 and repeated ones 400, with the pointer of the entry. */
export function findBlocks(slide: Slide, ids: readonly string[], pointer = '/blockIds'): Block[] {
  const seen = new Set<string>()
  return ids.map((id, i) => {
    if (seen.has(id)) fail('invalid_input', `Block "${id}" is named twice.`, { pointer: `${pointer}/${i}` })
    seen.add(id)
    return findBlock(slide, id, `${pointer}/${i}`)
  })
}

/** A block of one of the given kinds, else 400 naming what it is. */
export function blockOfKind(slide: Slide, blockId: string, kinds: readonly string[], what: string, pointer = '/blockId'): Block {
  const block = findBlock(slide, blockId, pointer)
  if (!kinds.includes(block.kind)) fail('invalid_input', `Block "${blockId}" is a ${block.kind} block, not ${what}.`, { pointer })
  return block
}

/** A new block id: `b<n>` with n one more than the largest in use, so removed ids are not reused. */
export function nextBlockId(slide: Slide, taken: Set<string> = new Set()): string {
  let max = 0
  for (const id of [...blocksOf(slide).map((b) => b.id), ...taken]) {
    const m = /^b(\d+)$/.exec(id)
    if (m) max = Math.max(max, Number(m[1]))
  }
  return `b${max + 1}`
}

/** The box of a positioned block; a canvas block without one is a broken document. */
export function posOf(block: Block): Box {
  const pos = block.pos as Box | undefined
  if (!pos) fail('refused', `Block "${block.id}" has no position box; give it one with block.set /pos.`, { pointer: '/blockIds' })
  return { ...pos }
}

export function placementOf(block: Block): Placement {
  return { box: posOf(block), angle: typeof block.angle === 'number' ? block.angle : 0, flip: { ...((block.flip as Flip | undefined) ?? {}) } }
}

/** Writes a placement back: the box (tidied), the angle (absent when 0) and the flip (absent when empty). */
export function setPlacement(block: Block, placement: Placement): void {
  block.pos = tidyBox(placement.box)
  const angle = tidy(normalizeAngle(placement.angle))
  if (angle && angle !== 360) block.angle = angle
  else delete block.angle
  const flip: Flip = {}
  if (placement.flip.h) flip.h = true
  if (placement.flip.v) flip.v = true
  if (flip.h || flip.v) block.flip = flip
  else delete block.flip
}

/** A line drawn between explicit points. */
export function isPointLine(block: Block): boolean {
  return block.kind === 'line' && isPoint(block.from) && isPoint(block.to)
}

const isPoint = (value: unknown): value is Point => !!value && typeof value === 'object' && typeof (value as Point).x === 'number' && typeof (value as Point).y === 'number'

/** The ends of a line: its points, else the diagonal of its box (top-left to bottom-right). */
export function lineEnds(block: Block): [Point, Point] {
  if (isPointLine(block)) return [{ ...(block.from as Point) }, { ...(block.to as Point) }]
  const box = posOf(block)
  return [
    { x: box.x, y: box.y },
    { x: box.x + box.w, y: box.y + box.h },
  ]
}

export function setLineEnds(block: Block, from: Point, to: Point): void {
  block.from = { x: tidy(from.x), y: tidy(from.y) }
  block.to = { x: tidy(to.x), y: tidy(to.y) }
  block.pos = tidyBox(lineBox(from, to))
}

/** Moves a block to a new box: a point line's points follow the box (scaled along each axis). */
export function moveTo(block: Block, box: Box): void {
  if (!isPointLine(block)) {
    block.pos = tidyBox(box)
    return
  }
  const old = posOf(block)
  const map = (p: Point): Point => ({
    x: old.w ? box.x + ((p.x - old.x) / old.w) * box.w : p.x + (box.x - old.x),
    y: old.h ? box.y + ((p.y - old.y) / old.h) * box.h : p.y + (box.y - old.y),
  })
  const [from, to] = lineEnds(block)
  setLineEnds(block, map(from), map(to))
}

interface End {
  block: string
  side?: Side
}

/**
 * Recomputes the attached ends of connectors touching the changed blocks (or changed themselves);
 * an end whose block is gone keeps its point.
 */
export function followConnectors(slide: Slide, changed: Iterable<string>): void {
  const moved = new Set(changed)
  const byId = new Map(blocksOf(slide).map((b) => [b.id, b]))
  for (const line of blocksOf(slide)) {
    if (line.kind !== 'line') continue
    const start = line.start as End | undefined
    const end = line.end as End | undefined
    if (!start && !end) continue
    if (!moved.has(line.id) && !(start && moved.has(start.block)) && !(end && moved.has(end.block))) continue
    routeConnector(line, byId)
  }
}

/** Places a connector's attached ends on the blocks they attach to (sides chosen when not fixed). */
export function routeConnector(line: Block, byId: Map<string, Block>): void {
  const start = line.start as End | undefined
  const end = line.end as End | undefined
  const a = start && byId.get(start.block)?.pos ? placementOf(byId.get(start.block)!) : undefined
  const b = end && byId.get(end.block)?.pos ? placementOf(byId.get(end.block)!) : undefined
  if (!a && !b) return
  let [from, to] = line.pos || isPointLine(line) ? lineEnds(line) : [{ x: 0, y: 0 }, { x: 0, y: 0 }]
  if (a && b) {
    const [autoA, autoB] = facingSides(a, b)
    from = sidePoint(a, start!.side ?? autoA)
    to = sidePoint(b, end!.side ?? autoB)
  } else if (a) {
    from = sidePoint(a, start!.side ?? sideFacing(a, to))
  } else if (b) {
    to = sidePoint(b, end!.side ?? sideFacing(b, from))
  }
  setLineEnds(line, from, to)
}

/** Freezes and removes the attachments of connectors to the given blocks (they are going away). */
export function detachFrom(slide: Slide, ids: Set<string>): string[] {
  const touched: string[] = []
  for (const line of blocksOf(slide)) {
    if (line.kind !== 'line' || ids.has(line.id)) continue
    const start = line.start as End | undefined
    const end = line.end as End | undefined
    const hit = (start && ids.has(start.block)) || (end && ids.has(end.block))
    if (!hit || !line.pos) continue
    const [from, to] = lineEnds(line)
    setLineEnds(line, from, to)
    if (start && ids.has(start.block)) delete line.start
    if (end && ids.has(end.block)) delete line.end
    if (!line.start && !line.end) delete line.connector
    touched.push(line.id)
  }
  return touched
}

/** Drops a group tag only one object still carries: a group of one is no group. */
export function dropLoneGroups(slide: Slide): void {
  const count = new Map<string, number>()
  for (const block of blocksOf(slide)) if (typeof block.group === 'string') count.set(block.group, (count.get(block.group) ?? 0) + 1)
  for (const block of blocksOf(slide)) if (typeof block.group === 'string' && count.get(block.group) === 1) delete block.group
}

/** Block ids from the back of the stack to the front (positioned blocks by z, then document order). */
export function stackOf(slide: Slide): string[] {
  return blocksOf(slide)
    .map((block, index) => ({ block, index }))
    .filter(({ block }) => typeof block.z === 'number' || block.pos)
    .sort((a, b) => ((a.block.z as number) ?? Infinity) - ((b.block.z as number) ?? Infinity) || a.index - b.index)
    .map(({ block }) => block.id)
}

/** Writes z from a stack (ids back to front): ranks 0 up, dense. */
export function setStack(slide: Slide, stack: readonly string[]): void {
  const byId = new Map(blocksOf(slide).map((b) => [b.id, b]))
  stack.forEach((id, z) => (byId.get(id)!.z = z))
}

/** The top rank of a slide plus one: where a new object lands. */
export function topZ(slide: Slide): number {
  return blocksOf(slide).reduce((top, b) => (typeof b.z === 'number' ? Math.max(top, b.z + 1) : top), 0)
}

/** How a result names a moved object: id, box, and angle and flip when set. */
export function placed(block: Block): Result {
  return {
    id: block.id,
    pos: block.pos,
    ...(block.angle !== undefined ? { angle: block.angle } : {}),
    ...(block.flip !== undefined ? { flip: block.flip } : {}),
    ...(isPointLine(block) ? { from: block.from, to: block.to } : {}),
  }
}

/** The named blocks of the normalized slide, as `placed` describes them. */
export function placedOf(slide: Slide, ids: readonly string[]): Result[] {
  const byId = new Map((slide.blocks ?? []).map((b) => [b.id, b]))
  return ids.filter((id) => byId.has(id)).map((id) => placed(byId.get(id)!))
}

/** The block of the normalized slide. */
export function blockIn(slide: Slide, id: string): Block | undefined {
  return slide.blocks?.find((b) => b.id === id)
}

/** The CLI's rendering for people: what the result names, then the slide and the revision (not the whole slide). */
export function humanResult(result: unknown): string {
  const { slide, revision, ...rest } = result as Result & { slide?: Slide; revision?: number }
  const lines = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
  if (slide || revision !== undefined) lines.push([slide ? `slide ${slide.id} (${slide.layout})` : '', revision !== undefined ? `revision ${revision}` : ''].filter(Boolean).join(', '))
  return lines.join('\n')
}
