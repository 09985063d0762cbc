/**
 * Every secret studio issues: `studio_<kind>_<30 random base62 characters><6 base62 of a CRC-32>`,
 * as GitHub and Stripe write theirs. The prefix says what it is (a leaked one is recognised by a
 * secret scanner and by a person); the checksum lets a typo or a scanner's false match be refused
 * without a database lookup. 30 base62 characters carry 178 bits. Stored only as the hex SHA-256 of
 * the whole secret (a random secret of this length needs no slow hash), looked up by that hash, and
 * never logged: the server's logs name a key by its id.
 */
import { createHash, randomBytes } from 'node:crypto'

/** What a secret opens: an API key, a sign-in session, a share link, a sign-in mail link, an anonymous browser. */
export const SECRET_KINDS = { key: 'key', session: 'ses', link: 'lnk', magic: 'mgl', anonymous: 'anon' } as const
export type SecretKind = keyof typeof SECRET_KINDS

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BODY = 30
const CHECK = 6

function base62(bytes: Buffer, length: number): string {
  let out = ''
  // Rejection sampling keeps every character equally likely (248 = 4 × 62).
  let pool = bytes
  let i = 0
  while (out.length < length) {
    if (i >= pool.length) {
      pool = randomBytes(length * 2)
      i = 0
    }
    const b = pool[i++]
    if (b < 248) out += ALPHABET[b % 62]
  }
  return out
}

function encodeNumber(n: number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = ALPHABET[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(text: string): number {
  let c = 0xffffffff
  for (const byte of Buffer.from(text, 'utf8')) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const prefixOf = (kind: SecretKind) => `studio_${SECRET_KINDS[kind]}_`

export interface Minted {
  /** The secret: shown once, never stored. */
  secret: string
  /** What is stored: hashOf(secret). */
  hash: string
  /** The prefix and the first four random characters, for lists ("studio_key_a1B2…"). */
  hint: string
}

export function mintSecret(kind: SecretKind): Minted {
  const body = base62(randomBytes(BODY * 2), BODY)
  const prefix = prefixOf(kind)
  const secret = `${prefix}${body}${encodeNumber(crc32(prefix + body), CHECK)}`
  return { secret, hash: hashOf(secret), hint: `${prefix}${body.slice(0, 4)}…` }
}

/** The stored form of a secret. */
export function hashOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

/** Whether `value` is a well-formed secret of `kind` (prefix, length, alphabet, checksum), before any lookup. */
export function wellFormed(value: string, kind: SecretKind): boolean {
  const prefix = prefixOf(kind)
  if (!value.startsWith(prefix) || value.length !== prefix.length + BODY + CHECK) return false
  const body = value.slice(prefix.length, prefix.length + BODY)
  if (!/^[0-9A-Za-z]+$/.test(body)) return false
  return value.slice(prefix.length + BODY) === encodeNumber(crc32(prefix + body), CHECK)
}

/** The kind a presented secret claims by its prefix, or null. */
export function kindOf(value: string): SecretKind | null {
  for (const kind of Object.keys(SECRET_KINDS) as SecretKind[]) if (value.startsWith(prefixOf(kind))) return kind
  return null
}

/** A short random id for a row (principal, key, link, session): never a secret, safe to log. */
export function newId(prefix: string): string {
  return `${prefix}${base62(randomBytes(24), 12).toLowerCase()}`
}
