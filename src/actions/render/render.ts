import { rename } from 'node:fs/promises'
import { basename, dirname, join, relative } from 'node:path'
import type { ActionContext, CliParsed } from '../../core/action.js'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc, Slide } from '../../model/deck.js'
import { orderedSlides } from '../../model/deck.js'
import { arr, bool, Box, FilePath, int, obj, oneOf, opt, SlideId, SlideIdsOrAll, str, Themes } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { FONT_FAMILIES } from '../../model/fonts.js'
import { THEMES } from '../../model/themes.js'
import type { Appearance } from '../../render/paint.js'
import type { Workspace } from '../../store/workspace.js'
import { readAssetRecords } from '../../store/asset-records.js'

const slideIds = { ...SlideIdsOrAll, description: "'all' or a list of slide ids." }
const themes = { ...Themes, description: 'Appearances to render: ["light"], ["dark"] or both ["light", "dark"] (the CLI takes --theme both); the deck\'s default appearance when absent.' }

/** `--theme both` on the command line: both appearances. */
const bothThemes = (parsed: CliParsed) => {
  const value = parsed.input.themes
  return Array.isArray(value) && value.includes('both') ? { ...parsed.input, themes: ['light', 'dark'] } : parsed.input
}

/** Where renders go by default; slide.get looks here for a slide's newest render. */
export const RENDER_DIR = '.studio/render'

const RenderRecord = obj({
  slideId: SlideId,
  theme: oneOf(['light', 'dark'], { description: 'The appearance.' }),
  file: str({ description: 'The image path, relative to the workspace root when inside it.' }),
  width: int({ minimum: 1, description: 'Pixels.' }),
  height: int({ minimum: 1, description: 'Pixels.' }),
  revision: int({ minimum: 0, description: 'The deck revision drawn.' }),
  scale: oneOf([1, 2], { description: 'Pixels per sheet pixel.' }),
  format: oneOf(['png', 'jpg']),
  hash: str({ description: 'The hash of everything the picture depends on (its sidecar holds it).' }),
  reused: bool({ description: 'True when an identical earlier render was kept instead of drawn again.' }),
})
export { RenderRecord as RenderRecordSchema }

/** The slides a call names, in deck order for 'all', refusing unknown ids with their pointer. */
function pickSlides(doc: DeckDoc, ids: 'all' | string[]): Slide[] {
  if (ids === 'all') return orderedSlides(doc)
  return ids.map((id, i) => {
    if (!Object.hasOwn(doc.slides, id)) fail('not_found', `No slide "${id}" in deck "${doc.manifest.id}".`, { pointer: `/slideIds/${i}` })
    return doc.slides[id]
  })
}

function appearancesOf(doc: DeckDoc, given: Appearance[] | undefined): Appearance[] {
  return given ?? [doc.manifest.defaults?.appearance ?? 'light']
}

/** The folder a call's images go to: `<out>/<deckId>` (`out` confined to the workspace off the command line), else .studio/render/<deckId> in the workspace. */
async function outFolder(ctx: ActionContext, doc: DeckDoc, out: string | undefined): Promise<string> {
  return join(out === undefined ? join(ctx.ws.root, RENDER_DIR) : (await ctx.outputPath(out, '/out')).abs, doc.manifest.id)
}

/** slide.get's render: the newest image in the default folder that still shows the slide as it is. */
export async function newestRender(ws: Workspace, doc: DeckDoc, slide: Slide) {
  const { lastRender } = await import('../../render/pipeline.js')
  return lastRender(doc, slide, ws.deckDir(doc.manifest.id), join(ws.root, RENDER_DIR, doc.manifest.id), ws.root)
}

export async function renderDeckSlides(ctx: ActionContext, doc: DeckDoc, slides: Slide[], options: { appearances: Appearance[]; scale: 1 | 2; format: 'png' | 'jpg'; out?: string; outMayBeFile?: boolean }) {
  const { renderSlides, imageName } = await import('../../render/pipeline.js')
  // `--out title.png`: an out ending in the format's extension is the one image a render of one slide in one theme writes.
  const single = options.outMayBeFile === true && options.out !== undefined && options.out.toLowerCase().endsWith(`.${options.format}`)
  if (single && slides.length * options.appearances.length !== 1) {
    fail('invalid_input', `out names one .${options.format} file, but this render writes ${slides.length * options.appearances.length} images: render one slide in one theme, or name a folder.`, { pointer: '/out' })
  }
  const target = single ? (await ctx.outputPath(options.out!, '/out')).abs : undefined
  const rendered = await renderSlides({
    doc,
    deckDir: ctx.ws.deckDir(doc.manifest.id),
    slides,
    appearances: options.appearances,
    scale: options.scale,
    format: options.format,
    outDir: target ? dirname(target) : await outFolder(ctx, doc, options.out),
    root: ctx.ws.root,
    onProgress: (done, total) => ctx.progress(done, total, 'Rendering'),
  })
  if (target) {
    // Rendered under its usual name beside the target, then renamed with its sidecar (<file>.json).
    const made = join(dirname(target), imageName(slides[0].id, options.appearances[0], options.scale, options.format))
    if (made !== target) {
      await rename(made, target)
      await rename(`${made}.json`, `${target}.json`)
    }
    const record = rendered.records[0]
    record.file = relative(ctx.ws.root, target) || basename(target)
  }
  return rendered
}

export const renderSlide = defineAction({
  id: 'render.slide',
  label: 'Render slides',
  doc:
    'Renders slides to image files in Chromium, per appearance, at scale 1 (1600 × 900) or 2, as PNG or JPG, into <out>/<deckId>/<slideId>.<appearance>@<scale>x.<format> ' +
    'with a sidecar <image>.json (deck revision, slide hash, theme, scale). An image whose sidecar carries the same hash is kept (reused: true). The process\'s one Chromium (kept warm between calls by studio serve and studio mcp), pages reused across slides.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  capability: 'export',
  transports: 'CMHP',
  input: obj({
    slideIds,
    themes: opt(themes),
    scale: opt(oneOf([1, 2], { description: 'Pixels per sheet pixel (1 when absent).' })),
    format: opt(oneOf(['png', 'jpg'], { description: 'Image format (png when absent).' })),
    out: opt({ ...FilePath('Output directory (images go to <out>/<deckId>/); .studio/render in the workspace when absent; or, for one slide in one theme, the image file itself (a name ending in .png or .jpg, as the format). Over HTTP and MCP it must be inside the workspace.'), default: RENDER_DIR }),
  }),
  output: result({ renders: arr(RenderRecord, { description: 'Render records, per slide then appearance.' }) }),
  cli: 'render <slideIds> --theme <themes> --out <out> --json',
  cliInput: bothThemes,
  annotations: { writes: true, idempotent: true },
  mcp: 'deck_render',
  example: { slideIds: ['title-1'], themes: ['light'], scale: 1, format: 'png' },
  run: async (ctx, input: { slideIds: 'all' | string[]; themes?: Appearance[]; scale?: 1 | 2; format?: 'png' | 'jpg'; out?: string }) => {
    const doc = await ctx.target()
    const slides = pickSlides(doc, input.slideIds)
    const { records } = await renderDeckSlides(ctx, doc, slides, { appearances: appearancesOf(doc, input.themes), scale: input.scale ?? 1, format: input.format ?? 'png', out: input.out, outMayBeFile: true })
    return { renders: records }
  },
  human: (r: { renders: { file: string; reused: boolean }[] }) => r.renders.map((x) => `${x.file}${x.reused ? '  (unchanged)' : ''}`).join('\n'),
})

export const renderSheet = defineAction({
  id: 'render.sheet',
  label: 'Render contact sheet',
  doc:
    'Renders a contact sheet of slides per appearance (PNG, built with sharp from the slide renders, which are reused when unchanged), with a JSON cell map from cell boxes to slide ids. ' +
    '`numbered` prints the number and label of each slide in a strip under its thumbnail (never over the slide); `overlay: lint` frames each cell by its worst lint finding and prints the counts; `overlay: plate` outlines the plate corner of blocks that carry one.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  capability: 'export',
  transports: 'CMHP',
  input: obj({
    slideIds,
    themes: opt(themes),
    cols: opt(int({ minimum: 1, maximum: 20, description: 'Columns of the sheet (4 when absent).' })),
    thumb: opt(int({ minimum: 64, maximum: 1600, description: 'Thumbnail width in px (320 when absent).' })),
    numbered: opt(bool({ description: 'Print the number and label of each slide under its thumbnail.' })),
    overlay: opt(oneOf(['lint', 'plate'], { description: 'Overlay lint findings or plate boxes on the cells.' })),
    out: opt(FilePath('Output directory; .studio/render in the workspace when absent. Over HTTP and MCP it must be inside the workspace.')),
  }),
  output: result({
    sheets: arr(
      obj({
        theme: oneOf(['light', 'dark']),
        file: str({ description: 'The image path.' }),
        map: str({ description: 'The cell map file (JSON: the same cells).' }),
        width: int({ minimum: 1 }),
        height: int({ minimum: 1 }),
        cells: arr(obj({ box: Box, slideId: SlideId, number: int({ minimum: 1 }) })),
      }),
      { description: 'One per appearance: image path and cell map (cell box → slide id).' },
    ),
  }),
  cli: 'sheet <slideIds> --cols <cols> --thumb <thumb> --overlay <overlay>',
  annotations: { writes: true, idempotent: true },
  mcp: 'deck_sheet',
  example: { slideIds: 'all', cols: 4, thumb: 320, numbered: true },
  run: async (ctx, input: { slideIds: 'all' | string[]; themes?: Appearance[]; cols?: number; thumb?: number; numbered?: boolean; overlay?: 'lint' | 'plate'; out?: string }) => {
    const doc = await ctx.target()
    const slides = pickSlides(doc, input.slideIds)
    const appearances = appearancesOf(doc, input.themes)
    const { records } = await renderDeckSlides(ctx, doc, slides, { appearances, scale: 1, format: 'png', out: input.out })
    const { buildSheet } = await import('../../render/sheet.js')
    const assets = input.overlay === 'lint' ? await readAssetRecords(ctx.ws, doc.manifest.id) : undefined
    const sheets = []
    for (const appearance of appearances) {
      sheets.push(
        await buildSheet({
          doc,
          slides,
          appearance,
          images: records.filter((r) => r.theme === appearance).map((r) => join(ctx.ws.root, r.file)),
          cols: input.cols ?? 4,
          thumb: input.thumb ?? 320,
          numbered: input.numbered ?? false,
          overlay: input.overlay,
          assets,
          outDir: await outFolder(ctx, doc, input.out),
          root: ctx.ws.root,
        }),
      )
    }
    return { sheets }
  },
  human: (r: { sheets: { file: string; cells: unknown[] }[] }) => r.sheets.map((s) => `${s.file}  (${s.cells.length} slides)`).join('\n'),
})

export const fontList = defineAction({
  id: 'font.list',
  label: 'List fonts',
  doc:
    'Lists the font catalog shipped inside the package: each family with the name presentation software shows, category, weights, italic, licence, ' +
    'and the themes that use it. Geometry measures text with these faces and renders draw with the same files.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({}),
  output: result({
    fonts: arr(
      obj({
        name: str({ description: 'The family name presentation software shows.' }),
        category: oneOf(['sans-serif', 'serif', 'monospace']),
        weights: arr(int({ minimum: 100, maximum: 900 })),
        italic: bool({ description: 'Italic faces ship too.' }),
        licence: str({ description: 'SPDX licence id.' }),
        themes: arr(str(), { description: 'Ids of the themes that draw with it.' }),
      }),
      { description: 'Font families.' },
    ),
  }),
  cli: 'fonts list',
  mcp: 'deck_fonts_list',
  example: {},
  run: () => ({
    fonts: FONT_FAMILIES.map((f) => ({
      name: f.name,
      category: f.category,
      weights: [...f.weights],
      italic: f.italic,
      licence: f.licence,
      themes: THEMES.filter((t) => t.fonts.heading === f.name || t.fonts.body === f.name).map((t) => t.id),
    })),
  }),
  human: (r: { fonts: { name: string; category: string; weights: number[]; italic: boolean; themes: string[] }[] }) =>
    r.fonts.map((f) => `${f.name}  ${f.category}, ${f.weights.join('/')}${f.italic ? ' + italic' : ''}  (themes: ${f.themes.join(', ') || 'none'})`).join('\n'),
})
