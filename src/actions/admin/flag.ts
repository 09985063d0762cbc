import { defineAction } from '../../core/action.js'
import { emitFlag } from '../../core/events.js'
import { SWITCHES } from '../../core/switches.js'
import { bool, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { flagState, setFlag } from '../../store/flags.js'

/** The twelve kill switches the spec names, and maintenance (src/core/switches.ts says what each stops). */
export const FLAGS = SWITCHES

export const adminFlag = defineAction({
  id: 'admin.flag',
  label: 'Kill switch',
  doc: "Reads a kill switch, or turns it on or off; every instance reads the change at its next call (within 5 seconds). On stops what the switch names on every transport with 503 switched_off (docs/access.md, Kill switches); maintenance, the thirteenth, stops every write and every call of the page. On a checkout the switches live in .studio/flags.json.",
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  capability: 'admin',
  input: obj({
    name: oneOf(FLAGS, { description: 'One of the 13 kill-switch names.' }),
    on: opt(bool({ description: 'Turn the switch on or off; absent reads it.' })),
  }),
  output: written({
    name: oneOf(FLAGS, { description: 'The switch.' }),
    on: bool({ description: 'Whether it is on.' }),
    changedAt: { ...nullable(IsoTime), description: 'When it last changed.' },
    changedBy: { ...nullable(str()), description: 'Who changed it.' },
    revision: RevisionIfWritten,
  }),
  cli: 'admin flag <name> --on <on>',
  mcp: 'deck_admin_flag',
  annotations: { idempotent: true },
  example: { name: 'presence', on: false },
  run: async (ctx, input: { name: string; on?: boolean }) => {
    if (input.on === undefined) return { name: input.name, ...flagState(ctx.ws, input.name) }
    const state = await setFlag(ctx.ws, input.name, input.on, ctx.principal.id ?? ctx.principal.author)
    emitFlag({ root: ctx.ws.root, name: input.name, on: state.on })
    return { name: input.name, ...state }
  },
})
