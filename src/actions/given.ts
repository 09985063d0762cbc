/**
 * What an example needs beyond a new deck. Every action's `example` works as written on the deck a new
 * user has after `studio init` and `studio deck create "Quarterly review"` (deck quarterly-review at
 * revision 0, one slide title-1 in section main), once its `given` steps ran: each step an action call
 * a user could type, in order, each naming the revision it leaves. The contract test runs them so.
 */
import type { GivenStep } from '../core/action.js'

const SLIDE_AFTER_TITLE = { sectionId: 'main', after: 'title-1' }

/** A title-and-body slide title-body-2 after title-1: a text block b1 and a list b2. */
export const WITH_BODY_SLIDE: GivenStep[] = [{
  action: 'slide.insert',
  input: {
    ...SLIDE_AFTER_TITLE,
    slide: {
      id: 'title-body-2', layout: 'title-body',
      blocks: [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
        { id: 'b1', kind: 'text', slot: 'body', text: 'Costs fell by half at Acme.\nMargins grew.' },
        { id: 'b2', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'Faster builds' }, { text: 'Fewer incidents', level: 2 }, { text: 'Happier teams' }] },
      ],
    },
    baseRevision: 0,
  },
  revision: 1,
}]

/** A two-column slide two-columns-3 after title-1: text blocks b1 (left) and b2 (right), a table b3. */
export const WITH_COLUMNS_SLIDE: GivenStep[] = [{
  action: 'slide.insert',
  input: {
    ...SLIDE_AFTER_TITLE,
    slide: {
      id: 'two-columns-3', layout: 'two-columns',
      blocks: [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Before and after' },
        { id: 'b1', kind: 'text', slot: 'left', text: 'Before: weekly releases.' },
        { id: 'b2', kind: 'text', slot: 'right', text: 'After: daily releases.' },
        { id: 'b3', kind: 'table', slot: 'right', header: true, rows: [['Metric', 'Value'], ['Lead time', '2 days']] },
      ],
    },
    baseRevision: 0,
  },
  revision: 1,
}]

/** The catalogue's github mark stored as asset github (with its PNG files), on no slide. */
export const WITH_LOGO_ASSET: GivenStep[] = [{ action: 'logo.insert', input: { slug: 'github', slideId: 'none', baseRevision: 0 }, revision: 1 }]

/**
 * A canvas slide freeform-4 after title-1: a shape b1 and a text box b2 joined by the connector b4,
 * the github logo as picture b3, a bar chart b5 and a mesh-gradient shader b6.
 */
export const WITH_CANVAS_SLIDE: GivenStep[] = [
  ...WITH_LOGO_ASSET,
  {
    action: 'slide.insert',
    input: {
      ...SLIDE_AFTER_TITLE,
      slide: {
        id: 'freeform-4', layout: 'freeform',
        blocks: [
          { id: 'b1', kind: 'shape', shape: 'rect', pos: { x: 100, y: 100, w: 300, h: 200 }, z: 0, text: 'Plan' },
          { id: 'b2', kind: 'textbox', pos: { x: 500, y: 150, w: 400, h: 120 }, z: 1, text: 'Build' },
          { id: 'b3', kind: 'picture', asset: 'github', pos: { x: 1000, y: 100, w: 300, h: 300 }, z: 2 },
          { id: 'b4', kind: 'line', connector: true, start: { block: 'b1', side: 'right' }, end: { block: 'b2', side: 'left' }, pos: { x: 400, y: 200, w: 100, h: 10 }, z: 3 },
          { id: 'b5', kind: 'chart', chartType: 'bar', data: { categories: ['Q1', 'Q2'], series: [{ name: 'Revenue', values: [1, 2] }] }, pos: { x: 100, y: 450, w: 600, h: 350 }, z: 4 },
          { id: 'b6', kind: 'shader', materialId: 'paper:mesh-gradient', preset: 'dusk', anchor: 2400, motion: 'play', pos: { x: 800, y: 450, w: 640, h: 360 }, z: 5 },
        ],
      },
      baseRevision: 1,
    },
    revision: 2,
  },
]

/** The deck in the trash. */
export const WITH_TRASHED_DECK: GivenStep[] = [{ action: 'deck.trash', input: { id: 'quarterly-review', baseRevision: 0 }, revision: 1 }]

/** An organisation template quarterly-review saved from the deck (the deck itself is unchanged). */
export const WITH_TEMPLATE: GivenStep[] = [{ action: 'template.create', input: { deckId: 'quarterly-review', name: 'Quarterly review', baseRevision: 0 }, revision: 0 }]

/** Version 1 saved at revision 0, then the body slide added after it. */
export const WITH_VERSION: GivenStep[] = [
  { action: 'version.save', input: { note: 'Sent to the board' }, revision: 1 },
  { ...WITH_BODY_SLIDE[0], input: { ...WITH_BODY_SLIDE[0].input, baseRevision: 1 }, revision: 2 },
]

/** The deck packed to quarterly-review.zip in the working directory (a read: the deck stays at revision 0). */
export const WITH_BUNDLE_FILE: GivenStep[] = [{ action: 'deck.pack', input: { id: 'quarterly-review', out: 'quarterly-review.zip' }, revision: 0 }]

/** The deck exported as native PPTX in the light theme, to .studio/export/quarterly-review-light.pptx (a read). */
export const WITH_PPTX_EXPORT: GivenStep[] = [{ action: 'export.run', input: { format: 'pptx', mode: 'native', theme: ['light'] }, revision: 0 }]

/**
 * A comment thread t-27bpitb72a on block b1 of title-body-2 (comments revision 1; the deck stays at
 * revision 1). Thread ids are minted from the deck, the anchor, the text and the comments revision, so
 * a new deck given these steps has this id.
 */
export const WITH_COMMENT_THREAD: GivenStep[] = [
  ...WITH_BODY_SLIDE,
  { action: 'comment.add', input: { anchor: { kind: 'block', slideId: 'title-body-2', blockId: 'b1' }, body: { text: 'Is this number right?' } }, revision: 1 },
]

/** The thread above, assigned to the agent review-7. */
export const WITH_ASSIGNED_THREAD: GivenStep[] = [
  ...WITH_COMMENT_THREAD,
  { action: 'comment.assign', input: { threadId: 't-27bpitb72a', assignee: { principal: 'agent:review-7' } }, revision: 1 },
]

/**
 * A proposal of speaker notes for title-body-2 (thread t-21x4xw3gk7): assist.propose needs an assistant
 * (an MCP client offering sampling, or STUDIO_ASSIST_URL; the contract test runs one on loopback).
 */
export const WITH_PROPOSAL: GivenStep[] = [...WITH_BODY_SLIDE, { action: 'assist.propose', input: { slideIds: ['title-body-2'], kind: 'notes' }, revision: 1 }]
