import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { BrandKit, type DeckDoc, cloneDoc } from '../../model/deck.js'
import { BR, nullable, obj } from '../../model/schema.js'
import { written } from '../../model/results.js'

export const deckBrandKit = defineAction({
  id: 'deck.brandKit',
  label: 'Set the brand kit',
  doc: "Sets or (with null) removes the deck's brand kit: name, logo asset (the mark), footer logo asset (drawn in every slide's footer band), footer text and palette overrides by token. Templates saved from the deck carry it; the renderer reads its palette over the theme's.",
  group: 'deck',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ kit: { ...nullable(BrandKit), description: 'The brand kit, or null to remove it.' }, baseRevision: BR }),
  output: written({ brandKit: { ...nullable(BrandKit), description: 'The kit now, or null.' } }),
  cli: 'deck brand-kit < kit.json',
  mcp: 'deck_set_brand_kit',
  stdinField: 'kit',
  example: { kit: { name: 'Acme', footer: 'Acme Corp · Confidential', palette: { accent: '#d9480f' } }, baseRevision: 0 },
  run: async (ctx, input: { kit: DeckDoc['manifest']['brandKit'] | null }) => {
    const doc = cloneDoc(await ctx.target())
    for (const slot of ['logo', 'footerLogo'] as const) {
      const asset = input.kit?.[slot]
      if (!asset || doc.manifest.brandKit?.[slot] === asset) continue
      // An asset is its record (assets/<id>.json) or its files (assets/<id>.<ext>).
      const { readdir } = await import('node:fs/promises')
      const { join } = await import('node:path')
      const files = await readdir(join(ctx.ws.deckDir(doc.manifest.id), 'assets')).catch(() => [] as string[])
      if (!files.some((f) => f.startsWith(`${asset}.`) || f.startsWith(`${asset}@`))) fail('not_found', `No asset "${asset}" in this deck.`, { pointer: `/kit/${slot}` })
    }
    if (input.kit) doc.manifest.brandKit = input.kit
    else delete doc.manifest.brandKit
    ctx.stage(doc.manifest.id, doc)
    return (docs: Map<string, DeckDoc | null>) => {
      const next = docs.get(doc.manifest.id)!.manifest
      return { brandKit: next.brandKit ?? null, revision: next.revision }
    }
  },
})
