import { defineAction } from '../../core/action.js'
import { arr, int, IsoTime, obj, opt, str } from '../../model/schema.js'
import { result } from '../../model/results.js'

export const adminMailList = defineAction({
  id: 'admin.mail.list',
  label: 'List captured mail',
  doc: 'Mail captured when the deployment variable STUDIO_MAIL is capture (in .studio/mail.jsonl), newest first; messages is absent otherwise.',
  group: 'admin',
  milestone: 'M9',
  mutates: false,
  transports: 'CH',
  input: obj({
    since: opt({ ...IsoTime, description: 'Mail captured after this time.' }),
    limit: opt(int({ minimum: 1, maximum: 500, description: 'Messages to answer at most.' })),
  }),
  output: result({ messages: opt(arr(obj({ to: str(), subject: str(), text: str(), at: IsoTime }), { description: 'Captured mail, newest first; absent when STUDIO_MAIL is not capture.' })) }),
  cli: 'admin mail --to <to> --since <since>',
  mcp: null,
  example: { limit: 10 },
  human: (r: { messages?: { at: string; to: string; subject: string }[] }) => (r.messages ? r.messages.map((m) => `${m.at}  ${m.to}  ${m.subject}`).join('\n') || 'No mail captured.' : 'Mail is not captured here (STUDIO_MAIL is not capture).'),
  run: async (ctx, input: { since?: string; limit?: number }) => {
    const { capturedMail } = await import('../../comments/mail.js')
    const messages = await capturedMail(ctx.ws, { since: input.since === undefined ? undefined : Date.parse(input.since), limit: input.limit })
    return messages ? { messages } : {}
  },
})
