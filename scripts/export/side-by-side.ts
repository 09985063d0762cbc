/**
 * docs/export.md's pictures: slides of the brand sample exported as native PPTX, read back by
 * LibreOffice (with the shipped faces) and drawn by poppler, beside `studio render` of the same slides.
 *
 *   npm run build && node --import tsx scripts/export/side-by-side.ts title-body-1 table-3 chart-1
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { officeFonts } from '../../src/export/office-fonts.js'
import { officeProfile } from '../../src/export/office.js'

const root = new URL('../..', import.meta.url).pathname
const studio = (cwd: string, args: string[]) => JSON.parse(execFileSync(process.execPath, [join(root, 'bin', 'studio.js'), ...args, '--json'], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 }))
const ids = process.argv.slice(2)
const work = mkdtempSync(join(tmpdir(), 'studio-side-'))
try {
  execFileSync('git', ['init', '-q'], { cwd: work })
  studio(work, ['init', '.'])
  studio(work, ['deck', 'create', 'Sample', '--from', 'brand-sample', '--id', 'sample'])
  const exported = studio(work, ['export', 'pptx', '--mode', 'native', '--theme', 'light', '--input', JSON.stringify({ slideIds: ids })])
  const rendered = studio(work, ['render', ids.join(',')])
  const fonts = officeFonts(join(work, 'fonts'))
  const { dir: profile, arg } = officeProfile(join(work, 'profile'))
  execFileSync('soffice', [arg, '--headless', '--convert-to', 'pdf', '--outdir', work, join(work, exported.files[0])], { env: { ...process.env, FONTCONFIG_FILE: fonts, HOME: profile }, stdio: 'ignore' })
  execFileSync('pdftoppm', ['-png', '-scale-to-x', '1600', '-scale-to-y', '900', join(work, 'sample-light.pdf'), join(work, 'lo')])
  mkdirSync(join(root, 'docs', 'images'), { recursive: true })
  for (const id of ids) {
    const ours = readFileSync(join(work, rendered.renders.find((r: { slideId: string }) => r.slideId === id).file))
    const page = exported.report.slides.indexOf(id) + 1
    const theirs = readFileSync(join(work, `lo-${page}.png`))
    const half = async (png: Buffer) => sharp(png).resize(800, 450).png().toBuffer()
    const out = await sharp({ create: { width: 1624, height: 450, channels: 3, background: '#888888' } })
      .composite([{ input: await half(ours), left: 0, top: 0 }, { input: await half(theirs), left: 824, top: 0 }])
      .png()
      .toFile(join(root, 'docs', 'images', `export-${id}.png`))
    console.log(`docs/images/export-${id}.png`, out.size)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
