import { defineAction } from '../../core/action.js'
import { arr, bool, DeckId, int, IsoTime, lit, obj, oneOf, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

export const notificationList = defineAction({
  id: 'notification.list',
  label: 'List notifications',
  doc: "The caller's inbox, newest first: mentions, replies, assignments, resolutions, reactions, access requests and grants, coalesced per thread within 15 minutes.",
  group: 'notification',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    unread: opt(bool({ description: 'Only unread records.' })),
    since: opt({ ...IsoTime, description: 'Records updated after this time.' }),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Records to answer at most.' })),
  }),
  output: planned(
    result({
      notifications: arr(
        obj({
          id: str(),
          kind: oneOf(['mention', 'reply', 'assignment', 'resolution', 'reaction', 'request', 'grant']),
          deckId: DeckId,
          threadId: opt(str()),
          actors: arr(str(), { description: 'The principals, coalesced per thread within 15 minutes.' }),
          read: bool(),
          updatedAt: IsoTime,
        }),
        { description: 'Inbox records, newest first.' },
      ),
      unread: int({ minimum: 0, description: 'The unread count.' }),
    }),
  ),
  cli: 'notifications --unread --since <since>',
  mcp: 'deck_list_notifications',
  example: { unread: true, limit: 20 },
})

export const notificationMarkRead = defineAction({
  id: 'notification.markRead',
  label: 'Mark notifications read',
  doc: 'Marks the named inbox records, or all of them, read and answers the unread count.',
  group: 'notification',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  input: obj(
    {
      ids: opt(arr(str({ minLength: 1 }), { minItems: 1, description: 'Notification ids.' })),
      all: opt(lit(true, { description: 'Mark every record read.' })),
    },
    { anyOf: [{ required: ['ids'] }, { required: ['all'] }] },
  ),
  output: planned(written({ unread: int({ minimum: 0, description: 'The unread count after the write.' }), revision: RevisionIfWritten })),
  cli: 'notifications read <ids> --all',
  mcp: 'deck_mark_notifications_read',
  annotations: { idempotent: true },
  example: { ids: ['n1', 'n2'] },
})

export const notificationSettings = defineAction({
  id: 'notification.settings',
  label: 'Notification settings',
  doc: "Reads or sets the caller's notification level and email for the deck, and (owner only) whether commenters may read the Activity panel. A read when every field is absent.",
  group: 'notification',
  milestone: 'M8',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    level: opt(oneOf(['all', 'forYou', 'none'], { description: 'Which events notify the caller on this deck.' })),
    email: opt(bool({ description: 'Also send notifications by email.' })),
    activityForCommenters: opt(bool({ description: 'Owner only: whether commenters read the Activity panel.' })),
  }),
  output: planned(
    written({
      level: oneOf(['all', 'forYou', 'none'], { description: 'The notification level.' }),
      email: bool({ description: 'Whether email is on.' }),
      activityForCommenters: bool({ description: 'Whether commenters read the Activity panel.' }),
      revision: RevisionIfWritten,
    }),
  ),
  cli: 'notifications settings --level <level> --email --activity-for-commenters',
  mcp: 'deck_notification_settings',
  annotations: { idempotent: true },
  example: { level: 'forYou', email: false },
})
