/**
 * oclif commands generated from the action table (explicit command strategy: a record of id →
 * class, no file-system scan). Decoding and encoding only: every rule lives in the engine.
 */
import type { Command } from '@oclif/core'
import type { Action } from '../../core/action.js'
import type { Schema } from '../../model/schema.js'
import { camel, commandId, flagField, kebab, parseForm, properties, stdinField, type Form } from './form.js'
import { COMMAND_INDEX, COMMAND_MODULES } from './command-index.js'
import { commandLine, parseLine, type CommandLine, type ParsedLine } from './line.js'
import { runAction } from './run.js'

/** oclif's classes, loaded by `prepare` (a command line that runs without oclif never loads them). */
let oclif: typeof import('@oclif/core') | undefined

/**
 * oclif, imported on demand. It is CommonJS: in the bundle a dynamic import answers its exports as
 * `default` (esbuild's interop), under tsx as named exports too.
 */
export async function loadOclif(): Promise<typeof import('@oclif/core')> {
  const mod = (await import('@oclif/core')) as typeof import('@oclif/core') & { default?: typeof import('@oclif/core') }
  return typeof mod.execute === 'function' ? mod : mod.default!
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
    // A field the example gives as a list of its plural (`<slideId>#<blockId>` for blockIds: the action's cliInput reads `s#b1,b2`).
    const keys = arg.fields.map((f) => (example[f] === undefined && arg.fields.length > 1 && Array.isArray(example[`${f}s`]) ? `${f}s` : f))
    if (keys.every((k) => example[k] !== undefined)) {
      parts.push(quote(keys.map((k) => argText(example[k])).join('#')))
      keys.forEach((k) => delete example[k])
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
    // A step with no command line (assist.propose) as the HTTP call a running `studio serve` takes.
    const command = stepAction?.cli
      ? exampleLine(stepAction, parseForm(stepAction.cli), step.input)
      : `curl -sX POST http://localhost:4321/api/actions/${step.action} -H 'content-type: application/json' -d ${quote(JSON.stringify(step.input))}`
    return `${command}  # revision ${step.revision}`
  })
  const revision = action.given[action.given.length - 1].revision
  return [`First, on a deck made by studio deck create "Quarterly review" (revision 0):\n${steps.join('\n')}`, `Then, at revision ${revision}:\n${line}`]
}

export interface BuiltCommand {
  action: Action
  form: Form
}

/** One oclif command class for an action with a CLI form (after `prepare` loaded oclif). */
export function commandFor(action: Action, line: CommandLine = commandLine(action)): typeof Command {
  if (!oclif) throw new Error('studio: oclif is not loaded (src/transports/cli/commands.ts prepare)')
  const { Args, Command, Flags } = oclif
  const { form } = line
  const args: Record<string, any> = {}
  // oclif would fill a missing argument from a piped stdin, reading all of it (git runs the
  // textconv and merge drivers inside scripts whose stdin holds their own data).
  for (const arg of line.args) args[arg.name] = Args.string({ description: arg.description, ignoreStdin: true })
  const flags: Record<string, any> = {}
  for (const [name, { kind, description, char, multiple, allowNo, helpGroup }] of Object.entries(line.flags)) {
    const common = { description, ...(char ? { char: char as any } : {}), ...(helpGroup ? { helpGroup } : {}) }
    flags[name] = kind === 'boolean' ? Flags.boolean({ ...common, ...(allowNo ? { allowNo } : {}) }) : multiple ? Flags.string({ ...common, multiple: true }) : Flags.string(common)
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
  /**
   * The action a command line runs and its parsed arguments and flags, when it names a generated
   * command and parses plainly (line.ts parseLine): it then runs without oclif. Undefined otherwise.
   */
  plain(argv: readonly string[]): Promise<({ action: Action; form: Form } & ParsedLine) | undefined>
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
  /** The command a line names: the longest run of its leading words that is a command id, as oclif reads `slide insert ...`. */
  const named = (argv: readonly string[]): { id: string; words: number } | undefined => {
    const words: string[] = []
    for (const arg of argv) {
      if (arg.startsWith('-')) break
      words.push(arg)
    }
    for (let n = words.length; n > 0; n--) {
      const id = words.slice(0, n).join(':')
      if (known(id)) return { id, words: n }
    }
    return undefined
  }
  const actionAt = async (id: string): Promise<Action> => {
    const at = COMMAND_INDEX.get(id)!
    return (await COMMAND_MODULES[at[0]]())[at[1]] as Action
  }
  async function prepare(argv: readonly string[] | 'all'): Promise<void> {
    oclif ??= await loadOclif()
    const command = argv !== 'all' && !argv.includes('--help') && !argv.includes('-h') ? named(argv) : undefined
    if (command) {
      const load = handWritten.get(command.id)
      return void (load ? built.set(command.id, await load()) : register(await actionAt(command.id)))
    }
    const [{ ACTIONS }] = await Promise.all([
      import('../../actions/index.js'),
      ...[...handWritten].map(async ([id, load]) => built.set(id, await load())),
    ])
    for (const action of ACTIONS) if (action.cli) register(action)
  }
  async function plain(argv: readonly string[]): Promise<({ action: Action; form: Form } & ParsedLine) | undefined> {
    const command = named(argv)
    if (!command || handWritten.has(command.id)) return undefined
    const action = await actionAt(command.id)
    const line = commandLine(action)
    const parsed = parseLine(line, argv.slice(command.words))
    return parsed && { action, form: line.form, ...parsed }
  }
  return { commands, prepare, plain }
}

export { camel }
