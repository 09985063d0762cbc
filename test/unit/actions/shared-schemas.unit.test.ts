import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { findAction } from '../../../src/actions/index.js'
import { AJV_OPTIONS } from '../../../src/core/validate.js'
import { compileShared } from '../../helpers/schemas.js'

const newAjv = (options: object) => {
  const ajv = new (Ajv as unknown as typeof Ajv.default)(options)
  ;(addFormats as unknown as (a: unknown) => void)(ajv)
  return ajv
}

describe('compiling a schema with its large repeated parts shared (test/helpers/schemas.ts)', () => {
  it('accepts and refuses exactly what the schema compiled whole does, on a slide with every kind of block', () => {
    const action = findAction('slide.update')!
    const whole = newAjv(AJV_OPTIONS).compile(action.input)
    const shared = compileShared(newAjv(AJV_OPTIONS), action.input)
    const base = action.example as Record<string, unknown>
    const docs: unknown[] = [
      base,
      { ...base, baseRevision: 'one' },
      { ...base, zz: 1 },
      {},
      { ...base, set: [{ pointer: '/blocks/0/kind', value: 'text' }] },
    ]
    const slide = findAction('slide.insert')!
    const wholeInsert = newAjv(AJV_OPTIONS).compile(slide.input)
    const sharedInsert = compileShared(newAjv(AJV_OPTIONS), slide.input)
    const example = slide.example as { slide?: { blocks?: unknown[] } }
    const insertDocs: unknown[] = [
      example,
      { ...example, slide: { ...example.slide, blocks: [{ kind: 'text', id: 'b1', text: 'x' }] } },
      { ...example, slide: { ...example.slide, blocks: [{ kind: 'no-such-kind', id: 'b1' }] } },
      { ...example, slide: { ...example.slide, blocks: [{ kind: 'picture', id: 'b1', asset: 7 }] } },
      { ...example, slide: { ...example.slide, blocks: 'none' } },
    ]
    const verdicts = (v: (d: unknown) => boolean, list: unknown[]) => list.map((d) => v(d))
    assert.deepEqual(verdicts(shared, docs), verdicts(whole, docs))
    const insertVerdicts = verdicts(sharedInsert, insertDocs)
    assert.deepEqual(insertVerdicts, verdicts(wholeInsert, insertDocs))
    assert.ok(insertVerdicts.includes(true) && insertVerdicts.includes(false), `both verdicts seen: ${insertVerdicts}`)
  })

  it('still refuses, in strict mode, an unknown keyword inside a part it shares', () => {
    const part = { type: 'object', properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, { type: 'string', description: 'a field of a large part' }])) }
    const schema = { type: 'object', properties: { a: part, b: { ...part, properties: { ...part.properties, field0: { type: 'string', colour: 'red' } } } } }
    const ajv = newAjv({ strict: true })
    assert.throws(() => compileShared(ajv, schema), /unknown keyword: "colour"/)
    const fine = compileShared(newAjv({ strict: true }), { type: 'object', properties: { a: part, b: part } })
    assert.equal(fine({ a: { field1: 'x' }, b: { field2: 'y' } }), true)
    assert.equal(fine({ a: { field1: 'x' }, b: { field2: 2 } }), false)
  })
})
