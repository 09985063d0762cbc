import { defineAction } from '../../core/action.js'
import { arr, bool, IsoTime, nullable, obj, oneOf, opt, Role, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { emailInto, expiryOf } from './cli.js'
import { ACCESS_RECORD, AccessRevision, AccessRevisionAfter, Grant, PrincipalOrEmail, ShareDeck } from './schemas.js'
import * as run from './run.js'

export const shareInvite = defineAction({
  id: 'share.invite',
  switches: ['invites'],
  label: 'Invite people',
  doc: 'Writes one grant per address at a role and, unless notify is false, mails an invitation. Never says whether an account exists; answers per address sent, queued or no-mail, with the deck link for hand delivery.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    emails: arr(str({ format: 'email' }), { minItems: 1, uniqueItems: true, description: 'Addresses to invite.' }),
    role: { ...Role, description: 'Role the grants give.' },
    message: opt(str({ maxLength: 2000, description: 'Message in the invitation.' })),
    notify: opt(bool({ default: true, description: 'Send the invitation mail (default on).' })),
    baseRevision: AccessRevision,
  }),
  output: written({
    results: arr(obj({ email: str(), outcome: oneOf(['sent', 'queued', 'no-mail']) }), { description: 'Per address: sent, queued or no-mail.' }),
    link: str({ description: 'The deck link for hand delivery.' }),
    revision: AccessRevisionAfter,
  }),
  cli: 'share invite <id> --email <emails> --role <role> --message <message> --no-notify',
  mcp: 'deck_invite',
  example: { id: 'quarterly-review', emails: ['ana@example.com'], role: 'editor', message: 'Please check the numbers.', baseRevision: 0 },
  capability: 'share',
  run: run.invite,
})

export const shareSetRole = defineAction({
  id: 'share.setRole',
  label: 'Set a role',
  doc: "Changes the role of one grant; the owner's row is refused.",
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, who: PrincipalOrEmail, role: { ...Role, description: 'The new role.' }, baseRevision: AccessRevision }),
  output: (written({ grant: Grant, revision: AccessRevisionAfter })),
  cli: 'share role <id> --email <email> --role <role>',
  mcp: 'deck_set_role',
  cliInput: emailInto('who'),
  annotations: { idempotent: true },
  example: { id: 'quarterly-review', who: { email: 'ana@example.com' }, role: 'commenter', baseRevision: 0 },
  capability: 'share',
  run: run.setRole,
})

export const shareRemove = defineAction({
  id: 'share.remove',
  label: 'Remove access',
  doc: "Removes one grant. The caller may remove their own grant at any role; the owner's row is refused.",
  group: 'share',
  milestone: 'M9',
  mutates: true,
  capability: null,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, who: PrincipalOrEmail, baseRevision: AccessRevision }),
  output: (written({ removed: { ...Grant, description: 'The grant removed.' }, revision: AccessRevisionAfter })),
  cli: 'share remove <id> --email <email>',
  mcp: 'deck_remove_access',
  cliInput: emailInto('who'),
  annotations: { destructive: true, idempotent: true },
  example: { id: 'quarterly-review', who: { email: 'ana@example.com' }, baseRevision: 0 },
  run: run.remove,
})

export const shareSetExpiry = defineAction({
  id: 'share.setExpiry',
  label: 'Set access expiry',
  doc: 'Sets when one grant expires, at most one year ahead, or clears the expiry with null.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    who: PrincipalOrEmail,
    expiresAt: { ...nullable(IsoTime), description: 'ISO time within one year, or null to clear.' },
    baseRevision: AccessRevision,
  }),
  output: (written({ grant: { ...Grant, description: 'The grant with its expiry.' }, revision: AccessRevisionAfter })),
  cli: 'share expire <id> --email <email> --at <expiresAt>',
  mcp: 'deck_set_access_expiry',
  cliInput: (parsed) => {
    const input = emailInto('who')(parsed)
    return { ...input, expiresAt: expiryOf(input.expiresAt, []) }
  },
  annotations: { idempotent: true },
  example: { id: 'quarterly-review', who: { email: 'ana@example.com' }, expiresAt: '2025-09-30T00:00:00Z', baseRevision: 0 },
  capability: 'share',
  run: run.setExpiry,
})
