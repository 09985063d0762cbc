/**
 * Hourly rate limits (rate-limiter-flexible), one place for every limit the studio keeps: sign-in mails
 * per address and per client (src/transports/http/auth-routes.ts), access requests per client
 * (share.requestAccess), passkey sign-ins begun per client, uploads per uploader. Each limit's points come
 * from its environment variable, read at each call (a changed value starts a fresh counter), else its
 * default.
 *
 * Where the identity database is PostgreSQL (STUDIO_DATABASE_URL: the hosted studio, several instances),
 * the counters are its `rate_limits` rows, so the instances share one count: three instances do not give
 * a client three times the limit. A row's key is the limit's name and a SHA-256 of what it counts, never
 * an address. Should the database fail mid-count, the process counts in its memory meanwhile (the
 * library's insurance limiter) rather than refuse everyone. A checkout counts in its process's memory.
 */
import { createHash } from 'node:crypto'
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { isIPv6 } from 'node:net'
import { fail } from '../core/errors.js'
import { databaseUrl } from './database-url.js'

export interface HourlyLimit {
  /** The environment variable that sets the points per hour. */
  env: string
  fallback: number
}

export const LIMITS = {
  signinMailsPerAddress: { env: 'STUDIO_SIGNIN_MAILS_PER_HOUR', fallback: 5 },
  signinMailsPerClient: { env: 'STUDIO_SIGNIN_MAILS_PER_CLIENT_HOUR', fallback: 60 },
  accessRequestsPerClient: { env: 'STUDIO_ACCESS_REQUESTS_PER_HOUR', fallback: 20 },
  passkeyChallengesPerClient: { env: 'STUDIO_PASSKEY_SIGNINS_PER_CLIENT_HOUR', fallback: 120 },
  uploadsPerUploader: { env: 'STUDIO_UPLOADS_PER_HOUR', fallback: 120 },
} as const satisfies Record<string, HourlyLimit>

const HOUR = 3600

/** Each limit's counter, per place it counts in (this process's memory, or a database URL). */
const counters = new Map<string, { points: number; limiter: RateLimiterAbstract; shared: boolean }>()

async function counterOf(limit: HourlyLimit, points: number): Promise<{ limiter: RateLimiterAbstract; shared: boolean }> {
  const url = databaseUrl()
  const place = `${url ?? 'memory'}\0${limit.env}`
  const known = counters.get(place)
  if (known && known.points === points) return known
  let made: { points: number; limiter: RateLimiterAbstract; shared: boolean }
  if (url) {
    const { postgresIdentity } = await import('./db.js')
    const { pool } = await postgresIdentity(url)
    // The table is the identity migrations' (0004_rate_limits): made once, before any instance counts.
    const limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: limit.env,
      points,
      duration: HOUR,
      insuranceLimiter: new RateLimiterMemory({ points, duration: HOUR }),
    })
    made = { points, limiter, shared: true }
  } else {
    made = { points, limiter: new RateLimiterMemory({ points, duration: HOUR }), shared: false }
  }
  counters.set(place, made)
  return made
}

/**
 * Counts one use of `key` against each named limit, in order; past any of them, refuses 429
 * `rate_limited` with `details.retryAfter` (seconds) and the message `tooMany` ending in when to retry.
 */
export async function consumeHourly(uses: [HourlyLimit, string][], tooMany: string): Promise<void> {
  try {
    for (const [limit, key] of uses) {
      const points = Math.max(1, Number(process.env[limit.env]) || limit.fallback)
      const { limiter, shared } = await counterOf(limit, points)
      await limiter.consume(shared ? createHash('sha256').update(key).digest('base64url') : key)
    }
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error
    const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000))
    fail('rate_limited', `${tooMany}; retry in ${retryAfter} seconds.`, { details: { retryAfter } })
  }
}

/**
 * The key a client's address counts under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address by its /64 network — one host is handed a whole /64 and could rotate through
 * it to escape a per-address limit.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'local'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]
  if (!isIPv6(address)) return address
  const [head, tail = ''] = address.split('%')[0].split('::')
  const left = head ? head.split(':') : []
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : []
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => parseInt(g || '0', 16).toString(16)).join(':')}::/64`
}
