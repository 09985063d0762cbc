import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalJson } from '../../../src/store/canonical.js'
import { normalizeDoc, normalizeGuides, normalizeAngle } from '../../../src/model/normalize.js'
import { validateInput } from '../../../src/core/validate.js'
import { StudioError, ERROR_CODES } from '../../../src/core/errors.js'
import { ACTIONS, findAction } from '../../../src/actions/index.js'
import { coerce, parseForm } from '../../../src/transports/cli/form.js'
import { applyGuides } from '../../../src/actions/deck/settings.js'

async function rejection(promise: Promise<unknown>): Promise<StudioError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof StudioError)
    return error
  }
  assert.fail('expected a rejection')
}

describe('canonical JSON', () => {
  it('orders identity keys first, the rest alphabetically, with a trailing newline', () => {
    assert.equal(canonicalJson({ z: 1, title: 't', id: 'x', a: { kind: 'k', id: 'i' } }), '{\n  "id": "x",\n  "title": "t",\n  "a": {\n    "id": "i",\n    "kind": "k"\n  },\n  "z": 1\n}\n')
  })
  it('gives the same bytes whatever order the keys were built in', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ y: 1, x: 2 }] }), canonicalJson({ a: [{ x: 2, y: 1 }], b: 1 }))
  })
})

describe('normalization', () => {
  it('sorts guides, drops duplicates and removes an empty result, keeping guides outside the sheet for the model check to refuse', () => {
    assert.deepEqual(normalizeGuides({ vertical: [1200, 400, 400], horizontal: [300] }), { vertical: [400, 1200], horizontal: [300] })
    assert.deepEqual(normalizeGuides({ vertical: [1601, 400], horizontal: [-1] }), { vertical: [400, 1601], horizontal: [-1] })
    assert.equal(normalizeGuides({ vertical: [], horizontal: [] }), undefined)
  })
  it('keeps angles in [0, 360)', () => {
    assert.deepEqual([normalizeAngle(360), normalizeAngle(-90), normalizeAngle(725)], [0, 270, 5])
  })
  it('renumbers z densely and files orphan slides into the last section', () => {
    const doc = normalizeDoc({
      manifest: { id: 'd', title: 'D', theme: 'simple', sections: [{ id: 's', title: 'S', slides: ['a', 'ghost'] }], revision: 0, stamps: { createdAt: '', updatedAt: '' } },
      slides: { a: { id: 'a', layout: 'freeform', blocks: [{ id: 'x', kind: 'shape', z: 7 }, { id: 'y', kind: 'shape', z: 3 }] }, b: { id: 'b', layout: 'title' } },
      versions: [],
    })
    assert.deepEqual(doc.manifest.sections[0].slides, ['a', 'b'])
    assert.deepEqual(doc.slides.a.blocks!.map((b) => [b.id, b.z]), [['x', 1], ['y', 0]])
  })
})

describe('guide edits', () => {
  it('applies clear, set, remove, move and add in that order', () => {
    assert.deepEqual(applyGuides({ vertical: [100, 200] }, { remove: [{ axis: 'vertical', at: 100 }], move: [{ axis: 'vertical', from: 200, to: 300 }], add: [{ axis: 'horizontal', at: 50 }] }), { vertical: [300], horizontal: [50] })
    assert.throws(() => applyGuides({}, { remove: [{ axis: 'vertical', at: 1 }] }), /No vertical guide at 1/)
  })
})

describe('input validation', () => {
  const rename = findAction('deck.rename')!
  it('answers unknown_field with the pointer of the unknown member', async () => {
    const error = await rejection(validateInput(rename.id, rename.input, { name: 'x', baseRevision: 1, extra: true }))
    assert.equal(error.code, 'unknown_field')
    assert.equal(error.extra.pointer, '/extra')
    assert.equal(error.status, 400)
  })
  it('answers invalid_input with the validator path and pointer, and names a missing field', async () => {
    const wrong = await rejection(validateInput(rename.id, rename.input, { name: 5, baseRevision: 1 }))
    assert.equal(wrong.code, 'invalid_input')
    assert.equal(wrong.extra.pointer, '/name')
    assert.equal(wrong.extra.path, '#/properties/name/type')
    const missing = await rejection(validateInput(rename.id, rename.input, { name: 'x' }))
    assert.equal(missing.extra.pointer, '/baseRevision')
    assert.match(missing.message, /baseRevision/)
  })
  it('maps every error code to one HTTP status and one exit code', () => {
    assert.deepEqual(ERROR_CODES.stale_revision, [409, 4])
    assert.deepEqual(ERROR_CODES.not_implemented, [501, 6])
    assert.deepEqual(ERROR_CODES.unknown_field, [400, 2])
    assert.deepEqual(ERROR_CODES.not_found, [404, 3])
  })
})

describe('CLI forms', () => {
  it('reads composite arguments, flags with placeholders, pairs and stdin', () => {
    assert.deepEqual(parseForm('block set <slideId>#<blockId> <path> <value>'), {
      path: ['block', 'set'],
      args: [{ name: 'slideId#blockId', fields: ['slideId', 'blockId'] }, { name: 'path', fields: ['path'] }, { name: 'value', fields: ['value'] }],
      flags: [],
    })
    const patch = parseForm('slide patch <slideId> --set <pointer>=<value>')
    assert.deepEqual(patch.flags, [{ name: 'set', pair: ['pointer', 'value'] }])
    assert.equal(parseForm('slide insert --section <sectionId> --after <after> < slide.json').stdin, 'slide.json')
    assert.deepEqual(parseForm('admin avatar-sweep --to <to> [--dry-run]').flags[1], { name: 'dry-run', optional: true })
    assert.deepEqual(parseForm('comment add <anchor> -m <text>').flags[0], { name: 'm', char: 'm', placeholder: 'text' })
  })
  it('coerces values by the schema and leaves refusable ones for the validator', () => {
    assert.equal(coerce('3', { type: 'integer' }), 3)
    assert.equal(coerce('three', { type: 'integer' }), 'three')
    assert.deepEqual(coerce('a,b', { type: 'array', items: { type: 'string' } }), ['a', 'b'])
    assert.equal(coerce('all', { anyOf: [{ const: 'all' }, { type: 'array', items: { type: 'string' } }] }), 'all')
    assert.equal(coerce('42', { description: 'unknown' }), 42)
    assert.equal(coerce('hello world', { description: 'unknown' }), 'hello world')
  })
})

describe('dispatch, in process', () => {
  async function tempWorkspace() {
    const { mkdtempSync, mkdirSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { execFileSync } = await import('node:child_process')
    const dir = mkdtempSync(join(tmpdir(), 'studio-dispatch-'))
    execFileSync('git', ['init', '-q', '--initial-branch=main', dir])
    mkdirSync(join(dir, 'decks'))
    const { Workspace } = await import('../../../src/store/workspace.js')
    const commits = () => Number(execFileSync('git', ['rev-list', '--count', '--all'], { cwd: dir, encoding: 'utf8' }).trim() || 0)
    return { ws: new Workspace(dir, dir), dir, commits }
  }

  it('creates, writes once per accepted call, refuses stale and commits nothing for no change', async () => {
    const { dispatch } = await import('../../../src/core/engine.js')
    const { ws, commits } = await tempWorkspace()
    const call = (id: string, input: Record<string, unknown>) => dispatch(findAction(id)!, input, { ws, transport: 'H', author: 'agent:unit' })
    const created = await call('deck.create', { name: 'Unit deck', from: 'blank' })
    assert.deepEqual([(created.result as { id: string }).id, (created.result as { revision: number }).revision], ['unit-deck', 0])
    assert.equal(commits(), 1)
    const renamed = await call('deck.rename', { name: 'Renamed', baseRevision: 0 })
    assert.equal((renamed.result as { revision: number }).revision, 1)
    assert.equal(commits(), 2)
    const stale = await rejection(call('deck.rename', { name: 'Again', baseRevision: 0 }))
    assert.equal(stale.code, 'stale_revision')
    assert.equal(stale.extra.currentRevision, 1)
    assert.equal((stale.extra.current as { manifest: { title: string } }).manifest.title, 'Renamed')
    const same = await call('deck.rename', { name: 'Renamed', baseRevision: 1 })
    assert.equal((same.result as { revision: number }).revision, 1)
    assert.match(same.notes.join(' '), /Nothing changed/)
    assert.equal(commits(), 2)
  })

  it('validates before anything runs, and answers 404 off the action\'s transports and 501 for a declared action', async () => {
    const { dispatch } = await import('../../../src/core/engine.js')
    const { ws, commits } = await tempWorkspace()
    const unknown = await rejection(dispatch(findAction('deck.create')!, { name: 'x', colour: 'red' }, { ws, transport: 'H' }))
    assert.equal(unknown.code, 'unknown_field')
    assert.equal(unknown.extra.pointer, '/colour')
    const cliOnly = await rejection(dispatch(findAction('deck.pack')!, { id: 'x' }, { ws, transport: 'H' }))
    assert.equal(cliOnly.status, 404)
    // Any action the table declares without a handler.
    // Any action the table declares without a handler (none is left since admin.migrateStorage: one made so here).
    const declared = ACTIONS.find((a) => !a.implemented && a.transportSet.has('H')) ?? ({ ...findAction('deck.info')!, run: undefined, implemented: false } as unknown as typeof ACTIONS[number])
    assert.equal(declared.implemented, false)
    assert.equal((await rejection(dispatch(declared, {}, { ws, transport: 'H' }))).status, 501)
    assert.equal(commits(), 0)
  })

  it('answers a write to a deck that does not exist with 404 before judging its input, on every transport; a missing baseRevision on one that exists is 400', async () => {
    const { dispatch } = await import('../../../src/core/engine.js')
    const { ws, dir, commits } = await tempWorkspace()
    await dispatch(findAction('deck.create')!, { name: 'Here', from: 'blank' }, { ws, transport: 'H', author: 'agent:unit' })
    for (const transport of ['C', 'M', 'H', 'P'] as const) {
      const named = await rejection(dispatch(findAction('deck.rename')!, { name: 'X' }, { ws, transport, deck: 'nope' }))
      assert.deepEqual([named.status, named.code], [404, 'not_found'], transport)
      assert.match(named.message, /No deck "nope"/)
      assert.ok(!named.message.includes(dir), `the message names no server path: ${named.message}`)
      const field = await rejection(dispatch(findAction('template.create')!, { deckId: 'nope', name: 'T' }, { ws, transport }))
      assert.deepEqual([field.status, field.code], [404, 'not_found'], transport)
      const missing = await rejection(dispatch(findAction('deck.rename')!, { name: 'X' }, { ws, transport, deck: 'here' }))
      assert.deepEqual([missing.status, missing.code, missing.extra.pointer], [400, 'invalid_input', '/baseRevision'], transport)
    }
    assert.equal(commits(), 1)
  })

  it('refuses every write in the embedded package folder with the init hint', async () => {
    const { dispatch } = await import('../../../src/core/engine.js')
    const { Workspace } = await import('../../../src/store/workspace.js')
    const { dir } = await tempWorkspace()
    const embedded = new Workspace(dir, dir, true)
    const refused = await rejection(dispatch(findAction('deck.create')!, { name: 'Stray' }, { ws: embedded, transport: 'C' }))
    assert.equal(refused.code, 'read_only')
    assert.match(refused.message, /studio init/)
  })
})
