/**
 * Comment files merged at the model level (src/comments/merge.ts): both sides' comments kept, a
 * clashing new id renumbered, reactions as sets, thread members from the side that changed them, the
 * comments revision not behind either side, and a side that is not a thread left to git.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { mergeCommentFile, mergeThreads } from '../../../src/comments/merge.js'
import { parseThread, threadText, type Thread } from '../../../src/comments/store.js'

const base: Thread = {
  id: 't-0123456789',
  anchor: { kind: 'block', slideId: 's1', blockId: 'b1' },
  status: 'attached',
  madeAt: 3,
  comments: [{ id: 'c1', body: { text: 'Is this right?' }, author: 'Ana', at: '2026-01-01T10:00:00.000Z', reactions: { eyes: ['Cy'] } }],
  assignee: null,
  state: 'open',
  done: false,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  revision: 1,
}
const reply = (id: string, author: string, at: string, text: string) => ({ id, body: { text }, author, at, reactions: {} })

describe('merging comment threads', () => {
  it('keeps both replies made under one id, in time order, theirs numbered after the last', () => {
    const ours = { ...base, comments: [...base.comments, reply('c2', 'Cy', '2026-01-01T10:05:00.000Z', 'Source?')], updatedAt: '2026-01-01T10:05:00.000Z', revision: 2 }
    const theirs = { ...base, comments: [...base.comments, reply('c2', 'Ben', '2026-01-01T10:03:00.000Z', 'Yes.')], updatedAt: '2026-01-01T10:03:00.000Z', revision: 2 }
    const merged = mergeThreads(base, ours, theirs)
    assert.deepEqual(merged.comments.map((c) => [c.id, c.author]), [['c1', 'Ana'], ['c3', 'Ben'], ['c2', 'Cy']])
  })

  it('merges reactions as sets and takes each thread member from the side that changed it', () => {
    const ours = { ...base, state: 'resolved' as const, comments: [{ ...base.comments[0], reactions: { eyes: ['Cy'], heart: ['Ana'] } }], updatedAt: '2026-01-02T00:00:00.000Z' }
    const theirs = { ...base, assignee: { principal: 'agent:x' }, comments: [{ ...base.comments[0], reactions: { heart: ['Ben'] } }], updatedAt: '2026-01-01T12:00:00.000Z' }
    const merged = mergeThreads(base, ours, theirs)
    assert.equal(merged.state, 'resolved')
    assert.deepEqual(merged.assignee, { principal: 'agent:x' })
    // Cy's eyes: taken back by theirs, untouched by ours: gone. Hearts: added on each side: both.
    assert.deepEqual({ ...merged.comments[0].reactions }, { heart: ['Ana', 'Ben'] })
    assert.equal(merged.updatedAt, '2026-01-02T00:00:00.000Z')
  })

  it('takes the later write when both sides changed one member, and a tombstone against an edit by time', () => {
    const ours = { ...base, state: 'resolved' as const, updatedAt: '2026-01-01T11:00:00.000Z' }
    const theirs = { ...base, state: 'open' as const, assignee: null, done: false, updatedAt: '2026-01-01T12:00:00.000Z' }
    assert.equal(mergeThreads(base, ours, { ...theirs, state: 'resolved' }).state, 'resolved')
    const edited = { ...base, comments: [{ ...base.comments[0], body: { text: 'Is this right now?' }, editedAt: '2026-01-01T11:00:00.000Z' }] }
    const deleted = { ...base, comments: [{ ...base.comments[0], deletedAt: '2026-01-01T12:00:00.000Z' }] }
    const merged = mergeThreads(base, edited, deleted)
    assert.equal(merged.comments[0].body.text, 'Is this right now?')
    assert.equal(merged.comments[0].deletedAt, '2026-01-01T12:00:00.000Z')
  })

  it('merges files: the index not behind either side, a thread added on both sides, a side that is not a thread left to git', () => {
    assert.equal(JSON.parse(mergeCommentFile('index', '{"revision":3}', '{"revision":5}', '{"revision":6}')!).revision, 8)
    const ours = { ...base, comments: [reply('c1', 'Ana', '2026-01-01T10:00:00.000Z', 'A')] }
    const theirs = { ...base, comments: [reply('c1', 'Ben', '2026-01-01T10:01:00.000Z', 'B')] }
    const merged = parseThread(mergeCommentFile(base.id, '', threadText(ours), threadText(theirs))!, base.id)!
    assert.deepEqual(merged.comments.map((c) => [c.id, c.body.text]), [['c1', 'A'], ['c2', 'B']])
    assert.equal(mergeCommentFile(base.id, threadText(base), threadText(ours), '{"id":"t-0123456789","comments":"no"}'), null)
    assert.equal(mergeCommentFile(base.id, threadText(base), '<<<<', threadText(theirs)), null)
  })
})
