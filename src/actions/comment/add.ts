import { defineAction } from '../../core/action.js'
import { obj, opt } from '../../model/schema.js'
import { anchorOf, bodyOf } from './cli.js'
import { whoOf } from '../share/cli.js'
import { Anchor, Assignee, Body, COMMENTS_DECK, CommentsRevision, ThreadId, ThreadWritten } from './schemas.js'
import { WITH_BODY_SLIDE, WITH_COMMENT_THREAD } from '../given.js'

const handlers = () => import('./run.js')

export const commentAdd = defineAction({
  id: 'comment.add',
  switches: ['comments'],
  label: 'Add a comment',
  doc: 'Opens a comment thread anchored on the deck, a slide, a block, a text range, a table cell or the notes of a slide, with mentions and an optional assignee. Runs server side.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ anchor: Anchor, body: Body, assignee: opt(Assignee), baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment add <anchor> -m <text> --mention <who> --assign <who>',
  mcp: 'deck_add_comment',
  cliInput: (parsed) => {
    const input = bodyOf(parsed)
    const assign = parsed.flags.assign
    return { ...input, anchor: anchorOf(input.anchor), ...(assign !== undefined ? { assignee: whoOf(assign) } : {}) }
  },
  capability: 'comment',
  given: WITH_BODY_SLIDE,
  example: {
    anchor: { kind: 'range', slideId: 'title-body-2', blockId: 'b1', path: '/text', range: [14, 18] },
    body: { text: '{@0} can you check this number?', mentions: [{ email: 'ana@example.com' }] },
    baseRevision: 0,
  },
  run: async (ctx, input) => (await handlers()).add(ctx, input),
})

export const commentReply = defineAction({
  id: 'comment.reply',
  switches: ['comments'],
  label: 'Reply to a thread',
  doc: 'Adds a reply at the end of a thread; mentions notify the people named.',
  group: 'comment',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  deck: COMMENTS_DECK,
  input: obj({ threadId: ThreadId, body: Body, baseRevision: CommentsRevision }),
  output: ThreadWritten,
  cli: 'comment reply <threadId> -m <text> --mention <who>',
  mcp: 'deck_reply_comment',
  cliInput: bodyOf,
  capability: 'comment',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a', body: { text: 'Fixed in the latest revision.' }, baseRevision: 1 },
  run: async (ctx, input) => (await handlers()).reply(ctx, input),
})
