/**
 * `studio build`: one HTML file that opens from disk with the network off, in real Chromium, and
 * moves through every slide with the arrow keys; skipped slides left out unless asked; deep links;
 * the presenter view; the size budget refuses with nothing written.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { chromium, type Browser } from 'playwright-core'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { cliInOneProcess, studio, workspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('studio build: the single-file HTML deck', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  let browser: Browser
  before(async () => {
    ws = await workspace()
    const created = await studio(ws.dir, ['deck', 'create', 'Brand', '--from', 'brand-sample', '--json'])
    assert.equal(created.code, 0, created.stdout)
    browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS })
  })
  after(async () => {
    await browser?.close()
    ws?.cleanup()
  })

  /** Opens a file with every network request refused and recorded. */
  async function open(file: string, hash = '') {
    const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 720 } })
    const requests: string[] = []
    context.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url())
    })
    await context.route(/^(?!file:|data:)/, (route) => route.abort())
    const page = await context.newPage()
    await page.goto(pathToFileURL(file).href + hash)
    await page.evaluate(() => document.fonts.ready)
    return { page, requests, close: () => context.close() }
  }

  it('opens from a file:// URL with no network, and the arrow keys reach every slide', async () => {
    const built = await studio(ws.dir, ['build', '--out', 'dist/brand.html', '--json'])
    assert.equal(built.code, 0, built.stdout)
    const file = join(ws.dir, 'dist', 'brand.html')
    assert.equal(built.json.file, 'dist/brand.html')
    assert.equal(built.json.bytes, statSync(file).size)
    const slides = built.json.slides as number
    assert.ok(slides >= 90, `${slides} slides`)
    const { page, requests, close } = await open(file)
    try {
      assert.equal(await page.locator('section.slide').count(), slides)
      const seen: string[] = []
      for (let i = 1; i <= slides; i++) {
        assert.equal(await page.evaluate(() => document.body.dataset.slide), String(i))
        const visible = page.locator('section.slide.on')
        assert.equal(await visible.count(), 1)
        seen.push((await visible.getAttribute('data-id'))!)
        await page.keyboard.press('ArrowRight')
      }
      assert.equal(new Set(seen).size, slides, 'every slide shown once')
      assert.equal(await page.evaluate(() => document.body.dataset.slide), String(slides), 'stays on the last slide')
      await page.keyboard.press('ArrowLeft')
      assert.equal(await page.evaluate(() => document.body.dataset.slide), String(slides - 1))
      await page.keyboard.press('Home')
      assert.equal(await page.evaluate(() => document.body.dataset.slide), '1')
      // Fonts came from the file itself: Inter is loaded, and nothing went to the network.
      assert.equal(await page.evaluate(() => document.fonts.check('700 40px Inter')), true)
      assert.deepEqual(requests, [])
    } finally {
      await close()
    }
  })

  it('deep-links to a slide by number or id, and P shows the presenter view with notes and a timer', async () => {
    const notes = await studio(ws.dir, ['slide', 'patch', 'title-body-2', '--set', '/notes="Pause here."', '--json'])
    assert.equal(notes.code, 0, notes.stdout)
    const built = await studio(ws.dir, ['build', '--out', 'dist/notes.html', '--include-notes', '--json'])
    assert.equal(built.code, 0, built.stdout)
    const file = join(ws.dir, 'dist', 'notes.html')
    const byNumber = await open(file, '#3')
    try {
      assert.equal(await byNumber.page.evaluate(() => document.body.dataset.slide), '3')
    } finally {
      await byNumber.close()
    }
    const byId = await open(file, '#title-body-2')
    try {
      assert.equal(await byId.page.locator('section.slide.on').getAttribute('data-id'), 'title-body-2')
      await byId.page.keyboard.press('p')
      assert.equal(await byId.page.evaluate(() => document.body.classList.contains('presenter')), true)
      assert.equal(await byId.page.locator('#notes').textContent(), 'Pause here.')
      assert.equal(await byId.page.locator('section.slide.next').count(), 1)
      assert.match((await byId.page.locator('#timer').textContent()) ?? '', /^\d\d:\d\d$/)
    } finally {
      await byId.close()
    }
  })

  it('leaves skipped slides out unless asked, and notes out unless asked', async () => {
    const skip = await studio(ws.dir, ['slide', 'skip', 'title-body-2', '--json'])
    assert.equal(skip.code, 0, skip.stdout)
    const without = await studio(ws.dir, ['build', '--out', 'dist/a.html', '--json'])
    const withSkipped = await studio(ws.dir, ['build', '--out', 'dist/b.html', '--include-skipped', '--json'])
    assert.equal(withSkipped.json.slides, without.json.slides + 1)
    const html = readFileSync(join(ws.dir, 'dist', 'a.html'), 'utf8')
    assert.doesNotMatch(html, /data-id="title-body-2"/)
    assert.doesNotMatch(html, /Pause here/)
    assert.match(readFileSync(join(ws.dir, 'dist', 'b.html'), 'utf8'), /data-id="title-body-2"/)
  })

  it('refuses a build over its budget, names the largest items, and writes nothing', async () => {
    const over = await studio(ws.dir, ['build', '--out', 'dist/tiny.html', '--budget', '0.1', '--json'])
    assert.equal(over.code, 2)
    assert.equal(over.json.code, 'refused')
    assert.equal(over.json.pointer, '/budgetMB')
    assert.match(over.json.message, /over the 0\.10 MB budget.*Largest: slides \(markup\)/)
    assert.ok(over.json.details.items.length > 0)
    assert.equal(existsSync(join(ws.dir, 'dist', 'tiny.html')), false)
  })
})
