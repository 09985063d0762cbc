// Runs on `npm install` in this checkout (npm's prepare step): renders need a Chromium. When none is
// found (STUDIO_CHROMIUM, Playwright's own browser, the system's), on Debian or Ubuntu as root it
// installs the system package; anywhere else it says what to install. It never downloads a browser
// itself and never fails the install.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const SYSTEM = ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib64/chromium-browser/headless_shell', '/usr/lib/chromium-browser/headless_shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium']

async function playwrightBrowser() {
  try {
    const { chromium } = await import('playwright-core')
    const path = chromium.executablePath()
    return path && existsSync(path)
  } catch {
    return false
  }
}

const found = (process.env.STUDIO_CHROMIUM && existsSync(process.env.STUDIO_CHROMIUM)) || SYSTEM.some((p) => existsSync(p)) || (await playwrightBrowser())
if (!found) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0
  if (root && apt && !process.env.STUDIO_NO_SYSTEM_INSTALL) {
    // The headless shell is all renders need, and costs about half the browser's CPU per render; where
    // the distribution has no such package, the browser.
    console.error('studio: no Chromium found; installing Debian\'s chromium-headless-shell for renders (set STUDIO_NO_SYSTEM_INSTALL=1 to skip)')
    const install = (pkg) => execFileSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' })
      try {
        install('chromium-headless-shell')
      } catch {
        install('chromium')
      }
    } catch {
      console.error('studio: installing chromium failed; renders will say how to point studio at a browser (STUDIO_CHROMIUM).')
    }
  } else {
    console.error('studio: no Chromium found. Renders need one: apt-get install chromium-headless-shell (Debian), apt-get install chromium, npx playwright install chromium, or STUDIO_CHROMIUM=/path/to/chrome.')
  }
}
