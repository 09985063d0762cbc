/**
 * Measures where LibreOffice puts the first baseline of a native PPTX text box against where the
 * renderer (Chromium) puts it, for the shipped families, both weights text is set in, a range of
 * sizes and line heights. The result is the table src/export/baseline.ts answers from.
 *
 *   node --import tsx scripts/export/measure-baseline.ts [--json out.json]
 *
 * How: one canvas slide per (theme, kind, line height) holding a capital "H" in a text box at each
 * size; the slides go through the native writer with `baseline: 'none'` (boxes at geometry's
 * place), LibreOffice converts the package to PDF (the shipped faces given to it through a
 * fontconfig file naming TTFs unpacked from the same @fontsource files the renderer draws), poppler
 * rasterizes it at 4 px per sheet px, and the renderer draws the same slides at scale 4. The top ink
 * row of each "H" in both pictures gives the shift (renderer minus LibreOffice), in sheet px. A
 * second line in every box checks that line pitches agree (exact spacing).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Block, DeckDoc, Slide } from '../../src/model/deck.js'
import { nativePptx } from '../../src/export/pptx-native.js'
import { renderSlides } from '../../src/render/pipeline.js'
import { officeFonts } from '../../src/export/office-fonts.js'
import { officeProfile } from '../../src/export/office.js'

const SCALE = 4
const SIZES = [14, 20, 28, 40, 56, 80, 120]
const LINE_HEIGHTS = [1, 1.25, 1.5, 2]
const THEMES = [
  { id: 'studio-simple', heading: 'Inter', body: 'Inter' },
  { id: 'paper', heading: 'Source Serif 4', body: 'Source Serif 4' },
  { id: 'mono', heading: 'JetBrains Mono', body: 'Inter' },
]

interface Probe {
  theme: string
  family: string
  weight: number
  size: number
  lineHeight: number
  slide: number
  box: { x: number; y: number; w: number; h: number }
}

function slidesFor(): { slides: { theme: string; slides: Slide[] }[]; probes: Probe[] } {
  const probes: Probe[] = []
  const out: { theme: string; slides: Slide[] }[] = []
  let n = 0
  for (const theme of THEMES) {
    const slides: Slide[] = []
    for (const kind of ['textbox', 'heading'] as const) {
      for (const lineHeight of LINE_HEIGHTS) {
        n++
        const blocks: Block[] = []
        let x = 40
        for (const size of SIZES) {
          const w = Math.ceil(size * 1.1) + 8
          const h = Math.ceil(size * lineHeight * 2)
          const box = { x, y: 120, w, h }
          blocks.push({ id: `p${size}`, kind, pos: box, z: blocks.length, size, spacing: { line: lineHeight }, text: 'H\nH' })
          probes.push({ theme: theme.id, family: kind === 'heading' ? theme.heading : theme.body, weight: kind === 'heading' ? 700 : 400, size, lineHeight, slide: n, box })
          x += w + 40
        }
        slides.push({ id: `probe-${n}`, layout: 'freeform', blocks })
      }
    }
    out.push({ theme: theme.id, slides })
  }
  return { slides: out, probes }
}

/** Rows (in sheet px, from the box top) where ink starts in a column band, one per line: the top of each "H". */
function inkTops(raw: Buffer, width: number, box: Probe['box'], scale: number): number[] {
  const x0 = Math.round(box.x * scale)
  const x1 = Math.round((box.x + box.w) * scale)
  const y0 = Math.max(0, Math.round((box.y - 60) * scale))
  const y1 = Math.round((box.y + box.h + 60) * scale)
  const tops: number[] = []
  let inInk = false
  for (let y = y0; y < y1; y++) {
    let dark = false
    for (let x = x0; x < x1 && !dark; x++) {
      const i = (y * width + x) * 3
      if (raw[i] + raw[i + 1] + raw[i + 2] < 3 * 110) dark = true
    }
    if (dark && !inInk) tops.push(y / scale - box.y)
    inInk = dark
  }
  return tops
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'studio-baseline-'))
  try {
    const conf = officeFonts(work)
    const deckDir = join(work, 'deck')
    mkdirSync(join(deckDir, 'assets'), { recursive: true })
    const { slides, probes } = slidesFor()
    const pictures = new Map<number, { office: Buffer; ours: Buffer }>()
    let first = 1
    for (const group of slides) {
      const doc: DeckDoc = {
        manifest: { id: 'probe', title: 'Probe', theme: group.theme, sections: [{ id: 's', title: 'S', slides: group.slides.map((s) => s.id) }], revision: 1, stamps: { createdAt: '', updatedAt: '' } },
        slides: Object.fromEntries(group.slides.map((s) => [s.id, s])),
        versions: [],
      }
      const { bytes } = await nativePptx({ doc, deckDir, root: work, slides: group.slides, appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })
      const file = join(work, `${group.theme}.pptx`)
      writeFileSync(file, bytes)
      execFileSync('soffice', [officeProfile(join(work, 'profile')).arg, '--headless', '--convert-to', 'pdf', '--outdir', work, file], { env: { ...process.env, FONTCONFIG_FILE: conf }, stdio: 'ignore' })
      const pages = join(work, `${group.theme}-pages`)
      mkdirSync(pages)
      execFileSync('pdftoppm', ['-r', String(120 * SCALE), '-png', join(work, `${group.theme}.pdf`), join(pages, 'p')])
      const ours = join(work, `${group.theme}-ours`)
      await renderSlides({ doc, deckDir, slides: group.slides, appearances: ['light'], scale: SCALE as 1, format: 'png', outDir: ours, root: work })
      const files = readdirSync(pages).sort()
      for (const [i, slide] of group.slides.entries()) {
        const office = await sharp(join(pages, files[i])).resize(1600 * SCALE, 900 * SCALE).removeAlpha().raw().toBuffer()
        const mine = await sharp(join(ours, `${slide.id}.light@${SCALE}x.png`)).removeAlpha().raw().toBuffer()
        pictures.set(first + i, { office, ours: mine })
      }
      first += group.slides.length
    }
    const rows = probes.map((probe) => {
      const { office, ours } = pictures.get(probe.slide)!
      const a = inkTops(ours, 1600 * SCALE, probe.box, SCALE)
      const b = inkTops(office, 1600 * SCALE, probe.box, SCALE)
      return { ...probe, chromium: a, office: b, shift: a.length && b.length ? Math.round((a[0] - b[0]) * 100) / 100 : NaN, pitch: a.length > 1 && b.length > 1 ? Math.round((a[1] - a[0] - (b[1] - b[0])) * 100) / 100 : NaN }
    })
    for (const r of rows) console.log(`${r.family.padEnd(15)} ${String(r.weight)} size ${String(r.size).padStart(3)} lh ${r.lineHeight.toFixed(2)}  shift ${r.shift.toFixed(2).padStart(6)} px (${(r.shift / r.size).toFixed(4)} em)  pitch diff ${r.pitch.toFixed(2)}`)
    const jsonAt = process.argv.indexOf('--json')
    if (jsonAt > 0) writeFileSync(process.argv[jsonAt + 1], `${JSON.stringify(rows.map(({ chromium, office, box, slide, ...r }) => r), null, 2)}\n`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
