import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import { ACTIONS, findAction } from '../../../src/actions/index.js'
import { AJV_OPTIONS } from '../../../src/core/validate.js'
import { PLANNED, RESULT_DEFS } from '../../../src/model/results.js'
import type { Schema } from '../../../src/model/schema.js'
import { mcpOutputSchema, TOOL_ERROR } from '../../../src/transports/mcp/output.js'

// CommonJS modules under NodeNext: the class and the plugin are the default exports' `default`.
const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule
const addFormats = ((addFormatsModule as unknown as { default: unknown }).default ?? addFormatsModule) as (ajv: unknown) => void
const ajv = new (Ajv as unknown as new (options: object) => import('ajv').default)(AJV_OPTIONS)
addFormats(ajv)

/** A member says what it holds: a type (a list of every JSON type is explicit free-form JSON), a reference, a union, an enum or a constant. */
const typed = (schema: Schema) => ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((key) => key in schema)

/** Pointers of every member, array item and map value (at any depth) that says nothing about its type. */
function untyped(schema: Schema, at = ''): string[] {
  const out: string[] = []
  const check = (node: unknown, where: string) => {
    if (!node || typeof node !== 'object') return
    if (!typed(node as Schema)) out.push(where)
    out.push(...untyped(node as Schema, where))
  }
  for (const [name, member] of Object.entries((schema.properties as Record<string, Schema>) ?? {})) check(member, `${at}/properties/${name}`)
  if (schema.items) check(schema.items, `${at}/items`)
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') check(schema.additionalProperties, `${at}/additionalProperties`)
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) ((schema[key] as Schema[]) ?? []).forEach((variant, i) => out.push(...untyped(variant, `${at}/${key}/${i}`)))
  for (const key of ['if', 'then', 'else'] as const) if (schema[key]) out.push(...untyped(schema[key] as Schema, `${at}/${key}`))
  for (const [name, def] of Object.entries((schema.$defs as Record<string, Schema>) ?? {})) out.push(...untyped(def, `${at}/$defs/${name}`))
  return out
}

/** The result shapes of an action: its object, or each variant of a result of several shapes. */
const shapes = (output: Schema): Schema[] => (Array.isArray(output.anyOf) ? (output.anyOf as Schema[]) : [output])

function refs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((child) => refs(child, into))
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value)
      else refs(value, into)
    }
  }
  return into
}

describe('the result schemas of the action table', () => {
  it('give every action a result schema that compiles with the engine\'s ajv options', () => {
    const problems: string[] = []
    for (const action of ACTIONS) {
      try {
        ajv.compile(action.output)
      } catch (error) {
        problems.push(`${action.id}: ${(error as Error).message}`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('are objects whose every member, item and value is typed: no outline of descriptions is left', () => {
    const problems: string[] = []
    for (const action of ACTIONS) {
      if (action.output.type !== 'object') problems.push(`${action.id}: the result is not an object`)
      for (const shape of shapes(action.output)) if (!shape.properties || !Object.keys(shape.properties).length) problems.push(`${action.id}: a result shape lists no member`)
      problems.push(...untyped(action.output).map((pointer) => `${action.id}: ${pointer} is untyped`))
    }
    for (const [name, def] of Object.entries(RESULT_DEFS)) problems.push(...untyped(def).map((pointer) => `definition ${name}: ${pointer} is untyped`))
    assert.deepEqual(problems, [])
  })

  it('are closed: a member no schema lists fails the result', () => {
    const open: string[] = []
    for (const action of ACTIONS) for (const shape of shapes(action.output)) if (shape.additionalProperties !== false) open.push(action.id)
    assert.deepEqual(open, [])
    const validate = ajv.compile(findAction('deck.rename')!.output)
    assert.equal(validate({ id: 'quarterly-review', title: 'Q3', revision: 4 }), true)
    assert.equal(validate({ id: 'quarterly-review', title: 'Q3', revision: 4, extra: 1 }), false)
    assert.equal(validate({ id: 'quarterly-review', title: 'Q3' }), false, 'revision is required')
    assert.equal(validate({ id: 'quarterly-review', title: 3, revision: 4 }), false, 'types are held')
  })

  it('declare revision, an integer, on every mutating action (the engine adds it to object results)', () => {
    const problems: string[] = []
    for (const action of ACTIONS.filter((a) => a.mutates)) {
      for (const shape of shapes(action.output)) {
        const revision = (shape.properties as Record<string, Schema> | undefined)?.revision
        if (!revision) problems.push(`${action.id}: no revision`)
        else if (revision.type !== 'integer') problems.push(`${action.id}: revision is not an integer`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('carry the shared definitions they reference, so each schema stands alone', () => {
    const problems: string[] = []
    for (const action of ACTIONS) {
      const defs = (action.output.$defs as Record<string, Schema> | undefined) ?? {}
      for (const ref of refs(action.output)) {
        const name = ref.replace('#/$defs/', '')
        if (!ref.startsWith('#/$defs/') || !defs[name]) problems.push(`${action.id}: ${ref} does not resolve`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('mark the result of every action declared but not built as planned, and of no built one', () => {
    const problems: string[] = []
    for (const action of ACTIONS) {
      const planned = String(action.output.description ?? '').startsWith(PLANNED)
      if (planned === action.implemented) problems.push(`${action.id}: implemented ${action.implemented}, planned ${planned}`)
    }
    assert.deepEqual(problems, [])
  })
})

describe('the MCP outputSchema of a tool', () => {
  // The MCP SDK client's validator (strict off, every error, formats) compiles these.
  const sdkAjv = new (Ajv as unknown as new (options: object) => import('ajv').default)({ strict: false, validateFormats: true, validateSchema: false, allErrors: true })
  addFormats(sdkAjv)

  it('is an object schema for every MCP tool, compiling as the SDK client compiles it', () => {
    for (const action of ACTIONS.filter((a) => a.mcp)) {
      const schema = mcpOutputSchema(action)
      assert.equal(schema.type, 'object', action.id)
      sdkAjv.compile(schema)
    }
  })

  it('accepts the result and, for a tool result with isError, the error body; nothing else', () => {
    const validate = sdkAjv.compile(mcpOutputSchema(findAction('deck.rename')!))
    assert.equal(validate({ id: 'quarterly-review', title: 'Q3', revision: 4 }), true)
    assert.equal(validate({ status: 409, code: 'stale_revision', message: 'baseRevision 0 is stale.', currentRevision: 3, current: {} }), true)
    assert.equal(validate({ id: 'quarterly-review', title: 'Q3' }), false)
    assert.equal(validate({ status: 409, code: 'no_such_code', message: 'x' }), false)
    assert.deepEqual(TOOL_ERROR.required, ['status', 'code', 'message'])
  })
})
