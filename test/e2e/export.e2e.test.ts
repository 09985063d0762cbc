/**
 * export.run through its CLI form on the brand sample: flattened PDF and PPTX (the 2x pictures under
 * an invisible text layer whose words are the deck's), the vector PDF (fonts embedded, text
 * selectable, tagged, an outline by section), notes pages, skipped slides, one file per appearance and
 * the zip of both, page sizes within 0.1 % of the sheet's, every PPTX passing our package walk, and
 * verify reading the files back through LibreOffice and poppler (failing past its threshold).
 * The deck is unchanged: no commit.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import JSZip from 'jszip'
import sharp from 'sharp'
import { PDFDocument, PDFDict, PDFName } from 'pdf-lib'
import { walkPackage } from '../../src/export/opc.js'
import { cliInOneProcess, commitCount, studio, workspace, workspaceWithDeck } from '../helpers/studio.js'
import { onPath, skipUnlessPresent } from '../helpers/system.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const haveSoffice = onPath('soffice')

/** The share of the notes page's thumbnail area (left, 60–540 pt across, 120–390 pt down) whose pixels differ from the page's corner. */
async function notesThumbnail(pdf: string, page: number): Promise<number> {
  const png = execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '24', '-png', pdf])
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const k = info.width / 1200
  const paper = [data[0], data[1], data[2]]
  let differ = 0
  let all = 0
  for (let y = Math.round(130 * k); y < Math.round(380 * k); y++) {
    for (let x = Math.round(70 * k); x < Math.round(530 * k); x++) {
      const i = (y * info.width + x) * 3
      all++
      if (Math.abs(data[i] - paper[0]) + Math.abs(data[i + 1] - paper[1]) + Math.abs(data[i + 2] - paper[2]) > 30) differ++
    }
  }
  return differ / all
}

const text = (pdf: string, first?: number, last?: number) =>
  execFileSync('pdftotext', [...(first ? ['-f', String(first), '-l', String(last ?? first)] : []), '-layout', pdf, '-'], { encoding: 'utf8' })

describe('export.run', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  const SLIDES = ['title-1', 'title-body-1', 'two-columns-1', 'table-1', 'chart-1', 'freeform-1']
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const r = await studio(ws.dir, [...args, '--json'], { env })
    return r
  }
  before(async () => {
    ws = await workspace()
    const created = await studio(ws.dir, ['deck', 'create', 'Sample', '--from', 'brand-sample', '--id', 'sample', '--json'])
    assert.equal(created.code, 0, created.stdout)
    assert.equal((await studio(ws.dir, ['slide', 'skip', 'two-columns-1', '--json'])).code, 0)
    const notes = await studio(ws.dir, ['slide', 'patch', 'title-body-1', '--set', '/notes="Say the costs first, then the lead time."', '--json'])
    assert.equal(notes.code, 0, notes.stdout)
  })
  after(() => ws?.cleanup())

  it('writes a flattened PDF per appearance and the zip of both: pictures under the deck\'s words, an outline, no commit', async () => {
    const before = await commitCount(ws.git)
    const r = await run(['export', 'pdf', '--input', JSON.stringify({ slideIds: SLIDES })])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(await commitCount(ws.git), before, 'the deck is unchanged')
    assert.deepEqual(r.json.files, ['.studio/export/sample-light.pdf', '.studio/export/sample-dark.pdf', '.studio/export/sample-both.zip'])
    // The skipped slide is left out.
    assert.deepEqual(r.json.report.slides, SLIDES.filter((s) => s !== 'two-columns-1'))
    const light = join(ws.dir, r.json.files[0])
    const doc = await PDFDocument.load(readFileSync(light))
    assert.equal(doc.getPageCount(), 5)
    for (const page of doc.getPages()) {
      const { width, height } = page.getSize()
      assert.ok(Math.abs(width / 1200 - 1) < 0.001 && Math.abs(height / 675 - 1) < 0.001, `${width} × ${height}`)
    }
    // The invisible text layer holds each slide's words, where the slide shows them.
    assert.match(text(light, 2), /Opening 2: what changed/)
    assert.match(text(light, 2), /Costs fell by half/)
    assert.match(text(light, 3), /Opening 7: numbers/)
    // One bookmark per slide, under its section.
    const outlines = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict)
    const section = outlines.lookup(PDFName.of('First'), PDFDict)
    assert.equal(section.lookup(PDFName.of('Title'))!.toString().length > 2, true)
    assert.equal((outlines.lookup(PDFName.of('Count')) as unknown as { asNumber(): number }).asNumber(), 1 + 5)
    const zip = await JSZip.loadAsync(readFileSync(join(ws.dir, r.json.files[2])))
    assert.deepEqual(Object.keys(zip.files).sort(), ['sample-dark.pdf', 'sample-light.pdf'])
    assert.equal((await zip.file('sample-dark.pdf')!.async('nodebuffer')).equals(readFileSync(join(ws.dir, r.json.files[1]))), true)
  })

  it('writes the vector PDF from Chromium: fonts embedded, text selectable, tagged, a notes page after each slide with notes, with its picture', async () => {
    const r = await run(['export', 'pdf', '--mode', 'native', '--theme', 'light', '--include-notes', '--include-skipped', '--input', JSON.stringify({ slideIds: SLIDES })])
    assert.equal(r.code, 0, r.stdout)
    const file = join(ws.dir, r.json.files[0])
    const doc = await PDFDocument.load(readFileSync(file))
    // Only slides with notes get a notes page (the sample's title-body-1 got some in before()).
    const notesOf = (id: string) => String(JSON.parse(readFileSync(join(ws.dir, 'decks', 'sample', 'slides', `${id}.json`), 'utf8')).notes ?? '').trim()
    const withNotes = SLIDES.filter((id) => notesOf(id))
    assert.ok(withNotes.includes('title-body-1') && withNotes.length < SLIDES.length, withNotes.join(' '))
    assert.equal(doc.getPageCount(), SLIDES.length + withNotes.length, 'a notes page after each slide with notes, none after the others')
    assert.equal(r.json.report.pages, SLIDES.length + withNotes.length)
    assert.ok(doc.catalog.get(PDFName.of('StructTreeRoot')), 'tagged')
    assert.ok(r.json.report.fonts.some((f: string) => f.startsWith('Inter')), r.json.report.fonts.join(' '))
    const pageOf = (id: string) => SLIDES.slice(0, SLIDES.indexOf(id)).reduce((n, s) => n + (notesOf(s) ? 2 : 1), 1)
    assert.match(text(file, pageOf('title-body-1')), /Opening 2: what changed/)
    const notesPage = text(file, pageOf('title-body-1') + 1)
    assert.match(notesPage, /Say the costs first, then the lead time\./)
    assert.doesNotMatch(notesPage, /No notes/)
    assert.match(text(file, pageOf('two-columns-1')), /Opening 3: before and after/, 'the skipped slide, asked for')
    // The notes page shows the slide: its picture covers the left of the page (not the bare paper).
    const pictured = await notesThumbnail(file, pageOf('title-body-1') + 1)
    assert.ok(pictured > 0.01, `the slide's picture on its notes page: ${pictured} of the thumbnail's pixels differ from the paper`)
    // The flattened PDF the same way.
    const flat = await run(['export', 'pdf', '--theme', 'light', '--include-notes', '--include-skipped', '--out', '.studio/export/notes-flat', '--input', JSON.stringify({ slideIds: SLIDES })])
    assert.equal(flat.code, 0, flat.stdout)
    const flatFile = join(ws.dir, flat.json.files[0])
    assert.equal((await PDFDocument.load(readFileSync(flatFile))).getPageCount(), SLIDES.length + withNotes.length)
    assert.match(text(flatFile, pageOf('title-body-1') + 1), /Say the costs first, then the lead time\./)
    assert.ok((await notesThumbnail(flatFile, pageOf('title-body-1') + 1)) > 0.01, 'the flattened notes page shows the slide')
  })

  it('writes a flattened PPTX that passes the package walk: 16:9, a picture and invisible text per slide, notes, hidden skipped slides', async () => {
    const r = await run(['export', 'pptx', '--theme', 'light', '--include-notes', '--include-skipped', '--input', JSON.stringify({ slideIds: SLIDES })])
    assert.equal(r.code, 0, r.stdout)
    const file = join(ws.dir, r.json.files[0])
    const walked = await walkPackage(file)
    assert.deepEqual(walked.invalid, [])
    assert.deepEqual(walked.warnings, [], 'no Override for a part the package lacks (pptxgenjs declares a slide master per slide)')
    assert.equal(walked.pages, SLIDES.length)
    assert.equal(walked.hidden, 1)
    assert.deepEqual(walked.rasters, ['png'])
    assert.deepEqual(r.json.report.files[0].page, { width: 13.3333, height: 7.5, unit: 'in', aspectError: 0 })
    const zip = await JSZip.loadAsync(readFileSync(file))
    const slide2 = await zip.file('ppt/slides/slide2.xml')!.async('string')
    assert.match(slide2, /Costs fell by half/)
    assert.match(slide2, /<a:alpha val="0"\/>/, 'the text is invisible')
    const notes = Object.keys(zip.files).filter((n) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(n))
    const notesText = await Promise.all(notes.map((n) => zip.file(n)!.async('string')))
    assert.ok(notesText.some((x) => x.includes('Say the costs first, then the lead time.')))
    const slide3 = await zip.file('ppt/slides/slide3.xml')!.async('string')
    assert.match(slide3, /<p:sld[^>]*show="0"/, 'the skipped slide is hidden')
  })

  it('writes a native PPTX that passes the package walk and reads back within its threshold in LibreOffice', { skip: skipUnlessPresent(haveSoffice, 'LibreOffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const r = await run(['export', 'pptx', '--mode', 'native', '--theme', 'light', '--include-notes', '--verify', '--input', JSON.stringify({ slideIds: SLIDES })])
    assert.equal(r.code, 0, r.stdout)
    const file = join(ws.dir, r.json.files[0])
    const walked = await walkPackage(file)
    assert.deepEqual(walked.invalid, [])
    assert.deepEqual(walked.warnings, [], 'no Override for a part the package lacks (pptxgenjs declares a slide master per slide)')
    assert.equal(walked.pages, 5)
    assert.ok(walked.fonts.includes('Inter'), walked.fonts.join(' '))
    // The faces a reader needs, named, with the way to embed them.
    assert.ok(r.json.report.warnings.some((w: string) => /^The file names the faces? .*Inter.* without embedding .* --embed-fonts/.test(w)), JSON.stringify(r.json.report.warnings))
    const { verify } = r.json.report
    assert.deepEqual([verify.passed, verify.threshold], [true, 0.03])
    assert.ok(verify.worst < 0.03, JSON.stringify(verify))
    // LibreOffice reads it with the shipped faces: in its fallback faces the mean was 1.1 %, with them 0.3 %.
    assert.ok(verify.mean < 0.008, JSON.stringify(verify))
    const zip = await JSZip.loadAsync(readFileSync(file))
    const charts = Object.keys(zip.files).filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n))
    assert.equal(charts.length, 1, 'the chart is a native chart part')
    assert.match(await zip.file(charts[0])!.async('string'), /<c:v>1\.9<\/c:v>/, 'with its values')
  })

  it('writes the same bytes for the same deck, whatever the clock says', async () => {
    const pick = JSON.stringify({ slideIds: ['title-1', 'table-1'] })
    const formats = [['pdf'], ['pdf', '--mode', 'native'], ['pptx']]
    const exported = async (out: string) => {
      const files: Buffer[] = []
      for (const args of formats) {
        const r = await run(['export', ...args, '--theme', 'light', '--out', out, '--input', pick])
        assert.equal(r.code, 0, r.stdout)
        files.push(readFileSync(join(ws.dir, r.json.files[0])))
      }
      return files
    }
    // Every format once, then every format again more than a second later: a clock stamp would differ.
    const first = await exported('.studio/export/same-a')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const second = await exported('.studio/export/same-b')
    formats.forEach((args, i) => assert.ok(first[i].equals(second[i]), `${args.join(' ')}: two exports differ`))
  })

  it('refuses bad input with nothing written: an unknown slide, every slide skipped, an unknown format', async () => {
    const unknown = await run(['export', 'pdf', '--input', JSON.stringify({ slideIds: ['nope'] })])
    assert.deepEqual([unknown.json.code, unknown.json.pointer], ['not_found', '/slideIds/0'])
    const skipped = await run(['export', 'pdf', '--input', JSON.stringify({ slideIds: ['two-columns-1'] })])
    assert.deepEqual([skipped.json.code, skipped.json.pointer], ['invalid_input', '/slideIds'])
    const format = await run(['export', 'docx'])
    assert.deepEqual([format.json.code, format.json.pointer], ['invalid_input', '/format'])
    assert.equal(existsSync(join(ws.dir, '.studio/export/sample-light.docx')), false)
  })

  it('verify reads the files back and passes on the brand sample; a tighter threshold fails it with the pages named (exit 7)', { skip: skipUnlessPresent(haveSoffice, 'LibreOffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const pick = ['title-body-1', 'table-1', 'chart-1']
    const passed = await run(['export', 'pptx', '--theme', 'light', '--verify', '--input', JSON.stringify({ slideIds: pick })])
    assert.equal(passed.code, 0, passed.stdout)
    const { verify, diffs } = passed.json.report
    assert.deepEqual([verify.ran, verify.passed, verify.reader], [true, true, 'LibreOffice Impress, poppler'])
    assert.equal(diffs.length, 3)
    assert.ok(verify.worst <= verify.threshold && verify.worst > 0, JSON.stringify(verify))
    const strict = await run(['export', 'pdf', '--mode', 'native', '--theme', 'light', '--verify', '--input', JSON.stringify({ slideIds: pick })], { STUDIO_VERIFY_THRESHOLD: '0' })
    assert.equal(strict.code, 7, strict.stdout)
    assert.equal(strict.json.report.verify.passed, false)
    assert.deepEqual(strict.json.report.diffs.filter((d: { over: boolean }) => d.over).map((d: { slideId: string }) => d.slideId), pick)
    assert.ok(existsSync(join(ws.dir, strict.json.files[0])), 'the file is written; the report says it did not verify')
  })
})

describe('exports and builds of a deck with nothing to show', () => {
  it('refuses an export and a build of a deck with no slides, or only skipped ones, saying what to do, and writes nothing', async () => {
    const ws = await workspaceWithDeck('Empty')
    try {
      assert.equal((await studio(ws.dir, ['slide', 'remove', 'title-1', '--rev', '0', '--json'])).code, 0)
      const exported = await studio(ws.dir, ['export', 'pdf', '--theme', 'light', '--json'])
      assert.deepEqual([exported.code, exported.json.code], [2, 'invalid_input'])
      assert.match(exported.json.message, /has no slides yet: add one/)
      const built = await studio(ws.dir, ['build', '--out', 'empty.html', '--json'])
      assert.deepEqual([built.code, built.json.code], [2, 'invalid_input'])
      assert.match(built.json.message, /has no slides yet: add one/)
      assert.equal(existsSync(join(ws.dir, 'empty.html')), false)
      assert.equal(existsSync(join(ws.dir, '.studio/export/empty-light.pdf')), false)
      // Only a skipped slide: the build says how to include it.
      const inserted = await studio(ws.dir, ['slide', 'insert', '--input', JSON.stringify({ slide: { layout: 'title', title: 'Later' }, sectionId: 'main' }), '--json'])
      assert.equal((await studio(ws.dir, ['slide', 'skip', inserted.json.slide.id, '--json'])).code, 0)
      const skipped = await studio(ws.dir, ['build', '--out', 'empty.html', '--json'])
      assert.deepEqual([skipped.json.code, skipped.json.pointer], ['invalid_input', '/includeSkipped'])
      assert.equal((await studio(ws.dir, ['build', '--out', 'empty.html', '--include-skipped', '--json'])).code, 0)
    } finally {
      ws.cleanup()
    }
  })
})

describe('export.run of a deck with lint errors', () => {
  it('says so in its result (and still writes the file); --strict exits 7 on them', async () => {
    const ws = await workspaceWithDeck('Overflow')
    try {
      const box = { id: 'box', kind: 'textbox', text: 'A long paragraph that cannot fit in a box this small, whatever the size of its text.', size: 40, pos: { x: 100, y: 100, w: 400, h: 60 }, z: 0 }
      const inserted = await studio(ws.dir, ['slide', 'insert', '--input', JSON.stringify({ slide: { layout: 'freeform', blocks: [box] }, sectionId: 'main' }), '--json'])
      assert.equal(inserted.code, 0, inserted.stdout)
      const slideId = inserted.json.slide.id
      const plain = await studio(ws.dir, ['export', 'pdf', '--theme', 'light', '--json'])
      assert.equal(plain.code, 0, plain.stdout)
      const { lint, warnings } = plain.json.report
      assert.deepEqual(lint.errors.map((f: { slideId: string; blockId: string; rule: string }) => [f.slideId, f.blockId, f.rule]), [[slideId, 'box', 'overflow']])
      assert.deepEqual([lint.strict, lint.counts.error], [false, 1])
      assert.ok(warnings.some((w: string) => w.startsWith('lint: 1 error on the slides exported') && w.includes('--strict')), JSON.stringify(warnings))
      const strict = await studio(ws.dir, ['export', 'pdf', '--theme', 'light', '--strict', '--out', '.studio/export/strict', '--json'])
      assert.equal(strict.code, 7, strict.stdout)
      assert.equal(strict.json.report.lint.strict, true)
      assert.ok(existsSync(join(ws.dir, strict.json.files[0])), 'the file is written; the result says lint found errors')
      // Without errors, strict passes.
      const clean = await studio(ws.dir, ['export', 'pdf', '--theme', 'light', '--strict', '--input', JSON.stringify({ slideIds: ['title-1'] }), '--out', '.studio/export/clean', '--json'])
      assert.equal(clean.code, 0, clean.stdout)
      assert.deepEqual(clean.json.report.lint.errors, [])
    } finally {
      ws.cleanup()
    }
  })
})
