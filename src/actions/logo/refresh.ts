import { defineAction } from '../../core/action.js'
import { bool, int, nullable, obj, opt, str } from '../../model/schema.js'
import { planned, result } from '../../model/results.js'

export const logoRefresh = defineAction({
  id: 'logo.refresh',
  label: 'Refresh the logo index',
  doc: 'Rebuilds the cached logo index from the catalogue manifest within a time budget, marks variants answering 404 unavailable and drops removed marks with their cached files; the deck is unchanged. Not offered in the page.',
  group: 'logo',
  milestone: 'M10',
  mutates: false,
  transports: 'CMH',
  input: obj({ dryRun: opt(bool({ description: 'Answer counts, index date, last failure and progress, with no fetch and no write.' })) }),
  output: planned(
    result({
      counts: obj(
        { added: int({ minimum: 0 }), updated: int({ minimum: 0 }), unavailable: int({ minimum: 0 }), dropped: int({ minimum: 0 }) },
        { description: 'Marks and variants added, updated, unavailable, dropped.' },
      ),
      builtAt: { ...nullable(str({ format: 'date-time' })), description: 'The index date.' },
      lastFailure: { ...nullable(str()), description: 'The last upstream failure.' },
      progress: obj({ done: int({ minimum: 0 }), total: int({ minimum: 0 }) }, { description: 'How far the rebuild got within its budget.' }),
    }),
  ),
  cli: 'logo refresh --dry-run',
  mcp: 'deck_logo_refresh',
  example: { dryRun: true },
})
