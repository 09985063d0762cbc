import { defineAction } from '../../core/action.js'
import { bool, int, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

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
  output: planned(
    written({
      step: oneOf(['plan', 'copy', 'verify', 'cutover', 'delete', 'rollback'], { description: 'The step run.' }),
      cursor: { ...nullable(str()), description: 'Where the step stopped; null once it finished.' },
      done: bool({ description: 'Whether the step finished.' }),
      counts: obj(
        { planned: int({ minimum: 0 }), copied: int({ minimum: 0 }), verified: int({ minimum: 0 }), deleted: int({ minimum: 0 }), restored: int({ minimum: 0 }) },
        { description: 'Objects planned, copied, verified, deleted or restored.' },
      ),
      revision: RevisionIfWritten,
    }),
  ),
  cli: 'admin migrate-storage <step> --to <to> --batch <batch>',
  mcp: null,
  annotations: { destructive: true },
  example: { step: 'plan', batch: 500 },
})
