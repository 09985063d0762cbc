/**
 * The LibreOffice profile every conversion starts in (src/export/office.ts `officeProfile`): LibreOffice
 * reads a presentation in it without running its graphics self-test, which it otherwise runs at every
 * start in a new profile and which costs more than the conversion.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { findSoffice, officeProfile, pdfPageCount } from '../../../src/export/office.js'
import { minimalPptx, zip } from '../../helpers/pptx.js'
import { skipUnlessPresent } from '../../helpers/system.js'

const soffice = findSoffice()

describe('a LibreOffice profile of our own', () => {
  const work = mkdtempSync(join(tmpdir(), 'studio-office-'))
  after(() => rmSync(work, { recursive: true, force: true }))

  it('records that this version has started in it, so LibreOffice converts a deck without its graphics self-test', { skip: skipUnlessPresent('path' in soffice, 'soffice is not installed (apt-get install libreoffice-impress)') }, async () => {
    const profile = officeProfile(join(work, 'profile'))
    assert.equal(profile.arg, `-env:UserInstallation=file://${profile.dir}`)
    assert.match(readFileSync(join(profile.dir, 'user', 'registrymodifications.xcu'), 'utf8'), /oor:path="\/org\.openoffice\.Setup\/Product"><prop oor:name="ooSetupLastVersion"/)
    const file = join(work, 'two.pptx')
    writeFileSync(file, zip(minimalPptx({ slides: 2 })))
    execFileSync((soffice as { path: string }).path, [profile.arg, '--headless', '--convert-to', 'pdf', '--outdir', work, file], { stdio: 'ignore', timeout: 180_000, env: { ...process.env, HOME: profile.dir } })
    assert.equal((await pdfPageCount(join(work, 'two.pdf'))).pages, 2)
    // LibreOffice fills the profile it starts in, and writes the self-test's log there when it runs it.
    assert.ok(existsSync(join(profile.dir, 'user', 'config')), 'LibreOffice did not start in the profile')
    assert.ok(!existsSync(join(profile.dir, 'user', 'GraphicsRenderTests.log')), 'LibreOffice ran its graphics self-test in the profile')
  })
})
