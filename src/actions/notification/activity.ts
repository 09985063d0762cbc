import { defineAction } from '../../core/action.js'
import { arr, int, IsoTime, obj, oneOf, openObj, opt, str } from '../../model/schema.js'
import { planned, result } from '../../model/results.js'

export const ACTIVITY_KINDS = ['version', 'comment', 'share', 'request', 'role', 'rename', 'restore', 'named', 'export', 'import', 'trash'] as const

export const activityList = defineAction({
  id: 'activity.list',
  label: 'List activity',
  doc: "The deck's activity feed, newest first. Readable by editors and the owner, and by commenters when the owner allows.",
  group: 'notification',
  milestone: 'M8',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    since: opt({ ...IsoTime, description: 'Records after this time.' }),
    kinds: opt(arr(oneOf(ACTIVITY_KINDS), { minItems: 1, uniqueItems: true, description: 'Only these record kinds.' })),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Records to answer at most.' })),
  }),
  output: planned(
    result({
      records: arr(
        obj({ id: str(), kind: oneOf(ACTIVITY_KINDS), actor: str({ description: 'The principal who acted.' }), at: IsoTime, summary: str({ description: 'What changed, in a sentence.' }), details: opt(openObj('What changed, by kind.')) }),
        { description: 'Activity records, newest first.' },
      ),
    }),
  ),
  cli: 'activity --since <since> --kind <kinds>',
  mcp: 'deck_list_activity',
  example: { kinds: ['comment', 'version'], limit: 50 },
})
