import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { distance, nearestCommands } from '../../../../src/transports/cli/suggest.js'

const IDS = ['deck', 'deck:rename', 'deck:repair', 'deck:create', 'slide', 'slide:get', 'slides', 'render', 'init', 'serve']

describe('did you mean', () => {
  it('counts edits, a swap of two neighbours as one', () => {
    assert.equal(distance('renam', 'rename'), 1)
    assert.equal(distance('redner', 'render'), 1)
    assert.equal(distance('', 'init'), 4)
  })

  it('holds each command against as many typed words as it has, so arguments do not count', () => {
    assert.deepEqual(nearestCommands(['deck', 'renam', 'New', 'name'], IDS), ['deck rename', 'deck repair'])
    assert.deepEqual(nearestCommands(['redner', 'all'], IDS), ['render'])
  })

  it('offers a topic for a mistyped first word, the longer command first at the same distance', () => {
    assert.deepEqual(nearestCommands(['dek'], IDS), ['deck'])
    assert.deepEqual(nearestCommands(['slid', 'get'], IDS), ['slide get', 'slide', 'slides'])
  })

  it('offers nothing far from every command, and never the command typed', () => {
    assert.deepEqual(nearestCommands(['xyzzy'], IDS), [])
    assert.deepEqual(nearestCommands(['init'], IDS), [])
  })
})
