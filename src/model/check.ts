/**
 * Checking a deck document against the model, in parts: the manifest, the version log, each slide's
 * own fields, and each block against the schema of its kind. One validator for the whole document
 * is ~450 KB of generated code that every write would load; in parts, a write loads the manifest
 * validator and the few it touches (a rename: the manifest only). Pointers name the place in the
 * whole document (`/slides/<id>/blocks/<i>/...`).
 */
import { ditherIssue, type DitherField } from './dither.js'
import { validatorFor } from '../core/validate.js'
import { StudioError, type ErrorCode } from '../core/errors.js'
import { AnyBlock, BLOCK_KINDS, BLOCK_SCHEMAS, isPicturePlaceholder, StoredSlide } from './blocks.js'
import { BrandKit, ManifestSchema, SectionSchema, VersionSchema, type Block, type DeckDoc, type Slide } from './deck.js'
import { SHEET, type LayoutOption } from './layouts.js'
import { REGIONS, slotBoxes } from '../layout/boxes.js'
import { arr, BlockId, Colour, RESERVED_DECK_IDS, type Schema } from './schema.js'
import { blockTexts, parse, SLIDE_TEXT_FIELDS } from './text.js'
import { paletteTokens } from './themes.js'
import { slideKeys, slideMembership } from './slide-map.js'

export interface Issue {
  pointer: string
  message: string
  path?: string
  /** The error code a write refused for this issue answers with; `invalid_input` when absent. */
  code?: ErrorCode
}

/** What the model check needs beyond the document. */
export interface CheckContext {
  /**
   * The asset ids the deck holds once the write lands (docs/model.md#assets): when given, every
   * picture of a checked slide must name one. Called at most once, and only when a checked slide
   * holds a picture.
   */
  assets?: () => ReadonlySet<string> | Promise<ReadonlySet<string>>
}

/** A stored slide whose blocks are only required to be objects with a known kind (each is checked by its kind). */
export const SlideShell: Schema = {
  ...StoredSlide,
  properties: {
    ...(StoredSlide.properties as Record<string, Schema>),
    blocks: arr({ type: 'object', required: ['id', 'kind'], properties: { kind: { enum: [...BLOCK_KINDS] } } }),
  },
}

const member = (schema: Schema, name: string): Schema => (schema.properties as Record<string, Schema>)[name]

/**
 * The values of a document that name files, folders or ids, each under the model's own schema node
 * (the deck id, section ids, slide ids and the slide file names, layouts, block ids, the brand kit's
 * asset ids); every other member is left open. What `namingIssues` validates.
 */
export const NamingSchema: Schema = {
  type: 'object',
  properties: {
    manifest: {
      type: 'object',
      required: ['id', 'sections'],
      properties: {
        id: member(ManifestSchema, 'id'),
        sections: arr({ type: 'object', required: ['id', 'slides'], properties: { id: member(SectionSchema, 'id'), slides: member(SectionSchema, 'slides') } }),
        brandKit: { type: 'object', properties: { logo: member(BrandKit, 'logo'), footerLogo: member(BrandKit, 'footerLogo') } },
      },
    },
    slides: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['id', 'layout'],
        properties: { id: member(StoredSlide, 'id'), layout: member(StoredSlide, 'layout'), blocks: arr({ type: 'object', required: ['id'], properties: { id: BlockId } }) },
      },
    },
    files: arr(member(StoredSlide, 'id')),
  },
}

/** The parts and their validator keys (precompiled by scripts/build.ts under these names). */
export const MODEL_SCHEMAS: [string, Schema][] = [
  ['model.naming', NamingSchema],
  ['model.manifest', ManifestSchema],
  ['model.versions', arr(VersionSchema)],
  ['model.slide', SlideShell],
  ...BLOCK_KINDS.map((kind) => [`model.block.${kind}`, BLOCK_SCHEMAS[kind]] as [string, Schema]),
]
const SCHEMA_BY_KEY = new Map(MODEL_SCHEMAS)

/** A block kind from a document or an input: one of BLOCK_KINDS (never a name like `constructor`). */
export function isBlockKind(kind: unknown): kind is keyof typeof BLOCK_SCHEMAS {
  return typeof kind === 'string' && (BLOCK_KINDS as readonly string[]).includes(kind)
}

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** Whether a schema can hold a colour anywhere below it (so a walk can skip a section list, a table's rows). */
const holdsColourMemo = new WeakMap<Schema, boolean>()
function holdsColour(schema: Schema): boolean {
  let known = holdsColourMemo.get(schema)
  if (known === undefined) {
    holdsColourMemo.set(schema, false) // a recursive schema holds what its other branches hold
    known =
      schema.pattern === Colour.pattern ||
      Boolean(schema.items && holdsColour(schema.items as Schema)) ||
      Object.values((schema.properties as Record<string, Schema>) ?? {}).some(holdsColour)
    holdsColourMemo.set(schema, known)
  }
  return known
}

/** Every colour of a value, found through its schema: members whose schema is the Colour string (shadow.color included). */
function colourSites(schema: Schema, value: unknown, pointer: string, out: [string, string][]): void {
  if (!holdsColour(schema)) return
  if (typeof value === 'string') {
    if (schema.pattern === Colour.pattern) out.push([pointer, value])
    return
  }
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => colourSites(schema.items as Schema, item, `${pointer}/${i}`, out))
    return
  }
  if (!value || typeof value !== 'object' || !schema.properties) return
  for (const [key, member] of Object.entries(schema.properties as Record<string, Schema>)) {
    if (Object.hasOwn(value, key)) colourSites(member, (value as Record<string, unknown>)[key], `${pointer}/${escapeToken(key)}`, out)
  }
}

/** The issue of a colour the deck cannot draw: a token that is not in its palette (hex colours are checked by the schema). */
function colourIssue(value: string, pointer: string, palette: Set<string>, where = ''): Issue | undefined {
  if (value.startsWith('#') || palette.has(value)) return undefined
  return { pointer, message: `${where}"${value}" is neither a hex colour (#rrggbb, #rgb) nor a palette token of the deck (${[...palette].join(', ')})` }
}

/** The least width and height region options may leave a slot. */
export const MIN_SLOT = 48

/**
 * Issues of a slide's region options beyond their ranges (the schema's): an option the layout does
 * not take (freeform and single-region layouts take none), and options that leave a slot narrower
 * or lower than MIN_SLOT (or than the layout's own box, when that is smaller).
 */
function layoutOptionIssues(slide: Slide, prefix: string, issues: Issue[]): void {
  const options = slide.layoutOptions
  if (!options) return
  const regions = Object.hasOwn(REGIONS, slide.layout) ? REGIONS[slide.layout] : undefined
  let refused = false
  for (const name of Object.keys(options) as LayoutOption[]) {
    if (regions?.takes.includes(name)) continue
    refused = true
    const which = Object.entries(REGIONS).filter(([, r]) => r.takes.includes(name)).map(([layout]) => layout)
    issues.push({
      pointer: `${prefix}/layoutOptions/${name}`,
      message: `is an option layout "${slide.layout}" does not take: ${name} applies to ${which.join(', ')}`,
    })
  }
  if (refused || !regions) return
  const own = slotBoxes(slide.layout) as Record<string, { w: number; h: number }>
  for (const [slot, box] of Object.entries(slotBoxes(slide.layout, options))) {
    // A slot the layout itself draws lower (the 40 px footer band) keeps its own height.
    if (box.w >= Math.min(MIN_SLOT, own[slot].w) && box.h >= Math.min(MIN_SLOT, own[slot].h)) continue
    issues.push({ pointer: `${prefix}/layoutOptions`, message: `leaves slot "${slot}" ${box.w} × ${box.h} px; every slot keeps at least ${MIN_SLOT} × ${MIN_SLOT} (a smaller gap, or a ratio nearer 0.5)` })
    return
  }
}

/** Issues of the Texts of a block or slide fields: markup the reader refuses, and colours in marks the palette lacks. */
function textIssues(sites: { pointer: string; value: string }[], palette: Set<string> | undefined, issues: Issue[]): void {
  for (const site of sites) {
    let runs
    try {
      runs = parse(site.value, site.pointer)
    } catch (error) {
      if (!(error instanceof StudioError)) throw error
      issues.push({ pointer: site.pointer, message: error.message.replace(/\.$/, '') })
      continue
    }
    if (!palette) continue
    for (const run of runs) {
      for (const [mark, label] of [['color', 'the text colour'], ['highlight', 'the highlight colour']] as const) {
        const value = run.marks[mark]
        const issue = value === undefined ? undefined : colourIssue(value, site.pointer, palette, `Text markup: ${label} `)
        if (issue) {
          issues.push(issue)
          break
        }
      }
    }
  }
}

/** A chart draws one value per category: a series of another length is refused, named by its pointer. */
function chartIssues(block: Block, at: string, issues: Issue[]): void {
  const data = block.data as { categories: unknown[]; series: { name: string; values: unknown[] }[] }
  data.series.forEach((series, i) => {
    if (series.values.length !== data.categories.length) {
      issues.push({ pointer: `${at}/data/series/${i}/values`, message: `has ${series.values.length} values for ${data.categories.length} categories (series "${series.name}"): give one value per category, null for a gap` })
    }
  })
}

/** The Texts of a block with pointers from `prefix` (the block's own pointer). */
function blockTextSites(block: Block, prefix: string) {
  return blockTexts(block).map((site) => ({ pointer: `${prefix}${site.pointer}`, value: site.value }))
}

/** The Text fields of a slide itself (title, subtitle, byline, attribution). */
function slideTextSites(slide: Slide, prefix: string) {
  const record = slide as Record<string, unknown>
  return SLIDE_TEXT_FIELDS.filter((name) => typeof record[name] === 'string').map((name) => ({ pointer: `${prefix}/${name}`, value: record[name] as string }))
}

const NOT_A_MEMBER = 'is not a member of this object'
const LIST_HINT = 'items belong to a list: text.list (MCP deck_set_list, studio text list <slideId>#<blockId>) makes this block one, each paragraph an item'

/** What an unknown member of a block of a kind (`<kind>/<member>`) is for, where another action gives it. */
const MEMBER_HINTS: ReadonlyMap<string, string> = new Map([
  ['text/items', LIST_HINT],
  ['textbox/items', LIST_HINT],
])

async function check(key: string, value: unknown, prefix: string, issues: Issue[]): Promise<void> {
  const validate = await validatorFor(key, SCHEMA_BY_KEY.get(key)!)
  if (validate(value)) return
  for (const error of validate.errors ?? []) {
    const unknownMember = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty : undefined
    const hint = unknownMember !== undefined && error.instancePath === '' && key.startsWith('model.block.') ? MEMBER_HINTS.get(`${key.slice('model.block.'.length)}/${unknownMember}`) : undefined
    const detail =
      unknownMember !== undefined
        ? `${NOT_A_MEMBER}${hint ? `; ${hint}` : ''}`
        : error.keyword === 'enum'
          ? `${error.message}: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
          : (error.message ?? 'is invalid')
    issues.push({ pointer: `${prefix}${error.instancePath}${unknownMember !== undefined ? `/${escapeToken(unknownMember)}` : ''}`, message: detail, path: error.schemaPath })
  }
}

/**
 * The issues of a document; `slides` limits the slide checks to those ids (the ones a write changed).
 * Cross-references (sections naming slides, unique ids) are checked for the whole document.
 *
 * Beyond the schemas, the rules every write must keep (docs/model.md), checked here once so that
 * every action reaches them: every Text is markup the reader accepts (no `<script>`, no
 * `javascript:` link); every colour is a hex colour or a palette token of the deck (its theme's and
 * its brand kit's); a slide's region options are ones its layout takes and leave every slot room;
 * block ids are unique on their slide (`id_taken`); a chart's series hold one value per category;
 * guides lie inside the sheet;
 * and, given `context.assets`, every picture that names an asset names one the deck holds
 * (`not_found`); a picture placeholder (no `asset`) carries no dither.
 */
export async function documentIssues(doc: DeckDoc, slides?: Iterable<string>, context: CheckContext = {}): Promise<Issue[]> {
  const issues: Issue[] = []
  await check('model.manifest', doc.manifest, '/manifest', issues)
  // Every write of a deck (an unpacked bundle, a pull, a create) passes here before anything lands.
  if (RESERVED_DECK_IDS.has(doc.manifest.id)) issues.push({ pointer: '/manifest/id', message: `is "${doc.manifest.id}", a reserved name (decks/${doc.manifest.id} is not a deck's folder); choose another deck id` })
  const palette = paletteTokens(doc.manifest)
  if (!issues.length) {
    const colours: [string, string][] = []
    colourSites(ManifestSchema, doc.manifest, '/manifest', colours)
    for (const [pointer, value] of colours) {
      const issue = colourIssue(value, pointer, palette)
      if (issue) issues.push(issue)
    }
    for (const axis of ['vertical', 'horizontal'] as const) {
      const max = axis === 'vertical' ? SHEET.width : SHEET.height
      doc.manifest.guides?.[axis]?.forEach((at, i) => {
        if (!Number.isFinite(at) || at < 0 || at > max) issues.push({ pointer: `/manifest/guides/${axis}/${i}`, message: `is ${at}: a ${axis} guide lies inside the sheet, 0 to ${max}` })
      })
    }
  }
  await check('model.versions', doc.versions, '/versions', issues)
  let assets: ReadonlySet<string> | undefined
  const assetIds = async () => (assets ??= await context.assets!())
  const exists = slideMembership(doc.slides)
  for (const id of slides ?? slideKeys(doc.slides)) {
    if (!exists(id)) continue
    const slide = doc.slides[id]
    const prefix = `/slides/${id}`
    const count = issues.length
    await check('model.slide', slide, prefix, issues)
    if (issues.length > count) continue
    const colours: [string, string][] = []
    colourSites(StoredSlide, slide, prefix, colours)
    layoutOptionIssues(slide, prefix, issues)
    textIssues(slideTextSites(slide, prefix), palette, issues)
    const seen = new Set<string>()
    for (const [i, block] of (slide.blocks ?? []).entries()) {
      const at = `${prefix}/blocks/${i}`
      if (seen.has(block.id)) issues.push({ pointer: `${at}/id`, message: `block id "${block.id}" is used twice on the slide`, code: 'id_taken' })
      seen.add(block.id)
      if (!isBlockKind(block.kind)) continue
      const held = issues.length
      await check(`model.block.${block.kind}`, block, at, issues)
      if (issues.length > held) continue
      colourSites(BLOCK_SCHEMAS[block.kind], block, at, colours)
      textIssues(blockTextSites(block, at), palette, issues)
      if (isPicturePlaceholder(block) && block.dither !== undefined) {
        issues.push({ pointer: `${at}/dither`, message: 'is on a picture placeholder, which has no picture to screen yet; write /asset first' })
      } else if (block.kind === 'picture' && block.dither && typeof block.dither === 'object') {
        const issue = ditherIssue(block.dither as DitherField)
        if (issue) issues.push({ pointer: `${at}/dither${issue.pointer}`, message: issue.message })
      }
      if (block.kind === 'chart') chartIssues(block, at, issues)
      if (block.kind === 'picture' && !isPicturePlaceholder(block) && context.assets && !(await assetIds()).has(String(block.asset))) {
        issues.push({ pointer: `${at}/asset`, message: `names asset "${block.asset}", which deck "${doc.manifest.id}" does not hold (no assets/${block.asset}.json nor a file of it); add it first`, code: 'not_found' })
      }
    }
    for (const [pointer, value] of colours) {
      const issue = colourIssue(value, pointer, palette)
      if (issue) issues.push(issue)
    }
  }
  const placed = new Map<string, number>()
  // A manifest of another shape has its issue from the schema above; the walk skips what is not a list.
  const sections = Array.isArray(doc.manifest.sections) ? doc.manifest.sections : []
  sections.forEach((section, i) =>
    (Array.isArray(section?.slides) ? section.slides : []).forEach((id, j) => {
      if (!exists(id)) issues.push({ pointer: `/manifest/sections/${i}/slides/${j}`, message: `names slide "${id}", which has no file` })
      placed.set(id, (placed.get(id) ?? 0) + 1)
    }),
  )
  for (const id of slides ?? slideKeys(doc.slides)) {
    if (!exists(id)) continue
    if (!placed.has(id)) issues.push({ pointer: `/slides/${id}`, message: 'is in no section' })
    if ((placed.get(id) ?? 0) > 1) issues.push({ pointer: `/slides/${id}`, message: 'appears in more than one place in the sections' })
    if (doc.slides[id].id !== id) issues.push({ pointer: `/slides/${id}/id`, message: `does not match its file name (${id}.json)` })
  }
  return issues
}

/**
 * The issues of the values of a document (read from anywhere: another branch, a bundle) that name
 * files, folders or ids, checked with the model's own rules (NamingSchema) before any of them names
 * a file: the deck id, section ids, slide ids (each slide under its own id), layouts, block ids, the
 * brand kit's asset ids, and `files`, the slide ids the document's slide files are named by. Each
 * issue's message quotes the offending value (JSON-escaped: a NUL or a newline shows as such).
 */
export async function namingIssues(doc: Partial<DeckDoc>, files: Iterable<string> = []): Promise<Issue[]> {
  const issues: Issue[] = []
  const value = { ...(doc.manifest === undefined ? {} : { manifest: doc.manifest }), ...(doc.slides === undefined ? {} : { slides: doc.slides }), files: [...files] }
  const validate = await validatorFor('model.naming', NamingSchema)
  if (!validate(value)) {
    for (const error of validate.errors ?? []) {
      const found = valueAtPointer(value, error.instancePath)
      const detail = error.keyword === 'enum' ? `is not one of the ${(error.params as { allowedValues: unknown[] }).allowedValues.length} allowed values` : error.message ?? 'is invalid'
      issues.push({ pointer: error.instancePath, message: `${found === undefined ? '' : `${quoteValue(found)} `}${detail}`, path: error.schemaPath })
    }
    return issues
  }
  for (const id of Object.keys(doc.slides ?? {})) {
    const slide = doc.slides![id]
    if (slide.id !== id) issues.push({ pointer: `/slides/${escapeToken(id)}/id`, message: `${quoteValue(slide.id)} is held under another slide id, ${quoteValue(id)}` })
  }
  return issues
}

function quoteValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function valueAtPointer(root: unknown, pointer: string): unknown {
  let node = root
  for (const token of pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

/** What an action's input validator checks of a block: an object with an id and a known kind. */
export const BlockShell: Schema = {
  type: 'object',
  required: ['id', 'kind'],
  properties: { id: { type: 'string', minLength: 1 }, kind: { enum: [...BLOCK_KINDS] } },
}

function isAnyBlock(node: Schema): boolean {
  return node === AnyBlock || (node.oneOf !== undefined && node.oneOf === AnyBlock.oneOf)
}

/**
 * The schema an action's input is validated with: its declared schema, with every full block
 * schema replaced by BlockShell. A slide document holds blocks in six variants; inlined, the
 * generated validator of slide.insert was 7 MB that every such call loaded. The blocks are checked
 * in full, by kind, when the engine checks the resulting document (pointers under /slides/<id>).
 */
const shallow = new WeakMap<Schema, Schema>()
export function validationSchema(schema: Schema): Schema {
  const hit = shallow.get(schema)
  if (hit) return hit
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (!node || typeof node !== 'object') return node
    if (isAnyBlock(node as Schema)) return { ...BlockShell, ...((node as Schema).description ? { description: (node as Schema).description } : {}) }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]))
  }
  const result = walk(schema) as Schema
  shallow.set(schema, result)
  return result
}

/**
 * Checks blocks of an input in full, by kind, answering with the pointer of the input
 * (`/slide/blocks/2/text`) rather than of the resulting document; input validation only saw their
 * id and kind (validationSchema).
 */
export async function checkInputBlocks(blocks: unknown, prefix: string): Promise<void> {
  if (!Array.isArray(blocks)) return
  for (const [i, block] of blocks.entries()) await checkInputBlock(block, `${prefix}/${i}`)
}

export async function checkInputBlock(block: unknown, pointer: string): Promise<void> {
  const kind = (block as { kind?: string })?.kind
  if (!isBlockKind(kind)) return
  const issues: Issue[] = []
  await check(`model.block.${kind}`, block, pointer, issues)
  // The markup rule of documentIssues, named by the pointer of the input.
  if (!issues.length) textIssues(blockTextSites(block as Block, pointer), undefined, issues)
  if (issues.length) {
    const { fail } = await import('../core/errors.js')
    const first = issues[0]
    const code = first.message.startsWith(NOT_A_MEMBER) ? 'unknown_field' : 'invalid_input'
    fail(code, `${first.pointer} ${first.message}.`, { pointer: first.pointer, path: first.path })
  }
}
