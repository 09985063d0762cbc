/**
 * The chart gallery (test/helpers/chart-gallery.ts) through the command line: its native PPTX read
 * back by LibreOffice draws each chart as we do (verify's page diff), and lint names the chart whose
 * seventh series takes the first one's colour.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, studio, workspace, type TestWorkspace } from '../helpers/studio.js'
import { onPath, skipUnlessPresent } from '../helpers/system.js'
import { CHART_SLIDES, writeChartGallery } from '../helpers/chart-gallery.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const haveSoffice = onPath('soffice', 'pdftoppm')

/** Pixels of the page (of 1600 × 900) LibreOffice may draw otherwise than we do, per chart slide. */
const WITHIN = 0.02
/**
 * Twenty-four long month names: we write every fourth (and the PPTX says so, `c:tickLblSkip`, which
 * PowerPoint honours); LibreOffice writes all 24, cut to two letters and turned 45°.
 */
const LIBREOFFICE_LABELS = new Map([['many-categories', 0.03]])

describe('the chart gallery', () => {
  let ws: TestWorkspace
  before(async () => {
    ws = await workspace()
    writeChartGallery(ws.dir)
    await ws.git('add', '-A')
    await ws.git('commit', '-qm', 'The chart gallery')
  })
  after(() => ws?.cleanup())

  it('reads back from its native PPTX in LibreOffice as we draw it: every chart within 2 % of our render', { skip: skipUnlessPresent(haveSoffice, 'LibreOffice is not installed (apt-get install libreoffice-impress poppler-utils)') }, async () => {
    const done = await studio(ws.dir, ['export', 'pptx', '--mode', 'native', '--deck', 'charts', '--theme', 'light', '--verify', '--json'])
    assert.equal(done.code, 0, done.stdout + done.stderr)
    const { verify, diffs } = done.json.report
    assert.deepEqual([verify.ran, verify.reader], [true, 'LibreOffice Impress, poppler'])
    assert.deepEqual(diffs.map((d: { slideId: string }) => d.slideId), CHART_SLIDES.map((s) => s.id))
    const over = diffs.filter((d: { slideId: string; difference: number }) => d.difference > (LIBREOFFICE_LABELS.get(d.slideId) ?? WITHIN))
    assert.deepEqual(over, [], 'charts LibreOffice draws otherwise than we do')
  })

  it('lints the chart whose seventh series takes the first one\'s colour, and no other', async () => {
    const lint = await studio(ws.dir, ['deck', 'lint', '--deck', 'charts', '--json'])
    const findings = JSON.stringify(lint.json)
    const colours = [...findings.matchAll(/"chart-colours"/g)].length
    assert.equal(colours, 1, findings.slice(0, 2000))
    assert.match(findings, /Series 1 and 7 \(\\"Alpha\\", \\"Golf\\"\) draw in the same colour/)
  })
})
