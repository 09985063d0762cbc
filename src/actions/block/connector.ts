import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block } from '../../model/deck.js'
import { findBlock, findSlide } from '../../model/edit.js'
import { BlockId, BR, obj, oneOf, opt, ref } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { blockIn, blockOfKind, blocksOf, canvasSlide, editSlide, lineEnds, nextBlockId, routeConnector, setLineEnds, topZ, humanResult } from './canvas.js'
import { blockId, slideId } from './common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

type SideInput = 'auto' | 'top' | 'right' | 'bottom' | 'left' | 'center'

interface ConnectInput {
  slideId: string
  from: string
  to: string
  lineId?: string
  fromSide?: SideInput
  toSide?: SideInput
  baseRevision: number
}

/** An attachment: auto (or absent) leaves the side to be chosen each time the line is routed. */
const attachment = (block: string, side: SideInput | undefined) => (side && side !== 'auto' ? { block, side } : { block })

const SIDES = ['auto', 'top', 'right', 'bottom', 'left', 'center'] as const
const side = (end: string) => opt(oneOf(SIDES, { default: 'auto', description: `Where the line meets the ${end} block; the nearest side when auto or absent.` }))

export const blockConnect = defineAction({
  id: 'block.connect',
  label: 'Connect blocks',
  doc:
    'Attaches a connector line from one object to another, so the line follows when either moves, rotates or flips. ' +
    'Names an existing line with lineId, else inserts a new connector line on top of the stack; an auto side is the facing side, chosen again whenever the line is routed. ' +
    'The line is drawn between from and to (sheet px), which follow the blocks. Converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    from: { ...BlockId, description: 'The block the line starts at.' },
    to: { ...BlockId, description: 'The block the line ends at.' },
    lineId: opt({ ...BlockId, description: 'An existing line to attach; a new connector line is inserted when absent.' }),
    fromSide: side('start'),
    toSide: side('end'),
    baseRevision: BR,
  }),
  output: written({ line: { ...ref('Block'), description: 'The connector line block with its attachments.' }, slide: ref('Slide') }),
  cli: 'block connect <slideId> --from <from> --to <to> --line <lineId> --from-side <fromSide> --to-side <toSide>',
  mcp: 'deck_connect_blocks',
  human: humanResult,
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', from: 'b2', to: 'b5', fromSide: 'bottom', baseRevision: 2 },
  run: (ctx, input: ConnectInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        findBlock(slide, input.from, '/from')
        findBlock(slide, input.to, '/to')
        if (input.from === input.to) fail('invalid_input', 'A connector joins two different objects.', { pointer: '/to' })
        let line: Block
        if (input.lineId !== undefined) {
          line = blockOfKind(slide, input.lineId, ['line'], 'a line', '/lineId')
          if (line.id === input.from || line.id === input.to) fail('invalid_input', 'A line cannot attach to itself.', { pointer: '/lineId' })
        } else {
          line = { id: nextBlockId(slide), kind: 'line', pos: { x: 0, y: 0, w: 0, h: 0 }, z: topZ(slide) }
          blocksOf(slide).push(line)
        }
        line.connector = true
        line.start = attachment(input.from, input.fromSide)
        line.end = attachment(input.to, input.toSide)
        routeConnector(line, new Map(blocksOf(slide).map((b) => [b.id, b])))
        return line.id
      },
      (slide, id) => ({ line: blockIn(slide, id) }),
    ),
})

export const blockDisconnect = defineAction({
  id: 'block.disconnect',
  label: 'Disconnect line',
  doc: 'Detaches one or both ends of a connector line from their blocks; the line stays where it is drawn (its from and to points are kept).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId: { ...blockId, description: 'The connector line.' },
    end: opt(oneOf(['start', 'end', 'both'], { default: 'both', description: 'Which end to detach; both when absent.' })),
    baseRevision: BR,
  }),
  output: written({ line: { ...ref('Block'), description: 'The line block after the write.' }, slide: ref('Slide') }),
  cli: 'block disconnect <slideId>#<blockId> --end <end>',
  mcp: 'deck_disconnect_blocks',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b4', end: 'both', baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; end?: 'start' | 'end' | 'both'; baseRevision: number }) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        const line = blockOfKind(slide, input.blockId, ['line'], 'a line')
        const ends = input.end === 'start' ? ['start'] : input.end === 'end' ? ['end'] : ['start', 'end']
        // Freeze the line where it is drawn now: routed on its blocks, then its points kept.
        routeConnector(line, new Map(blocksOf(slide).map((b) => [b.id, b])))
        if (line.pos) {
          const [from, to] = lineEnds(line)
          setLineEnds(line, from, to)
        }
        for (const end of ends) delete line[end]
        if (!line.start && !line.end) delete line.connector
      },
      (slide) => ({ line: blockIn(slide, input.blockId) }),
    ),
})
