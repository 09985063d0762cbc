/**
 * Compiling the table's schemas in tests without compiling the same large part many times. The slide
 * schema repeats its 40 KB block schema once per slide variant, so `slide.insert`'s input is 246 KB
 * and ajv took seconds of CPU for each action that embeds it. `compileShared` compiles each large
 * subschema once per ajv instance (added under an id of its own) and puts a `$ref` to it wherever it
 * occurs: the same validation, the same strict-mode checks of every keyword, a fraction of the work.
 */
import type { ValidateFunction } from 'ajv'

/** What of an ajv instance this uses (ajv's class is a CommonJS default export, awkward to name as a type here). */
interface Ajv {
  addSchema(schema: object, key: string): unknown
  compile(schema: object): ValidateFunction
}

/** Subschemas at least this long (as JSON) are compiled once and referenced. */
const LARGE = 4_000

const registries = new WeakMap<object, Map<string, string>>()

/** The keywords whose value is a schema, a list of schemas, or a map of name → schema. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems']
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']

export function compileShared(ajv: Ajv, schema: object): ValidateFunction {
  let registry = registries.get(ajv)
  if (!registry) registries.set(ajv, (registry = new Map()))
  const known = registry
  /** The schema with its large subschemas replaced by references (`share` false: keep this node itself inline). */
  const rewrite = (node: unknown, share: boolean): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node
    const json = JSON.stringify(node)
    // A local `$ref` points into the document it sits in: such a part stays where it is.
    if (json.includes('"$ref"')) return node
    if (share && json.length >= LARGE) {
      let id = known.get(json)
      if (!id) {
        const inner = rewrite(node, false) as object
        id = `shared-${known.size}`
        ajv.addSchema(inner, id)
        known.set(json, id)
      }
      return { $ref: id }
    }
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) }
    // oneOf with a discriminator reads each branch's `properties` itself: branches stay inline.
    const tagged = 'discriminator' in out
    for (const key of ONE) if (key in out) out[key] = rewrite(out[key], true)
    for (const key of LIST) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((s) => rewrite(s, !(tagged && key === 'oneOf')))
    for (const key of MAP) {
      const map = out[key]
      if (map && typeof map === 'object') out[key] = Object.fromEntries(Object.entries(map).map(([name, s]) => [name, rewrite(s, true)]))
    }
    return out
  }
  return ajv.compile(rewrite(schema, false) as object)
}
