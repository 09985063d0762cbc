/**
 * Chromium for renders: playwright-core driving one running browser per process and flag set,
 * shared by every job as a lease of its own contexts, with pages reused across slides (never a
 * browser per slide, nor per job).
 *
 * The executable, in this order: `STUDIO_CHROMIUM`; the system's headless shell (Debian's
 * `chromium-headless-shell`, Fedora's `chromium-headless`: the same engine without the desktop
 * browser around it, what Playwright itself runs headless, at about half the CPU per render);
 * Playwright's own browser when it is installed (`npx playwright install chromium`); the system's
 * browser (`/usr/bin/chromium` and the usual other places). Nothing is ever downloaded. Chromium runs headless with the flags a closed, shared
 * machine needs, a fresh user-data directory, and no network (pages are offline; fonts and pictures
 * are served from disk by the page's request routing).
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fail } from '../core/errors.js'
import { keptFor, onReleaseKept } from '../core/keep.js'

const load = createRequire(import.meta.url)

/**
 * Headless shells, found before any browser: measured here (Chromium 156, a launch and three 2x
 * screenshots, interleaved), 3.2 core-seconds against the full browser's 5.6, the same pixels but
 * for the edges of some SVG glyphs (docs/performance.md).
 */
export const SYSTEM_HEADLESS_SHELLS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib64/chromium-browser/headless_shell', '/usr/lib/chromium-browser/headless_shell']

export const SYSTEM_CHROMIUM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--font-render-hinting=none',
  '--hide-scrollbars',
]

type Playwright = typeof import('playwright-core')
let playwright: Playwright | undefined
function pw(): Playwright {
  return (playwright ??= load('playwright-core') as Playwright)
}

/** The Chromium to drive, and where it was found. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): { path: string; source: 'STUDIO_CHROMIUM' | 'playwright' | 'system' } {
  const given = env.STUDIO_CHROMIUM
  if (given) {
    if (!exists(given)) fail('render_failed', `STUDIO_CHROMIUM names ${given}, which does not exist.`)
    return { path: given, source: 'STUDIO_CHROMIUM' }
  }
  for (const path of SYSTEM_HEADLESS_SHELLS) if (exists(path)) return { path, source: 'system' }
  try {
    const own = pw().chromium.executablePath()
    if (own && exists(own)) return { path: own, source: 'playwright' }
  } catch {
    // Playwright knows no browser for this platform: try the system's.
  }
  for (const path of SYSTEM_CHROMIUM) if (exists(path)) return { path, source: 'system' }
  return fail(
    'render_failed',
    'No Chromium to render with. Set STUDIO_CHROMIUM to a Chrome or Chromium executable, install Playwright\'s (npx playwright install chromium), ' +
      'or install the system one (Debian: apt-get install chromium-headless-shell; else chromium).',
  )
}

/** A job's lease on the shared browser: pages and contexts of its own, closed with the lease. */
export interface Browser {
  /** A page with the given device scale, from a pool reused across the lease's slides. */
  page(scale: number): Promise<Page>
  release(page: Page): void
  /** A context of the lease's own with the given options (page captures: colour scheme, routing). */
  context(options: import('playwright-core').BrowserContextOptions): Promise<import('playwright-core').BrowserContext>
  /** Ends the lease: closes its contexts and pages and hands the browser back. */
  close(): Promise<void>
  /** Milliseconds the launch took when this lease started the browser; 0 when it found one running. */
  launchMs: number
}

type Page = import('playwright-core').Page

/**
 * WebGL for shader frames: the GPU stays off and ANGLE draws with SwiftShader, Chromium's software
 * Vulkan, which it only offers to WebGL when told it may (`--enable-unsafe-swiftshader`: the
 * "unsafe" is about running untrusted pages' shaders on the CPU; ours are the catalogue's own).
 * `angle-metal` is the macOS GPU path.
 */
export const WEBGL_FLAGS: Record<'swiftshader' | 'angle-metal', string[]> = {
  swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  'angle-metal': ['--use-angle=metal'],
}

/** A running browser of one flag set, with how many leases hold it. */
interface Running {
  key: string
  started: Promise<{ browser: import('playwright-core').Browser; launchMs: number }>
  leases: number
  idle?: NodeJS.Timeout
}

/** The browsers of this process by flag set (webgl and capture variants are browsers of their own). */
const running = new Map<string, Running>()
onReleaseKept(() => closeBrowsers())

async function launch(args: string[]): Promise<{ browser: import('playwright-core').Browser; launchMs: number }> {
  const { path } = findChromium()
  const started = performance.now()
  try {
    // Playwright gives each launch a fresh user-data directory and removes it on close.
    const browser = await pw().chromium.launch({ executablePath: path, headless: true, args })
    return { browser, launchMs: performance.now() - started }
  } catch (error) {
    return fail('render_failed', `Chromium at ${path} did not start: ${(error as Error).message.split('\n')[0]}`)
  }
}

/**
 * The running browser of a flag set, launched when there is none or the last one crashed or was
 * closed; with `fresh`, a browser of the lease's own that no other lease ever shares.
 */
async function acquire(args: string[], fresh = false): Promise<{ entry: Running; browser: import('playwright-core').Browser; launchMs: number }> {
  // A fresh browser's key is its own: no other lease finds it in `running`.
  const key = fresh ? `fresh ${randomUUID()}` : args.join(' ')
  for (let attempt = 0; ; attempt++) {
    let entry = running.get(key)
    const launching = !entry
    if (!entry) {
      const made: Running = { key, started: launch(args), leases: 0 }
      const forget = () => {
        if (running.get(key) === made) running.delete(key)
      }
      made.started.then(({ browser }) => browser.on('disconnected', forget), forget)
      running.set(key, made)
      entry = made
    }
    entry.leases++
    clearTimeout(entry.idle)
    entry.idle = undefined
    let got: Awaited<Running['started']>
    try {
      got = await entry.started
    } catch (error) {
      entry.leases--
      throw error
    }
    if (got.browser.isConnected()) return { entry, browser: got.browser, launchMs: launching ? got.launchMs : 0 }
    entry.leases--
    if (running.get(key) === entry) running.delete(key)
    if (attempt) fail('render_failed', 'Chromium stopped as soon as it started.')
  }
}

/** A lease handed back: the browser closes when none is left, now or after the process's keep period (a fresh one now). */
async function handBack(entry: Running, fresh = false): Promise<void> {
  if (--entry.leases > 0) return
  const keep = fresh ? 0 : keptFor()
  if (keep === Infinity) return
  if (keep <= 0) return shut(entry)
  entry.idle = setTimeout(() => void shut(entry), keep)
  entry.idle.unref()
}

async function shut(entry: Running, force = false): Promise<void> {
  if (entry.leases > 0 && !force) return
  clearTimeout(entry.idle)
  if (running.get(entry.key) === entry) running.delete(entry.key)
  const got = await entry.started.catch(() => undefined)
  await got?.browser.close().catch(() => undefined)
}

/** Closes every browser of this process now (the end of a CLI command, a server's shutdown). */
export async function closeBrowsers(): Promise<void> {
  await Promise.all([...running.values()].map((entry) => shut(entry, true)))
}

/** The chromium flags of a lease: `webgl` picks a WebGL backend, `flags` adds a caller's own (page captures). */
function argsOf(options: { webgl?: 'swiftshader' | 'angle-metal'; flags?: string[] }): string[] {
  const base = options.webgl ? [...CHROMIUM_FLAGS.filter((f) => options.webgl === 'swiftshader' || f !== '--disable-gpu'), ...WEBGL_FLAGS[options.webgl]] : CHROMIUM_FLAGS
  return [...base, ...(options.flags ?? [])]
}

/**
 * A lease on this process's browser for the flag set, launching it when none runs. Concurrent jobs
 * share it, each in contexts of its own; `close()` ends the lease. Once no lease is left the browser
 * closes after the process's keep period (src/core/keep.ts): at once by default, at the end of a CLI
 * command, after an idle period in `studio serve` and `studio mcp`. `fresh` launches a browser for
 * this lease alone, closed with it (page captures: a third party's page never shares a browser, its
 * profile or its processes with another job).
 */
export async function leaseBrowser(options: { webgl?: 'swiftshader' | 'angle-metal'; flags?: string[]; fresh?: boolean } = {}): Promise<Browser> {
  const args = argsOf(options)
  let { entry, browser, launchMs } = await acquire(args, options.fresh)
  const own: import('playwright-core').BrowserContext[] = []
  const contexts = new Map<number, Promise<import('playwright-core').BrowserContext>>()
  const idle = new Map<number, Page[]>()
  const scaleOf = new WeakMap<Page, number>()
  let ended = false
  const context = async (contextOptions: import('playwright-core').BrowserContextOptions) => {
    if (ended) fail('render_failed', 'The browser lease has ended.')
    let made: import('playwright-core').BrowserContext
    try {
      made = await browser.newContext(contextOptions)
    } catch (error) {
      // The browser died before this lease drew anything (killed, crashed, and not yet noticed when the
      // lease was taken): the lease moves to a new one, once. A job with pages in the dead one fails.
      if (own.length || browser.isConnected()) throw error
      if (running.get(entry.key) === entry) running.delete(entry.key)
      void handBack(entry, options.fresh)
      ;({ entry, browser, launchMs } = await acquire(args, options.fresh))
      made = await browser.newContext(contextOptions)
    }
    own.push(made)
    return made
  }
  return {
    get launchMs() {
      return launchMs
    },
    context,
    async page(scale: number) {
      const free = idle.get(scale)?.pop()
      if (free) return free
      let ctx = contexts.get(scale)
      if (!ctx) {
        ctx = context({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: scale, offline: true })
        contexts.set(scale, ctx)
      }
      const page = await (await ctx).newPage()
      scaleOf.set(page, scale)
      return page
    },
    release(page) {
      const scale = scaleOf.get(page) ?? 1
      if (!idle.has(scale)) idle.set(scale, [])
      idle.get(scale)!.push(page)
    },
    async close() {
      if (ended) return
      ended = true
      await Promise.all(own.map((c) => c.close().catch(() => undefined)))
      await handBack(entry, options.fresh)
    },
  }
}
