/**
 * Structured logs of `studio serve` (docs/hosting.md): with STUDIO_LOG=json, one JSON object per line on
 * standard error — each request when it ends, and the server's start and stop. A line never holds a
 * secret: paths lose their query string (a `?token=` stays out), and the path segments that are secrets
 * (`/s/<link token>`, `/auth/mail/<sign-in token>`, anything shaped like a studio secret) are shown as `…`.
 * Without STUDIO_LOG=json nothing here writes: the human output of serve is unchanged.
 */
import type { IncomingMessage } from 'node:http'
import type { Caller } from '../../identity/caller.js'

export const jsonLogs = (): boolean => process.env.STUDIO_LOG === 'json'

export function logLine(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  if (!jsonLogs()) return
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n')
}

/** A request's path as a log shows it: no query, no secret segment, at most 300 characters. */
export function shownPath(url: string | undefined): string {
  const path = (url ?? '/').split(/[?#]/, 1)[0]
  const shown = path
    .replace(/^\/s\/[^/]+/, '/s/…')
    .replace(/^\/auth\/mail\/[^/]+/, '/auth/mail/…')
    .replace(/studio_[a-z]+_[A-Za-z0-9]+/g, '…')
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown
}

/** What a request's handler learned that its log line names: the action called and who called it. */
export interface RequestFacts {
  action?: string
  caller?: Caller
}

const facts = new WeakMap<IncomingMessage, RequestFacts>()

export function noteRequest(req: IncomingMessage, more: RequestFacts): void {
  facts.set(req, { ...facts.get(req), ...more })
}

/** Who made a request, as a log names them: a principal id, the deployment, or anonymous; never a credential. */
function callerOf(caller: Caller | undefined): string {
  if (!caller) return 'checkout'
  if (caller.root) return 'deployment'
  return caller.principalId ?? (caller.links?.size ? 'link-visitor' : 'anonymous')
}

export function logRequest(req: IncomingMessage, status: number, ms: number, requestId: string, error?: { code: string; message: string }): void {
  if (!jsonLogs()) return
  const known = facts.get(req)
  logLine(status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', 'request', {
    requestId,
    method: req.method,
    path: shownPath(req.url),
    status,
    ms: Math.round(ms * 10) / 10,
    ...(known?.action ? { action: known.action } : {}),
    caller: callerOf(known?.caller),
    ...(error ? { error } : {}),
  })
}
