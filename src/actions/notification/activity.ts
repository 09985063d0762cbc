import { defineAction } from '../../core/action.js'
import { arr, int, IsoTime, obj, oneOf, openObj, opt, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { ACTIVITY_KINDS } from '../../history/activity.js'
import { WITH_COMMENT_THREAD } from '../given.js'

export { ACTIVITY_KINDS }

export const activityList = defineAction({
  id: 'activity.list',
  label: 'List activity',
  doc: "The deck's activity feed, newest first: every commit of the deck by the kind of its action (a content write is a version, comment.* a comment, deck.rename a rename, version.restore and deck.restore a restore, version.save named, deck.trash trash, import.run import), and exports. Readable by editors and the owner, and by commenters when the owner allows (notification.settings activityForCommenters).",
  group: 'notification',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  capability: 'readActivity',
  input: obj({
    since: opt({ ...IsoTime, description: 'Records after this time.' }),
    kinds: opt(arr(oneOf(ACTIVITY_KINDS), { minItems: 1, uniqueItems: true, description: 'Only these record kinds.' })),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Records to answer at most (default 100).' })),
  }),
  output: result({
    records: arr(
      obj({ id: str(), kind: oneOf(ACTIVITY_KINDS), actor: str({ description: 'The principal who acted.' }), at: IsoTime, summary: str({ description: 'What changed, in a sentence.' }), details: opt(openObj('What changed, by kind: the action, its commit and the revision it made.')) }),
      { description: 'Activity records, newest first.' },
    ),
  }),
  cli: 'activity --since <since> --kind <kinds>',
  mcp: 'deck_list_activity',
  human: (r: { records: { at: string; kind: string; summary: string }[] }) => r.records.map((x) => `${x.at}  ${x.kind.padEnd(8)} ${x.summary}`).join('\n') || 'No activity.',
  given: WITH_COMMENT_THREAD,
  example: { kinds: ['comment', 'version'], limit: 50 },
  run: async (ctx, input: { since?: string; kinds?: (typeof ACTIVITY_KINDS)[number][]; limit?: number }) => {
    const { listActivity } = await import('../../history/activity.js')
    return { records: await listActivity(ctx.ws, await ctx.deckId(), { since: input.since === undefined ? undefined : Date.parse(input.since), kinds: input.kinds, limit: input.limit }) }
  },
})
