/**
 * Principals: the people, anonymous browsers and agents the identity database knows. A person is
 * found by their address (lower-cased, NFC); an address is verified by a sign-in (mail or passkey).
 */
import { fail } from '../core/errors.js'
import type { IdentityTx } from './db.js'
import type { PrincipalTable } from './schema.js'
import { newId } from './secrets.js'

/** An address as stored: trimmed, NFC, lower-cased. */
export function normalEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase()
}

const EMAIL_RE = /^[^\s@<>]{1,64}@[^\s@<>]{1,253}$/u

export function checkEmail(email: string, path = 'email'): string {
  const normal = normalEmail(email)
  if (!EMAIL_RE.test(normal)) fail('invalid_input', 'That is not an email address.', { path })
  return normal
}

export async function principalById(db: IdentityTx, id: string): Promise<PrincipalTable | undefined> {
  return db.selectFrom('principals').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function personByEmail(db: IdentityTx, email: string): Promise<PrincipalTable | undefined> {
  return db.selectFrom('principals').selectAll().where('email', '=', normalEmail(email)).where('kind', '=', 'person').executeTakeFirst()
}

/**
 * The person with this address, made when there is none; `verified` marks the address as proven (a
 * sign-in), `admin` makes them an administrator. Answers the row as it is after the write.
 */
export async function ensurePerson(db: IdentityTx, email: string, options: { verified?: boolean; admin?: boolean } = {}, now = new Date().toISOString()): Promise<PrincipalTable> {
  const address = normalEmail(email)
  const found = await personByEmail(db, address)
  if (!found) {
    const row: PrincipalTable = {
      id: newId('p_'),
      kind: 'person',
      email: address,
      name: null,
      name_skeleton: null,
      avatar: null,
      trust: options.verified ? 'verified' : 'unverified',
      is_admin: options.admin ? 1 : 0,
      created_at: now,
      last_seen_at: null,
    }
    await db.insertInto('principals').values(row).execute()
    return row
  }
  const trust = options.verified ? 'verified' : found.trust
  const isAdmin = options.admin ? 1 : found.is_admin
  if (trust !== found.trust || isAdmin !== found.is_admin) await db.updateTable('principals').set({ trust, is_admin: isAdmin }).where('id', '=', found.id).execute()
  return { ...found, trust, is_admin: isAdmin }
}

/** A fresh anonymous principal (a browser that signed in to nothing). */
export async function newAnonymous(db: IdentityTx, now = new Date().toISOString()): Promise<PrincipalTable> {
  const row: PrincipalTable = { id: newId('p_'), kind: 'anonymous', email: null, name: null, name_skeleton: null, avatar: null, trust: 'unverified', is_admin: 0, created_at: now, last_seen_at: null }
  await db.insertInto('principals').values(row).execute()
  return row
}

/** How a principal is shown: their name, else their address, else their kind. */
export function labelOf(row: Pick<PrincipalTable, 'name' | 'email' | 'kind'>): string {
  return row.name ?? row.email ?? (row.kind === 'anonymous' ? 'Anonymous' : 'Agent')
}
