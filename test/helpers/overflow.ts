/**
 * Slides that overflow (issue 24): a long text box and a 40 × 12 table on the canvas, a shrink text
 * box, and a body slot holding more text than it can show. The geometry, render and PPTX tests and
 * the docs' screenshots draw these.
 */
import type { Block, Slide } from '../../src/model/deck.js'

export const LONG_TEXT = Array.from({ length: 14 }, (_, i) => `Point ${i + 1}: the quarter closed with every region ahead of plan, and the team kept its weekly cadence.`).join('\n')

export const WIDE_TABLE: Block = {
  id: 'table',
  kind: 'table',
  header: true,
  pos: { x: 700, y: 160, w: 820, h: 680 },
  rows: Array.from({ length: 40 }, (_, r) => Array.from({ length: 12 }, (_, c) => (r === 0 ? `M${c + 1}` : String(((r * 37 + c * 11) % 90) + 10)))),
}

export function overflowSlides(): Slide[] {
  return [
    {
      id: 'overflow-1',
      layout: 'freeform',
      blocks: [
        { id: 'heading', kind: 'heading', text: 'Overflow, drawn whole', size: 48, pos: { x: 80, y: 48, w: 1440, h: 70 } },
        { id: 'long', kind: 'textbox', text: LONG_TEXT, size: 28, pos: { x: 80, y: 160, w: 560, h: 300 } },
        { id: 'fit', kind: 'textbox', text: LONG_TEXT.split('\n').slice(0, 4).join('\n'), size: 28, autofit: 'shrink', pos: { x: 80, y: 520, w: 560, h: 320 } },
        WIDE_TABLE,
      ] as Block[],
    },
    { id: 'overflow-2', layout: 'title-body', title: 'A body with too much to say', blocks: [{ id: 'body', kind: 'text', slot: 'body', text: `${LONG_TEXT}\n${LONG_TEXT}` }] } as Slide,
  ]
}
