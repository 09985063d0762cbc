/**
 * The network edge: who may talk to `studio serve`, and how much.
 *
 * - Loopback is the socket's remote address (127.0.0.0/8, ::1, ::ffff:127.x), never a forwarded header;
 *   a request from loopback that carries a forwarding header came from elsewhere through a proxy on this
 *   machine: it is not local (`isLocalRequest`).
 * - The client's address (rate limits, the caller's `ip`) is the socket's, unless the socket is a proxy
 *   named in STUDIO_TRUSTED_PROXIES: then the first untrusted hop of X-Forwarded-For (`clientAddress`).
 * - Off loopback every route needs `Authorization: Bearer <STUDIO_TOKEN>`; both sides are hashed
 *   before `timingSafeEqual`, so a token of any length (or none) compares in constant time and never throws.
 * - Host and Origin are checked on every route, before the token: a name this server does not answer
 *   to is 403 (DNS rebinding), whatever the path, even with a valid token. A wildcard bind answers to
 *   the loopback names, the machine's own addresses and the names given with `--allow-host`, never
 *   to any name. An Origin must be this server: scheme, name and port. Two Host headers are 400.
 * - With accounts (src/identity/auth.ts) an API key or link token is a bearer as well, and a session
 *   or link cookie is a credential off loopback; who they name is the identity module's to answer.
 * - Bodies are counted while they stream, for Content-Length and chunked alike; past the cap the
 *   request is answered 413 before any action runs.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { BlockList, isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import ipaddr from 'ipaddr.js'
import { fail, StudioError } from '../../core/errors.js'
import { presentsAccountCredential } from '../../identity/credentials.js'

export const BODY_LIMIT = 1024 * 1024
/** The function body cap of hosted deployments, for bundle uploads (configurable: --bundle-limit, STUDIO_BUNDLE_LIMIT). */
export const BUNDLE_LIMIT = Math.round(4.5 * 1024 * 1024)

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  if (plain === '::1') return true
  return isIP(plain) === 4 && plain.startsWith('127.')
}

/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const

let trusted: { value: string; list: BlockList } | undefined

/**
 * The proxies STUDIO_TRUSTED_PROXIES names (addresses and CIDR ranges, comma-separated, IPv4 or IPv6),
 * read again when the value changes. A malformed entry is refused loudly, never skipped: a typo would
 * otherwise count every client as the proxy.
 */
export function trustedProxies(): BlockList | undefined {
  const value = process.env.STUDIO_TRUSTED_PROXIES?.trim() ?? ''
  if (!value) return undefined
  if (trusted?.value === value) return trusted.list
  const list = new BlockList()
  for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address, bits, extra] = entry.split('/')
    const family = isIP(address)
    const prefix = bits === undefined ? undefined : Number(bits)
    if (!family || extra !== undefined || (prefix !== undefined && (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)))) {
      fail('invalid_input', `STUDIO_TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range (e.g. 10.0.0.0/8, 172.18.0.5, fd00::/8).`)
    }
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (prefix === undefined) list.addAddress(address, type)
    else list.addSubnet(address, prefix, type)
  }
  trusted = { value, list }
  return list
}

/** An address as BlockList checks it: an IPv4-mapped IPv6 address as its IPv4. */
function plainAddress(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address
}

function isTrusted(list: BlockList, address: string): boolean {
  const plain = plainAddress(address)
  const family = isIP(plain)
  return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * The address of the client a request comes from: the socket's, unless the socket is a trusted proxy
 * (STUDIO_TRUSTED_PROXIES). Then `X-Forwarded-For` is read from the right, the end the proxies wrote:
 * the first address that is not itself a trusted proxy is the client. An entry that is no address ends
 * the walk at the last hop that was one, so a client cannot pass off a made-up address. Rate limits and
 * the caller's `ip` use this one answer; whether a request is local never does (`isLocalRequest`).
 */
export function clientAddress(req: IncomingMessage): string | undefined {
  const socket = req.socket.remoteAddress
  const list = trustedProxies()
  if (!socket || !list || !isTrusted(list, socket)) return socket
  const header = req.headers['x-forwarded-for']
  const hops = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((h) => h.trim()).filter(Boolean)
  let client = socket
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i].replace(/^\[(.*)\]$/, '$1')
    if (!isIP(hop)) break
    client = hop
    if (!isTrusted(list, hop)) break
  }
  return client
}

/**
 * Whether the request is from this machine: a loopback socket, and no forwarding header. A proxy on this
 * machine says whom it forwards for (Caddy always does; nginx with `proxy_set_header X-Forwarded-For`), and
 * a request it forwards is not local, whoever sent it, trusted proxy or not.
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  return isLoopbackAddress(req.socket.remoteAddress) && !FORWARDING.some((name) => req.headers[name] !== undefined)
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
  /** Host names (without port; IPv6 in brackets) this server answers to. Never empty: there is no "any". */
  hosts: Set<string>
  /** The port the server listens on; a browser Origin must name it. */
  port: number
  /** Full origins allowed beside `http://<host>:<port>` (an `--allow-host https://name` behind a proxy). */
  origins: Set<string>
  token?: string
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** Whether `host` is a wildcard bind (0.0.0.0, ::, and their other spellings). */
export function isWildcardHost(host: string): boolean {
  const plain = host.replace(/^\[(.*)\]$/, '$1')
  return ipaddr.isValid(plain) && ipaddr.parse(plain).range() === 'unspecified'
}

/** An address as a Host header carries it: IPv6 in brackets, without a zone. */
function asHostName(address: string): string {
  const plain = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '').toLowerCase()
  return plain.includes(':') ? `[${ipaddr.parse(plain).toString()}]` : plain
}

/** Every address of this machine's interfaces, as Host names. */
export function ownAddresses(): string[] {
  const out: string[] = []
  for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) out.push(asHostName(info.address))
  return out
}

/**
 * The names a server bound to `host` answers to.
 *
 * - Loopback bind: the loopback names (localhost, 127.0.0.1, [::1]).
 * - Wildcard bind (0.0.0.0, ::): the loopback names, this machine's own addresses, and nothing else
 *   unless named: a DNS-rebinding page's name is never served.
 * - A specific address: that address.
 *
 * `extraHosts` (`--allow-host`, STUDIO_ALLOW_HOSTS) adds names; an entry written as an origin
 * (`https://studio.example.com`) adds its name and lets that exact Origin in too (a TLS proxy in front).
 */
export function policyFor(host: string, port: number, token: string | undefined, extraHosts: string[]): EdgePolicy {
  // A malformed STUDIO_TRUSTED_PROXIES stops the server at start, not its first request.
  trustedProxies()
  const hosts = new Set<string>()
  const origins = new Set<string>()
  for (const entry of extraHosts.map((h) => h.trim()).filter(Boolean)) {
    if (/^https?:\/\//i.test(entry)) {
      let url: URL
      try {
        url = new URL(entry)
      } catch {
        fail('invalid_input', `--allow-host "${entry}" is neither a host name nor an origin.`)
      }
      hosts.add(url.hostname.toLowerCase())
      origins.add(url.origin)
    } else hosts.add(ipaddr.isValid(entry.replace(/^\[(.*)\]$/, '$1')) ? asHostName(entry) : entry.toLowerCase())
  }
  if (isLoopbackHost(host)) for (const name of LOOPBACK_NAMES) hosts.add(name)
  else if (isWildcardHost(host)) {
    for (const name of LOOPBACK_NAMES) hosts.add(name)
    for (const name of ownAddresses()) hosts.add(name)
  } else hosts.add(ipaddr.isValid(host.replace(/^\[(.*)\]$/, '$1')) ? asHostName(host) : host.toLowerCase())
  return { hosts, port, origins, token }
}

/** The name of a Host header value, without its port (IPv6 keeps its brackets). */
function hostName(value: string): string {
  const v = value.toLowerCase()
  if (v.startsWith('[')) return v.slice(0, v.indexOf(']') + 1)
  return v.split(':')[0]
}

/** How many Host headers the request carried (Node keeps only the first in `req.headers`). */
function hostHeaderCount(req: IncomingMessage): number {
  let count = 0
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'host') count++
  return count
}

/** Whether a browser Origin is this server: scheme http, an allowed name, and this server's port (or a listed origin). */
function originAllowed(origin: string, policy: EdgePolicy): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (policy.origins.has(url.origin)) return true
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
  return url.protocol === 'http:' && port === policy.port && policy.hosts.has(hostName(url.host))
}

/**
 * Checks the request's Host, Origin and bearer, in that order: a name this server does not answer to
 * is 403 before any token is looked at or any loopback exemption applies. Throws the error to answer,
 * or returns whether the caller is local. `anonymous` routes (the page's HTML, script, style and the
 * catalogue's fonts) are served without a token off loopback; Host and Origin still apply.
 */
export function checkEdge(
  req: IncomingMessage,
  policy: EdgePolicy,
  options: { requireToken?: boolean; anonymous?: boolean; accounts?: boolean } = {},
): { loopback: boolean; staticBearer: boolean } {
  const host = req.headers.host
  if (!host) throw new StudioError('forbidden', 'A Host header is required.')
  if (hostHeaderCount(req) > 1) throw new StudioError('invalid_input', 'The request carries more than one Host header.')
  if (!policy.hosts.has(hostName(host))) throw new StudioError('forbidden', `Host "${host}" is not served here.`)
  const origin = req.headers.origin
  if (origin !== undefined && !originAllowed(origin, policy)) throw new StudioError('forbidden', `Origin "${origin}" is not allowed.`)
  const loopback = isLocalRequest(req)
  const presented = bearerOf(req)
  const staticBearer = Boolean(policy.token) && tokenMatches(presented, policy.token!)
  // With accounts an API key or a link token is a bearer too, and a session or link cookie a
  // credential off loopback (src/identity/auth.ts judges them; a bad one is 401 there).
  const accountBearer = Boolean(options.accounts) && presented !== undefined && !staticBearer && presentsAccountCredential(req.headers)
  if (accountBearer && !options.requireToken) return { loopback, staticBearer }
  // On loopback a token is needed only where the route asks for one; one that is sent must still be right.
  // An anonymous route (the page's own files, which hold no deck) needs none off loopback either.
  const cookieCredential = Boolean(options.accounts) && presented === undefined && presentsAccountCredential(req.headers)
  const needToken = (!loopback && !options.anonymous && !cookieCredential) || options.requireToken || (presented !== undefined && (policy.token !== undefined || Boolean(options.accounts)))
  if (needToken) {
    if (!policy.token || !staticBearer) {
      throw new StudioError('unauthorized', loopback ? 'A valid bearer token is required.' : 'A bearer token is required off loopback.')
    }
  }
  return { loopback, staticBearer }
}

/** Reads a body up to `limit` bytes, counting while it streams; 413 past the cap. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) {
    await drain(req, limit)
    throw new StudioError('payload_too_large', `The body is ${declared} bytes; the cap is ${limit}.`)
  }
  const chunks: Buffer[] = []
  let size = 0
  // Left without destroying the request, so drain() can read the rest (while this loop's iterator
  // listened, the request did not flow: a drain inside it saw no data and waited out its timer).
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length
    if (size > limit) break
    chunks.push(chunk as Buffer)
  }
  if (size > limit) {
    await drain(req, limit)
    throw new StudioError('payload_too_large', `The body exceeds the cap of ${limit} bytes.`)
  }
  return Buffer.concat(chunks)
}

/**
 * Reads and discards the rest of a refused body (up to 16 times the cap, at most 64 MiB, for at most
 * two seconds), so the 413 reaches a client that is still sending instead of a reset connection
 * (EPIPE). A body beyond that is cut off: the connection closes.
 */
async function drain(req: IncomingMessage, limit: number): Promise<void> {
  const cap = Math.min(64 * 1024 * 1024, limit * 16)
  if (req.readableEnded) return
  await new Promise<void>((resolve) => {
    let seen = 0
    const done = () => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', done)
      req.off('error', done)
      req.off('close', done)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > cap) done()
    }
    const timer = setTimeout(done, 2000)
    req.on('data', onData)
    req.on('end', done)
    req.on('error', done)
    req.on('close', done)
    req.resume()
  })
}

/**
 * One segment of a request path, %-decoded. A malformed escape (`%E0%A4%A`) is the caller's error, the one
 * error shape with 400, never a thrown URIError (which answered 500 on every route that decoded a segment).
 */
export function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    fail('invalid_input', `The path segment "${raw.slice(0, 80)}" holds a malformed %-escape.`)
  }
}
