/**
 * Command-line helpers for forms that name a person by `--email <email>` or `<who>` while the
 * input takes a principal-or-email object, and for the `7d` / `30d` / `90d` expiry shorthands.
 */
import type { CliParsed } from '../../core/action.js'

type Fields = Record<string, unknown>

/** `ana@example.com` → `{ email }`; anything else (`agent:run-7`, a principal id) → `{ principal }`. */
export function whoOf(text: unknown): unknown {
  if (typeof text !== 'string') return text
  const value = text.trim()
  return value.includes('@') && !value.startsWith('agent:') ? { email: value } : { principal: value }
}

/** A hook moving `--email <email>` into the principal-or-email field `field`. */
export function emailInto(field: string) {
  return (parsed: CliParsed): Fields => {
    const email = parsed.flags.email
    return email === undefined ? parsed.input : { ...parsed.input, [field]: whoOf(email) }
  }
}

const SHORTHAND = /^(\d+)d$/

/** `7d`, `30d`, `90d` as an ISO time that many days from now; `null` and `none` as null; anything else unchanged. */
export function expiryOf(value: unknown, days: readonly number[] = [7, 30, 90]): unknown {
  if (typeof value !== 'string') return value
  if (value === 'null' || value === 'none') return null
  const match = SHORTHAND.exec(value)
  if (!match || !days.includes(Number(match[1]))) return value
  return new Date(Date.now() + Number(match[1]) * 86_400_000).toISOString()
}
