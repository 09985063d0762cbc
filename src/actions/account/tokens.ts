import { defineAction } from '../../core/action.js'
import { arr, bool, int, IsoTime, nullable, obj, oneOf, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

export const SCOPES = ['read', 'comment', 'write', 'export', 'share', 'admin'] as const
const TokenId = str({ minLength: 1, maxLength: 120, description: 'API key id.' })
const Token = obj({ id: TokenId, name: str(), scopes: arr(oneOf(SCOPES)), expiresAt: nullable(IsoTime), createdAt: IsoTime, lastUsedAt: nullable(IsoTime) }, { description: 'An API key record (never its secret).' })

export const accountTokensCreate = defineAction({
  id: 'account.tokens.create',
  label: 'Create an API key',
  doc: 'Mints an API key owned by the caller with a name, scopes and an optional expiry; the secret is shown once. Never offered over MCP and refused on a checkout.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CHP',
  input: obj({
    name: str({ minLength: 1, maxLength: 80, description: 'Name of the key.' }),
    scopes: arr(oneOf(SCOPES), { minItems: 1, uniqueItems: true, description: 'Scopes: read, comment, write, export, share, admin.' }),
    expiresAt: opt({ ...IsoTime, description: 'Expiry; none when absent.' }),
  }),
  output: planned(written({ token: Token, secret: str({ description: 'The secret, shown once.' }), revision: RevisionIfWritten })),
  cli: 'account tokens create --to <to> --name <name> --scope <scopes> --expires <expiresAt>',
  mcp: null,
  example: { name: 'CI export', scopes: ['read', 'export'], expiresAt: '2026-01-01T00:00:00Z' },
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
  output: planned(result({ tokens: arr(Token, { description: "The caller's keys, without secrets." }) })),
  cli: 'account tokens list --to <to>',
  mcp: 'deck_list_tokens',
  example: {},
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
  output: planned(written({ token: { ...Token, description: 'The revoked key.' }, closedSessions: int({ minimum: 0, description: 'MCP sessions closed.' }), revision: RevisionIfWritten })),
  cli: 'account tokens revoke <tokenId> --to <to>',
  mcp: 'deck_revoke_token',
  annotations: { destructive: true, idempotent: true },
  example: { tokenId: 'k1' },
})
