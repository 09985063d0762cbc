import { defineAction } from '../../core/action.js'
import { int, IsoTime, nullable, obj, oneOf, opt } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { emailInto } from './cli.js'
import { AccessRecord, Capabilities, PrincipalOrEmail, ShareDeck, Via } from './schemas.js'
import * as run from './run.js'

export const shareGet = defineAction({
  id: 'share.get',
  label: 'Get sharing',
  doc: "The deck's access record with hashed tokens and the dead links of the last 30 days, the caller's role, how it was reached and its capabilities. A viewer receives only the owner, the general access mode, their own grant and their capabilities.",
  group: 'share',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ id: ShareDeck }),
  output: result({
    access: AccessRecord,
    role: oneOf(['owner', 'viewer', 'commenter', 'editor'], { description: "The caller's role." }),
    via: Via,
    capabilities: Capabilities,
    revision: int({ minimum: 0, description: "The access record's revision." }),
  }),
  cli: 'share get <id>',
  mcp: 'deck_get_share',
  example: { id: 'quarterly-review' },
  capability: 'read',
  run: run.get,
})

export const shareCheck = defineAction({
  id: 'share.check',
  label: 'Check access',
  doc: "What a given principal or email may do on the deck: its effective role, how it reaches it (owner, grant, link, general access) and the capabilities that gives; the caller itself when who is absent. Checking someone else needs the right to share.",
  group: 'share',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ id: ShareDeck, who: opt({ ...PrincipalOrEmail, description: 'The principal or email to check; the caller when absent.' }) }),
  output: result({
    role: { ...nullable(oneOf(['owner', 'viewer', 'commenter', 'editor'])), description: 'The effective role, or null without access.' },
    via: nullable(Via),
    expiresAt: { ...nullable(IsoTime), description: 'When the grant expires.' },
    capabilities: Capabilities,
  }),
  cli: 'share check <id> --email <email>',
  mcp: 'deck_check_access',
  cliInput: emailInto('who'),
  example: { id: 'quarterly-review', who: { email: 'ana@example.com' } },
  capability: 'read',
  run: run.check,
})
