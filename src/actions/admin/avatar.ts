import { defineAction } from '../../core/action.js'
import { bool, obj, opt, outline } from '../../model/schema.js'

export const adminAvatarSweep = defineAction({
  id: 'admin.avatar.sweep',
  label: 'Sweep orphan avatars',
  doc: 'Removes picture avatar files under u/ that no profile names and that are older than a day, by key; refused without an identity database.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({ dryRun: opt(bool({ description: 'List orphans, remove nothing.' })) }),
  output: outline({ orphans: 'orphan keys found', removed: 'keys removed' }),
  cli: 'admin avatar-sweep --to <to> [--dry-run]',
  mcp: null,
  annotations: { destructive: true, idempotent: true },
  example: { dryRun: true },
})
