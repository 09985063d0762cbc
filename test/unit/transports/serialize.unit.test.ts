import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { serialize } from '../../../src/transports/http/server.js'

describe('HTTP answer serialization', () => {
  it('assembles a frozen answer from its members exactly as JSON.stringify would, and serializes it once', () => {
    const sections = Object.freeze([{ id: 's', title: 'S "one"\nline', slides: [{ id: 'a', title: '' }] }])
    const answer = Object.freeze({ id: 'd', gone: undefined, sections, counts: { slides: 1 }, when: new Date(0), empty: [], none: null, revision: 3 })
    const expected = JSON.stringify(answer, null, 2) + '\n'
    assert.equal(String(serialize(answer)), expected)
    assert.equal(serialize(answer), serialize(answer), 'the same bytes, encoded once')
    const next = Object.freeze({ ...answer, revision: 4 })
    assert.equal(String(serialize(next)), JSON.stringify(next, null, 2) + '\n')
    assert.equal(String(serialize(Object.freeze({}))), '{}\n')
    assert.equal(String(serialize(Object.freeze({ only: undefined }))), '{}\n')
    assert.equal(serialize({ open: true }), JSON.stringify({ open: true }, null, 2) + '\n')
  })
})
