import { defineAction } from '../../core/action.js'
import { arr, IsoTime, nullable, obj, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

export const adminBootstrap = defineAction({
  id: 'admin.bootstrap',
  label: 'Bootstrap an admin',
  doc: 'With the static deployment bearer, gives an email the admin role and mints the first API key, whose secret is shown once.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({ email: str({ format: 'email', description: 'Address of the first admin.' }) }),
  output: planned(
    written({
      principal: str({ description: 'The admin principal.' }),
      token: obj({ id: str(), name: str(), scopes: arr(str()), expiresAt: nullable(IsoTime) }, { description: 'The key record.' }),
      secret: str({ description: 'The key secret, shown once.' }),
      revision: RevisionIfWritten,
    }),
  ),
  cli: 'admin bootstrap --to <to> --email <email>',
  mcp: null,
  example: { email: 'ops@example.com' },
})
