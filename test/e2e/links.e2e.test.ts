/**
 * Links in a hostile clone (issue 21, item 4): a cloned repository whose deck files are symbolic
 * links out of the workspace, dangling links, a linked assets/ or slides/ folder, and output paths
 * that are links. Through a real `studio serve` and the CLI: every one is refused (404 for a page
 * asset), nothing outside the workspace is read or written, and no message names a server path.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { cliInOneProcess, serve, type Served, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const png = (background: string) => sharp({ create: { width: 40, height: 30, channels: 3, background } }).png().toBuffer()

describe('links in a cloned workspace', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let outside: string
  let server: Served
  let secret: Buffer
  const deck = (id: string) => join(ws.dir, 'decks', id)

  /** A deck folder committed with the given slides and assets (as a clone of someone's repository has it). */
  function addDeck(id: string, slides: Record<string, unknown>[]) {
    mkdirSync(join(deck(id), 'slides'), { recursive: true })
    const manifest = JSON.parse(readFileSync(join(deck(ws.deckId), 'deck.json'), 'utf8'))
    manifest.id = id
    manifest.title = id
    manifest.sections = [{ id: 'main', title: 'Main', slides: slides.map((s) => s.id) }]
    writeFileSync(join(deck(id), 'deck.json'), JSON.stringify(manifest, null, 2) + '\n')
    for (const slide of slides) writeFileSync(join(deck(id), 'slides', `${slide.id}.json`), JSON.stringify(slide, null, 2) + '\n')
  }
  const picture = (id: string, asset: string) => ({ id, layout: 'picture-full', blocks: [{ id: 'p', kind: 'picture', slot: 'media', asset }] })

  const call = async (id: string, body: unknown, deckId?: string) => {
    const r = await fetch(`${server.url}/api/actions/${id}${deckId ? `?deck=${deckId}` : ''}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: r.status, json: (await r.json()) as any }
  }
  const noServerPath = (message: string) => {
    assert.doesNotMatch(message, new RegExp(ws.dir))
    assert.doesNotMatch(message, new RegExp(outside))
  }

  before(async () => {
    ws = await workspaceWithDeck('Linked')
    outside = mkdtempSync(join(tmpdir(), 'studio-outside-'))
    secret = await png('#00ff00')
    writeFileSync(join(outside, 'secret.png'), secret)
    mkdirSync(join(outside, 'folder'))
    writeFileSync(join(outside, 'folder', 'logo.png'), secret)
    writeFileSync(join(outside, 'folder', 'logo.json'), JSON.stringify({ id: 'logo', role: 'picture', alt: 'outside', file: 'logo.png' }))
    mkdirSync(join(outside, 'slides'))
    writeFileSync(join(outside, 'slides', 'title-1.json'), JSON.stringify({ id: 'title-1', layout: 'title', title: 'from outside' }))
    writeFileSync(join(outside, 'keep.html'), 'keep')
    mkdirSync(join(outside, 'out'))
    mkdirSync(join(outside, 'renders'))

    // linked: a real picture beside a link to a file outside and a dangling link.
    mkdirSync(join(deck(ws.deckId), 'assets'))
    writeFileSync(join(deck(ws.deckId), 'assets', 'real.png'), await png('#ff0000'))
    symlinkSync(join(outside, 'secret.png'), join(deck(ws.deckId), 'assets', 'evil.png'))
    symlinkSync(join(outside, 'nothing.png'), join(deck(ws.deckId), 'assets', 'gone.png'))
    // shown: a slide draws the linked picture.
    addDeck('shown', [picture('pic-1', 'evil')])
    mkdirSync(join(deck('shown'), 'assets'))
    writeFileSync(join(deck('shown'), 'assets', 'evil.json'), JSON.stringify({ id: 'evil', role: 'picture', alt: 'x', file: 'evil.png' }))
    symlinkSync(join(outside, 'secret.png'), join(deck('shown'), 'assets', 'evil.png'))
    // folder: the whole assets/ folder is a link out.
    addDeck('folder', [picture('pic-1', 'logo')])
    symlinkSync(join(outside, 'folder'), join(deck('folder'), 'assets'))
    // slidelink: slides/ is a link out.
    addDeck('slidelink', [{ id: 'title-1', layout: 'title', title: 'x' }])
    rmSync(join(deck('slidelink'), 'slides'), { recursive: true })
    symlinkSync(join(outside, 'slides'), join(deck('slidelink'), 'slides'))
    // clean: nothing linked, for the output paths.
    addDeck('clean', [{ id: 'title-1', layout: 'title', title: 'Clean' }])
    await ws.git('add', '-A')
    await ws.git('commit', '-q', '-m', 'a clone with links')
    server = await serve(ws.dir)
  })
  after(async () => {
    await server?.stop()
    ws?.cleanup()
    rmSync(outside, { recursive: true, force: true })
  })

  const untouched = () => {
    assert.deepEqual(readdirSync(outside).sort(), ['folder', 'keep.html', 'out', 'renders', 'secret.png', 'slides'])
    assert.deepEqual(readdirSync(join(outside, 'out')), [])
    assert.deepEqual(readdirSync(join(outside, 'renders')), [])
    assert.equal(readFileSync(join(outside, 'keep.html'), 'utf8'), 'keep')
  }

  it('answers 404 for a page asset that is a link, dangling or not, or under a linked folder', async () => {
    const real = await fetch(`${server.url}/page/asset/${ws.deckId}/real.png`)
    assert.equal(real.status, 200)
    for (const path of [`${ws.deckId}/evil.png`, `${ws.deckId}/gone.png`, 'folder/logo.png']) {
      const r = await fetch(`${server.url}/page/asset/${path}`)
      const body = Buffer.from(await r.arrayBuffer())
      assert.equal(r.status, 404, path)
      assert.equal(body.includes(secret), false)
      noServerPath(body.toString())
    }
    untouched()
  })

  it('refuses a page download through a linked output folder', async () => {
    mkdirSync(join(ws.dir, '.studio'), { recursive: true })
    symlinkSync(join(outside, 'folder'), join(ws.dir, '.studio', 'export'))
    try {
      const r = await fetch(`${server.url}/page/file?path=${encodeURIComponent('.studio/export/logo.png')}`)
      assert.equal(r.status, 404)
      assert.equal(Buffer.from(await r.arrayBuffer()).includes(secret), false)
    } finally {
      rmSync(join(ws.dir, '.studio', 'export'))
    }
  })

  it('refuses to bundle a deck holding a link, naming the workspace path only', async () => {
    const r = await fetch(`${server.url}/api/decks/${ws.deckId}/bundle`)
    const body = Buffer.from(await r.arrayBuffer())
    assert.equal(r.status, 400)
    assert.equal(body.includes(secret), false)
    const json = JSON.parse(body.toString())
    assert.equal(json.code, 'refused')
    assert.match(json.message, new RegExp(`decks/${ws.deckId}/assets/(evil|gone)\\.png is a symbolic link`))
    noServerPath(json.message)
    const folder = await fetch(`${server.url}/api/decks/folder/bundle`)
    assert.equal(folder.status, 400)
    assert.equal(Buffer.from(await folder.arrayBuffer()).includes(secret), false)
  })

  it('refuses a deck whose slides folder is a link with a 4xx, over HTTP and the CLI', async () => {
    const r = await call('deck.info', {}, 'slidelink')
    assert.equal(r.status, 400, JSON.stringify(r.json))
    assert.equal(r.json.code, 'refused')
    assert.match(r.json.message, /slides is a symbolic link/)
    noServerPath(r.json.message)
    const cli = await studio(ws.dir, ['slide', 'get', 'title-1', '--deck', 'slidelink', '--json'])
    assert.equal(cli.json.code, 'refused', cli.stdout)
  })

  it('never reads a linked picture into a build, a render, a page view or a copied deck', async () => {
    const built = await call('build.run', { out: 'dist/shown.html' }, 'shown')
    assert.equal(built.status, 400, JSON.stringify(built.json))
    assert.equal(built.json.code, 'refused')
    assert.match(built.json.message, /^decks\/shown\/assets\/evil\.png is a symbolic link/)
    noServerPath(built.json.message)
    assert.equal(existsSync(join(ws.dir, 'dist', 'shown.html')), false)
    const folder = await studio(ws.dir, ['build', '--deck', 'folder', '--out', 'dist/folder.html', '--json'])
    assert.equal(folder.json.code, 'refused', folder.stdout)
    assert.match(folder.json.message, /^decks\/folder\/assets is a symbolic link/)
    // The renderer is served the deck's files through the same check: the linked picture is not drawn.
    const view = await fetch(`${server.url}/page/view?deck=folder`)
    assert.equal((await view.text()).includes('outside'), false)
    const copied = await studio(ws.dir, ['deck', 'copy', 'folder', '--name', 'Copied', '--json'])
    assert.equal(copied.json.code, 'refused', copied.stdout)
    assert.equal(existsSync(deck('copied')), false)
    untouched()
  })

  it('refuses an output path that is a link or passes through one, dangling or not, on the CLI and over HTTP', async () => {
    symlinkSync(join(outside, 'out'), join(ws.dir, 'out'))
    mkdirSync(join(ws.dir, 'dist'), { recursive: true })
    symlinkSync(join(outside, 'keep.html'), join(ws.dir, 'dist', 'keep.html'))
    symlinkSync(join(outside, 'new.html'), join(ws.dir, 'dist', 'new.html'))
    try {
      for (const [out, shown] of [['out/clean.html', 'out'], ['dist/keep.html', 'dist/keep.html'], ['dist/new.html', 'dist/new.html']]) {
        const r = await studio(ws.dir, ['build', '--deck', 'clean', '--out', out, '--json'])
        assert.equal(r.json.code, 'refused', `${out}: ${r.stdout}`)
        assert.equal(r.json.message.startsWith(`${shown} is a symbolic link`), true, r.json.message)
        noServerPath(r.json.message)
      }
      // Over HTTP the path is resolved inside the workspace: a link at the file itself is refused at open time.
      const http = await call('build.run', { out: 'dist/new.html' }, 'clean')
      assert.deepEqual([http.status, http.json.code], [400, 'refused'], JSON.stringify(http.json))
      const ok = await call('build.run', { out: 'dist/clean.html' }, 'clean')
      assert.equal(ok.status, 200, JSON.stringify(ok.json))
      // Studio's own render folder made a link by the clone: the render is refused before a byte is written.
      mkdirSync(join(ws.dir, '.studio'), { recursive: true })
      symlinkSync(join(outside, 'renders'), join(ws.dir, '.studio', 'render'))
      try {
        const render = await call('render.slide', { slideIds: ['title-1'] }, 'clean')
        assert.deepEqual([render.status, render.json.code], [400, 'refused'], JSON.stringify(render.json))
        assert.match(render.json.message, /^\.studio\/render is a symbolic link/)
        const cli = await studio(ws.dir, ['render', 'title-1', '--deck', 'clean', '--json'])
        assert.equal(cli.json.code, 'refused', cli.stdout)
      } finally {
        rmSync(join(ws.dir, '.studio', 'render'))
      }
      assert.equal(existsSync(join(outside, 'new.html')), false)
      untouched()
    } finally {
      for (const link of ['out', 'dist/keep.html', 'dist/new.html']) rmSync(join(ws.dir, link), { force: true })
    }
  })
})
