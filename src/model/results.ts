/**
 * Result schemas: what every action answers, as JSON Schema an agent can rely on.
 *
 * A result is a closed object: every member is listed with its type, and members not wrapped in
 * `opt` are always present. A member a handler adds without declaring it fails the contract test
 * (test/contract), which validates every example's result against its schema on every transport.
 *
 * Policy for mutating actions: the engine adds `revision` (the new revision of the deck the call
 * wrote) to every object result that lacks one, so `written()` declares it on every mutating
 * result — required where the write always makes a deck revision, `opt` where it may not (a
 * template, the workspace file, a lease).
 *
 * Documents inside results (slides, blocks, the deck) are shared definitions, referenced with
 * `ref()` and attached to each result as `$defs`, so one schema stands alone (MCP `outputSchema`,
 * GET /api/actions/{id}) and OpenAPI lifts the definitions into `components/schemas` once.
 * Blocks are typed by the members every kind shares; the members of each kind are left open here
 * (docs/model.md; the model check holds them on every write and block.insert's input spells each
 * kind out): eleven kinds inlined into every slide-bearing result made tools/list megabytes long.
 */
import { BLOCK_KINDS, BLOCK_SCHEMAS, Flip, Point, StoredSlide, Text } from './blocks.js'
import { ManifestSchema, SectionSchema, VersionSchema } from './deck.js'
import { arr, BlockId, Box, Colour, int, num, obj, oneOf, openObj, opt, ref, str, type Schema } from './schema.js'

type Props = Parameters<typeof obj>[0]

/** The members every block kind has that results type (the rest are the members of its kind). */
const SHARED_BLOCK_MEMBERS = ['id', 'slot', 'pos', 'z', 'group', 'locked'] as const

function sharedBlockMembers(): Record<string, Schema> {
  const all = BLOCK_SCHEMAS.text.properties as Record<string, Schema>
  return Object.fromEntries(SHARED_BLOCK_MEMBERS.map((key) => [key, all[key]]))
}

/** A stored slide's members, with Text and colour values as references to one definition each. */
function slideMembers(): Record<string, Schema> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  const members = StoredSlide.properties as Record<string, Schema>
  return Object.fromEntries(
    Object.entries(members).map(([key, value]) => [key, same(value, Text) ? ref('Text') : same(value, Colour) ? ref('Colour') : key === 'blocks' ? arr(ref('Block')) : value]),
  )
}

/** The members of a lint finding (deck.lint adds the slideId). */
export const FINDING_MEMBERS = {
  rule: str({ description: 'The lint rule (docs/model.md).' }),
  severity: oneOf(['error', 'warning', 'info']),
  blockId: opt(str({ description: 'The block, when the finding is about one block.' })),
  message: str(),
}

/** Any JSON value, said so explicitly (a typed schema accepting every JSON type). */
export const anyJson = (description: string): Schema => ({ type: ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'], description })

/** The shared definitions results reference by name (`ref('Slide')`). */
export const RESULT_DEFS: Record<string, Schema> = {
  Block: {
    type: 'object',
    description: "A block: id, kind, slot or pos and z, group, locked; the members of its kind (text, items, rows, asset, ...) as in docs/model.md and block.insert's input.",
    required: ['id', 'kind'],
    properties: { ...sharedBlockMembers(), kind: oneOf(BLOCK_KINDS, { description: 'The block kind.' }) },
    additionalProperties: true,
  },
  Slide: { ...StoredSlide, description: 'A normalized slide as stored in slides/<id>.json.', properties: slideMembers() },
  Text,
  Colour,
  Section: SectionSchema,
  Manifest: { ...ManifestSchema, description: 'deck.json: id, title, theme, defaults, background, guides, sections, revision, stamps.' },
  Version: { ...VersionSchema, description: 'A named version: n, author, note, the revision it names, when it was saved.' },
  DeckDocument: obj(
    {
      manifest: ref('Manifest'),
      slides: { type: 'object', additionalProperties: ref('Slide'), description: 'Every slide by id.' },
      versions: arr(ref('Version'), { description: 'The named versions, oldest first.' }),
    },
    { description: 'The whole normalized deck document: manifest, slides by id, version log.' },
  ),
  Asset: {
    type: 'object',
    description: 'An asset record (assets/<id>.json): id, role, alt, source record, and for two-tone assets the twins, metrics, treatment and plate.',
    required: ['id'],
    properties: {
      id: str({ description: 'The asset id.' }),
      role: str({ description: 'One of ten roles (capture, detail, opener, mood, frame, logo, ...).' }),
      alt: str(),
      source: openObj('Provenance record: title, artist, license, sourceUrl, shareAlike, credit (five variants).'),
      twins: arr(str(), { description: 'Rendered files, workspace-relative.' }),
      metrics: openObj('Two-tone metrics and plate clearance.'),
      treatment: openObj('The two-tone treatment.'),
      plate: oneOf(['lower-left', 'lower-right', 'upper-left']),
    },
    additionalProperties: true,
  },
  Placed: obj(
    { id: BlockId, pos: Box, angle: opt(num()), flip: opt(Flip), from: opt(Point), to: opt(Point) },
    { description: 'A moved object: id, box, and angle, flip and line ends when set.' },
  ),
  Finding: obj(FINDING_MEMBERS, { description: 'A lint finding on a slide.' }),
  LintCounts: obj({ error: int({ minimum: 0 }), warning: int({ minimum: 0 }), info: int({ minimum: 0 }) }, { description: 'Findings per severity.' }),
  DeckCounts: obj(
    {
      slides: int({ minimum: 0 }),
      sections: int({ minimum: 0 }),
      canvas: int({ minimum: 0, description: 'Freeform (canvas) slides.' }),
      charts: int({ minimum: 0 }),
      guides: int({ minimum: 0 }),
      skipped: int({ minimum: 0 }),
    },
    { description: 'Slides, sections, canvas slides, charts, guides and skipped slides of a deck.' },
  ),
}

/** The revision a write made (the engine adds it to results that leave it out). */
export const Revision = int({ minimum: 0, description: 'The new revision.' })
/** The revision a read saw. */
export const CurrentRevision = int({ minimum: 0, description: 'The current revision.' })
/** The revision of a deck a write may or may not have changed. */
export const RevisionIfWritten = opt(int({ minimum: 0, description: 'The new revision of the deck, when the write changed one.' }))

function refsOf(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((child) => refsOf(child, into))
  if (!node || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
      const name = value.slice(8)
      if (!RESULT_DEFS[name]) throw new Error(`No result definition "${name}".`)
      if (!into.has(name)) {
        into.add(name)
        refsOf(RESULT_DEFS[name], into)
      }
    } else refsOf(value, into)
  }
}

/** Attaches the shared definitions a schema references (transitively) as its `$defs`. */
export function withDefs(schema: Schema): Schema {
  const names = new Set<string>()
  refsOf(schema, names)
  if (!names.size) return schema
  return { ...schema, $defs: Object.fromEntries([...names].sort().map((name) => [name, RESULT_DEFS[name]])) }
}

/** The version tag of the content a revision names (the engine adds it beside `revision`). */
export const VersionTag = str({
  description: "The deck's version tag: an opaque token of this exact content (changes with any change of its files, the same in every process). Send it back as baseTag (HTTP If-Match) so a write is refused unless the deck is still what you read.",
})

/**
 * The result of an action: a closed object of the listed members (required unless `opt`). A result
 * with `revision` also declares `tag`, which the engine adds when the revision is the deck's current one.
 */
export function result(props: Props, extra: Schema = {}): Schema {
  return withDefs(obj(props.revision && !props.tag ? { ...props, tag: opt(VersionTag) } : props, extra))
}

/** The result of a mutating action: as `result`, with `revision` (the new revision) unless listed. */
export function written(props: Props, extra: Schema = {}): Schema {
  return result({ ...props, revision: props.revision ?? Revision }, extra)
}

/** Marks the result of an action declared but not built: the shape the spec implies, not yet held by a test. */
export const PLANNED = 'Planned: this action is declared but not built; the shape its spec entry implies.'
export function planned(schema: Schema): Schema {
  return { ...schema, description: schema.description ? `${PLANNED} ${schema.description}` : PLANNED }
}

/** A result of several shapes (each a closed object, see `obj`): exactly one describes any given result. */
export function resultOf(variants: Schema[], description: string): Schema {
  return withDefs({ type: 'object', description, anyOf: variants })
}
