import { defineAction } from '../../core/action.js'
import { int, obj, oneOf, opt, outline } from '../../model/schema.js'

export const adminMigrateStorage = defineAction({
  id: 'admin.migrateStorage',
  label: 'Migrate storage',
  doc: 'Runs one step of the storage layout v2 migration (plan, copy, verify, cutover, delete or rollback) from its cursor, in batches.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({
    step: oneOf(['plan', 'copy', 'verify', 'cutover', 'delete', 'rollback'], { description: 'The migration step to run.' }),
    batch: opt(int({ minimum: 1, description: 'Objects per batch.' })),
  }),
  output: outline({ step: 'the step run', cursor: 'where the step stopped', done: 'whether the step finished', counts: 'objects planned, copied, verified, deleted or restored' }),
  cli: 'admin migrate-storage <step> --to <to> --batch <batch>',
  mcp: null,
  annotations: { destructive: true },
  example: { step: 'plan', batch: 500 },
})
