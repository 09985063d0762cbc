/**
 * export.check through its CLI form, `studio export check <file> --python <python> --out <out>`, on
 * packages written in the test: a valid one, and variants each breaking one rule of the package
 * (a missing part, a broken relationship target, an undeclared content type, a `../` entry, an r:
 * attribute naming no relationship, a file that is not a zip). LibreOffice (the Debian package) is
 * the independent reader; python-pptx is not installable here, so its absence is what is checked.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { officeProfile, onPath } from '../../src/export/office.js'
import { minimalPptx, PNG, zip, type Entries } from '../helpers/pptx.js'
import { cliInOneProcess, type CliResult, studio } from '../helpers/studio.js'
import { skipUnlessPresent } from '../helpers/system.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const run = promisify(execFile)
const python = onPath('python3') ?? onPath('python') ?? '/usr/bin/python3'
const hasLibreOffice = Boolean(onPath('soffice') ?? onPath('libreoffice'))

describe('export.check', () => {
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'studio-xcheck-'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  const check = async (name: string, entries: Entries | Buffer, extra: string[] = [], env?: Record<string, string>): Promise<CliResult & { out: string }> => {
    const file = join(dir, `${name}.pptx`)
    writeFileSync(file, Buffer.isBuffer(entries) ? entries : zip(entries))
    const out = join(dir, `${name}-out`)
    const result = await studio(dir, ['export', 'check', file, '--python', python, '--out', out, '--json', ...extra], { env })
    return { ...result, out }
  }

  /**
   * `check` with LibreOffice unavailable (as the third test runs it): for the structural refusals, which come from our
   * package walk; one of them (the missing part) keeps LibreOffice, which still reports on a refused package.
   */
  const NO_OFFICE = { PATH: '/nonexistent', STUDIO_SOFFICE: '' }
  const checkWalkOnly = (name: string, entries: Entries | Buffer) => check(name, entries, [], NO_OFFICE)

  /** The variant's result: refused (exit 7, not valid) with a finding at `path` whose reason says `reason`. */
  const refusedAt = (result: CliResult, path: string, reason: RegExp) => {
    assert.equal(result.code, 7, result.stdout + result.stderr)
    assert.equal(result.json.valid, false)
    const finding = result.json.invalid.find((f: { path: string }) => f.path === path)
    assert.ok(finding, `no finding at ${path}: ${JSON.stringify(result.json.invalid)}`)
    assert.match(finding.reason, reason)
  }

  it('passes a valid package: pages counted, LibreOffice agreeing, rasters and fonts listed, a thumbnail drawn', { skip: skipUnlessPresent(hasLibreOffice, 'LibreOffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const result = await check('valid', minimalPptx({ slides: 3, hidden: 1, typeface: 'DejaVu Sans Mono' }))
    assert.equal(result.code, 0, result.stdout + result.stderr)
    const r = result.json
    assert.equal(r.valid, true)
    assert.deepEqual(r.invalid, [])
    assert.equal(r.pages, 3)
    assert.equal(r.hidden, 1)
    assert.equal(r.size, readFileSync(join(dir, 'valid.pptx')).length)
    assert.deepEqual(r.rasters, ['png'])
    assert.deepEqual(r.fonts, ['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Serif'])
    const office = r.readers.find((x: { reader: string }) => x.reader === 'libreoffice')
    assert.equal(office.status, 'ok', office.message)
    assert.equal(office.pages, 2, 'one PDF page per visible slide')
    const py = r.readers.find((x: { reader: string }) => x.reader === 'python-pptx')
    // python-pptx is not a Debian package and the Python index is unreachable here: reported, not failed.
    if (py.status !== 'ok') {
      assert.equal(py.status, 'unavailable')
      assert.match(py.message, /python-pptx was not available/)
    } else assert.equal(py.pages, 3)
    assert.equal(r.thumbnail, join(result.out, 'valid-page-1.png'))
    assert.ok(readFileSync(r.thumbnail).subarray(0, 8).equals(PNG.subarray(0, 8)), 'the thumbnail is a PNG')
  })

  it('passes a package another writer made: LibreOffice saving the valid one as .pptx again', { skip: skipUnlessPresent(hasLibreOffice, 'LibreOffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const source = join(dir, 'source.pptx')
    writeFileSync(source, zip(minimalPptx({ slides: 2 })))
    const again = join(dir, 'again')
    const { dir: profile, arg } = officeProfile(mkdtempSync(join(tmpdir(), 'studio-xcheck-profile-')))
    try {
      await run(onPath('soffice') ?? onPath('libreoffice')!, [arg, '--headless', '--convert-to', 'pptx', '--outdir', again, source], { timeout: 180_000 })
    } finally {
      rmSync(profile, { recursive: true, force: true })
    }
    const result = await studio(dir, ['export', 'check', join(again, 'source.pptx'), '--python', python, '--out', join(dir, 'again-out'), '--json'])
    assert.equal(result.code, 0, result.stdout + result.stderr)
    assert.deepEqual(result.json.invalid, [])
    assert.equal(result.json.pages, 2)
    assert.ok(result.json.parts > 16, 'LibreOffice writes more parts than the minimal package')
  })

  it('says so in one line, and passes, when LibreOffice is not installed', async () => {
    const result = await check('no-office', minimalPptx(), ['--no-quick-look'], { PATH: '/nonexistent', STUDIO_SOFFICE: '' })
    assert.equal(result.code, 0, result.stdout + result.stderr)
    const office = result.json.readers.find((x: { reader: string }) => x.reader === 'libreoffice')
    assert.equal(office.status, 'unavailable')
    assert.match(office.message, /LibreOffice \(soffice\) is not installed.*libreoffice-impress/)
    const human = await studio(dir, ['export', 'check', join(dir, 'no-office.pptx'), '--no-quick-look'], { env: { PATH: '/nonexistent', STUDIO_SOFFICE: '' } })
    assert.equal(human.code, 0)
    assert.match(human.stdout, /^libreoffice: unavailable\. LibreOffice \(soffice\) is not installed/m)
  })

  it('refuses a package with a missing part, naming the relationship that points at it', async () => {
    const entries = minimalPptx()
    entries.delete('ppt/slides/slide2.xml')
    const result = await check('missing-part', entries)
    refusedAt(result, '/ppt/_rels/presentation.xml.rels', /rId3 \(slide\) targets \/ppt\/slides\/slide2\.xml, which is not in the package/)
    refusedAt(result, '/ppt/slides/_rels/slide2.xml.rels', /relationships of \/ppt\/slides\/slide2\.xml, which is not in the package/)
    assert.equal(result.json.pages, 2, 'the slide list still lists two slides')
    if (hasLibreOffice) {
      const office = result.json.readers.find((x: { reader: string }) => x.reader === 'libreoffice')
      assert.notEqual(office.status, 'unavailable', 'LibreOffice still reads a refused package')
      assert.ok(office.program, office.message)
    }
  })

  it('refuses a broken relationship target', async () => {
    const entries = minimalPptx()
    entries.set('ppt/slides/_rels/slide1.xml.rels', String(entries.get('ppt/slides/_rels/slide1.xml.rels')).replace('../media/image1.png', '../media/image9.png'))
    refusedAt(await checkWalkOnly('broken-target', entries), '/ppt/slides/_rels/slide1.xml.rels', /rId2 \(image\) targets \/ppt\/media\/image9\.png, which is not in the package/)
  })

  it('refuses a relationship target that climbs out of the package', async () => {
    const entries = minimalPptx()
    entries.set('ppt/slides/_rels/slide1.xml.rels', String(entries.get('ppt/slides/_rels/slide1.xml.rels')).replace('../media/image1.png', '../../../media/image1.png'))
    refusedAt(await checkWalkOnly('climbing-target', entries), '/ppt/slides/_rels/slide1.xml.rels', /rId2 \(image\) targets \.\.\/\.\.\/\.\.\/media\/image1\.png, which climbs out of the package/)
  })

  it('refuses a part whose content type is not declared', async () => {
    const entries = minimalPptx()
    entries.set('[Content_Types].xml', String(entries.get('[Content_Types].xml')).replace('<Default Extension="png" ContentType="image/png"/>', ''))
    refusedAt(await checkWalkOnly('undeclared', entries), '/ppt/media/image1.png', /no content type declared.*"\.png"/)
  })

  it('refuses a zip entry named with ../ and one with an absolute path, naming each', async () => {
    const entries = minimalPptx()
    entries.set('../evil.xml', '<x/>')
    entries.set('/etc/evil.xml', '<x/>')
    const result = await checkWalkOnly('dot-dot', entries)
    refusedAt(result, '../evil.xml', /unsafe zip entry name: a "\.\." segment/)
    refusedAt(result, '/etc/evil.xml', /unsafe zip entry name: an absolute path/)
  })

  it('refuses an r:embed that names no relationship of its part, and a slide that is not well-formed', async () => {
    const entries = minimalPptx()
    entries.set('ppt/slides/slide1.xml', String(entries.get('ppt/slides/slide1.xml')).replace('r:embed="rId2"', 'r:embed="rId7"'))
    entries.set('ppt/slides/slide2.xml', String(entries.get('ppt/slides/slide2.xml')).replace('</p:sld>', ''))
    const result = await checkWalkOnly('dangling-id', entries)
    refusedAt(result, '/ppt/slides/slide1.xml', /<a:blip r:embed="rId7"> names no relationship of this part/)
    refusedAt(result, '/ppt/slides/slide2.xml', /not well-formed XML/)
  })

  it('refuses a picture whose bytes are not the format its content type declares', async () => {
    const entries = minimalPptx()
    entries.set('ppt/media/image1.png', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]))
    refusedAt(await checkWalkOnly('wrong-bytes', entries), '/ppt/media/image1.png', /declared image\/png but its bytes are JPEG/)
  })

  it('refuses a file that is not a zip, and answers not_found for no file', async () => {
    const result = await check('not-a-zip', Buffer.from('plain text'))
    refusedAt(result, '/', /not a readable zip archive/)
    const none = await studio(dir, ['export', 'check', join(dir, 'absent.pptx'), '--json'])
    assert.equal(none.code, 3)
    assert.equal(none.json.code, 'not_found')
    assert.equal(none.json.pointer, '/file')
  })

  it('prints every invalid part on the command line and exits 7', async () => {
    const entries = minimalPptx()
    entries.delete('ppt/theme/theme1.xml')
    const file = join(dir, 'human.pptx')
    writeFileSync(file, zip(entries))
    const result = await studio(dir, ['export', 'check', file, '--python', python, '--no-quick-look'], { env: NO_OFFICE })
    assert.equal(result.code, 7)
    assert.match(result.stdout, /^.*human\.pptx: NOT VALID/)
    assert.match(result.stdout, /^invalid \/ppt\/_rels\/presentation\.xml\.rels: relationship rId4 \(theme\) targets \/ppt\/theme\/theme1\.xml, which is not in the package$/m)
    assert.match(result.stdout, /^invalid \/ppt\/slideMasters\/_rels\/slideMaster1\.xml\.rels: relationship rId2 \(theme\) targets \/ppt\/theme\/theme1\.xml/m)
    assert.ok(!existsSync(join(dir, 'human-check')), '--no-quick-look draws no thumbnail')
  })
})
