import { defineAction } from '../../core/action.js'
import { bool, nullable, obj, opt, outline, Role, str } from '../../model/schema.js'
import { ACCESS_RECORD, AccessRevision, ShareDeck } from './schemas.js'

export const shareRequestAccess = defineAction({
  id: 'share.requestAccess',
  label: 'Request access',
  doc: 'Asks the owner for a role on the deck. Always answers the same sentence, so the caller learns nothing about whether the deck exists; rate limited per IP.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'MHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    role: { ...Role, description: 'The role asked for.' },
    message: opt(str({ maxLength: 2000, description: 'Message to the owner.' })),
    email: opt(str({ format: 'email', description: 'Reply address; required for anonymous callers.' })),
  }),
  output: outline({ message: 'the one fixed sentence' }),
  cli: null,
  mcp: 'deck_request_access',
  example: { id: 'quarterly-review', role: 'editor', message: 'I present this on Friday.' },
})

export const shareListRequests = defineAction({
  id: 'share.listRequests',
  label: 'List access requests',
  doc: 'Pending access requests with requester label, email, role asked for, message and time.',
  group: 'share',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ id: ShareDeck }),
  output: outline({ requests: 'pending requests: id, requester label, email, role, message, time' }),
  cli: 'share requests <id>',
  mcp: 'deck_list_access_requests',
  example: { id: 'quarterly-review' },
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
  output: outline({ request: 'the answered request', grant: 'the grant written, when approved', revision: "the access record's new revision" }),
  cli: 'share respond <id> <requestId> --grant <grant> --notify',
  mcp: 'deck_respond_access_request',
  example: { id: 'quarterly-review', requestId: 'r1', grant: 'commenter', notify: true, baseRevision: 3 },
})
