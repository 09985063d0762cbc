/**
 * The network edge: who may talk to `studio serve`, and how much.
 *
 * - Loopback is the socket's remote address (127.0.0.0/8, ::1, ::ffff:127.x), never a forwarded header.
 * - Off loopback every route needs `Authorization: Bearer <STUDIO_TOKEN>`; both sides are hashed
 *   before `timingSafeEqual`, so a token of any length (or none) compares in constant time and never throws.
 * - Host and Origin are checked on every route: a name this server was not bound to answers 403
 *   (DNS rebinding), whatever the path.
 * - Bodies are counted while they stream, for Content-Length and chunked alike; past the cap the
 *   request is answered 413 before any action runs.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { StudioError } from '../../core/errors.js'

export const BODY_LIMIT = 1024 * 1024
/** The function body cap of hosted deployments, for bundle uploads (configurable: --bundle-limit, STUDIO_BUNDLE_LIMIT). */
export const BUNDLE_LIMIT = Math.round(4.5 * 1024 * 1024)

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  if (plain === '::1') return true
  return isIP(plain) === 4 && plain.startsWith('127.')
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host) || host === '[::1]'
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/** Constant-time comparison of a presented token with the configured one. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  const ok = timingSafeEqual(digest(presented ?? ''), digest(expected))
  return ok && presented !== undefined && expected.length > 0
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(.+)$/i.exec(header.trim())
  return match ? match[1].trim() : undefined
}

export interface EdgePolicy {
  /** Host names (without port) this server answers to; empty means any (a wildcard bind with no list). */
  hosts: Set<string>
  port: number
  token?: string
}

/** The names a server bound to `host` answers to. */
export function policyFor(host: string, port: number, token: string | undefined, extraHosts: string[]): EdgePolicy {
  const hosts = new Set<string>(extraHosts.map((h) => h.toLowerCase()))
  if (isLoopbackHost(host)) for (const name of ['localhost', '127.0.0.1', '[::1]', '::1']) hosts.add(name)
  else if (host !== '0.0.0.0' && host !== '::') hosts.add(host.includes(':') ? `[${host}]` : host.toLowerCase())
  return { hosts, port, token }
}

function hostName(value: string): string {
  const v = value.toLowerCase()
  if (v.startsWith('[')) return v.slice(0, v.indexOf(']') + 1)
  return v.split(':')[0]
}

/** Checks Host, Origin and the bearer; throws the error to answer, or returns whether the caller is local. */
export function checkEdge(req: IncomingMessage, policy: EdgePolicy, options: { requireToken?: boolean } = {}): { loopback: boolean } {
  const host = req.headers.host
  if (!host) throw new StudioError('forbidden', 'A Host header is required.')
  if (policy.hosts.size && !policy.hosts.has(hostName(host))) throw new StudioError('forbidden', `Host "${host}" is not served here.`)
  const origin = req.headers.origin
  if (origin !== undefined && origin !== 'null') {
    let originHost: string
    try {
      originHost = new URL(origin).host
    } catch {
      throw new StudioError('forbidden', `Origin "${origin}" is not allowed.`)
    }
    if (policy.hosts.size ? !policy.hosts.has(hostName(originHost)) : hostName(originHost) !== hostName(host)) {
      throw new StudioError('forbidden', `Origin "${origin}" is not allowed.`)
    }
  } else if (origin === 'null') throw new StudioError('forbidden', 'Origin "null" is not allowed.')
  const loopback = isLoopbackAddress(req.socket.remoteAddress)
  const presented = bearerOf(req)
  // On loopback a token is needed only where the route asks for one; one that is sent must still be right.
  const needToken = !loopback || options.requireToken || (presented !== undefined && policy.token !== undefined)
  if (needToken) {
    if (!policy.token || !tokenMatches(presented, policy.token)) {
      throw new StudioError('unauthorized', loopback ? 'A valid bearer token is required.' : 'A bearer token is required off loopback.')
    }
  }
  return { loopback }
}

/** Reads a body up to `limit` bytes, counting while it streams; 413 past the cap. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) {
    throw new StudioError('payload_too_large', `The body is ${declared} bytes; the cap is ${limit}.`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new StudioError('payload_too_large', `The body exceeds the cap of ${limit} bytes.`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
