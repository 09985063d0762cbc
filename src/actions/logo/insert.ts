import { defineAction } from '../../core/action.js'
import { BlockId, bool, Box, BR, nullable, obj, oneOf, opt, ref, SlideId, str } from '../../model/schema.js'
import { planned, written } from '../../model/results.js'

export const logoInsert = defineAction({
  id: 'logo.insert',
  label: 'Insert a logo',
  doc: "Stores a catalogue mark as an asset with role logo (PNG twins at 3x the logo size, the sanitized SVG as source, a source record naming the mark, licence and guidelines but never the catalogue's address) and places it on a slide, on every slide as the deck's logo, or in the brand kit's logo slots.",
  group: 'logo',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slug: str({ minLength: 1, description: 'Mark slug in the catalogue.' }),
    variant: opt(oneOf(['default', 'mono', 'light', 'dark', 'wordmark', 'wordmarkLight', 'wordmarkDark'], { description: 'The appearance rule chooses when absent.' })),
    slideId: opt({ ...SlideId, description: "Slide to place the logo on; 'none' stores the asset alone." }),
    box: opt({ ...Box, description: 'Box in sheet px; the logo size in the free area of the body slot when absent.' }),
    everySlide: opt(bool({ description: "Use as the deck's logo: the brand kit's mark and footer slots take the asset." })),
    kit: opt(bool({ description: 'Brand kit logo slots alone.' })),
    blockId: opt({ ...BlockId, description: "Replace this picture's asset, keeping the box." }),
    baseRevision: BR,
  }),
  output: planned(
    written({
      asset: { ...ref('Asset'), description: 'The logo asset with twins and source record.' },
      block: { ...nullable(ref('Block')), description: "The placed or updated picture block; null with slideId 'none' or kit." },
    }),
  ),
  cli: 'logo insert <slug> --variant <variant> --slide <slideId> --every-slide --kit --block <blockId>',
  mcp: 'deck_logo_insert',
  example: { slug: 'github', variant: 'mono', slideId: 'title-1', baseRevision: 3 },
})
