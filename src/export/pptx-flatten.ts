/**
 * The flattened PPTX (export.run's default mode): each slide one full-bleed picture, the renderer's 2x
 * raster, under an invisible text layer (every drawn line as a text box at 100 % transparency, so
 * search, copy and a screen reader find the words); speaker notes on the notes pages; skipped slides
 * hidden. Slides are 13.333 × 7.5 in, the sheet's 16:9 (120 sheet px to the inch).
 */
import type { TextLine } from '../render/pipeline.js'
import { withoutAbsentOverrides } from './content-types.js'

export const PX_PER_INCH = 120
export const SLIDE_INCHES = { width: 1600 / PX_PER_INCH, height: 900 / PX_PER_INCH }

export interface FlatSlide {
  png: Buffer
  lines: TextLine[]
  notes?: string
  hidden?: boolean
}

/** pptxgenjs, loaded once (CommonJS default export under ESM). */
export async function pptxGen(): Promise<new () => import('pptxgenjs').default> {
  const module = (await import('pptxgenjs')) as unknown as { default: (new () => import('pptxgenjs').default) & { default?: new () => import('pptxgenjs').default } }
  return module.default.default ?? module.default
}

/**
 * The package bytes pptxgenjs wrote, without Overrides for absent parts (content-types.ts), compressed again at deflate level 6 (in Node its `compression`
 * option is not honoured for every output) and dated by `date` (the deck's last change), in the zip's
 * entries and the document properties alike: the same deck writes the same bytes.
 */
export async function compressed(bytes: Buffer, date: Date): Promise<Buffer> {
  const { default: JSZip } = (await import('jszip')) as unknown as { default: typeof import('jszip') }
  const zip = await JSZip.loadAsync(bytes)
  const types = zip.file('[Content_Types].xml')
  if (types) zip.file('[Content_Types].xml', withoutAbsentOverrides(await types.async('string'), Object.keys(zip.files).filter((name) => !zip.files[name].dir)))
  const core = zip.file('docProps/core.xml')
  if (core) {
    const stamp = date.toISOString().replace(/\.\d+Z$/, 'Z')
    zip.file('docProps/core.xml', (await core.async('string')).replace(/(<dcterms:(?:created|modified)[^>]*>)[^<]*(<\/dcterms:)/g, `$1${stamp}$2`))
  }
  zip.forEach((_path, file) => {
    file.date = date
  })
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 }, mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' })
}

export async function flattenPptx(slides: FlatSlide[], options: { title: string; author?: string; font: string; date: Date }): Promise<Buffer> {
  const Pptx = await pptxGen()
  const pptx = new Pptx()
  pptx.defineLayout({ name: 'STUDIO_SHEET', width: SLIDE_INCHES.width, height: SLIDE_INCHES.height })
  pptx.layout = 'STUDIO_SHEET'
  pptx.title = options.title
  pptx.company = 'Deck Studio'
  if (options.author) pptx.author = options.author
  const inch = (px: number) => Math.round((px / PX_PER_INCH) * 10000) / 10000
  for (const item of slides) {
    const slide = pptx.addSlide()
    slide.addImage({ data: `image/png;base64,${item.png.toString('base64')}`, x: 0, y: 0, w: SLIDE_INCHES.width, h: SLIDE_INCHES.height })
    for (const line of item.lines) {
      if (!line.text.trim()) continue
      slide.addText(line.text, {
        x: inch(line.x),
        y: inch(line.y),
        w: inch(Math.max(line.w, 1)),
        h: inch(Math.max(line.h, 1)),
        fontSize: Math.max(1, Math.round(line.size * 0.75 * 10) / 10),
        fontFace: options.font,
        color: '000000',
        transparency: 100,
        margin: 0,
        valign: 'top',
        fit: 'none',
        wrap: false,
      })
    }
    if (item.notes) slide.addNotes(item.notes)
    if (item.hidden) slide.hidden = true
  }
  const written = (await pptx.write({ outputType: 'nodebuffer', compression: true })) as Buffer
  return compressed(Buffer.from(written), options.date)
}
