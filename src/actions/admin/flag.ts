import { defineAction } from '../../core/action.js'
import { bool, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

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

export const adminFlag = defineAction({
  id: 'admin.flag',
  label: 'Kill switch',
  doc: 'Reads a kill switch, or turns it on or off; every instance reads the change within 5 seconds.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    name: oneOf(FLAGS, { description: 'One of the 13 kill-switch names.' }),
    on: opt(bool({ description: 'Turn the switch on or off; absent reads it.' })),
  }),
  output: planned(
    written({
      name: oneOf(FLAGS, { description: 'The switch.' }),
      on: bool({ description: 'Whether it is on.' }),
      changedAt: { ...nullable(IsoTime), description: 'When it last changed.' },
      changedBy: { ...nullable(str()), description: 'Who changed it.' },
      revision: RevisionIfWritten,
    }),
  ),
  cli: 'admin flag <name> --on <on>',
  mcp: 'deck_admin_flag',
  annotations: { idempotent: true },
  example: { name: 'exports', on: false },
})
