import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { changesBetween, type AccessRecord } from '../../../src/page/access-changes.js'

const settings = { editorsCanShare: true, viewersCanDownload: true, viewersCanSeeComments: false, showNamesToLinkVisitors: true, allowHtmlBlocks: false }
const base: AccessRecord = {
  general: { mode: 'restricted', role: 'viewer' },
  grants: [
    { who: { email: 'ana@example.com' }, role: 'editor', expiresAt: null },
    { who: { principal: 'p_bo' }, role: 'viewer', expiresAt: null },
  ],
  links: [{ id: 'l1', role: 'viewer', label: 'Board', expiresAt: null, createdAt: '2026-01-01T00:00:00Z' }],
  deadLinks: [],
  settings,
  requests: [{ id: 'r1', requester: 'Cy', email: 'cy@example.com', role: 'viewer', message: null, at: '2026-01-01T00:00:00Z' }],
  owner: 'owner@example.com',
  pendingOwner: null,
  revision: 3,
}

describe('what changed between two readings of an access record', () => {
  it('says nothing for the same record', () => {
    assert.deepEqual(changesBetween(base, { ...base, revision: 4 }), [])
  })

  it('names each grant, link, setting, request and ownership change', () => {
    const after: AccessRecord = {
      ...base,
      general: { mode: 'link', role: 'commenter' },
      grants: [
        { who: { email: 'ana@example.com' }, role: 'commenter', expiresAt: null },
        { who: { email: 'dee@example.com' }, role: 'viewer', expiresAt: '2026-06-30T23:59:59.000Z' },
      ],
      links: [{ id: 'l2', role: 'editor', label: null, expiresAt: null, createdAt: '2026-01-02T00:00:00Z' }],
      settings: { ...settings, viewersCanSeeComments: true },
      requests: [],
      pendingOwner: 'ana@example.com',
      revision: 9,
    }
    assert.deepEqual(changesBetween(base, after), [
      'Anyone with the link is now a commenter.',
      'ana@example.com is now commenter (was editor).',
      'dee@example.com was added as viewer.',
      'p_bo was removed.',
      'An editor link was created.',
      'The link “Board” was revoked.',
      '“Viewers can see comments” is now on.',
      '1 access request was answered.',
      'Ownership is offered to ana@example.com.',
    ])
  })

  it('reads a viewer’s reduced record (no grants, links or settings) without failing', () => {
    const reduced: AccessRecord = { general: base.general, owner: base.owner, revision: 3 }
    assert.deepEqual(changesBetween(reduced, { ...reduced, general: { mode: 'link', role: 'viewer' } }), ['Anyone with the link is now a viewer.'])
  })
})
