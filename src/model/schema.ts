/**
 * JSON Schema builders for the action table.
 *
 * Plain objects, no schema library at run time: the table is loaded on every CLI start, so building
 * ~200 input schemas must cost nothing. Ajv compiles only the schema of the action being called
 * (precompiled at build time where possible). Every object built by `obj` refuses unknown members,
 * which is what gives `unknown_field` its JSON pointer.
 */
export type Schema = Record<string, unknown>

type Props = Record<string, Schema & { [OPTIONAL]?: true }>
const OPTIONAL = Symbol('optional')

/** Marks a member optional inside `obj`. */
export function opt<T extends Schema>(schema: T): T {
  return Object.assign({}, schema, { [OPTIONAL]: true as const })
}

/** A closed object: listed members only; members not wrapped in `opt` are required. */
export function obj(props: Props, extra: Schema = {}): Schema {
  const properties: Record<string, Schema> = {}
  const required: string[] = []
  for (const [key, value] of Object.entries(props)) {
    const { [OPTIONAL]: optional, ...schema } = value
    properties[key] = schema
    if (!optional) required.push(key)
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false, ...extra }
}

/** An object whose members are not listed by the spec ("not shown"): any members, documented as such. */
export function openObj(description: string, extra: Schema = {}): Schema {
  return { type: 'object', description, additionalProperties: true, ...extra }
}

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra })
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra })
export const num = (extra: Schema = {}): Schema => ({ type: 'number', ...extra })
export const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra })
export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra })
export const oneOf = (values: readonly (string | number | boolean | null)[], extra: Schema = {}): Schema => ({ enum: [...values], ...extra })
export const anyOf = (schemas: Schema[], extra: Schema = {}): Schema => ({ anyOf: schemas, ...extra })
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })
export const unknown = (description: string): Schema => ({ description })
export const lit = <T extends string | number | boolean>(value: T, extra: Schema = {}): Schema => ({ const: value, ...extra })
/** A reference to a shared definition (`#/$defs/<name>`); `result()` in results.ts attaches the definitions it names. */
export const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` })

export const SLUG = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
/** Names under decks/ that are no deck's folder (decks/templates holds the templates): no deck is written under them. */
export const RESERVED_DECK_IDS: ReadonlySet<string> = new Set(['templates'])
export const DeckId = str({ pattern: SLUG, maxLength: 80, description: 'Deck id: a slug under decks/.' })
export const TemplateId = str({ pattern: SLUG, maxLength: 80, description: 'Template id (slug of its name).' })
export const SlideId = str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 120, description: 'Slide id, e.g. title-1.' })
export const BlockId = str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 120, description: 'Block id, unique on its slide.' })
export const SectionId = str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 120, description: 'Section id.' })
/** A machine path named in an input: never a NUL byte (file systems refuse it; it must not reach them). */
export const FilePath = (description: string): Schema => str({ minLength: 1, maxLength: 4096, pattern: '^[^\\u0000]*$', description })
export const Pointer = str({ pattern: '^(/([^~/]|~[01])*)*$', description: 'A JSON pointer, e.g. /title.' })
export const BR = int({ minimum: 0, description: 'baseRevision: the revision the caller last read; a stale one answers 409.' })
/** baseTag: the version tag of the content the caller read; defineAction adds it beside every baseRevision. */
export const BaseTag = str({
  minLength: 1,
  maxLength: 64,
  description: "baseTag: the version tag (result member tag, HTTP ETag) of the content the caller read; optional. The write is refused (409) unless the deck is still exactly that content, whatever its revision number says (another branch's revision 5, a hand edit).",
})
export const Colour = str({
  pattern: '^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z][a-zA-Z0-9]*)$',
  description: 'A hex colour (#rrggbb) or a theme palette token (ink, paper, accent, ...).',
})
export const SlideIds = arr(SlideId, { minItems: 1 })
export const BlockIds = arr(BlockId, { minItems: 1 })
export const SlideIdsOrAll = anyOf([lit('all'), SlideIds], { description: "'all' or a list of slide ids." })
export const Box = obj({ x: num(), y: num(), w: num({ minimum: 0 }), h: num({ minimum: 0 }) }, { description: 'A box in sheet pixels (sheet 1600 × 900).' })
export const Themes = arr(oneOf(['light', 'dark']), { minItems: 1, uniqueItems: true })
export const Role = oneOf(['viewer', 'commenter', 'editor'])
export const Who = anyOf([obj({ principal: str() }), obj({ email: str({ format: 'email' }) })], { description: 'A principal id or an email.' })
export const IsoTime = str({ format: 'date-time' })
