import { defineAction } from '../../core/action.js'
import { bool, int, nullable, obj, opt, str } from '../../model/schema.js'
import { result } from '../../model/results.js'

export const logoRefresh = defineAction({
  id: 'logo.refresh',
  label: 'Refresh the logo index',
  doc: "Rebuilds the workspace's cached logo index (.studio/cache/logos/, never committed) from the catalogue manifest (STUDIO_LOGO_CATALOGUE_URL or logos.catalogueUrl in studio.json), every fetch through the SSRF guard, within a time budget (STUDIO_LOGO_REFRESH_BUDGET_MS or logos.refreshBudgetMs, default 60 s); marks variants answering 404 unavailable and drops removed marks with their cached files; the deck is unchanged. Not offered in the page.",
  group: 'logo',
  milestone: 'M10',
  mutates: false,
  capability: 'admin',
  transports: 'CMH',
  input: obj({ dryRun: opt(bool({ description: 'Answer counts, index date, last failure and progress, with no fetch and no write.' })) }),
  output: result({
      counts: obj(
        { added: int({ minimum: 0 }), updated: int({ minimum: 0 }), unavailable: int({ minimum: 0 }), dropped: int({ minimum: 0 }) },
        { description: 'Marks and variants added, updated, unavailable, dropped.' },
      ),
      builtAt: { ...nullable(str({ format: 'date-time' })), description: 'The index date.' },
      lastFailure: { ...nullable(str()), description: 'The last upstream failure.' },
      progress: obj({ done: int({ minimum: 0 }), total: int({ minimum: 0 }) }, { description: 'How far the rebuild got within its budget: drawings fetched of those the manifest lists.' }),
    }),
  cli: 'logo refresh --dry-run',
  mcp: 'deck_logo_refresh',
  example: { dryRun: true },
  annotations: { writes: true, fetches: true },
  run: async (ctx, input: { dryRun?: boolean }) => {
    const refresh = await import('../../media/logo-refresh.js')
    if (input.dryRun) return refresh.dryRun(ctx.ws)
    ctx.ws.refuseEmbeddedWrite('logo.refresh')
    const { url, budgetMs } = refresh.requireSettings(ctx.ws)
    return refresh.refreshLogos(ctx.ws, { url, budgetMs, onProgress: (done, total) => ctx.progress(done, total, 'logo drawings') })
  },
  human: (r: { counts: { added: number; updated: number; unavailable: number; dropped: number }; builtAt: string | null; lastFailure: string | null; progress: { done: number; total: number } }) =>
    [
      `${r.counts.added} added, ${r.counts.updated} updated, ${r.counts.unavailable} unavailable, ${r.counts.dropped} dropped`,
      `index ${r.builtAt ?? 'built in (never refreshed here)'}; ${r.progress.done} of ${r.progress.total} drawings`,
      ...(r.lastFailure ? [`last upstream failure: ${r.lastFailure}`] : []),
    ].join('\n'),
})
