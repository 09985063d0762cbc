import { defineAction } from '../../core/action.js'
import { arr, bool, BR, int, lit, num, obj, oneOf, openObj, opt, ref, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { AssetId, Plate, Treatment } from './schemas.js'

export const assetDither = defineAction({
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
      params: opt(
        openObj('Treatment parameters merged over the recorded treatment (CLI --gamma, --black).', {
          properties: { gamma: num({ exclusiveMinimum: 0 }), black: num({ minimum: 0, maximum: 1 }) },
        }),
      ),
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
  output: planned(
    written({
      assets: arr(ref('Asset'), { description: 'The re-toned assets with twins and metrics.' }),
      clearance: { type: 'object', additionalProperties: num(), description: 'Plate clearance per asset id.' },
      cells: opt({ type: 'object', additionalProperties: int({ minimum: 0 }), description: 'Differing cells per asset id, when verifying.' }),
    }),
  ),
  cli: 'asset dither <assetId> --gamma <gamma> --plate <plate> --pattern <pattern> --cell <cell> --tone <tone> --all-two-tone --from-recorded --verify-cells',
  mcp: 'deck_asset_dither',
  cliInput: (parsed) => {
    const gamma = parsed.flags.gamma
    return gamma === undefined ? parsed.input : { ...parsed.input, params: { ...(parsed.input.params as object | undefined), gamma: Number(gamma) } }
  },
  example: { assetId: 'harbour', pattern: 'bayer8', cell: 2, tone: 'two', baseRevision: 3 },
})
