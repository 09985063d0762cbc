import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { defineAction, type CliParsed } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, Slide } from '../../model/deck.js'
import { canonicalJson } from '../../store/canonical.js'
import { freeId } from '../../layout/stack.js'
import { arr, BlockId, bool, BR, Colour, nullable, num, obj, openObj, opt, ref, SlideId, SlideIds, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { DitherSchema, MaterialId } from '../block/picture.js'
import { given, without } from '../block/cli.js'
import { checkSlideIds, stageDeck } from './common.js'
import { readAssetSync } from '../../store/safe-open.js'
import { WITH_LOGO_ASSET } from '../given.js'

/** The `--dither` switch: the deck's two-tone screen with its defaults. */
const ditherSwitch = (parsed: CliParsed) => {
  const rest = without(parsed.input, ['dither'])
  return given(parsed, 'dither') === true ? { ...rest, dither: {} } : rest
}

export const slideSetBackground = defineAction({
  id: 'slide.setBackground',
  label: 'Set slide background',
  doc: "Sets the background colour of slides; null removes it so the theme's default applies.",
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: SlideIds,
    background: {
      ...nullable(obj({ color: Colour })),
      description: "The background: { color } with a palette token or hex colour; null removes it so the theme's default applies.",
    },
    baseRevision: BR,
  }),
  output: written({ slides: arr(ref('Slide'), { description: 'Each named slide, normalized, with its background.' }) }),
  cli: 'slide background <slideIds> --color <color>',
  mcp: 'deck_set_slide_background',
  // `--color <color>` sets it; without --color (or with `none`) it is removed, unless --input gives a background.
  cliInput: (parsed) => {
    const color = given(parsed, 'color')
    const rest = without(parsed.input, ['color'])
    if (color === undefined) return { background: null, ...rest }
    return { ...rest, background: color === 'none' ? null : { color } }
  },
  annotations: { idempotent: true },
  example: { slideIds: ['title-1'], background: { color: 'ink' }, baseRevision: 0 },
  run: async (ctx, input: { slideIds: string[]; background: { color: string } | null }) =>
    stageDeck(
      ctx,
      (doc) => {
        checkSlideIds(doc, input.slideIds)
        for (const id of input.slideIds) {
          if (input.background === null) delete doc.slides[id].background
          else doc.slides[id].background = input.background.color
        }
      },
      (next) => ({ slides: input.slideIds.map((id) => next.slides[id]) }),
    ),
})

export const slideSetBackgroundPicture = defineAction<BackgroundPictureInput, any, import('../asset/add.js').PreparedAdd | undefined>({
  id: 'slide.setBackgroundPicture',
  switches: (input: { file?: unknown; url?: unknown; upload?: unknown }) => (input.file !== undefined || input.url !== undefined || input.upload !== undefined ? ['uploads'] : []),
  label: 'Set background picture',
  doc:
    'Places a covering picture object at the back of each slide in one write. ' +
    'The file, url and upload forms run asset.add on the server first; assetId uses an existing asset.',
  group: 'slide',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: SlideIds,
    assetId: opt(str({ description: 'An existing asset to show.' })),
    file: opt(str({ description: 'A machine path, or a data: URL.' })),
    url: opt(str({ pattern: '^https?://', description: "An http or https URL, fetched through the service's guarded fetch." })),
    upload: opt(str({ description: 'Hosted: key of a presigned client upload.' })),
    alt: opt(str({ description: 'Alt text of the picture.' })),
    dither: opt(DitherSchema),
    replace: opt(bool({ description: 'Replace the covering picture at the bottom of the stack; on unless set.', default: true })),
    baseRevision: BR,
  }),
  output: written({
    slides: arr(obj({ slideId: SlideId, blockId: BlockId }), { description: 'Each slide with the id of its covering picture block.' }),
    asset: { ...ref('Asset'), description: 'The asset shown (added when a file, url or upload was given).' },
  }),
  cli: 'slide background-picture <slideIds> --asset <assetId> --file <file> --url <url> --alt <alt> --dither --no-replace',
  mcp: 'deck_set_slide_background_picture',
  annotations: { fetches: true },
  cliInput: ditherSwitch,
  given: WITH_LOGO_ASSET,
  example: { slideIds: ['title-1'], assetId: 'github', alt: 'The harbour at dawn', baseRevision: 1 },
  prepare: async (ctx, input: BackgroundPictureInput) => {
    const forms = (['assetId', 'file', 'url', 'upload'] as const).filter((k) => input[k] !== undefined)
    if (forms.length !== 1) fail('invalid_input', 'Name the picture once: assetId, file, url or upload.', { pointer: `/${forms[1] ?? 'assetId'}` })
    if (input.assetId !== undefined || input.alt === undefined) return undefined
    const { preparePicture } = await import('../asset/add.js')
    return preparePicture(ctx, { file: input.file, url: input.url, upload: input.upload, role: 'background', alt: input.alt }, { twins: true })
  },
  run: async (ctx, input: BackgroundPictureInput, prepared) => {
    const doc = await ctx.target()
    checkSlideIds(doc, input.slideIds)
    const deckId = doc.manifest.id
    const folder = join(ctx.ws.deckDir(deckId), 'assets')
    let asset: Record<string, unknown> & { id: string }
    if (input.assetId !== undefined) {
      const file = join(folder, `${input.assetId}.json`)
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(input.assetId) || !existsSync(file)) fail('not_found', `Deck "${deckId}" has no asset "${input.assetId}".`, { pointer: '/assetId' })
      asset = JSON.parse(readAssetSync(file).toString('utf8'))
      if (input.alt !== undefined && input.alt !== asset.alt) {
        // A picture's alt text lives on its asset (docs/model.md): one description for every use.
        asset = { ...asset, alt: input.alt }
        ctx.stageFile(`decks/${deckId}/assets/${input.assetId}.json`, canonicalJson(asset))
      }
    } else {
      if (input.alt === undefined) fail('invalid_input', 'A picture added from a file, URL or upload needs its alt text.', { pointer: '/alt' })
      const { addPicture } = await import('../asset/add.js')
      asset = (await addPicture(ctx, deckId, { file: input.file, url: input.url, upload: input.upload, role: 'background', alt: input.alt }, prepared)).record
      // A presigned upload is deleted once the picture is committed (as asset.add does).
      const upload = input.upload
      if (upload !== undefined) ctx.after(async () => (await import('../../hosted/uploads.js')).deleteUpload(upload))
    }
    const placed: { slideId: string; blockId: string }[] = []
    return stageDeck(
      ctx,
      (next) => {
        for (const slideId of input.slideIds) {
          const { blockId } = placeCovering(next.slides[slideId], asset.id, input.dither, input.replace !== false)
          placed.push({ slideId, blockId })
        }
      },
      () => ({ slides: placed, asset }),
    )
  },
  human: (r: { slides: { slideId: string; blockId: string }[]; asset: { id: string }; revision: number }) =>
    `${r.slides.map((s) => `${s.slideId}: background picture ${r.asset.id} (block ${s.blockId})`).join('\n')}\nrevision ${r.revision}`,
})

/**
 * Places asset `assetId` as the covering picture at the back of `slide`: in place of the covering
 * picture there (keeping its id and place) unless `replace` is off, else as a new block at the bottom
 * of the stack (the whole sheet on the canvas, the media slot otherwise). Screened when `dither` is
 * given, plain otherwise. Answers the block's id and the asset it replaced.
 */
function placeCovering(slide: Slide, assetId: string, dither: Record<string, unknown> | undefined, replace: boolean): { blockId: string; replaced?: unknown } {
  const blocks = slide.blocks ?? []
  const covering = blocks.find((b) => b.kind === 'picture' && b.background === true)
  if (covering && replace) {
    const replaced = covering.asset
    covering.asset = assetId
    if (dither !== undefined) covering.dither = dither
    else delete covering.dither
    return { blockId: covering.id, replaced }
  }
  const used = new Set(blocks.map((b) => b.id))
  const blockId = used.has('background') ? freeId(used, 'background') : 'background'
  const block: Block = { id: blockId, kind: 'picture', asset: assetId, background: true, ...(dither !== undefined ? { dither } : {}) }
  if (slide.layout === 'freeform') {
    block.pos = { x: 0, y: 0, w: 1600, h: 900 }
    block.z = -1
  } else block.slot = 'media'
  slide.blocks = [block, ...blocks]
  return { blockId }
}

interface BackgroundPictureInput {
  slideIds: string[]
  assetId?: string
  file?: string
  url?: string
  upload?: string
  alt?: string
  dither?: Record<string, unknown>
  replace?: boolean
}



export const slideSetBackgroundMaterial = defineAction<BackgroundMaterialInput, any>({
  id: 'slide.setBackgroundMaterial',
  label: 'Set background material',
  doc:
    'Captures a shader material at an anchor time and places the frozen frame as a covering picture at the back of each slide. ' +
    'Runs server side; with a frame drawn by the editor no server browser is launched.',
  group: 'slide',
  milestone: 'M10',
  mutates: true,
  // A frame sent by presigned upload is an upload: the `uploads` switch stops it.
  switches: (input: { frame?: { upload?: unknown } }) => (input.frame?.upload !== undefined ? ['uploads'] : []),
  transports: 'CMHP',
  input: obj({
    slideIds: SlideIds,
    materialId: MaterialId,
    preset: opt(str({ description: "A palette preset of the material; the catalog's default when absent." })),
    uniforms: opt(openObj('Uniform values by name (record).')),
    anchor: opt(num({ minimum: 0, description: 'Frame time in ms; the catalog default when absent.' })),
    dither: opt(DitherSchema),
    frame: opt(
      obj(
        {
          frameKey: str({ minLength: 1, description: 'Key of the recipe the frame was drawn from; the stored id derives from it.' }),
          bytes: opt(str({ contentEncoding: 'base64', description: 'PNG bytes (WebP when the PNG exceeds the function cap), base64.' })),
          upload: opt(str({ description: 'Presigned upload key instead of bytes.' })),
          renderer: opt(str({ description: 'Client WebGL renderer string.' })),
        },
        { description: 'A frame drawn by the editor at the sheet aspect, 3200 by 1800; stored under a key-derived id like block frames.' },
      ),
    ),
    baseRevision: BR,
  }),
  output: written({
    slides: arr(obj({ slideId: SlideId, blockId: BlockId }), { description: 'Each slide with the id of its covering picture block.' }),
    asset: { ...ref('Asset'), description: 'The frame asset: assets/frame-<frameKey>@2x.png and its record.' },
    removed: arr(str(), { description: 'Frames the covering pictures showed before, removed because nothing shows them now.' }),
  }),
  cli: 'slide background-material <slideIds> <materialId> --preset <preset> --anchor <anchor> --dither',
  mcp: 'deck_set_slide_background_material',
  cliInput: ditherSwitch,
  example: { slideIds: ['title-1'], materialId: 'paper:mesh-gradient', preset: 'dusk', anchor: 1200, baseRevision: 0 },
  // A frame sent by presigned upload is taken from the store before the lock (checked for its owner and size).
  prepare: async (ctx, input: BackgroundMaterialInput) => {
    if (input.frame?.upload === undefined) return undefined
    if (input.frame.bytes !== undefined) fail('invalid_input', 'A frame carries its bytes or names its upload, not both.', { pointer: '/frame/upload' })
    const { takeUpload, uploaderOf, UPLOAD_LIMIT } = await import('../../hosted/uploads.js')
    return takeUpload(input.frame.upload, uploaderOf(ctx.caller), UPLOAD_LIMIT, '/frame/upload')
  },
  run: async (ctx, input: BackgroundMaterialInput, uploaded?: Buffer) => {
    if (input.frame && input.frame.bytes === undefined && !uploaded) fail('invalid_input', 'A frame carries its bytes (base64 PNG) or names its upload.', { pointer: '/frame/bytes' })
    const upload = input.frame?.upload
    if (upload !== undefined) ctx.after(async () => (await import('../../hosted/uploads.js')).deleteUpload(upload))
    const { aspectOf, findMaterial, frameKey, presetsFor, resolveUniforms } = await import('../../media/shaders.js')
    const { checkFrameBytes, dropSuperseded, frameId, stageFrame, staleFrame } = await import('../asset/frames.js')
    const doc = await ctx.target()
    checkSlideIds(doc, input.slideIds)
    const entry = findMaterial(input.materialId)
    const preset = input.preset ?? entry.featured
    const uniforms = resolveUniforms(entry, { preset, uniforms: input.uniforms }, presetsFor(doc.manifest))
    // The sheet's aspect, 1600 by 900: the frame is 3200 by 1800.
    const recipe = { materialId: entry.id, preset, uniforms, anchor: input.anchor ?? entry.anchor, aspect: aspectOf(1600, 900) }
    const key = frameKey(recipe)
    let picture: { png: Buffer; width: number; height: number }
    let renderer = input.frame?.renderer
    if (input.frame) {
      // The editor drew it: no browser here, only the check that it drew this recipe at the sheet's aspect.
      if (input.frame.frameKey !== key) staleFrame(doc, input.frame.frameKey, key, 'the background recipe', '/frame/frameKey')
      picture = await checkFrameBytes(uploaded ?? Buffer.from(input.frame.bytes!, 'base64'), uploaded ? '/frame/upload' : '/frame/bytes')
      if (Math.abs(picture.width / picture.height - recipe.aspect) > 0.01) fail('invalid_input', `A background frame is drawn at the sheet's aspect (3200 by 1800); this one is ${picture.width} × ${picture.height}.`, { pointer: '/frame/bytes' })
    } else {
      const { renderFrames } = await import('../../render/shader.js')
      const run = await renderFrames([{ recipe, width: 3200, height: 1800 }], { timeoutMs: 30_000 })
      picture = { png: run.frames[0].png, width: 3200, height: 1800 }
      renderer = run.renderer
    }
    const deckId = doc.manifest.id
    const asset = stageFrame(ctx, deckId, picture, { id: frameId(key), role: 'frame', recipe, key, renderer })
    const placed: { slideId: string; blockId: string }[] = []
    let removed: string[] = []
    return stageDeck(
      ctx,
      (next) => {
        const before: unknown[] = []
        for (const slideId of input.slideIds) {
          const { blockId, replaced } = placeCovering(next.slides[slideId], asset.id, input.dither, true)
          if (replaced !== undefined) before.push(replaced)
          placed.push({ slideId, blockId })
        }
        removed = dropSuperseded(ctx, next, before)
      },
      () => ({ slides: placed, asset, removed }),
    )
  },
  human: (r: { slides: { slideId: string; blockId: string }[]; asset: { id: string }; revision: number }) =>
    `${r.slides.map((s) => `${s.slideId}: background material ${r.asset.id} (block ${s.blockId})`).join('\n')}\nrevision ${r.revision}`,
})

interface BackgroundMaterialInput {
  slideIds: string[]
  materialId: string
  preset?: string
  uniforms?: Record<string, unknown>
  anchor?: number
  dither?: Record<string, unknown>
  frame?: { frameKey: string; bytes?: string; upload?: string; renderer?: string }
}
