/**
 * Chromium for renders: playwright-core driving one browser per batch, with pages reused across
 * slides (never a browser per slide).
 *
 * The executable, in this order: `STUDIO_CHROMIUM`; Playwright's own browser when it is installed
 * (`npx playwright install chromium`); the system's (`/usr/bin/chromium` and the usual other
 * places). Nothing is ever downloaded. Chromium runs headless with the flags a closed, shared
 * machine needs, a fresh user-data directory, and no network (pages are offline; fonts and pictures
 * are served from disk by the page's request routing).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fail } from '../core/errors.js'

const load = createRequire(import.meta.url)

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
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string; source: 'STUDIO_CHROMIUM' | 'playwright' | 'system' } {
  const given = env.STUDIO_CHROMIUM
  if (given) {
    if (!existsSync(given)) fail('render_failed', `STUDIO_CHROMIUM names ${given}, which does not exist.`)
    return { path: given, source: 'STUDIO_CHROMIUM' }
  }
  try {
    const own = pw().chromium.executablePath()
    if (own && existsSync(own)) return { path: own, source: 'playwright' }
  } catch {
    // Playwright knows no browser for this platform: try the system's.
  }
  for (const path of SYSTEM_CHROMIUM) if (existsSync(path)) return { path, source: 'system' }
  return fail(
    'render_failed',
    'No Chromium to render with. Set STUDIO_CHROMIUM to a Chrome or Chromium executable, install Playwright\'s (npx playwright install chromium), ' +
      'or install the system one (Debian/Ubuntu: apt-get install chromium).',
  )
}

export interface Browser {
  /** A page with the given device scale, from a pool reused across calls. */
  page(scale: number): Promise<import('playwright-core').Page>
  release(page: import('playwright-core').Page): void
  close(): Promise<void>
  /** Milliseconds the launch took. */
  launchMs: number
}

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

/** Launches one Chromium for a batch (Playwright gives it a fresh user-data directory and removes it on close); `webgl` picks a WebGL backend. */
export async function launchBrowser(options: { webgl?: 'swiftshader' | 'angle-metal' } = {}): Promise<Browser> {
  const { path } = findChromium()
  const started = performance.now()
  const args = options.webgl ? [...CHROMIUM_FLAGS.filter((f) => options.webgl === 'swiftshader' || f !== '--disable-gpu'), ...WEBGL_FLAGS[options.webgl]] : CHROMIUM_FLAGS
  let browser: import('playwright-core').Browser
  try {
    browser = await pw().chromium.launch({ executablePath: path, headless: true, args })
  } catch (error) {
    return fail('render_failed', `Chromium at ${path} did not start: ${(error as Error).message.split('\n')[0]}`)
  }
  const launchMs = performance.now() - started
  const contexts = new Map<number, import('playwright-core').BrowserContext>()
  const idle = new Map<number, import('playwright-core').Page[]>()
  const scaleOf = new WeakMap<import('playwright-core').Page, number>()
  return {
    launchMs,
    async page(scale: number) {
      const free = idle.get(scale)?.pop()
      if (free) return free
      let ctx = contexts.get(scale)
      if (!ctx) {
        ctx = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: scale, offline: true })
        contexts.set(scale, ctx)
      }
      const page = await ctx.newPage()
      scaleOf.set(page, scale)
      return page
    },
    release(page) {
      const scale = scaleOf.get(page) ?? 1
      if (!idle.has(scale)) idle.set(scale, [])
      idle.get(scale)!.push(page)
    },
    async close() {
      await browser.close().catch(() => undefined)
    },
  }
}
