/**
 * Which Chromium renders: STUDIO_CHROMIUM, then a system headless shell (the engine without the
 * desktop browser, about half the CPU per render), then Playwright's own, then a system browser.
 * The order is held with a stand-in for the file system's `exists`: the machine's own browsers are
 * not this test's to choose.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { findChromium, SYSTEM_CHROMIUM, SYSTEM_HEADLESS_SHELLS } from '../../../src/render/browser.js'

const only = (...paths: string[]) => (path: string) => paths.includes(path)

describe('findChromium', () => {
  it('takes STUDIO_CHROMIUM first, and refuses one that does not exist', () => {
    assert.deepEqual(findChromium({ STUDIO_CHROMIUM: '/opt/chrome' }, only('/opt/chrome', ...SYSTEM_HEADLESS_SHELLS)), { path: '/opt/chrome', source: 'STUDIO_CHROMIUM' })
    assert.throws(() => findChromium({ STUDIO_CHROMIUM: '/opt/none' }, only(...SYSTEM_HEADLESS_SHELLS)), /STUDIO_CHROMIUM names \/opt\/none/)
  })

  it('prefers a system headless shell to the full browser beside it', () => {
    assert.deepEqual(findChromium({}, only('/usr/bin/chromium', '/usr/lib/chromium/chromium-headless-shell')), { path: '/usr/lib/chromium/chromium-headless-shell', source: 'system' })
    assert.deepEqual(findChromium({}, only('/usr/bin/chromium', '/usr/lib64/chromium-browser/headless_shell')), { path: '/usr/lib64/chromium-browser/headless_shell', source: 'system' })
  })

  it('falls back to the system browser, and names how to get one when there is none', () => {
    assert.deepEqual(findChromium({}, only('/usr/bin/chromium')), { path: '/usr/bin/chromium', source: 'system' })
    assert.deepEqual(findChromium({}, only(SYSTEM_CHROMIUM[2])), { path: SYSTEM_CHROMIUM[2], source: 'system' })
    assert.throws(() => findChromium({}, only()), /No Chromium to render with/)
  })
})
