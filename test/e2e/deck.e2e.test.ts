import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, commitCount, studio, workspace, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('deck lifecycle on the command line', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  before(async () => {
    ws = await workspaceWithDeck('Quarterly review')
  })
  after(() => ws.cleanup())

  it('creates a deck from blank: one title slide, Simple theme, light, revision 0, one commit with trailers', async () => {
    assert.equal(ws.deckId, 'quarterly-review')
    const info = await studio(ws.dir, ['info', '--json'])
    assert.equal(info.code, 0, info.stderr)
    assert.equal(info.json.title, 'Quarterly review')
    assert.equal(info.json.theme, 'simple')
    assert.equal(info.json.revision, 0)
    assert.deepEqual(info.json.counts.slides, 1)
    assert.equal(info.json.sections[0].slides[0].id, 'title-1')
    assert.equal(info.json.sections[0].slides[0].title, 'Quarterly review')
    const manifest = JSON.parse(readFileSync(join(ws.dir, 'decks/quarterly-review/deck.json'), 'utf8'))
    assert.equal(manifest.theme, 'studio-simple')
    assert.equal(manifest.defaults.appearance, 'light')
    const log = await ws.git('log', '-1', '--format=%an%n%B')
    assert.match(log, /Studio-Action: deck\.create/)
    assert.match(log, /Studio-Deck: quarterly-review/)
    assert.match(log, /Studio-Revision: 0/)
    assert.equal(await ws.git('status', '--porcelain'), '')
  })

  it('refuses a stale baseRevision with 409, the current revision and the current document, and writes nothing', async () => {
    const renamed = await studio(ws.dir, ['deck', 'rename', 'Q3 review', '--rev', '0', '--json'])
    assert.equal(renamed.code, 0, renamed.stdout)
    assert.equal(renamed.json.revision, 1)
    const commits = await commitCount(ws.git)
    const stale = await studio(ws.dir, ['deck', 'rename', 'Other', '--rev', '0', '--json'])
    assert.equal(stale.code, 4)
    assert.equal(stale.json.status, 409)
    assert.equal(stale.json.code, 'stale_revision')
    assert.equal(stale.json.currentRevision, 1)
    assert.equal(stale.json.current.manifest.title, 'Q3 review')
    assert.ok(stale.json.current.slides['title-1'])
    assert.equal(await commitCount(ws.git), commits)
    assert.equal(await ws.git('status', '--porcelain'), '')
  })

  it('answers unknown_field with the JSON pointer of the unknown member', async () => {
    const result = await studio(ws.dir, ['deck', 'rename', '--input', '{"name":"X","baseRevision":1,"colour":"red"}', '--json'])
    assert.equal(result.code, 2)
    assert.equal(result.json.code, 'unknown_field')
    assert.equal(result.json.pointer, '/colour')
  })

  it('answers invalid_input with the validator path and the pointer of the bad value', async () => {
    const result = await studio(ws.dir, ['deck', 'guides', '--set', '{"vertical":["x"]}', '--json'])
    assert.equal(result.code, 2)
    assert.equal(result.json.code, 'invalid_input')
    assert.equal(result.json.pointer, '/set/vertical/0')
    assert.match(result.json.path, /^#\/properties\/set/)
  })

  it('uses the current revision when --rev is omitted and says so to people', async () => {
    const result = await studio(ws.dir, ['deck', 'set', '/defaults/counter', 'true'])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /No --rev given: using the current revision \d+/)
  })

  it('sets manifest fields and refuses values of the wrong kind', async () => {
    const theme = await studio(ws.dir, ['deck', 'set', '/theme', 'nope', '--json'])
    assert.equal(theme.code, 2)
    assert.equal(theme.json.pointer, '/value')
    const dark = await studio(ws.dir, ['deck', 'set', '/defaults/appearance', 'dark', '--json'])
    assert.equal(dark.code, 0)
    assert.equal(dark.json.value, 'dark')
    const removed = await studio(ws.dir, ['deck', 'set', '/defaults/appearance', '--json'])
    assert.equal(removed.json.value, null)
    const title = await studio(ws.dir, ['deck', 'set', '/title', '--json'])
    assert.equal(title.code, 2)
    assert.equal(title.json.code, 'refused')
  })

  it('keeps guides sorted and inside the sheet, and removes the field when empty', async () => {
    const added = await studio(ws.dir, ['deck', 'guides', '--add-vertical', '1200,400', '--add-horizontal', '450', '--json'])
    assert.equal(added.code, 0, added.stdout)
    assert.deepEqual(added.json.guides, { vertical: [400, 1200], horizontal: [450] })
    const outside = await studio(ws.dir, ['deck', 'guides', '--add-vertical', '1700', '--json'])
    assert.equal(outside.code, 2)
    assert.equal(outside.json.pointer, '/add/0/at')
    const cleared = await studio(ws.dir, ['deck', 'guides', '--clear', '--json'])
    assert.deepEqual(cleared.json.guides, { vertical: [], horizontal: [] })
    const manifest = JSON.parse(readFileSync(join(ws.dir, 'decks', ws.deckId, 'deck.json'), 'utf8'))
    assert.equal('guides' in manifest, false)
  })

  it('sets and removes the deck background', async () => {
    const set = await studio(ws.dir, ['deck', 'background', '--color', '#f5f1e8', '--json'])
    assert.equal(set.json.background, '#f5f1e8')
    const removed = await studio(ws.dir, ['deck', 'background', '--json'])
    assert.equal(removed.json.background, null)
  })

  it('stores a title that looks like a git option as text', async () => {
    const result = await studio(ws.dir, ['deck', 'rename', '--upload-pack=touch pwned', '--json'])
    // oclif reads an unknown --flag as an error; the --input form passes it through as a value.
    const viaInput = await studio(ws.dir, ['deck', 'rename', '--input', JSON.stringify({ name: '--upload-pack=touch pwned' }), '--json'])
    assert.equal(viaInput.code, 0, viaInput.stdout)
    assert.equal(viaInput.json.title, '--upload-pack=touch pwned')
    assert.notEqual(result.code, 0)
    assert.equal(existsSync(join(ws.dir, 'pwned')), false)
    const log = await ws.git('log', '-1', '--format=%B')
    assert.match(log, /deck\.rename/)
  })
})

describe('the deck state table: trash, restore, remove', () => {
  it('moves between active, trashed and deleted exactly as the spec says', async () => {
    const ws = await workspaceWithDeck('Doomed')
    try {
      const id = ws.deckId
      const trashed = await studio(ws.dir, ['deck', 'trash', id, '--rev', '0', '--json'])
      assert.equal(trashed.code, 0, trashed.stdout)
      assert.ok(trashed.json.trashedAt)
      const list = await studio(ws.dir, ['deck', 'list', '--json'])
      assert.deepEqual(list.json.decks, [])
      const all = await studio(ws.dir, ['deck', 'list', '--include-trashed', '--json'])
      assert.equal(all.json.decks[0].id, id)
      assert.equal(all.json.decks[0].trashedAt, trashed.json.trashedAt)
      const again = await studio(ws.dir, ['deck', 'trash', id, '--json'])
      assert.equal(again.json.code, 'refused')
      const restored = await studio(ws.dir, ['deck', 'restore', id, '--rev', '1', '--json'])
      assert.equal(restored.code, 0)
      assert.equal(restored.json.trashedAt, undefined)
      const notTrashed = await studio(ws.dir, ['deck', 'restore', id, '--json'])
      assert.equal(notTrashed.json.code, 'refused')
      const unconfirmed = await studio(ws.dir, ['deck', 'remove', id, '--json'])
      assert.equal(unconfirmed.code, 2)
      assert.equal(unconfirmed.json.pointer, '/confirm')
      const stale = await studio(ws.dir, ['deck', 'remove', id, '--confirm', '--rev', '0', '--json'])
      assert.equal(stale.code, 4)
      const removed = await studio(ws.dir, ['deck', 'remove', id, '--confirm', '--json'])
      assert.equal(removed.code, 0, removed.stdout)
      assert.equal(existsSync(join(ws.dir, 'decks', id)), false)
      assert.equal(await ws.git('status', '--porcelain'), '')
      const gone = await studio(ws.dir, ['deck', 'trash', id, '--rev', '0', '--json'])
      assert.equal(gone.code, 3)
    } finally {
      ws.cleanup()
    }
  })
})

describe('default deck, copies and sections', () => {
  it('uses the only deck, else the configured default, else lists the decks', async () => {
    const ws = await workspace()
    try {
      const none = await studio(ws.dir, ['info', '--json'])
      assert.equal(none.code, 3)
      await studio(ws.dir, ['deck', 'create', 'Alpha', '--json'])
      assert.equal((await studio(ws.dir, ['info', '--json'])).json.id, 'alpha')
      await studio(ws.dir, ['deck', 'create', 'Beta', '--json'])
      const ambiguous = await studio(ws.dir, ['info', '--json'])
      assert.equal(ambiguous.code, 2)
      assert.match(ambiguous.json.message, /alpha, beta/)
      const set = await studio(ws.dir, ['deck', 'default', 'beta', '--json'])
      assert.equal(set.code, 0, set.stdout)
      assert.equal((await studio(ws.dir, ['info', '--json'])).json.id, 'beta')
      assert.equal((await studio(ws.dir, ['info', '--deck', 'alpha', '--json'])).json.id, 'alpha')
      const taken = await studio(ws.dir, ['deck', 'create', 'Alpha', '--json'])
      assert.equal(taken.code, 4)
      assert.equal(taken.json.code, 'id_taken')
    } finally {
      ws.cleanup()
    }
  })

  it('copies a deck at revision 0 with an empty version log, only the slides asked for, notes removed', async () => {
    const ws = await workspaceWithDeck('Source')
    try {
      const file = join(ws.dir, 'decks/source/slides/title-1.json')
      const slide = JSON.parse(readFileSync(file, 'utf8'))
      slide.notes = 'Say hello'
      writeFileSync(file, JSON.stringify(slide))
      writeFileSync(join(ws.dir, 'decks/source/versions.json'), JSON.stringify([{ n: 1, author: 'a', note: 'v1', revision: 0, at: '2026-01-01T00:00:00.000Z' }]))
      await ws.git('add', '-A')
      await ws.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'notes')
      const copy = await studio(ws.dir, ['deck', 'copy', 'source', '--name', 'Copy of source', '--remove-notes', '--json'])
      assert.equal(copy.code, 0, copy.stdout)
      assert.equal(copy.json.id, 'copy-of-source')
      assert.equal(copy.json.revision, 0)
      const copied = JSON.parse(readFileSync(join(ws.dir, 'decks/copy-of-source/slides/title-1.json'), 'utf8'))
      assert.equal(copied.notes, undefined)
      assert.equal(existsSync(join(ws.dir, 'decks/copy-of-source/versions.json')), false)
      const missing = await studio(ws.dir, ['deck', 'copy', 'source', '--name', 'X', '--slides', 'nope', '--json'])
      assert.equal(missing.code, 3)
    } finally {
      ws.cleanup()
    }
  })

  it('replaces the section list and refuses one that drops or repeats a slide', async () => {
    const ws = await workspaceWithDeck('Sections')
    try {
      const sections = [{ id: 'opening', title: 'Opening', slides: ['title-1'] }, { id: 'empty', title: 'Empty', slides: [] }]
      const ok = await studio(ws.dir, ['sections', 'set', '--json'], { stdin: JSON.stringify(sections) })
      assert.equal(ok.code, 0, ok.stdout)
      assert.deepEqual(ok.json.sections, sections)
      const dropped = await studio(ws.dir, ['sections', 'set', '--json'], { stdin: JSON.stringify([{ id: 'a', title: 'A', slides: [] }]) })
      assert.equal(dropped.code, 2)
      assert.match(dropped.json.message, /missing: title-1/)
      const unknown = await studio(ws.dir, ['sections', 'set', '--json'], { stdin: JSON.stringify([{ id: 'a', title: 'A', slides: ['title-1', 'ghost'] }]) })
      assert.equal(unknown.code, 3)
      assert.equal(unknown.json.pointer, '/sections/0/slides/1')
    } finally {
      ws.cleanup()
    }
  })
})

describe('templates', () => {
  it('saves, updates, renames, defaults and deletes organisation templates; shipped ones refuse change', async () => {
    const ws = await workspaceWithDeck('Brand deck')
    try {
      const listed = await studio(ws.dir, ['template', 'list', '--json'])
      assert.equal(listed.json.default, 'blank')
      assert.equal(listed.json.templates.find((t: any) => t.id === 'blank').organisation, false)
      const created = await studio(ws.dir, ['template', 'create', 'brand-deck', 'House style', '--json'])
      assert.equal(created.code, 0, created.stdout)
      assert.equal(created.json.id, 'house-style')
      assert.ok(existsSync(join(ws.dir, 'decks/templates/house-style/template.json')))
      const slides = await studio(ws.dir, ['template', 'slides', 'house-style', '--json'])
      assert.deepEqual(slides.json.slides.map((s: any) => s.kind), ['title'])
      const sameName = await studio(ws.dir, ['template', 'create', 'brand-deck', 'house style', '--sentence', 'Again', '--json'])
      assert.equal(sameName.json.id, 'house-style')
      assert.equal(sameName.json.replaced, true)
      const renamed = await studio(ws.dir, ['template', 'rename', 'house-style', 'House style 2027', '--json'])
      assert.equal(renamed.json.name, 'House style 2027')
      const updated = await studio(ws.dir, ['template', 'update', 'house-style', 'brand-deck', '--json'])
      assert.equal(updated.code, 0, updated.stdout)
      const def = await studio(ws.dir, ['template', 'default', 'house-style', '--json'])
      assert.equal(def.json.default, 'house-style')
      const fromDefault = await studio(ws.dir, ['deck', 'create', 'From default', '--json'])
      assert.equal(fromDefault.json.template, 'house-style')
      const refusedDefault = await studio(ws.dir, ['template', 'delete', 'house-style', '--confirm', '--json'])
      assert.equal(refusedDefault.json.code, 'refused')
      for (const args of [['template', 'rename', 'blank', 'Mine'], ['template', 'delete', 'blank', '--confirm'], ['template', 'update', 'blank', 'brand-deck']]) {
        const shipped = await studio(ws.dir, [...args, '--json'])
        assert.equal(shipped.code, 5, args.join(' '))
        assert.equal(shipped.json.code, 'read_only')
      }
      await studio(ws.dir, ['template', 'default', 'blank', '--json'])
      const deleted = await studio(ws.dir, ['template', 'delete', 'house-style', '--confirm', '--json'])
      assert.equal(deleted.code, 0, deleted.stdout)
      assert.equal(existsSync(join(ws.dir, 'decks/templates/house-style')), false)
      assert.equal(await ws.git('status', '--porcelain'), '')
    } finally {
      ws.cleanup()
    }
  })

  it('lists the brand kit a template was saved with, and the new one after an update', async () => {
    const ws = await workspaceWithDeck('Brand deck')
    try {
      const kit = await studio(ws.dir, ['deck', 'brand-kit', '--json'], { stdin: JSON.stringify({ name: 'Acme', footer: 'Acme confidential' }) })
      assert.equal(kit.code, 0, kit.stdout)
      assert.equal((await studio(ws.dir, ['template', 'create', 'brand-deck', 'House style', '--json'])).code, 0)
      const kitOf = async (id: string) => (await studio(ws.dir, ['template', 'list', '--json'])).json.templates.find((t: any) => t.id === id).brandKit
      assert.deepEqual(await kitOf('house-style'), { name: 'Acme', footer: 'Acme confidential' })
      assert.equal(await kitOf('blank'), null)
      await studio(ws.dir, ['deck', 'brand-kit', '--json'], { stdin: JSON.stringify({ name: 'Globex', footer: 'Globex only' }) })
      assert.equal((await studio(ws.dir, ['template', 'update', 'house-style', 'brand-deck', '--json'])).code, 0)
      assert.deepEqual(await kitOf('house-style'), { name: 'Globex', footer: 'Globex only' })
    } finally {
      ws.cleanup()
    }
  })
})

describe('validation and the commit boundary', () => {
  it('reports issues of a broken deck folder with pointers', async () => {
    const ws = await workspaceWithDeck('Broken')
    try {
      const ok = await studio(ws.dir, ['validate', '--json'])
      assert.equal(ok.json.valid, true)
      const manifest = JSON.parse(readFileSync(join(ws.dir, 'decks/broken/deck.json'), 'utf8'))
      manifest.sections[0].slides.push('ghost')
      manifest.revision = 'x'
      writeFileSync(join(ws.dir, 'decks/broken/deck.json'), JSON.stringify(manifest))
      const bad = await studio(ws.dir, ['validate', 'decks/broken', '--json'])
      assert.equal(bad.json.valid, false)
      const pointers = bad.json.issues.map((i: any) => i.pointer)
      assert.ok(pointers.includes('/manifest/sections/0/slides/1'), pointers.join(','))
    } finally {
      ws.cleanup()
    }
  })

  it("never commits the user's own staged work", async () => {
    const ws = await workspaceWithDeck('Mine')
    try {
      writeFileSync(join(ws.dir, 'notes.txt'), 'my work\n')
      await ws.git('add', 'notes.txt')
      const renamed = await studio(ws.dir, ['deck', 'rename', 'Yours', '--json'])
      assert.equal(renamed.code, 0)
      const files = await ws.git('show', '--name-only', '--format=', 'HEAD')
      assert.deepEqual(files.trim().split('\n'), ['decks/mine/deck.json'])
      assert.equal((await ws.git('status', '--porcelain')).trim(), 'A  notes.txt')
    } finally {
      ws.cleanup()
    }
  })
})

describe('the brand sample template', () => {
  it('creates a deck of 95 slides in 8 sections that validates', async () => {
    const ws = await workspace()
    try {
      const created = await studio(ws.dir, ['deck', 'create', 'Sample', '--from', 'brand-sample', '--json'])
      assert.equal(created.code, 0, created.stdout)
      assert.equal(created.json.counts.slides, 95)
      assert.equal(created.json.counts.sections, 8)
      assert.equal((await studio(ws.dir, ['validate', '--json'])).json.valid, true)
      // The shipped sample passes its own lint: no errors (its charts sit in the chart layout's media slot).
      const lint = await studio(ws.dir, ['deck', 'lint', '--json'])
      assert.deepEqual(lint.json.findings.filter((f: { severity: string }) => f.severity === 'error'), [])
      assert.equal(lint.json.counts.error, 0)
    } finally {
      ws.cleanup()
    }
  })
})
