/**
 * The comments screenshots in docs/images/ (docs/comments.md, "In the page"): a small deck in a
 * temporary workspace with a few threads from people and an agent (a range with a reply, a mention and
 * reactions, a table cell assigned to the agent, the notes, a slide, and a range whose words were
 * edited away), served by `studio serve` and opened in Chromium on comment.link's address of the first
 * thread, in the light and the dark appearance.
 *
 *   npm run build && node --import tsx scripts/page-comments-shots.ts
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
const DECK = 'quarterly-review'
const SLIDE = {
  id: 'numbers-2',
  layout: 'title-body',
  blocks: [
    { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
    { id: 'b1', kind: 'text', slot: 'body', text: 'Costs fell by half at Acme.\nMargins grew for the third quarter in a row.' },
    { id: 'b2', kind: 'table', slot: 'body', header: true, rows: [['Metric', 'Q1', 'Q2'], ['Revenue', '10', '12'], ['Costs', '8', '4']] },
  ],
  notes: 'Pause here: let the table sink in.',
}

const dir = mkdtempSync(join(tmpdir(), 'studio-comment-shots-'))
try {
  await studio(dir, ['init', '--json'])
  execFileSync('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: dir })
  await studio(dir, ['deck', 'create', 'Quarterly review', '--json'])
  await studio(dir, ['slide', 'insert', '--deck', DECK, '--input', JSON.stringify({ sectionId: 'main', after: 'title-1', slide: SLIDE, baseRevision: 0 }), '--json'])
  const server = await serve(dir, [], { ttl: 120 })
  const act = async (id: string, input: unknown, author: string) => {
    const r = await fetch(`${server.url}/api/actions/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': author }, body: JSON.stringify(input) })
    const json = (await r.json()) as any
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(json)}`)
    return json
  }
  const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
  try {
    const range = await act('comment.add', { anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [14, 18] }, body: { text: 'Half of what? {@0} can you source this number?', mentions: [{ principal: 'Ada Lovelace' }] } }, 'Ben Okafor')
    const id = range.thread.id
    await act('comment.reply', { threadId: id, body: { text: 'From the Q2 cost report, page 4. I will link it in the notes.' } }, 'Ada Lovelace')
    await act('comment.react', { threadId: id, commentId: 'c1', emoji: 'eyes', on: true }, 'Ada Lovelace')
    await act('comment.react', { threadId: id, commentId: 'c2', emoji: 'thumbs-up', on: true }, 'Ben Okafor')
    await act('comment.react', { threadId: id, commentId: 'c2', emoji: 'tada', on: true }, 'Cy Park')
    await act('comment.add', { anchor: { kind: 'cell', slideId: 'numbers-2', blockId: 'b2', row: 2, col: 1 }, body: { text: 'Lint: this cell disagrees with the chart on slide 3.' }, assignee: { principal: 'agent:linter' } }, 'agent:linter')
    await act('comment.add', { anchor: { kind: 'notes', slideId: 'numbers-2' }, body: { text: 'Say who Acme is before the pause.' } }, 'Cy Park')
    const gone = await act('comment.add', { anchor: { kind: 'range', slideId: 'numbers-2', blockId: 'b1', path: '/text', range: [45, 62] }, body: { text: 'Three quarters, or four?' } }, 'Cy Park')
    // The words of that last thread edited away: it detaches and keeps its quote.
    const doc = await act('deck.get', {}, 'Ada Lovelace')
    await act('slide.update', { slideId: 'numbers-2', baseRevision: doc.manifest.revision, mutations: [{ kind: 'text.replace', pointer: '/blocks/1/text', text: 'Costs fell by half at Acme.\nMargins grew.' }] }, 'Ada Lovelace')
    if (!gone.thread.id) throw new Error('no thread')
    const link = await act('comment.link', { threadId: id }, 'Ada Lovelace')
    const address = new URL(link.editorUrl)
    for (const appearance of ['light', 'dark']) {
      // Tall enough for every card of the panel.
      const page = await browser.newPage({ viewport: { width: 1440, height: 1100 } })
      await page.goto(server.url + '/')
      await page.evaluate((a) => localStorage.setItem('studio.appearance', a), appearance)
      await page.goto(`${server.url}${address.pathname}${address.search}`)
      await page.locator(`.thread-card[data-thread="${id}"] .thread-body`).waitFor()
      await page.locator(`.pin[data-pin="${id}"]`).waitFor({ state: 'attached' })
      await page.evaluate(() => document.fonts.ready)
      await page.mouse.move(700, 1060)
      const file = join(root, 'docs', 'images', `comments-${appearance}.png`)
      await page.screenshot({ path: file })
      console.log(`wrote ${file}`)
      await page.close()
    }
  } finally {
    await browser.close()
    await server.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
