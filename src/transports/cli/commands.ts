/**
 * oclif commands generated from the action table (explicit command strategy: a record of id →
 * class, no file-system scan). Decoding and encoding only: every rule lives in the engine.
 */
import { Args, Command, Flags } from '@oclif/core'
import type { Action } from '../../core/action.js'
import type { Schema } from '../../model/schema.js'
import { camel, coerce, commandId, flagField, kebab, parseForm, properties, stdinField, type Form } from './form.js'
import { COMMAND_INDEX, COMMAND_MODULES } from './command-index.js'
import { runAction } from './run.js'

/** Flags every command takes. */
export const GLOBAL_FLAGS = {
  json: Flags.boolean({ description: 'Print the result (or the error) as JSON on stdout.', helpGroup: 'GLOBAL' }),
  deck: Flags.string({ description: 'Deck id; the workspace default when absent.', helpGroup: 'GLOBAL' }),
  author: Flags.string({ description: 'Author of the change (a name or agent:<runId>); default: STUDIO_AUTHOR, else git\'s user.name and user.email, else the local user.', helpGroup: 'GLOBAL' }),
  force: Flags.boolean({ description: "Write to a slide another author leased.", helpGroup: 'GLOBAL' }),
  rev: Flags.string({ description: 'baseRevision: the revision you read; default: the current one (read now).', helpGroup: 'GLOBAL' }),
  root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.', helpGroup: 'GLOBAL' }),
  input: Flags.string({ description: "The whole input as JSON ('-' reads it from stdin); flags and arguments override its members.", helpGroup: 'GLOBAL' }),
}

function describeSchema(schema: Schema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ')
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(describeSchema).join(' | ')
  if (schema.type === 'array') return `${describeSchema((schema.items as Schema) ?? {})}[]`
  return typeof schema.type === 'string' ? schema.type : 'any'
}

/** Help text: the doc, then every input field with its type, and where else the action lives. */
function helpDescription(action: Action): string {
  const props = properties(action.input)
  const required = new Set((action.input.required as string[] | undefined) ?? [])
  const lines = [action.doc, '', 'Inputs:']
  for (const [name, schema] of Object.entries(props)) {
    const text = typeof schema.description === 'string' ? `  ${schema.description}` : ''
    lines.push(`  ${name}${required.has(name) ? '' : '?'}: ${describeSchema(schema)}${text}`)
  }
  if (!Object.keys(props).length) lines.push('  (none)')
  lines.push('', `Action ${action.id} (${action.milestone}${action.implemented ? '' : ', not implemented yet: answers 501'})` +
    `${action.mcp ? `; MCP tool ${action.mcp}` : ''}${action.transportSet.has('H') ? `; POST /api/actions/${action.id}` : ''}.`)
  return lines.join('\n')
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return /^[A-Za-z0-9_./:@=,#-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

/** One example value as an argument: a list comma-joined, an object as JSON, never `[object Object]`. */
const argText = (value: unknown): string =>
  Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)

/** The action's example (or another input of it) as a command line. */
export function exampleLine(action: Action, form: Form, input: Record<string, unknown> = action.example): string {
  const props = properties(action.input)
  const example = { ...input }
  const parts = ['<%= config.bin %>', ...form.path]
  for (const arg of form.args) {
    if (arg.fields.every((f) => example[f] !== undefined)) {
      parts.push(quote(arg.fields.map((f) => argText(example[f])).join('#')))
      arg.fields.forEach((f) => delete example[f])
    }
  }
  const stdin = stdinField(form, props, action.stdinField)
  let stdinValue: unknown
  if (stdin && example[stdin] !== undefined) {
    stdinValue = example[stdin]
    delete example[stdin]
  }
  const rev = example.baseRevision
  delete example.baseRevision
  for (const flag of form.flags) {
    const field = flagField(flag, props)
    if (!field || example[field] === undefined) continue
    const value = example[field]
    delete example[field]
    if (flag.placeholder === undefined) {
      if (value === true || (flag.name.startsWith('no-') && value === false)) parts.push(`--${flag.name}`)
      continue
    }
    parts.push(`--${flag.name}`, quote(Array.isArray(value) ? value.join(',') : value))
  }
  for (const [field, value] of Object.entries(example)) {
    if (typeof value === 'boolean') parts.push(value ? `--${kebab(field)}` : `--no-${kebab(field)}`)
    else parts.push(`--${kebab(field)}`, quote(Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(',') : value))
  }
  if (rev !== undefined) parts.push('--rev', String(rev))
  let line = parts.join(' ')
  if (stdinValue !== undefined) line = `echo ${quote(JSON.stringify(stdinValue))} | ${line}`
  return line
}

/** The actions loaded so far, by id: after `prepare` for help, the whole table (a given step names its action). */
const loaded = new Map<string, Action>()

/**
 * The help's examples: the action's example as a command line and, when it needs what a new deck
 * lacks, first its given steps as command lines, each with the revision it leaves.
 */
export function exampleLines(action: Action, lookup: (id: string) => Action | undefined = (id) => loaded.get(id)): string[] {
  const line = exampleLine(action, parseForm(action.cli!))
  if (!action.given?.length) return [line]
  const steps = action.given.map((step) => {
    const stepAction = lookup(step.action)
    const command = stepAction?.cli ? exampleLine(stepAction, parseForm(stepAction.cli), step.input) : `${step.action} ${JSON.stringify(step.input)}`
    return `${command}  # revision ${step.revision}`
  })
  const revision = action.given[action.given.length - 1].revision
  return [`First, on a deck made by studio deck create "Quarterly review" (revision 0):\n${steps.join('\n')}`, `Then, at revision ${revision}:\n${line}`]
}

export interface BuiltCommand {
  action: Action
  form: Form
}

/** One oclif command class for an action with a CLI form. */
export function commandFor(action: Action): typeof Command {
  const form = parseForm(action.cli!)
  const props = properties(action.input)
  const required = new Set((action.input.required as string[] | undefined) ?? [])
  const flags: Record<string, any> = { ...GLOBAL_FLAGS }
  const args: Record<string, any> = {}
  const covered = new Set<string>(['baseRevision'])

  for (const arg of form.args) {
    arg.fields.forEach((f) => covered.add(f))
    const schema = props[arg.fields[0]]
    // Never required for oclif: --input may carry the field, and the validator names what is missing.
    const needed = arg.fields.some((f) => required.has(f))
    args[arg.name] = Args.string({
      description: `${needed ? '(required) ' : ''}${arg.fields.map((f) => (props[f]?.description as string) ?? f).join(' # ')}`,
      // oclif would fill a missing argument from a piped stdin, reading all of it (git runs the
      // textconv and merge drivers inside scripts whose stdin holds their own data).
      ignoreStdin: true,
    })
  }
  const stdin = stdinField(form, props, action.stdinField)
  if (stdin) covered.add(stdin)
  for (const flag of form.flags) {
    if (flag.name === 'json') continue
    const field = flagField(flag, props)
    if (field) covered.add(field)
    const description = (field && (props[field]?.description as string)) || (flag.pair ? `${flag.pair[0]}=${flag.pair[1]}` : flag.placeholder ?? flag.name)
    flags[flag.name] = flag.placeholder !== undefined || flag.pair
      ? flag.pair
        ? Flags.string({ description, char: flag.char as any, multiple: true })
        : Flags.string({ description, char: flag.char as any })
      : Flags.boolean({ description, char: flag.char as any })
  }
  for (const [field, schema] of Object.entries(props)) {
    if (covered.has(field) || flags[kebab(field)]) continue
    const description = (schema.description as string) ?? field
    flags[kebab(field)] = schema.type === 'boolean' ? Flags.boolean({ description, allowNo: true }) : Flags.string({ description })
  }

  class GeneratedCommand extends Command {
    static summary = action.label
    static description = helpDescription(action)
    static get examples() {
      return exampleLines(action)
    }
    static aliases = action.cliAliases ?? []
    static flags = flags
    static args = args
    static strict = true

    async run(): Promise<void> {
      const { args: argv, flags: given } = await this.parse(GeneratedCommand)
      await runAction(action, form, argv as Record<string, unknown>, given as Record<string, unknown>)
    }

    /** A command line oclif cannot parse is bad input: with --json it answers in the one error shape. */
    async catch(error: Error & { oclif?: { exit?: number } }): Promise<void> {
      if (!this.argv.includes('--json') || error.oclif?.exit === 0) throw error
      process.exitCode = 2
      process.stdout.write(JSON.stringify({ status: 400, code: 'invalid_input', message: error.message.replace(/\n\s*See more help with --help/, '') }, null, 2) + '\n')
    }
  }
  return GeneratedCommand
}

/** The oclif target and what fills it before oclif starts. */
export interface CommandTable {
  /** Command id → class (the explicit strategy's record), for the commands `prepare` loaded. */
  commands: Record<string, typeof Command>
  /**
   * Loads what a command line runs: the one module declaring its action (COMMAND_INDEX), or its
   * hand-written command; the whole table for anything else (help, a topic, an unknown id), which
   * oclif then lists from oclif.manifest.json. 'all' loads everything (the build writes the manifest).
   */
  prepare(argv: readonly string[] | 'all'): Promise<void>
}

/**
 * The commands of the action table plus the hand-written ones (`extra`, each loaded on demand). A
 * read imports only its own action's module: the rest of the table (its output schemas, help
 * text, other actions' code) is never evaluated.
 */
export function commandTable(extra: Record<string, () => Promise<typeof Command>>): CommandTable {
  const handWritten = new Map(Object.entries(extra))
  const actions = new Map<string, Action>()
  const built = new Map<string, typeof Command>()
  const known = (id: string) => handWritten.has(id) || COMMAND_INDEX.has(id)
  const get = (id: string) => {
    let cls = built.get(id)
    if (cls) return cls
    const action = actions.get(id)
    if (action) built.set(id, (cls = commandFor(action)))
    else if (known(id)) throw new Error(`studio: command ${id} was not loaded before oclif asked for it (src/transports/cli/commands.ts prepare)`)
    return cls
  }
  const register = (action: Action) => {
    loaded.set(action.id, action)
    actions.set(commandId(parseForm(action.cli!)), action)
  }
  const commands = new Proxy({} as Record<string, typeof Command>, {
    get: (_, id) => (typeof id === 'string' ? get(id) : undefined),
    has: (_, id) => typeof id === 'string' && known(id),
    // Every command once `prepare('all')` ran (the build writes oclif.manifest.json from them).
    ownKeys: () => [...actions.keys(), ...handWritten.keys()],
    getOwnPropertyDescriptor: (_, id) => (typeof id === 'string' && known(id) ? { enumerable: true, configurable: true, value: get(id) } : undefined),
  })
  async function prepare(argv: readonly string[] | 'all'): Promise<void> {
    if (argv !== 'all' && !argv.includes('--help') && !argv.includes('-h')) {
      const words: string[] = []
      for (const arg of argv) {
        if (arg.startsWith('-')) break
        words.push(arg)
      }
      // The longest run of leading words that names a command, as oclif reads `slide insert ...`.
      for (let n = words.length; n > 0; n--) {
        const id = words.slice(0, n).join(':')
        const load = handWritten.get(id)
        if (load) return void built.set(id, await load())
        const at = COMMAND_INDEX.get(id)
        if (at) return void register((await COMMAND_MODULES[at[0]]())[at[1]] as Action)
      }
    }
    const [{ ACTIONS }] = await Promise.all([
      import('../../actions/index.js'),
      ...[...handWritten].map(async ([id, load]) => built.set(id, await load())),
    ])
    for (const action of ACTIONS) if (action.cli) register(action)
  }
  return { commands, prepare }
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

export { camel }
