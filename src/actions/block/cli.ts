/**
 * Helpers for `cliInput` hooks of forms that are not field-for-field: flags that fill a nested
 * object (`--left` → `trim.left`), `<slideId>#<blockId>` forms of actions taking `blockIds`, and
 * switches such as `--off`. They read whichever of input, flags or args the parser filed a name in.
 */
import type { CliParsed } from '../../core/action.js'

type Fields = Record<string, unknown>

/** The value the command line gave for a name (placeholder or long flag), if any. */
export function given(parsed: CliParsed, name: string): unknown {
  return parsed.input[name] ?? parsed.flags[name] ?? parsed.args[name]
}

/** A numeric string as a number; anything else unchanged. */
export function numeric(value: unknown): unknown {
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value
}

/** A copy without the members whose value is undefined. */
export function defined(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
}

/** The generic input without the names a hook moves elsewhere. */
export function without(input: Fields, names: readonly string[]): Fields {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !names.includes(key)))
}

/** Collects named flags into one object; undefined when none was given. */
export function gather(parsed: CliParsed, names: readonly string[], rename: Record<string, string> = {}, asNumbers = true): Fields | undefined {
  const out: Fields = {}
  for (const name of names) {
    const value = given(parsed, name)
    if (value !== undefined) out[rename[name] ?? name] = asNumbers ? numeric(value) : value
  }
  return Object.keys(out).length ? out : undefined
}

const NUMBER = '-?\\d+(?:\\.\\d+)?'
const RANGE = new RegExp(`^\\s*\\[?\\s*(${NUMBER})\\s*(?:,|-|\\s)\\s*(${NUMBER})\\s*\\]?\\s*$`)

/**
 * `3,9`, `3-9`, `3 9` or `[3,9]` as `[3, 9]`. Signs are kept (`-1,3` is [-1, 3], which the schema
 * then refuses like the JSON form); other values are unchanged, for the validator to name.
 */
export function range(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const match = RANGE.exec(value)
  return match ? [Number(match[1]), Number(match[2])] : value
}

/**
 * For `<slideId>#<blockId>` forms whose input is `blockIds`: the block becomes the list
 * (`freeform-4#b1,b2` names two).
 */
export function targetAsList(parsed: CliParsed, moved: readonly string[] = []): Fields {
  const blockId = parsed.input.blockId ?? parsed.args.blockId
  const rest = without(parsed.input, ['blockId', ...moved])
  if (blockId === undefined || rest.blockIds !== undefined) return rest
  return { ...rest, blockIds: typeof blockId === 'string' ? blockId.split(',').map((id) => id.trim()).filter(Boolean) : [blockId] }
}
