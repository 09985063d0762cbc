/**
 * API keys: owned by a principal, cut to their scopes, shown once. The database keeps the SHA-256
 * of the secret and a hint (prefix and four characters) for lists.
 */
import type { Scope } from '../core/access.js'
import { fail } from '../core/errors.js'
import type { IdentityTx } from './db.js'
import type { ApiKeyTable } from './schema.js'
import { mintSecret, newId } from './secrets.js'

export interface KeyRecord {
  id: string
  name: string
  scopes: Scope[]
  expiresAt: string | null
  createdAt: string
  lastUsedAt: string | null
}

export function scopesOf(row: Pick<ApiKeyTable, 'scopes'>): Scope[] {
  try {
    const value = JSON.parse(row.scopes) as unknown
    return Array.isArray(value) ? (value.filter((s) => typeof s === 'string') as Scope[]) : []
  } catch {
    return []
  }
}

export function keyRecord(row: ApiKeyTable): KeyRecord {
  return { id: row.id, name: row.name, scopes: scopesOf(row), expiresAt: row.expires_at, createdAt: row.created_at, lastUsedAt: row.last_used_at }
}

/** Mints a key for the principal; answers its record and the secret (shown once). */
export async function mintKey(db: IdentityTx, principalId: string, input: { name: string; scopes: Scope[]; expiresAt?: string | null }, now = new Date().toISOString()): Promise<{ record: KeyRecord; secret: string }> {
  if (input.expiresAt && input.expiresAt <= now) fail('invalid_input', 'expiresAt must be in the future.', { path: 'expiresAt' })
  const minted = mintSecret('key')
  const row: ApiKeyTable = {
    id: newId('k_'),
    principal_id: principalId,
    name: input.name,
    scopes: JSON.stringify([...new Set(input.scopes)]),
    secret_hash: minted.hash,
    hint: minted.hint,
    created_at: now,
    expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    last_used_at: null,
    revoked_at: null,
  }
  await db.insertInto('api_keys').values(row).execute()
  return { record: keyRecord(row), secret: minted.secret }
}

/** The principal's keys that are not revoked, newest first. */
export async function keysOf(db: IdentityTx, principalId: string): Promise<KeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('principal_id', '=', principalId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute()
  return rows.map(keyRecord)
}

/** Revokes one of the principal's keys (a key of someone else answers 404, as a missing one). */
export async function revokeKey(db: IdentityTx, principalId: string, keyId: string, now = new Date().toISOString()): Promise<KeyRecord> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('principal_id', '=', principalId).executeTakeFirst()
  if (!row) fail('not_found', `No API key "${keyId}" of yours.`, { path: 'tokenId' })
  if (row.revoked_at === null) await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute()
  return keyRecord({ ...row, revoked_at: row.revoked_at ?? now })
}
