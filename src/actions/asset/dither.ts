import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readAssetSync } from '../../store/safe-open.js'
import { basename, extname, join } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { canonicalJson } from '../../store/canonical.js'
import { arr, bool, BR, int, lit, num, obj, oneOf, openObj, opt, ref, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { AssetId, Plate, Treatment } from './schemas.js'
import { WITH_LOGO_ASSET } from '../given.js'

export const assetDither = defineAction<any, any>({
  id: 'asset.dither',
  label: 'Re-run two-tone',
  doc: 'Re-runs the two-tone pipeline on one asset or on every two-tone asset and reports plate clearance. fromRecorded reads the committed twins back and verifies them cell for cell; verifyCells regenerates from the source and counts differing cells.',
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMHP',
  input: obj(
    {
      assetId: opt({ ...AssetId, description: 'The asset to re-tone; required unless allTwoTone.' }),
      treatment: opt({ ...Treatment, description: 'Full treatment to run (two variants); otherwise the recorded one with params merged.' }),
      params: opt({ ...Treatment, description: 'Treatment members merged over the recorded treatment (CLI --gamma).' }),
      plate: opt(Plate),
      source: opt(str({ description: 'Continuous source when the asset records none.' })),
      allTwoTone: opt(bool({ description: 'Re-tone every two-tone asset.' })),
      fromRecorded: opt(bool({ description: 'Read committed twins back, recompute metrics, verify cell for cell.' })),
      verifyCells: opt(bool({ description: 'Regenerate from the source where one exists and count differing cells.' })),
      pattern: opt(oneOf(['bayer8', 'bayer4', 'blue64', 'random'], { default: 'bayer8', description: 'Screen pattern.' })),
      cell: opt(oneOf([1, 2, 3, 4], { default: 2, description: 'Sheet pixels per cell.' })),
      tone: opt(oneOf(['two', 'three', 'original'], { default: 'two', description: 'Number of tones.' })),
      baseRevision: BR,
    },
    { anyOf: [{ required: ['assetId'] }, { required: ['allTwoTone'], properties: { allTwoTone: lit(true) } }] },
  ),
  output: written({
    assets: arr(ref('Asset'), { description: 'The re-toned (or, verifying, the checked) assets with twins and metrics.' }),
    clearance: { type: 'object', additionalProperties: num(), description: 'Plate clearance per asset id (assets with a plate).' },
    cells: opt({ type: 'object', additionalProperties: int({ minimum: 0 }), description: 'Per asset id, when verifying: cells of the committed twins that are not one tone (fromRecorded) or that differ from a fresh screen of the source (verifyCells).' }),
    warnings: arr(str(), { description: 'Warnings (plate clearance, near-solid or near-blank screens).' }),
    revision: RevisionIfWritten,
  }),
  cli: 'asset dither <assetId> --gamma <gamma> --plate <plate> --pattern <pattern> --cell <cell> --tone <tone> --all-two-tone --from-recorded --verify-cells',
  mcp: 'deck_asset_dither',
  cliInput: (parsed) => {
    const gamma = parsed.flags.gamma
    return gamma === undefined ? parsed.input : { ...parsed.input, params: { ...(parsed.input.params as object | undefined), gamma: Number(gamma) } }
  },
  given: WITH_LOGO_ASSET,
  example: { assetId: 'github', pattern: 'bayer8', cell: 2, tone: 'two', baseRevision: 1 },
  run: async (ctx, input: DitherInput) => {
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const deckDir = ctx.ws.deckDir(deckId)
    const folder = `decks/${deckId}/assets`
    const variants = await import('../../media/variants.js')
    const { twoTonePalette } = await import('../../render/variants.js')
    const { readAssetRecord, stageTwoTone } = await import('./add.js')
    let records: (Record<string, unknown> & { id: string })[]
    if (input.allTwoTone) {
      const dir = join(deckDir, 'assets')
      records = (existsSync(dir) ? readdirSync(dir) : [])
        .filter((n) => /^[a-z0-9]+(?:-[a-z0-9]+)*\.json$/.test(n))
        .sort()
        .map((n) => readAssetRecord(ctx, deckId, n.slice(0, -5), '/allTwoTone'))
        .filter((r) => r.treatment && typeof r.treatment === 'object')
      if (input.assetId !== undefined) records = records.filter((r) => r.id === input.assetId)
    } else records = [readAssetRecord(ctx, deckId, input.assetId!, '/assetId')]
    const assets: Record<string, unknown>[] = []
    const clearance: Record<string, number> = Object.create(null)
    const cells: Record<string, number> = Object.create(null)
    const warnings: string[] = []
    let wrote = false
    for (const record of records) {
      const recorded = (record.treatment && typeof record.treatment === 'object' ? record.treatment : {}) as Record<string, unknown>
      const overrides = { ...(input.params ?? {}), ...(input.pattern ? { pattern: input.pattern } : {}), ...(input.cell ? { cell: input.cell } : {}), ...(input.tone ? { tone: input.tone } : {}) }
      const treatment = variants.resolveTreatment(input.treatment ?? { ...recorded, ...overrides })
      const plate = (input.plate ?? record.plate) as import('../../media/variants.js').PlateName | undefined
      const palette = (record.palette as { ink: string; paper: string } | undefined) ?? twoTonePalette(doc.manifest)
      // The continuous source: the kept one, else the one named, else the asset's own picture (which becomes the kept source).
      let sourcePath = variants.sourceFileOf(join(deckDir, 'assets'), record.id)
      let sourceBytes: Buffer | undefined
      let sourceFile = typeof record.sourceFile === 'string' ? record.sourceFile : undefined
      let sourceDigest = typeof record.sourceDigest === 'string' ? record.sourceDigest : undefined
      const staged: [string, Buffer | null][] = []
      if (input.source !== undefined && !(sourcePath && sourcePath.includes('.source.'))) {
        const { abs, shown } = await ctx.inputPath(input.source, '/source')
        if (!existsSync(abs)) fail('not_found', `No file ${shown}.`, { pointer: '/source' })
        const { runCodec } = await import('../../media/codec.js')
        const { image } = await runCodec('picture', { bytes: readFileSync(abs), svg: false, pointer: '/source' }, { pointer: '/source' })
        sourceBytes = image.bytes
        sourceFile = `${record.id}.source.${image.format}`
        sourceDigest = image.digest
        sourcePath = undefined
      } else if (sourcePath) {
        sourceBytes = readAssetSync(sourcePath)
        if (!sourcePath.includes('.source.')) {
          // A plain picture turns two-tone: its file is kept as the source, its twins give way to the screen's.
          const ext = extname(sourcePath).slice(1)
          sourceFile = `${record.id}.source.${ext}`
          sourceDigest = createHash('sha256').update(sourceBytes).digest('hex')
          staged.push([`${folder}/${basename(sourcePath)}`, null])
          for (const twin of (record.twins as string[] | undefined) ?? []) if (!twin.endsWith('.png')) staged.push([`${folder}/${twin}`, null])
          sourcePath = undefined
        }
      }
      if (!sourceBytes) fail('not_found', `Asset "${record.id}" has no continuous source to screen; give one with source.`, { pointer: input.allTwoTone ? '/allTwoTone' : '/source' })
      const width = typeof record.width === 'number' ? record.width : 1600
      const height = typeof record.height === 'number' ? record.height : 900
      const twinNames = [1, 2].map((scale) => `${record.id}@${scale}x.png`)
      if (input.fromRecorded || input.verifyCells) {
        // Verify: read the committed twins back, cell for cell.
        const recordedTreatment = variants.resolveTreatment(recorded)
        let count = 0
        let metrics: import('../../media/variants.js').ToneMetrics | undefined
        const fresh = input.verifyCells ? await variants.twoToneTwins(sourceBytes!, width, height, recordedTreatment, palette, plate) : undefined
        for (const [i, name] of twinNames.entries()) {
          const path = join(deckDir, 'assets', name)
          if (!existsSync(path)) fail('not_found', `Asset "${record.id}" has no committed twin ${name} to verify; run asset dither without --from-recorded first.`, { pointer: input.allTwoTone ? '/allTwoTone' : '/assetId' })
          const cellPx = recordedTreatment.cell * (i + 1)
          const { screened, mixedCells } = await variants.readScreen(readAssetSync(path), variants.screenPalette(palette.ink, palette.paper, recordedTreatment.tone), cellPx)
          if (input.fromRecorded) count += mixedCells
          if (fresh) count += variants.differingCells(screened, fresh.twins[i].screened, cellPx)
          if (i === 0) metrics = variants.toneMetrics(screened, plate)
        }
        cells[record.id] = count
        const next = { ...record, metrics }
        if (input.fromRecorded && JSON.stringify(record.metrics) !== JSON.stringify(metrics)) {
          ctx.stageFile(`${folder}/${record.id}.json`, canonicalJson(next))
          wrote = true
        }
        if (metrics!.plate) clearance[record.id] = metrics!.plate.clearance
        warnings.push(...variants.metricWarnings(metrics!, `Asset ${record.id}`))
        assets.push(next)
        continue
      }
      for (const [path, content] of staged) ctx.stageFile(path, content)
      const format = (sourceFile ?? sourcePath ?? 'x.png').split('.').pop()!
      const { record: next, metrics: measured } = await stageTwoTone(ctx, deckId, record, { bytes: sourceBytes!, format, width, height, digest: sourceDigest }, { treatment, plate, palette })
      const metrics = measured as unknown as import('../../media/variants.js').ToneMetrics
      wrote = true
      if (metrics.plate) clearance[record.id] = metrics.plate.clearance
      warnings.push(...variants.metricWarnings(metrics, `Asset ${record.id}`))
      assets.push(next)
    }
    const verifying = input.fromRecorded || input.verifyCells
    if (!wrote) return { assets, clearance, ...(verifying ? { cells } : {}), warnings }
    ctx.stage(deckId, cloneDoc(doc))
    return (docs: Map<string, DeckDoc | null>) => ({ assets, clearance, ...(verifying ? { cells } : {}), warnings, revision: docs.get(deckId)!.manifest.revision })
  },
  human: (r: { assets: { id: string; metrics?: { coverage: number[] } }[]; clearance: Record<string, number>; cells?: Record<string, number>; warnings: string[]; revision?: number }) =>
    [
      ...r.assets.map((a) => {
        const parts = [`${a.id}: ${Math.round((a.metrics?.coverage[0] ?? 0) * 100)}% ink`]
        if (a.id in r.clearance) parts.push(`plate ${Math.round(r.clearance[a.id] * 100)}% clear`)
        if (r.cells && a.id in r.cells) parts.push(`${r.cells[a.id]} differing cell${r.cells[a.id] === 1 ? '' : 's'}`)
        return parts.join(', ')
      }),
      ...(r.assets.length ? [] : ['No two-tone asset']),
      ...r.warnings,
      ...(r.revision !== undefined ? [`revision ${r.revision}`] : []),
    ].join('\n'),
})

interface DitherInput {
  assetId?: string
  treatment?: Record<string, unknown>
  params?: Record<string, unknown>
  plate?: string
  source?: string
  allTwoTone?: boolean
  fromRecorded?: boolean
  verifyCells?: boolean
  pattern?: string
  cell?: number
  tone?: string
}
