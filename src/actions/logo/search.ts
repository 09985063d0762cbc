import { defineAction } from '../../core/action.js'
import { arr, bool, int, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { result } from '../../model/results.js'

export const logoSearch = defineAction({
  id: 'logo.search',
  label: 'Search logos',
  doc: 'Searches the cached logo catalogue by company name, slug, alias or category: prefix matches first, then word starts, then substrings; brands before community marks. Each mark comes with its variants, recorded licence, brand site and guidelines, and whether its default reads on paper and on ink.',
  group: 'logo',
  milestone: 'M10',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({
    query: str({ minLength: 1, description: 'Company name, slug, alias or category.' }),
    limit: opt(int({ minimum: 1, maximum: 100, default: 20, description: 'Marks to answer (default 20).' })),
    kind: opt(oneOf(['symbol', 'wordmark'], { description: 'symbol, or wordmark (marks having any wordmark).' })),
    collection: opt(oneOf(['brands', 'all'], { default: 'brands', description: 'brands (brand and community marks) or all (adds cloud service icons and auth badges).' })),
    since: opt(str({ description: "A refresh's builtAt: answer from an index at least as new when the store holds one." })),
  }),
  output: result({
      marks: arr(
        obj({
          slug: str(),
          name: str(),
          collection: oneOf(['brands', 'community', 'cloud', 'auth'], { description: 'brands and community marks answer by default; cloud service icons and auth badges only with collection all.' }),
          variants: arr(oneOf(['default', 'mono', 'light', 'dark', 'wordmark', 'wordmarkLight', 'wordmarkDark'])),
          licence: obj({ recorded: str({ description: 'The licence as recorded.' }), sentence: str({ description: "The seller's sentence." }) }),
          site: nullable(str({ description: 'The brand site.' })),
          guidelines: nullable(str()),
          readsOn: obj({ paper: bool(), ink: bool() }, { description: 'Whether its default reads on paper and on ink.' }),
        }),
        { description: 'Per mark, ranked.' },
      ),
      builtAt: { ...nullable(str({ format: 'date-time' })), description: 'The index date.' },
      lastFailure: { ...nullable(str()), description: 'The last upstream failure: when, and what failed.' },
    }),
  cli: 'logo search <query> --limit <limit> --kind <kind> --collection <collection> --since <builtAt>',
  mcp: 'deck_logo_search',
  example: { query: 'github', limit: 5 },
  run: async (ctx, input: { query: string; limit?: number; kind?: 'symbol' | 'wordmark'; collection?: 'brands' | 'all'; since?: string }) => {
    const { currentIndex, describeMark, refreshState, searchLogos } = await import('../../media/logos.js')
    const loaded = await currentIndex(ctx.ws, { since: input.since })
    const ranked = searchLogos(loaded, input.query, { limit: input.limit ?? 20, kind: input.kind, collection: input.collection })
    const failure = refreshState(ctx.ws).lastFailure
    return {
      marks: ranked.map((r) => describeMark(loaded.index, r.mark)),
      builtAt: loaded.index.builtAt,
      lastFailure: failure ? `${failure.at}: ${failure.message}` : null,
    }
  },
  human: (r: { marks: { slug: string; name: string; variants: string[]; licence: { recorded: string } }[]; builtAt: string | null }) =>
    r.marks.length
      ? r.marks.map((m) => `${m.slug.padEnd(24)} ${m.name} (${m.variants.join(', ')}; licence ${m.licence.recorded})`).join('\n')
      : 'No mark matches.',
})
