import { defineAction } from '../../core/action.js'
import { obj } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { emailInto } from './cli.js'
import { ACCESS_RECORD, AccessRevision, AccessRevisionAfter, OwnerOffer, PrincipalOrEmail, ShareDeck } from './schemas.js'
import * as run from './run.js'

const offer = (written({ ...OwnerOffer, revision: AccessRevisionAfter }))

export const shareTransferOwnership = defineAction({
  id: 'share.transferOwnership',
  label: 'Transfer ownership',
  doc: 'Offers the deck to a signed-in principal or an email; anonymous targets are refused. Owner only; the offer stays pending until accepted, declined or cancelled.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, to: { ...PrincipalOrEmail, description: 'Signed-in principal or email to offer the deck to.' }, baseRevision: AccessRevision }),
  output: offer,
  cli: 'share transfer <id> --email <email>',
  mcp: 'deck_transfer_ownership',
  cliInput: emailInto('to'),
  example: { id: 'quarterly-review', to: { email: 'ana@example.com' }, baseRevision: 0 },
  capability: 'share',
  run: run.transferOwnership,
})

export const shareAcceptOwnership = defineAction({
  id: 'share.acceptOwnership',
  label: 'Accept ownership',
  doc: 'The pending owner takes the deck; the previous owner becomes an editor.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  capability: null,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, baseRevision: AccessRevision }),
  output: offer,
  cli: 'share accept-ownership <id>',
  mcp: 'deck_accept_ownership',
  example: { id: 'quarterly-review', baseRevision: 0 },
  run: run.acceptOwnership,
})

export const shareDeclineOwnership = defineAction({
  id: 'share.declineOwnership',
  label: 'Decline ownership',
  doc: 'The pending owner declines the offer: it is cleared, the owner keeps the deck and is told; the decliner keeps any grant they had.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  capability: null,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, baseRevision: AccessRevision }),
  output: offer,
  cli: 'share decline-ownership <id>',
  mcp: 'deck_decline_ownership',
  example: { id: 'quarterly-review', baseRevision: 0 },
  run: run.declineOwnership,
})

export const shareCancelOwnership = defineAction({
  id: 'share.cancelOwnership',
  label: 'Cancel ownership transfer',
  doc: 'The owner withdraws a pending ownership offer; the offer is cleared and the pending owner keeps any grant they had. Owner only.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, baseRevision: AccessRevision }),
  output: offer,
  cli: 'share cancel-ownership <id>',
  mcp: 'deck_cancel_ownership_transfer',
  example: { id: 'quarterly-review', baseRevision: 0 },
  capability: 'share',
  run: run.cancelOwnership,
})
