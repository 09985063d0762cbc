/**
 * Checking a deck document against the model, in parts: the manifest, the version log, each slide's
 * own fields, and each block against the schema of its kind. One validator for the whole document
 * is ~450 KB of generated code that every write would load; in parts, a write loads the manifest
 * validator and the few it touches (a rename: the manifest only). Pointers name the place in the
 * whole document (`/slides/<id>/blocks/<i>/...`).
 */
import { validatorFor } from '../core/validate.js'
import { AnyBlock, BLOCK_KINDS, BLOCK_SCHEMAS, StoredSlide } from './blocks.js'
import { ManifestSchema, VersionSchema, type DeckDoc } from './deck.js'
import { arr, type Schema } from './schema.js'

export interface Issue {
  pointer: string
  message: string
  path?: string
}

/** A stored slide whose blocks are only required to be objects with a known kind (each is checked by its kind). */
export const SlideShell: Schema = {
  ...StoredSlide,
  properties: {
    ...(StoredSlide.properties as Record<string, Schema>),
    blocks: arr({ type: 'object', required: ['id', 'kind'], properties: { kind: { enum: [...BLOCK_KINDS] } } }),
  },
}

/** The parts and their validator keys (precompiled by scripts/build.ts under these names). */
export const MODEL_SCHEMAS: [string, Schema][] = [
  ['model.manifest', ManifestSchema],
  ['model.versions', arr(VersionSchema)],
  ['model.slide', SlideShell],
  ...BLOCK_KINDS.map((kind) => [`model.block.${kind}`, BLOCK_SCHEMAS[kind]] as [string, Schema]),
]
const SCHEMA_BY_KEY = new Map(MODEL_SCHEMAS)

async function check(key: string, value: unknown, prefix: string, issues: Issue[]): Promise<void> {
  const validate = await validatorFor(key, SCHEMA_BY_KEY.get(key)!)
  if (validate(value)) return
  for (const error of validate.errors ?? []) {
    const extra = error.keyword === 'additionalProperties' ? `/${(error.params as { additionalProperty: string }).additionalProperty}` : ''
    const detail = error.keyword === 'additionalProperties' ? 'is not a member of this object' : error.keyword === 'enum' ? `${error.message}: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : error.message ?? 'is invalid'
    issues.push({ pointer: `${prefix}${error.instancePath}${extra}`, message: detail, path: error.schemaPath })
  }
}

/**
 * The issues of a document; `slides` limits the slide checks to those ids (the ones a write changed).
 * Cross-references (sections naming slides, unique ids) are checked for the whole document.
 */
export async function documentIssues(doc: DeckDoc, slides?: Iterable<string>): Promise<Issue[]> {
  const issues: Issue[] = []
  await check('model.manifest', doc.manifest, '/manifest', issues)
  await check('model.versions', doc.versions, '/versions', issues)
  for (const id of slides ?? Object.keys(doc.slides)) {
    const slide = doc.slides[id]
    if (!slide) continue
    const prefix = `/slides/${id}`
    const before = issues.length
    await check('model.slide', slide, prefix, issues)
    if (issues.length > before || !Array.isArray(slide.blocks)) continue
    const seen = new Set<string>()
    for (const [i, block] of slide.blocks.entries()) {
      if (BLOCK_SCHEMAS[block.kind as keyof typeof BLOCK_SCHEMAS]) await check(`model.block.${block.kind}`, block, `${prefix}/blocks/${i}`, issues)
      if (seen.has(block.id)) issues.push({ pointer: `${prefix}/blocks/${i}/id`, message: `block id "${block.id}" is used twice on the slide` })
      seen.add(block.id)
    }
  }
  const placed = new Map<string, number>()
  doc.manifest.sections?.forEach((section, i) =>
    section.slides?.forEach((id, j) => {
      if (!doc.slides[id]) issues.push({ pointer: `/manifest/sections/${i}/slides/${j}`, message: `names slide "${id}", which has no file` })
      placed.set(id, (placed.get(id) ?? 0) + 1)
    }),
  )
  for (const id of slides ?? Object.keys(doc.slides)) {
    if (!doc.slides[id]) continue
    if (!placed.has(id)) issues.push({ pointer: `/slides/${id}`, message: 'is in no section' })
    if ((placed.get(id) ?? 0) > 1) issues.push({ pointer: `/slides/${id}`, message: 'appears in more than one place in the sections' })
    if (doc.slides[id].id !== id) issues.push({ pointer: `/slides/${id}/id`, message: `does not match its file name (${id}.json)` })
  }
  return issues
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
  if (!kind || !BLOCK_SCHEMAS[kind as keyof typeof BLOCK_SCHEMAS]) return
  const issues: Issue[] = []
  await check(`model.block.${kind}`, block, pointer, issues)
  if (issues.length) {
    const { fail } = await import('../core/errors.js')
    const first = issues[0]
    const code = first.message === 'is not a member of this object' ? 'unknown_field' : 'invalid_input'
    fail(code, `${first.pointer} ${first.message}.`, { pointer: first.pointer, path: first.path })
  }
}
