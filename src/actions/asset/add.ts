import { defineAction } from '../../core/action.js'
import { arr, bool, BR, nullable, obj, openObj, opt, ref, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { AssetId, AssetRole, Plate, Treatment } from './schemas.js'

export const assetAdd = defineAction({
  id: 'asset.add',
  label: 'Add an asset',
  doc: 'Adds a picture asset from a machine path, a data: URL, an http(s) URL (25 MB at most) or a hosted presigned upload, with its alt text and provenance record; twoTone runs the two-tone pipeline and keeps the source as assets/<id>.source.<ext>. With replaceSource the file becomes the continuous source of an existing asset instead.',
  group: 'asset',
  milestone: 'M10',
  mutates: true,
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
  output: planned(
    written({
      asset: { ...ref('Asset'), description: 'The asset record with role, alt, source and treatment.' },
      twins: arr(str(), { description: 'Rendered files, workspace-relative.' }),
      metrics: { ...nullable(openObj('Two-tone metrics and plate clearance.')), description: 'Two-tone metrics and plate clearance; null without twoTone.' },
    }),
  ),
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
  example: { file: 'photos/harbour.jpg', role: 'picture', alt: 'Container cranes at the harbour at dusk', twoTone: true, plate: 'lower-left', baseRevision: 3 },
})
