import { defineAction, type ActionContext } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { BrandKit, type Block, type DeckDoc, type Slide, cloneDoc } from '../../model/deck.js'
import { BlockId, bool, Box, BR, nullable, obj, oneOf, opt, ref, SlideId, str, arr } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'

const VARIANT_NAMES = ['default', 'mono', 'light', 'dark', 'wordmark', 'wordmarkLight', 'wordmarkDark'] as const
type VariantName = (typeof VARIANT_NAMES)[number]
type Rect = { x: number; y: number; w: number; h: number }

interface InsertInput {
  slug: string
  variant?: VariantName
  slideId?: string
  box?: Rect
  everySlide?: boolean
  kit?: boolean
  blockId?: string
  baseRevision?: number
}

/** The logo size of an asset stored alone or for the brand kit: fitted into 480 × 160 sheet px. */
const KIT_BOX: Rect = { x: 0, y: 0, w: 480, h: 160 }
/**
 * A logo placed in the free area of a slide covers this many square sheet px (a 170 px square, a
 * 330 × 87 wordmark: marks of any shape weigh the same), at most 480 × 200.
 */
const LOGO_AREA = 170 * 170
const MAX_LOGO = { w: 480, h: 200 }
/** Below this much free height the logo goes to the region's lower right corner at FALLBACK_H. */
const MIN_FREE = 48
const FALLBACK_H = 64
const GAP = 24

/** The largest box of aspect `aspect` (w / h) inside `box`, centred in it. */
function fit(aspect: number, box: Rect): Rect {
  let w = box.w
  let h = w / aspect
  if (h > box.h) {
    h = box.h
    w = h * aspect
  }
  return { x: Math.round(box.x + (box.w - w) / 2), y: Math.round(box.y + (box.h - h) / 2), w: Math.round(w), h: Math.round(h) }
}

/**
 * Where a logo goes on a slide without a box: the free area of its body slot (the layout's body, else
 * the content area above the footer band; the whole of it on the canvas), that is the tallest
 * full-width strip of that region no drawn block covers, less 24 px from its neighbours. The logo takes
 * LOGO_AREA (fitted into the strip, at most 480 × 200), flush with the left edge of the slide's blocks,
 * right under the content above the strip (else right over the content below it, else centred).
 * Less than 48 px free: the region's lower right corner, 64 px high.
 */
async function freeBox(slide: Slide, doc: DeckDoc, aspect: number): Promise<Rect> {
  const { drawn } = await import('../../layout/stack.js')
  const { layoutSlots } = await import('../../layout/boxes.js')
  const { themeFonts } = await import('../../model/themes.js')
  const specs = slide.layout === 'freeform' ? {} : layoutSlots(slide.layout, slide.layoutOptions)
  const region: Rect = specs.body?.box ?? { x: 80, y: 56, w: 1440, h: 720 }
  const { items } = drawn(slide, themeFonts(doc.manifest))
  const boxes = items
    .filter((item) => item.block.background !== true)
    .map((item) => item.box)
    .filter((b) => b.w > 0 && b.h > 0 && b.x < region.x + region.w && b.x + b.w > region.x && b.y < region.y + region.h && b.y + b.h > region.y)
  const covered = boxes.map((b) => [Math.max(region.y, b.y - GAP), Math.min(region.y + region.h, b.y + b.h + GAP)] as [number, number]).sort((a, b) => a[0] - b[0])
  // Flush with the text's left edge (the leftmost block in the region), as the slide reads.
  const left = boxes.length ? Math.max(region.x, Math.min(...boxes.map((b) => b.x))) : region.x
  let best: [number, number] = [0, 0]
  let top = region.y
  for (const [from, to] of [...covered, [region.y + region.h, region.y + region.h] as [number, number]]) {
    if (from - top > best[1] - best[0]) best = [top, from]
    top = Math.max(top, to)
  }
  const free = best[1] - best[0]
  if (free < MIN_FREE) {
    const w = Math.round(FALLBACK_H * aspect)
    return { x: region.x + region.w - w, y: region.y + region.h - FALLBACK_H, w, h: FALLBACK_H }
  }
  const strip: Rect = { x: left, y: best[0], w: region.x + region.w - left, h: free }
  const natural = Math.sqrt(LOGO_AREA * aspect)
  const size = fit(aspect, { x: 0, y: 0, w: Math.min(strip.w, MAX_LOGO.w, natural), h: Math.min(strip.h, MAX_LOGO.h, natural / aspect) })
  // Next to the slide's content: under what is above the strip, else over what is below it, else centred.
  const above = covered.some(([, to]) => to <= best[0])
  const below = covered.some(([from]) => from >= best[1])
  const y = above ? strip.y : below ? strip.y + strip.h - size.h : Math.round(strip.y + (strip.h - size.h) / 2)
  return { x: strip.x, y, w: size.w, h: size.h }
}

/** A picture block's box as drawn: its pos on the canvas, else where geometry stacks it. */
async function drawnBox(slide: Slide, doc: DeckDoc, block: Block): Promise<Rect> {
  if (block.pos && typeof block.pos === 'object') return block.pos as Rect
  const { drawn } = await import('../../layout/stack.js')
  const { themeFonts } = await import('../../model/themes.js')
  return drawn(slide, themeFonts(doc.manifest)).items.find((item) => item.block === block)?.box ?? KIT_BOX
}

/** The PNG of a sanitized SVG at w × h px (transparent around it). */
async function png(svg: Buffer, intrinsicWidth: number, w: number, h: number): Promise<Buffer> {
  const sharp = (await import('sharp')).default
  const density = Math.min(2400, Math.max(1, (72 * w) / Math.max(1, intrinsicWidth)))
  return sharp(svg, { density, limitInputPixels: 80_000_000 })
    .resize({ width: w, height: h, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer()
}

/** `wordmarkDark` → `wordmark-dark`. */
const kebab = (text: string) => text.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

async function run(ctx: ActionContext, input: InsertInput) {
  const onSlide = input.slideId !== undefined && input.slideId !== 'none'
  if (input.everySlide && input.kit) fail('invalid_input', "Name one: everySlide (the kit's mark and footer slots, so every slide shows it) or kit (the kit's logo slots alone).", { pointer: '/kit' })
  if ((input.everySlide || input.kit) && onSlide) fail('invalid_input', 'everySlide and kit fill the brand kit and place no picture: leave out slideId.', { pointer: '/slideId' })
  if (input.slideId === undefined && !input.everySlide && !input.kit) fail('invalid_input', "Name where the logo goes: slideId (or 'none' to store the asset alone), everySlide or kit.", { pointer: '/slideId' })
  if (input.blockId !== undefined && !onSlide) fail('invalid_input', 'blockId names a picture on a slide: name its slide too.', { pointer: '/blockId' })
  if (input.box !== undefined && !onSlide) fail('invalid_input', 'box places the logo on a slide: name the slide.', { pointer: '/box' })
  if (input.box !== undefined && input.blockId !== undefined) fail('invalid_input', "blockId keeps the picture's box: leave out box.", { pointer: '/box' })
  if (input.box && (input.box.w < 1 || input.box.h < 1)) fail('invalid_input', 'The box needs a width and a height of at least 1 px.', { pointer: '/box' })

  const doc = cloneDoc(await ctx.target())
  const deckId = doc.manifest.id
  const slide = onSlide ? doc.slides[input.slideId!] : undefined
  if (onSlide && !slide) fail('not_found', `No slide "${input.slideId}" in deck "${deckId}".`, { pointer: '/slideId' })
  const target = input.blockId !== undefined ? (slide!.blocks ?? []).find((b) => b.id === input.blockId) : undefined
  if (input.blockId !== undefined && !target) fail('not_found', `No block "${input.blockId}" on slide "${input.slideId}".`, { pointer: '/blockId' })
  if (target && target.kind !== 'picture') fail('invalid_input', `Block "${input.blockId}" is a ${target.kind}, not a picture.`, { pointer: '/blockId' })

  const logos = await import('../../media/logos.js')
  const loaded = await logos.currentIndex(ctx.ws)
  const mark = loaded.bySlug.get(input.slug)
  if (!mark) {
    const near = logos.searchLogos(loaded, input.slug, { limit: 3, collection: 'all' }).map((r) => r.mark.s)
    fail('not_found', `No mark "${input.slug}" in the logo catalogue${near.length ? `; did you mean ${near.join(', ')}?` : ''} (studio logo search <name>)`, { pointer: '/slug' })
  }

  // The ground the logo lands on: the slide's background, else the deck's, else the theme's paper.
  const { colour, paintFor } = await import('../../render/paint.js')
  const paint = paintFor(doc.manifest, doc.manifest.defaults?.appearance ?? 'light')
  const ground = colour(paint, slide?.background ?? doc.manifest.background, 'paper')
  const mono = logos.monoColour(ground, colour(paint, 'ink'), colour(paint, 'paper'))
  const svgOf = (variant: VariantName) => logos.variantSvg(ctx.ws, mark!, variant, mono)
  let variant: VariantName
  let reads: boolean
  if (input.variant !== undefined) {
    variant = input.variant
    if (mark!.v[variant] === undefined) {
      const upstream = mark!.u?.includes(variant) ? ' (it answered 404 at the last refresh)' : ''
      const has = Object.keys(mark!.v).join(', ')
      fail('not_found', `Mark "${mark!.s}" has no ${variant} variant${upstream}; it has ${has}.`, { pointer: '/variant' })
    }
    reads = false
  } else ({ variant, reads } = await logos.chooseVariant(mark!, ground, svgOf))
  const raw = svgOf(variant)
  if (raw === null) fail('not_found', `The ${variant} drawing of "${mark!.s}" is missing from the catalogue's files; run \`studio logo refresh\`.`, { pointer: '/slug' })

  const { sanitizeSvg } = await import('../../media/svg.js')
  let clean: import('../../media/svg.js').SanitizedSvg
  try {
    clean = sanitizeSvg(raw!, { maxBytes: 2 * 1024 * 1024 })
  } catch (error) {
    throw new StudioError('refused', `The catalogue's drawing of "${mark!.s}" (${variant}) was refused by the SVG sanitizer: ${(error as Error).message}`, { pointer: '/slug' })
  }
  const svgBytes = Buffer.from(clean.svg, 'utf8')
  if (input.variant !== undefined) reads = await logos.svgReadsOn(svgBytes, ground)
  const intrinsic = { w: clean.viewBox?.[2] ?? clean.width ?? 100, h: clean.viewBox?.[3] ?? clean.height ?? 100 }
  const aspect = intrinsic.w > 0 && intrinsic.h > 0 ? intrinsic.w / intrinsic.h : 1

  // The logo's box on the sheet, and the size its twins are drawn at (1x and 3x of it).
  let pos: Rect | undefined
  let size: Rect
  if (target) size = fit(aspect, await drawnBox(slide!, doc, target))
  else if (input.box) {
    pos = { ...input.box }
    size = fit(aspect, input.box)
  } else if (slide) {
    pos = await freeBox(slide, doc, aspect)
    size = pos
  } else size = fit(aspect, KIT_BOX)
  const w1 = Math.max(1, Math.round(size.w))
  const h1 = Math.max(1, Math.round(size.h))

  const { deckAssetIds } = await import('../../model/assets.js')
  const taken = deckAssetIds(ctx.ws, deckId, new Map(), [], [])
  const base = `${mark!.s.replace(/_/g, '-')}${variant === 'default' ? '' : `-${kebab(variant)}`}`.replace(/^-+|-+$/g, '').slice(0, 100) || 'logo'
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  const folder = `decks/${deckId}/assets`
  const twins = [
    { file: `${id}@1x.png`, bytes: await png(svgBytes, intrinsic.w, w1, h1) },
    { file: `${id}@3x.png`, bytes: await png(svgBytes, intrinsic.w, w1 * 3, h1 * 3) },
  ]
  // Whether the drawing reads on the theme's light and dark paper: a footer logo drawn on a ground it
  // does not read on is drawn in the deck's ink or paper there instead (src/render/html.ts furniture).
  const readsOn = {
    light: await logos.svgReadsOn(svgBytes, colour(paintFor(doc.manifest, 'light'), undefined, 'paper')),
    dark: await logos.svgReadsOn(svgBytes, colour(paintFor(doc.manifest, 'dark'), undefined, 'paper')),
  }
  const { createHash } = await import('node:crypto')
  const licence = logos.licenceOf(loaded.index, mark!, variant)
  const source: Record<string, unknown> = {
    title: mark!.t,
    mark: mark!.s,
    variant,
    catalogue: logos.catalogueOf(loaded.index, mark!.v[variant]!),
    license: licence.recorded,
    licenseSentence: licence.sentence,
    ...(mark!.g ? { guidelines: mark!.g } : {}),
    ...(mark!.w ? { site: mark!.w } : {}),
    credit: `${mark!.t} logo${licence.recorded === 'not recorded' ? '' : `, ${licence.recorded}`}`,
  }
  // Never the catalogue's address: a URL of the catalogue itself that slipped into the data is dropped.
  for (const [key, value] of Object.entries(source)) if (typeof value === 'string' && logos.isCatalogueAddress(value, loaded)) delete source[key]
  const record = {
    id,
    role: 'logo',
    alt: `${mark!.t} logo`,
    source,
    file: `${id}@3x.png`,
    format: 'png',
    width: w1 * 3,
    height: h1 * 3,
    digest: createHash('sha256').update(twins[1].bytes).digest('hex'),
    twins: twins.map((t) => t.file),
    sourceFile: `${id}.source.svg`,
    readsOn,
    ...(clean.removed.length ? { sanitized: clean.removed } : {}),
  }
  ctx.stageFile(`${folder}/${id}.source.svg`, svgBytes)
  for (const twin of twins) ctx.stageFile(`${folder}/${twin.file}`, twin.bytes)
  ctx.stageFile(`${folder}/${id}.json`, canonicalJson(record))

  let blockId: string | null = null
  if (target) {
    target.asset = id
    target.fit = 'contain'
    delete target.crop
    delete target.cropAnchor
    blockId = target.id
  } else if (slide && pos) {
    const { freeId } = await import('../../layout/stack.js')
    const { apply } = await import('../../model/mutations/block.insert.js')
    blockId = freeId(new Set((slide.blocks ?? []).map((b) => b.id)), 'logo')
    const result = apply(slide, { kind: 'block.insert', block: { id: blockId, kind: 'picture', asset: id, fit: 'contain', pos } }, doc)
    if (!result.ok) fail(result.code ?? 'invalid_input', result.message, { pointer: '/box' })
  } else if (input.everySlide) doc.manifest.brandKit = { ...doc.manifest.brandKit, logo: id, footerLogo: id }
  else if (input.kit) doc.manifest.brandKit = { ...doc.manifest.brandKit, logo: id, ...(doc.manifest.brandKit?.footerLogo ? { footerLogo: id } : {}) }
  ctx.stage(deckId, doc)
  return (docs: Map<string, DeckDoc | null>) => {
    const next = docs.get(deckId)!
    const block = blockId ? ((next.slides[input.slideId!]?.blocks ?? []).find((b) => b.id === blockId) ?? null) : null
    return { asset: record, block, variant, reads, twins: twins.map((t) => `${folder}/${t.file}`), brandKit: next.manifest.brandKit ?? null, revision: next.manifest.revision }
  }
}

export const logoInsert = defineAction<InsertInput, any>({
  id: 'logo.insert',
  label: 'Insert a logo',
  doc:
    "Stores a catalogue mark as an asset with role logo (PNG twins at 1x and 3x the logo size, the sanitized SVG as assets/<id>.source.svg, a source record naming the mark, licence and guidelines but never the catalogue's address) " +
    "and places it on a slide (in the free area of the body slot unless a box is given), replaces a picture's asset keeping its box (blockId), stores it alone (slideId 'none'), makes it the deck's logo on every slide (everySlide: the brand kit's mark and footer slots) or fills the kit's logo slots alone (kit). " +
    "Without a variant the appearance rule chooses: the default when it reads on the deck's paper, else the light or dark variant drawn for that ground, else mono in the deck's ink.",
  group: 'logo',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slug: str({ minLength: 1, description: 'Mark slug in the catalogue.' }),
    variant: opt(oneOf(VARIANT_NAMES, { description: 'The appearance rule chooses when absent.' })),
    slideId: opt({ ...SlideId, description: "Slide to place the logo on; 'none' stores the asset alone." }),
    box: opt({ ...Box, description: 'Box in sheet px; the logo size in the free area of the body slot when absent.' }),
    everySlide: opt(bool({ description: "Use as the deck's logo: the brand kit's mark and footer slots take the asset." })),
    kit: opt(bool({ description: 'Brand kit logo slots alone.' })),
    blockId: opt({ ...BlockId, description: "Replace this picture's asset, keeping the box." }),
    baseRevision: BR,
  }),
  output: written({
    asset: { ...ref('Asset'), description: 'The logo asset with twins and source record.' },
    block: { ...nullable(ref('Block')), description: "The placed or updated picture block; null with slideId 'none', everySlide or kit." },
    variant: oneOf(VARIANT_NAMES, { description: 'The variant stored (the one asked for, or the appearance rule\'s choice).' }),
    reads: bool({ description: "Whether the stored drawing reads on the ground it lands on (the slide's or the deck's paper)." }),
    twins: arr(str(), { description: 'The PNG twins, workspace-relative: 1x and 3x the logo size.' }),
    brandKit: { ...nullable(BrandKit), description: "The deck's brand kit after the call, or null." },
  }),
  cli: 'logo insert <slug> --variant <variant> --slide <slideId> --every-slide --kit --block <blockId>',
  mcp: 'deck_logo_insert',
  example: { slug: 'github', variant: 'mono', slideId: 'title-1', baseRevision: 0 },
  run,
  human: (r: { asset: { id: string; width: number; height: number }; block: { id: string } | null; variant: string; reads: boolean }) =>
    `Stored logo ${r.asset.id} (${r.variant}${r.reads ? '' : ', may not stand out on this ground'})${r.block ? ` as block ${r.block.id}` : ''}`,
})
