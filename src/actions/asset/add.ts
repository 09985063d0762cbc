import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, bool, BR, nullable, obj, openObj, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'
import { AssetId, AssetRole, Plate, Treatment } from './schemas.js'

const MAX_BYTES = 25 * 1024 * 1024

/** The bytes named by `file` (a path, or a data: URL) or `url` (fetched through the SSRF guard), with a name to slug an id from. */
async function sourceBytes(ctx: ActionContext, input: { file?: string; url?: string }): Promise<{ bytes: Buffer; name: string }> {
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

export const assetAdd = defineAction<AddInput, any>({
  id: 'asset.add',
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
  example: { file: 'photos/harbour.jpg', id: 'harbour-dusk', role: 'picture', alt: 'Container cranes at the harbour at dusk', artist: 'A. Photographer', license: 'CC BY 4.0', baseRevision: 3 },
  run: async (ctx, input: AddInput) => {
    // Parts of the action that come with later work answer 501 by name, before anything is read.
    for (const [field, what] of [['twoTone', 'the two-tone pipeline'], ['treatment', 'the two-tone pipeline'], ['plate', 'the two-tone pipeline'], ['replaceSource', 'continuous sources (two-tone)'], ['upload', 'hosted uploads']] as const) {
      if (input[field] !== undefined && input[field] !== false) fail('not_implemented', `asset.add ${field}: ${what} is not built on this instance yet; add the picture without it.`, { pointer: `/${field}`, details: { implemented: false } })
    }
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const { record, twinFiles } = await addPicture(ctx, deckId, input)
    // The deck's revision moves with the files (one commit).
    ctx.stage(deckId, structuredClone(doc))
    return (docs: Map<string, import('../../model/deck.js').DeckDoc | null>) => ({ asset: record, twins: twinFiles, metrics: null, revision: docs.get(deckId)!.manifest.revision })
  },
  human: (r: { asset: { id: string; width: number; height: number; format: string } }) => `Added asset ${r.asset.id} (${r.asset.width} × ${r.asset.height} ${r.asset.format})`,
})

/**
 * Reads, cleans and stages a raster picture as asset `input.id` (or the slug of its file name) of
 * deck `deckId`: the file, its twins and its record. The caller stages the deck so one commit holds
 * them. Shared by asset.add and slide.setBackgroundPicture's file and url forms.
 */
export async function addPicture(ctx: ActionContext, deckId: string, input: AddInput): Promise<{ record: Record<string, unknown> & { id: string }; twinFiles: string[] }> {
    const { bytes, name } = await sourceBytes(ctx, input)
    const pointer = input.url !== undefined ? '/url' : '/file'
    const head = bytes.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart()
    const isSvg = head.startsWith('<svg') || head.startsWith('<?xml') || head.startsWith('<!DOCTYPE svg') || head.startsWith('<!--')
    const { ingestRaster, twinsOf, ingestSvg } = await import('../../media/images.js')
    const image = isSvg ? await ingestSvg(bytes, { pointer }) : await ingestRaster(bytes, { pointer })
    const { default: slugify } = await import('@sindresorhus/slugify')
    const id = input.id ?? (slugify(name).slice(0, 100).replace(/^-+|-+$/g, '') || 'picture')
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail('invalid_input', `"${id}" is not an asset id (a slug).`, { pointer: '/id' })
    const { deckAssetIds } = await import('../../model/assets.js')
    if (deckAssetIds(ctx.ws, deckId, new Map(), [], []).has(id)) fail('id_taken', `Deck "${deckId}" already has an asset "${id}".`, { pointer: '/id' })
    const folder = `decks/${deckId}/assets`
    const twins = await twinsOf(image)
    const twinFiles = twins.map((t) => `${folder}/${id}@${t.scale}x.${t.format}`)
    const source = provenance(input)
    const record = {
      id,
      role: input.role,
      alt: input.alt,
      ...(source ? { source } : {}),
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
