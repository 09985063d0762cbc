import { defineAction } from '../../core/action.js'
import { BR, obj, openObj, outline } from '../../model/schema.js'

/** Declared, not built: the brand kit belongs to the media milestone (M10) and answers 501 until then. */
export const deckBrandKit = defineAction({
  id: 'deck.brandKit',
  label: 'Set the brand kit',
  doc: "Sets the deck's brand kit: name, logo asset and footer slots, palette overrides. Templates saved from the deck carry it.",
  group: 'deck',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({ kit: openObj('Brand kit: name, logo asset id, palette overrides, footer text.'), baseRevision: BR }),
  output: outline({ brandKit: 'the kit now', revision: 'new revision' }),
  cli: 'deck brand-kit < kit.json',
  mcp: 'deck_set_brand_kit',
  example: { kit: { name: 'Acme' }, baseRevision: 3 },
})
