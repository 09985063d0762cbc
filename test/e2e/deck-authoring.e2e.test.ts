/**
 * The rest of the deck group through its command-line forms, on copies of the contract fixture:
 * studio tailor, studio export txt, studio deck lint, studio import.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { canonicalJson } from '../../src/store/canonical.js'
import { fixtureWorkspace, FIXTURE_DECK } from '../helpers/fixture.js'
import { cliInOneProcess, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const DECK = `decks/${FIXTURE_DECK}`
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim())
const readSlide = (dir: string, id: string) => JSON.parse(readFileSync(join(dir, DECK, 'slides', `${id}.json`), 'utf8'))
const revisionOf = (dir: string) => JSON.parse(readFileSync(join(dir, DECK, 'deck.json'), 'utf8')).revision as number

/** Writes files into the workspace (paths relative to it) and commits them, as an author editing by hand would. */
function commitFiles(dir: string, files: Record<string, unknown>) {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true })
    writeFileSync(join(dir, rel), typeof content === 'string' || Buffer.isBuffer(content) ? content : canonicalJson(content))
  }
  git(dir, 'add', '-A')
  git(dir, '-c', 'user.name=fixture', '-c', 'user.email=fixture@studio.invalid', 'commit', '-qm', 'hand edit')
}

// A 1 × 1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

describe('deck authoring on the command line: tailor, export txt, lint, import', () => {
  let fixture: string
  let cleanup: () => void
  const copies: string[] = []
  /** A private copy of the fixture workspace (deck quarterly-review at revision 3). */
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-authoring-'))
    cpSync(fixture, dir, { recursive: true })
    copies.push(dir)
    return dir
  }

  before(async () => {
    const ws = await fixtureWorkspace()
    fixture = ws.dir
    cleanup = ws.cleanup
  })
  after(() => {
    cleanup?.()
    for (const dir of copies) rmSync(dir, { recursive: true, force: true })
  })

  describe('studio tailor', () => {
    it('replaces the customer name case-insensitively in texts and notes and skips slides, in one commit', async () => {
      const dir = fresh()
      const before = commits(dir)
      const r = await studio(dir, ['tailor', '--replace', 'ACME=Globex', '--skip', 'two-columns-3', '--rev', '3', '--json'])
      assert.equal(r.code, 0, r.stdout + r.stderr)
      assert.equal(readSlide(dir, 'title-1').notes, 'Welcome everyone to Globex.')
      assert.equal(readSlide(dir, 'title-body-2').blocks[1].text, 'Costs fell by half at Globex.\nMargins grew.')
      assert.equal(readSlide(dir, 'two-columns-3').skip, true)
      assert.deepEqual(r.json.counts, { replacements: 2, logos: 0, skipped: 1, slides: 3 })
      assert.deepEqual(r.json.replacements, [{ from: 'ACME', to: 'Globex', count: 2 }])
      assert.deepEqual(r.json.changed, ['title-1', 'title-body-2', 'two-columns-3'])
      assert.deepEqual(r.json.slides.map((s: { id: string }) => s.id), r.json.changed)
      assert.equal(r.json.revision, 4)
      assert.equal(commits(dir), before + 1)
      assert.match(git(dir, 'log', '-1', '--format=%B'), /Studio-Action: deck\.tailor/)
      assert.equal(git(dir, 'status', '--porcelain'), '')
    })

    it('keeps inline marks around a replaced name and replaces in list items, table cells and title-slide fields', async () => {
      const dir = fresh()
      commitFiles(dir, {
        [`${DECK}/slides/title-1.json`]: { id: 'title-1', layout: 'title', title: 'Acme review', subtitle: 'For <i>acme</i> &amp; friends', byline: 'ACME' },
        [`${DECK}/slides/title-body-2.json`]: {
          id: 'title-body-2',
          layout: 'title-body',
          blocks: [
            { id: 'b2', kind: 'list', slot: 'body', items: [{ text: 'Acme first' }, { text: 'then <u>Acme</u>', level: 2 }] },
            { id: 'b3', kind: 'table', slot: 'body', rows: [['Client', 'acme']] },
          ],
        },
      })
      const r = await studio(dir, ['tailor', '--replace', 'acme=Globex', '--json'])
      assert.equal(r.code, 0, r.stdout)
      const title = readSlide(dir, 'title-1')
      assert.equal(title.title, 'Globex review')
      assert.equal(title.subtitle, 'For <i>Globex</i> &amp; friends')
      assert.equal(title.byline, 'Globex')
      const body = readSlide(dir, 'title-body-2')
      assert.deepEqual(body.blocks[0].items, [{ text: 'Globex first' }, { text: 'then <u>Globex</u>', level: 2 }])
      assert.deepEqual(body.blocks[1].rows, [['Client', 'Globex']])
      assert.equal(r.json.counts.replacements, 6)
    })

    it('swaps the pictures whose asset alt text names the old customer for the logo asset', async () => {
      const dir = fresh()
      commitFiles(dir, { [`${DECK}/assets/globex.json`]: { id: 'globex', role: 'logo', alt: 'Globex logo' } })
      const r = await studio(dir, ['tailor', '--replace', 'Acme=Globex', '--logo', 'globex', '--json'])
      assert.equal(r.code, 0, r.stdout)
      assert.equal(r.json.counts.logos, 1)
      assert.equal(readSlide(dir, 'freeform-4').blocks.find((b: { id: string }) => b.id === 'b3').asset, 'globex')
      // --logo-alt names the pictures when no replacement does; a second run finds nothing left to swap.
      const again = await studio(dir, ['tailor', '--logo', 'globex', '--logo-alt', 'acme', '--json'])
      assert.equal(again.code, 0, again.stdout)
      assert.deepEqual(again.json.counts, { replacements: 0, logos: 0, skipped: 0, slides: 0 })
    })

    it("replaces the old customer in the brand kit's footer text and swaps its logo slots, and export txt then finds no old name", async () => {
      const dir = fresh()
      commitFiles(dir, { [`${DECK}/assets/globex.json`]: { id: 'globex', role: 'logo', alt: 'Globex logo' } })
      const kit = await studio(dir, ['deck', 'brand-kit', '--json'], { stdin: JSON.stringify({ name: 'Acme', footer: 'Acme Corp · confidential', logo: 'logo', footerLogo: 'logo' }) })
      assert.equal(kit.code, 0, kit.stdout)
      const before = await studio(dir, ['export', 'txt', '--include-notes', '--include-skipped'])
      assert.equal(before.stdout.match(/^Acme Corp · confidential$/gm)?.length, 4, `the footer on every slide: ${before.stdout}`)
      const r = await studio(dir, ['tailor', '--replace', 'Acme=Globex', '--logo', 'globex', '--json'])
      assert.equal(r.code, 0, r.stdout)
      assert.equal(r.json.brandKit, true)
      assert.deepEqual(r.json.replacements, [{ from: 'Acme', to: 'Globex', count: 4 }], 'notes, body, kit name, kit footer')
      assert.equal(r.json.counts.logos, 3, 'the picture on freeform-4, the kit mark and the footer logo')
      const manifest = JSON.parse(readFileSync(join(dir, DECK, 'deck.json'), 'utf8'))
      assert.deepEqual(manifest.brandKit, { name: 'Globex', footer: 'Globex Corp · confidential', logo: 'globex', footerLogo: 'globex' })
      const after = await studio(dir, ['export', 'txt', '--include-notes', '--include-skipped'])
      assert.doesNotMatch(after.stdout, /acme/i)
      assert.equal(after.stdout.match(/^Globex Corp · confidential$/gm)?.length, 4)
      assert.equal(git(dir, 'status', '--porcelain'), '')
      // A kit-only change is still a write: the footer is on every slide.
      const kitOnly = await studio(dir, ['tailor', '--replace', 'confidential=internal', '--json'])
      assert.deepEqual(kitOnly.json.changed, [])
      assert.equal(kitOnly.json.brandKit, true)
      assert.equal(kitOnly.json.revision, r.json.revision + 1)
    })

    it('refuses a stale --rev with 409 and the current document, writing nothing', async () => {
      const dir = fresh()
      const before = commits(dir)
      const r = await studio(dir, ['tailor', '--replace', 'Acme=Globex', '--rev', '2', '--json'])
      assert.equal(r.code, 4)
      assert.equal(r.json.code, 'stale_revision')
      assert.equal(r.json.currentRevision, 3)
      assert.equal(r.json.current.slides['title-1'].notes, 'Welcome everyone to Acme.')
      assert.equal(commits(dir), before)
    })

    it('checks every step before changing anything: an unknown slide to skip is 404 at /skip/1 and nothing is replaced', async () => {
      const dir = fresh()
      const before = commits(dir)
      const r = await studio(dir, ['tailor', '--replace', 'Acme=Globex', '--skip', 'two-columns-3,nope', '--json'])
      assert.equal(r.code, 3)
      assert.equal(r.json.code, 'not_found')
      assert.equal(r.json.pointer, '/skip/1')
      assert.equal(readSlide(dir, 'title-1').notes, 'Welcome everyone to Acme.')
      assert.equal(commits(dir), before)
      assert.equal(git(dir, 'status', '--porcelain'), '')
    })

    it('answers bad input with 400 and the pointer: a --replace without "=", an unknown logo asset (404), no step at all', async () => {
      const dir = fresh()
      const noPair = await studio(dir, ['tailor', '--replace', 'Acme', '--json'])
      assert.equal(noPair.code, 2)
      assert.equal(noPair.json.pointer, '/replacements/0')
      const noAsset = await studio(dir, ['tailor', '--replace', 'Acme=Globex', '--logo', 'nope', '--json'])
      assert.equal(noAsset.code, 3)
      assert.equal(noAsset.json.pointer, '/logo/assetId')
      const empty = await studio(dir, ['tailor', '--json'])
      assert.equal(empty.code, 2)
      assert.equal(empty.json.code, 'invalid_input')
      const unknown = await studio(dir, ['tailor', '--input', '{"replacements":[{"from":"a","to":"b","case":true}]}', '--json'])
      assert.equal(unknown.json.code, 'unknown_field')
      assert.equal(unknown.json.pointer, '/replacements/0/case')
      assert.equal(commits(dir), commits(fixture))
    })
  })

  describe('studio export txt', () => {
    const FULL = [
      'Quarterly review',
      'Q3 results',
      'Notes: Welcome everyone to Acme.',
      '',
      'Why now',
      'Costs fell by half at Acme.',
      'Margins grew.',
      'Faster builds',
      '  Fewer incidents',
      'Happier teams',
      '',
      'Before and after',
      'Before: weekly releases.',
      'After: daily releases.',
      'Metric\tValue',
      'Lead time\t2 days',
      '',
      'Plan',
      'Build',
    ].join('\n')

    it('prints the plain text of the fixture word for word, notes after each slide, and writes nothing', async () => {
      const dir = fresh()
      const r = await studio(dir, ['export', 'txt', '--include-notes'])
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.stdout, FULL + '\n')
      const json = await studio(dir, ['export', 'txt', 'all', '--include-notes', '--json'])
      assert.equal(json.json.text, FULL)
      assert.deepEqual(json.json.slides, ['title-1', 'title-body-2', 'two-columns-3', 'freeform-4'])
      assert.equal(commits(dir), commits(fixture))
    })

    it('exports a subset in deck order, without notes unless asked', async () => {
      const dir = fresh()
      const r = await studio(dir, ['export', 'txt', 'freeform-4,title-1'])
      assert.equal(r.stdout, 'Quarterly review\nQ3 results\n\nPlan\nBuild\n')
    })

    it('leaves skipped slides out unless --include-skipped, and says when no comment thread is included', async () => {
      const dir = fresh()
      assert.equal((await studio(dir, ['tailor', '--skip', 'title-body-2,two-columns-3', '--json'])).code, 0)
      assert.equal((await studio(dir, ['export', 'txt'])).stdout, 'Quarterly review\nQ3 results\n\nPlan\nBuild\n')
      const all = await studio(dir, ['export', 'txt', '--include-skipped', '--include-notes', '--include-comments', '--json'])
      assert.equal(all.json.text, FULL)
      assert.equal(all.json.comments.included, 0)
      assert.match(all.json.comments.note, /No open comment threads on these slides/)
    })

    it('leaves a skipped slide out even when named, as export pdf does, and refuses a subset of skipped slides alike; --include-skipped writes it', async () => {
      const dir = fresh()
      assert.equal((await studio(dir, ['tailor', '--skip', 'two-columns-3', '--json'])).code, 0)
      const mixed = await studio(dir, ['export', 'txt', 'two-columns-3,freeform-4', '--json'])
      assert.deepEqual(mixed.json.slides, ['freeform-4'])
      const txt = await studio(dir, ['export', 'txt', 'two-columns-3', '--json'])
      const pdf = await studio(dir, ['export', 'pdf', '--theme', 'light', '--input', '{"slideIds":["two-columns-3"]}', '--json'])
      for (const refused of [txt, pdf]) {
        assert.equal(refused.code, 2, refused.stdout)
        assert.equal(refused.json.code, 'invalid_input')
        assert.equal(refused.json.pointer, '/slideIds')
        assert.match(refused.json.message, /slide "two-columns-3" is skipped.*--include-skipped/)
      }
      const asked = await studio(dir, ['export', 'txt', 'two-columns-3', '--include-skipped', '--json'])
      assert.deepEqual(asked.json.slides, ['two-columns-3'])
    })

    it('answers an unknown slide with 404 at /slideIds/<n>', async () => {
      const dir = fresh()
      const r = await studio(dir, ['export', 'txt', 'title-1,nope', '--json'])
      assert.equal(r.code, 3)
      assert.equal(r.json.code, 'not_found')
      assert.equal(r.json.pointer, '/slideIds/1')
    })
  })

  describe('studio deck lint', () => {
    it('finds a picture without alt text and a box off the sheet, with counts per severity', async () => {
      const dir = fresh()
      const slide = readSlide(dir, 'freeform-4')
      slide.blocks[1].pos = { x: 1700, y: 150, w: 400, h: 120 }
      commitFiles(dir, {
        [`${DECK}/slides/freeform-4.json`]: slide,
        [`${DECK}/assets/logo.json`]: { id: 'logo', role: 'logo' },
      })
      const r = await studio(dir, ['deck', 'lint', '--json'])
      assert.equal(r.code, 7, `an error finding fails the CI gate: ${r.stdout}`)
      const on = (rule: string, blockId: string) => r.json.findings.find((f: { rule: string; blockId?: string }) => f.rule === rule && f.blockId === blockId)
      assert.deepEqual(Object.keys(on('missing-alt', 'b3')).sort(), ['blockId', 'message', 'rule', 'severity', 'slideId'])
      assert.equal(on('missing-alt', 'b3').slideId, 'freeform-4')
      assert.equal(on('missing-alt', 'b3').severity, 'warning')
      assert.ok(on('missing-alt', 'b5'), 'the chart carries no text and no alt')
      assert.equal(on('off-sheet', 'b2').severity, 'error')
      assert.deepEqual(r.json.counts, { error: 1, warning: 2, info: 0 })
      assert.deepEqual(r.json.slides.map((s: { slideId: string }) => s.slideId), ['title-1', 'title-body-2', 'two-columns-3', 'freeform-4'])
      assert.equal(commits(dir) - 1, commits(fixture), 'lint writes nothing')

      const human = await studio(dir, ['deck', 'lint', '--slides', 'freeform-4'])
      assert.match(human.stdout, /freeform-4#b2 {2}error {2}off-sheet/)
      assert.match(human.stdout, /1 error, 2 warnings, 0 info on 1 slide\./)
    })

    it('answers an unknown slide with 404 at /slideIds/<n>', async () => {
      const dir = fresh()
      const r = await studio(dir, ['deck', 'lint', '--slides', 'nope', '--json'])
      assert.equal(r.code, 3)
      assert.equal(r.json.pointer, '/slideIds/0')
    })
  })

  describe('studio import', () => {
    const HTML = `<!doctype html>
<html><head><title>Prototype</title><style>section { color: red }</style></head>
<body>
  <section>
    <h1>Acme &amp; Co <em>2027</em></h1>
    <p>Our   plan, <strong>in short</strong>.<br>Second line</p>
  </section>
  <article class="slide">
    <h2>Agenda</h2>
    <ul><li>One<ul><li>One a</li><li><p>One b</p></li></ul></li><li>Two &lt;3</li></ul>
    <table><thead><tr><th>Metric</th><th>Value</th></tr></thead><tbody><tr><td>Lead <i>time</i></td><td>2 days</td></tr></tbody></table>
    <aside class="notes">Say hello.</aside>
  </article>
  <section>
    <figure><img src="img/Chart%20One.png" alt="Revenue chart"><figcaption>Revenue</figcaption></figure>
    <img src="missing.png" alt="gone">
    <img src="img/link.png" alt="a link out of the folder">
    <video src="clip.mp4"></video>
  </section>
</body></html>`

    it('appends one slide per section to the last section in one commit, copies pictures found next to the HTML, and writes a local report', async () => {
      const dir = fresh()
      mkdirSync(join(dir, 'proto', 'img'), { recursive: true })
      writeFileSync(join(dir, 'proto', 'deck.html'), HTML)
      writeFileSync(join(dir, 'proto', 'img', 'Chart One.png'), PNG)
      writeFileSync(join(dir, 'outside.png'), PNG)
      symlinkSync(join(dir, 'outside.png'), join(dir, 'proto', 'img', 'link.png'))
      const before = commits(dir)
      const r = await studio(dir, ['import', 'proto/deck.html', '--into', FIXTURE_DECK, '--json'])
      assert.equal(r.code, 0, r.stdout + r.stderr)
      assert.equal(commits(dir), before + 1)
      assert.equal(r.json.id, FIXTURE_DECK)
      assert.equal(r.json.revision, 4)
      assert.deepEqual(r.json.slideIds, ['title-body-1', 'title-body-3', 'title-body-4'])
      const manifest = JSON.parse(readFileSync(join(dir, DECK, 'deck.json'), 'utf8'))
      assert.deepEqual(manifest.sections.at(-1).slides, ['two-columns-3', 'freeform-4', 'title-body-1', 'title-body-3', 'title-body-4'])

      assert.deepEqual(readSlide(dir, 'title-body-1').blocks, [
        { id: 'title', kind: 'heading', slot: 'title', text: 'Acme &amp; Co <i>2027</i>' },
        { id: 'b1', kind: 'text', slot: 'body', text: 'Our plan, in short.\nSecond line' },
      ])
      const agenda = readSlide(dir, 'title-body-3')
      assert.equal(agenda.notes, 'Say hello.')
      assert.deepEqual(agenda.blocks.slice(1), [
        { id: 'b1', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'One' }, { text: 'One a', level: 2 }, { text: 'One b', level: 2 }, { text: 'Two &lt;3' }] },
        { id: 'b2', kind: 'table', slot: 'body', header: true, rows: [['Metric', 'Value'], ['Lead <i>time</i>', '2 days']] },
      ])
      assert.deepEqual(readSlide(dir, 'title-body-4').blocks, [{ id: 'b1', kind: 'picture', slot: 'body', asset: 'chart-one', caption: 'Revenue' }])
      assert.deepEqual(readFileSync(join(dir, DECK, 'assets', 'chart-one.png')), PNG)
      assert.equal(JSON.parse(readFileSync(join(dir, DECK, 'assets', 'chart-one.json'), 'utf8')).alt, 'Revenue chart')

      assert.deepEqual(r.json.skipped.map((s: { slide: number; element: string }) => `${s.slide}:${s.element}`).sort(), ['3:img', '3:img', '3:video'])
      assert.ok(r.json.skipped.some((x: { reason: string }) => /outside the HTML file's folder/.test(x.reason)))
      assert.match(r.json.report, /^\.studio\/import\/.+\.json$/)
      const report = JSON.parse(readFileSync(join(dir, r.json.report), 'utf8'))
      assert.equal(report.revision, 4)
      assert.equal(report.slides.length, 3)
      assert.equal(report.assets[0].id, 'chart-one')
      assert.equal(report.skipped.length, 3)
      assert.equal(report.slides[0].title, 'Acme & Co 2027')
      assert.equal(git(dir, 'status', '--porcelain', '--', 'decks', '.studio'), '', 'the report is local state, not part of the deck')

      // The imported deck reads back through the other actions.
      const text = await studio(dir, ['export', 'txt', 'title-body-3'])
      assert.equal(text.stdout, 'Agenda\nOne\n  One a\n  One b\nTwo <3\nMetric\tValue\nLead time\t2 days\n')
    })

    it('answers a missing file (404 /from), an unknown deck (404 /into) and a page without slides (400 /from), writing nothing', async () => {
      const dir = fresh()
      const before = commits(dir)
      const missing = await studio(dir, ['import', 'nope.html', '--into', FIXTURE_DECK, '--json'])
      assert.equal(missing.code, 3)
      assert.equal(missing.json.pointer, '/from')
      writeFileSync(join(dir, 'plain.html'), '<p>No slides here</p>')
      const noDeck = await studio(dir, ['import', 'plain.html', '--into', 'nope', '--json'])
      assert.equal(noDeck.code, 3)
      assert.equal(noDeck.json.pointer, '/into')
      const noSlides = await studio(dir, ['import', 'plain.html', '--into', FIXTURE_DECK, '--json'])
      assert.equal(noSlides.code, 2)
      assert.equal(noSlides.json.pointer, '/from')
      assert.equal(commits(dir), before)
      assert.equal(existsSync(join(dir, '.studio', 'import')), false)
    })
  })
})

describe('deck brand-kit', () => {
  it('sets the brand kit from stdin, refuses an unknown logo asset and a stale revision, and removes it with null', async () => {
    const ws = await fixtureWorkspace()
    try {
      const before = Number((await ws.git('rev-list', '--count', 'HEAD')).trim())
      const kit = { name: 'Acme', logo: 'logo', footer: 'Acme Corp', palette: { accent: '#d9480f' } }
      const set = await studio(ws.dir, ['deck', 'brand-kit', '--rev', '3', '--json'], { stdin: JSON.stringify(kit) })
      assert.equal(set.code, 0, set.stdout)
      assert.deepEqual(set.json.brandKit, kit)
      assert.equal(Number((await ws.git('rev-list', '--count', 'HEAD')).trim()), before + 1)
      const manifest = JSON.parse(readFileSync(join(ws.dir, 'decks/quarterly-review/deck.json'), 'utf8'))
      assert.deepEqual(manifest.brandKit, kit)
      const stale = await studio(ws.dir, ['deck', 'brand-kit', '--rev', '3', '--json'], { stdin: JSON.stringify(kit) })
      assert.equal(stale.code, 4)
      const unknown = await studio(ws.dir, ['deck', 'brand-kit', '--json'], { stdin: JSON.stringify({ logo: 'nope' }) })
      assert.equal(unknown.code, 3)
      assert.equal(unknown.json.pointer, '/kit/logo')
      const badColour = await studio(ws.dir, ['deck', 'brand-kit', '--json'], { stdin: JSON.stringify({ palette: { accent: 'red' } }) })
      assert.equal(badColour.code, 2)
      assert.equal(badColour.json.pointer, '/kit/palette/accent')
      const removed = await studio(ws.dir, ['deck', 'brand-kit', '--json'], { stdin: 'null' })
      assert.equal(removed.code, 0, removed.stdout)
      assert.equal(removed.json.brandKit, null)
    } finally {
      ws.cleanup()
    }
  })
})
