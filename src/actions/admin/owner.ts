import { defineAction } from '../../core/action.js'
import { nullable, obj, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { emailInto } from '../share/cli.js'
import { ACCESS_RECORD, AccessRevision, AccessRevisionAfter, PrincipalOrEmail, ShareDeck } from '../share/schemas.js'
import * as run from '../share/run.js'

export const adminAssignOwner = defineAction({
  id: 'admin.assignOwner',
  label: 'Assign an owner',
  doc: "An admin sets a deck's owner directly, without an offer; the previous owner becomes an editor.",
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, to: { ...PrincipalOrEmail, description: 'The new owner: a principal or an email.' }, baseRevision: AccessRevision }),
  output: (written({ owner: str({ description: 'The new owner.' }), previousOwner: { ...nullable(str()), description: 'The previous owner; null when the deck had no record yet.' }, revision: AccessRevisionAfter })),
  cli: 'admin assign-owner <id> --email <email>',
  mcp: 'deck_assign_owner',
  cliInput: emailInto('to'),
  annotations: { idempotent: true },
  example: { id: 'quarterly-review', to: { email: 'ana@example.com' }, baseRevision: 0 },
  run: run.assignOwner,
})
