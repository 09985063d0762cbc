/**
 * The fontconfig files LibreOffice reads a native PPTX back with: the shipped faces added (verify), or
 * the theme's faces refused (the fidelity check's reading machine without them), even where the
 * system has them installed.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { officeFonts, officeFontsAbsent } from '../../../src/export/office-fonts.js'
import { onPath } from '../../../src/export/office.js'
import { skipUnlessPresent } from '../../helpers/system.js'

const match = (conf: string, family: string) => execFileSync('fc-match', ['-f', '%{family}', family], { encoding: 'utf8', env: { ...process.env, FONTCONFIG_FILE: conf } })

describe('fontconfig files for LibreOffice', { skip: skipUnlessPresent(onPath('fc-match') !== null, 'fc-match is not installed (apt-get install fontconfig)') }, () => {
  const work = mkdtempSync(join(tmpdir(), 'studio-office-fonts-'))
  after(() => rmSync(work, { recursive: true, force: true }))

  it('gives LibreOffice the shipped faces by their names', () => {
    const conf = officeFonts(join(work, 'present'))
    for (const family of ['Inter', 'Inter Display', 'Source Serif 4', 'JetBrains Mono']) assert.match(match(conf, family), new RegExp(`^${family}`))
  })

  it('refuses the theme\'s faces when they are absent, even on a machine that has them installed', () => {
    const faces = join(work, 'present', 'faces')
    officeFonts(join(work, 'present'))
    const absent = officeFontsAbsent(join(work, 'absent'))
    // A machine with the faces installed: the absent file plus a folder holding them.
    const installed = join(work, 'installed.conf')
    writeFileSync(installed, `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><include>${absent}</include><dir>${faces}</dir><cachedir>${join(work, 'cache-installed')}</cachedir></fontconfig>\n`)
    for (const family of ['Inter', 'Inter Display', 'Inter Medium', 'Source Serif 4', 'JetBrains Mono']) {
      assert.doesNotMatch(match(installed, family), /Inter|Source Serif 4|JetBrains Mono/, family)
    }
  })
})
