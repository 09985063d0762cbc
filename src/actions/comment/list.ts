import { defineAction } from '../../core/action.js'
import { arr, BlockId, bool, int, obj, oneOf, opt, SlideId, str } from '../../model/schema.js'
import { planned, result } from '../../model/results.js'
import { Thread, ThreadId } from './schemas.js'

export const commentList = defineAction({
  id: 'comment.list',
  label: 'List comments',
  doc: 'Lists comment threads with their anchors resolved against the current document, open ones by default. Needs the readComments capability (403 otherwise).',
  group: 'comment',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    slideId: opt({ ...SlideId, description: 'Only threads on this slide.' }),
    blockId: opt({ ...BlockId, description: 'Only threads on this block.' }),
    state: opt(oneOf(['open', 'resolved', 'all'], { default: 'open', description: 'Thread state (default open).' })),
    forMe: opt(bool({ description: 'Threads mentioning or assigned to the caller.' })),
    author: opt(str({ description: 'Threads with a comment by this author.' })),
    search: opt(str({ description: 'Text to find in comment bodies.' })),
    includeDeleted: opt(bool({ description: 'Keep tombstones.' })),
    since: opt(int({ minimum: 0, description: 'Threads touched after this comments revision.' })),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Threads to answer at most.' })),
  }),
  output: planned(
    result({
      threads: arr(Thread, { description: 'Threads with resolved anchors, comments, assignee, state.' }),
      baseRevision: int({ minimum: 0, description: 'The current comments revision.' }),
    }),
  ),
  cli: 'comments <slideId> --block <blockId> --state <state> --for-me --author <author> --search <search> --since <since>',
  mcp: 'deck_list_comments',
  example: { slideId: 'title-and-body-2', state: 'open', forMe: true },
})

export const commentGet = defineAction({
  id: 'comment.get',
  label: 'Get a thread',
  doc: 'One comment thread with its comments, reactions, assignee and state.',
  group: 'comment',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({ threadId: ThreadId }),
  output: planned(
    result({ thread: { ...Thread, description: 'The thread with its resolved anchor.' }, baseRevision: int({ minimum: 0, description: 'The current comments revision.' }) }),
  ),
  cli: 'comment get <threadId>',
  mcp: 'deck_get_comment',
  example: { threadId: 't1' },
})

export const commentLink = defineAction({
  id: 'comment.link',
  label: 'Link to a thread',
  doc: "Editor and view URLs that open the deck on the thread's slide with its card expanded; on the window transport it runs in the page.",
  group: 'comment',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({ threadId: ThreadId }),
  output: planned(result({ editorUrl: str({ description: 'Opens the editor on the thread.' }), viewUrl: str({ description: 'Opens the view on the thread.' }) })),
  cli: 'comment link <threadId>',
  mcp: 'deck_comment_link',
  example: { threadId: 't1' },
})
