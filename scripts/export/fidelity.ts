/**
 * The fidelity check of native PPTX (docs/export.md, "Fidelity without the faces"): the brand sample
 * exported as native PPTX (light), read back by LibreOffice twice, once with the shipped faces (as
 * `--verify` reads it) and once with the system's fonts only (the theme's faces absent, as on a
 * reader's machine without Inter), each page drawn by poppler and compared with `studio render` of
 * the slide by verify's figure (src/export/verify.ts `pageDifference`). Prints each slide's two
 * figures and how many are within the limit (2 %).
 *
 *   npm run build && npm run fidelity [-- --slides id,id] [--embed-fonts] [--json out.json] [--keep dir] [--limit 0.02]
 *
 * `--embed-fonts` exports with the faces embedded (export.run's embedFonts), to see what a reader without
 * them gets from an embedded file.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { officeFonts, officeFontsAbsent } from '../../src/export/office-fonts.js'
import { convertToPdf, findSoffice } from '../../src/export/office.js'
import { pageDifference, pageNumber } from '../../src/export/verify.js'

const root = new URL('../..', import.meta.url).pathname
const studio = (cwd: string, args: string[]) => JSON.parse(execFileSync(process.execPath, [join(root, 'bin', 'studio.js'), ...args, '--json'], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 }))
const option = (name: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1] : undefined
}

const limit = Number(option('limit') ?? 0.02)
const work = mkdtempSync(join(tmpdir(), 'studio-fidelity-'))
try {
  const soffice = findSoffice()
  if ('missing' in soffice) throw new Error(soffice.missing)
  execFileSync('git', ['init', '-q'], { cwd: work })
  studio(work, ['init', '.'])
  studio(work, ['deck', 'create', 'Sample', '--from', 'brand-sample', '--id', 'sample'])
  const ids = option('slides')?.split(',')
  const embed = process.argv.includes('--embed-fonts') ? ['--embed-fonts'] : []
  const exported = studio(work, ['export', 'pptx', '--mode', 'native', '--theme', 'light', ...embed, ...(ids ? ['--input', JSON.stringify({ slideIds: ids })] : [])])
  const slides: string[] = exported.report.slides
  const rendered = studio(work, ['render', slides.join(','), '--theme', 'light'])
  const ours = new Map<string, string>(rendered.renders.map((r: { slideId: string; file: string }) => [r.slideId, join(work, r.file)]))
  const readings = { present: officeFonts(join(work, 'fonts')), absent: officeFontsAbsent(join(work, 'fonts')) }
  const figures: Record<'present' | 'absent', number[]> = { present: [], absent: [] }
  for (const [faces, conf] of Object.entries(readings) as ['present' | 'absent', string][]) {
    const out = join(work, faces)
    mkdirSync(out)
    const converted = await convertToPdf(soffice.path, join(work, exported.files[0]), out, undefined, { FONTCONFIG_FILE: conf })
    if ('error' in converted) throw new Error(converted.error)
    execFileSync('pdftoppm', ['-png', '-scale-to-x', '1600', '-scale-to-y', '900', converted.pdf, join(out, 'p')])
    const pages = readdirSync(out).filter((n) => n.endsWith('.png')).sort((a, b) => pageNumber(a) - pageNumber(b))
    for (const [i, id] of slides.entries()) figures[faces].push(pages[i] ? await pageDifference(join(out, pages[i]), ours.get(id)!) : 1)
  }
  const within = (list: number[]) => list.filter((d) => d <= limit).length
  for (const [i, id] of slides.entries()) {
    const mark = figures.absent[i] > limit ? '  over' : ''
    console.log(`${String(i + 1).padStart(3)} ${id.padEnd(28)} present ${(figures.present[i] * 100).toFixed(2).padStart(6)} %   absent ${(figures.absent[i] * 100).toFixed(2).padStart(6)} %${mark}`)
  }
  const mean = (list: number[]) => ((list.reduce((a, b) => a + b, 0) / list.length) * 100).toFixed(3)
  const worst = (list: number[]) => (Math.max(...list) * 100).toFixed(2)
  const tight = (list: number[]) => list.filter((d) => d <= limit / 2).length
  console.log(`mean: faces present ${mean(figures.present)} %, faces absent ${mean(figures.absent)} %; worst: ${worst(figures.present)} %, ${worst(figures.absent)} %`)
  console.log(`within ${(limit * 50).toFixed(1)} %: faces present ${tight(figures.present)} of ${slides.length}, faces absent ${tight(figures.absent)} of ${slides.length}`)
  console.log(`within ${limit * 100} %: faces present ${within(figures.present)} of ${slides.length}, faces absent ${within(figures.absent)} of ${slides.length}`)
  const json = option('json')
  if (json) writeFileSync(json, `${JSON.stringify({ limit, slides: slides.map((id, i) => ({ id, present: figures.present[i], absent: figures.absent[i] })) }, null, 2)}\n`)
  const keep = option('keep')
  if (keep) cpSync(work, keep, { recursive: true })
} finally {
  rmSync(work, { recursive: true, force: true })
}
