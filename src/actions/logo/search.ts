import { defineAction } from '../../core/action.js'
import { int, obj, oneOf, opt, outline, str } from '../../model/schema.js'

export const logoSearch = defineAction({
  id: 'logo.search',
  label: 'Search logos',
  doc: 'Searches the cached logo catalogue by company name, slug, alias or category: prefix matches first, then word starts, then substrings; brands before community marks. Each mark comes with its variants, recorded licence, brand site and guidelines, and whether its default reads on paper and on ink.',
  group: 'logo',
  milestone: 'M10',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    query: str({ minLength: 1, description: 'Company name, slug, alias or category.' }),
    limit: opt(int({ minimum: 1, maximum: 100, default: 20, description: 'Marks to answer (default 20).' })),
    kind: opt(oneOf(['symbol', 'wordmark'], { description: 'symbol, or wordmark (marks having any wordmark).' })),
    collection: opt(oneOf(['brands', 'all'], { default: 'brands', description: 'brands (brand and community marks) or all (adds cloud service icons and auth badges).' })),
    since: opt(str({ description: "A refresh's builtAt: answer from an index at least as new when the store holds one." })),
  }),
  output: outline({
    marks: 'per mark: slug, name, variants, licence with the seller sentence, brand site, guidelines, reads on paper and on ink',
    builtAt: 'the index date',
    lastFailure: 'the last upstream failure',
  }),
  cli: 'logo search <query> --limit <limit> --kind <kind> --collection <collection> --since <builtAt>',
  mcp: 'deck_logo_search',
  example: { query: 'github', limit: 5 },
})
