import { defineAction } from '../../core/action.js'
import { bool, obj, opt } from '../../model/schema.js'
import { bodyOf } from './cli.js'
import { Body, COMMENTS_DECK, CommentId, CommentsRevision, ThreadId, UpdatedAt, ThreadWritten } from './schemas.js'
import { WITH_COMMENT_THREAD } from '../given.js'

const handlers = () => import('./run.js')

export const commentEdit = defineAction({
  id: 'comment.edit',
  switches: ['comments'],
  label: 'Edit a comment',
  doc: "Replaces the body of one of the caller's own comments. When the thread changed since expectedUpdatedAt it answers 409 with the current thread.",
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, commentId: CommentId, body: Body, expectedUpdatedAt: UpdatedAt, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment edit <threadId> <commentId> -m <text>',
  mcp: 'deck_edit_comment',
  cliInput: bodyOf,
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', commentId: 'c1', body: { text: 'Revenue grew 12 percent, not 21.' }, expectedUpdatedAt: '2099-12-31T23:59:59Z', baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).edit(ctx, input),
})

export const commentDelete = defineAction({
  id: 'comment.delete',
  switches: ['comments'],
  label: 'Delete a comment',
  doc: 'Turns a comment into a tombstone: replies are kept and a deleted first comment keeps the thread. restore brings it back within 30 days.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, commentId: CommentId, restore: opt(bool({ description: 'Undo a delete, within 30 days.' })), baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment delete <threadId> <commentId> --restore',
  mcp: 'deck_delete_comment',
  annotations: { destructive: true },
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', commentId: 'c1', baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).remove(ctx, input),
})
