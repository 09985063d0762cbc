import { defineAction } from '../../core/action.js'
import { obj, outline, str } from '../../model/schema.js'

export const adminBootstrap = defineAction({
  id: 'admin.bootstrap',
  label: 'Bootstrap an admin',
  doc: 'With the static deployment bearer, gives an email the admin role and mints the first API key, whose secret is shown once.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  input: obj({ email: str({ format: 'email', description: 'Address of the first admin.' }) }),
  output: outline({ principal: 'the admin principal', token: 'the key record', secret: 'the key secret, shown once' }),
  cli: 'admin bootstrap --to <to> --email <email>',
  mcp: null,
  example: { email: 'ops@example.com' },
})
