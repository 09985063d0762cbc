import { defineAction } from '../../core/action.js'
import { arr, bool, int, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'

const STEPS = ['plan', 'copy', 'verify', 'cutover', 'delete', 'rollback']

export const adminMigrateStorage = defineAction({
  id: 'admin.migrateStorage',
  label: 'Migrate storage',
  doc: "Runs one step of the storage migration between layout v1 (this git workspace) and layout v2 (the hosted store: PostgreSQL and the bucket), from its cursor, one batch per call: plan, copy, verify, cutover, delete or rollback. Run a step again until it answers done. Needs the hosted store's settings (STUDIO_DATABASE_URL, STUDIO_S3_BUCKET) on a checkout; delete is refused until a verify has passed after cutover (docs/hosting.md, Moving a workspace into the hosted store).",
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({
    step: oneOf(STEPS, { description: 'The migration step to run.' }),
    to: oneOf(['hosted', 'git'], { description: 'Where the decks move: hosted (this workspace into the hosted store) or git (the hosted store into this workspace).' }),
    batch: opt(int({ minimum: 1, maximum: 10000, description: 'Changes, objects or decks per call (default 100).' })),
  }),
  output: written({
    step: oneOf(STEPS, { description: 'The step run.' }),
    to: oneOf(['hosted', 'git'], { description: 'The direction.' }),
    migration: int({ minimum: 1, description: 'The migration record.' }),
    state: oneOf(['planning', 'planned', 'copied', 'cutover', 'deleting', 'deleted', 'rolling_back', 'rolled_back'], { description: "The migration's state after this call." }),
    active: oneOf(['source', 'target'], { description: 'Which side serves the moved decks: the source until cutover, the target after it (the pointer).' }),
    cursor: { ...nullable(str()), description: 'Where the step stopped; null once it finished.' },
    done: bool({ description: 'Whether the step finished; run it again while false.' }),
    counts: obj(
      { planned: int({ minimum: 0 }), copied: int({ minimum: 0 }), verified: int({ minimum: 0 }), deleted: int({ minimum: 0 }), restored: int({ minimum: 0 }) },
      { description: 'Changes planned and copied, objects and decks verified, decks deleted, changes brought back by rollback.' },
    ),
    verify: {
      ...nullable(
        obj({
          passed: bool({ description: 'Whether every object and every deck matched.' }),
          at: IsoTime,
          afterCutover: bool({ description: 'Whether it ran after cutover (delete needs one that did).' }),
          failures: arr(str(), { description: 'The first differences found (at most 20).' }),
        }),
      ),
      description: 'The last finished verify.',
    },
    revision: RevisionIfWritten,
  }),
  cli: 'admin migrate-storage <step> --to <to> --batch <batch>',
  mcp: null,
  annotations: { destructive: true },
  example: { step: 'plan', to: 'hosted', batch: 500 },
  run: async (ctx, input: { step: 'plan' | 'copy' | 'verify' | 'cutover' | 'delete' | 'rollback'; to: 'hosted' | 'git'; batch?: number }) => {
    const { migrateStorage } = await import('../../hosted/migrate.js')
    return migrateStorage(ctx.ws, input.step, input.to, input.batch ?? 100)
  },
})
