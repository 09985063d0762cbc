import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { canonicalJson } from '../../../src/store/canonical.js'
import { DerivedIndex } from '../../../src/store/deck-index.js'
import { bodies, loadDeckState, settle, SETTLE_MS } from '../../../src/store/deck-state.js'

const dirs: string[] = []
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A deck folder of `n` slides, every file dated `age` ms ago. */
function deckFolder(n: number, age = 60_000): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-state-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'slides'))
  const ids = Array.from({ length: n }, (_, i) => `s-${i}`)
  const when = new Date(Date.now() - age)
  writeFileSync(join(dir, 'deck.json'), canonicalJson({ id: 'd', title: 'D', theme: 'simple', sections: [{ id: 'main', title: 'Main', slides: ids }], revision: 3, stamps: { createdAt: '', updatedAt: '' } }))
  for (const id of ids) {
    const file = join(dir, 'slides', `${id}.json`)
    writeFileSync(file, canonicalJson({ id, layout: id === 's-1' ? 'freeform' : 'title', title: `Title ${id}` }))
    utimesSync(file, when, when)
  }
  return dir
}

describe('deck states and the derived index', () => {
  it('reads no slide to list a deck, and the index vouches only for settled files', (t) => {
    // Files written a moment ago count as settled here (their ctime cannot be set back).
    settle.ms = 0
    t.after(() => (settle.ms = SETTLE_MS))
    const dir = deckFolder(4)
    const indexFile = join(dir, 'index.json')
    const first = loadDeckState(dir, 'd', new DerivedIndex(indexFile))
    assert.deepEqual(first.knownRecords().size, 0)
    assert.equal(first.allRecords().get('s-2')!.summary.title, 'Title s-2')
    assert.ok(JSON.parse(readFileSync(indexFile, 'utf8')).slides['s-2'], 'the index was written')
    // Same size, same mtime, other bytes: the stamp still moves (ctime), so the file is read again.
    const file = join(dir, 'slides', 's-2.json')
    const { atime, mtime } = statSync(file)
    writeFileSync(file, readFileSync(file, 'utf8').replace('Title s-2', 'Other s-2'))
    utimesSync(file, atime, mtime)
    const second = loadDeckState(dir, 'd', new DerivedIndex(indexFile))
    assert.equal(second.allRecords().get('s-2')!.summary.title, 'Other s-2')
    assert.notEqual(second.tag(), first.tag())
    // A file whose stamp moved is read again, whatever the index says.
    writeFileSync(join(dir, 'slides', 's-3.json'), '{ not json')
    utimesSync(join(dir, 'slides', 's-3.json'), atime, mtime)
    assert.throws(() => loadDeckState(dir, 'd', new DerivedIndex(indexFile)).allRecords(), /not valid JSON/, 'a changed stamp is read again')
  })

  it('reads a young file by its bytes, whatever its stamp says', () => {
    const dir = deckFolder(2, 0)
    const indexFile = join(dir, 'index.json')
    const state = loadDeckState(dir, 'd', new DerivedIndex(indexFile))
    const record = state.allRecords().get('s-0')!
    assert.equal(record.settled, false, `a file changed less than ${SETTLE_MS} ms ago is not settled`)
  })

  it('folds every file into the tag: the same content gives the same tag, any change another', () => {
    const a = deckFolder(3)
    const b = deckFolder(3)
    assert.equal(loadDeckState(a, 'a').tag(), loadDeckState(b, 'b').tag())
    writeFileSync(join(b, 'slides', 's-0.json'), canonicalJson({ id: 's-0', layout: 'title', title: 'Changed' }))
    assert.notEqual(loadDeckState(a, 'a').tag(), loadDeckState(b, 'b').tag())
  })

  it('keeps slide bodies within the size budget, evicting the least recently used', () => {
    const dir = deckFolder(20)
    const budget = bodies.budget
    try {
      bodies.budget = 1000
      const state = loadDeckState(dir, 'd')
      for (const id of state.ids) state.slide(id)
      assert.ok(bodies.stats().bytes <= 1000, JSON.stringify(bodies.stats()))
      assert.ok(bodies.stats().bodies < 20)
      assert.equal(state.slide('s-0').title, 'Title s-0', 'an evicted body is read again')
    } finally {
      bodies.budget = budget
    }
  })
})
