import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { ACTIONS, findAction } from '../../../src/actions/index.js'
import { describeAction } from '../../../src/core/action.js'
import { commandId, parseForm } from '../../../src/transports/cli/form.js'
import { compileShared } from '../../helpers/schemas.js'

/**
 * The spec's action list, kept in the repository (spec/actions.json) so the suite stands alone; the
 * shared spec beside the checkout, where there is one, must say the same.
 */
const COPY = new URL('../../../spec/actions.json', import.meta.url)
const SHARED = new URL('../../../../shared/spec/actions.json', import.meta.url)
const spec = JSON.parse(readFileSync(COPY, 'utf8')).actions as {
  id: string
  cli: string | null
  mcp: string | null
  note: string | null
}[]

describe('the action table against the spec', () => {
  it('keeps a copy of the spec action list that matches the shared spec, when the shared spec is there', (t) => {
    if (!existsSync(SHARED)) return t.skip('no ../shared/spec beside this checkout: the copy in spec/ stands alone')
    assert.deepEqual(JSON.parse(readFileSync(COPY, 'utf8')), JSON.parse(readFileSync(SHARED, 'utf8')), 'spec/actions.json differs from ../shared/spec/actions.json: copy it again')
  })

  it('declares every action the spec names, with its CLI form and MCP tool name exactly as written', () => {
    const problems: string[] = []
    for (const row of spec) {
      const action = findAction(row.id)
      if (!action) {
        problems.push(`missing ${row.id}`)
        continue
      }
      if (row.cli !== null && action.cli !== row.cli) problems.push(`${row.id}: cli "${action.cli}" != "${row.cli}"`)
      if (row.mcp !== null && action.mcp !== row.mcp) problems.push(`${row.id}: mcp ${action.mcp} != ${row.mcp}`)
      if (row.mcp === null && action.mcp !== null && row.id !== 'text.indent') problems.push(`${row.id}: has MCP ${action.mcp}, the spec gives none`)
    }
    assert.deepEqual(problems, [])
  })

  it('follows the transports and read/write notes of the spec', () => {
    const problems: string[] = []
    for (const row of spec) {
      const action = findAction(row.id)!
      const note = row.note ?? ''
      if (/\bread\b/.test(note) && action.mutates) problems.push(`${row.id} is a read in the spec`)
      if (/C only/.test(note) && [...action.transportSet].join('') !== 'C') problems.push(`${row.id} is C only`)
      if (/no MCP|never MCP/.test(note) && action.transportSet.has('M')) problems.push(`${row.id} has no MCP tool`)
      if (/no CLI/.test(note) && action.transportSet.has('C')) problems.push(`${row.id} has no CLI`)
      if (/P only/.test(note) && [...action.transportSet].join('') !== 'P') problems.push(`${row.id} is P only`)
    }
    assert.deepEqual(problems, [])
  })

  it('declares the groups whose size the spec gives at that size', () => {
    const size = (group: string) => ACTIONS.filter((a) => a.group === group).length
    assert.deepEqual({ deck: size('deck'), slide: size('slide'), block: size('block'), share: size('share') }, { deck: 32, slide: 20, block: 43, share: 21 })
  })

  it('has unique ids, MCP names and CLI commands', () => {
    const unique = (values: (string | null)[]) => {
      const present = values.filter((v): v is string => v !== null)
      return present.length === new Set(present).size
    }
    assert.ok(unique(ACTIONS.map((a) => a.id)))
    assert.ok(unique(ACTIONS.map((a) => a.mcp)))
    assert.ok(unique(ACTIONS.map((a) => (a.cli ? commandId(parseForm(a.cli)) : null))))
  })

  it('gives every action an input schema that compiles strictly and an example that validates against it', () => {
    const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: true, strictRequired: false, allErrors: true, discriminator: true })
    ;(addFormats as unknown as (a: unknown) => void)(ajv)
    const problems: string[] = []
    for (const action of ACTIONS) {
      const validate = compileShared(ajv, action.input)
      if (!validate(action.example)) problems.push(`${action.id}: ${ajv.errorsText(validate.errors)}`)
      if (action.input.type !== 'object' || action.input.additionalProperties !== false) problems.push(`${action.id}: input must be a closed object`)
      if (action.mutates && action.transportSet.has('M') && !action.implemented && !action.input.properties) problems.push(action.id)
    }
    assert.deepEqual(problems, [])
  })

  it('describes an action with exactly the members GET /api/actions/{id} serves', () => {
    const description = describeAction(findAction('deck.create')!)
    assert.deepEqual(Object.keys(description).sort(), ['cli', 'doc', 'example', 'given', 'group', 'id', 'implemented', 'input', 'label', 'mcp', 'milestone', 'mutates', 'output', 'transports'].sort())
    assert.equal(description.cli, 'studio deck create <name> --from <from> --id <id>')
    assert.equal(description.implemented, true)
    assert.equal(describeAction(ACTIONS.find((a) => !a.implemented) ?? ({ ...findAction('deck.info')!, run: undefined, implemented: false } as unknown as (typeof ACTIONS)[number])).implemented, false)
    assert.deepEqual(description.given, [])
    assert.deepEqual(describeAction(findAction('block.align')!).given.map((step) => [step.action, step.revision]), [['logo.insert', 1], ['slide.insert', 2]])
  })

  it('parses every CLI form of the table', () => {
    for (const action of ACTIONS) if (action.cli) assert.ok(parseForm(action.cli).path.length > 0, action.id)
  })
})
