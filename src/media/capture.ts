/**
 * Page captures (asset.capture): a web page shot in the system Chromium, in a light and/or dark
 * colour scheme, with every request the page makes answered by the server through the SSRF guard.
 *
 * The browser never reaches the network itself:
 * - Every http(s) request of every page of the capture's context is routed (`context.route`). A
 *   request to a host outside the allowlist, or of another scheme, is aborted and counted
 *   (`blocked`, `blockedHosts`). A request to an allowed host is fetched here with
 *   src/net/guarded-fetch.ts (loopback, private, link-local and metadata addresses refused in every
 *   spelling, redirects re-checked, size and time capped) and fulfilled into the page. Only GET is
 *   fetched: a capture sends nothing, so a POST (a beacon, a form) is aborted and counted as `failed`.
 * - WebSockets are answered by a route that closes them; service workers are blocked; Chromium's own
 *   host resolver maps every name to "not found" (`--host-resolver-rules`), so a request that slipped
 *   past the route could not even resolve a name.
 *
 * The allowlist: the URL's own host (and, after the guard followed redirects, the host it landed on)
 * with its subdomains (`www.` dropped first, so www.example.com allows static.example.com), the built-in
 * `BUILT_IN_HOSTS` (web fonts and public library CDNs: never analytics, ads or tag managers), and the
 * caller's `allowHosts` (`example.org` exactly, `*.example.org` its subdomains).
 *
 * Recipes (`RECIPES`) say how a page is made ready: `default` waits for `load` and the page's web
 * fonts, hides fixed or sticky cookie banners matched by `COOKIE_BANNERS`, then waits 500 ms; `bare`
 * waits for `load` only. Animations are stopped and the caret hidden for the shot.
 *
 * The whole capture (the document fetch, launch, both themes, every shot) is bounded by
 * `CAPTURE_TIMEOUT_MS` (30 s; `STUDIO_CAPTURE_TIMEOUT_MS` changes it), failing with one fetch_failed
 * error that names the host.
 */
import { fail, StudioError } from '../core/errors.js'

/** Hosts every capture may load from besides the page's own: web fonts and public library CDNs. */
export const BUILT_IN_HOSTS = [
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'use.typekit.net',
  'p.typekit.net',
  'cdn.jsdelivr.net',
  'unpkg.com',
  'cdnjs.cloudflare.com',
] as const

/** Cookie and consent banners the default recipe hides when they are fixed or sticky on the page. */
export const COOKIE_BANNERS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#CybotCookiebotDialog',
  '#usercentrics-root',
  '#didomi-host',
  '.qc-cmp2-container',
  '#truste-consent-track',
  '.fc-consent-root',
  '#cookie-law-info-bar',
  '[id^="sp_message_container"]',
  '.cc-window',
  '#cookie-banner',
  '.cookie-banner',
  '#cookie-consent',
  '.cookie-consent',
  '#cookieConsent',
  '[aria-label*="cookie" i]',
  '[id*="cookie-banner" i]',
  '[class*="cookie-banner" i]',
  '[id*="consent-banner" i]',
  '[class*="consent-banner" i]',
] as const

export interface Recipe {
  /** The navigation event waited for. */
  waitUntil: 'load' | 'domcontentloaded'
  /** Wait for `document.fonts.ready`. */
  fonts: boolean
  /** Selectors of elements hidden when they (or an ancestor) are fixed or sticky. */
  hide: readonly string[]
  /** Wait after the recipe before the shot, unless the call names settleMs. */
  settleMs: number
}

export const RECIPES: Record<string, Recipe> = {
  default: { waitUntil: 'load', fonts: true, hide: COOKIE_BANNERS, settleMs: 500 },
  bare: { waitUntil: 'load', fonts: false, hide: [], settleMs: 0 },
}

export const CAPTURE_TIMEOUT_MS = 30_000
export const DEFAULT_VIEWPORT: [number, number] = [1440, 900]
/** Largest viewport side in CSS px (a 2x shot of 4096 × 4096 is 67 megapixels). */
export const MAX_VIEWPORT_SIDE = 4096
/** Longest settleMs a call may ask for. */
export const MAX_SETTLE_MS = 10_000
/** Requests one capture fetches at most; more are aborted and counted as failed. */
const MAX_REQUESTS = 400
/** Bytes one capture fetches at most, all requests together. */
const MAX_TOTAL_BYTES = 100 * 1024 * 1024
/** One subresource's time, within the capture's. */
const REQUEST_TIMEOUT_MS = 10_000

export type Theme = 'light' | 'dark'
export type Box = [number, number, number, number]

export interface CaptureRequest {
  url: string
  themes: Theme[]
  viewport: [number, number]
  /** Device scale factor of the shots. */
  scale: 1 | 2
  recipe: string
  settleMs?: number
  allowHosts: string[]
  timeoutMs?: number
  /** Called when a theme is done (progress). */
  onTheme?: (done: number, total: number) => void
}

export interface Shot {
  theme: Theme
  /** PNG of the viewport at `scale` device pixels per CSS px. */
  png: Buffer
  scale: number
}

export interface CaptureOutcome {
  shots: Shot[]
  /** The URL the document was fetched from after redirects. */
  finalUrl: string
  title: string
  fetched: number
  blocked: number
  blockedHosts: string[]
  failed: number
}

/** The recipe named (`default` when absent), or invalid_input naming the known ones. */
export function recipeOf(name: string | undefined): Recipe {
  const key = name ?? 'default'
  const recipe = Object.hasOwn(RECIPES, key) ? RECIPES[key] : undefined
  if (!recipe) fail('invalid_input', `No capture recipe "${key}"; the recipes are ${Object.keys(RECIPES).join(', ')}.`, { pointer: '/recipe' })
  return recipe!
}

/** A host as a URL normalizes it (lower case, IDN as punycode, IPv4 spellings as dotted quads). */
function normalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
}

/** The caller's allowHosts, normalized; a malformed entry is refused with its pointer. */
export function parseAllowHosts(entries: string[]): string[] {
  return entries.map((raw, i) => {
    const entry = raw.trim().toLowerCase().replace(/\.$/, '')
    const wildcard = entry.startsWith('*.')
    const rest = wildcard ? entry.slice(2) : entry
    const host = /^[a-z0-9.\-[\]:]+$/.test(rest) ? normalHost(rest) : undefined
    if (!host || host.includes('*')) fail('invalid_input', `"${raw}" is not a host name (example.org, or *.example.org for its subdomains).`, { pointer: `/allowHosts/${i}` })
    return wildcard ? `*.${host}` : host!
  })
}

/** Whether a host may be loaded: the page's own hosts with their subdomains, the built-in list, allowHosts. */
export function hostAllowed(host: string, own: readonly string[], allowHosts: readonly string[]): boolean {
  const h = host.toLowerCase()
  for (const o of own) {
    const base = o.replace(/^www\./, '')
    if (h === o || h === base || h.endsWith(`.${base}`)) return true
  }
  if ((BUILT_IN_HOSTS as readonly string[]).includes(h)) return true
  for (const entry of allowHosts) {
    if (entry.startsWith('*.') ? h.endsWith(entry.slice(1)) : h === entry) return true
  }
  return false
}

/**
 * Chromium flags beyond the renderer's: no name resolution of its own, no UDP around the route.
 * WebRTC's policy is `--webrtc-ip-handling-policy` in current Chromium (156 ignores the older
 * `--force-` spelling, kept for older builds): with no proxy, a page's RTCPeerConnection gathers no
 * candidate and sends no STUN or TURN datagram.
 */
const CAPTURE_FLAGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
]

/** Response headers passed into the page (the rest, cookies included, stay out). */
const PASSED_HEADERS = ['content-type', 'access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers', 'content-language']

interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
  finalUrl: string
}

/**
 * Captures `request.url` in each theme; the shots are PNG of the whole viewport. The caller crops
 * and encodes. Errors: fetch_refused (the guard refused the page), fetch_failed (the page did not
 * answer, or the capture ran past its time), render_failed (Chromium would not start).
 */
export async function capturePage(request: CaptureRequest): Promise<CaptureOutcome> {
  const timeoutMs = request.timeoutMs ?? (Number(process.env.STUDIO_CAPTURE_TIMEOUT_MS) || CAPTURE_TIMEOUT_MS)
  const host = new URL(request.url).hostname
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Error('capture timeout')), timeoutMs)
  timer.unref()
  const timedOut = () => new StudioError('fetch_failed', `Capturing "${host}" did not finish within ${Math.round(timeoutMs / 100) / 10} s.`)
  let browser: import('../render/browser.js').Browser | undefined
  try {
    const work = runCapture(request, deadline.signal, (b) => (browser = b))
    const expired = new Promise<never>((_, reject) => deadline.signal.addEventListener('abort', () => reject(timedOut()), { once: true }))
    expired.catch(() => undefined)
    return await Promise.race([work, expired])
  } catch (error) {
    if (deadline.signal.aborted) throw timedOut()
    throw error
  } finally {
    clearTimeout(timer)
    if (!deadline.signal.aborted) deadline.abort(new Error('capture finished'))
    await (browser as import('../render/browser.js').Browser | undefined)?.close().catch(() => undefined)
  }
}

async function runCapture(request: CaptureRequest, signal: AbortSignal, launched: (browser: import('../render/browser.js').Browser) => void): Promise<CaptureOutcome> {
  const { guardedFetch, checkUrl } = await import('../net/guarded-fetch.js')
  const recipe = recipeOf(request.recipe)
  const settleMs = request.settleMs ?? recipe.settleMs
  checkUrl(request.url)
  let total = 0
  let count = 0
  // Counted by distinct URL, so both themes count a request once.
  const fetchedUrls = new Set<string>()
  const blockedUrls = new Set<string>()
  const failedUrls = new Set<string>()
  const blockedHosts = new Set<string>()
  const block = (url: string, host: string) => {
    blockedUrls.add(url)
    blockedHosts.add(host)
  }
  const key = (url: string) => {
    const u = new URL(url)
    u.hash = ''
    return u.href
  }

  /** One GET through the guard, whole body in memory; errors are StudioErrors. */
  const get = async (url: string, timeoutMs: number, main = false): Promise<Answer> => {
    const fetched = await guardedFetch(url, { signal, timeoutMs, limit: Math.min(25 * 1024 * 1024, MAX_TOTAL_BYTES - total) })
    const chunks: Buffer[] = []
    for await (const chunk of fetched.body) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    total += body.length
    const headers: Record<string, string> = {}
    for (const name of PASSED_HEADERS) {
      const value = fetched.headers[name]
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    if (main && !headers['content-type']) headers['content-type'] = 'text/html'
    fetchedUrls.add(key(fetched.url))
    return { status: 200, headers, body, finalUrl: fetched.url }
  }

  // The document first, outside the browser: a refusal or failure is the capture's error, and the
  // browser then opens the URL the guard landed on (a fulfilled redirect is not followed by Chromium).
  const main = await get(request.url, REQUEST_TIMEOUT_MS * 3, true)
  const own = [...new Set([new URL(request.url).hostname, new URL(main.finalUrl).hostname])]
  const answers = new Map<string, Promise<Answer | null>>([[key(main.finalUrl), Promise.resolve(main)]])

  /** The answer to one allowed URL, shared by both themes (they see the same bytes). */
  const answer = (url: string): Promise<Answer | null> => {
    let pending = answers.get(url)
    if (!pending) {
      if (++count > MAX_REQUESTS) return Promise.resolve(null)
      pending = get(url, REQUEST_TIMEOUT_MS).then(
        (a) => {
          const landed = new URL(a.finalUrl).hostname
          if (!hostAllowed(landed, own, request.allowHosts)) {
            block(url, landed)
            return null
          }
          return a
        },
        () => null,
      )
      answers.set(url, pending)
    }
    return pending
  }

  // A third party's page gets a browser of its own (fresh profile and processes), closed with the capture.
  const { leaseBrowser } = await import('../render/browser.js')
  const browser = await leaseBrowser({ flags: CAPTURE_FLAGS, fresh: true })
  if (signal.aborted) {
    // The capture ran out of time while the browser started: the caller has already let go.
    await browser.close()
    throw signal.reason
  }
  launched(browser)

  const shots: Shot[] = []
  let title = ''
  for (const [index, theme] of request.themes.entries()) {
    const context = await browser.context({
      viewport: { width: request.viewport[0], height: request.viewport[1] },
      deviceScaleFactor: request.scale,
      colorScheme: theme,
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
      acceptDownloads: false,
      locale: 'en-US',
    })
    await context.routeWebSocket(/.*/, (ws) => {
      block(ws.url(), new URL(ws.url()).hostname)
      void ws.close().catch(() => undefined)
    })
    await context.route(
      () => true,
      async (route) => {
        const req = route.request()
        let url: URL
        try {
          url = new URL(req.url())
        } catch {
          block(req.url(), '(unparsable)')
          return route.abort('blockedbyclient').catch(() => undefined)
        }
        if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !hostAllowed(url.hostname, own, request.allowHosts)) {
          block(key(url.href), url.hostname || url.protocol)
          return route.abort('blockedbyclient').catch(() => undefined)
        }
        if (req.method() !== 'GET') {
          failedUrls.add(`${req.method()} ${key(url.href)}`)
          return route.abort('blockedbyclient').catch(() => undefined)
        }
        const got = await answer(key(url.href))
        if (!got) {
          if (!blockedUrls.has(key(url.href))) failedUrls.add(key(url.href))
          return route.abort('failed').catch(() => undefined)
        }
        return route.fulfill({ status: got.status, headers: got.headers, body: got.body }).catch(() => undefined)
      },
    )
    const page = await context.newPage()
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined))
    try {
      await page.goto(main.finalUrl, { waitUntil: recipe.waitUntil, timeout: 0 })
    } catch (error) {
      if (signal.aborted) throw error
      fail('fetch_failed', `The page at "${new URL(main.finalUrl).hostname}" did not load (${(error as Error).message.split('\n')[0].slice(0, 120)}).`)
    }
    if (recipe.fonts) await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined)
    if (recipe.hide.length) await page.evaluate(hideFixed, [...recipe.hide]).catch(() => undefined)
    if (settleMs > 0) await page.waitForTimeout(settleMs)
    if (!title) title = (await page.title().catch(() => '')).trim().slice(0, 200)
    const png = await page.screenshot({ type: 'png', animations: 'disabled', caret: 'hide', scale: 'device', timeout: 0 })
    shots.push({ theme, png, scale: request.scale })
    await context.close().catch(() => undefined)
    request.onTheme?.(index + 1, request.themes.length)
  }
  return { shots, finalUrl: main.finalUrl, title, fetched: fetchedUrls.size, blocked: blockedUrls.size, failed: failedUrls.size, blockedHosts: [...blockedHosts].sort() }
}

/** In the page: hides each element a selector matches when it or an ancestor is fixed or sticky. */
function hideFixed(selectors: string[]): number {
  let hidden = 0
  for (const selector of selectors) {
    let matched: NodeListOf<Element>
    try {
      matched = document.querySelectorAll(selector)
    } catch {
      continue
    }
    for (const element of matched) {
      for (let e: Element | null = element; e && e !== document.body; e = e.parentElement) {
        const position = getComputedStyle(e).position
        if (position === 'fixed' || position === 'sticky') {
          ;(element as HTMLElement).style.setProperty('display', 'none', 'important')
          hidden++
          break
        }
      }
    }
  }
  return hidden
}
