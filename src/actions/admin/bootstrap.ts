import { defineAction } from '../../core/action.js'
import { arr, IsoTime, nullable, obj, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { SCOPES } from '../../core/scopes.js'
import { fail } from '../../core/errors.js'

export const adminBootstrap = defineAction({
  id: 'admin.bootstrap',
  label: 'Bootstrap an admin',
  doc: 'With the static deployment bearer, gives an email the admin role and mints the first API key, whose secret is shown once.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  capability: null,
  transports: 'CH',
  input: obj({ email: str({ format: 'email', description: 'Address of the first admin.' }) }),
  output: written({
    principal: str({ description: 'The admin principal.' }),
    token: obj({ id: str(), name: str(), scopes: arr(str()), expiresAt: nullable(IsoTime) }, { description: 'The key record.' }),
    secret: str({ description: 'The key secret, shown once.' }),
    revision: RevisionIfWritten,
  }),
  cli: 'admin bootstrap --to <to> --email <email>',
  mcp: null,
  example: { email: 'ops@example.com' },
  human: (r: { principal: string; token: { id: string }; secret: string }) => `Administrator ${r.principal}; key ${r.token.id}. Its secret, shown this once:\n${r.secret}`,
  run: async (ctx, input: { email: string }) => {
    // The deployment's bearer (or the person at the machine, on the command line without --to), nobody else.
    if (ctx.transport !== 'C' && !ctx.caller?.root) fail('forbidden', 'admin.bootstrap needs the deployment\'s static bearer (STUDIO_TOKEN).')
    if (ctx.caller && !ctx.caller.root) fail('forbidden', 'admin.bootstrap needs the deployment\'s static bearer (STUDIO_TOKEN).')
    ctx.ws.refuseEmbeddedWrite(ctx.action.id)
    const { identityOf } = await import('../../identity/db.js')
    const { checkEmail, ensurePerson } = await import('../../identity/principals.js')
    const { mintKey } = await import('../../identity/keys.js')
    const email = checkEmail(input.email)
    const identity = (await identityOf(ctx.ws, { create: true }))!
    const out = await identity.write(async (tx) => {
      const person = await ensurePerson(tx, email, { verified: true, admin: true })
      return { principal: person.id, ...(await mintKey(tx, person.id, { name: 'bootstrap', scopes: [...SCOPES] })) }
    })
    return { principal: out.principal, token: { id: out.record.id, name: out.record.name, scopes: out.record.scopes, expiresAt: out.record.expiresAt }, secret: out.secret }
  },
})
