/**
 * What the shader and material actions share: the deck's palette presets, the stills of the
 * gallery, and the output schemas of a catalogue entry.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ActionContext } from '../../core/action.js'
import { packageRoot } from '../../store/workspace.js'
import type { DeckDoc } from '../../model/deck.js'
import { arr, bool, int, num, obj, oneOf, openObj, opt, str, type Schema } from '../../model/schema.js'
import type { MaterialEntry, Preset } from '../../media/shaders.js'

/**
 * The deck a read names (`--deck`, `?deck=`, else the workspace's default), or undefined when there
 * is none: the catalogue answers without one, with Simple's palette standing in for a brand kit.
 */
export async function namedDeck(ctx: ActionContext): Promise<DeckDoc | undefined> {
  try {
    return await ctx.load(await ctx.deckId())
  } catch {
    return undefined
  }
}

export async function deckPresets(ctx: ActionContext, doc?: DeckDoc): Promise<Preset[]> {
  const { presetsFor } = await import('../../media/shaders.js')
  const deck = doc ?? (await namedDeck(ctx))
  return presetsFor(deck?.manifest)
}

/** Where the gallery's stills live in the package (scripts/shader-stills.ts draws them). */
export const STILLS_DIR = 'docs/images/shaders'

/** The still files of an entry that the package holds, package-relative. */
export function stillsOf(entry: MaterialEntry): string[] {
  const file = `${STILLS_DIR}/${entry.name}.webp`
  return existsSync(join(packageRoot(), file)) ? [file] : []
}

const UniformSchemaMember: Schema = openObj('JSON Schema of one uniform: type, minimum, maximum, default (or enum, items), the GLSL uniform it sets (`uniform`, null for speed) and its GLSL type, the palette role of a colour, and a description.')

export const PresetSchema: Schema = obj({
  name: str({ description: 'The preset name shader.insert, shader.render and material.capture take.' }),
  label: str(),
  source: oneOf(['catalog', 'brand'], { description: "catalog: a fixed palette; brand: computed from the deck's theme and brand kit." }),
  uniforms: openObj("The entry's colour uniforms under this palette, with its defaults: the preset's resolved uniforms before controls."),
})

export const materialMembers = {
  id: str({ pattern: '^paper:[a-z0-9-]+$', description: 'paper:<name>.' }),
  name: str({ description: 'Display name.' }),
  category: oneOf(['gradient', 'flow', 'pattern', 'light', 'texture'], { description: 'Its category chip.' }),
  sentence: str({ description: 'What it draws, in one sentence.' }),
  animated: bool({ description: 'False for the still materials, where speed and the anchor change nothing.' }),
  anchor: num({ minimum: 0, description: 'The frame time a still takes when none is named, ms.' }),
  uniforms: { type: 'object', additionalProperties: UniformSchemaMember, description: 'Uniform schema by name (stored without the u_ prefix).' },
  presets: arr(PresetSchema, { description: "Palette presets: the fixed palettes, then brand, brand-dark and brand-accent from the deck's brand kit." }),
}

export const ControlSchema: Schema = obj({
  name: str(),
  label: str(),
  min: num(),
  max: num(),
  step: num(),
  neutral: opt(num({ description: 'The value that changes nothing; absent for blend, intensity and grain (their position comes from the preset).' })),
  sentence: str({ description: 'What the control does, in one sentence.' }),
  drives: str({ description: 'The uniforms it writes.' }),
})

export const CategorySchema: Schema = obj({ id: str(), label: str(), sentence: str(), count: int({ minimum: 0, description: 'Entries in the chip.' }) })
