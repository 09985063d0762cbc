import { defineAction } from '../../core/action.js'
import { arr, BlockId, bool, int, obj, oneOf, opt, SlideId, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { flagOn } from '../../store/flags.js'
import { Thread, ThreadId } from './schemas.js'
import { WITH_COMMENT_THREAD } from '../given.js'

const handlers = () => import('./run.js')

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
  output: result({
    threads: arr(Thread, { description: 'Threads with resolved anchors, comments, assignee, state.' }),
    baseRevision: int({ minimum: 0, description: 'The current comments revision.' }),
    switchedOff: opt(bool({ description: 'True while the comments kill switch stops comment writes (the page hides its composers).' })),
  }),
  cli: 'comments <slideId> --block <blockId> --state <state> --for-me --author <author> --search <search> --since <since>',
  mcp: 'deck_list_comments',
  capability: 'readComments',
  given: WITH_COMMENT_THREAD,
  example: { slideId: 'title-body-2', state: 'open' },
  run: async (ctx, input) => {
    const listed = await (await handlers()).list(ctx, input)
    return flagOn(ctx.ws, 'comments') ? { ...listed, switchedOff: true } : listed
  },
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
  output: result({ thread: { ...Thread, description: 'The thread with its resolved anchor.' }, baseRevision: int({ minimum: 0, description: 'The current comments revision.' }) }),
  cli: 'comment get <threadId>',
  mcp: 'deck_get_comment',
  capability: 'readComments',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a' },
  run: async (ctx, input) => (await handlers()).get(ctx, input),
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
  output: result({ editorUrl: str({ description: 'Opens the editor on the thread (STUDIO_PUBLIC_URL, else http://localhost:4321).' }), viewUrl: str({ description: 'Opens the view on the thread.' }) }),
  cli: 'comment link <threadId>',
  mcp: 'deck_comment_link',
  capability: 'readComments',
  given: WITH_COMMENT_THREAD,
  example: { threadId: 't-27bpitb72a' },
  run: async (ctx, input) => (await handlers()).link(ctx, input),
})
