/**
 * A generated command's line without oclif: its flags and arguments as plain descriptions (which
 * src/transports/cli/commands.ts turns into oclif's), the input a parsed line maps to, and the parse
 * a cold start uses for a command line it is sure of (Node's `util.parseArgs`).
 *
 * oclif's config load and its code cost a cold command as much as our own (issue 22), so a command
 * line of a generated command that parses plainly runs without them. Anything else (`--help`, a
 * hand-written command, a line oclif reads differently or refuses) goes to oclif, which answers it
 * as it always has. test/unit/transports/line.unit.test.ts holds the two parses to the same result.
 */
import { parseArgs } from 'node:util'
import type { Action } from '../../core/action.js'
import { coerce, flagField, kebab, parseForm, properties, stdinField, type Form } from './form.js'

/** One flag of a command, as oclif's `Flags.boolean` / `Flags.string` will declare it. */
export interface FlagSpec {
  kind: 'boolean' | 'string'
  description: string
  char?: string
  multiple?: boolean
  /** A boolean that takes `--no-<name>` for false. */
  allowNo?: boolean
  helpGroup?: string
}

/** Flags every command takes. */
export const GLOBAL_FLAGS: Readonly<Record<string, FlagSpec>> = {
  json: { kind: 'boolean', description: 'Print the result (or the error) as JSON on stdout.', helpGroup: 'GLOBAL' },
  deck: { kind: 'string', description: 'Deck id; the workspace default when absent.', helpGroup: 'GLOBAL' },
  author: { kind: 'string', description: 'Author of the change (a name or agent:<runId>); default: STUDIO_AUTHOR, else git\'s user.name and user.email, else the local user.', helpGroup: 'GLOBAL' },
  force: { kind: 'boolean', description: 'Write to a slide another author leased.', helpGroup: 'GLOBAL' },
  rev: { kind: 'string', description: 'baseRevision: the revision you read; default: the current one (read now).', helpGroup: 'GLOBAL' },
  root: { kind: 'string', description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.', helpGroup: 'GLOBAL' },
  input: { kind: 'string', description: "The whole input as JSON ('-' reads it from stdin); flags and arguments override its members.", helpGroup: 'GLOBAL' },
}

/** A generated command's line: its form, its positional arguments in order, and its flags by name. */
export interface CommandLine {
  form: Form
  args: { name: string; description: string }[]
  flags: Record<string, FlagSpec>
}

/** The arguments and flags of the command generated for an action with a CLI form. */
export function commandLine(action: Action): CommandLine {
  const form = parseForm(action.cli!)
  const props = properties(action.input)
  const required = new Set((action.input.required as string[] | undefined) ?? [])
  const flags: Record<string, FlagSpec> = { ...GLOBAL_FLAGS }
  const covered = new Set<string>(['baseRevision'])
  const args = form.args.map((arg) => {
    arg.fields.forEach((f) => covered.add(f))
    // Never required for oclif: --input may carry the field, and the validator names what is missing.
    const needed = arg.fields.some((f) => required.has(f))
    return { name: arg.name, description: `${needed ? '(required) ' : ''}${arg.fields.map((f) => (props[f]?.description as string) ?? f).join(' # ')}` }
  })
  const stdin = stdinField(form, props, action.stdinField)
  if (stdin) covered.add(stdin)
  for (const flag of form.flags) {
    if (flag.name === 'json') continue
    const field = flagField(flag, props)
    if (field) covered.add(field)
    const description = (field && (props[field]?.description as string)) || (flag.pair ? `${flag.pair[0]}=${flag.pair[1]}` : flag.placeholder ?? flag.name)
    const char = flag.char ? { char: flag.char } : {}
    flags[flag.name] = flag.pair
      ? { kind: 'string', description, ...char, multiple: true }
      : { kind: flag.placeholder !== undefined ? 'string' : 'boolean', description, ...char }
  }
  for (const [field, schema] of Object.entries(props)) {
    if (covered.has(field) || flags[kebab(field)]) continue
    const description = (schema.description as string) ?? field
    flags[kebab(field)] = schema.type === 'boolean' ? { kind: 'boolean', description, allowNo: true } : { kind: 'string', description }
  }
  return { form, args, flags }
}

/** A command line's arguments and flags as oclif's parse answers them. */
export interface ParsedLine {
  args: Record<string, string>
  flags: Record<string, string | boolean | string[]>
}

/**
 * The command line (after the command's words) parsed as oclif would, or undefined when oclif might
 * read it otherwise or refuse it: `--help` or `-h`, `--`, a flag given twice, grouped short flags, a
 * value after a list flag (oclif's list flags take every word that follows), more words than the
 * command has arguments, anything `parseArgs` refuses (an unknown flag, a missing value, a value that
 * looks like a flag). The caller then runs oclif, which answers with its own message.
 */
export function parseLine(line: CommandLine, argv: readonly string[]): ParsedLine | undefined {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--')) return undefined
  const options: Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }> = Object.create(null)
  const negated = new Map<string, string>()
  for (const [name, flag] of Object.entries(line.flags)) {
    options[name] = { type: flag.kind, ...(flag.char ? { short: flag.char } : {}), ...(flag.multiple ? { multiple: true } : {}) }
    if (flag.allowNo) negated.set(`no-${name}`, name)
  }
  for (const [no] of negated) {
    if (options[no]) return undefined
    options[no] = { type: 'boolean' }
  }
  let tokens
  try {
    tokens = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true, tokens: true }).tokens
  } catch {
    return undefined
  }
  const args: Record<string, string> = {}
  const flags: Record<string, string | boolean | string[]> = {}
  const seen = new Set<string>()
  const indexes = new Set<number>()
  let positional = 0
  let listGiven = false
  for (const token of tokens) {
    if (token.kind === 'option-terminator') return undefined
    if (indexes.has(token.index)) return undefined
    indexes.add(token.index)
    if (token.kind === 'positional') {
      if (listGiven || positional >= line.args.length) return undefined
      args[line.args[positional++].name] = token.value
      continue
    }
    // `-xvalue` and `-x=value`: oclif's reading of the second is its own.
    if (token.inlineValue && !token.rawName.startsWith('--')) return undefined
    const name = negated.get(token.name) ?? token.name
    const flag = line.flags[name]
    if (!flag.multiple && seen.has(name)) return undefined
    seen.add(name)
    if (flag.multiple) {
      listGiven = true
      ;((flags[name] ??= []) as string[]).push(token.value!)
    } else flags[name] = flag.kind === 'boolean' ? !negated.has(token.name) : token.value!
  }
  return { args, flags }
}

/** The generic field-for-field input of a parsed command line. */
export function genericInput(action: Action, form: Form, argv: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const props = properties(action.input)
  const input: Record<string, unknown> = {}
  for (const arg of form.args) {
    const raw = argv[arg.name]
    if (raw === undefined) continue
    if (arg.fields.length === 1) input[arg.fields[0]] = coerce(String(raw), props[arg.fields[0]])
    else {
      const text = String(raw)
      const cut = text.indexOf('#')
      const parts = cut < 0 ? [text] : [text.slice(0, cut), text.slice(cut + 1)]
      arg.fields.forEach((field, i) => {
        if (parts[i] !== undefined && parts[i] !== '') input[field] = coerce(parts[i], props[field])
      })
    }
  }
  for (const flag of form.flags) {
    const field = flagField(flag, props)
    const value = given[flag.name]
    if (!field || value === undefined) continue
    if (flag.placeholder === undefined) {
      if (value === true) input[field] = flag.name.startsWith('no-') ? false : props[field]?.const !== undefined ? props[field].const : true
    } else input[field] = coerce(String(value), props[field])
  }
  for (const [field, schema] of Object.entries(props)) {
    const value = given[kebab(field)]
    if (value === undefined || input[field] !== undefined || form.flags.some((f) => f.name === kebab(field))) continue
    input[field] = typeof value === 'boolean' ? value : coerce(String(value), schema)
  }
  return input
}
