import { defineAction } from '../../core/action.js'
import { anyOf, arr, bool, BR, Colour, int, nullable, num, obj, oneOf, opt, outline, Pointer, SlideId, str } from '../../model/schema.js'
import { defined, gather, given, range, targetAsList, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'

/** The 15 list presets (names are ours; the spec gives only the count). */
export const LIST_PRESETS = [
  'disc', 'circle', 'square', 'dash', 'arrow', 'check', 'star',
  'decimal', 'decimal-paren', 'decimal-zero', 'lower-alpha', 'upper-alpha', 'lower-roman', 'upper-roman', 'rule',
] as const

const textPath = { ...Pointer, description: 'Pointer of the Text inside the block, e.g. /text.' }
const textRange = arr(int({ minimum: 0 }), {
  minItems: 2,
  maxItems: 2,
  description: 'Start and end in the plain text, one character per paragraph break.',
})
const items = arr(int({ minimum: 0 }), { minItems: 1, uniqueItems: true, description: 'List items (0-based) the write applies to; all when unset.' })
const MARK_SWITCHES = ['italic', 'underline', 'strike', 'superscript', 'subscript'] as const
const MARK_VALUES = ['color', 'highlight', 'px'] as const

export const textStyle = defineAction({
  id: 'text.style',
  label: 'Style text',
  doc:
    'Sets or clears inline marks over a range of one Text (italic, underline, strike, superscript, subscript, text colour, highlight colour, size in px). ' +
    'One text.replace of the whole Text; the result returns the new markup.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: textPath,
    range: textRange,
    marks: obj(
      {
        italic: opt(bool({ description: 'true sets, false clears.' })),
        underline: opt(bool({ description: 'true sets, false clears.' })),
        strike: opt(bool({ description: 'true sets, false clears.' })),
        superscript: opt(bool({ description: 'true sets, false clears.' })),
        subscript: opt(bool({ description: 'true sets, false clears.' })),
        color: opt({ ...nullable(Colour), description: 'Text colour; null clears.' }),
        highlight: opt({ ...nullable(Colour), description: 'Highlight colour; null clears.' }),
        size: opt({ ...nullable(num({ minimum: 1, maximum: 800 })), description: 'Size in px; null clears.' }),
      },
      { description: 'Marks to set or clear; absent marks are left as they are.' },
    ),
    baseRevision: BR,
  }),
  output: outline({ text: 'The new markup of the Text.', block: 'The block after the write.', revision: 'The new revision.' }),
  cli: 'text style <slideId>#<blockId> <path> --range <range> --italic --underline --strike --superscript --subscript --color <color> --highlight <highlight> --size <px>',
  mcp: 'deck_style_text',
  cliInput: (parsed) => {
    const marks = defined({ ...gather(parsed, MARK_SWITCHES, {}, false), ...gather(parsed, MARK_VALUES, { px: 'size' }) })
    return { ...without(parsed.input, [...MARK_SWITCHES, ...MARK_VALUES, 'size', 'marks']), range: range(given(parsed, 'range')), marks }
  },
  example: { slideId: 'title-body-2', blockId: 'b2', path: '/text', range: [0, 5], marks: { italic: true, color: 'accent' }, baseRevision: 3 },
})

export const textList = defineAction({
  id: 'text.list',
  label: 'Set list',
  doc:
    'Sets the list marker (rule, bullet, number) and preset of a block, or the level of its items (1 to 9, or one step with levelBy). ' +
    'A paragraph or text box converts to a list first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    marker: opt(oneOf(['rule', 'bullet', 'number'], { description: 'The list marker.' })),
    preset: opt(oneOf(LIST_PRESETS, { description: 'One of the 15 list presets.' })),
    items: opt({ ...items, description: 'Items a level write applies to; all when unset.' }),
    level: opt(int({ minimum: 1, maximum: 9, description: 'Item level, 1 to 9.' })),
    levelBy: opt(oneOf([1, -1], { description: 'Step the level in (1) or out (-1).' })),
    baseRevision: BR,
  }),
  output: outline({ block: 'The list block after the write.', revision: 'The new revision.' }),
  cli: 'text list <slideId>#<blockId> --marker <marker> --preset <preset> --items <items> --level <level>',
  mcp: 'deck_set_list',
  example: { slideId: 'title-body-2', blockId: 'b2', marker: 'number', preset: 'decimal', baseRevision: 3 },
})

const spacing = (what: string) => opt({ ...nullable(num({ minimum: 0, maximum: 400 })), description: `${what} in px; null clears.` })

export const textSpacing = defineAction({
  id: 'text.spacing',
  label: 'Set spacing',
  doc: 'Sets the line spacing factor and the space before and after paragraphs (px) of text blocks; null clears one.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    line: opt({ ...nullable(num({ minimum: 0.5, maximum: 4 })), description: 'Line spacing factor; null clears.' }),
    before: spacing('Space before paragraphs'),
    after: spacing('Space after paragraphs'),
    baseRevision: BR,
  }),
  output: outline({ blocks: 'The changed blocks.', revision: 'The new revision.' }),
  cli: 'text spacing <slideId>#<blockId> --line <line> --before <before> --after <after>',
  mcp: 'deck_set_spacing',
  cliInput: (parsed) => targetAsList(parsed),
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', blockIds: ['b2'], line: 1.2, after: 12, baseRevision: 3 },
})

export const textColumns = defineAction({
  id: 'text.columns',
  label: 'Set text columns',
  doc: 'Flows the text of blocks in 1, 2 or 3 columns.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockIds, columns: oneOf([1, 2, 3], { description: 'Number of columns, 1 to 3.' }), baseRevision: BR }),
  output: outline({ blocks: 'The changed blocks.', revision: 'The new revision.' }),
  cli: 'text columns <slideId>#<blockId> <columns>',
  mcp: 'deck_set_columns',
  cliInput: (parsed) => targetAsList(parsed),
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', blockIds: ['b2'], columns: 2, baseRevision: 3 },
})

export const textIndent = defineAction({
  id: 'text.indent',
  label: 'Indent text',
  doc:
    'Steps the left indent of text blocks in or out by 64 px, or sets it in px. On a list block with items the items\' levels step instead.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    by: opt(oneOf([1, -1], { description: 'One 64 px step in (1) or out (-1).' })),
    to: opt(num({ minimum: 0, maximum: 1600, description: 'The indent in px.' })),
    items: opt({ ...items, description: 'List items whose level steps instead.' }),
    baseRevision: BR,
  }),
  output: outline({ blocks: 'The changed blocks.', revision: 'The new revision.' }),
  cli: 'text indent <slideId>#<blockId> --by <by> --to <to> --items <items>',
  mcp: 'deck_set_indent',
  cliInput: (parsed) => targetAsList(parsed),
  example: { slideId: 'title-body-2', blockIds: ['b2'], by: 1, baseRevision: 3 },
})

export const textLink = defineAction({
  id: 'text.link',
  label: 'Link text',
  doc:
    'Sets a hyperlink over a range of one Text, to a web or mail address or to a slide of the deck; null clears any link over the range. ' +
    'One text.replace of the whole Text; the result returns the new markup.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: textPath,
    range: textRange,
    link: {
      ...nullable(
        anyOf([
          obj({ url: str({ pattern: '^(https?://|mailto:)', maxLength: 2048, description: 'An http, https or mailto address.' }) }),
          obj({ slide: { ...SlideId, description: 'A slide of this deck.' } }),
        ]),
      ),
      description: '{ url } or { slide }, or null to clear the link over the range.',
    },
    baseRevision: BR,
  }),
  output: outline({ text: 'The new markup of the Text.', block: 'The block after the write.', revision: 'The new revision.' }),
  cli: 'text link <slideId>#<blockId> <path> --range <range> --url <url> --to-slide <slide> --clear',
  mcp: 'deck_link_text',
  cliInput: (parsed) => {
    const url = given(parsed, 'url')
    const slide = given(parsed, 'slide')
    const link = given(parsed, 'clear') ? null : url !== undefined ? { url } : slide !== undefined ? { slide } : null
    return { ...without(parsed.input, ['url', 'slide', 'clear']), range: range(given(parsed, 'range')), link }
  },
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', blockId: 'b2', path: '/text', range: [10, 24], link: { url: 'https://example.com/report' }, baseRevision: 3 },
})
