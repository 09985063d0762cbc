/**
 * The guard of the contract's split: every covered action is walked by exactly one part, and every
 * part has its test file, which declares that part and no other. A new action prefix, or a part
 * without its file, fails here instead of leaving actions silently out of the contract.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { actionsOf, covered, PARTS, prefixOf } from './contract.js'

const DIR = new URL('.', import.meta.url).pathname

describe('the contract split into parts', () => {
  it('covers the implemented actions offered on two or more transports', () => {
    assert.ok(covered.length >= 20, `only ${covered.length} actions`)
  })

  it('walks every covered action in exactly one part', () => {
    const walked = new Map<string, string[]>()
    for (const part of Object.keys(PARTS)) for (const action of actionsOf(part)) walked.set(action.id, [...(walked.get(action.id) ?? []), part])
    for (const action of covered) assert.equal(walked.get(action.id)?.length, 1, `${action.id} (prefix ${prefixOf(action)}) is walked by ${JSON.stringify(walked.get(action.id) ?? [])}: name its prefix in one part of PARTS (test/contract/contract.ts)`)
    assert.equal([...walked.values()].reduce((n, parts) => n + parts.length, 0), covered.length)
    const prefixes = Object.values(PARTS).flat()
    assert.equal(new Set(prefixes).size, prefixes.length, 'a prefix named in two parts')
  })

  it('runs each part from its own file, and nothing else calls contract()', () => {
    const calls = new Map<string, string[]>()
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.test.ts'))) {
      for (const match of readFileSync(DIR + file, 'utf8').matchAll(/\bcontract\((['"])([^'"]+)\1\)/g)) calls.set(match[2], [...(calls.get(match[2]) ?? []), file])
    }
    for (const part of Object.keys(PARTS)) assert.deepEqual(calls.get(part), [`${part}.contract.test.ts`], `part ${part}`)
    assert.deepEqual([...calls.keys()].sort(), Object.keys(PARTS).sort(), 'contract() called for a part PARTS does not name')
  })
})
