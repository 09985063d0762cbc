/**
 * A deck in every script (test/helpers/multilingual.ts) through the command line: both PDF modes keep
 * every character findable (`pdftotext`), and lint finds no character without a shipped face.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, studio, workspace, type TestWorkspace } from '../helpers/studio.js'
import { onPath, skipUnlessPresent } from '../helpers/system.js'
import { MULTILINGUAL, writeDeck } from '../helpers/multilingual.js'

cliInOneProcess()

const havePoppler = onPath('pdftotext')

/** Each block's box on the page (pt: the 1600 px sheet is 1200 pt wide) and the words its text must give back there. */
const BOXES = MULTILINGUAL.blocks!.map((block) => {
  const pos = block.pos as { x: number; y: number; w: number; h: number }
  return { id: block.id, area: [pos.x, pos.y, pos.w, pos.h].map((v) => String(Math.round(v * 0.75))), words: String(block.text).split(/\s+/).filter((w) => w && w !== '·' && w !== '—') }
})

describe('a deck in every script', () => {
  let ws: TestWorkspace
  before(async () => {
    ws = await workspace()
    writeDeck(ws.dir, 'scripts', 'Every script', [MULTILINGUAL])
    await ws.git('add', '-A')
    await ws.git('commit', '-qm', 'A deck in every script')
  })
  after(() => ws?.cleanup())

  for (const mode of ['flatten', 'native'] as const) {
    it(`keeps every character findable in a ${mode} PDF`, { skip: skipUnlessPresent(havePoppler, 'poppler-utils is not installed') }, async () => {
      const out = `scripts-${mode}.pdf`
      const done = await studio(ws.dir, ['export', 'pdf', '--deck', 'scripts', '--mode', mode, '--theme', 'light', '--out', out, '--json'])
      assert.equal(done.code, 0, done.stdout + done.stderr)
      // Block by block (pdftotext joins text on one baseline across columns, and reorders a line holding Arabic).
      const missing: string[] = []
      for (const box of BOXES) {
        const [x, y, w, h] = box.area
        const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', '1', '-l', '1', '-x', x, '-y', y, '-W', w, '-H', h, join(ws.dir, out), '-'], { encoding: 'utf8' })
        for (const word of box.words) if (!text.includes(word)) missing.push(`${box.id}: ${word} (got ${JSON.stringify(text.trim())})`)
      }
      assert.deepEqual(missing, [])
      assert.equal(BOXES.reduce((n, b) => n + b.words.length, 0), 44)
    })
  }

  it('names the Noto face of each script in a native PPTX, and says a reader needs them', async () => {
    const done = await studio(ws.dir, ['export', 'pptx', '--deck', 'scripts', '--mode', 'native', '--theme', 'light', '--out', 'scripts.pptx', '--json'])
    assert.equal(done.code, 0, done.stdout + done.stderr)
    assert.deepEqual(done.json.report.fonts, ['Inter', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans JP', 'Noto Sans KR', 'Noto Sans SC'])
    assert.ok(done.json.report.warnings.some((w: string) => /^Text in the file names Noto Sans Arabic, Noto Sans Hebrew, Noto Sans JP, Noto Sans KR, Noto Sans SC for its scripts/.test(w)), JSON.stringify(done.json.report.warnings))
    assert.ok(done.json.report.warnings.some((w: string) => /^The file names the face Inter without embedding it/.test(w)))
    const slide = execFileSync('unzip', ['-p', join(ws.dir, 'scripts.pptx'), 'ppt/slides/slide1.xml'], { encoding: 'utf8' })
    for (const face of ['Noto Sans SC', 'Noto Sans JP', 'Noto Sans KR']) assert.ok(slide.includes(`<a:ea typeface="${face}"`), face)
    for (const face of ['Noto Sans Arabic', 'Noto Sans Hebrew']) assert.ok(slide.includes(`<a:cs typeface="${face}"`), face)
  })

  it('lints no character without a shipped face', async () => {
    const lint = await studio(ws.dir, ['deck', 'lint', '--deck', 'scripts', '--json'])
    assert.doesNotMatch(JSON.stringify(lint.json), /missing-glyph/)
    assert.match(JSON.stringify(lint.json), /"slideId":"multilingual"|multilingual/)
  })
})
