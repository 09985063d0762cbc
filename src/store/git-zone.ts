/**
 * The time zone offset git writes into a commit's author and committer lines: the C library's
 * reading of `TZ`. Node reads `TZ` through ICU, which knows zone names (America/New_York, EST5EDT,
 * a zoneinfo path) but not a POSIX rule such as `IST-5:30` or `EST5EDT,M3.2.0,M11.1.0`: for those it
 * answers UTC while git writes +0530 or -0500. Such a rule is read here as glibc reads it
 * (tzset(3)); everything else is Node's own offset.
 */

/** `[+-]hh[:mm[:ss]]` in seconds. */
const TIME = '[+-]?\\d{1,3}(?::\\d{1,2}){0,2}'
const NAME = '(?:<[A-Za-z0-9+-]{3,}>|[A-Za-z]{3,})'
const RULE = '(?:J\\d{1,3}|\\d{1,3}|M\\d{1,2}\\.\\d\\.\\d)(?:/' + TIME + ')?'
const POSIX_TZ = new RegExp(`^${NAME}(${TIME})(?:(${NAME})(${TIME})?(?:,(${RULE}),(${RULE}))?)?$`)
/**
 * The rule of a zone with a daylight name and no rule: POSIX leaves it to the system; glibc takes it from
 * its posixrules file (US rules on most systems), shifting the hours of the change oddly, so only the
 * days match there.
 */
const DEFAULT_RULES = ['M3.2.0', 'M11.1.0']

interface PosixZone {
  /** Seconds east of UTC in standard and daylight time. */
  std: number
  dst?: number
  rules?: [string, string]
}

function seconds(time: string): number {
  const sign = time.startsWith('-') ? -1 : 1
  const [h = 0, m = 0, s = 0] = time.replace(/^[+-]/, '').split(':').map(Number)
  return sign * (h * 3600 + m * 60 + s)
}

function parsePosix(spec: string): PosixZone | undefined {
  const match = POSIX_TZ.exec(spec)
  if (!match) return undefined
  // POSIX offsets count west of UTC: `IST-5:30` is 5:30 east.
  const std = -seconds(match[1]!)
  if (match[2] === undefined) return { std }
  const dst = match[3] !== undefined ? -seconds(match[3]) : std + 3600
  return { std, dst, rules: match[4] !== undefined ? [match[4], match[5]!] : (DEFAULT_RULES as [string, string]) }
}

const DAY = 86_400_000

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

/** The UTC instant (ms) a rule's transition falls on in `year`, the rule's time read at `offset` seconds east. */
function transition(rule: string, year: number, offset: number): number {
  const [day, time] = rule.split('/')
  const at = time === undefined ? 7200 : seconds(time)
  const jan1 = Date.UTC(year, 0, 1)
  let midnight: number
  if (day!.startsWith('J')) {
    // Julian day 1..365, February 29 never counted.
    const n = Number(day!.slice(1))
    midnight = jan1 + (n - 1 + (isLeap(year) && n >= 60 ? 1 : 0)) * DAY
  } else if (day!.startsWith('M')) {
    const [month, week, weekday] = day!.slice(1).split('.').map(Number) as [number, number, number]
    const first = Date.UTC(year, month - 1, 1)
    const length = new Date(Date.UTC(year, month, 0)).getUTCDate()
    let date = 1 + ((weekday - new Date(first).getUTCDay() + 7) % 7) + (week - 1) * 7
    while (date > length) date -= 7
    midnight = first + (date - 1) * DAY
  } else {
    midnight = jan1 + Number(day) * DAY
  }
  return midnight + (at - offset) * 1000
}

function posixOffset(zone: PosixZone, date: Date): number {
  if (zone.dst === undefined || !zone.rules) return zone.std
  const t = date.getTime()
  const year = new Date(t + zone.std * 1000).getUTCFullYear()
  // The start is given in standard time, the end in daylight time.
  const start = transition(zone.rules[0], year, zone.std)
  const end = transition(zone.rules[1], year, zone.dst)
  const daylight = start < end ? t >= start && t < end : !(t >= end && t < start)
  return daylight ? zone.dst : zone.std
}

let cached: { tz: string | undefined; zone: PosixZone | undefined } | undefined

/** The POSIX rule `TZ` holds when ICU does not know it as a zone name; undefined otherwise. */
function posixZone(): PosixZone | undefined {
  const tz = process.env.TZ
  if (cached && cached.tz === tz) return cached.zone
  let zone: PosixZone | undefined
  const spec = tz?.replace(/^:/, '')
  if (spec && POSIX_TZ.test(spec)) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: spec })
    } catch {
      zone = parsePosix(spec)
    }
  }
  cached = { tz, zone }
  return zone
}

/** Minutes east of UTC at `date`, as git (the C library) reads the process's `TZ`. */
export function gitZoneOffset(date: Date): number {
  const zone = posixZone()
  // git divides seconds into minutes as C does, toward zero.
  return zone ? Math.trunc(posixOffset(zone, date) / 60) : -date.getTimezoneOffset()
}
