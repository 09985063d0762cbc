/**
 * The CLI form of an action, parsed from the string the spec writes (`block set <slideId>#<blockId>
 * <path> <value>`), and the generic mapping between command-line values and input fields.
 *
 * A placeholder names the input field it fills; a composite `<a>#<b>` fills two; a boolean flag
 * fills the field of its camel-cased name (`--include-trashed` → includeTrashed, `--no-versions` →
 * versions false); `< file.json` reads a JSON value from stdin into the field named like the file.
 * Input fields the form does not mention get a `--kebab-case` flag of their own, so every field is
 * reachable. Forms that do not map field for field declare `cliInput` on the action.
 */
import type { Schema } from '../../model/schema.js'

export interface FormArg {
  /** Placeholder text as written, e.g. `slideId#blockId`. */
  name: string
  /** Input fields it fills, in order (two for `<a>#<b>`). */
  fields: string[]
}

export interface FormFlag {
  name: string
  char?: string
  /** The placeholder after the flag (`--to <to>` → 'to'); absent for a boolean flag. */
  placeholder?: string
  /** `--set <pointer>=<value>`: the two halves. */
  pair?: [string, string]
  /** The flag was written in brackets (`[--dry-run]`). */
  optional?: boolean
}

export interface Form {
  path: string[]
  args: FormArg[]
  flags: FormFlag[]
  /** The file name after `<` (`slide.json`), when the form reads stdin. */
  stdin?: string
}

const WORD = /^[a-z][a-z0-9-]*$/

export function parseForm(cli: string): Form {
  const tokens = cli.trim().split(/\s+/)
  const form: Form = { path: [], args: [], flags: [] }
  let i = 0
  while (i < tokens.length && WORD.test(tokens[i])) form.path.push(tokens[i++])
  for (; i < tokens.length; i++) {
    let token = tokens[i]
    let optional = false
    if (token.startsWith('[') && token.endsWith(']')) {
      optional = true
      token = token.slice(1, -1)
    }
    if (token === '<') {
      form.stdin = tokens[++i]
      continue
    }
    if (token.startsWith('-')) {
      const long = token.startsWith('--')
      const flag: FormFlag = long ? { name: token.slice(2) } : { name: token.slice(1), char: token.slice(1) }
      if (optional) flag.optional = true
      const next = tokens[i + 1]
      if (next && next.startsWith('<') && next !== '<') {
        i++
        const pair = /^<([^>]+)>=<([^>]+)>$/.exec(next)
        if (pair) flag.pair = [pair[1], pair[2]]
        else flag.placeholder = next.replace(/^<|>$/g, '')
      }
      form.flags.push(flag)
      continue
    }
    if (token.startsWith('<')) {
      const fields = [...token.matchAll(/<([^>]+)>/g)].map((m) => m[1])
      form.args.push({ name: fields.join('#'), fields })
      continue
    }
    throw new Error(`Cannot read CLI form "${cli}" at "${token}"`)
  }
  return form
}

/** The oclif command id (`deck:create`) of a form. */
export function commandId(form: Form): string {
  return form.path.join(':')
}

export function camel(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

export function kebab(camelName: string): string {
  return camelName.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}

function branches(schema: Schema): Schema[] {
  return (schema.anyOf as Schema[] | undefined) ?? (schema.oneOf as Schema[] | undefined) ?? [schema]
}

function isType(schema: Schema, type: string): boolean {
  return branches(schema).some((b) => b.type === type || (type === 'boolean' && typeof b.const === 'boolean'))
}

/** A command-line string as the value the schema expects; values the schema refuses stay as given, for the validator to name. */
export function coerce(raw: string, schema: Schema | undefined): unknown {
  if (!schema) return raw
  const looksJson = /^\s*[[{"]/.test(raw) || /^(true|false|null|-?\d+(\.\d+)?([eE][-+]?\d+)?)$/.test(raw)
  if (isType(schema, 'array')) {
    const consts = branches(schema).filter((b) => b.const !== undefined).map((b) => b.const)
    if (consts.includes(raw)) return raw
    if (raw.trim().startsWith('[')) return parseOr(raw)
    const items = (branches(schema).find((b) => b.type === 'array')?.items as Schema | undefined) ?? {}
    return raw.split(',').map((part) => coerce(part.trim(), items))
  }
  if (isType(schema, 'object')) return parseOr(raw)
  if (isType(schema, 'integer') || isType(schema, 'number')) {
    if (isType(schema, 'string') && !/^-?\d/.test(raw)) return raw
    const n = Number(raw)
    return raw.trim() !== '' && Number.isFinite(n) ? n : raw
  }
  if (isType(schema, 'boolean')) return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw
  if (Array.isArray(schema.enum)) {
    if ((schema.enum as unknown[]).includes(raw)) return raw
    const n = Number(raw)
    return (schema.enum as unknown[]).includes(n) ? n : raw
  }
  if (isType(schema, 'string')) return raw
  // An `unknown` value: JSON when it reads as JSON, otherwise the string itself.
  return looksJson ? parseOr(raw) : raw
}

function parseOr(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/** The input schema's properties. */
export function properties(schema: Schema): Record<string, Schema> {
  return (schema.properties as Record<string, Schema> | undefined) ?? {}
}

/** Which input field a form flag fills, if any. */
export function flagField(flag: FormFlag, props: Record<string, Schema>): string | undefined {
  if (flag.pair) return undefined
  if (flag.placeholder && props[flag.placeholder]) return flag.placeholder
  const name = camel(flag.name)
  if (props[name]) return name
  if (flag.name.startsWith('no-') && props[camel(flag.name.slice(3))]) return camel(flag.name.slice(3))
  return undefined
}

/** The field stdin fills: declared, else the file name's stem when it is a field. */
export function stdinField(form: Form, props: Record<string, Schema>, declared?: string): string | undefined {
  if (declared) return declared
  if (!form.stdin) return undefined
  const stem = form.stdin.replace(/\.[a-z]+$/, '')
  return props[stem] ? stem : undefined
}
