import { defineAction } from '../../core/action.js'
import { arr, bool, nullable, obj, opt, Role, str } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { ACCESS_RECORD, AccessRequest, AccessRevision, AccessRevisionAfter, Grant, ShareDeck } from './schemas.js'
import * as run from './run.js'

export const shareRequestAccess = defineAction({
  id: 'share.requestAccess',
  label: 'Request access',
  doc: 'Asks the owner for a role on the deck. Always answers the same sentence, so the caller learns nothing about whether the deck exists; rate limited per IP.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  capability: null,
  transports: 'MHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    role: { ...Role, description: 'The role asked for.' },
    message: opt(str({ maxLength: 2000, description: 'Message to the owner.' })),
    email: opt(str({ format: 'email', description: 'Reply address; required for anonymous callers.' })),
  }),
  output: (written({ message: str({ description: 'The one fixed sentence.' }), revision: RevisionIfWritten })),
  cli: null,
  mcp: 'deck_request_access',
  example: { id: 'quarterly-review', role: 'editor', message: 'I present this on Friday.' },
  run: run.requestAccess,
})

export const shareListRequests = defineAction({
  id: 'share.listRequests',
  label: 'List access requests',
  doc: 'Pending access requests with requester label, email, role asked for, message and time.',
  group: 'share',
  milestone: 'M9',
  mutates: false,
  capability: 'share',
  transports: 'CMHP',
  input: obj({ id: ShareDeck }),
  output: (result({ requests: arr(AccessRequest, { description: 'Pending requests.' }) })),
  cli: 'share requests <id>',
  mcp: 'deck_list_access_requests',
  example: { id: 'quarterly-review' },
  run: run.listRequests,
})

export const shareRespond = defineAction({
  id: 'share.respond',
  label: 'Answer an access request',
  doc: 'Approves a pending access request as a role, or declines it with null; the requester is told when notify is set.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    requestId: str({ minLength: 1, description: 'The pending request.' }),
    grant: { ...nullable(Role), description: 'viewer, commenter, editor, or null to decline.' },
    notify: opt(bool({ description: 'Tell the requester.' })),
    baseRevision: AccessRevision,
  }),
  output: written({
    request: { ...AccessRequest, description: 'The answered request.' },
    grant: { ...nullable(Grant), description: 'The grant written when approved; null when declined.' },
    revision: AccessRevisionAfter,
  }),
  cli: 'share respond <id> <requestId> --grant <grant> --notify',
  mcp: 'deck_respond_access_request',
  example: { id: 'quarterly-review', requestId: 'r1', grant: 'commenter', notify: true, baseRevision: 0 },
  capability: 'share',
  run: run.respond,
})
