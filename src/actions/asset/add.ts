import { createHash } from 'node:crypto'
import { cloneDoc } from '../../model/deck.js'
import { existsSync, readdirSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import type { PlateName } from '../../media/variants.js'
import type { PreparedPicture } from '../../media/codec-child.js'
import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, bool, BR, nullable, obj, openObj, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'
import { AssetId, AssetRole, Plate, Treatment } from './schemas.js'
import { readAssetSync } from '../../store/safe-open.js'

const MAX_BYTES = 25 * 1024 * 1024

/** The bytes named by `file` (a path, or a data: URL) or `url` (fetched through the SSRF guard), with a name to slug an id from. */
async function sourceBytes(ctx: ActionContext, input: { file?: string; url?: string; upload?: string }): Promise<{ bytes: Buffer; name: string }> {
  if (input.upload !== undefined) {
    // A presigned upload of the caller's own (src/hosted/uploads.ts): checked there for its owner and size,
    // by the codec for being a picture; deleted once the asset is committed.
    const { takeUpload, uploaderOf } = await import('../../hosted/uploads.js')
    return { bytes: await takeUpload(input.upload, uploaderOf(ctx.caller), MAX_BYTES), name: 'picture' }
  }
  if (input.url !== undefined) {
    const { fetchBytes } = await import('../../net/guarded-fetch.js')
    const bytes = await fetchBytes(input.url, { limit: MAX_BYTES, timeoutMs: 60_000 })
    const last = decodeURIComponent(new URL(input.url).pathname.split('/').pop() || 'picture')
    return { bytes, name: last.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'picture' }
  }
  const file = input.file!
  if (file.startsWith('data:')) {
    const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9-]+=[^;,]*)*)(;base64)?,(.*)$/is.exec(file)
    if (!match) fail('invalid_input', 'A data: URL reads data:<type>[;base64],<data>.', { pointer: '/file' })
    const bytes = match![3] ? Buffer.from(match![4], 'base64') : Buffer.from(decodeURIComponent(match![4]), 'utf8')
    if (bytes.length > MAX_BYTES) fail('payload_too_large', `The picture is ${bytes.length} bytes; the cap is ${MAX_BYTES}.`, { pointer: '/file' })
    return { bytes, name: 'picture' }
  }
  const { abs, shown } = await ctx.inputPath(file, '/file')
  if (!existsSync(abs)) fail('not_found', `No file ${shown}.`, { pointer: '/file' })
  const size = (await stat(abs)).size
  if (size > MAX_BYTES) fail('payload_too_large', `${shown} is ${size} bytes; the cap is ${MAX_BYTES}.`, { pointer: '/file' })
  return { bytes: await readFile(abs), name: basename(abs, extname(abs)) }
}

/** The provenance record: the one given, else built from title, artist, license and sourceUrl. */
function provenance(input: { source?: Record<string, unknown>; title?: string; artist?: string; license?: string; sourceUrl?: string; shareAlike?: boolean; credit?: string }): Record<string, unknown> | undefined {
  if (input.source) return input.source
  const built: Record<string, unknown> = {}
  for (const key of ['title', 'artist', 'license', 'sourceUrl'] as const) if (input[key] !== undefined) built[key] = input[key]
  if (input.shareAlike) built.shareAlike = true
  const credit = input.credit ?? ([input.artist, input.license].filter(Boolean).join(', ') || undefined)
  if (credit) built.credit = credit
  return Object.keys(built).length ? built : undefined
}

/** What asset.add's `prepare` made before the lock: the cleaned picture and its twins. */
export interface PreparedAdd {
  picture: PreparedPicture
  name: string
}

/** Whether the input asks for the two-tone pipeline. */
const wantsTwoTone = (input: AddInput) => Boolean(input.twoTone || input.treatment !== undefined || input.plate !== undefined)

/**
 * Reads the picture the input names and runs the codec on it (src/media/codec.ts: another process,
 * under its time and memory budgets): cleaned, and with its twins drawn (`twins`) or the two-tone
 * pipeline run on the palette of deck `twoTone.palette`. Runs before the deck's lock (asset.add's
 * and slide.setBackgroundPicture's `prepare`).
 */
export async function preparePicture(ctx: ActionContext, input: AddInput, options: { twins: boolean; palette?: { ink: string; paper: string } }): Promise<PreparedAdd> {
  const { bytes, name } = await sourceBytes(ctx, input)
  const pointer = input.upload !== undefined ? '/upload' : input.url !== undefined ? '/url' : '/file'
  const head = bytes.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart()
  const svg = head.startsWith('<svg') || head.startsWith('<?xml') || head.startsWith('<!DOCTYPE svg') || head.startsWith('<!--')
  const { runCodec } = await import('../../media/codec.js')
  const twoTone = options.palette ? { treatment: input.treatment, plate: input.plate as PlateName | undefined, palette: options.palette } : undefined
  const picture = await runCodec('picture', { bytes, svg, pointer, twins: options.twins, ...(twoTone ? { twoTone } : {}) }, { pointer })
  return { picture, name }
}

/** The two-tone palette of the deck a call names (read before the lock; the locked run checks it again). */
async function deckPalette(ctx: ActionContext): Promise<{ ink: string; paper: string }> {
  return (await import('../../render/variants.js')).twoTonePalette((await ctx.target()).manifest)
}

export const assetAdd = defineAction<AddInput, any, PreparedAdd>({
  id: 'asset.add',
  switches: ['uploads'],
  label: 'Add an asset',
  doc: 'Adds a picture asset from a machine path, a data: URL, an http(s) URL (25 MB at most) or a hosted presigned upload, with its alt text and provenance record; twoTone runs the two-tone pipeline and keeps the source as assets/<id>.source.<ext>. With replaceSource the file becomes the continuous source of an existing asset instead.',
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  deck: { kind: 'current' },
  transports: 'CMHP',
  input: obj(
    {
      id: opt({ ...AssetId, description: 'Asset id; the slug of the file name when omitted.' }),
      file: opt(str({ description: 'A machine path, or a data: URL from a drop or paste.' })),
      url: opt(str({ pattern: '^https?://', description: 'http or https URL, 25 MB at most.' })),
      role: AssetRole,
      alt: str({ description: 'Alt text: what the picture shows.' }),
      source: opt(openObj('Provenance record (five variants, members not shown); built from title, artist, license and sourceUrl when omitted.')),
      title: opt(str({ description: 'Title of the work.' })),
      artist: opt(str({ description: 'Artist or author.' })),
      license: opt(str({ description: 'For instance CC0, CC BY, CC BY-SA 4.0, public domain, or free text.' })),
      shareAlike: opt(bool({ description: 'The credit must appear on the plate.' })),
      sourceUrl: opt(str({ description: 'Where the work was found.' })),
      credit: opt(str({ description: 'Plate credit; composed from artist and license when omitted.' })),
      twoTone: opt(bool({ description: 'Run the two-tone pipeline; the source is kept as assets/<id>.source.<ext>.' })),
      treatment: opt(Treatment),
      plate: opt(Plate),
      upload: opt(str({ description: 'Hosted: key of a presigned upload under uploads/<principalId>/ on the private store, for files over 3 MB.' })),
      replaceSource: opt({
        ...AssetId,
        description: 'Id of an existing asset: attach the file as its continuous source instead of adding an asset, so a block dither can re-tone its twins.',
      }),
      baseRevision: BR,
    },
    { anyOf: [{ required: ['file'] }, { required: ['url'] }, { required: ['upload'] }] },
  ),
  output: written({
    asset: { ...ref('Asset'), description: 'The asset record with role, alt, source, the stored file and its size.' },
    twins: arr(str(), { description: 'Rendered files, workspace-relative.' }),
    metrics: { ...nullable(openObj('Two-tone metrics and plate clearance.')), description: 'Two-tone metrics and plate clearance; null without twoTone.' },
  }),
  cli: 'asset add <file> --role <role> --alt <alt> --two-tone --black <black> --plate <plate> --replace-source <replaceSource>',
  mcp: 'deck_asset_add',
  annotations: { fetches: true },
  cliInput: (parsed) => {
    const input = { ...parsed.input }
    if (typeof input.file === 'string' && /^https?:\/\//.test(input.file) && input.url === undefined) {
      input.url = input.file
      delete input.file
    }
    const black = parsed.flags.black
    if (black !== undefined) input.treatment = { ...(input.treatment as object | undefined), black: Number(black) }
    return input
  },
  example: { file: 'photos/harbour.jpg', id: 'harbour-dusk', role: 'picture', alt: 'Container cranes at the harbour at dusk', artist: 'A. Photographer', license: 'CC BY 4.0', baseRevision: 0 },
  prepare: async (ctx, input: AddInput) => {
    const attach = input.replaceSource !== undefined
    return preparePicture(ctx, input, { twins: !attach && !wantsTwoTone(input), ...(!attach && wantsTwoTone(input) ? { palette: await deckPalette(ctx) } : {}) })
  },
  run: async (ctx, input: AddInput, prepared) => {
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const added = input.replaceSource !== undefined ? await attachSource(ctx, deckId, input, prepared) : await addPicture(ctx, deckId, input, prepared)
    // The upload has done its work once the asset is committed.
    const upload = input.upload
    if (upload !== undefined) ctx.after(async () => (await import('../../hosted/uploads.js')).deleteUpload(upload))
    // The deck's revision moves with the files (one commit).
    ctx.stage(deckId, cloneDoc(doc))
    return (docs: Map<string, import('../../model/deck.js').DeckDoc | null>) => ({ asset: added.record, twins: added.twinFiles, metrics: added.metrics ?? null, revision: docs.get(deckId)!.manifest.revision })
  },
  human: (r: { asset: { id: string; width: number; height: number; format: string; treatment?: unknown }; metrics: { coverage: number[]; plate?: { name: string; clearance: number } } | null }) =>
    [
      `Added asset ${r.asset.id} (${r.asset.width} × ${r.asset.height} ${r.asset.treatment ? 'two-tone' : r.asset.format})`,
      ...(r.metrics ? [`${Math.round(r.metrics.coverage[0] * 100)}% ink${r.metrics.plate ? `; ${r.metrics.plate.name} plate ${Math.round(r.metrics.plate.clearance * 100)}% clear` : ''}`] : []),
    ].join('\n'),
})

/** An asset id's record, read from the deck's assets folder (404 when the deck has no such asset). */
export function readAssetRecord(ctx: ActionContext, deckId: string, assetId: string, pointer: string): Record<string, unknown> & { id: string } {
  const file = join(ctx.ws.deckDir(deckId), 'assets', `${assetId}.json`)
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(assetId) || !existsSync(file)) fail('not_found', `Deck "${deckId}" has no asset "${assetId}".`, { pointer })
  return JSON.parse(readAssetSync(file).toString('utf8')) as Record<string, unknown> & { id: string }
}

/** Stages `bytes` as the kept continuous source of asset `assetId`, removing a source of another format; answers its file name. */
export function stageSource(ctx: ActionContext, deckId: string, assetId: string, bytes: Buffer, format: string): string {
  const dir = join(ctx.ws.deckDir(deckId), 'assets')
  const name = `${assetId}.source.${format}`
  for (const old of existsSync(dir) ? readdirSync(dir) : []) if (old.startsWith(`${assetId}.source.`) && old !== name) ctx.stageFile(`decks/${deckId}/assets/${old}`, null)
  ctx.stageFile(`decks/${deckId}/assets/${name}`, bytes)
  return name
}

/** replaceSource: the file becomes the continuous source of an existing asset (a block dither re-tones from it). */
async function attachSource(ctx: ActionContext, deckId: string, input: AddInput, prepared?: PreparedAdd): Promise<Added> {
  const record = readAssetRecord(ctx, deckId, input.replaceSource!, '/replaceSource')
  const { image } = (prepared ?? (await preparePicture(ctx, input, { twins: false }))).picture
  const sourceFile = stageSource(ctx, deckId, record.id, image.bytes, image.format)
  const next = { ...record, sourceFile, sourceDigest: image.digest }
  ctx.stageFile(`decks/${deckId}/assets/${record.id}.json`, canonicalJson(next))
  const folder = `decks/${deckId}/assets`
  return { record: next, twinFiles: ((record.twins as string[] | undefined) ?? []).map((t) => `${folder}/${t}`), metrics: (record.metrics as Record<string, unknown> | undefined) ?? null }
}

interface Added {
  record: Record<string, unknown> & { id: string }
  twinFiles: string[]
  metrics?: Record<string, unknown> | null
}

/**
 * Reads, cleans and stages a picture as asset `input.id` (or the slug of its file name) of deck
 * `deckId`: the file, its twins and its record; with `twoTone` (or a treatment or plate) the
 * two-tone pipeline's twins, the source kept as `<id>.source.<ext>`, the treatment and metrics. The
 * caller stages the deck so one commit holds them. Shared by asset.add and
 * slide.setBackgroundPicture's file and url forms, whose `prepare` ran the codec (`preparePicture`);
 * without `prepared` it runs here.
 */
export async function addPicture(ctx: ActionContext, deckId: string, input: AddInput, prepared?: PreparedAdd): Promise<Added> {
  const twoTone = wantsTwoTone(input)
  const palette = twoTone ? await deckPalette(ctx) : undefined
  // The deck's palette moved between prepare and the lock (a theme change landed): screen again.
  const stale = twoTone && (prepared?.picture.twoTone?.palette.ink !== palette!.ink || prepared?.picture.twoTone?.palette.paper !== palette!.paper)
  const { picture, name } = prepared && !stale ? prepared : await preparePicture(ctx, input, { twins: !twoTone, palette })
  const { image } = picture
  const { default: slugify } = await import('@sindresorhus/slugify')
  const id = input.id ?? (slugify(name).slice(0, 100).replace(/^-+|-+$/g, '') || 'picture')
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail('invalid_input', `"${id}" is not an asset id (a slug).`, { pointer: '/id' })
  const { deckAssetIds } = await import('../../model/assets.js')
  if (deckAssetIds(ctx.ws, deckId, new Map(), [], []).has(id)) fail('id_taken', `Deck "${deckId}" already has an asset "${id}".`, { pointer: '/id' })
  const folder = `decks/${deckId}/assets`
  const source = provenance(input)
  const common = { id, role: input.role, alt: input.alt, ...(source ? { source } : {}) }
  if (twoTone) {
    const base = { ...common, ...(image.removed?.length ? { sanitized: image.removed } : {}) }
    return stageTwoTone(ctx, deckId, base, image, { treatment: input.treatment, plate: input.plate as PlateName | undefined, palette: palette! }, picture.twoTone)
  }
  const twins = picture.twins!
  const twinFiles = twins.map((t) => `${folder}/${id}@${t.scale}x.${t.format}`)
  const record = {
    ...common,
    file: `${id}.${image.format}`,
    format: image.format,
    width: image.width,
    height: image.height,
    digest: image.digest,
    twins: twinFiles.map((f) => f.slice(folder.length + 1)),
    ...(image.removed?.length ? { sanitized: image.removed } : {}),
  }
  ctx.stageFile(`${folder}/${id}.${image.format}`, image.bytes)
  twins.forEach((t, i) => ctx.stageFile(twinFiles[i], t.bytes))
  ctx.stageFile(`${folder}/${id}.json`, canonicalJson(record))
  return { record, twinFiles }
}

/**
 * Stages asset `base.id` as a two-tone asset of deck `deckId`: `source` kept as
 * `<id>.source.<ext>`, the screen's twins `<id>@1x.png` and `<id>@2x.png`, and the record (`base`
 * plus file, size, digests, twins, treatment, palette, plate and metrics). The one place a two-tone
 * asset is written: asset.add --two-tone, asset.dither and material.capture --two-tone.
 */
export async function stageTwoTone(
  ctx: ActionContext,
  deckId: string,
  base: Record<string, unknown> & { id: string },
  source: { bytes: Buffer; format: string; width: number; height: number; digest?: string },
  options: { treatment?: Record<string, unknown>; plate?: PlateName; palette: { ink: string; paper: string } },
  screened?: PreparedPicture['twoTone'],
): Promise<Added & { metrics: Record<string, unknown> }> {
  const { id } = base
  const folder = `decks/${deckId}/assets`
  const { runCodec } = await import('../../media/codec.js')
  const { treatment, twins, metrics } = screened ?? (await runCodec('twoTone', { source: source.bytes, width: source.width, height: source.height, ...options }))
  const sourceFile = stageSource(ctx, deckId, id, source.bytes, source.format)
  const twinFiles = twins.map((t) => `${folder}/${id}@${t.scale}x.png`)
  twins.forEach((t, i) => ctx.stageFile(twinFiles[i], t.bytes))
  const { plate: _plate, ...rest } = base
  const record = {
    ...rest,
    file: `${id}@2x.png`,
    format: 'png',
    width: source.width,
    height: source.height,
    digest: createHash('sha256').update(twins[1].bytes).digest('hex'),
    sourceFile,
    sourceDigest: source.digest ?? createHash('sha256').update(source.bytes).digest('hex'),
    twins: twinFiles.map((f) => f.slice(folder.length + 1)),
    treatment,
    palette: options.palette,
    ...(options.plate ? { plate: options.plate } : {}),
    metrics,
  }
  ctx.stageFile(`${folder}/${id}.json`, canonicalJson(record))
  return { record, twinFiles, metrics: metrics as unknown as Record<string, unknown> }
}

export interface AddInput {
  id?: string
  file?: string
  url?: string
  role: string
  alt: string
  source?: Record<string, unknown>
  title?: string
  artist?: string
  license?: string
  shareAlike?: boolean
  sourceUrl?: string
  credit?: string
  twoTone?: boolean
  treatment?: Record<string, unknown>
  plate?: string
  upload?: string
  replaceSource?: string
}
