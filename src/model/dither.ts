/**
 * The dither field of a picture (docs/model.md#pictures): the deck's two-tone screen over the
 * picture's continuous source, non-destructive. Absent members take the defaults below; the
 * screening itself is src/media/dither.ts, its variants src/media/variants.ts.
 */
import { num, obj, oneOf, opt, type Schema } from './schema.js'

/** The model's dither field (docs/model.md#pictures), every member optional. */
export interface DitherField {
  pattern?: 'bayer8' | 'bayer4' | 'blue64' | 'random'
  tone?: 'two' | 'three' | 'original'
  cell?: 1 | 2 | 3 | 4
  strength?: number
  black?: number
  white?: number
  gamma?: number
  polarity?: 'normal' | 'inverted'
}

export type ResolvedDither = Required<DitherField>

export const DITHER_DEFAULTS: ResolvedDither = { pattern: 'bayer8', tone: 'two', cell: 2, strength: 1, black: 0, white: 1, gamma: 1, polarity: 'normal' }

/** The field with every absent member at its default (members outside the field are dropped). */
export function resolveDither(field: Record<string, unknown> | DitherField | undefined): ResolvedDither {
  const out = { ...DITHER_DEFAULTS }
  for (const key of Object.keys(DITHER_DEFAULTS) as (keyof ResolvedDither)[]) {
    const value = (field as Record<string, unknown> | undefined)?.[key]
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[key] = value
  }
  return out
}

/** The deck's two-tone screen over a picture's continuous source; absent members take the deck's treatment. */
export const DitherSchema: Schema = obj(
  {
    pattern: opt(oneOf(['bayer8', 'bayer4', 'blue64', 'random'], { description: 'Screen pattern; bayer8 when absent.' })),
    tone: opt(oneOf(['two', 'three', 'original'], { description: 'Tones of the screen; two when absent.' })),
    cell: opt(oneOf([1, 2, 3, 4], { description: 'Sheet pixels per cell; 2 when absent.' })),
    strength: opt(num({ minimum: 0, maximum: 1, description: 'How strongly the screen replaces the source, 0 to 1.' })),
    black: opt(num({ minimum: 0, maximum: 1, description: 'Black point: source tones below it print as ink, 0 to 1.' })),
    white: opt(num({ minimum: 0, maximum: 1, description: 'White point: source tones above it print as paper, 0 to 1.' })),
    gamma: opt(num({ minimum: 0.1, maximum: 5, description: 'Gamma applied to the source before screening.' })),
    polarity: opt(oneOf(['normal', 'inverted'], { description: 'normal prints dark tones as ink; inverted swaps ink and paper.' })),
  },
  { description: 'Two-tone screen settings (pattern, tone, cell, strength, black, white, gamma, polarity); absent members take defaults.' },
)


/** The rule JSON Schema cannot say: the black point lies below the white point. */
export function ditherIssue(field: DitherField): { pointer: string; message: string } | undefined {
  const { black, white } = resolveDither(field)
  if (black >= white) return { pointer: '/black', message: `black point ${black} is not below white point ${white}` }
  return undefined
}
