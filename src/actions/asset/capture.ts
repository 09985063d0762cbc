import { createHash } from 'node:crypto'
import { cloneDoc } from '../../model/deck.js'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, BR, int, obj, oneOf, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'
import { AssetId, CssBox } from './schemas.js'

type Box = [number, number, number, number]

interface CaptureInput {
  url: string
  id?: string
  alt?: string
  role?: 'capture' | 'detail'
  viewport?: [number, number]
  scale?: 1 | 2
  theme: 'light' | 'dark' | 'both'
  region?: Box
  details?: Box[]
  recipe?: string
  settleMs?: number
  format?: 'jpg' | 'png'
  allowHosts?: string[]
}

/** A CSS-pixel box inside the viewport, or invalid_input at its pointer. */
function checkBox(box: Box, viewport: [number, number], pointer: string): void {
  const [x, y, w, h] = box
  if (!box.every(Number.isFinite) || w <= 0 || h <= 0 || x < 0 || y < 0) fail('invalid_input', `The box [${box.join(', ')}] needs x and y of 0 or more and a positive width and height.`, { pointer })
  if (x + w > viewport[0] || y + h > viewport[1]) fail('invalid_input', `The box [${box.join(', ')}] reaches past the ${viewport[0]} × ${viewport[1]} viewport.`, { pointer })
}

/** A CSS-pixel box as whole device pixels at `scale`, inside a picture of `width` × `height`. */
function pixels(box: Box, scale: number, width: number, height: number) {
  const left = Math.max(0, Math.round(box[0] * scale))
  const top = Math.max(0, Math.round(box[1] * scale))
  return { left, top, width: Math.max(1, Math.min(width - left, Math.round(box[2] * scale))), height: Math.max(1, Math.min(height - top, Math.round(box[3] * scale))) }
}

/** The slug an id is made from: the URL's host (without www.) and path. */
async function slugOfUrl(url: string): Promise<string> {
  const u = new URL(url)
  const { default: slugify } = await import('@sindresorhus/slugify')
  const slug = slugify(`${u.host.replace(/^www\./, '')} ${u.pathname.replace(/\.[a-z0-9]{1,5}$/i, '')}`).slice(0, 100).replace(/^-+|-+$/g, '')
  return slug || 'capture'
}

export const assetCapture = defineAction<CaptureInput, any>({
  id: 'asset.capture',
  label: 'Capture a web page',
  doc:
    'Captures a page at 1440 by 900 in one or both themes (emulated prefers-color-scheme) and stores the shots as one asset, the dark shot as the twin <id>.dark.<ext>; both theme twins take the identical region, and each detail box becomes a 2x crop asset <id>-detail-<n>. ' +
    "Every request the page makes goes through the host allowlist (the page's own host, web fonts and public library CDNs, allowHosts) and is fetched by the server through the SSRF guard; the rest is aborted and counted. Bounded at 30 seconds. Not offered in the page.",
  group: 'asset',
  milestone: 'M10',
  mutates: true,
  deck: { kind: 'current' },
  transports: 'CMH',
  input: obj({
    url: str({ pattern: '^https?://', description: 'The page to capture.' }),
    id: opt({ ...AssetId, description: 'Asset id; the slug of the URL when omitted.' }),
    alt: opt(str({ description: 'Alt text of the capture; "Page capture of <host>: <title>" when omitted.' })),
    role: opt(oneOf(['capture', 'detail'], { description: 'Asset role (capture by default).' })),
    viewport: opt(arr(int({ minimum: 1, maximum: 4096 }), { minItems: 2, maxItems: 2, description: 'Viewport [width, height] in CSS pixels (1440 by 900 by default).' })),
    scale: opt(oneOf([1, 2], { description: 'Device scale factor (1 by default).' })),
    theme: oneOf(['light', 'dark', 'both'], { description: 'Which page theme to capture (emulated prefers-color-scheme).' }),
    region: opt({ ...CssBox, description: 'CSS-pixel box x, y, w, h inside the viewport; both theme twins take the identical region.' }),
    details: opt(arr(CssBox, { maxItems: 20, description: 'Identical-region 2x detail crops (CSS-pixel boxes inside the viewport), each an asset <id>-detail-<n>.' })),
    recipe: opt(str({ description: 'Per-site recipe: default (load, web fonts, fixed cookie banners hidden, 500 ms) or bare (load only).' })),
    settleMs: opt(int({ minimum: 0, maximum: 10_000, description: "Wait after the recipe before the shot, in ms (the recipe's when absent)." })),
    format: opt(oneOf(['jpg', 'png'], { default: 'jpg', description: 'File format; jpg at quality 92 by default.' })),
    allowHosts: opt(arr(str(), { description: 'Hosts beyond the built-in allowlist: example.org exactly, *.example.org its subdomains.' })),
    baseRevision: BR,
  }),
  output: written({
    assets: arr(ref('Asset'), { description: 'The captured asset (one twin per theme).' }),
    details: arr(ref('Asset'), { description: 'The detail crop assets, <id>-detail-<n>.' }),
    files: arr(str(), { description: 'Files written, workspace-relative.' }),
    fetched: int({ minimum: 0, description: 'Distinct URLs the server fetched for the page through the guard.' }),
    blocked: int({ minimum: 0, description: 'Distinct requests aborted: hosts outside the allowlist, other schemes, WebSockets.' }),
    blockedHosts: arr(str(), { description: 'The hosts of the blocked requests.' }),
    failed: int({ minimum: 0, description: 'Distinct requests to allowed hosts not delivered: not GET, refused by the guard, not a success, over a cap.' }),
  }),
  cli: 'asset capture <url> --theme <theme> --scale <scale> --recipe <recipe> --region <region>',
  mcp: 'deck_asset_capture',
  annotations: { fetches: true },
  example: { url: 'https://example.com/pricing', theme: 'both', scale: 2, region: [0, 0, 1440, 900], baseRevision: 0 },
  run: async (ctx, input: CaptureInput) => {
    const { recipeOf, parseAllowHosts, capturePage, DEFAULT_VIEWPORT } = await import('../../media/capture.js')
    // Everything the input can get wrong is refused before the network or the browser is touched.
    const viewport = (input.viewport ?? DEFAULT_VIEWPORT) as [number, number]
    const scale = input.scale ?? 1
    const format = input.format ?? 'jpg'
    recipeOf(input.recipe)
    const allowHosts = parseAllowHosts(input.allowHosts ?? [])
    if (input.region) checkBox(input.region, viewport, '/region')
    const details = input.details ?? []
    details.forEach((box, i) => checkBox(box, viewport, `/details/${i}`))
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    const id = input.id ?? (await slugOfUrl(input.url))
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail('invalid_input', `"${id}" is not an asset id (a slug).`, { pointer: '/id' })
    const { deckAssetIds } = await import('../../model/assets.js')
    const taken = deckAssetIds(ctx.ws, deckId, new Map(), [], [])
    const ids = [id, ...details.map((_, i) => `${id}-detail-${i + 1}`)]
    if (ids.some((one) => one.length > 120)) fail('invalid_input', `The detail ids "${ids[ids.length - 1]}" would be longer than the 120 characters of an asset id; choose a shorter id.`, { pointer: '/id' })
    for (const [i, one] of ids.entries()) if (taken.has(one)) fail('id_taken', `Deck "${deckId}" already has an asset "${one}".`, { pointer: i === 0 ? '/id' : `/details/${i - 1}` })
    const { checkUrl } = await import('../../net/guarded-fetch.js')
    checkUrl(input.url)

    const themes = input.theme === 'both' ? (['light', 'dark'] as const) : ([input.theme] as const)
    const shotScale = details.length ? 2 : scale
    const outcome = await capturePage({
      url: input.url,
      themes: [...themes],
      viewport,
      scale: shotScale as 1 | 2,
      recipe: input.recipe ?? 'default',
      settleMs: input.settleMs,
      allowHosts,
      onTheme: (done, total) => ctx.progress(done, total, 'themes captured'),
    })

    const { default: sharp } = await import('sharp')
    const encode = (image: import('sharp').Sharp) => (format === 'jpg' ? image.flatten({ background: '#ffffff' }).jpeg({ quality: 92, mozjpeg: true }) : image.png({ compressionLevel: 9 }))
    const folder = `decks/${deckId}/assets`
    const fileOf = (assetId: string, theme: string) => (theme === 'light' ? `${assetId}.${format}` : `${assetId}.${theme}.${format}`)
    const files: string[] = []
    const host = new URL(outcome.finalUrl).host
    const alt = input.alt ?? `Page capture of ${host}${outcome.title ? `: ${outcome.title}` : ''}`
    const source = { ...(outcome.title ? { title: outcome.title } : {}), sourceUrl: input.url }
    const capture = {
      url: input.url,
      ...(outcome.finalUrl !== input.url ? { finalUrl: outcome.finalUrl } : {}),
      viewport,
      scale,
      ...(input.region ? { region: input.region } : {}),
      recipe: input.recipe ?? 'default',
      ...(input.settleMs !== undefined ? { settleMs: input.settleMs } : {}),
      capturedAt: new Date().toISOString(),
      fetched: outcome.fetched,
      blocked: outcome.blocked,
      ...(outcome.blockedHosts.length ? { blockedHosts: outcome.blockedHosts } : {}),
    }

    /** Stages one asset's theme twins from the shots, each cropped to `box` and scaled to `outScale`; answers its record. */
    const stageAsset = async (assetId: string, box: Box | undefined, outScale: number, extra: Record<string, unknown>) => {
      const themeFiles: Record<string, string> = {}
      let first: { width: number; height: number; digest: string; file: string } | undefined
      for (const shot of outcome.shots) {
        const full = await sharp(shot.png).metadata()
        const crop = pixels(box ?? [0, 0, viewport[0], viewport[1]], shot.scale, full.width!, full.height!)
        let image = sharp(shot.png).extract(crop)
        if (outScale !== shot.scale) image = image.resize({ width: Math.round((crop.width * outScale) / shot.scale), height: Math.round((crop.height * outScale) / shot.scale), fit: 'fill' })
        const { data, info } = await encode(image).toBuffer({ resolveWithObject: true })
        const name = fileOf(assetId, shot.theme)
        ctx.stageFile(`${folder}/${name}`, data)
        files.push(`${folder}/${name}`)
        themeFiles[shot.theme] = name
        first ??= { width: info.width, height: info.height, digest: createHash('sha256').update(data).digest('hex'), file: name }
      }
      const record = {
        id: assetId,
        ...extra,
        source,
        file: first!.file,
        format,
        width: first!.width,
        height: first!.height,
        digest: first!.digest,
        twins: Object.values(themeFiles),
        themes: themeFiles,
      }
      ctx.stageFile(`${folder}/${assetId}.json`, canonicalJson(record))
      files.push(`${folder}/${assetId}.json`)
      return record
    }

    const asset = await stageAsset(id, input.region, scale, { role: input.role ?? 'capture', alt, capture })
    const detailAssets: Record<string, unknown>[] = []
    for (const [i, box] of details.entries()) {
      const detailId = `${id}-detail-${i + 1}`
      detailAssets.push(await stageAsset(detailId, box, 2, { role: 'detail', alt: `Detail ${i + 1} of ${alt}`, detail: { of: id, region: box, scale: 2 } }))
    }
    // The deck's revision moves with the files (one commit).
    ctx.stage(deckId, cloneDoc(doc))
    return (docs: Map<string, import('../../model/deck.js').DeckDoc | null>) => ({
      assets: [asset],
      details: detailAssets,
      files,
      fetched: outcome.fetched,
      blocked: outcome.blocked,
      blockedHosts: outcome.blockedHosts,
      failed: outcome.failed,
      revision: docs.get(deckId)!.manifest.revision,
    })
  },
  human: (r: { assets: { id: string; width: number; height: number; twins: string[] }[]; details: unknown[]; blocked: number; blockedHosts: string[] }) =>
    `Captured ${r.assets[0].id} (${r.assets[0].width} × ${r.assets[0].height}; ${r.assets[0].twins.join(', ')})` +
    (r.details.length ? `, ${r.details.length} detail crop${r.details.length === 1 ? '' : 's'}` : '') +
    `; ${r.blocked} request${r.blocked === 1 ? '' : 's'} blocked${r.blockedHosts.length ? ` (${r.blockedHosts.join(', ')})` : ''}`,
})
