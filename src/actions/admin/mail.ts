import { defineAction } from '../../core/action.js'
import { int, IsoTime, obj, opt, outline } from '../../model/schema.js'

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
  output: outline({ messages: 'captured mail: to, subject, text, time, newest first' }),
  cli: 'admin mail --to <to> --since <since>',
  mcp: null,
  example: { limit: 10 },
})
