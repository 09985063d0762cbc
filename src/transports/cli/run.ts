/**
 * Running one action from the command line: build the input, dispatch, print.
 *
 * `--json` prints the result, or the error shape, as JSON on stdout. Otherwise people get a short
 * rendering (chalk, honouring NO_COLOR and non-TTY) and notes on stderr. The exit code comes from
 * the error code (docs/errors.md); a check whose result reports errors (the action's
 * `reportsErrors`) prints its result and exits with FINDINGS_EXIT_CODE (or the action's `findingsExitCode`).
 */
import { readFile } from 'node:fs/promises'
import type { Action, CliParsed } from '../../core/action.js'
import { dispatch } from '../../core/engine.js'
import { fail, FINDINGS_EXIT_CODE, StudioError, toStudioError } from '../../core/errors.js'
import { keepFor, releaseKept } from '../../core/keep.js'
import { Workspace } from '../../store/workspace.js'
import { repairIfPending } from '../../store/pending.js'
import { coerce, properties, stdinField, type Form } from './form.js'
import { genericInput } from './line.js'

/** The command's stdin, whole. */
async function stdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) fail('invalid_input', 'This command reads JSON from stdin: pipe a file into it (< file.json).')
  return (await stdinBytes()).toString('utf8')
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    fail('invalid_input', `${what} is not valid JSON: ${(error as Error).message}`)
  }
}

async function buildInput(action: Action, form: Form, argv: Record<string, unknown>, given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const props = properties(action.input)
  let base: Record<string, unknown> = {}
  if (typeof given.input === 'string') {
    const text = given.input === '-' ? await readStdin() : given.input
    const value = parseJson(text, '--input')
    if (!value || typeof value !== 'object' || Array.isArray(value)) fail('invalid_input', '--input must be a JSON object.')
    base = value as Record<string, unknown>
  }
  let input = { ...base, ...genericInput(action, form, argv, given) }
  const field = stdinField(form, props, action.stdinField)
  if (field && input[field] === undefined && given.input !== '-') input[field] = parseJson(await readStdin(), `stdin (${form.stdin})`)
  if (action.cliInput) {
    const parsed: CliParsed = { flags: given, args: argv, input }
    input = await action.cliInput(parsed, stdinBytes)
  }
  if (typeof given.rev === 'string') input.baseRevision = coerce(given.rev, { type: 'integer' })
  return input
}

/**
 * Who a command line call writes as: `--author`, else `STUDIO_AUTHOR`, else git's own `user.name`
 * and `user.email` in the workspace's repository, else (principalFor) the local user. git is asked
 * only for calls that write, so a read spawns no process for it.
 */
export async function cliIdentity(ws: Workspace, action: Action, author: unknown): Promise<{ author?: string; email?: string }> {
  if (typeof author === 'string' && author.trim()) return { author }
  if (process.env.STUDIO_AUTHOR?.trim()) return { author: process.env.STUDIO_AUTHOR }
  if (!action.mutates || !action.run || ws.embedded) return {}
  const git = await ws.git.identity()
  return { ...(git.name ? { author: git.name } : {}), ...(git.email ? { email: git.email } : {}) }
}

/** Reads the guarded deck's current revision, for a CLI call that gave no --rev. */
async function currentRevision(ws: Workspace, action: Action, input: Record<string, unknown>, deck: string | undefined): Promise<number | undefined> {
  const target = action.deck ?? { kind: 'current' as const }
  let id: string | undefined
  if (target.kind === 'field') id = typeof input[target.field] === 'string' ? (input[target.field] as string) : undefined
  else if (target.kind === 'current') id = deck ?? (await ws.defaultDeckId())
  if (!id || !ws.deckExists(id)) return undefined
  const manifest = JSON.parse(await readFile(`${ws.deckDir(id)}/deck.json`, 'utf8'))
  return typeof manifest.revision === 'number' ? manifest.revision : undefined
}

export async function runAction(action: Action, form: Form, argv: Record<string, unknown>, given: Record<string, unknown>): Promise<void> {
  // One command, one browser per flag set: kept between an export's passes, closed when the command ends so the process exits.
  keepFor(Infinity)
  try {
    await runOnce(action, form, argv, given)
  } finally {
    await releaseKept()
  }
}

async function runOnce(action: Action, form: Form, argv: Record<string, unknown>, given: Record<string, unknown>): Promise<void> {
  const json = Boolean(given.json)
  const notes: string[] = []
  let spinner: { stop(): void; text: string } | undefined
  let opened: Workspace | undefined
  try {
    const input = await buildInput(action, form, argv, given)
    // `--to <to>` naming a studio (account.*, admin.*; not `slide move --to <section>`): the call goes to
    // that studio over HTTP, as its caller.
    if (typeof given.to === 'string' && form.flags.some((f) => f.name === 'to' && f.placeholder === 'to') && !('to' in properties(action.input))) {
      const result = await remoteCall(action, input, given.to, given.deck as string | undefined)
      if (json) process.stdout.write(JSON.stringify(result, null, 2) + '\n')
      else process.stdout.write(renderHuman(action, result) + '\n')
      return
    }
    // STUDIO_STORE=hosted: this process is one more instance of the hosted store (an operator's script,
    // an agent with the database's credentials): it replays the log into a replica of its own, then calls.
    const ws = process.env.STUDIO_STORE === 'hosted' ? await openHostedOnce(given.root) : Workspace.find({ root: given.root as string | undefined })
    opened = ws
    const deck = given.deck as string | undefined
    const takesRevision = 'baseRevision' in properties(action.input)
    if (action.run && takesRevision && input.baseRevision === undefined) {
      // Read the revision after any crash repair, not before (a repaired write would make it stale).
      if (!ws.embedded) notes.push(...(await repairIfPending(ws)))
      const revision = await currentRevision(ws, action, input, deck)
      if (revision !== undefined) {
        input.baseRevision = revision
        notes.push(`No --rev given: using the current revision ${revision}.`)
      }
    }
    if (!json && process.stderr.isTTY && (action.mutates || action.group === 'render') && action.run) {
      const { default: ora } = await import('ora')
      spinner = ora({ text: action.label, stream: process.stderr }).start()
    }
    const { result, notes: callNotes } = await dispatch(action, input, {
      ws,
      transport: 'C',
      deck,
      ...(await cliIdentity(ws, action, given.author)),
      force: Boolean(given.force) && !('force' in properties(action.input)),
      progress: (done, total, label) => {
        if (spinner) spinner.text = `${label} ${done}/${total}`
      },
    })
    spinner?.stop()
    notes.push(...callNotes)
    if (action.reportsErrors?.(result)) process.exitCode = action.findingsExitCode ?? FINDINGS_EXIT_CODE
    if (json) {
      process.stdout.write(JSON.stringify(result, null, 2) + '\n')
      return
    }
    const { default: chalk } = await import('chalk')
    if (process.env.NO_COLOR) chalk.level = 0
    for (const note of notes) process.stderr.write(chalk.dim(note) + '\n')
    process.stdout.write(renderHuman(action, result) + '\n')
  } catch (error) {
    spinner?.stop()
    const failure = toStudioError(error)
    process.exitCode = failure.exitCode
    if (json) {
      process.stdout.write(JSON.stringify(failure.toJSON(), null, 2) + '\n')
      return
    }
    const { default: chalk } = await import('chalk')
    if (process.env.NO_COLOR) chalk.level = 0
    process.stderr.write(`${chalk.red('Error')} ${chalk.dim(`(${failure.code})`)}: ${failure.message}\n`)
    if (failure.extra.pointer !== undefined) process.stderr.write(chalk.dim(`  at ${failure.extra.pointer || '/'}\n`))
    if (failure.code === 'stale_revision') process.stderr.write(chalk.dim(`  current revision: ${failure.extra.currentRevision} (use --json to see the current document)\n`))
  } finally {
    await opened?.store?.close()
    // A pool of the identity database on PostgreSQL (kill switches, accounts) would hold the process for its idle timeout.
    if (process.env.STUDIO_DATABASE_URL?.trim()) await (await import('../../identity/db.js')).closeIdentities()
  }
}

/** The hosted store for one command: no LISTEN, no poll (the call reads the store when it starts). */
async function openHostedOnce(root: unknown): Promise<Workspace> {
  if (root !== undefined) fail('invalid_input', 'With STUDIO_STORE=hosted there is no workspace folder: --root does not apply.', { path: 'root' })
  const { hostedOptionsFromEnv, openHosted } = await import('../../hosted/deck-store.js')
  return openHosted({ ...hostedOptionsFromEnv(), notify: false, pollMs: 0 })
}

/**
 * Sends one call to another studio (`--to <address>`): `POST <address>/api/actions/<id>` with the
 * bearer remembered for that address in ~/.config/studio/hosts.json, else STUDIO_TOKEN (an API key or
 * the deployment's bearer). Its error answer becomes ours: the same shape and exit code as a local call's.
 */
async function remoteCall(action: Action, input: Record<string, unknown>, to: string, deck: string | undefined): Promise<unknown> {
  let origin: string
  try {
    const url = new URL(to)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme')
    origin = url.origin
  } catch {
    fail('invalid_input', `--to takes a studio's address (http://host:port or https://name), not "${to}".`, { path: 'to' })
  }
  if (!action.transportSet.has('H')) fail('not_found', `${action.id} is not offered over HTTP, so not with --to.`)
  const { studioRequest, tokenFor } = await import('../../actions/deck/transfer.js')
  const token = await tokenFor(origin)
  const { body } = await studioRequest(`${origin}/api/actions/${encodeURIComponent(action.id)}${deck ? `?deck=${encodeURIComponent(deck)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(input),
  })
  const text = body.toString('utf8')
  return text ? JSON.parse(text) : null
}

function renderHuman(action: Action, result: unknown): string {
  if (action.human) return action.human(result)
  if (result === null || typeof result !== 'object') return String(result)
  const lines: string[] = []
  for (const [key, value] of Object.entries(result as Record<string, unknown>)) {
    lines.push(`${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
  }
  return lines.join('\n')
}

export { StudioError }
