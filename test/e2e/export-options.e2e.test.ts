/**
 * export.run's options beyond format and mode, read back out of the written files:
 * - `fonts` standard or exact: the typeface each run names in the native PPTX, by its size and weight;
 * - `embedFonts`: font parts (Embedded OpenType around the shipped TrueType faces), their relationships,
 *   content type and `<p:embeddedFontLst>`, one entry per typeface the runs name;
 * - `svgVector`: an SVG picture's vector beside its PNG (the svgBlip extension), none when off;
 * - `excludeShareAlike`: a share-alike picture replaced by the paper plate and its credit, in every mode;
 * - `pictureScale` and `rasterScale`: the two-tone screen and the page rasters at 3x.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import JSZip from 'jszip'
import sharp from 'sharp'
import { walkPackage } from '../../src/export/opc.js'
import { EXPORT_FACES, exportFacePath } from '../../src/export/fonts.js'
import { cliInOneProcess, ROOT, studio, workspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

async function gradient(width = 1200, height = 800): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([Math.round((255 * x) / width), Math.round((255 * y) / height), 128], (y * width + x) * 3)
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer()
}

/** Every run of a slide part: its size in points, its typeface and whether it is bold. */
function runsOf(xml: string): { sz: number; typeface: string; bold: boolean; text: string }[] {
  return [...xml.matchAll(/<a:r><a:rPr([^>]*)>([\s\S]*?)<\/a:rPr><a:t>([^<]*)<\/a:t><\/a:r>/g)].map((m) => ({
    sz: Number(/\bsz="(\d+)"/.exec(m[1])?.[1] ?? 0) / 100,
    bold: /\bb="1"/.test(m[1]),
    typeface: /<a:latin typeface="([^"]+)"/.exec(m[2])?.[1] ?? '',
    text: m[3],
  }))
}

/** The parts of an uncompressed Embedded OpenType file: its family name and the font data it wraps. */
function readEot(eot: Buffer): { family: string; fontData: Buffer; magic: number; size: number } {
  const size = eot.readUInt32LE(0)
  const fontDataSize = eot.readUInt32LE(4)
  const magic = eot.readUInt16LE(34)
  const familySize = eot.readUInt16LE(82)
  const family = eot.subarray(84, 84 + familySize).toString('utf16le')
  return { family, fontData: eot.subarray(eot.length - fontDataSize), magic, size }
}

describe('export.run options', () => {
  let ws: Awaited<ReturnType<typeof workspace>>
  const SLIDES = ['title-1', 'title-body-1', 'big-number-1', 'quote-1']
  const run = async (args: string[]) => {
    const r = await studio(ws.dir, [...args, '--json'])
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
    return r.json
  }
  const pptx = async (input: Record<string, unknown>) => {
    const r = await run(['export', 'pptx', '--mode', 'native', '--theme', 'light', '--input', JSON.stringify({ slideIds: SLIDES, ...input })])
    const file = join(ws.dir, r.files[0])
    return { report: r.report, file, zip: await JSZip.loadAsync(readFileSync(file)) }
  }
  const part = async (zip: JSZip, name: string) => (await zip.file(name)?.async('string')) ?? ''

  before(async () => {
    ws = await workspace()
    await run(['deck', 'create', 'Sample', '--from', 'brand-sample', '--id', 'sample'])
    writeFileSync(join(ws.dir, 'photo.jpg'), await gradient())
    writeFileSync(join(ws.dir, 'borrowed.jpg'), await gradient(600, 400))
    await run(['asset', 'add', 'photo.jpg', '--role', 'picture', '--alt', 'A gradient'])
    await run(['asset', 'add', 'borrowed.jpg', '--role', 'picture', '--alt', 'A borrowed picture', '--input', JSON.stringify({ artist: 'A. Painter', license: 'CC BY-SA 4.0', shareAlike: true })])
    await run(['asset', 'add', join(ROOT, 'test/fixtures/svg/benign/logo-gradients.svg'), '--id', 'mark', '--role', 'logo', '--alt', 'The mark'])
    await run(['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [
      { kind: 'block.insert', block: { id: 'p', kind: 'picture', asset: 'photo', pos: { x: 900, y: 100, w: 600, h: 400 } } },
      { kind: 'block.insert', block: { id: 'q', kind: 'picture', asset: 'borrowed', pos: { x: 100, y: 560, w: 300, h: 200 } } },
      { kind: 'block.insert', block: { id: 'm', kind: 'picture', asset: 'mark', pos: { x: 1300, y: 600, w: 200, h: 200 } } },
    ] })])
    // Regular text at display size (64 px is 38.4 pt), and a medium weight: the sample sets neither.
    await run(['slide', 'patch', 'big-number-1', '--input', JSON.stringify({ mutations: [
      { kind: 'block.insert', block: { id: 'big', kind: 'text', text: 'Display size words', size: 64, pos: { x: 80, y: 700, w: 1200, h: 90 } } },
    ] })])
    await run(['block', 'dither', 'title-1#p', '--pattern', 'bayer4', '--cell', '2', '--strength', '1'])
  })
  after(() => ws?.cleanup())

  it('fonts standard names the set\'s four faces by size and weight; exact names the face cut for each text size', async () => {
    const standard = await pptx({})
    const named = new Set(EXPORT_FACES.filter((f) => f.set === 'standard').map((f) => f.typeface))
    const runs = (await Promise.all(SLIDES.map((_, i) => part(standard.zip, `ppt/slides/slide${i + 1}.xml`)))).flatMap(runsOf)
    assert.ok(runs.length > 10)
    for (const r of runs) {
      assert.ok(named.has(r.typeface), `${r.typeface} (${r.text}) is one of the standard faces`)
      // Display faces from 32 pt; bold is Inter's own bold at every size.
      if (r.bold) assert.equal(r.typeface, 'Inter', r.text)
      else assert.equal(/Display/.test(r.typeface), r.sz >= 32, `${r.text} at ${r.sz} pt in ${r.typeface}`)
    }
    assert.ok(runs.some((r) => r.typeface === 'Inter Display' && r.text === 'Display size words'), 'regular text from 32 pt is set in the display face')
    assert.deepEqual(standard.report.fonts, [...new Set(runs.map((r) => r.typeface))].sort())
    assert.equal(standard.zip.file(/^ppt\/fonts\//).length, 0, 'nothing embedded unless asked')

    const exact = await pptx({ fonts: 'exact' })
    const exactRuns = (await Promise.all(SLIDES.map((_, i) => part(exact.zip, `ppt/slides/slide${i + 1}.xml`)))).flatMap(runsOf)
    const sized = exactRuns.filter((r) => !r.bold && r.sz < 27)
    assert.ok(sized.length > 3, 'the sample has regular text under 27 pt')
    for (const r of sized) assert.equal(r.typeface, `Inter ${Math.max(14, Math.round(r.sz))}pt`, `${r.text} at ${r.sz} pt`)
    for (const r of exactRuns.filter((r) => !r.bold && r.sz >= 27)) assert.ok(named.has(r.typeface), r.typeface)
  })

  it('embedFonts writes each typeface\'s faces as font parts PowerPoint reads, listed in the presentation part', async () => {
    const { zip, report, file } = await pptx({ fonts: 'exact', embedFonts: true })
    const presentation = await part(zip, 'ppt/presentation.xml')
    assert.match(presentation, /<p:presentation\b[^>]*embedTrueTypeFonts="1"/)
    const list = /<p:embeddedFontLst>([\s\S]*)<\/p:embeddedFontLst>/.exec(presentation)?.[1] ?? ''
    // The list sits after notesSz, where the schema's sequence puts it.
    assert.match(presentation, /<p:notesSz[^>]*\/><p:embeddedFontLst>/)
    const listed = [...list.matchAll(/<p:embeddedFont><p:font typeface="([^"]+)"[^>]*\/>((?:<p:\w+ r:id="[^"]+"\/>)+)<\/p:embeddedFont>/g)]
    const used = new Set((await Promise.all(SLIDES.map((_, i) => part(zip, `ppt/slides/slide${i + 1}.xml`)))).flatMap(runsOf).map((r) => r.typeface))
    assert.deepEqual(listed.map((m) => m[1]).sort(), [...used].sort(), 'one entry per typeface the runs name')
    const rels = await part(zip, 'ppt/_rels/presentation.xml.rels')
    const types = await part(zip, '[Content_Types].xml')
    assert.match(types, /<Default Extension="fntdata" ContentType="application\/x-fontdata"\/>/)
    for (const [, typeface, slots] of listed) {
      const regular = /<p:regular r:id="([^"]+)"\/>/.exec(slots)?.[1]
      assert.ok(regular, `${typeface} has its regular face`)
      const target = new RegExp(`<Relationship Id="${regular}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/font" Target="([^"]+)"/>`).exec(rels)?.[1]
      assert.ok(target, `${typeface}: its relationship is a font relationship`)
      const eot = readEot(await zip.file(`ppt/${target}`)!.async('nodebuffer'))
      assert.equal(eot.magic, 0x504c, 'EOT magic number')
      assert.equal(eot.family, typeface, 'the face is installed under the name the runs use')
      const face = EXPORT_FACES.find((f) => f.typeface === typeface)
      if (face) assert.ok(eot.fontData.equals(readFileSync(exportFacePath(face))), `${typeface}: the export face's bytes, uncompressed`)
    }
    assert.equal(/<p:bold /.test(list), true, 'bold runs get Inter\'s bold face')
    assert.ok((report.measurements[`sample-light.pptx`] as { embeddedFonts: string[] }).embeddedFonts.length >= 2)
    const walked = await walkPackage(file)
    assert.deepEqual(walked.invalid, [], 'the package walk accepts the font parts')
  })

  it('svgVector writes an SVG picture\'s vector beside its PNG; off, the PNG alone', async () => {
    const on = await pptx({ slideIds: ['title-1'] })
    const slide = await part(on.zip, 'ppt/slides/slide1.xml')
    const pic = /<p:pic>\s*<p:nvPicPr><p:cNvPr id="\d+" name="m"[\s\S]*?<\/p:pic>/.exec(slide)?.[0] ?? ''
    assert.ok(pic, 'the mark is a picture')
    const png = /<a:blip r:embed="([^"]+)"/.exec(pic)?.[1]
    const svg = /<asvg:svgBlip xmlns:asvg="http:\/\/schemas.microsoft.com\/office\/drawing\/2016\/SVG\/main" r:embed="([^"]+)"\/>/.exec(pic)?.[1]
    assert.ok(png && svg && png !== svg)
    const rels = await part(on.zip, 'ppt/slides/_rels/slide1.xml.rels')
    const target = (id: string) => new RegExp(`<Relationship Id="${id}"[^>]*Target="\\.\\./media/([^"]+)"`).exec(rels)?.[1]
    assert.match(target(png!) ?? '', /\.png$/)
    const vector = await on.zip.file(`ppt/media/${target(svg!)}`)!.async('nodebuffer')
    assert.ok(vector.equals(readFileSync(join(ws.dir, 'decks/sample/assets/mark.svg'))), 'the stored (sanitized) SVG')
    // The photo has no vector.
    assert.equal((slide.match(/svgBlip/g) ?? []).length, 1)
    const off = await pptx({ slideIds: ['title-1'], svgVector: false })
    assert.doesNotMatch(await part(off.zip, 'ppt/slides/slide1.xml'), /svgBlip/)
    assert.equal(off.zip.file(/\.svg$/).length, 0)
  })

  it('excludeShareAlike replaces a share-alike picture by the paper plate and its credit in native PPTX and in flattened PDF', async () => {
    const kept = await pptx({ slideIds: ['title-1'] })
    assert.match(await part(kept.zip, 'ppt/slides/slide1.xml'), /<p:pic>\s*<p:nvPicPr><p:cNvPr id="\d+" name="q"/)
    const media = kept.zip.file(/^ppt\/media\//).length
    const out = await pptx({ slideIds: ['title-1'], excludeShareAlike: true })
    const slide = await part(out.zip, 'ppt/slides/slide1.xml')
    assert.doesNotMatch(slide, /name="q"[\s\S]{0,200}<p:blipFill>/)
    const plate = /<p:sp>\s*<p:nvSpPr><p:cNvPr id="\d+" name="q"[\s\S]*?<\/p:sp>/.exec(slide)?.[0] ?? ''
    assert.match(plate, /<a:t>A\. Painter, CC BY-SA 4\.0<\/a:t>/)
    assert.equal(out.zip.file(/^ppt\/media\//).length, media - 1, 'the borrowed picture is not in the file')
    assert.ok(out.report.warnings.some((w: string) => /title-1#q/.test(w)))
    const pdf = await run(['export', 'pdf', '--theme', 'light', '--exclude-share-alike', '--input', JSON.stringify({ slideIds: ['title-1'] })])
    // The plate's words are in the page's text layer (the credit wraps in the 300 px plate).
    const words = execFileSync('pdftotext', [join(ws.dir, pdf.files[0]), '-'], { encoding: 'utf8' }).split(/\s+/)
    for (const word of ['Painter,', 'BY-SA', '4.0']) assert.ok(words.includes(word), `${word} in ${words.join(' ')}`)
    // The deck itself is unchanged.
    assert.equal(JSON.parse(readFileSync(join(ws.dir, 'decks/sample/slides/title-1.json'), 'utf8')).blocks.find((b: { id: string }) => b.id === 'q').kind, 'picture')
  })

  it('pictureScale regenerates the two-tone screen at 3x; rasterScale 3 flattens pages at 3x', async () => {
    const widths = async (input: Record<string, unknown>) => {
      const { zip } = await pptx({ slideIds: ['title-1'], ...input })
      return Promise.all(zip.file(/^ppt\/media\/.*\.png$/).map(async (f) => (await sharp(await f.async('nodebuffer')).metadata()).width!))
    }
    const two = await widths({ pictureScale: 2 })
    const three = await widths({ pictureScale: 3 })
    // The screen is drawn at 900 sheet px wide (cover of a 3:2 picture in 600 × 400 is 600; the variant key holds the drawn size).
    const screen2 = Math.max(...two.filter((w) => !three.includes(w)))
    const screen3 = Math.max(...three.filter((w) => !two.includes(w)))
    assert.equal(screen3 / screen2, 1.5, `${two} against ${three}`)
    const flat = await run(['export', 'pdf', '--theme', 'light', '--input', JSON.stringify({ slideIds: ['title-1'], rasterScale: 3 })])
    const list = execFileSync('pdfimages', ['-list', join(ws.dir, flat.files[0])], { encoding: 'utf8' })
    assert.match(list, /\s4800\s+2700\s/, list)
  })
})
