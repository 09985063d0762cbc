import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, bool, DeckId, int, IsoTime, lit, obj, oneOf, opt, str } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'

const handlers = () => import('./run.js')

const KINDS = ['mention', 'reply', 'assignment', 'resolution', 'reaction', 'request', 'grant'] as const

export const notificationList = defineAction({
  id: 'notification.list',
  label: 'List notifications',
  doc: "The caller's inbox, newest first: mentions, replies, assignments, resolutions, reactions, access requests and grants, one record per thread coalesced within 15 minutes. Also sends the mail that is due (docs/comments.md#notifications).",
  group: 'notification',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    unread: opt(bool({ description: 'Only unread records.' })),
    since: opt({ ...IsoTime, description: 'Records updated after this time.' }),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Records to answer at most (default 100).' })),
  }),
  output: result({
    notifications: arr(
      obj({
        id: str(),
        kind: oneOf(KINDS, { description: 'The first kind of the record (mentions first when a mention is among them).' }),
        kinds: arr(oneOf(KINDS), { description: 'Every kind the record coalesced.' }),
        deckId: DeckId,
        deckTitle: str(),
        threadId: opt(str()),
        place: str({ description: 'Where the thread sits, in words.' }),
        link: str({ description: "The thread's editor URL (comment.link)." }),
        actors: arr(str(), { description: 'The principals, coalesced per thread within 15 minutes.' }),
        count: int({ minimum: 1, description: 'Events coalesced into this record.' }),
        excerpt: str({ description: 'The last event, in a line.' }),
        commentId: opt(str({ description: 'The comment of the last event.' })),
        read: bool(),
        firstAt: IsoTime,
        updatedAt: IsoTime,
      }),
      { description: 'Inbox records, newest first.' },
    ),
    unread: int({ minimum: 0, description: 'The unread count.' }),
  }),
  cli: 'notifications --unread --since <since>',
  mcp: 'deck_list_notifications',
  human: (r: { notifications: { read: boolean; updatedAt: string; actors: string[]; kinds: string[]; deckTitle: string; place: string; excerpt: string; id: string }[]; unread: number }) =>
    [...r.notifications.map((n) => `${n.read ? ' ' : '*'} ${n.id}  ${n.updatedAt.slice(0, 16)}  ${n.actors.join(', ')} (${n.kinds.join(', ')}) on ${n.deckTitle}, ${n.place}: ${n.excerpt}`), `${r.unread} unread`].join('\n'),
  example: { unread: true, limit: 20 },
  run: async (ctx, input) => (await handlers()).list(ctx, input),
})

export const notificationMarkRead = defineAction({
  id: 'notification.markRead',
  label: 'Mark notifications read',
  doc: "Marks the named inbox records of the caller, or all of them, read and answers the unread count. An id that names none of the caller's records is refused (404) and nothing is marked.",
  group: 'notification',
  milestone: 'M8',
  mutates: true,
  capability: 'read',
  transports: 'CMHP',
  input: obj(
    {
      ids: opt(arr(str({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500, description: 'Notification ids.' })),
      all: opt(lit(true, { description: 'Mark every record read.' })),
    },
    { anyOf: [{ required: ['ids'] }, { required: ['all'] }] },
  ),
  output: written({ unread: int({ minimum: 0, description: 'The unread count after the write.' }), revision: RevisionIfWritten }),
  cli: 'notifications read <ids> --all',
  mcp: 'deck_mark_notifications_read',
  annotations: { idempotent: true },
  example: { all: true },
  run: async (ctx, input) => (await handlers()).markRead(ctx, input),
})

export const notificationSettings = defineAction({
  id: 'notification.settings',
  label: 'Notification settings',
  doc: "Reads or sets the caller's notification level and email for the deck, and (owner only) whether commenters may read the Activity panel. A read when every field is absent. all: every event of a thread you are in; forYou: only mentions, assignments and replies; none: nothing.",
  group: 'notification',
  milestone: 'M8',
  mutates: true,
  capability: 'read',
  transports: 'CMHP',
  input: obj({
    level: opt(oneOf(['all', 'forYou', 'none'], { description: 'Which events notify the caller on this deck.' })),
    email: opt(bool({ description: 'Also send notifications by email.' })),
    activityForCommenters: opt(bool({ description: 'Owner only: whether commenters read the Activity panel.' })),
  }),
  output: written({
    level: oneOf(['all', 'forYou', 'none'], { description: 'The notification level.' }),
    email: bool({ description: 'Whether email is on.' }),
    activityForCommenters: bool({ description: 'Whether commenters read the Activity panel.' }),
    revision: RevisionIfWritten,
  }),
  cli: 'notifications settings --level <level> --email --activity-for-commenters',
  mcp: 'deck_notification_settings',
  annotations: { idempotent: true },
  example: { level: 'forYou', email: false },
  run: async (ctx, input) => {
    if (input.activityForCommenters !== undefined && ctx.principal.role !== 'owner') fail('forbidden', "Only the deck's owner decides whether commenters read the Activity panel.", { pointer: '/activityForCommenters' })
    return (await handlers()).settings(ctx, input)
  },
})
