import { defineAction } from '../../core/action.js'
import { bool, BR, obj, opt, outline, SlideIds, str } from '../../model/schema.js'

export const textReplaceAll = defineAction({
  id: 'text.replaceAll',
  label: 'Replace text everywhere',
  doc:
    'Finds and replaces in every Text of every block, title-slide fields, table cells and speaker notes, in one write. ' +
    'Case-insensitive unless matchCase; the result counts replacements.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    find: str({ minLength: 1, description: 'The text to find.' }),
    replace: str({ description: 'The replacement.' }),
    matchCase: opt(bool({ default: false, description: 'Match case; false (case-insensitive) when absent.' })),
    slideIds: opt({ ...SlideIds, description: 'Restrict to these slides; every slide when absent.' }),
    baseRevision: BR,
  }),
  output: outline({ replacements: 'How many replacements were made.', slides: 'Per changed slide, its id and count.', revision: 'The new revision.' }),
  cli: 'text replace <find> <replace> --match-case --slides <slideIds>',
  mcp: 'deck_replace_text',
  example: { find: 'Acme', replace: 'Globex', baseRevision: 3 },
})
