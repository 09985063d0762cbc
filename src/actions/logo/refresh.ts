import { defineAction } from '../../core/action.js'
import { bool, obj, opt, outline } from '../../model/schema.js'

export const logoRefresh = defineAction({
  id: 'logo.refresh',
  label: 'Refresh the logo index',
  doc: 'Rebuilds the cached logo index from the catalogue manifest within a time budget, marks variants answering 404 unavailable and drops removed marks with their cached files; the deck is unchanged. Not offered in the page.',
  group: 'logo',
  milestone: 'M10',
  mutates: false,
  transports: 'CMH',
  input: obj({ dryRun: opt(bool({ description: 'Answer counts, index date, last failure and progress, with no fetch and no write.' })) }),
  output: outline({ counts: 'marks and variants added, updated, unavailable, dropped', builtAt: 'the index date', lastFailure: 'the last upstream failure', progress: 'how far the rebuild got within its budget' }),
  cli: 'logo refresh --dry-run',
  mcp: 'deck_logo_refresh',
  example: { dryRun: true },
})
