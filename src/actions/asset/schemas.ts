import { arr, int, num, obj, oneOf, openObj, opt, str, SLUG, type Schema } from '../../model/schema.js'
import { DitherSchema } from '../../model/dither.js'

export const AssetId = str({ pattern: SLUG, maxLength: 120, description: 'Asset id: a slug under assets/.' })

/** The ten asset roles: six the spec shows (capture, detail, opener, mood, frame, logo) and four of ours. */
export const ASSET_ROLES = ['capture', 'detail', 'opener', 'mood', 'frame', 'logo', 'picture', 'icon', 'portrait', 'background'] as const
export const AssetRole = oneOf(ASSET_ROLES, {
  description:
    'capture (a page capture), detail (a crop of a capture), opener, mood and frame (shader frames), logo, picture (a photo or illustration), icon, portrait (a person), background (a covering slide picture).',
})

export const Plate = oneOf(['lower-left', 'lower-right', 'upper-left'], { description: 'Rectangle the two-tone metrics are screened against.' })
/** A two-tone treatment: the picture dither field's screen settings (strength aside: a treated asset is all screen). */
export const Treatment: Schema = (() => {
  const { strength: _strength, ...members } = (DitherSchema.properties ?? {}) as Record<string, Schema>
  return obj(Object.fromEntries(Object.entries(members).map(([k, v]) => [k, opt(v)])), { description: 'Two-tone treatment: pattern, tone, cell, black, white, gamma, polarity (the dither field without strength); absent members take defaults.' })
})()
export const Uniforms = openObj('Shader uniforms by name.')
export const MaterialId = str({ pattern: '^[a-z]+:[A-Za-z0-9_-]+$', description: 'Catalog id from material.list or shader.list, e.g. paper:<name>.' })
export const Backend = oneOf(['angle-metal', 'swiftshader'], { description: 'Capture browser graphics backend.' })
export const Size = arr(int({ minimum: 1 }), { minItems: 2, maxItems: 2, description: '[width, height] in pixels; long side 3200.' })
export const CssBox = arr(num(), { minItems: 4, maxItems: 4, description: 'CSS-pixel box [x, y, w, h].' })
