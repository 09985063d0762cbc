/**
 * Hourly rate limits (rate-limiter-flexible), one place for every limit the studio keeps: sign-in mails
 * per address and per client (src/transports/http/auth-routes.ts), access requests per client
 * (share.requestAccess), passkey sign-ins begun per client. Each limit's points come from its environment variable, read at each call (a
 * changed value starts a fresh counter), else its default. Counters live in this process's memory.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { isIPv6 } from 'node:net'
import { fail } from '../core/errors.js'

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

const counters = new Map<HourlyLimit, { points: number; limiter: RateLimiterMemory }>()

/**
 * Counts one use of `key` against each named limit, in order; past any of them, refuses 429
 * `rate_limited` with `details.retryAfter` (seconds) and the message `tooMany` ending in when to retry.
 */
export async function consumeHourly(uses: [HourlyLimit, string][], tooMany: string): Promise<void> {
  try {
    for (const [limit, key] of uses) {
      const points = Math.max(1, Number(process.env[limit.env]) || limit.fallback)
      let counter = counters.get(limit)
      if (!counter || counter.points !== points) counters.set(limit, (counter = { points, limiter: new RateLimiterMemory({ points, duration: 3600 }) }))
      await counter.limiter.consume(key)
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
