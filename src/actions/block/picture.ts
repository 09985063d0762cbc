import { defineAction } from '../../core/action.js'
import { arr, bool, BR, nullable, num, obj, oneOf, openObj, opt, ref, SlideIdsOrAll, str, type Schema } from '../../model/schema.js'
import { planned, RevisionIfWritten, written } from '../../model/results.js'
import { DitherSchema, resolveDither } from '../../model/dither.js'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fail } from '../../core/errors.js'
import { isPicturePlaceholder, placeholderHint } from '../../model/blocks.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { canonicalJson } from '../../store/canonical.js'
import { metricWarnings, variantFileName, type PlateName, type ToneMetrics } from '../../media/variants.js'
import { drawnSizeOf, screenOf, Variants } from '../../render/variants.js'
import { blockIn, canvasSlide, editSlide, isCanvas } from './canvas.js'
import { pictureIn } from './image.js'
import { defined, gather, given, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'
import { readAssetSync } from '../../store/safe-open.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

/** Closed shape presets a picture can be masked to (the spec does not show the list). */

export const MaterialId = str({ pattern: '^(paper|proto):[a-z0-9][a-z0-9-]*$', description: 'Catalog id from shader.list or material.list, e.g. paper:mesh-gradient.' })

const DITHER_FIELDS = ['pattern', 'tone', 'cell', 'strength', 'black', 'white', 'gamma', 'polarity'] as const

export { DitherSchema } from '../../model/dither.js'

const TRIM_SIDES = ['left', 'right', 'top', 'bottom'] as const

export const pictureDither = defineAction<any, any>({
  id: 'picture.dither',
  label: 'Dither picture',
  doc:
    "Writes the deck's two-tone screen over a picture's continuous source as a non-destructive field; null removes it. " +
    'Converts a non-canvas slide first when the picture is positioned; the result names the variant key, metrics and warnings.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    dither: { ...nullable(DitherSchema), description: 'The two-tone screen settings, or null to remove the field.' },
    baseRevision: BR,
  }),
  output: written({
    block: { ...ref('Block'), description: 'The picture block after the write.' },
    slide: ref('Slide'),
    variant: { ...nullable(str()), description: 'The variant key of the screened picture (16 hex; its file is assets/<assetId>.dither-<key>@<scale>x.png once materialized); null once the dither is off.' },
    metrics: { ...nullable(openObj('Tone metrics of the variant: coverage per tone (ink first), width and height in sheet px, and the plate clearance when the asset names a plate.')), description: 'Tone metrics of the variant; null once the dither is off.' },
    warnings: arr(str(), { description: 'Warnings (for example plate clearance).' }),
  }),
  cli: 'block dither <slideId>#<blockId> --pattern <pattern> --tone <tone> --cell <cell> --strength <strength> --black <black> --white <white> --gamma <gamma> --polarity <polarity> --off',
  mcp: 'deck_dither_picture',
  cliInput: (parsed) => {
    const rest = without(parsed.input, [...DITHER_FIELDS, 'off', 'dither'])
    if (given(parsed, 'off')) return { ...rest, dither: null }
    // Flags build the field over what --input gave; neither gives the deck's screen with its defaults.
    const fromInput = parsed.input.dither
    const base = fromInput && typeof fromInput === 'object' ? (fromInput as Record<string, unknown>) : {}
    return { ...rest, dither: defined({ ...base, ...(gather(parsed, DITHER_FIELDS) ?? {}) }) }
  },
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b3', dither: { pattern: 'bayer8', tone: 'two', cell: 2 }, baseRevision: 2 },
  run: async (ctx, input: { slideId: string; blockId: string; dither: Record<string, unknown> | null }) => {
    let after: { doc: DeckDoc; block: Block } | undefined
    const staged = await editSlide(ctx, input.slideId, (doc) => {
      let picture = pictureIn(doc, input.slideId, input.blockId)
      if (input.dither !== null && isPicturePlaceholder(picture)) fail('invalid_input', placeholderHint(picture.id), { pointer: '/blockId' })
      if (input.dither !== null && picture.pos && !isCanvas(findSlide(doc, input.slideId))) {
        canvasSlide(doc, input.slideId)
        picture = pictureIn(doc, input.slideId, input.blockId)
      }
      if (input.dither === null) delete picture.dither
      else picture.dither = input.dither
      after = { doc, block: picture }
    })
    let variant: string | null = null
    let metrics: ToneMetrics | null = null
    const warnings: string[] = []
    if (input.dither !== null && after) {
      const measured = await measureVariant(ctx.ws.deckDir(after.doc.manifest.id), after.doc, findSlide(after.doc, input.slideId), after.block)
      variant = measured.key
      metrics = measured.metrics
      warnings.push(...measured.warnings)
    }
    return (docs: Map<string, DeckDoc | null>) => {
      const answer = staged(docs)
      return { block: blockIn(answer.slide as Slide, input.blockId), slide: answer.slide, variant, metrics, warnings, revision: answer.revision }
    }
  },
  human: (r: { block: { id: string }; variant: string | null; metrics: ToneMetrics | null; warnings: string[]; revision: number }) =>
    [r.variant ? `${r.block.id}: two-tone variant ${r.variant}, ${Math.round((r.metrics?.coverage[0] ?? 0) * 100)}% ink` : `${r.block.id}: dither removed`, ...r.warnings, `revision ${r.revision}`].join('\n'),
})

/** The variant a dithered picture draws: its key, and the metrics of its screen at 1x. */
async function measureVariant(deckDir: string, doc: DeckDoc, slide: Slide, block: Block): Promise<{ key: string; metrics: ToneMetrics; warnings: string[] }> {
  const assetId = String(block.asset)
  const size = drawnSizeOf(doc.manifest, slide, block, deckDir)
  if (!size) return fail('invalid_input', `Slide "${slide.id}" does not draw picture "${block.id}", so it has no size to screen at.`, { pointer: '/blockId' })
  const variants = new Variants(deckDir, doc.manifest, undefined)
  const variant = variants.variant(assetId, resolveDither(block.dither as Record<string, unknown>), size.w, size.h)
  if (!variant) return fail('not_found', `Asset "${assetId}" has no picture file to screen (assets/${assetId}.<ext> or a kept source).`, { pointer: '/blockId' })
  const plate = assetPlate(deckDir, assetId)
  const { screenPicture } = await import('../../media/variants.js')
  const { metrics } = await screenPicture(variant.spec.source, variant.spec.dither, size.w, size.h, 1, variant.spec, plate)
  return { key: variant.key, metrics, warnings: metricWarnings(metrics, `Picture ${block.id}`) }
}

/** The plate an asset's record names, if any. */
function assetPlate(deckDir: string, assetId: string): PlateName | undefined {
  const file = join(deckDir, 'assets', `${assetId}.json`)
  if (!existsSync(file)) return undefined
  try {
    const plate = (JSON.parse(readAssetSync(file).toString('utf8')) as { plate?: unknown }).plate
    return plate === 'lower-left' || plate === 'lower-right' || plate === 'upper-left' ? plate : undefined
  } catch {
    return undefined
  }
}

export const pictureMaterialize = defineAction<any, any>({
  id: 'picture.materialize',
  switches: ['materialize'],
  label: 'Materialize pictures',
  doc:
    'Writes the variant files and records of every dithered picture (and two-tone shader block) on the slides, server side. ' +
    'prune removes variants no picture references; dryRun names the missing variants and writes nothing.',
  group: 'block',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideIds: opt({ ...SlideIdsOrAll, description: "'all' or a list of slide ids; all when absent." }),
    blockIds: opt({ ...blockIds, description: 'Only these picture blocks.' }),
    prune: opt(bool({ description: 'Remove variants no picture references.' })),
    scale: opt(oneOf([1, 2], { default: 2, description: 'Scale of the variant files; 2 when absent.' })),
    dryRun: opt(bool({ description: 'Name missing variants, write nothing.' })),
    baseRevision: BR,
  }),
  output: written({
    written: arr(str(), { description: 'Variant files written, workspace-relative.' }),
    missing: arr(str(), { description: 'Variant files that were missing, workspace-relative (all a dry run reports).' }),
    pruned: arr(str(), { description: 'Variant files removed by prune, workspace-relative.' }),
    revision: RevisionIfWritten,
  }),
  cli: 'picture materialize <slideIds> --prune --scale <scale> --dry-run',
  mcp: 'deck_materialize_pictures',
  annotations: { idempotent: true },
  example: { slideIds: 'all', scale: 2, dryRun: true, baseRevision: 0 },
  run: async (ctx, input: { slideIds?: string[] | 'all'; blockIds?: string[]; prune?: boolean; scale?: 1 | 2; dryRun?: boolean }) => {
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const deckDir = ctx.ws.deckDir(deckId)
    const folder = `decks/${deckId}/assets`
    const scale = input.scale ?? 2
    const named = input.slideIds === undefined || input.slideIds === 'all' ? Object.keys(doc.slides) : input.slideIds
    for (const [i, id] of named.entries()) if (!Object.hasOwn(doc.slides, id)) fail('not_found', `Deck "${deckId}" has no slide "${id}".`, { pointer: `/slideIds/${i}` })
    const only = input.blockIds ? new Set(input.blockIds) : undefined
    const variants = new Variants(deckDir, doc.manifest, ctx.ws.root)
    // Every variant the deck's pictures draw (prune keeps these, whichever slides were named) and those of the named pictures.
    const wanted = new Map<string, { assetId: string; key: string; file: string; entry: Record<string, unknown> }>()
    const referenced = new Set<string>()
    for (const slide of Object.values(doc.slides)) {
      for (const block of slide.blocks ?? []) {
        const screen = screenOf(block)
        if (!screen) continue
        const size = drawnSizeOf(doc.manifest, slide, block, deckDir)
        const variant = size ? variants.variant(block.asset as string, screen, size.w, size.h) : undefined
        if (!variant || !size) continue
        referenced.add(variant.key)
        if (!named.includes(slide.id) || (only && !only.has(block.id))) continue
        const file = `${folder}/${variantFileName(block.asset as string, variant.key, scale)}`
        const { strength: _s, ...screenSettings } = variant.spec.dither
        wanted.set(file, { assetId: block.asset as string, key: variant.key, file, entry: { key: variant.key, dither: screenSettings, width: size.w, height: size.h, ink: variant.spec.ink, paper: variant.spec.paper } })
      }
    }
    for (const [i, id] of (input.blockIds ?? []).entries()) {
      if (!named.some((slideId) => doc.slides[slideId].blocks?.some((b) => b.id === id && b.kind === 'picture'))) fail('not_found', `No slide named holds a picture "${id}".`, { pointer: `/blockIds/${i}` })
    }
    const missing = [...wanted.keys()].filter((file) => !existsSync(join(ctx.ws.root, file))).sort()
    const pruned: string[] = []
    if (input.prune) {
      const dir = join(deckDir, 'assets')
      for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
        const match = /^([a-z0-9-]+)\.dither-([0-9a-f]{16})@[12]x\.png$/.exec(name)
        if (match && !referenced.has(match[2])) pruned.push(`${folder}/${name}`)
      }
    }
    if (input.dryRun || (!missing.length && !pruned.length)) return { written: [], missing, pruned: input.dryRun ? pruned : [] }
    // Draw the missing files; record every variant on its asset's record.
    const records = new Map<string, Record<string, unknown>>()
    const recordOf = (assetId: string) => {
      if (!records.has(assetId)) {
        const file = join(deckDir, 'assets', `${assetId}.json`)
        records.set(assetId, existsSync(file) ? (JSON.parse(readAssetSync(file).toString('utf8')) as Record<string, unknown>) : { id: assetId })
      }
      return records.get(assetId)!
    }
    for (const file of missing) {
      const want = wanted.get(file)!
      const bytes = (await variants.bytes(want.key, scale))!
      ctx.stageFile(file, bytes)
      const record = recordOf(want.assetId)
      const list = (Array.isArray(record.variants) ? record.variants : []) as Record<string, unknown>[]
      const entry = list.find((v) => v.key === want.key)
      const name = file.slice(folder.length + 1)
      if (entry) entry.files = [...new Set([...((entry.files as string[]) ?? []), name])].sort()
      else list.push({ ...want.entry, files: [name] })
      record.variants = list.sort((a, b) => String(a.key).localeCompare(String(b.key)))
    }
    for (const file of pruned) {
      ctx.stageFile(file, null)
      const name = file.slice(folder.length + 1)
      const match = /^([a-z0-9-]+)\.dither-([0-9a-f]{16})@/.exec(name)!
      if (!existsSync(join(deckDir, 'assets', `${match[1]}.json`))) continue
      const record = recordOf(match[1])
      if (!Array.isArray(record.variants)) continue
      const list = (record.variants as Record<string, unknown>[])
        .map((v) => (v.key === match[2] ? { ...v, files: ((v.files as string[]) ?? []).filter((f) => f !== name) } : v))
        .filter((v) => (v.files as string[]).length)
      if (list.length) record.variants = list
      else delete record.variants
    }
    for (const [assetId, record] of records) ctx.stageFile(`${folder}/${assetId}.json`, canonicalJson(record))
    ctx.stage(deckId, cloneDoc(doc))
    return (docs: Map<string, DeckDoc | null>) => ({ written: missing, missing, pruned, revision: docs.get(deckId)!.manifest.revision })
  },
  human: (r: { written: string[]; missing: string[]; pruned: string[]; revision?: number }) =>
    [
      r.written.length ? `Wrote ${r.written.length} variant file${r.written.length === 1 ? '' : 's'}` : r.missing.length ? `Missing (dry run): ${r.missing.join(', ')}` : 'Every variant is written',
      ...(r.pruned.length ? [`${r.revision === undefined ? 'Would prune' : 'Pruned'}: ${r.pruned.join(', ')}`] : []),
      ...(r.revision !== undefined ? [`revision ${r.revision}`] : []),
    ].join('\n'),
})
