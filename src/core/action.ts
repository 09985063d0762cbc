/**
 * The declaration of one action: data first, code last.
 *
 * Every transport (CLI, MCP, HTTP, page) reads these declarations; nothing about an action is
 * written twice. An action without `run` is declared but not built: every transport answers 501
 * and its description says `implemented: false`.
 */
import { BaseTag, type Schema } from '../model/schema.js'
import type { DeckDoc } from '../model/deck.js'
import type { Workspace } from '../store/workspace.js'
import type { Principal } from './principal.js'
import type { Capability } from './access.js'
import type { Caller } from '../identity/caller.js'

export type TransportLetter = 'C' | 'M' | 'H' | 'P'
export type Milestone = 'M1' | 'M2' | 'M3' | 'M4' | 'M5' | 'M6' | 'M7' | 'M8' | 'M9' | 'M10'

/** Which deck an action guards with its baseRevision and locks while it runs. */
export type DeckTarget =
  | { kind: 'current'; guard?: false } // the deck named by --deck / ?deck= / the default deck (guard false: locked, its baseRevision not compared: comment writes)
  | { kind: 'field'; field: string } // an input field names the deck (deck.trash `id`)
  | { kind: 'none' } // no existing deck is guarded (deck.create, template.list)

export interface ActionSpec<I = any, O = any, P = any> {
  id: string
  label: string
  doc: string
  group: string
  milestone: Milestone
  mutates: boolean
  transports: string
  input: Schema
  /**
   * The result as JSON Schema (src/model/results.ts): a closed object of typed members, with `revision`
   * on every mutating action; shared documents (slides, blocks, the deck) travel as `$defs`.
   */
  output: Schema
  /** The CLI form exactly as the spec writes it, after `studio`; null where the spec gives none. */
  cli: string | null
  /** The MCP tool name exactly as the spec writes it; null where the action has no MCP tool. */
  mcp: string | null
  /**
   * An input that works as written on a new user's deck (`studio deck create "Quarterly review"`:
   * quarterly-review at revision 0, slide title-1 in section main) after the `given` steps; its
   * baseRevision is the revision the last step leaves.
   */
  example: Record<string, unknown>
  /** The calls that make what the example needs and a new deck lacks (src/actions/given.ts), in order. */
  given?: GivenStep[]
  /** Which deck this action guards; defaults to the current deck when it mutates with a baseRevision. */
  deck?: DeckTarget
  /**
   * What the caller's role must allow (src/core/access.ts); the engine refuses 403 otherwise. `null`:
   * no capability on a deck (the caller's own account, an access request), the action checks its own rule.
   */
  capability?: Capability | null
  /**
   * The input field naming the deck whose access decides the call, where the action locks no deck
   * (share.* name theirs with `id`); defaults to `id` in the share group.
   */
  accessField?: string
  /** Extra lock keys held for the whole call (e.g. `template-<slug>`), beside the guarded deck's. */
  locks?: (input: I) => string[] | Promise<string[]>
  /** What the action does beyond `mutates`, as facts; the MCP tool hints derive from them (`toolAnnotations`). */
  annotations?: ActionFacts
  /** Turns parsed CLI flags and arguments into the input object where the form is not field-for-field (`stdin` reads the command's stdin whole). */
  cliInput?: (parsed: CliParsed, stdin: () => Promise<Buffer>) => Record<string, unknown> | Promise<Record<string, unknown>>
  /** Human rendering of the result for the CLI (without --json). */
  human?: (result: O) => string
  /**
   * For a check (validate, lint): true when its result reports errors a CI gate should stop on. The
   * call still succeeds everywhere (HTTP 200, MCP result); the CLI prints the result and exits with
   * FINDINGS_EXIT_CODE (docs/errors.md).
   */
  reportsErrors?: (result: O) => boolean
  /** The CLI exit code when `reportsErrors` holds, where the spec fixes one (`studio fonts build --check`: 1); FINDINGS_EXIT_CODE when absent. */
  findingsExitCode?: number
  /** Short command forms beside `cli` (deck.push is also `studio push`), as oclif ids (`push`). */
  cliAliases?: string[]
  /** Where stdin (`< file.json`) lands; inferred from the form's file name when absent. */
  stdinField?: string
  /**
   * Slow work on the input (reading, fetching, decoding, sanitizing a file handed in: src/media/codec.ts)
   * that needs no lock: the engine runs it before it takes the deck's lock and hands its answer to
   * `run` as `prepared`. It stages nothing; a deck it reads is read again under the lock.
   */
  prepare?: (ctx: ActionContext, input: I) => Promise<P> | P
  run?: (ctx: ActionContext, input: I, prepared: P) => Promise<O> | O
}

export interface Action<I = any, O = any, P = any> extends ActionSpec<I, O, P> {
  transportSet: ReadonlySet<TransportLetter>
  implemented: boolean
}

/** One call made before an example: an action, its input, and the deck's revision after it. */
export interface GivenStep {
  action: string
  input: Record<string, unknown>
  revision: number
}

/**
 * What an action does beyond committing (`mutates`), declared once. MCP's tool hints derive from
 * these (src/transports/mcp/server.ts `toolAnnotations`), and test/e2e/mcp-annotations.e2e.test.ts
 * holds every tool's hints against them.
 */
export interface ActionFacts {
  /** Removes or overwrites what the caller may want back: trash, remove, replace, a whole section list, a version restore. Undoing one (restore from the trash) is not. */
  destructive?: boolean
  /** A second identical call changes nothing more; a read is idempotent unless it says otherwise. */
  idempotent?: boolean
  /**
   * Writes files outside a deck commit: `true` on every call (renders, exports, builds, crash repair),
   * which makes the tool not read-only though it commits nothing; `'on request'` only when an input
   * asks for it (diff's `render` crops, a shader render's `out`), so its plain call stays a read.
   */
  writes?: boolean | 'on request'
  /** Reaches out of the machine: fetches a URL of its input or of a configured catalogue, or captures a web page (MCP openWorldHint). */
  fetches?: boolean
}

/** Parsed command-line values handed to `cliInput`: flags by their long name, args by placeholder. */
export interface CliParsed {
  flags: Record<string, unknown>
  args: Record<string, unknown>
  /** The input built by the generic field-for-field mapping, for hooks that only adjust it. */
  input: Record<string, unknown>
}

/**
 * A language model the caller's side offers (MCP sampling of a connected client): a system prompt and
 * a user message in, the model's text out.
 */
export type Assistant = (request: { system: string; user: string; maxTokens: number }) => Promise<{ text: string; model?: string }>

/** What a handler sees. Reads are direct; writes are staged and committed by the engine. */
export interface ActionContext {
  readonly action: Action
  readonly ws: Workspace
  readonly principal: Principal
  readonly transport: TransportLetter
  readonly force: boolean
  /** The tab that made a window-transport call (its `X-Studio-Client`); undefined on other transports. */
  readonly clientId?: string
  /** Who the request is, as the transport's edge authenticated it, where the studio has accounts; undefined on a checkout. */
  readonly caller?: Caller
  /** The deck the call names (query `deck`, `--deck`), else the workspace default. */
  deckId(): Promise<string>
  /** A language model the transport can reach for this call (an MCP client offering sampling), if any. */
  assistant(): Assistant | undefined
  /** Loads a deck as it is on disk now (inside the lock when the action mutates). */
  load(deckId: string): Promise<DeckDoc>
  /** The guarded deck, loaded once under the lock. */
  target(): Promise<DeckDoc>
  /**
   * Stages a deck document to be written; `null` removes the deck folder. The engine sets the
   * revision (current + 1, or the staged one for a new deck) and the stamps, unless `preserve` is
   * set (a bundle arriving as it was packed). `create` makes the commit refuse (id_taken) when a
   * deck of that id appeared meanwhile.
   */
  stage(deckId: string, doc: DeckDoc | null, options?: { preserve?: boolean; create?: boolean }): void
  /** Stages a raw file copy inside the workspace (assets, templates). */
  stageCopy(fromRel: string, toRel: string): void
  /**
   * Stages a file write (relative to the workspace root) or removal (`null`); `{ move }` names a
   * checked file on the same file system (a bundle entry under `.studio/tmp/`) renamed into place.
   */
  stageFile(rel: string, content: string | Buffer | { move: string } | null): void
  /** Stages removal of a whole folder (relative to the workspace root). */
  stageRemoveDir(rel: string): void
  /** Adds a trailer to the commit this call makes (`Studio-Thread: t-…`), beside the engine's own. */
  trailer(name: string, value: string): void
  /** Runs after a successful commit (the engine hands over the new revision; awaited before the call answers). */
  after(fn: (committed: { revision?: number; commit?: string }) => void | Promise<void>): void
  /** Runs when the call ends, committed or refused (temporary files of the call). */
  cleanup(fn: () => Promise<unknown> | void): void
  /** Reports progress of a long call (a person may be watching; nothing is printed with --json). */
  progress(done: number, total: number, label: string): void
  /**
   * A machine path named in the input (`pointer` names the field). On the CLI it is resolved against
   * the working directory and may be anywhere. Over a network transport (HTTP, MCP, the page) it is
   * resolved against the workspace root and must stay inside the workspace with every symbolic link
   * followed, else 403 `forbidden`. `shown` is how messages name it: workspace-relative over a network
   * transport, so no absolute server path reaches the caller.
   */
  inputPath(path: string, pointer: string): Promise<{ abs: string; shown: string }>
  /**
   * A file or folder an action writes outside a commit (renders, builds, bundles, crops). As
   * `inputPath`, and on every transport an output landing inside the workspace must stay out of what
   * git, the engine and studio own: the root, `decks/`, `templates/`, `studio.json`, any `.git`,
   * `.gitattributes`, `.gitignore` or `.gitmodules` component, and `.studio/` outside its output
   * folders (render, export, build, diff): 403 `forbidden`. The file itself is then opened through
   * src/store/safe-open.ts, which follows no link.
   */
  outputPath(path: string, pointer: string): Promise<{ abs: string; shown: string }>
}

/** Transports a remote caller uses: what they name on the machine is confined to the workspace. */
export const NETWORK_TRANSPORTS: ReadonlySet<TransportLetter> = new Set(['H', 'M', 'P'])

const TRANSPORT_LETTERS = new Set(['C', 'M', 'H', 'P'])

/** Declares an action; the table refuses duplicates and malformed declarations when it is built. */
export function defineAction<I = any, O = any, P = any>(spec: ActionSpec<I, O, P>): Action<I, O, P> {
  const letters = [...spec.transports]
  for (const letter of letters) {
    if (!TRANSPORT_LETTERS.has(letter)) throw new Error(`${spec.id}: unknown transport letter ${letter}`)
  }
  if (!/^[a-z]+(\.[a-z][A-Za-z]*)+$/.test(spec.id)) throw new Error(`${spec.id}: action ids are <group>.<name>`)
  if (spec.mcp !== null && !letters.includes('M')) throw new Error(`${spec.id}: an MCP name without the M transport`)
  if (spec.cli !== null && !letters.includes('C')) throw new Error(`${spec.id}: a CLI form without the C transport`)
  const properties = spec.input.properties as Record<string, Schema> | undefined
  // Beside every baseRevision, the optional baseTag (the revision guard's version tag).
  const input = properties?.baseRevision && !properties.baseTag ? { ...spec.input, properties: { ...properties, baseTag: BaseTag } } : spec.input
  return {
    ...spec,
    capability: spec.capability !== undefined ? spec.capability : defaultCapability(spec),
    accessField: spec.accessField ?? (spec.group === 'share' ? 'id' : undefined),
    input,
    transportSet: new Set(letters as TransportLetter[]),
    implemented: typeof spec.run === 'function',
  }
}

/**
 * The capability an action needs where it declares none: the admin group's is admin; the account
 * group's is none (the caller's own record: each action checks its own rule); a share write needs
 * share; any other write needs write, any other read read (docs/access.md lists every action's).
 */
function defaultCapability(spec: Pick<ActionSpec, 'group' | 'mutates'>): Capability | null {
  if (spec.group === 'admin') return 'admin'
  if (spec.group === 'account') return null
  if (spec.group === 'share') return spec.mutates ? 'share' : 'read'
  return spec.mutates ? 'write' : 'read'
}

/** The description served by `studio actions show` and `GET /api/actions/{id}`. */
export function describeAction(action: Action) {
  return {
    id: action.id,
    label: action.label,
    doc: action.doc,
    group: action.group,
    mutates: action.mutates,
    transports: [...action.transportSet],
    milestone: action.milestone,
    implemented: action.implemented,
    input: action.input,
    output: action.output,
    cli: action.cli === null ? null : `studio ${action.cli}`,
    mcp: action.mcp,
    given: action.given ?? [],
    example: action.example,
  }
}
