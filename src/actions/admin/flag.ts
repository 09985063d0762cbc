import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { emitFlag } from '../../core/events.js'
import { bool, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { flagState, setFlag } from '../../store/flags.js'

/** The twelve kill switches the spec names, and maintenance (ours: every write answers 503 while it is on). */
export const FLAGS = [
  'realtime',
  'presence',
  'comments',
  'invites',
  'email',
  'exports',
  'uploads',
  'renderThumbs',
  'materialize',
  'htmlBlocks',
  'signup',
  'readOnly',
  'maintenance',
] as const

/**
 * The switches this studio honours so far: turning one of these off stops what it names. The others
 * can be read (they are off) but not yet set: nothing would stop, so the answer is 501 naming `name`.
 */
export const HONOURED_FLAGS: ReadonlySet<string> = new Set(['realtime', 'presence'])

export const adminFlag = defineAction({
  id: 'admin.flag',
  label: 'Kill switch',
  doc: 'Reads a kill switch, or turns it on or off; every instance reads the change within 5 seconds. On a checkout the switches live in .studio/flags.json; realtime (the page\'s room) and presence are honoured, setting another answers 501 until its capability reads it.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
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
    if (!HONOURED_FLAGS.has(input.name)) {
      fail('not_implemented', `The ${input.name} switch can be read but not set yet: nothing on this studio reads it. Honoured today: ${[...HONOURED_FLAGS].join(', ')}.`, { pointer: '/name', details: { implemented: false } })
    }
    const state = await setFlag(ctx.ws, input.name, input.on, ctx.principal.author)
    emitFlag({ root: ctx.ws.root, name: input.name, on: state.on })
    return { name: input.name, ...state }
  },
})
