import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseDeckLog, RANGE, REF, splitRange } from '../../../src/history/git.js'
import { parseTree } from '../../../src/history/objects.js'
import { StudioError } from '../../../src/core/errors.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const Z = '0'.repeat(40)

describe('reading git output', () => {
  it('parses the log of a deck folder: commits, trailers, and the blobs of each changed file', () => {
    const out = [
      `\x1e${'c'.repeat(40)}\x1f${'d'.repeat(40)}\x1falice\x1f2026-11-22T00:00:01+00:00\x1fslide.update\x1fquarterly-review\x1f4\x1f`,
      '',
      `:100644 100644 ${A} ${B} M\tdecks/quarterly-review/deck.json`,
      `:000000 100644 ${Z} ${A} A\tdecks/quarterly-review/slides/agenda-5.json`,
      `:100644 000000 ${B} ${Z} D\tdecks/quarterly-review-2/deck.json`,
      `\x1e${'d'.repeat(40)}\x1f\x1ffixture\x1f2026-11-22T00:00:00+00:00\x1f\x1f\x1f\x1f`,
      '',
      `:000000 100644 ${Z} ${B} A\tdecks/quarterly-review/deck.json`,
      '',
    ].join('\n')
    assert.deepEqual(parseDeckLog(out, 'decks/quarterly-review/'), [
      {
        commit: 'c'.repeat(40),
        parents: ['d'.repeat(40)],
        author: 'alice',
        at: '2026-11-22T00:00:01+00:00',
        action: 'slide.update',
        trailerDeck: 'quarterly-review',
        trailerRevision: 4,
        changes: [
          { path: 'deck.json', status: 'M', before: A, after: B },
          { path: 'slides/agenda-5.json', status: 'A', before: null, after: A },
        ],
      },
      {
        commit: 'd'.repeat(40),
        parents: [],
        author: 'fixture',
        at: '2026-11-22T00:00:00+00:00',
        action: null,
        trailerDeck: null,
        trailerRevision: null,
        changes: [{ path: 'deck.json', status: 'A', before: null, after: B }],
      },
    ])
  })

  it('parses a binary tree object', () => {
    const entry = (mode: string, name: string, sha: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, 'hex')])
    assert.deepEqual(parseTree(Buffer.concat([entry('100644', 'title-1.json', A), entry('40000', 'sub', B)])), [
      { mode: '100644', name: 'title-1.json', sha: A, tree: false },
      { mode: '40000', name: 'sub', sha: B, tree: true },
    ])
  })

  it('accepts refs and ranges, and nothing git could read as an option', () => {
    const ref = new RegExp(REF)
    for (const ok of ['main', 'HEAD~2', 'origin/main', 'v1.0', 'HEAD@{1}', 'abc1234', 'feature/x-y']) assert.ok(ref.test(ok), ok)
    for (const bad of ['-p', '--upload-pack=x', 'a b', 'main..HEAD', '', 'a\nb']) assert.ok(!ref.test(bad), bad)
    const range = new RegExp(RANGE)
    for (const ok of ['origin/main...HEAD', 'main..feature', 'v1.0..v2.0']) assert.ok(range.test(ok), ok)
    for (const bad of ['main', '--x..y', 'a....b', 'a..-b']) assert.ok(!range.test(bad), bad)
    assert.deepEqual(splitRange('origin/main...HEAD'), { from: 'origin/main', to: 'HEAD', mergeBase: true })
    assert.deepEqual(splitRange('v1.0..v2.0'), { from: 'v1.0', to: 'v2.0', mergeBase: false })
    assert.throws(() => splitRange('-x..y'), (e: StudioError) => e.code === 'invalid_input' && e.extra.pointer === '/gitRange')
  })
})
