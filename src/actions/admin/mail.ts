import { defineAction } from '../../core/action.js'
import { arr, int, IsoTime, obj, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

export const adminMailList = defineAction({
  id: 'admin.mail.list',
  label: 'List captured mail',
  doc: 'Mail captured when the deployment variable STUDIO_MAIL is capture, newest first; absent otherwise.',
  group: 'admin',
  milestone: 'M9',
  mutates: false,
  transports: 'CH',
  input: obj({
    since: opt({ ...IsoTime, description: 'Mail captured after this time.' }),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Messages to answer at most.' })),
  }),
  output: planned(result({ messages: arr(obj({ to: str(), subject: str(), text: str(), at: IsoTime }), { description: 'Captured mail, newest first.' }) })),
  cli: 'admin mail --to <to> --since <since>',
  mcp: null,
  example: { limit: 10 },
})
