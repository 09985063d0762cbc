/**
 * The shipped faces (the renderer's WOFF files) as TrueType for LibreOffice: fontconfig lists WOFF but
 * LibreOffice draws such faces in DejaVu, so native PPTX is read back (verify, the baseline measure)
 * with a fontconfig file adding the faces unpacked to TTF (`FONTCONFIG_FILE`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { FONT_FAMILIES, faceFile } from '../model/fonts.js'
import { EXPORT_FACES, exportFontsDir } from './fonts.js'

const load = createRequire(import.meta.url)

/** WOFF 1.0 to an sfnt LibreOffice loads (fontconfig lists WOFF, LibreOffice does not draw with it). */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF file')
  const flavor = woff.readUInt32BE(4)
  const count = woff.readUInt16BE(12)
  const tables: { tag: string; sum: number; data: Buffer }[] = []
  for (let i = 0; i < count; i++) {
    const o = 44 + i * 20
    const off = woff.readUInt32BE(o + 4)
    const comp = woff.readUInt32BE(o + 8)
    const orig = woff.readUInt32BE(o + 12)
    const raw = woff.subarray(off, off + comp)
    tables.push({ tag: woff.toString('latin1', o, o + 4), sum: woff.readUInt32BE(o + 16), data: comp < orig ? inflateSync(raw) : Buffer.from(raw) })
  }
  tables.sort((a, b) => (a.tag < b.tag ? -1 : 1))
  let selector = 0
  while (1 << (selector + 1) <= count) selector++
  const head = Buffer.alloc(12 + 16 * count)
  head.writeUInt32BE(flavor, 0)
  head.writeUInt16BE(count, 4)
  head.writeUInt16BE(16 * (1 << selector), 6)
  head.writeUInt16BE(selector, 8)
  head.writeUInt16BE(count * 16 - 16 * (1 << selector), 10)
  let offset = head.length
  const bodies: Buffer[] = []
  tables.forEach((t, i) => {
    const o = 12 + i * 16
    head.write(t.tag, o, 'latin1')
    head.writeUInt32BE(t.sum, o + 4)
    head.writeUInt32BE(offset, o + 8)
    head.writeUInt32BE(t.data.length, o + 12)
    const pad = (4 - (t.data.length % 4)) % 4
    bodies.push(t.data, Buffer.alloc(pad))
    offset += t.data.length + pad
  })
  return Buffer.concat([head, ...bodies])
}

/** A fontconfig file that adds the shipped faces (as TTF) to the system's, for LibreOffice. */
export function officeFonts(dir: string): string {
  const faces = join(dir, 'faces')
  mkdirSync(faces, { recursive: true })
  for (const family of FONT_FAMILIES) {
    for (const weight of family.weights) {
      for (const style of ['normal', 'italic'] as const) {
        const woff = readFileSync(load.resolve(faceFile(family, weight, style, 'woff')))
        writeFileSync(join(faces, `${family.stem}-${weight}-${style}.ttf`), woffToSfnt(woff))
      }
    }
  }
  return writeConf(dir)
}

/** The fontconfig file: the system's, the shipped faces unpacked, and the export faces (fonts/export/: `Inter Medium`, `Inter Display`, `Inter 17pt` ...). */
function writeConf(dir: string): string {
  const conf = join(dir, 'fonts.conf')
  const dirs = [join(dir, 'faces'), exportFontsDir()].map((d) => `<dir>${d.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</dir>`).join('')
  writeFileSync(conf, `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>${dirs}<cachedir>${join(dir, 'cache')}</cachedir></fontconfig>\n`)
  return conf
}

/** The fontconfig file of `dir`, its faces unpacked once (they do not change within a package version), the file written each time (the export faces' folder may move). */
export function officeFontsOnce(dir: string): string {
  return existsSync(join(dir, 'faces')) ? writeConf(dir) : officeFonts(dir)
}

/**
 * A fontconfig file for a reading machine without the theme's faces: the system's fonts only, any
 * installed Inter, Source Serif 4, JetBrains Mono or export face (Inter Display, Inter Medium, ...)
 * rejected, so LibreOffice falls back as it would on a machine that never had them (the fidelity
 * check, docs/export.md "Fidelity without the faces").
 */
export function officeFontsAbsent(dir: string): string {
  mkdirSync(dir, { recursive: true })
  const names = new Set([...FONT_FAMILIES.map((f) => f.name), ...EXPORT_FACES.flatMap((f) => [f.family, f.typeface])])
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  const rejects = [...names].map((name) => `<pattern><patelt name="family"><string>${escape(name)}</string></patelt></pattern>`).join('')
  const conf = join(dir, 'fonts-absent.conf')
  writeFileSync(conf, `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><selectfont><rejectfont>${rejects}</rejectfont></selectfont><cachedir>${escape(join(dir, 'cache-absent'))}</cachedir></fontconfig>\n`)
  return conf
}
