/**
 * The page, clicked through as a person would, in the system Chromium against a real `studio serve`
 * on loopback in a temporary workspace. Every step asserts on the deck's files and the git log, not
 * only on what the page shows.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'
import { cliInOneProcess, commitCount, ROOT, serve, studio, workspace, workspaceWithDeck, type Served } from '../helpers/studio.js'
import { until } from '../helpers/until.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): its CLI calls set up decks and write beside the page; none is about the process itself.
cliInOneProcess()

const require = createRequire(import.meta.url)
const { chromium } = require('playwright-core') as typeof import('playwright-core')

type Ws = Awaited<ReturnType<typeof workspace>>

let launched: Promise<Browser> | undefined
/** One Chromium for the whole file, launched on first use; every test opens its own contexts in it and closes them. */
const sharedBrowser = () => (launched ??= chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true }))
after(async () => (await launched)?.close())

/** Waits until `check` holds (polling), or fails with the last value seen. */
const json = (ws: Ws, rel: string) => JSON.parse(readFileSync(join(ws.dir, rel), 'utf8'))
const lastSubject = async (ws: Ws) => (await ws.git('log', '-1', '--format=%s')).trim()
const trailer = async (ws: Ws, key: string) => (await ws.git('log', '-1', `--format=%(trailers:key=${key},valueonly)`)).trim()
/** HEAD's commit as the repository stores it, read without starting git (a loose ref, else packed-refs). */
function headRef(ws: Ws): string {
  const head = readFileSync(join(ws.dir, '.git', 'HEAD'), 'utf8').trim()
  if (!head.startsWith('ref: ')) return head
  const loose = join(ws.dir, '.git', head.slice(5))
  return existsSync(loose) ? readFileSync(loose, 'utf8').trim() : readFileSync(join(ws.dir, '.git', 'packed-refs'), 'utf8')
}

/** Waits for the commit after `count` commits, and answers the actions of the commits since then. */
async function commitsSince(ws: Ws, count: number, expected = 1): Promise<string[]> {
  // git counts the commits; it is asked again only once HEAD has moved (a poll of a file, not a process every 50 ms).
  let seen: string | undefined
  let counted = 0
  const commits = async () => {
    const ref = headRef(ws)
    if (ref !== seen) {
      seen = ref
      counted = await commitCount(ws.git)
    }
    return counted
  }
  await until('the commit count', commits, (n) => n >= count + expected)
  const log = await ws.git('log', `-${expected}`, '--format=%(trailers:key=Studio-Action,valueonly)')
  return log.split('\n').map((l) => l.trim()).filter(Boolean).reverse()
}

/**
 * Each test has its own browser context and page (one browser process for the file), and the deck it
 * works on is made in `before` by the CLI: a test that fails leaves no page or deck another depends on.
 */
describe('the page', { timeout: 600_000 }, () => {
  let ws: Ws
  let server: Served
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const deck = 'launch-plan'

  /** The screen centre of a block's frame on the canvas. */
  const frameCentre = async (blockId: string) => {
    const box = (await page.locator(`.frame[data-frame="${blockId}"]`).boundingBox())!
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, box }
  }
  /** The canvas's scale: screen pixels per sheet pixel. */
  const canvasScale = async () => ((await page.locator('.canvas').boundingBox())!.width / 1600)
  const openSlide = async (slideId: string) => {
    await page.locator(`.thumb[data-slide="${slideId}"] .thumb-button`).click()
    await page.locator(`.canvas[data-slide="${slideId}"] .frame`).first().waitFor()
  }
  const revision = () => json(ws, `decks/${deck}/deck.json`).revision as number
  /** The deck's slides in order, as on disk. */
  const slideOrder = () => (json(ws, `decks/${deck}/deck.json`).sections as { slides: string[] }[]).flatMap((s) => s.slides)
  /** Opens the deck in this test's page, at a slide. */
  const openDeck = async (slideId?: string) => {
    await page.goto(`${server.url}/d/${deck}${slideId ? `/${slideId}` : ''}`)
    await page.locator(`.canvas${slideId ? `[data-slide="${slideId}"]` : ''}`).waitFor()
    await page.locator(`.canvas[data-revision="${revision()}"]`).waitFor()
  }
  /** Waits for the page to show the deck at the revision on disk (its refetch after a write). */
  const settled = async () => {
    const rev = revision()
    await page.locator(`.canvas[data-revision="${rev}"]`).waitFor()
    await page.locator('.saving', { hasText: `Revision ${rev}` }).waitFor()
  }

  before(async () => {
    ws = await workspace()
    const made = await studio(ws.dir, ['deck', 'create', 'Launch plan', '--from', 'brand-sample', '--json'])
    assert.equal(made.json?.id, deck, made.stdout + made.stderr)
    server = await serve(ws.dir, [], { ttl: 590 })
    browser = await sharedBrowser()
  })
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    page = await context.newPage()
    page.on('pageerror', (error) => console.error('page error:', error.message))
  })
  afterEach(async () => {
    await context?.close()
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
  })

  it('creates a deck from the brand sample on the deck list, through deck.create on the window transport', async () => {
    await page.goto(server.url + '/')
    await page.getByLabel('Name').fill('Harbour plan')
    await page.getByRole('radio', { name: /Brand sample/ }).check()
    const commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Create deck' }).click()
    await page.waitForURL(/\/d\/harbour-plan/)
    await page.locator('.canvas .frame').first().waitFor()
    const manifest = json(ws, 'decks/harbour-plan/deck.json')
    assert.equal(manifest.title, 'Harbour plan')
    assert.equal(manifest.sections.flatMap((s: { slides: string[] }) => s.slides).length, 95)
    assert.equal(await commitCount(ws.git), commits + 1)
    assert.equal(await trailer(ws, 'Studio-Action'), 'deck.create')
    // The person at the machine: git's own user.name of the workspace, as on the command line.
    assert.equal((await ws.git('log', '-1', '--format=%an')).trim(), (await ws.git('config', 'user.name')).trim())
    assert.equal(await page.locator('.thumb').count(), 95)
  })

  it('edits a title in place: typing is one revision per pause', async () => {
    await openDeck('title-1')
    const commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="title"]').dblclick()
    const editable = page.locator('.canvas .sheet-host').locator('[data-block="title"] .t[contenteditable="true"]')
    await editable.waitFor()
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Launch plan 2027', { delay: 15 })
    await until('the title on disk', () => json(ws, `decks/${deck}/slides/title-1.json`).title, (t) => t === 'Launch plan 2027')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.equal(await commitCount(ws.git), commits + 1, 'one commit for the whole word')
    await page.keyboard.press('Escape')
    await settled()
    assert.match((await page.locator('.thumb[data-slide="title-1"] .thumb-button').getAttribute('aria-label'))!, /Launch plan 2027/)
  })

  it('marks text in place with the Text subset (italic on a word) and steps list items with Tab', async () => {
    await openDeck('title-body-1')
    const path = `decks/${deck}/slides/title-body-1.json`
    const block = (id: string) => json(ws, path).blocks.find((b: { id: string }) => b.id === id)
    let commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b0"]').dblclick()
    await page.locator('[data-block="b0"] .t[contenteditable="true"]').waitFor()
    // Select "Three" (the first word) and make it italic: the selection stays, the rest keeps its marks.
    await page.keyboard.press('Control+Home')
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('Control+I')
    await page.keyboard.press('Escape')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.equal(block('b0').text, '<i>Three</i> things moved this quarter, and one of them moved a lot.')
    await settled()
    // The list's third item one level in: Tab at its start; written as the items.
    commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b1"]').dblclick()
    await page.locator('[data-block="b1"] .t[contenteditable="true"]').waitFor()
    await page.keyboard.press('Control+End')
    await page.keyboard.press('Home')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.deepEqual(block('b1').items, [{ text: 'Costs fell by half' }, { text: 'Lead time is two days', level: 2 }, { text: 'Customers renew earlier', level: 2 }])
    await settled()
  })

  it('moves and resizes a block on a canvas slide, snapping to the guides and other blocks, and nudges it with the keyboard', async () => {
    await openDeck('freeform-1')
    const path = `decks/${deck}/slides/freeform-1.json`
    const b1 = () => json(ws, path).blocks.find((b: { id: string }) => b.id === 'b1')
    assert.deepEqual(b1().pos, { x: 160, y: 320, w: 360, h: 240 })
    const scale = await canvasScale()
    // Drag b1 right by 101 sheet px and down by 40: its right edge (520 + 101 = 621) lands 1 px from b2's left edge (620) and snaps to it.
    let commits = await commitCount(ws.git)
    const start = await frameCentre('b1')
    await page.mouse.move(start.x, start.y)
    await page.mouse.down()
    await page.mouse.move(start.x + 50 * scale, start.y + 20 * scale, { steps: 4 })
    await page.mouse.move(start.x + 101 * scale, start.y + 40 * scale, { steps: 4 })
    await page.locator('.snap-line.v').waitFor()
    await page.mouse.up()
    assert.deepEqual(await commitsSince(ws, commits), ['block.nudge'])
    const moved = b1()
    assert.equal(moved.pos.x, 260, 'right edge snapped onto b2\'s left edge')
    assert.ok(Math.abs(moved.pos.y - 360) <= 1, `y ${moved.pos.y}`)
    await settled()
    // Resize from the bottom-right handle: 80 sheet px wider, 40 taller; the top-left corner stays.
    const box = (await page.locator('.frame[data-frame="b1"]').boundingBox())!
    const handle = page.locator('.frame[data-frame="b1"] .handle.h-se')
    const hb = (await handle.boundingBox())!
    commits = await commitCount(ws.git)
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2)
    await page.mouse.down()
    await page.mouse.move(hb.x + hb.width / 2 + 80 * scale, hb.y + hb.height / 2 + 43 * scale, { steps: 5 })
    await page.mouse.up()
    assert.deepEqual(await commitsSince(ws, commits), ['block.resize'])
    const resized = b1()
    assert.equal(resized.pos.x, moved.pos.x)
    assert.equal(resized.pos.y, moved.pos.y)
    assert.ok(Math.abs(resized.pos.w - 440) <= 1.5 && Math.abs(resized.pos.h - 283) <= 1.5, JSON.stringify(resized.pos))
    assert.ok(box.width > 0)
    await settled()
    // Rotate b3 with its round handle: dragged to the right of its centre, it snaps to 90°.
    await page.locator('.frame[data-frame="b3"]').click()
    const rotor = (await page.locator('.frame[data-frame="b3"] .handle.rotate').boundingBox())!
    const b3 = await frameCentre('b3')
    commits = await commitCount(ws.git)
    await page.mouse.move(rotor.x + rotor.width / 2, rotor.y + rotor.height / 2)
    await page.mouse.down()
    await page.mouse.move(b3.x + 60, b3.y - 30, { steps: 3 })
    await page.mouse.move(b3.x + 120, b3.y + 2, { steps: 3 })
    await page.mouse.up()
    assert.deepEqual(await commitsSince(ws, commits), ['block.rotate'])
    assert.equal(json(ws, path).blocks.find((b: { id: string }) => b.id === 'b3').angle, 90)
    await settled()
    // Three presses of the right arrow and one of down (Shift: 10 px) become one write after the pause.
    commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b1"]').focus()
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'Shift+ArrowDown']) await page.keyboard.press(key)
    assert.deepEqual(await commitsSince(ws, commits), ['block.nudge'])
    const nudged = b1()
    assert.deepEqual([nudged.pos.x, nudged.pos.y], [resized.pos.x + 3, resized.pos.y + 10])
    assert.equal(await commitCount(ws.git), commits + 1)
    await settled()
  })

  it('reorders slides by dragging a thumbnail, and with Alt+Arrow on the keyboard', async () => {
    await openDeck('title-1')
    const order = () => json(ws, `decks/${deck}/deck.json`).sections[0].slides.slice(0, 4)
    assert.deepEqual(order(), ['title-1', 'title-body-1', 'two-columns-1', 'big-number-1'])
    let commits = await commitCount(ws.git)
    const from = page.locator('.thumb[data-slide="title-body-1"]')
    const to = page.locator('.thumb[data-slide="two-columns-1"]')
    const target = (await to.boundingBox())!
    await from.dragTo(to, { targetPosition: { x: target.width / 2, y: target.height - 4 } })
    assert.deepEqual(await commitsSince(ws, commits), ['slide.move'])
    assert.deepEqual(order(), ['title-1', 'two-columns-1', 'title-body-1', 'big-number-1'])
    await settled()
    commits = await commitCount(ws.git)
    await page.locator('.thumb[data-slide="big-number-1"] .thumb-button').focus()
    await page.keyboard.press('Alt+ArrowUp')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.move'])
    assert.deepEqual(order(), ['title-1', 'two-columns-1', 'big-number-1', 'title-body-1'])
    await settled()
  })

  it('undoes and redoes: each step a new revision, history never rewritten', async () => {
    const path = `decks/${deck}/deck.json`
    const first = json(ws, path).sections[0].slides.slice(0, 4) as string[]
    await openDeck(first[1])
    // This tab's own write to undo: the second slide one down (Alt+Down).
    let commits = await commitCount(ws.git)
    await page.locator(`.thumb[data-slide="${first[1]}"] .thumb-button`).focus()
    await page.keyboard.press('Alt+ArrowDown')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.move'])
    const moved = [first[0], first[2], first[1], first[3]]
    assert.deepEqual(json(ws, path).sections[0].slides.slice(0, 4), moved)
    await settled()
    const head = (await ws.git('rev-parse', 'HEAD')).trim()
    commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Undo', exact: true }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['section.set'])
    assert.deepEqual(json(ws, path).sections[0].slides.slice(0, 4), first)
    await ws.git('merge-base', '--is-ancestor', head, 'HEAD')
    await settled()
    commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Redo', exact: true }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['section.set'])
    assert.deepEqual(json(ws, path).sections[0].slides.slice(0, 4), moved)
    await settled()
    // Undo of a canvas move puts the block back with slide.replace; Ctrl+Z is the same.
    await openSlide('freeform-1')
    const before = json(ws, `decks/${deck}/slides/freeform-1.json`)
    commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b3"]').focus()
    await page.keyboard.press('Shift+ArrowUp')
    assert.deepEqual(await commitsSince(ws, commits), ['block.nudge'])
    await settled()
    commits = await commitCount(ws.git)
    await page.locator('.sidebar').click({ position: { x: 4, y: 4 } })
    await page.keyboard.press('Control+Z')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.replace'])
    assert.deepEqual(json(ws, `decks/${deck}/slides/freeform-1.json`), before)
    await settled()
  })

  it('restores a saved version from the history panel, as a new revision that lists what changed', async () => {
    await openDeck()
    await page.getByRole('button', { name: 'History' }).click()
    await page.getByLabel('Save this revision as a version').fill('Before the rename')
    let commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['version.save'])
    await settled()
    commits = await commitCount(ws.git)
    await page.getByLabel('Deck title').fill('Renamed plan')
    await page.getByLabel('Deck title').press('Enter')
    assert.deepEqual(await commitsSince(ws, commits), ['deck.rename'])
    assert.equal(json(ws, `decks/${deck}/deck.json`).title, 'Renamed plan')
    await settled()
    // The revision list shows each revision's prose diff.
    const rev = revision()
    await page.locator(`.revisions li[data-revision="${rev}"] button`).click()
    await page.locator(`.revisions li[data-revision="${rev}"] .prose li`, { hasText: /Renamed plan/ }).waitFor()
    commits = await commitCount(ws.git)
    await page.getByRole('button', { name: /Restore version 1/ }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['version.restore'])
    assert.equal(json(ws, `decks/${deck}/deck.json`).title, 'Launch plan')
    await page.locator('.message', { hasText: 'Restored version 1' }).waitFor()
    await settled()
    await page.getByRole('button', { name: 'History' }).click()
  })

  it('presents: full screen without skipped slides, keys move, presenter view shows the notes', async () => {
    await openDeck('title-1')
    const [, second, third] = slideOrder()
    // Skip the second slide from its thumbnail, give the first notes (one write after the pause).
    let commits = await commitCount(ws.git)
    await page.locator(`.thumb[data-slide="${second}"]`).hover()
    await page.getByRole('button', { name: 'Skip slide 2' }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.skip'])
    assert.equal(json(ws, `decks/${deck}/slides/${second}.json`).skip, true)
    const shown = slideOrder().filter((id) => json(ws, `decks/${deck}/slides/${id}.json`).skip !== true).length
    await settled()
    commits = await commitCount(ws.git)
    await page.getByRole('textbox', { name: 'Speaker notes' }).fill('Welcome everyone.')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.equal(json(ws, `decks/${deck}/slides/title-1.json`).notes, 'Welcome everyone.')
    await settled()
    await page.getByRole('button', { name: 'Present', exact: true }).click()
    const show = page.locator('.present')
    await show.waitFor()
    assert.match((await show.getAttribute('aria-label'))!, new RegExp(`slide 1 of ${shown}\\b`))
    await page.keyboard.press('ArrowRight')
    await page.locator(`.present[aria-label*="slide 2 of ${shown}"]`).waitFor()
    assert.equal(await page.evaluate(() => location.pathname), `/d/${deck}/${third}`, 'the skipped slide is left out')
    await page.keyboard.press('Escape')
    await page.locator('.editor').waitFor()
    await openSlide('title-1')
    await page.getByRole('button', { name: 'Presenter view' }).click()
    await page.locator('.presenter-notes', { hasText: 'Welcome everyone.' }).waitFor()
    // The audience window shows the show and follows the presenter.
    const [audience] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open audience window' }).click()])
    await audience.locator(`.present[aria-label*="slide 1 of ${shown}"]`).waitFor()
    await page.getByRole('button', { name: 'Next' }).click()
    await page.locator('.presenter-notes', { hasText: 'No notes for this slide.' }).waitFor()
    await audience.locator(`.present[aria-label*="slide 2 of ${shown}"]`).waitFor()
    await page.getByRole('button', { name: 'Exit presenter view' }).click()
    await page.locator('.editor').waitFor()
    await until('the audience window closes with the presenter view', () => audience.isClosed(), (closed) => closed)
  })

  it('re-applies a stale edit on top of a CLI write (409), and says plainly when it no longer applies', async () => {
    await openDeck('freeform-2')
    // The page's refetch is held back, so its next write carries a stale baseRevision whatever the room says.
    let release = () => {}
    const hold = async () => {
      const held = new Promise<void>((resolve) => (release = resolve))
      await page.route('**/api/window/deck.get*', async (route) => {
        await held
        await route.continue().catch(() => undefined)
      })
    }
    await hold()
    const cli = await studio(ws.dir, ['deck', 'rename', 'Renamed by the CLI', '--deck', deck, '--json'])
    assert.equal(cli.code, 0, cli.stdout + cli.stderr)
    let commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b2"]').focus()
    await page.keyboard.press('Shift+ArrowRight')
    assert.deepEqual(await commitsSince(ws, commits), ['block.nudge'])
    assert.equal(json(ws, `decks/${deck}/slides/freeform-2.json`).blocks.find((b: { id: string }) => b.id === 'b2').pos.x, 630)
    release()
    const note = page.locator('.message[data-kind="changed"]', { hasText: 'applied on top of the newer deck' })
    await note.waitFor()
    assert.match(await note.innerText(), /Renamed by the CLI/)
    await note.getByRole('button', { name: 'Dismiss message' }).click()
    await page.unroute('**/api/window/deck.get*')
    await settled()
    // The CLI removes the block the page is about to move: nothing is written, and the page says why.
    await hold()
    const removed = await studio(ws.dir, ['block', 'remove', 'freeform-2#b3', '--deck', deck, '--json'])
    assert.equal(removed.code, 0, removed.stdout + removed.stderr)
    commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="b3"]').focus()
    await page.keyboard.press('Shift+ArrowRight')
    const refused = page.locator('.message[data-kind="changed"]', { hasText: 'not applied' })
    await refused.waitFor()
    assert.match(await refused.innerText(), /b3 is no longer on slide/)
    assert.equal(await commitCount(ws.git), commits)
    await refused.getByRole('button', { name: 'Dismiss message' }).click()
    release()
    await page.unroute('**/api/window/deck.get*')
    await settled()
  })

  it('works from the keyboard: Tab to an object, arrange it from the menu, edit its alt text and table cells in the inspector', async () => {
    await openDeck('freeform-2')
    // Tab from the canvas's first object reaches the next; Space selects it, Shift+Space adds.
    const frames = await page.locator('.canvas .frame').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.frame!))
    const third = frames[frames.indexOf('b2') + 1]
    await page.locator('.frame[data-frame="b1"]').focus()
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.frame), 'b2')
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.frame), third)
    await page.keyboard.press('Shift+Space')
    assert.equal(await page.locator('.frame.selected').count(), 2)
    const yIn = (blocks: { id: string; pos: { y: number } }[], id: string) => blocks.find((b) => b.id === id)!.pos.y
    const before = json(ws, `decks/${deck}/slides/freeform-2.json`).blocks
    // Top: both take the higher of the two tops.
    const top = Math.min(yIn(before, 'b1'), yIn(before, third))
    let commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Arrange' }).click()
    await page.getByRole('group', { name: 'Arrange' }).getByRole('button', { name: 'Top' }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['block.align'])
    const blocks = json(ws, `decks/${deck}/slides/freeform-2.json`).blocks
    assert.deepEqual([yIn(blocks, 'b1'), yIn(blocks, third)], [top, top])
    await settled()
    // Alt text: a chart's, flagged when missing, written with block.setAlt.
    await openSlide('chart-1')
    await page.locator('.frame[data-frame="b1"]').click()
    const alt = page.getByRole('textbox', { name: 'Alt text' })
    assert.match(await alt.inputValue(), /Revenue by quarter/)
    commits = await commitCount(ws.git)
    await alt.fill('Revenue rises, costs fall')
    await alt.blur()
    assert.deepEqual(await commitsSince(ws, commits), ['block.setAlt'])
    assert.equal(json(ws, `decks/${deck}/slides/chart-1.json`).blocks.find((b: { id: string }) => b.id === 'b1').alt, 'Revenue rises, costs fall')
    await settled()
    // A table cell, through table.setCell.
    await openSlide('table-1')
    await page.locator('.frame[data-frame="b1"]').click()
    const cell = page.getByRole('textbox', { name: 'Row 2, column 2' })
    commits = await commitCount(ws.git)
    await cell.fill('42')
    await cell.press('Enter')
    assert.deepEqual(await commitsSince(ws, commits), ['table.setCell'])
    assert.equal(json(ws, `decks/${deck}/slides/table-1.json`).blocks.find((b: { id: string }) => b.id === 'b1').rows[1][1], '42')
    await settled()
  })

  it('duplicates and removes a slide from the sidebar, undoes the removal in place, and changes a layout from the menu', async () => {
    await openDeck('quote-2')
    const manifest = () => json(ws, `decks/${deck}/deck.json`)
    const section = () => manifest().sections.find((s: { id: string }) => s.id === 'market').slides as string[]
    const before = section()
    const number = slideOrder().indexOf('quote-2') + 1
    let commits = await commitCount(ws.git)
    await page.locator('.thumb[data-slide="quote-2"] .thumb-button').focus()
    await page.keyboard.press('Control+D')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.duplicate'])
    const made = section().find((id) => !before.includes(id))!
    assert.equal(section().indexOf(made), before.indexOf('quote-2') + 1)
    const { id: _id, ...copied } = json(ws, `decks/${deck}/slides/${made}.json`)
    const { id: _orig, ...original } = json(ws, `decks/${deck}/slides/quote-2.json`)
    assert.deepEqual(copied, original)
    await settled()
    const removed = json(ws, `decks/${deck}/slides/quote-2.json`)
    commits = await commitCount(ws.git)
    await page.locator('.thumb[data-slide="quote-2"]').hover()
    await page.getByRole('button', { name: `Remove slide ${number}` }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.remove'])
    assert.ok(!section().includes('quote-2'))
    await settled()
    commits = await commitCount(ws.git)
    await page.locator('.message', { hasText: 'Slide removed.' }).getByRole('button', { name: 'Undo' }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.insert'])
    assert.deepEqual(section(), [...before.slice(0, before.indexOf('quote-2') + 1), made, ...before.slice(before.indexOf('quote-2') + 1)])
    assert.deepEqual(json(ws, `decks/${deck}/slides/quote-2.json`), removed)
    await settled()
    // Dragged onto the next section's first slide, the last slide of a section goes first in that section:
    // after its section header, which opens it (the model's rule for "first").
    commits = await commitCount(ws.git)
    await page.locator('.thumb[data-slide="agenda-1"]').dragTo(page.locator('.thumb[data-slide="section-1"]'), { targetPosition: { x: 60, y: 6 } })
    assert.deepEqual(await commitsSince(ws, commits), ['slide.move'])
    assert.deepEqual(section().slice(0, 2), ['section-1', 'agenda-1'])
    assert.ok(!manifest().sections[0].slides.includes('agenda-1'))
    await settled()
    // Alt+Up from there crosses back: the header cannot be passed within its section.
    commits = await commitCount(ws.git)
    await page.locator('.thumb[data-slide="agenda-1"] .thumb-button').focus()
    await page.keyboard.press('Alt+ArrowUp')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.move'])
    assert.equal(manifest().sections[0].slides.at(-1), 'agenda-1')
    await settled()
    // The layout menu: title-body to two columns, through slide.setLayout.
    await openSlide('title-body-4')
    commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Layout', exact: true }).click()
    await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Two columns' }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.setLayout'])
    assert.equal(json(ws, `decks/${deck}/slides/title-body-4.json`).layout, 'two-columns')
    await settled()
  })

  it('builds the single-file HTML deck from the File menu and downloads it, writing no commit', async () => {
    await openDeck()
    const commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'File' }).click()
    await page.getByRole('button', { name: 'Single-file HTML deck' }).click()
    const link = page.getByRole('link', { name: `Download ${deck}.html` })
    await link.waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    const bytes = readFileSync((await download.path())!)
    assert.match(bytes.subarray(0, 200).toString('utf8'), /<!doctype html>/i)
    assert.deepEqual(bytes, readFileSync(join(ws.dir, '.studio', 'build', `${deck}.html`)))
    assert.equal(await commitCount(ws.git), commits)
    await page.keyboard.press('Escape')
  })

  it('answers the window transport like the HTTP one: 404 for an action not on the page, 400 for a malformed tab id, 409 with the current document', async () => {
    const post = async (id: string, body: unknown, headers: Record<string, string> = {}) => {
      const r = await fetch(`${server.url}/api/window/${id}?deck=${deck}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-client': 'abcdefgh0123', ...headers }, body: JSON.stringify(body) })
      return { status: r.status, body: (await r.json()) as any }
    }
    assert.deepEqual([(await post('deck.pack', { id: deck })).status, (await post('deck.pack', { id: deck })).body.code], [404, 'not_found'])
    const bad = await post('deck.info', {}, { 'x-studio-client': 'NOT-A-TAB' })
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_input'])
    const stale = await post('deck.rename', { name: 'Stale', baseRevision: 0 })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.code, 'stale_revision')
    assert.equal(stale.body.currentRevision, revision())
    assert.equal(stale.body.current.manifest.id, deck)
    const foreign = await fetch(`${server.url}/api/window/deck.info?deck=${deck}`, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' })
    assert.equal(foreign.status, 403)
  })

  it('shows a CLI write at once, without a reload (the room\'s changed)', async () => {
    await openDeck('freeform-3')
    await page.locator('.room.off').waitFor({ state: 'detached' })
    await page.evaluate(() => ((window as any).notReloaded = true))
    const at = revision()
    const moved = await studio(ws.dir, ['block', 'nudge', 'freeform-3', '--blocks', 'b1', '--dx', '40', '--deck', deck, '--json'])
    assert.equal(moved.code, 0, moved.stdout + moved.stderr)
    await page.locator(`.canvas[data-revision="${at + 1}"]`).waitFor()
    const scale = await canvasScale()
    const frame = (await page.locator('.frame[data-frame="b1"]').boundingBox())!
    const canvas = (await page.locator('.canvas').boundingBox())!
    assert.ok(Math.abs((frame.x - canvas.x) / scale - 200) < 1.5, `b1 drawn at x ${(frame.x - canvas.x) / scale}`)
    assert.equal(await page.evaluate(() => (window as any).notReloaded), true)
  })

  it('mints slide ids with the tab\'s mark, shows two pages each other\'s pointer, and follows', async () => {
    await openDeck()
    const client = await page.evaluate(() => sessionStorage.getItem('studio.client'))
    assert.match(client!, /^[a-z0-9]{12}$/)
    let commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'New slide' }).click()
    await page.getByRole('group', { name: 'New slide' }).getByRole('button', { name: 'Title only' }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.new'])
    await page.waitForURL(new RegExp(`/title-only-\\d+-${client!.slice(0, 4)}$`))
    const minted = new URL(page.url()).pathname.split('/').pop()!
    assert.ok(json(ws, `decks/${deck}/deck.json`).sections.some((s: { slides: string[] }) => s.slides.includes(minted)))
    await settled()
    // A second person in another browser context, on the same slide.
    await openSlide('freeform-3')
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const other = await context.newPage()
    try {
      await other.goto(`${server.url}/d/${deck}/freeform-3`)
      await other.locator('.canvas .frame').first().waitFor()
      const otherClient = await other.evaluate(() => sessionStorage.getItem('studio.client'))
      const entry = page.locator(`.roster .person[data-client="${otherClient}"]`)
      await entry.waitFor()
      const box = (await other.locator('.canvas').boundingBox())!
      await other.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await other.mouse.move(box.x + box.width / 2 + 10, box.y + box.height / 2 + 10)
      await page.locator(`.remote-pointer[data-client="${otherClient}"]`).waitFor()
      await other.locator(`.remote-pointer[data-client="${client}"]`).waitFor({ state: 'detached' })
      const mine = (await page.locator('.canvas').boundingBox())!
      await page.mouse.move(mine.x + 40, mine.y + 40)
      await page.mouse.move(mine.x + 50, mine.y + 50)
      await other.locator(`.remote-pointer[data-client="${client}"]`).waitFor()
      // Follow: this page goes where the other goes.
      await entry.getByRole('button', { name: 'Follow' }).click()
      await entry.getByRole('button', { name: 'Following' }).waitFor()
      await other.locator('.thumb[data-slide="chart-1"] .thumb-button').click()
      await page.waitForURL(/\/chart-1$/)
      await page.locator('.canvas[data-slide="chart-1"]').waitFor()
      // A slide of one's own choosing stops following.
      await openSlide('freeform-3')
      await entry.getByRole('button', { name: 'Follow' }).waitFor()
    } finally {
      await context.close()
    }
  })

  /** Adds a slide of `layout` after the current one from the New slide menu; answers its id once the page shows it. */
  const newSlideFromMenu = async (layout: string) => {
    const commits = await commitCount(ws.git)
    const before = new Set(slideOrder())
    await page.getByRole('button', { name: 'New slide' }).click()
    await page.getByRole('group', { name: 'New slide' }).getByRole('button', { name: layout, exact: true }).click()
    assert.deepEqual(await commitsSince(ws, commits), ['slide.new'])
    const made = slideOrder().find((id) => !before.has(id))!
    await page.waitForURL(new RegExp(`/${made}$`))
    // A slide inserted early renumbers (and so redraws) every later thumbnail: on a loaded machine its view can take a while.
    await page.locator(`.canvas[data-slide="${made}"]`).waitFor({ timeout: 90_000 })
    await settled()
    return made
  }
  const promptsOn = async (slideId: string) => {
    await page.locator(`.canvas[data-slide="${slideId}"] .prompt`).first().waitFor()
    return page.locator(`.canvas[data-slide="${slideId}"] .prompt`).allInnerTexts()
  }

  it('prompts on a new slide\'s empty slots in the editor ("Click to add title"), and typing there writes the slot', async () => {
    await openDeck('title-1')
    const made = await newSlideFromMenu('Title and body')
    assert.deepEqual(await promptsOn(made), ['Click to add title', 'Click to add text'])
    // One click on the title's prompt (on the empty block's frame over it) puts the caret there; what is typed replaces the prompt.
    let commits = await commitCount(ws.git)
    await page.locator('.frame[data-frame="title"]').click()
    await page.locator('[data-block="title"] .t[contenteditable="true"]').waitFor()
    await page.keyboard.type('Agenda', { delay: 15 })
    await page.keyboard.press('Escape')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.equal(json(ws, `decks/${deck}/slides/${made}.json`).blocks.find((b: { id: string }) => b.id === 'title').text, 'Agenda')
    await settled()
    assert.deepEqual(await promptsOn(made), ['Click to add text'])
    // A section header's own fields, drawn in slots only once they hold text: typed in from their prompts.
    const header = await newSlideFromMenu('Section header')
    assert.deepEqual(await promptsOn(header), ['Click to add title', 'Click to add subtitle'])
    commits = await commitCount(ws.git)
    await page.getByRole('button', { name: 'Click to add subtitle' }).click()
    await page.getByRole('textbox', { name: 'Subtitle' }).fill('Where we stand')
    await page.keyboard.press('Enter')
    assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
    assert.equal(json(ws, `decks/${deck}/slides/${header}.json`).subtitle, 'Where we stand')
    await settled()
    assert.deepEqual(await promptsOn(header), ['Click to add title'])
    // A picture placeholder (the new slide's media block, no asset): a picture picked from its prompt becomes an asset the placeholder shows.
    const pictured = await newSlideFromMenu('Picture with caption')
    assert.deepEqual(json(ws, `decks/${deck}/slides/${pictured}.json`).blocks.find((b: { slot: string }) => b.slot === 'media'), { id: 'media', kind: 'picture', slot: 'media' })
    assert.ok((await promptsOn(pictured)).includes('Click to add picture'))
    const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#2a6fdb' } }).png().toBuffer()
    commits = await commitCount(ws.git)
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Click to add picture' }).click()])
    await chooser.setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: png })
    assert.deepEqual(await commitsSince(ws, commits, 2), ['asset.add', 'block.set'])
    const pictures = json(ws, `decks/${deck}/slides/${pictured}.json`).blocks.filter((b: { kind: string }) => b.kind === 'picture')
    assert.equal(pictures.length, 1)
    assert.equal(pictures[0].id, 'media')
    assert.equal(pictures[0].slot, 'media')
    assert.equal(typeof pictures[0].asset, 'string')
    await settled()
    assert.ok(!(await promptsOn(pictured)).includes('Click to add picture'))
  })

  it('never carries a prompt into what the renderer draws: the sheet, the slideshow, the HTML build and the exported text', async () => {
    await openDeck('title-1')
    const made = await newSlideFromMenu('Two columns')
    assert.deepEqual(await promptsOn(made), ['Click to add title', 'Click to add text', 'Click to add text'])
    const drawn = await page.locator('.canvas .sheet-host').evaluate((host) => host.shadowRoot!.innerHTML)
    assert.doesNotMatch(drawn, /Click to add/)
    assert.equal(await page.locator(`.thumb[data-slide="${made}"] .sheet-host`).evaluate((host) => host.shadowRoot!.innerHTML), drawn)
    await page.getByRole('button', { name: 'Present', exact: true }).click()
    await page.locator('.present').waitFor()
    assert.doesNotMatch(await page.locator('.present').innerHTML(), /Click to add/)
    await page.keyboard.press('Escape')
    const built = await studio(ws.dir, ['build', '--deck', deck, '--out', '.studio/build/prompts.html', '--json'])
    assert.equal(built.code, 0, built.stdout + built.stderr)
    const html = readFileSync(join(ws.dir, '.studio/build/prompts.html'), 'utf8')
    assert.match(html, new RegExp(`data-slide="${made}"`))
    assert.doesNotMatch(html, /Click to add/)
    const text = await studio(ws.dir, ['export', 'txt', '--deck', deck, '--json'])
    assert.equal(text.code, 0, text.stdout + text.stderr)
    assert.ok(text.json.slides.includes(made))
    assert.doesNotMatch(text.json.text, /Click to add/)
  })

  it('takes one Tab stop for the whole slide list: Up, Down, Home and End go to a slide, Enter into it (keyboard only)', async () => {
    await openDeck('title-1')
    const order = slideOrder()
    const list = page.getByRole('listbox', { name: 'Slides' })
    assert.equal(await list.getByRole('option').count(), order.length)
    assert.equal(await list.getByRole('option', { selected: true }).count(), 1)
    const where = () =>
      page.evaluate(() => {
        const a = document.activeElement as HTMLElement
        if (a.closest('.sidebar')) return `list ${a.getAttribute('role')} ${a.closest('.thumb')?.getAttribute('data-slide')}`
        return a.closest('.canvas') ? 'canvas' : 'elsewhere'
      })
    // From the top of the page, Tab crosses the list in one stop, on the slide shown, and goes on to the canvas.
    await page.locator('.bar .brand').focus()
    const stops: string[] = []
    for (let i = 0; i < 60 && stops.at(-1) !== 'canvas'; i++) {
      await page.keyboard.press('Tab')
      stops.push(await where())
    }
    assert.deepEqual(stops.filter((s) => s.startsWith('list')), ['list option title-1'])
    assert.equal(stops.at(-1), 'canvas')
    for (let i = 0; i < 10 && !(await where()).startsWith('list'); i++) await page.keyboard.press('Shift+Tab')
    assert.equal(await where(), 'list option title-1')
    // A key moves the focus and opens that slide; the page's answer to the key before may land after it, so
    // each check waits for the focus to settle where the key sends it.
    const focusOn = (want: string) => until(`the focus on ${want}`, where, (w) => w === want)
    await page.keyboard.press('ArrowDown')
    await focusOn(`list option ${order[1]}`)
    await page.waitForURL(new RegExp(`/${order[1]}$`))
    assert.equal(await page.locator(`.thumb[data-slide="${order[1]}"] [role="option"]`).getAttribute('aria-selected'), 'true')
    await page.keyboard.press('End')
    await focusOn(`list option ${order.at(-1)}`)
    await page.keyboard.press('Home')
    await focusOn(`list option ${order[0]}`)
    await page.keyboard.press('ArrowUp')
    await focusOn(`list option ${order[0]}`)
    // Still one stop: every other option and every thumbnail tool is out of the Tab order.
    assert.equal(await page.locator('.sidebar [tabindex="0"], .sidebar button:not([tabindex="-1"])').count(), 1)
    // Enter at once, as a person would: the slide Home opened may still be loading, and Enter waits for it.
    await page.keyboard.press('Enter')
    await until('the focus in the slide', where, (w) => w === 'canvas')
    // Down then Enter faster than a frame (a quick typist, or a busy machine): Enter's move into the slide
    // wins over Down's move to the next option, which the page makes a frame later.
    for (let i = 0; i < 10 && !(await where()).startsWith('list'); i++) await page.keyboard.press('Shift+Tab')
    await focusOn(`list option ${order[0]}`)
    await page.evaluate(() => {
      for (const key of ['ArrowDown', 'Enter']) document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
    })
    await until('the focus in the slide', where, (w) => w === 'canvas')
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    assert.equal(await where(), 'canvas', 'the focus stays in the slide Enter went into')
  })

  it('shows each deck\'s first shown slide as its cover on the deck list, kept per revision by the server', async () => {
    const made = await studio(ws.dir, ['deck', 'create', 'Covered', '--from', 'blank', '--json'])
    assert.equal(made.json?.id, 'covered', made.stdout + made.stderr)
    assert.equal((await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--after', 'title-1', '--deck', 'covered', '--json'])).code, 0)
    assert.equal((await studio(ws.dir, ['slide', 'skip', 'title-1', '--deck', 'covered', '--json'])).code, 0)
    await page.goto(server.url + '/')
    const cover = (title: string) => page.locator('.decks li', { hasText: title }).locator('.deck-cover')
    await cover('Covered').and(page.locator('[data-cover="title-body-1"]')).locator('.sheet-host').waitFor()
    const shownFirst = slideOrder().find((id) => json(ws, `decks/${deck}/slides/${id}.json`).skip !== true)
    await cover('Launch plan').and(page.locator(`[data-cover="${shownFirst}"]`)).locator('.sheet-host').waitFor()
    assert.equal(await cover('Covered').locator('.sheet-host').evaluate((host) => host.shadowRoot!.querySelector('.sheet')!.getAttribute('data-slide')), 'title-body-1')
    // Asked with the revision it knows, the server answers the cover it drew at that revision without reading the deck;
    // without one it reads the deck (here a hand edit, not committed) and draws it again.
    const rev = json(ws, 'decks/covered/deck.json').revision
    const url = `${server.url}/page/view?deck=covered&appearance=light&cover=1`
    const first = await (await fetch(`${url}&revision=${rev}`)).json()
    const file = join(ws.dir, 'decks/covered/slides/title-body-1.json')
    const original = readFileSync(file, 'utf8')
    try {
      const slide = JSON.parse(original)
      slide.blocks[0].text = 'Edited by hand'
      writeFileSync(file, JSON.stringify(slide, null, 2))
      assert.deepEqual(await (await fetch(`${url}&revision=${rev}`)).json(), first)
      const fresh = await (await fetch(url)).json()
      assert.match(fresh.slides[0].html, /Edited by hand/)
    } finally {
      writeFileSync(file, original)
    }
  })

  it('has no serious or critical axe-core violations on the deck list, the editor, the history panel and the presenter view, in light and dark', async () => {
    // axe is injected as a script: this context bypasses the page's CSP (which allows only the page's own script).
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
    const audit = await context.newPage()
    const axe = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')
    const check = async (where: string) => {
      await audit.addScriptTag({ content: axe })
      const result = (await audit.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))) as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`), [], where)
    }
    try {
      for (const appearance of ['light', 'dark']) {
        await audit.goto(server.url + '/')
        await audit.evaluate((a) => localStorage.setItem('studio.appearance', a), appearance)
        await audit.reload()
        await audit.locator('.decks a').first().waitFor()
        await check(`deck list, ${appearance}`)
        await audit.goto(`${server.url}/d/${deck}/freeform-1`)
        await audit.locator('.canvas .frame[data-frame="b1"]').click()
        await audit.locator('.inspector h2', { hasText: 'Shape' }).waitFor()
        await check(`editor with a shape selected, ${appearance}`)
        await audit.getByRole('button', { name: 'History' }).click()
        await audit.locator('.history .meta, ol.revisions li').first().waitFor()
        await check(`history panel, ${appearance}`)
        await audit.getByRole('button', { name: 'Presenter view' }).click()
        await audit.locator('.presenter-notes').waitFor()
        await check(`presenter view, ${appearance}`)
      }
    } finally {
      await context.close()
    }
  })
})

describe('the page off loopback, with a token', { timeout: 60_000 }, () => {
  const TOKEN = 'page-test-token-0123456789abcdef0123'
  // A machine address that is not loopback: the browser's requests then come from off loopback.
  const address = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address

  it('opens with ?token= once, keeps it out of the address bar, sends it with every call, and without it says a token is needed', { skip: !address && 'no address off loopback on this machine' }, async () => {
    const ws = await workspaceWithDeck('Far deck')
    const server = await serve(ws.dir, ['--host', '0.0.0.0'], { env: { STUDIO_TOKEN: TOKEN }, ttl: 60 })
    const browser = await sharedBrowser()
    const context = await browser.newContext()
    const strangers = await browser.newContext()
    try {
      const base = `http://${address}:${new URL(server.url).port}`
      const page = await context.newPage()
      await page.goto(`${base}/d/${ws.deckId}?token=${TOKEN}`)
      await page.locator('.canvas .frame').first().waitFor()
      assert.equal(new URL(page.url()).search, '', 'the token left the address bar')
      assert.equal(await page.evaluate(() => sessionStorage.getItem('studio.token')), TOKEN)
      const commits = await commitCount(ws.git)
      await page.getByRole('textbox', { name: 'Speaker notes' }).fill('From afar')
      assert.deepEqual(await commitsSince(ws, commits), ['slide.update'])
      // Another browser without the token gets the page's files, and the deck's refusal in plain words.
      const stranger = await strangers.newPage()
      await stranger.goto(`${base}/`)
      await stranger.locator('.message[data-kind="error"]', { hasText: 'bearer token is required' }).first().waitFor()
      const view = await stranger.evaluate(async (deck) => (await fetch(`/page/view?deck=${deck}`)).status, ws.deckId)
      assert.equal(view, 401)
    } finally {
      await context.close()
      await strangers.close()
      await server.stop()
      ws.cleanup()
    }
  })
})

describe('studio serve --deck', { timeout: 90_000 }, () => {
  it('opens the deck it names at /, with the deck list one click away', async () => {
    const ws = await workspaceWithDeck('Served deck')
    assert.equal((await studio(ws.dir, ['deck', 'create', 'Other deck', '--json'])).code, 0)
    const server = await serve(ws.dir, ['--deck', ws.deckId], { ttl: 80 })
    const context = await (await sharedBrowser()).newContext()
    try {
      const page = await context.newPage()
      await page.goto(server.url + '/')
      await page.waitForURL(new RegExp(`/d/${ws.deckId}$`))
      await page.locator('.canvas .frame').first().waitFor()
      await page.getByRole('link', { name: 'Deck Studio' }).click()
      await page.locator('.decks li', { hasText: 'Other deck' }).waitFor()
      assert.equal(new URL(page.url()).pathname, '/')
    } finally {
      await context.close()
      await server.stop()
      ws.cleanup()
    }
  })
})
