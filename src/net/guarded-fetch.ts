/**
 * The one way the server fetches a URL a caller named (a bundle's `fromUrl` today; asset, capture and
 * logo fetches later): a guarded undici dispatcher against server-side request forgery.
 *
 * - Only `http:` and `https:`, no credentials in the URL.
 * - The address checked is the address connected to: the dispatcher's connector checks a literal IP
 *   host itself and hands every other name to `guardedLookup` (the socket's `lookup` hook), which
 *   resolves it (`dns.lookup`, all addresses) and refuses the connection when ANY address is not a
 *   public unicast one. No second resolution happens between the check and the connect (no TOCTOU,
 *   no DNS rebinding between them).
 * - Refused: loopback, RFC 1918 private, link-local (169.254.169.254, the cloud metadata service),
 *   CGNAT 100.64/10, multicast, unspecified, broadcast, reserved and documentation ranges,
 *   unique-local fc00::/7, and IPv6 forms carrying an IPv4 address (mapped ::ffff:a.b.c.d,
 *   compatible ::a.b.c.d, translated, NAT64 64:ff9b::/96, 6to4 2002::/16) whose IPv4 address is any
 *   of those; Teredo is refused outright. Every spelling a URL can carry (`2130706433`, `0x7f.1`,
 *   `0177.0.0.1`, `127.1`, `[::ffff:127.0.0.1]`) ends up as one parsed address: WHATWG URL
 *   normalizes the host, ipaddr.js parses it, and what `dns.lookup` answers is checked again.
 * - Redirects are followed here, never by undici: at most 5, each hop's URL checked like the first,
 *   and each hop's connection goes through the same dispatcher.
 * - Caps: bytes counted while streaming (aborted past the limit), a connect timeout, and a timeout
 *   for the whole request including the body.
 * - Failures are `fetch_refused` (400: the guard said no) or `fetch_failed` (502: the other side did
 *   not deliver). Messages name the URL's host and the reason class, never the remote body, the
 *   remote status text or a resolved address.
 *
 * `STUDIO_FETCH_ALLOW_PRIVATE=1` lets a trusted setup (and the tests) reach private and loopback
 * addresses; a comma list of addresses or CIDR ranges (`127.0.0.1,10.1.0.0/16`) allows only those.
 * Unspecified, multicast and broadcast addresses are refused whatever it says.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { createWriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import ipaddr from 'ipaddr.js'
import { Agent, buildConnector, request, type Dispatcher } from 'undici'
import { StudioError } from '../core/errors.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** Which addresses beyond public unicast a fetch may reach. */
export interface FetchPolicy {
  /** Every private, loopback, link-local... address (STUDIO_FETCH_ALLOW_PRIVATE=1). */
  allowPrivate?: boolean
  /** Only these addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1/128`). */
  allow?: string[]
}

export interface FetchOptions {
  /** Largest body in bytes; past it the transfer is aborted with payload_too_large. Default 25 MB. */
  limit?: number
  /** The whole request, redirects and body included. Default 120 s. */
  timeoutMs?: number
  /** Connecting one socket (DNS and TLS included). Default 10 s. */
  connectTimeoutMs?: number
  signal?: AbortSignal
  /** Default: from the environment (STUDIO_FETCH_ALLOW_PRIVATE). */
  policy?: FetchPolicy
}

export interface Fetched {
  /** The final URL after redirects. */
  url: string
  headers: Record<string, string | string[] | undefined>
  /** The body, counted: it errors with payload_too_large past the limit. */
  body: Readable
}

export const FETCH_LIMIT = 25 * 1024 * 1024
export const MAX_REDIRECTS = 5
const TIMEOUT_MS = 120_000
const CONNECT_TIMEOUT_MS = 10_000

/** The reason classes a refusal names, by ipaddr.js range. */
const REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  teredo: 'a Teredo tunnel address',
}
/** Never reachable, whatever the policy allows. */
const NEVER = new Set(['multicast', 'unspecified', 'broadcast'])

/** The policy of this process: STUDIO_FETCH_ALLOW_PRIVATE (`1`/`true`, or a list of addresses and ranges). */
export function fetchPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): FetchPolicy {
  const value = (env.STUDIO_FETCH_ALLOW_PRIVATE ?? '').trim()
  if (!value || value === '0' || value === 'false') return {}
  if (value === '1' || value === 'true') return { allowPrivate: true }
  return { allow: value.split(',').map((s) => s.trim()).filter(Boolean) }
}

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])
  const range = address.range()
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4(p[6], p[7])
  if (range === 'rfc6052' && p[2] === 0) return v4(p[6], p[7]) // 64:ff9b::/96 (the /48 local-use form is refused whole)
  if (range === '6to4') return v4(p[1], p[2])
  // IPv4-compatible ::a.b.c.d (deprecated): the first 96 bits zero, past :: and ::1.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return v4(p[6], p[7])
  return null
}

/** The range class of an address: 'unicast' for a public one, else the class that refuses it. */
function classify(address: Address): string {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6
    const inner = embeddedIPv4(v6)
    if (inner) {
      const innerClass = classify(inner)
      if (innerClass !== 'unicast') return innerClass
      // A public IPv4 address behind a compatible or local-use form is still not a place to fetch from.
      return v6.range() === 'unicast' ? 'reserved' : 'unicast'
    }
  }
  return address.range()
}

function matchesAllowList(address: Address, allow: string[]): boolean {
  for (const entry of allow) {
    let range: [Address, number]
    try {
      range = entry.includes('/') ? ipaddr.parseCIDR(entry) : (() => {
        const one = ipaddr.parse(entry)
        return [one, one.kind() === 'ipv4' ? 32 : 128] as [Address, number]
      })()
    } catch {
      continue
    }
    if (range[0].kind() === address.kind() && address.match(range)) return true
  }
  return false
}

/**
 * Why an address may not be fetched from (a reason class for people), or null when it may.
 * Accepts any spelling ipaddr.js parses, IPv6 with or without brackets; an unparsable one is refused.
 *
 * @example addressRefusal('0x7f.1') // 'a loopback address'
 * @example addressRefusal('93.184.216.34') // null
 */
export function addressRefusal(spelling: string, policy: FetchPolicy = {}): string | null {
  let address: Address
  try {
    address = ipaddr.parse(spelling.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''))
  } catch {
    return 'not an address'
  }
  // Compare an IPv4-mapped address as the IPv4 address it is.
  const plain = address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address
  const range = classify(address)
  if (range === 'unicast') return null
  if (NEVER.has(range)) return REASONS[range]
  if (policy.allowPrivate) return null
  if (policy.allow && (matchesAllowList(plain, policy.allow) || matchesAllowList(address, policy.allow))) return null
  return REASONS[range] ?? 'a reserved address'
}

/** Thrown inside the dispatcher (lookup, connector); turned into fetch_refused by the fetch. */
class FetchRefusal extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`Refused to fetch from "${host}": it resolves to ${reason}.`)
  }
}

/** The host of a URL without IPv6 brackets. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1')

/**
 * Checks a URL before any socket opens: scheme, credentials, and a literal IP host in every spelling
 * (WHATWG URL has already turned `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` into 127.0.0.1).
 * Names are checked by the dispatcher when they are resolved.
 */
export function checkUrl(input: string | URL, policy: FetchPolicy = fetchPolicyFromEnv()): URL {
  let url: URL
  try {
    url = new URL(String(input))
  } catch {
    throw new StudioError('fetch_refused', 'The URL to fetch is not a valid absolute URL.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new StudioError('fetch_refused', `Refused to fetch a ${url.protocol.replace(/:$/, '')}: URL; only http and https are fetched.`)
  }
  if (url.username || url.password) throw new StudioError('fetch_refused', `Refused to fetch from "${url.hostname}": the URL carries credentials.`)
  const host = bare(url.hostname)
  if (ipaddr.isValid(host)) {
    const reason = addressRefusal(host, policy)
    if (reason) throw new StudioError('fetch_refused', `Refused to fetch from "${url.hostname}": it is ${reason}.`)
  }
  return url
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * The `lookup` hook of every guarded socket: resolves all addresses, refuses the connection when one
 * is not allowed, and answers in the form the socket asked for (one address, or all of them for
 * Node's happy-eyeballs connect).
 */
export function guardedLookup(policy: FetchPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), [])
      for (const { address } of addresses) {
        const reason = addressRefusal(address, policy)
        if (reason) return callback(new FetchRefusal(hostname, reason) as NodeJS.ErrnoException, [])
      }
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0].address, addresses[0].family)
    })
  }
}

/** A dispatcher whose every connection passes the guard. */
export function guardedDispatcher(policy: FetchPolicy, connectTimeoutMs = CONNECT_TIMEOUT_MS): Agent {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(policy) } as buildConnector.BuildOptions)
  return new Agent({
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    connect: (options, callback) => {
      // A literal IP host never reaches the lookup hook: check it here.
      const host = bare(options.hostname)
      if (ipaddr.isValid(host)) {
        const reason = addressRefusal(host, policy)
        if (reason) return callback(new FetchRefusal(options.hostname, reason), null)
      }
      return connect(options, callback)
    },
  })
}

let shared: { key: string; agent: Agent } | undefined

/** The process's one guarded dispatcher for the environment's policy (rebuilt if the policy changes). */
function sharedDispatcher(policy: FetchPolicy): Agent {
  const key = JSON.stringify(policy)
  if (!shared || shared.key !== key) {
    void shared?.agent.close()
    shared = { key, agent: guardedDispatcher(policy) }
  }
  return shared.agent
}

/** Drops a body unread (its connection is closed, never reused). */
function discard(body: Readable): void {
  body.on('error', () => undefined)
  body.destroy()
}

function refusalIn(error: unknown): FetchRefusal | undefined {
  for (let e = error as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof FetchRefusal) return e
  }
  return undefined
}

/** Any failure of the transfer as the error shape, without echoing what the other side said. */
function failureOf(error: unknown, url: URL, timedOut: boolean, timeoutMs: number): StudioError {
  if (error instanceof StudioError) return error
  const refusal = refusalIn(error)
  if (refusal) return new StudioError('fetch_refused', refusal.message)
  if (timedOut) return new StudioError('fetch_failed', `Fetching from "${url.hostname}" did not finish within ${Math.round(timeoutMs / 1000)} s.`)
  const code = (error as { code?: unknown })?.code
  return new StudioError('fetch_failed', `Fetching from "${url.hostname}" failed${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}.`)
}

/**
 * Fetches a URL through the guard, following redirects by hand. The body is a stream that errors
 * with payload_too_large past `limit`; read or destroy it.
 */
export async function guardedFetch(input: string, options: FetchOptions = {}): Promise<Fetched> {
  const policy = options.policy ?? fetchPolicyFromEnv()
  const limit = options.limit ?? FETCH_LIMIT
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS
  const own = options.policy !== undefined || options.connectTimeoutMs !== undefined
  const dispatcher: Dispatcher = own ? guardedDispatcher(policy, options.connectTimeoutMs) : sharedDispatcher(policy)
  const timer = new AbortController()
  const timeout = setTimeout(() => timer.abort(new Error('timeout')), timeoutMs)
  timeout.unref()
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal
  const finish = () => {
    clearTimeout(timeout)
    if (own) void (dispatcher as Agent).close()
  }
  let url = checkUrl(input, policy)
  try {
    for (let hop = 0; ; hop++) {
      let response: Dispatcher.ResponseData
      try {
        response = await request(url, { method: 'GET', dispatcher, signal, headers: { accept: '*/*', 'user-agent': 'deck-studio' } })
      } catch (error) {
        throw failureOf(error, url, timer.signal.aborted, timeoutMs)
      }
      const status = response.statusCode
      if (status >= 300 && status < 400 && status !== 304 && response.headers.location) {
        discard(response.body)
        if (hop >= MAX_REDIRECTS) throw new StudioError('fetch_refused', `Fetching from "${url.hostname}" redirected more than ${MAX_REDIRECTS} times.`)
        const location = String(response.headers.location)
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          throw new StudioError('fetch_failed', `"${url.hostname}" redirected to an invalid URL.`)
        }
        url = checkUrl(next, policy)
        continue
      }
      if (status < 200 || status >= 300) {
        discard(response.body)
        throw new StudioError('fetch_failed', `Fetching from "${url.hostname}" answered HTTP ${status}, not a success.`, { details: { status } })
      }
      const declared = Number(response.headers['content-length'])
      if (Number.isFinite(declared) && declared > limit) {
        discard(response.body)
        throw new StudioError('payload_too_large', `The body at "${url.hostname}" is ${declared} bytes; the cap is ${limit}.`)
      }
      const host = url.hostname
      let size = 0
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length
          if (size > limit) return done(new StudioError('payload_too_large', `The body at "${host}" exceeds the cap of ${limit} bytes.`))
          done(null, chunk)
        },
      })
      const finalUrl = url
      response.body.on('error', (error) => counted.destroy(failureOf(error, finalUrl, timer.signal.aborted, timeoutMs)))
      counted.on('close', () => {
        discard(response.body)
        finish()
      })
      response.body.pipe(counted)
      return { url: url.href, headers: response.headers, body: counted }
    }
  } catch (error) {
    finish()
    throw error
  }
}

/** The whole body in memory (for small fetches; `limit` bounds it). */
export async function fetchBytes(url: string, options: FetchOptions = {}): Promise<Buffer> {
  const { body } = await guardedFetch(url, options)
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Streams the body into `file` (memory stays bounded); a failed transfer leaves no file. */
export async function saveTo(url: string, file: string, options: FetchOptions = {}): Promise<{ url: string; bytes: number }> {
  const fetched = await guardedFetch(url, options)
  try {
    await pipeline(fetched.body, createWriteStream(file, { flags: 'wx', mode: 0o600 }))
  } catch (error) {
    await rm(file, { force: true })
    throw error
  }
  return { url: fetched.url, bytes: (await stat(file)).size }
}
