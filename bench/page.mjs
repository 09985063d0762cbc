#!/usr/bin/env node
// The page (issue 13), in the system Chromium against `studio serve` on loopback, each case
// interleaved with its baseline in the same run (npm run bench runs it last; `node bench/page.mjs`
// runs it alone):
// - first slide shown after opening /d/<deck> on the 95-slide brand sample (a fresh browser context
//   each round, so nothing is cached), beside loading a bare page from a bare node:http server;
// - keystroke to commit: a character typed into a title and Escape (which writes at once instead of
//   after the typing pause) until the page shows the new revision, beside the same slide.update posted
//   over HTTP (what any write through the engine costs);
// - a CLI write to the page showing it (needs the room): from the CLI's exit until the page shows the
//   new revision, beside an HTTP write's (an in-process event).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const BIN = join(ROOT, 'bin', 'studio.js')
const node = process.execPath
const require = createRequire(join(ROOT, 'package.json'))
const { chromium } = require('playwright-core')
import { createSample, initWorkspace, median, rounds, SMOKE, startServe, tsModule } from './lib.mjs'
const R = rounds(Number(process.env.BENCH_PAGE_ROUNDS ?? 9))

export async function benchPage() {
  // The page as a person's browser draws it: the desktop browser when there is one, else the renderer's Chromium (a headless shell).
  const { findChromium } = await tsModule('../src/render/browser.ts')
  const chromiumPath = process.env.STUDIO_CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => require('node:fs').existsSync(p)) || findChromium().path
  if (!chromiumPath) return console.log('\npage: no Chromium, skipped')
  const ws = mkdtempSync(join(tmpdir(), 'studio-bench-page-'))
  initWorkspace(ws)
  createSample(ws, 'Page')
  const { child, url } = await startServe(ws, 600)
  const bare = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bare</title><p>bare page</p>'))
  await new Promise((r) => bare.listen(0, '127.0.0.1', r))
  const bareUrl = `http://127.0.0.1:${bare.address().port}/`
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'], headless: true })
  const post = async (id, body) => {
    const r = await fetch(`${url}/api/actions/${id}?deck=page`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const json = await r.json()
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(json)}`)
    return json
  }
  const revision = async () => (await post('deck.info', {})).revision
  const slides = (await post('deck.info', {})).counts.slides
  const first = []
  const all = []
  const bareLoad = []
  try {
    // Warm the server's own caches once (the first render of a process loads its modules); a smoke run's one round is its warm-up.
    if (!SMOKE) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      const page = await ctx.newPage()
      await page.goto(`${url}/d/page`)
      await page.locator('.canvas .frame').first().waitFor()
      await ctx.close()
    }
    for (let i = 0; i < R; i++) {
      {
        const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        const page = await ctx.newPage()
        const t0 = performance.now()
        await page.goto(`${url}/d/page`, { waitUntil: 'commit' })
        await page.locator('.canvas .frame').first().waitFor()
        first.push(performance.now() - t0)
        await page.locator('.thumb .sheet-host').nth(slides - 1).waitFor({ state: 'attached' })
        all.push(performance.now() - t0)
        await ctx.close()
      }
      {
        const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        const page = await ctx.newPage()
        const t0 = performance.now()
        await page.goto(bareUrl, { waitUntil: 'commit' })
        await page.locator('p').waitFor()
        bareLoad.push(performance.now() - t0)
        await ctx.close()
      }
    }
    // Keystroke to commit, beside the same write over HTTP.
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await ctx.newPage()
    await page.goto(`${url}/d/page/title-1`)
    await page.locator('.canvas .frame[data-frame="title"]').waitFor()
    const key = []
    const http = []
    for (let i = 0; i < rounds(R * 2); i++) {
      const rev = await revision()
      await page.locator('.frame[data-frame="title"]').dblclick()
      await page.locator('[data-block="title"] .t[contenteditable="true"]').waitFor()
      await page.keyboard.press('End')
      const t0 = performance.now()
      await page.keyboard.type(String(i % 10))
      await page.keyboard.press('Escape')
      await page.locator(`.canvas[data-revision="${rev + 1}"]`).waitFor()
      key.push(performance.now() - t0)
      await page.locator('.saving', { hasText: `Revision ${rev + 1}` }).waitFor()
      const t1 = performance.now()
      await post('slide.update', { slideId: 'title-body-1', baseRevision: rev + 1, mutations: [{ kind: 'notes.set', notes: `n${i}` }] })
      http.push(performance.now() - t1)
    }
    // A CLI write reaching the page (only with the room: the page says "Not live" without one).
    const live = !(await page.locator('.room.off').count())
    let cli = []
    let viaHttp = []
    if (live) {
      for (let i = 0; i < R; i++) {
        let rev = await revision()
        execFileSync(node, [BIN, 'deck', 'rename', `CLI ${i}`, '--deck', 'page', '--json'], { cwd: ws })
        let t0 = performance.now()
        await page.locator(`.canvas[data-revision="${rev + 1}"]`).waitFor()
        cli.push(performance.now() - t0)
        rev += 1
        t0 = performance.now()
        await post('deck.rename', { name: `HTTP ${i}`, baseRevision: rev })
        const t1 = performance.now()
        await page.locator(`.canvas[data-revision="${rev + 1}"]`).waitFor()
        viaHttp.push(performance.now() - t1)
      }
    }
    await ctx.close()
    console.log('')
    console.log(`page: the ${slides}-slide brand sample in Chromium (${chromiumPath}), ${R} interleaved rounds`)
    console.log('case'.padEnd(52), 'median ms'.padStart(10), 'ratio'.padStart(8))
    const row = (name, xs, base, note = '') => console.log(name.padEnd(52), median(xs).toFixed(0).padStart(10), (base ? `${(median(xs) / median(base)).toFixed(2)}x` : '').padStart(8), note)
    row('bare page load in a fresh context (baseline)', bareLoad)
    row('first slide shown after opening /d/<deck>', first, bareLoad, 'x bare page')
    row(`all ${slides} thumbnails drawn`, all, bareLoad, 'x bare page')
    row('HTTP slide.update, notes (baseline)', http)
    row('keystroke to commit (type, Escape, page shows it)', key, http, 'x HTTP write')
    if (live) {
      row('HTTP write to page update (room, in process)', viaHttp)
      row('CLI write to page update (room, watcher)', cli, viaHttp, 'x HTTP write to page')
    } else console.log('CLI write to page update'.padEnd(52), 'no room on this server: not measured')
  } finally {
    await browser.close()
    bare.close()
    child.kill('SIGTERM')
    rmSync(ws, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPage()
