/**
 * The editor's screenshots in docs/images/ (docs/page.md): a deck made from the brand sample in a
 * temporary workspace, served by `studio serve`, opened in Chromium on a canvas slide with a shape
 * selected while another tab has another selected, in the light and the dark appearance.
 *
 *   npm run build && node --import tsx scripts/page-screenshots.ts
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHROMIUM_FLAGS, findChromium } from '../src/render/browser.js'
import { serve, studio } from '../test/helpers/studio.js'

const require = createRequire(import.meta.url)
const { chromium } = require('playwright-core') as typeof import('playwright-core')
const root = new URL('..', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'studio-shots-'))
try {
  await studio(dir, ['init', '--json'])
  execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: dir })
  await studio(dir, ['deck', 'create', 'Launch plan', '--from', 'brand-sample', '--json'])
  await studio(dir, ['slide', 'patch', 'freeform-1', '--set', '/notes="Walk through the three steps, left to right."', '--deck', 'launch-plan', '--json'])
  const server = await serve(dir, [], { ttl: 120 })
  const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
  try {
    for (const appearance of ['light', 'dark']) {
      // Someone else in the deck, on the same slide, with a shape selected and the pointer over it.
      const other = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      await other.goto(`${server.url}/d/launch-plan/freeform-1`)
      await other.locator('.canvas .frame[data-frame="b3"]').click()
      const box = (await other.locator('.frame[data-frame="b3"]').boundingBox())!
      await other.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.8)
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      await page.goto(server.url + '/')
      await page.evaluate((a) => localStorage.setItem('studio.appearance', a), appearance)
      await page.goto(`${server.url}/d/launch-plan/freeform-1`)
      await page.locator('.canvas .frame[data-frame="b2"]').click()
      await page.locator('.inspector h2', { hasText: 'Shape' }).waitFor()
      await page.locator('.thumb .sheet-host').nth(94).waitFor({ state: 'attached' })
      await page.evaluate(() => document.fonts.ready)
      await page.locator('.remote-pointer').waitFor()
      await page.mouse.move(700, 745)
      const file = join(root, 'docs', 'images', `page-editor.${appearance}.png`)
      await page.screenshot({ path: file })
      console.log(`wrote ${file}`)
      await page.close()
      await other.close()
    }
  } finally {
    await browser.close()
    await server.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
