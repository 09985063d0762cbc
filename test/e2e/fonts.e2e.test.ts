/**
 * fonts.build through its CLI form: `studio fonts build` cuts the export faces with fontTools (a real
 * Python, no mock), `--check` compares the committed set with a fresh build and exits 1 on a
 * difference, and a Python that is missing or lacks fontTools is refused with an error naming it.
 * The committed folder is never written: builds go to a temporary folder named by
 * STUDIO_EXPORT_FONTS_DIR, and the altered set is a temporary copy. A cut takes 10 to 30 s (30
 * faces), so the file cuts once: the checks after the first build reuse its cut, kept in the
 * workspace's .studio/cache/fonts under a digest of its inputs (test/unit/export/fonts.unit.test.ts
 * holds the key and the entry's check).
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { EXPORT_FACES, SOURCE_FILE } from '../../src/export/fonts.js'
import { officeProfile } from '../../src/export/office.js'
import { findProgram } from '../../src/export/programs.js'
import { ROOT, studio, workspace } from '../helpers/studio.js'
import { requirePresent } from '../helpers/system.js'

const COMMITTED = join(ROOT, 'fonts', 'export')
const SOURCE = join(ROOT, 'node_modules', SOURCE_FILE)

/** A Python with fontTools (Debian's, or PATH's), as the action's own default would find. */
function pythonWithFontTools(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import fontTools'], { stdio: 'ignore' }).status === 0)
}

/** Reads each face back with fontTools: its names, weight class, tables, and advance widths beside the variable source's at the face's axes. */
const READ_BACK = `
import json, os, sys
from fontTools.ttLib import TTFont
plan = json.loads(sys.argv[1])
source = TTFont(plan["source"])
cmap = source.getBestCmap()
glyphs = [cmap[ord(c)] for c in "aHmo0W."]
out = {}
for face in plan["faces"]:
    font = TTFont(os.path.join(plan["dir"], face["file"]))
    variable = source.getGlyphSet(location={"wght": face["weight"], "opsz": face["opsz"]})
    out[face["file"]] = {
        "names": {str(n.nameID): n.toUnicode() for n in font["name"].names if n.platformID == 3},
        "weightClass": font["OS/2"].usWeightClass,
        "fsSelection": font["OS/2"].fsSelection,
        "variable": "fvar" in font or "gvar" in font,
        "widths": [font["hmtx"][g][0] for g in glyphs],
        "sourceWidths": [variable[g].width for g in glyphs],
    }
print(json.dumps(out))
`

describe('fonts.build cuts the export faces and checks the committed set', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  let temp: string
  let python: string | undefined
  const committedStatus = () => execFileSync('git', ['status', '--porcelain', '--', 'fonts'], { cwd: ROOT, encoding: 'utf8' })
  let statusBefore: string
  before(async () => {
    ws = await workspace()
    temp = mkdtempSync(join(tmpdir(), 'studio-fonts-test-'))
    python = pythonWithFontTools()
    statusBefore = committedStatus()
  })
  after(() => {
    ws?.cleanup()
    rmSync(temp, { recursive: true, force: true })
    // The committed faces are only read: git sees the folder as it was before the tests.
    assert.equal(committedStatus(), statusBefore)
  })

  it('studio fonts build writes the standard and exact faces, named for presentation software, at their axes, byte for byte the committed set', { timeout: 240_000 }, async (t) => {
    if (!requirePresent(t, python, 'no Python with fontTools on this machine (apt-get install python3-fonttools python3-brotli)')) return
    // The default interpreter is .studio/venv/bin/python when it exists: a link to the one with fontTools.
    mkdirSync(join(ws.dir, '.studio', 'venv', 'bin'), { recursive: true })
    const venvPython = join(ws.dir, '.studio', 'venv', 'bin', 'python')
    symlinkSync(execFileSync('sh', ['-c', `command -v ${python}`], { encoding: 'utf8' }).trim(), venvPython)
    const out = join(temp, 'built')
    const r = await studio(ws.dir, ['fonts', 'build', '--json'], { env: { STUDIO_EXPORT_FONTS_DIR: out } })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.equal(r.json.dir, out)
    assert.equal(r.json.python, venvPython)
    assert.equal(r.json.differs, undefined)
    assert.equal(r.json.cached, false, 'a new workspace has no cut cached')
    assert.deepEqual(r.json.faces, EXPORT_FACES.map((f) => f.file))
    assert.equal(r.json.faces.length, 30)
    assert.deepEqual(readdirSync(out).sort(), [...EXPORT_FACES.map((f) => f.file), 'OFL.txt'].sort())

    // Deterministic: the fresh build is the committed set, byte for byte.
    for (const file of readdirSync(out)) assert.ok(readFileSync(join(out, file)).equals(readFileSync(join(COMMITTED, file))), `${file} differs from fonts/export/${file}`)

    const plan = { source: SOURCE, dir: out, faces: EXPORT_FACES.map((f) => ({ file: f.file, weight: f.weight, opsz: f.opsz })) }
    const faces = JSON.parse(execFileSync(python, ['-c', READ_BACK, JSON.stringify(plan)], { encoding: 'utf8', maxBuffer: 1 << 24 }))
    const expected: Record<string, { typeface: string; family: string; style: string; ps: string }> = {
      'Inter-Regular.ttf': { typeface: 'Inter', family: 'Inter', style: 'Regular', ps: 'Inter-Regular' },
      'Inter-Medium.ttf': { typeface: 'Inter Medium', family: 'Inter', style: 'Medium', ps: 'Inter-Medium' },
      'InterDisplay-Regular.ttf': { typeface: 'Inter Display', family: 'Inter Display', style: 'Regular', ps: 'InterDisplay-Regular' },
      'InterDisplay-Medium.ttf': { typeface: 'Inter Display Medium', family: 'Inter Display', style: 'Medium', ps: 'InterDisplay-Medium' },
      'Inter14pt-Regular.ttf': { typeface: 'Inter 14pt', family: 'Inter 14pt', style: 'Regular', ps: 'Inter14pt-Regular' },
      'Inter20pt-Medium.ttf': { typeface: 'Inter 20pt Medium', family: 'Inter 20pt', style: 'Medium', ps: 'Inter20pt-Medium' },
      'Inter26pt-Medium.ttf': { typeface: 'Inter 26pt Medium', family: 'Inter 26pt', style: 'Medium', ps: 'Inter26pt-Medium' },
    }
    for (const face of EXPORT_FACES) {
      const got = faces[face.file]
      // Legacy family (1) is what a PPTX names; subfamily (2) Regular; a medium face carries its typographic family and style (16, 17).
      assert.equal(got.names['1'], face.typeface, face.file)
      assert.equal(got.names['2'], 'Regular', face.file)
      assert.equal(got.names['6'], face.postscript, face.file)
      assert.equal(got.names['4'], `${face.family} ${face.style}`, face.file)
      assert.equal(got.names['16'], face.style === 'Medium' ? face.family : undefined, face.file)
      assert.equal(got.names['17'], face.style === 'Medium' ? 'Medium' : undefined, face.file)
      assert.equal(got.weightClass, face.weight, face.file)
      assert.equal(got.fsSelection & 0b1100001, 0b1000000, `${face.file}: regular bit, not italic, not bold`)
      assert.equal(got.variable, false, `${face.file} is static`)
      // The axes: each advance width is the variable font's at the face's wght and opsz (fontTools' glyph set at that location), to rounding.
      got.widths.forEach((w: number, i: number) => assert.ok(Math.abs(w - got.sourceWidths[i]) <= 0.5 + 1e-9, `${face.file}: width ${w} vs ${got.sourceWidths[i]} at wght ${face.weight} opsz ${face.opsz}`))
    }
    for (const [file, names] of Object.entries(expected)) {
      const face = EXPORT_FACES.find((f) => f.file === file)!
      assert.deepEqual({ typeface: face.typeface, family: face.family, style: face.style, ps: face.postscript }, names, file)
    }
    // Optical size shows: display and 26pt faces are tighter than the 14pt text face.
    const sum = (file: string) => faces[file].widths.reduce((a: number, b: number) => a + b, 0)
    assert.ok(sum('InterDisplay-Regular.ttf') < sum('Inter26pt-Regular.ttf'))
    assert.ok(sum('Inter26pt-Regular.ttf') < sum('Inter20pt-Regular.ttf'))
    assert.ok(sum('Inter20pt-Regular.ttf') < sum('Inter-Regular.ttf'))
    assert.deepEqual(faces['Inter14pt-Regular.ttf'].widths, faces['Inter-Regular.ttf'].widths)
  })

  it('studio fonts build --check exits 0 on the committed set and 1, naming each file, on an altered copy', { timeout: 240_000 }, async (t) => {
    if (!requirePresent(t, python, 'no Python with fontTools on this machine (apt-get install python3-fonttools python3-brotli)')) return
    const clean = await studio(ws.dir, ['fonts', 'build', '--check', '--json'], { env: { STUDIO_EXPORT_FONTS_DIR: '' } })
    assert.equal(clean.code, 0, clean.stdout + clean.stderr)
    assert.equal(clean.json.dir, 'fonts/export')
    assert.equal(clean.json.differs, false)
    assert.deepEqual(clean.json.differences, [])

    const copy = join(temp, 'altered')
    cpSync(COMMITTED, copy, { recursive: true })
    const medium = join(copy, 'Inter-Medium.ttf')
    const bytes = readFileSync(medium)
    bytes[bytes.length >> 1] ^= 0xff
    writeFileSync(medium, bytes)
    unlinkSync(join(copy, 'Inter26pt-Regular.ttf'))
    writeFileSync(join(copy, 'Stale-Regular.ttf'), 'not a font')
    const before = Object.fromEntries(readdirSync(copy).map((f) => [f, readFileSync(join(copy, f)).toString('base64')]))
    // The clean check's cut (or the build's before it) is kept in the workspace: this check compares with it, cutting nothing.
    const r = await studio(ws.dir, ['fonts', 'build', '--check'], { env: { STUDIO_EXPORT_FONTS_DIR: copy } })
    assert.equal(r.code, 1, r.stdout + r.stderr)
    assert.match(r.stdout, /, cached build\)/)
    assert.match(r.stdout, /differs from a fresh build/)
    assert.match(r.stdout, /Inter-Medium\.ttf: changed/)
    assert.match(r.stdout, /Inter26pt-Regular\.ttf: missing/)
    assert.match(r.stdout, /Stale-Regular\.ttf: extra/)
    assert.equal((r.stdout.match(/: (changed|missing|extra)/g) ?? []).length, 3, r.stdout)
    // --check writes nothing: the copy is as it was.
    assert.deepEqual(Object.fromEntries(readdirSync(copy).map((f) => [f, readFileSync(join(copy, f)).toString('base64')])), before)
  })

  it('LibreOffice finds each committed face by the name a presentation names it with', { timeout: 120_000 }, async (t) => {
    const soffice = findProgram('soffice')
    const pdffonts = findProgram('pdffonts')
    const missing = 'no soffice or pdffonts (apt-get install libreoffice-impress poppler-utils)'
    if (!requirePresent(t, soffice, missing) || !requirePresent(t, pdffonts, missing)) return
    // An Impress document whose paragraphs name the typefaces, converted with only fontconfig's usual
    // fonts plus the committed folder: the PDF embeds the face each name should reach.
    const dir = join(temp, 'libreoffice')
    mkdirSync(dir)
    writeFileSync(join(dir, 'fonts.conf'), `<?xml version="1.0"?><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>${COMMITTED}</dir><cachedir>${join(dir, 'cache')}</cachedir></fontconfig>`)
    const faces = EXPORT_FACES.filter((f) => f.set === 'standard' || f.opsz === 20 || f.opsz === 26)
    const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
    const ns = ['office:urn:oasis:names:tc:opendocument:xmlns:office:1.0', 'style:urn:oasis:names:tc:opendocument:xmlns:style:1.0', 'text:urn:oasis:names:tc:opendocument:xmlns:text:1.0', 'draw:urn:oasis:names:tc:opendocument:xmlns:drawing:1.0', 'fo:urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0', 'svg:urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0']
      .map((n) => `xmlns:${n.slice(0, n.indexOf(':'))}="${n.slice(n.indexOf(':') + 1)}"`)
      .join(' ')
    writeFileSync(
      join(dir, 'names.fodp'),
      `<?xml version="1.0" encoding="UTF-8"?><office:document ${ns} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">` +
        `<office:font-face-decls>${faces.map((f) => `<style:font-face style:name="${attr(f.typeface)}" svg:font-family="${attr(`'${f.typeface}'`)}"/>`).join('')}</office:font-face-decls>` +
        `<office:automatic-styles>${faces.map((f, i) => `<style:style style:name="P${i}" style:family="paragraph"><style:text-properties style:font-name="${attr(f.typeface)}" fo:font-size="24pt"/></style:style>`).join('')}</office:automatic-styles>` +
        `<office:body><office:presentation><draw:page draw:name="p1"><draw:frame svg:x="1cm" svg:y="1cm" svg:width="25cm" svg:height="15cm"><draw:text-box>` +
        faces.map((f, i) => `<text:p text:style-name="P${i}">${f.typeface}: Hamburgefonstiv 0123</text:p>`).join('') +
        `</draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document>`,
    )
    execFileSync(soffice, [officeProfile(join(dir, 'profile')).arg, '--headless', '--convert-to', 'pdf', '--outdir', dir, join(dir, 'names.fodp')], {
      env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
      stdio: 'ignore',
      timeout: 110_000,
    })
    const embedded = execFileSync(pdffonts, [join(dir, 'names.pdf')], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .map((line) => line.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, ''))
      .filter(Boolean)
    for (const face of faces) assert.ok(embedded.includes(face.postscript), `"${face.typeface}" reached ${face.postscript}: embedded ${embedded.join(', ')}`)
  })

  it('a Python that is missing or lacks fontTools is refused, naming it, with nothing written', async () => {
    const out = join(temp, 'never')
    const missing = await studio(ws.dir, ['fonts', 'build', '--python', '/nonexistent/python3', '--json'], { env: { STUDIO_EXPORT_FONTS_DIR: out } })
    assert.equal(missing.code, 1)
    assert.equal(missing.json.code, 'missing_program')
    assert.equal(missing.json.pointer, '/python')
    assert.match(missing.json.message, /"\/nonexistent\/python3", which was not found/)
    assert.equal(missing.json.details.program, '/nonexistent/python3')

    // A real interpreter without its site packages (-S): runs, but has no fontTools.
    const bare = join(temp, 'bare-python')
    const base = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', '0'], { stdio: 'ignore' }).status === 0)
    assert.ok(base, 'a python3 to wrap')
    writeFileSync(bare, `#!/bin/sh\nexec ${base} -S "$@"\n`)
    chmodSync(bare, 0o755)
    const without = await studio(ws.dir, ['fonts', 'build', '--python', bare], { env: { STUDIO_EXPORT_FONTS_DIR: out } })
    assert.equal(without.code, 1)
    assert.match(without.stderr, /Error \(missing_program\): The Python given \(--python .*bare-python\) has no fontTools module; cutting the export fonts needs python3 with fontTools\. On Debian or Ubuntu: apt-get install python3-fonttools python3-brotli/)
    assert.equal(existsSync(out), false)
  })

  it('reads and writes its cache through no link: a .studio/cache that is a link is refused, and nothing lands where it points', async (t) => {
    if (!python) return t.skip('no python3 with fontTools')
    const linked = await workspace()
    try {
      const elsewhere = mkdtempSync(join(tmpdir(), 'studio-fonts-elsewhere-'))
      mkdirSync(join(linked.dir, '.studio'), { recursive: true })
      rmSync(join(linked.dir, '.studio', 'cache'), { recursive: true, force: true })
      symlinkSync(elsewhere, join(linked.dir, '.studio', 'cache'))
      const r = await studio(linked.dir, ['fonts', 'build', '--check', '--json'], { env: { STUDIO_EXPORT_FONTS_DIR: '' } })
      assert.deepEqual([r.json?.status, r.json?.code], [400, 'refused'], r.stdout + r.stderr)
      assert.match(r.json.message, /^\.studio\/cache is a symbolic link/)
      assert.deepEqual(readdirSync(elsewhere), [])
      rmSync(elsewhere, { recursive: true, force: true })
    } finally {
      linked.cleanup()
    }
  })
})
