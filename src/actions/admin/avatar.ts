import { defineAction } from '../../core/action.js'
import { arr, bool, obj, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

export const adminAvatarSweep = defineAction({
  id: 'admin.avatar.sweep',
  label: 'Sweep orphan avatars',
  doc: 'Removes picture avatar files under u/ that no profile names and that are older than a day, by key; refused without an identity database.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({ dryRun: opt(bool({ description: 'List orphans, remove nothing.' })) }),
  output: planned(written({ orphans: arr(str(), { description: 'Orphan keys found.' }), removed: arr(str(), { description: 'Keys removed (none with dryRun).' }), revision: RevisionIfWritten })),
  cli: 'admin avatar-sweep --to <to> [--dry-run]',
  mcp: null,
  annotations: { destructive: true, idempotent: true },
  example: { dryRun: true },
})
