/**
 * Block kinds and their properties: the schemas of the slide model (docs/model.md documents each).
 *
 * Every block has `id` and `kind`. A block on a slotted layout carries `slot` (and no `pos`); a
 * block on the freeform canvas carries `pos` (a box in sheet pixels) and `z` (its stacking rank,
 * 0 at the back, dense). The common object properties (group, angle, flip, alt, shadow, locked,
 * transparency) apply to every kind; text properties to the kinds that hold text.
 *
 * Text values are "Text": a string with inline marks in a small HTML subset (src/model/text.ts):
 * <i> <u> <s> <sup> <sub> <span style="color:…;background:…;font-size:…px"> <a href="…">;
 * "\n" separates paragraphs.
 */
import { LAYOUTS, SLOTS } from './layouts.js'
import { anyOf, arr, bool, Box, Colour, int, lit, num, obj, oneOf, opt, str, type Schema, BlockId, SlideId, unknown, openObj } from './schema.js'
import { DitherSchema } from './dither.js'

export const BLOCK_KINDS = ['text', 'heading', 'list', 'table', 'picture', 'shape', 'line', 'chart', 'textbox', 'shader', 'html'] as const
export type BlockKind = (typeof BLOCK_KINDS)[number]

/**
 * A picture placeholder: a picture block that names no asset yet (what slide.new puts in a picture
 * slide's media slot). It draws nothing anywhere; block.set /asset fills it and keeps its id.
 */
export const isPicturePlaceholder = (block: { kind: string; asset?: unknown }): boolean => block.kind === 'picture' && block.asset === undefined

/** What a refusal says about an action that needs a picture's asset, asked of a placeholder. */
export const placeholderHint = (blockId: string): string =>
  `Picture "${blockId}" is an empty placeholder with no picture yet: add one with asset.add, then block.set /asset on this block.`

/** Kinds whose main content is a Text at /text. */
export const TEXT_KINDS = new Set<string>(['text', 'heading', 'textbox', 'shape'])

/** The 15 list presets: marker glyph families for bullets and numbering schemes for numbers. */
export const LIST_PRESETS = [
  'disc', 'circle', 'square', 'dash', 'arrow', 'check', 'star', 'diamond',
  'decimal', 'decimal-paren', 'lower-alpha', 'upper-alpha', 'lower-roman', 'upper-roman', 'rule',
] as const

/** Closed shape presets a picture can be masked with (and a shape drawn as). */
export const MASKS = ['rect', 'rounded', 'ellipse', 'circle', 'triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star', 'arrow', 'chevron', 'heart'] as const

export const SHAPES = [...MASKS, 'line'] as const

export const INDENT_STEP = 64
export const GRID = 8
export const DUPLICATE_OFFSET = 16

export const Text: Schema = str({ maxLength: 20000, description: 'Text with inline marks (<i>, <u>, <s>, <sup>, <sub>, <span style>, <a href>); \\n separates paragraphs.' })

export const Flip = obj({ h: opt(bool()), v: opt(bool()) }, { description: 'Mirrored horizontally (h) and/or vertically (v).' })

export const Shadow = obj(
  {
    color: opt(Colour),
    opacity: opt(num({ minimum: 0, maximum: 1 })),
    angle: opt(num({ minimum: 0, exclusiveMaximum: 360 })),
    distance: opt(num({ minimum: 0, maximum: 200 })),
    blur: opt(num({ minimum: 0, maximum: 200 })),
  },
  { description: 'Drop shadow; absent members take the defaults (ink, 0.3, 45°, 8 px, 16 px).' },
)
export const SHADOW_DEFAULTS = { color: 'ink', opacity: 0.3, angle: 45, distance: 8, blur: 16 } as const

export const Spacing = obj(
  { line: opt(num({ minimum: 0.5, maximum: 4 })), before: opt(num({ minimum: 0, maximum: 400 })), after: opt(num({ minimum: 0, maximum: 400 })) },
  { description: 'Line spacing factor and space before/after paragraphs (px).' },
)

export const Crop = obj(
  {
    left: opt(num({ minimum: 0, maximum: 0.99 })),
    right: opt(num({ minimum: 0, maximum: 0.99 })),
    top: opt(num({ minimum: 0, maximum: 0.99 })),
    bottom: opt(num({ minimum: 0, maximum: 0.99 })),
  },
  { description: 'Fractions trimmed from each side of the picture.' },
)

export const Attachment = obj(
  { block: BlockId, side: opt(oneOf(['top', 'right', 'bottom', 'left', 'center'])) },
  { description: 'A connector end attached to a block (centre of a side).' },
)

export const Point = obj({ x: num(), y: num() })

export const ListItem = obj({ text: Text, level: opt(int({ minimum: 1, maximum: 9 })) })

const common = {
  id: BlockId,
  slot: opt(oneOf(SLOTS, { description: 'The slot of a slotted layout.' })),
  pos: opt({ ...Box, description: 'The box on the canvas (sheet px); freeform slides only.' }),
  z: opt(int({ minimum: 0, description: 'Stacking rank on the canvas, 0 at the back.' })),
  group: opt(str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 60, description: 'Group tag shared by grouped objects.' })),
  angle: opt(num({ minimum: 0, exclusiveMaximum: 360, description: 'Rotation, degrees clockwise.' })),
  flip: opt(Flip),
  alt: opt(str({ maxLength: 2000, description: 'Alternative text (shape, chart, line, text box; pictures keep it on the asset).' })),
  shadow: opt(Shadow),
  locked: opt(bool({ description: 'Locked against pointer edits in the editor.' })),
  transparency: opt(num({ minimum: 0, maximum: 1 })),
  link: opt(anyOf([obj({ url: str({ pattern: '^(https?:|mailto:)' }) }), obj({ slide: SlideId })])),
}

const textProps = {
  autofit: opt(oneOf(['none', 'shrink', 'grow'], { description: 'grow: the box grows to fit (positioned blocks); shrink: the text size steps down.' })),
  columns: opt(int({ minimum: 1, maximum: 3 })),
  spacing: opt(Spacing),
  indent: opt(num({ minimum: 0, maximum: 1024, description: 'Left indent, px (steps of 64).' })),
  size: opt(num({ minimum: 6, maximum: 400, description: 'Text size, px.' })),
  align: opt(oneOf(['left', 'center', 'right', 'justify'])),
  valign: opt(oneOf(['top', 'middle', 'bottom'])),
  color: opt(Colour),
}

function kind(name: string, props: Record<string, Schema>, description: string): Schema {
  return obj({ kind: lit(name), ...common, ...props }, { description })
}

export const BLOCK_SCHEMAS: Record<BlockKind, Schema> = {
  text: kind('text', { text: Text, ...textProps }, 'A paragraph block.'),
  heading: kind('heading', { text: Text, level: opt(int({ minimum: 1, maximum: 3 })), ...textProps }, 'A heading (the title slot holds one).'),
  list: kind(
    'list',
    {
      items: arr(ListItem),
      marker: opt(oneOf(['rule', 'bullet', 'number'])),
      preset: opt(oneOf(LIST_PRESETS)),
      start: opt(int({ minimum: 0 })),
      ...textProps,
    },
    'A list: items with levels 1 to 9, a marker and one of 15 presets.',
  ),
  table: kind(
    'table',
    {
      rows: arr(arr(Text), { description: 'Rows of cells (Text).' }),
      header: opt(bool({ description: 'The first row is a header row.' })),
      columnWidths: opt(arr(num({ minimum: 0 }))),
      columnAlign: opt(arr(oneOf(['auto', 'left', 'center', 'right']), { description: 'Per column: auto (the default: right when every body cell is a number, as 12.5, -3, $40, 9%, 2.4M; left otherwise), left, center or right.' })),
      ...textProps,
    },
    'A table of Text cells.',
  ),
  picture: kind(
    'picture',
    {
      asset: opt(str({ minLength: 1, description: 'Asset id under assets/; absent on a picture placeholder (docs/model.md#picture-placeholders), which draws nothing until block.set writes /asset.' })),
      crop: opt(Crop),
      mask: opt(oneOf(MASKS)),
      brightness: opt(num({ minimum: -1, maximum: 1 })),
      contrast: opt(num({ minimum: -1, maximum: 1 })),
      fit: opt(oneOf(['cover', 'contain'])),
      cropAnchor: opt(Point),
      aspect: opt(num({ exclusiveMinimum: 0 })),
      caption: opt(Text),
      dither: opt(DitherSchema),
      background: opt(bool({ description: 'The covering picture at the bottom of the stack.' })),
    },
    'A picture of an asset; without `asset`, the empty picture placeholder a new picture slide gets.',
  ),
  shape: kind(
    'shape',
    { shape: oneOf(SHAPES), fill: opt(Colour), stroke: opt(Colour), strokeWidth: opt(num({ minimum: 0, maximum: 100 })), text: opt(Text), ...textProps },
    'A shape, optionally holding text.',
  ),
  line: kind(
    'line',
    {
      from: opt(Point),
      to: opt(Point),
      start: opt(Attachment),
      end: opt(Attachment),
      stroke: opt(Colour),
      strokeWidth: opt(num({ minimum: 0, maximum: 100 })),
      arrow: opt(oneOf(['none', 'start', 'end', 'both'])),
      connector: opt(bool({ description: 'A connector: its ends follow the blocks they attach to.' })),
    },
    'A line or connector.',
  ),
  chart: kind(
    'chart',
    {
      chartType: oneOf(['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter']),
      data: obj({ categories: arr(str()), series: arr(obj({ name: str(), values: arr(anyOf([num(), { type: 'null' }])) })) }),
      stacked: opt(bool()),
      title: opt(Text),
    },
    'A chart with categories and series.',
  ),
  textbox: kind('textbox', { text: Text, ...textProps }, 'A positioned text box (canvas).'),
  shader: kind(
    'shader',
    {
      materialId: str({ pattern: '^(paper|proto):[a-z0-9-]+$' }),
      preset: opt(str()),
      controls: opt(openObj('Common controls.')),
      uniforms: opt(openObj('Resolved uniforms.')),
      anchor: opt(num({ minimum: 0, description: 'Frame time, ms.' })),
      motion: opt(oneOf(['play', 'still'])),
      twoTone: opt(bool()),
      plate: opt(oneOf(['lower-left', 'lower-right', 'upper-left'])),
      asset: opt(str()),
    },
    'A shader material block.',
  ),
  html: kind('html', { html: str({ maxLength: 100000 }) }, "Raw HTML: rendered only where the deck's allowHtmlBlocks setting and the htmlBlocks switch allow it."),
}

/** Any block, discriminated on `kind` (ajv's discriminator: errors name the members of the kind given). */
export const AnyBlock: Schema = {
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: BLOCK_KINDS.map((k) => BLOCK_SCHEMAS[k]),
  description: `A block: ${BLOCK_KINDS.join(', ')}.`,
}

/**
 * The region options of a layout (a slide's `layoutOptions`, slide.setLayout's `layout` members
 * beyond `type`). One definition: the action's input and the stored slide use these schemas. Which
 * layouts take which option is geometry's (REGIONS in src/layout/boxes.ts), checked by the model.
 */
export const LAYOUT_OPTION_SCHEMAS = {
  ratio: num({ minimum: 0.2, maximum: 0.8, description: "The first region's share of the room the gaps leave, 0.2 to 0.8 (0.5: equal columns); the layout's own when absent." }),
  gap: int({ minimum: 0, maximum: 160, multipleOf: GRID, description: "Space between regions in sheet px, 0 to 160 on the 8 px grid; the layout's own when absent." }),
  layout: oneOf(['columns', 'rows'], { description: 'Regions side by side (columns) or stacked (rows); columns when absent. two-columns, three-columns and comparison only.' }),
} satisfies Record<string, Schema>

export const LayoutOptionsSchema: Schema = obj(
  { ratio: opt(LAYOUT_OPTION_SCHEMAS.ratio), gap: opt(LAYOUT_OPTION_SCHEMAS.gap), layout: opt(LAYOUT_OPTION_SCHEMAS.layout) },
  { description: 'Region options of the layout (docs/layouts.md#region-options); absent members take the layout\'s own.' },
)

/** The six slide document variants (slide.insert). */
const slideCommon = {
  id: opt(SlideId),
  notes: opt(str({ maxLength: 50000 })),
  skip: opt(bool()),
  background: opt(Colour),
}
export const SLIDE_VARIANTS: Record<string, Schema> = {
  title: obj({ ...slideCommon, layout: lit('title'), title: Text, subtitle: opt(Text), byline: opt(Text), blocks: opt(arr(AnyBlock)) }, { description: 'Title slide: its own title, subtitle and byline fields.' }),
  section: obj({ ...slideCommon, layout: lit('section'), title: Text, subtitle: opt(Text), blocks: opt(arr(AnyBlock)) }, { description: 'Section header.' }),
  content: obj(
    { ...slideCommon, layout: oneOf(LAYOUTS.filter((l) => !['title', 'section', 'freeform', 'picture-full', 'quote', 'big-number'].includes(l))), layoutOptions: opt(LayoutOptionsSchema), blocks: arr(AnyBlock) },
    { description: 'A slotted content layout: blocks filed into slots.' },
  ),
  picture: obj({ ...slideCommon, layout: lit('picture-full'), blocks: arr(AnyBlock) }, { description: 'Full-bleed picture.' }),
  statement: obj({ ...slideCommon, layout: oneOf(['quote', 'big-number']), blocks: arr(AnyBlock), attribution: opt(Text) }, { description: 'Quote or big number.' }),
  freeform: obj({ ...slideCommon, layout: lit('freeform'), blocks: arr(AnyBlock) }, { description: 'The canvas: every block positioned (pos, z).' }),
}
export const SlideDocument: Schema = { anyOf: Object.values(SLIDE_VARIANTS), description: 'A slide document: one of six variants (title, section, content, picture, statement, freeform).' }

/** A slide as stored in slides/<id>.json: every field any variant may carry, id required. */
export const StoredSlide: Schema = obj(
  {
    id: SlideId,
    layout: oneOf(LAYOUTS),
    layoutOptions: opt(LayoutOptionsSchema),
    title: opt(Text),
    subtitle: opt(Text),
    byline: opt(Text),
    attribution: opt(Text),
    blocks: opt(arr(AnyBlock)),
    notes: opt(str({ maxLength: 50000 })),
    skip: opt(bool()),
    background: opt(Colour),
  },
  { description: 'A stored slide (docs/model.md).' },
)

export { unknown }
