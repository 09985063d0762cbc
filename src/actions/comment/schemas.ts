import { anyOf, arr, BlockId, bool, BR, int, IsoTime, lit, nullable, obj, oneOf, opt, Pointer, SlideId, str, Who } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import type { DeckTarget } from '../../core/action.js'

export const ThreadId = str({ minLength: 1, maxLength: 120, description: 'Comment thread id.' })
export const CommentId = str({ minLength: 1, maxLength: 120, description: 'Comment id inside the thread.' })

/**
 * Where a thread sits. CLI text forms: `deck`, `slide:<id>`, `<slide>#<block>`,
 * `<slide>#<block>/<path>:<start>-<end>`, `<slide>#<block>/cell:<r>,<c>`, `notes:<slide>`.
 */
export const Anchor = anyOf(
  [
    obj({ kind: lit('deck') }),
    obj({ kind: lit('slide'), slideId: SlideId }),
    obj({ kind: lit('block'), slideId: SlideId, blockId: BlockId }),
    obj({
      kind: lit('range'),
      slideId: SlideId,
      blockId: BlockId,
      path: { ...Pointer, description: 'Pointer of the Text inside the block, e.g. /text.' },
      range: arr(int({ minimum: 0 }), { minItems: 2, maxItems: 2, description: '[start, end] in the plain text, counted in code points, one character per paragraph break.' }),
    }),
    obj({ kind: lit('cell'), slideId: SlideId, blockId: BlockId, row: int({ minimum: 0, description: 'Row, from 0.' }), col: int({ minimum: 0, description: 'Column, from 0.' }) }),
    obj({ kind: lit('notes'), slideId: SlideId }),
  ],
  { description: 'The deck, a slide, a block, a text range, a table cell, or the notes of a slide; discriminated by kind.' },
)

export const Body = obj(
  {
    text: str({ minLength: 1, maxLength: 10000, description: 'Plain text; a {@n} token names mentions[n].' }),
    mentions: opt(arr(Who, { maxItems: 50, description: 'People and agents mentioned, in {@n} order.' })),
  },
  { description: 'The comment body.' },
)

export const Assignee = { ...Who, description: 'A principal (agents are assignable) or an invitation by email.' }

export const CommentsRevision = opt({ ...BR, description: 'The comments revision the caller last read; a stale value never refuses.' })

/**
 * Comment writes name the comments revision, not the deck's, and never refuse a stale one: the
 * engine locks the current deck (a content write moving anchors and a comment write are one after
 * the other) but does not compare their baseRevision with the deck revision.
 */
export const COMMENTS_DECK: DeckTarget = { kind: 'current', guard: false }

export const EMOJI = [
  'thumbs-up', 'thumbs-down', 'heart', 'laugh', 'smile', 'surprised', 'sad', 'thinking',
  'tada', 'clap', 'fire', 'rocket', 'eyes', 'check', 'cross', 'question',
  'star', 'sparkles', 'hundred', 'pray', 'wave', 'raised-hands', 'muscle', 'bulb',
] as const

export const UpdatedAt = { ...IsoTime, description: "The thread's updatedAt the caller read: a thread changed after it answers 409 with the current thread." }

/** One comment of a thread; a deleted one is a tombstone without its body (restorable for 30 days). */
export const StoredComment = obj(
  {
    id: CommentId,
    body: opt({ ...Body, description: 'The comment body; absent on a tombstone.' }),
    author: str({ description: 'The principal who wrote it.' }),
    at: IsoTime,
    editedAt: opt(IsoTime),
    reactions: { type: 'object', propertyNames: { enum: [...EMOJI] }, additionalProperties: arr(str()), description: 'Principals per emoji.' },
    deletedAt: opt({ ...IsoTime, description: 'A tombstone: when it was deleted (restorable for 30 days).' }),
  },
  { description: 'A comment.' },
)

export const Quote = obj(
  {
    exact: str({ description: 'The text the anchor covers (a cell: its text).' }),
    prefix: str({ description: 'Up to 32 characters before it (a cell: its row\'s first cell).' }),
    suffix: str({ description: 'Up to 32 characters after it (a cell: its column\'s first cell).' }),
  },
  { description: 'What a text range or a cell covered, with context: how the anchor is found again after edits.' },
)

/** An assistant's proposal a thread carries (assist.propose), applied by assist.apply. */
export const Proposal = obj(
  {
    kind: oneOf(['shorten', 'notes', 'ask']),
    ask: opt(str()),
    summary: str({ description: "The assistant's summary of what it proposes." }),
    slides: arr(obj({ slideId: SlideId, mutations: arr({ type: 'object', description: 'A slide.update mutation.' }) }), { description: 'slide.update mutations per slide.' }),
    revision: int({ minimum: 0, description: 'The deck revision the proposal was made against.' }),
    by: str({ description: 'Which assistant answered: mcp-sampling, or the configured endpoint and its model.' }),
    appliedAt: opt(int({ minimum: 0, description: 'The deck revision assist.apply made of it.' })),
  },
  { description: 'A proposal of an assistant.' },
)

/** A comment thread; reads and writes answer its anchor resolved against the current document. */
export const Thread = obj(
  {
    id: ThreadId,
    anchor: Anchor,
    status: oneOf(['attached', 'detached', 'removed'], {
      description: 'attached: the anchor names what it covers now; detached: a text range whose text is gone (the quote is kept; it re-attaches when the text comes back); removed: its slide, block, row or column is gone.',
    }),
    quote: opt(Quote),
    comments: arr(StoredComment),
    assignee: { ...nullable(Who), description: 'The assignee (a principal or an invitation), or null.' },
    state: oneOf(['open', 'resolved']),
    done: bool({ description: 'Marked done by the assignee.' }),
    madeAt: int({ minimum: 0, description: 'The deck revision the thread was opened at.' }),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    revision: int({ minimum: 0, description: "The comments revision of the thread's last change." }),
    proposal: opt(Proposal),
  },
  { description: 'A comment thread.' },
)

/** What a comment write answers: the thread and the comments revision after the write. */
export const ThreadWritten = written({
  thread: { ...Thread, description: 'The thread as stored, its anchor resolved.' },
  baseRevision: int({ minimum: 0, description: 'The comments revision after the write, the number comment.list since takes.' }),
  revision: RevisionIfWritten,
})
