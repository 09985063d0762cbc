/**
 * Native PPTX read back by LibreOffice with the theme's faces absent (the system's fonts only, as on a
 * reader's machine without Inter: docs/export.md "Fidelity without the faces"). The brand sample's
 * two-column slide, its left column's text made to fill two lines in Inter, so the wider fallback
 * (DejaVu Sans) needs a third: shrink on overflow keeps it in its two. With it, two of the sample's
 * worst slides without the faces (its full figures: `npm run fidelity`).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { nativePptx } from '../../src/export/pptx-native.js'
import { officeFontsAbsent } from '../../src/export/office-fonts.js'
import { convertToPdf, findSoffice, onPath } from '../../src/export/office.js'
import { pageDifference } from '../../src/export/verify.js'
import { drawn } from '../../src/layout/stack.js'
import { themeFonts } from '../../src/model/themes.js'
import type { Block, Slide } from '../../src/model/deck.js'
import { renderSlides } from '../../src/render/pipeline.js'
import { readDeckFolder } from '../../src/store/decks.js'
import { ROOT } from '../helpers/studio.js'
import { skipUnlessPresent } from '../helpers/system.js'

const soffice = findSoffice()
const ready = !('missing' in soffice) && onPath('pdftoppm') !== null
const FILLED = 'Weekly releases, long reviews and a freeze before every launch, and a long retrospective after each.'

describe('native PPTX read back without the theme\'s faces', { skip: skipUnlessPresent(ready, 'LibreOffice or poppler is not installed (apt-get install libreoffice-impress poppler-utils)') }, () => {
  let work: string
  let pages: string[]
  let ours: string[]
  let column: { x: number; y: number; w: number; h: number }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'studio-fidelity-'))
    const deckDir = join(work, 'deck')
    cpSync(join(ROOT, 'templates', 'brand-sample'), deckDir, { recursive: true })
    mkdirSync(join(deckDir, 'assets'), { recursive: true })
    const doc = await readDeckFolder(deckDir)
    const source = doc.slides['two-columns-1']
    const slide: Slide = { ...source, blocks: (source.blocks ?? []).map((b) => (b.id === 'b1' ? ({ ...b, text: FILLED } as Block) : b)) }
    doc.slides = { ...doc.slides, [slide.id]: slide }
    column = drawn(slide, themeFonts(doc.manifest)).items.find((i) => i.block.id === 'b1')!.box
    // With two of the sample's worst slides without the faces (a table, another two-column slide).
    const slides = [slide, doc.slides['table-1'], doc.slides['two-columns-5']]
    const { bytes } = await nativePptx({ doc, deckDir, root: work, slides, appearance: 'light', includeNotes: false, baseline: 'libreoffice', embedFonts: false, headingsRaster: false })
    writeFileSync(join(work, 'deck.pptx'), bytes)
    const converted = await convertToPdf((soffice as { path: string }).path, join(work, 'deck.pptx'), work, undefined, { FONTCONFIG_FILE: officeFontsAbsent(join(work, 'fonts')) })
    assert.ok('pdf' in converted, 'error' in converted ? converted.error : '')
    execFileSync('pdftoppm', ['-png', '-scale-to-x', '1600', '-scale-to-y', '900', converted.pdf, join(work, 'page')])
    pages = slides.map((_, i) => join(work, `page-${i + 1}.png`))
    const { records } = await renderSlides({ doc, deckDir, slides, appearances: ['light'], scale: 1, format: 'png', outDir: join(work, 'render'), root: work })
    ours = records.map((r) => join(work, r.file))
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  it('draws the text in a fallback face, not in Inter (the faces are absent)', () => {
    const fonts = execFileSync('pdffonts', [join(work, 'deck.pdf')], { encoding: 'utf8' })
    assert.doesNotMatch(fonts, /Inter/)
  })

  it('keeps a filled column\'s lines inside its box when the fallback face is wider: nothing drawn below it', async () => {
    const { data, info } = await sharp(pages[0]).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    let ink = 0
    for (let y = Math.ceil(column.y + column.h + 2); y < column.y + column.h + 80; y++) {
      for (let x = Math.floor(column.x); x < column.x + column.w; x++) {
        const i = (y * info.width + x) * 3
        if (data[i] + data[i + 1] + data[i + 2] < 3 * 160) ink++
      }
    }
    assert.equal(ink, 0, `${ink} dark pixels below the column's box`)
  })

  it('draws each slide within 2 % of our render (verify\'s figure)', async () => {
    for (const [i, page] of pages.entries()) {
      const difference = await pageDifference(page, ours[i])
      assert.ok(difference <= 0.02, `slide ${i + 1}: ${(difference * 100).toFixed(2)} % of pixels differ`)
    }
  })
})
