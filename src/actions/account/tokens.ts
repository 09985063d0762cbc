import { defineAction } from '../../core/action.js'
import { arr, bool, int, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { fail } from '../../core/errors.js'
import type { Scope } from '../../core/access.js'

import { SCOPES } from '../../core/scopes.js'
const TokenId = str({ minLength: 1, maxLength: 120, description: 'API key id.' })
const Token = obj({ id: TokenId, name: str(), scopes: arr(oneOf(SCOPES)), expiresAt: nullable(IsoTime), createdAt: IsoTime, lastUsedAt: nullable(IsoTime) }, { description: 'An API key record (never its secret).' })

export const accountTokensCreate = defineAction({
  id: 'account.tokens.create',
  label: 'Create an API key',
  doc: 'Mints an API key owned by the caller with a name, scopes and an optional expiry; the secret is shown once. Never offered over MCP and refused on a checkout; a key creates only keys with scopes it has and no later expiry.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CHP',
  input: obj({
    name: str({ minLength: 1, maxLength: 80, description: 'Name of the key.' }),
    scopes: arr(oneOf(SCOPES), { minItems: 1, uniqueItems: true, description: 'Scopes: read, comment, write, export, share, admin.' }),
    expiresAt: opt({ ...IsoTime, description: 'Expiry; none when absent.' }),
  }),
  output: written({ token: Token, secret: str({ description: 'The secret, shown once.' }), revision: RevisionIfWritten }),
  cli: 'account tokens create --to <to> --name <name> --scope <scopes> --expires <expiresAt>',
  mcp: null,
  example: { name: 'CI export', scopes: ['read', 'export'], expiresAt: '2030-01-01T00:00:00Z' },
  human: (r: { token: { id: string; name: string }; secret: string }) => `Key ${r.token.id} (${r.token.name}). Its secret, shown this once:\n${r.secret}`,
  run: async (ctx, input: { name: string; scopes: Scope[]; expiresAt?: string }) => {
    const { ownAccount } = await import('../../identity/account.js')
    const { requirePerson } = await import('../../identity/roles.js')
    const { mintKey } = await import('../../identity/keys.js')
    const { identity, caller, principalId } = await ownAccount(ctx)
    if (ctx.transport === 'M') fail('refused', 'API keys are never created over MCP.')
    requirePerson(caller, 'create an API key')
    // A key mints only keys that do no more than it (the command line's `--to` form has no other
    // credential): never a scope it lacks, never a later expiry than its own.
    if (caller.keyId) {
      const extra = input.scopes.filter((scope) => !caller.scopes?.has(scope))
      if (extra.length) fail('forbidden', `An API key creates keys only with scopes it has itself; this one lacks ${extra.join(', ')}.`, { pointer: '/scopes' })
      const own = await identity.db.selectFrom('api_keys').select('expires_at').where('id', '=', caller.keyId).executeTakeFirst()
      if (own?.expires_at && (input.expiresAt === undefined || Date.parse(input.expiresAt) > Date.parse(own.expires_at))) {
        fail('forbidden', `A key made by an API key expires no later than that key (${own.expires_at}).`, { pointer: '/expiresAt' })
      }
    }
    const minted = await identity.write((tx) => mintKey(tx, principalId, { name: input.name, scopes: input.scopes, expiresAt: input.expiresAt ?? null }))
    return { token: minted.record, secret: minted.secret }
  },
})

export const accountTokensList = defineAction({
  id: 'account.tokens.list',
  label: 'List API keys',
  doc: "The caller's API keys without their secrets.",
  group: 'account',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({ tokens: arr(Token, { description: "The caller's keys, without secrets." }) }),
  cli: 'account tokens list --to <to>',
  mcp: 'deck_list_tokens',
  example: {},
  human: (r: { tokens: { id: string; name: string; scopes: string[]; expiresAt: string | null }[] }) =>
    r.tokens.length ? r.tokens.map((t) => `${t.id}  ${t.name}  [${t.scopes.join(', ')}]${t.expiresAt ? `  expires ${t.expiresAt}` : ''}`).join('\n') : 'No API keys.',
  run: async (ctx) => {
    const { ownAccount } = await import('../../identity/account.js')
    const { keysOf } = await import('../../identity/keys.js')
    const { identity, principalId } = await ownAccount(ctx)
    return { tokens: await keysOf(identity.db, principalId) }
  },
})

export const accountTokensRevoke = defineAction({
  id: 'account.tokens.revoke',
  label: 'Revoke an API key',
  doc: "Revokes one of the caller's API keys; its MCP sessions close.",
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({ tokenId: TokenId }),
  output: written({ token: { ...Token, description: 'The revoked key.' }, closedSessions: int({ minimum: 0, description: 'MCP sessions closed.' }), revision: RevisionIfWritten }),
  cli: 'account tokens revoke <tokenId> --to <to>',
  mcp: 'deck_revoke_token',
  annotations: { destructive: true, idempotent: true },
  example: { tokenId: 'k1' },
  run: async (ctx, input: { tokenId: string }) => {
    const { ownAccount } = await import('../../identity/account.js')
    const { revokeKey } = await import('../../identity/keys.js')
    const { closeMcpSessions } = await import('../../identity/auth.js')
    const { identity, principalId } = await ownAccount(ctx)
    const token = await identity.write((tx) => revokeKey(tx, principalId, input.tokenId))
    return { token, closedSessions: await closeMcpSessions(`key:${token.id}`) }
  },
})
