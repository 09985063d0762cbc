/**
 * What the account and admin actions share: the caller's own account (refused on a checkout, where
 * there is none), and cookies an action asks the page transport to set (a fresh anonymous session
 * after account.forget, a cleared one after signing out of the current session).
 */
import type { ActionContext } from '../core/action.js'
import { fail } from '../core/errors.js'
import type { Caller } from './caller.js'
import type { Identity } from './db.js'

export interface OwnAccount {
  identity: Identity
  caller: Caller
  principalId: string
}

/** The caller's account, or a refusal: a checkout has none, the deployment's bearer is none, an anonymous caller has none yet. */
export async function ownAccount(ctx: Pick<ActionContext, 'caller' | 'ws' | 'action'>): Promise<OwnAccount> {
  const caller = ctx.caller
  if (!caller) fail('refused', `${ctx.action.id} needs a studio with accounts; on a checkout there is no account (studio ${ctx.action.cli?.split(' --')[0] ?? ''} --to <studio address>).`)
  if (!caller.principalId) {
    if (caller.root) fail('refused', `The deployment's bearer is not an account: sign in, or use a key admin.bootstrap minted.`)
    fail('unauthorized', 'Sign in first: this call is about your account, and this request carries none.')
  }
  const { identityOf } = await import('./db.js')
  const identity = await identityOf(ctx.ws)
  if (!identity) fail('refused', `${ctx.action.id} needs a studio with accounts.`)
  return { identity, caller, principalId: caller.principalId }
}

const cookies = new WeakMap<Caller, string[]>()

/** Asks the transport answering this caller's request to send a Set-Cookie header. */
export function setCookie(caller: Caller, header: string): void {
  const list = cookies.get(caller) ?? []
  list.push(header)
  cookies.set(caller, list)
}

/** The Set-Cookie headers actions asked for on this request (emptied). */
export function takeCookies(caller: Caller | undefined): string[] {
  if (!caller) return []
  const list = cookies.get(caller) ?? []
  cookies.delete(caller)
  return list
}

/**
 * A session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when the request came over TLS (a proxy's
 * https origin) or STUDIO_PUBLIC_URL is https. `value` null clears it.
 */
export function sessionCookie(name: string, value: string | null, options: { secure?: boolean; maxAgeSeconds?: number } = {}): string {
  const secure = options.secure || /^https:/i.test(process.env.STUDIO_PUBLIC_URL ?? '')
  const parts = [`${name}=${value ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  if (value === null) parts.push('Max-Age=0')
  else if (options.maxAgeSeconds) parts.push(`Max-Age=${Math.floor(options.maxAgeSeconds)}`)
  if (secure) parts.push('Secure')
  return parts.join('; ')
}

/** The origin a request reached: STUDIO_PUBLIC_URL where set (behind a proxy), else its Origin, else its Host. */
export function originOf(req: import('node:http').IncomingMessage): string {
  const configured = process.env.STUDIO_PUBLIC_URL?.trim()
  if (configured) return new URL(configured).origin
  if (typeof req.headers.origin === 'string') return req.headers.origin
  return `http://${req.headers.host}`
}

/** Whether a request came over TLS (its origin is https, or its socket is encrypted): cookies set on it are Secure. */
export const secureRequest = (req: import('node:http').IncomingMessage) => /^https:/i.test(originOf(req)) || (req.socket as { encrypted?: boolean }).encrypted === true
