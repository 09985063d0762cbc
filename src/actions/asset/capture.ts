import { defineAction } from '../../core/action.js'
import { arr, BR, int, obj, oneOf, opt, ref, str } from '../../model/schema.js'
import { planned, result, written } from '../../model/results.js'
import { AssetId, CssBox } from './schemas.js'

export const assetCapture = defineAction({
  id: 'asset.capture',
  label: 'Capture a web page',
  doc: 'Captures a page at 1440 by 900 in one or both themes and stores the shots as assets; both theme twins take the identical region, and each detail box becomes a 2x crop asset <id>-detail-<n>. Not offered in the page.',
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  transports: 'CMH',
  input: obj({
    url: str({ pattern: '^https?://', description: 'The page to capture.' }),
    id: opt({ ...AssetId, description: 'Asset id; the slug of the URL when omitted.' }),
    alt: opt(str({ description: 'Alt text of the capture.' })),
    role: opt(oneOf(['capture', 'detail'], { description: 'Asset role.' })),
    viewport: opt(arr(int({ minimum: 1 }), { minItems: 2, maxItems: 2, description: 'Viewport [width, height] in CSS pixels (1440 by 900 by default).' })),
    scale: opt(oneOf([1, 2], { description: 'Device scale factor.' })),
    theme: oneOf(['light', 'dark', 'both'], { description: 'Which page theme to capture.' }),
    region: opt({ ...CssBox, description: 'CSS-pixel box x, y, w, h; both theme twins take the identical region.' }),
    details: opt(arr(CssBox, { description: 'Identical-region 2x detail crops, each an asset <id>-detail-<n>.' })),
    recipe: opt(str({ description: 'Per-site recipe; a default site recipe when absent.' })),
    settleMs: opt(int({ minimum: 0, description: 'Wait after load before the shot, in ms.' })),
    format: opt(oneOf(['jpg', 'png'], { default: 'jpg', description: 'File format; jpg at quality 92 by default.' })),
    allowHosts: opt(arr(str(), { description: 'Hosts beyond the built-in allowlist.' })),
    baseRevision: BR,
  }),
  output: planned(
    written({
      assets: arr(ref('Asset'), { description: 'The captured assets, one twin per theme.' }),
      details: arr(ref('Asset'), { description: 'The detail crop assets.' }),
    }),
  ),
  cli: 'asset capture <url> --theme <theme> --scale <scale> --recipe <recipe> --region <region>',
  mcp: 'deck_asset_capture',
  example: { url: 'https://example.com/pricing', theme: 'both', scale: 2, region: [0, 0, 1440, 900], baseRevision: 3 },
})
