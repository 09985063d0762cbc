/**
 * Markdown in and out through the real CLI: the Marp and Slidev talks of test/fixtures/markdown
 * imported into temp workspaces (one commit, the layouts a designer would choose, text, notes,
 * pictures), exported as Markdown and imported again (the round trip), rendered; bad files write
 * nothing. Also slide.insert finding its section from `after` on the CLI and over HTTP.
 */
import assert from 'node:assert/strict'
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { request } from 'undici'
import { cliInOneProcess, commitCount, serve, studio, type TestWorkspace, workspace, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const FIXTURES = new URL('../fixtures/markdown', import.meta.url).pathname

async function withTalks(): Promise<TestWorkspace> {
  const ws = await workspace()
  cpSync(FIXTURES, join(ws.dir, 'talks'), { recursive: true })
  return ws
}

const slideOf = (dir: string, deck: string, id: string) => JSON.parse(readFileSync(join(dir, 'decks', deck, 'slides', `${id}.json`), 'utf8'))
const manifestOf = (dir: string, deck: string) => JSON.parse(readFileSync(join(dir, 'decks', deck, 'deck.json'), 'utf8'))
const status = (ws: TestWorkspace) => ws.git('status', '--porcelain', '--', 'decks')

describe('studio import of a Marp talk', () => {
  it('makes a new deck in one commit with the layouts, text, notes and pictures of the talk', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    const before = await commitCount(ws.git)
    const r = await studio(ws.dir, ['import', 'talks/marp/talk.md', '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.equal(await commitCount(ws.git), before + 1)
    const id = 'shipping-faster-with-small-batches'
    assert.equal(r.json.id, id)
    assert.equal(r.json.created, true)
    assert.deepEqual(r.json.slideIds, ['title-1', 'title-body-1', 'section-1', 'table-1', 'picture-caption-1', 'picture-left-1', 'title-body-2', 'quote-1', 'title-body-3', 'closing-1'])
    const manifest = manifestOf(ws.dir, id)
    assert.equal(manifest.title, 'Shipping Faster with Small Batches')
    assert.equal(manifest.theme, 'paper')
    assert.equal(manifest.defaults.counter, true)
    assert.deepEqual(manifest.sections.map((s: { id: string }) => s.id), ['opening', 'part-two-the-numbers'])

    assert.deepEqual(slideOf(ws.dir, id, 'title-1'), {
      id: 'title-1',
      layout: 'title',
      title: 'Shipping Faster with Small Batches',
      subtitle: 'Lessons from a year of weekly releases',
      byline: 'Ana Example · Platform Team',
      notes: 'Welcome everyone. Introduce yourself and the team.',
    })
    const why = slideOf(ws.dir, id, 'title-body-1')
    assert.equal(why.notes, 'Mention the incident from March.')
    assert.deepEqual(why.blocks[1].items, [
      { text: 'Smaller changes are easier to review' },
      { text: 'Problems surface <i>earlier</i>' },
      { text: 'Rollbacks touch one change', level: 2 },
      { text: 'On-call stays calm', level: 2 },
      { text: 'Feedback arrives in days, not months' },
    ])
    const table = slideOf(ws.dir, id, 'table-1')
    assert.deepEqual(table.blocks.map((b: { slot: string; kind: string }) => `${b.slot}:${b.kind}`), ['title:heading', 'body:table', 'caption:text'])
    assert.deepEqual(table.blocks[1].rows[3], ['Q3', '2 days', '54'])
    const growth = slideOf(ws.dir, id, 'picture-caption-1')
    assert.deepEqual(growth.blocks[1], { id: 'b1', kind: 'picture', slot: 'media', asset: 'growth-chart', aspect: 1.7778, fit: 'contain' })
    assert.equal(growth.blocks[2].text, 'Deploys per week, January to September')
    assert.deepEqual(readFileSync(join(ws.dir, 'decks', id, 'assets', 'growth-chart.png')), readFileSync(join(FIXTURES, 'marp', 'images', 'growth chart.png')))
    assert.equal(JSON.parse(readFileSync(join(ws.dir, 'decks', id, 'assets', 'growth-chart.json'), 'utf8')).alt, 'Deploys per week, rising')
    assert.equal(slideOf(ws.dir, id, 'picture-left-1').blocks[0].slot, 'title')
    const code = slideOf(ws.dir, id, 'title-body-2')
    assert.equal(code.blocks[1].id, 'code1')
    assert.match(code.blocks[1].text, /\n\u00a0\u00a0\.\/deploy "\$service"\n/)
    assert.equal(code.notes, 'Walk through each line.\nPoint out the set -e.')
    assert.deepEqual(slideOf(ws.dir, id, 'quote-1'), { id: 'quote-1', layout: 'quote', attribution: 'Kent Beck', blocks: [{ id: 'b1', kind: 'text', slot: 'body', text: 'Make the change easy, then make the easy change.' }] })

    // The remote picture is reported, never fetched; the import report is local state.
    assert.ok(r.json.skipped.some((s: { slide: number; reason: string }) => s.slide === 9 && /remote picture and was not fetched/.test(s.reason)))
    const report = JSON.parse(readFileSync(join(ws.dir, r.json.report), 'utf8'))
    assert.equal(report.format, 'markdown (marp)')
    assert.equal(report.slides[3].layout, 'table')
    assert.equal(await status(ws), '')
  })

  it('answers 409 when the deck it would create exists, appends with --into, and creates a deck of the --into id', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    assert.equal((await studio(ws.dir, ['import', 'talks/marp/talk.md', '--json'])).code, 0)
    const before = await commitCount(ws.git)
    const lastSection = manifestOf(ws.dir, 'shipping-faster-with-small-batches').sections.at(-1).slides.length
    const again = await studio(ws.dir, ['import', 'talks/marp/talk.md', '--json'])
    assert.equal(again.code, 4)
    assert.equal(again.json.code, 'id_taken')
    assert.match(again.json.message, /--into shipping-faster-with-small-batches/)
    assert.equal(await commitCount(ws.git), before)
    const appended = await studio(ws.dir, ['import', 'talks/slidev/slides.md', '--into', 'shipping-faster-with-small-batches', '--json'])
    assert.equal(appended.code, 0, appended.stdout)
    assert.equal(appended.json.created, false)
    assert.equal(manifestOf(ws.dir, 'shipping-faster-with-small-batches').sections.at(-1).slides.length, lastSection + 9)
    const named = await studio(ws.dir, ['import', 'talks/slidev/slides.md', '--into', 'calm', '--json'])
    assert.equal(named.json.created, true)
    assert.equal(manifestOf(ws.dir, 'calm').title, 'Designing Calm APIs')
  })
})

describe('studio import of a Slidev talk', () => {
  it('reads slide front matter layouts, columns, the public/ folder and the last comment as notes', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    const r = await studio(ws.dir, ['import', 'talks/slidev/slides.md', '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const id = 'designing-calm-apis'
    assert.deepEqual(r.json.slideIds, ['title-1', 'section-1', 'title-body-1', 'two-columns-1', 'picture-left-1', 'quote-1', 'title-body-2', 'picture-caption-1', 'closing-1'])
    assert.equal(manifestOf(ws.dir, id).theme, 'editorial')
    const cols = slideOf(ws.dir, id, 'two-columns-1')
    assert.deepEqual(cols.blocks.map((b: { slot: string; kind: string }) => `${b.slot}:${b.kind}`), ['title:heading', 'left:text', 'left:list', 'right:text', 'right:list', 'right:text'])
    assert.equal(cols.notes, 'Pause here: ask who has written a retry loop.')
    const picture = slideOf(ws.dir, id, 'picture-left-1')
    assert.deepEqual(picture.blocks.map((b: { slot: string; kind: string }) => `${b.slot}:${b.kind}`), ['title:heading', 'media:picture', 'body:list'])
    assert.deepEqual(picture.blocks[1], { id: 'b1', kind: 'picture', slot: 'media', asset: 'architecture', aspect: 1.6 })
    assert.equal(slideOf(ws.dir, id, 'quote-1').attribution, 'Jon Postel')
    assert.deepEqual(slideOf(ws.dir, id, 'title-body-1').blocks[1].items.map((i: { level?: number }) => i.level ?? 1), [1, 1, 1, 2, 2])
    assert.equal(slideOf(ws.dir, id, 'picture-caption-1').blocks[0].caption, 'Ana Example, API team lead')
    assert.deepEqual(r.json.assets, ['architecture', 'portrait'])
  })
})

describe('studio export md', () => {
  it('writes Marp Markdown with notes and pictures that imports back to the same slides, text, order, notes and pictures', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    for (const talk of ['talks/marp/talk.md', 'talks/slidev/slides.md']) assert.equal((await studio(ws.dir, ['import', talk, '--json'])).code, 0)
    for (const id of ['shipping-faster-with-small-batches', 'designing-calm-apis']) {
      const out = await studio(ws.dir, ['export', 'md', '--deck', id, '--out', `out/${id}.md`, '--json'])
      assert.equal(out.code, 0, out.stdout + out.stderr)
      assert.equal(out.json.file, `out/${id}.md`)
      const md = readFileSync(join(ws.dir, out.json.file), 'utf8')
      assert.match(md, /^---\nmarp: true\n/)
      for (const picture of out.json.pictures) assert.ok(existsSync(join(ws.dir, picture)), picture)
      const back = await studio(ws.dir, ['import', out.json.file, '--into', `${id}-again`, '--json'])
      assert.equal(back.code, 0, back.stdout)
      const first = manifestOf(ws.dir, id)
      const second = manifestOf(ws.dir, `${id}-again`)
      assert.deepEqual(second.sections, first.sections)
      assert.equal(second.theme, first.theme)
      for (const slideId of first.sections.flatMap((s: { slides: string[] }) => s.slides)) {
        assert.deepEqual(slideOf(ws.dir, `${id}-again`, slideId), slideOf(ws.dir, id, slideId), `${id}: ${slideId}`)
      }
      // The pictures are the same bytes.
      for (const file of readdirSync(join(ws.dir, 'decks', id, 'assets')).filter((f) => f.endsWith('.png'))) {
        assert.deepEqual(readFileSync(join(ws.dir, 'decks', `${id}-again`, 'assets', file)), readFileSync(join(ws.dir, 'decks', id, 'assets', file)))
      }
      // A second export of the re-imported deck is the same Markdown.
      const twice = await studio(ws.dir, ['export', 'md', '--deck', `${id}-again`, '--out', `out2/${id}.md`, '--json'])
      assert.equal(readFileSync(join(ws.dir, twice.json.file), 'utf8'), md)
    }
  })

  it('writes under .studio/export by default and refuses an output inside decks/ (403)', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    await studio(ws.dir, ['import', 'talks/slidev/slides.md', '--json'])
    const r = await studio(ws.dir, ['export', 'md', '--deck', 'designing-calm-apis', '--no-notes', '--json'])
    assert.equal(r.json.file, '.studio/export/designing-calm-apis.md')
    assert.doesNotMatch(readFileSync(join(ws.dir, r.json.file), 'utf8'), /pager story/)
    assert.deepEqual(r.json.pictures, ['.studio/export/designing-calm-apis-assets/architecture.png', '.studio/export/designing-calm-apis-assets/portrait.png'])
    const refused = await studio(ws.dir, ['export', 'md', '--deck', 'designing-calm-apis', '--out', 'decks/designing-calm-apis', '--json'])
    assert.equal(refused.json.code, 'forbidden')
    assert.equal(await status(ws), '')
  })
})

describe('studio import refuses a bad Markdown file and writes nothing', () => {
  it('front matter that is not YAML, bytes that are not UTF-8, a file without slides: 400 at /from, no commit, no report', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    writeFileSync(join(ws.dir, 'bad.md'), '---\nmarp: true\ntitle: [oops\n---\n# A\n')
    writeFileSync(join(ws.dir, 'latin1.md'), Buffer.from([0x23, 0x20, 0xe9, 0x74, 0xe9, 0x0a]))
    writeFileSync(join(ws.dir, 'empty.md'), '---\nmarp: true\n---\n')
    const before = await commitCount(ws.git)
    for (const [file, message] of [['bad.md', /line 3 is not valid YAML/], ['latin1.md', /not UTF-8/], ['empty.md', /no slide content/]] as const) {
      const r = await studio(ws.dir, ['import', file, '--json'])
      assert.equal(r.code, 2, r.stdout)
      assert.equal(r.json.pointer, '/from')
      assert.match(r.json.message, message)
      assert.doesNotMatch(r.json.message, new RegExp(ws.dir))
    }
    assert.equal(await commitCount(ws.git), before)
    assert.equal(existsSync(join(ws.dir, '.studio', 'import')), false)
    assert.deepEqual(readdirSync(join(ws.dir, 'decks')).filter((d) => !d.startsWith('.') && d !== 'templates'), [])
  })

  it('copies no picture through a symbolic link, even one pointing inside the folder, and none from outside it', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    symlinkSync(join(ws.dir, 'talks', 'marp', 'images', 'team.png'), join(ws.dir, 'talks', 'marp', 'link.png'))
    writeFileSync(join(ws.dir, 'talks', 'marp', 'links.md'), '# Links\n\n![a](link.png)\n\n---\n\n![b](../slidev/public/portrait.png)\n\n---\n\n# End\n')
    const r = await studio(ws.dir, ['import', 'talks/marp/links.md', '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(r.json.assets, [])
    assert.deepEqual(r.json.skipped.map((s: { reason: string }) => /symbolic link|outside/.exec(s.reason)?.[0]), ['symbolic link', 'outside'])
  })
})

describe('studio render of an imported talk', () => {
  it('draws every slide', async (t) => {
    const ws = await withTalks()
    t.after(ws.cleanup)
    await studio(ws.dir, ['import', 'talks/slidev/slides.md', '--json'])
    const r = await studio(ws.dir, ['render', 'all', '--deck', 'designing-calm-apis', '--json'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const lint = await studio(ws.dir, ['deck', 'lint', '--deck', 'designing-calm-apis', '--json'])
    assert.deepEqual(JSON.stringify(lint.json).match(/"(overflow|invalid-markup)"/g), null, JSON.stringify(lint.json).slice(0, 600))
  })
})

describe('slide insert with --after and no --section', () => {
  it('lands after that slide in its section, on the CLI and over HTTP; with neither, at the end of the deck', async (t) => {
    const ws = await workspaceWithDeck('Insert deck')
    t.after(ws.cleanup)
    const slide = JSON.stringify({ layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Next' }] })
    const cli = await studio(ws.dir, ['slide', 'insert', '--after', 'title-1', '--json'], { stdin: slide })
    assert.equal(cli.code, 0, cli.stdout)
    assert.equal(cli.json.sectionId, 'main')
    const server = await serve(ws.dir)
    t.after(() => server.stop())
    const http = await request(`${server.url}/api/actions/slide.insert?deck=${ws.deckId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ after: 'title-1', slide: JSON.parse(slide), baseRevision: cli.json.revision }),
    })
    const body = (await http.body.json()) as { sectionId: string; slide: { id: string }; revision: number }
    assert.equal(http.statusCode, 200, JSON.stringify(body))
    const end = await studio(ws.dir, ['slide', 'insert', '--json'], { stdin: slide })
    assert.equal(end.code, 0, end.stdout)
    assert.deepEqual(manifestOf(ws.dir, ws.deckId).sections[0].slides, ['title-1', body.slide.id, cli.json.slide.id, end.json.slide.id])
  })
})
