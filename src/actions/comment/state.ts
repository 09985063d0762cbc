import { defineAction } from '../../core/action.js'
import { bool, nullable, obj, oneOf } from '../../model/schema.js'
import { whoOf } from '../share/cli.js'
import { Assignee, COMMENTS_DECK, CommentId, CommentsRevision, EMOJI, ThreadId, ThreadWritten } from './schemas.js'
import { WITH_ASSIGNED_THREAD, WITH_COMMENT_THREAD } from '../given.js'

const handlers = () => import('./run.js')

export const commentResolve = defineAction({
  id: 'comment.resolve',
  switches: ['comments'],
  label: 'Resolve a thread',
  doc: 'Marks an open thread resolved; the last writer wins.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment resolve <threadId>',
  mcp: 'deck_resolve_comment',
  annotations: { idempotent: true },
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).resolve(ctx, input),
})

export const commentReopen = defineAction({
  id: 'comment.reopen',
  switches: ['comments'],
  label: 'Reopen a thread',
  doc: 'Opens a resolved thread again; the last writer wins.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment reopen <threadId>',
  mcp: 'deck_reopen_comment',
  annotations: { idempotent: true },
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).reopen(ctx, input),
})

export const commentAssign = defineAction({
  id: 'comment.assign',
  switches: ['comments'],
  label: 'Assign a thread',
  doc: 'Assigns a thread to a principal or an invitation, or clears the assignee with null; the last writer wins.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, assignee: { ...nullable(Assignee), description: 'A principal or an invitation, or null to clear.' }, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment assign <threadId> <who> --clear',
  mcp: 'deck_assign_comment',
  cliInput: (parsed) => {
    const { who, ...input } = parsed.input
    const named = who ?? parsed.args.who
    if (parsed.flags.clear) return { ...input, assignee: null }
    return named === undefined ? input : { ...input, assignee: whoOf(named) }
  },
  annotations: { idempotent: true },
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', assignee: { principal: 'agent:review-7' }, baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).assign(ctx, input),
})

export const commentDone = defineAction({
  id: 'comment.done',
  switches: ['comments'],
  label: 'Mark a thread done',
  doc: "The assignee (or the deck's owner for them) marks the thread done; the last writer wins.",
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment done <threadId>',
  mcp: 'deck_done_comment',
  annotations: { idempotent: true },
  capability: 'comment',
  given: WITH_ASSIGNED_THREAD,
  example: { threadId: 't-27bpitb72a', baseRevision: 2 },
  run: async (ctx, input) => (await handlers()).done(ctx, input),
})

export const commentReact = defineAction({
  id: 'comment.react',
  switches: ['comments'],
  label: 'React to a comment',
  doc: "Sets or clears the caller's reaction on a comment with one of the 24 palette emoji.",
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({
    threadId: ThreadId,
    commentId: CommentId,
    emoji: oneOf(EMOJI, { description: 'One of the 24 palette emoji.' }),
    on: bool({ description: 'true adds the reaction, false removes it (CLI --off).' }),
    baseRevision: CommentsRevision,
  }),
  output: ThreadWritten,
  cli: 'comment react <threadId> <commentId> <emoji> --off',
  mcp: 'deck_react_comment',
  cliInput: (parsed) => ({ ...parsed.input, on: !parsed.flags.off }),
  annotations: { idempotent: true },
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', commentId: 'c1', emoji: 'thumbs-up', on: true, baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).react(ctx, input),
})
