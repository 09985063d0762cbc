/**
 * Reading credentials off a request without opening the identity database: the edge
 * (src/transports/http/edge.ts) asks whether a request carries one accounts recognise before any
 * lookup; src/identity/auth.ts judges them.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { LINK_COOKIE_PREFIX, SESSION_COOKIE } from './caller.js'
import { kindOf } from './secrets.js'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Workspace } from '../store/workspace.js'
import { databaseUrl } from './database-url.js'

/** The request's cookies by name (null prototype: a cookie named __proto__ is a cookie). */
export function cookiesOf(headers: IncomingHttpHeaders): Map<string, string> {
  const out = new Map<string, string>()
  const raw = headers.cookie
  if (!raw) return out
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (name && !out.has(name)) out.set(name, value)
  }
  return out
}

export function bearer(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization?.trim() ?? '')
  return match ? match[1].trim() : undefined
}

/** Whether the request presents a credential accounts recognise (a studio secret as bearer, or a session or link cookie). */
export function presentsAccountCredential(headers: IncomingHttpHeaders): boolean {
  const presented = bearer(headers)
  if (presented !== undefined) return kindOf(presented) === 'key' || kindOf(presented) === 'link'
  for (const name of cookiesOf(headers).keys()) if (name === SESSION_COOKIE || name.startsWith(LINK_COOKIE_PREFIX)) return true
  return false
}


export { databaseUrl }

/**
 * Whether the workspace has accounts: STUDIO_DATABASE_URL names an identity database on PostgreSQL, or
 * the workspace's own SQLite file exists (src/identity/db.ts `identityOf`; read here without loading the
 * query layer). Every path that asks goes through here.
 */
export function accountsOn(ws: Workspace): boolean {
  return databaseUrl() !== undefined || existsSync(join(ws.stateDir, 'identity.db'))
}
