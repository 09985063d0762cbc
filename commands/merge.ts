import { Args, Command, Flags } from '@oclif/core'
import { fail, toStudioError } from '../src/core/errors.js'
import { Workspace } from '../src/store/workspace.js'

function report(error: unknown, json: boolean | undefined): void {
  const failure = toStudioError(error)
  process.exitCode = failure.exitCode
  if (json) process.stdout.write(JSON.stringify(failure.toJSON(), null, 2) + '\n')
  else process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
}

/**
 * `studio merge driver %O %A %B %P`: git's merge driver for deck files (src/history/merge-driver.ts).
 * git runs it; people do not. Exit 0: merged cleanly; 1: conflicts recorded, ours on disk.
 * bin/studio.js runs it without oclif (src/merge-driver-entry.ts); this class keeps it in the
 * command list and serves forms the fast path does not take.
 */
export class MergeDriver extends Command {
  static hidden = true
  static summary = "git's merge driver for deck files"
  static description =
    'Run by git (registered by `studio git setup`): merges one deck file three ways at the model level, writes the result into the ours file and exits 0, or 1 when conflicts remain (recorded in .studio/merge/conflicts.json).'
  static args = {
    base: Args.string({ description: "%O: the base version's temporary file.", required: true, ignoreStdin: true }),
    ours: Args.string({ description: '%A: ours; the result is written here.', required: true, ignoreStdin: true }),
    theirs: Args.string({ description: "%B: theirs' temporary file.", required: true, ignoreStdin: true }),
    path: Args.string({ description: "%P: the file's path in the repository.", required: true, ignoreStdin: true }),
  }

  async run(): Promise<void> {
    const { args } = await this.parse(MergeDriver)
    const { main } = await import('../src/merge-driver-entry.js')
    await main([args.base, args.ours, args.theirs, args.path])
  }
}

export class MergeStatus extends Command {
  static summary = 'The deck conflicts of the merge in progress'
  static description =
    'Lists, in prose, every deck conflict the merge driver recorded for the merge (or rebase, cherry-pick) in progress: where it is, what each side has, and whether it is settled; the notes of the merge (slides kept under a new id); and the files still to git add.'
  static examples = ['<%= config.bin %> merge status', '<%= config.bin %> merge status --json']
  static flags = {
    json: Flags.boolean({ description: 'Print the status as JSON.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(MergeStatus)
    try {
      const ws = Workspace.find({ root: flags.root })
      const { mergeStatus } = await import('../src/history/merge-status.js')
      const status = await mergeStatus(ws)
      process.stdout.write(flags.json ? JSON.stringify(status, null, 2) + '\n' : status.text)
    } catch (error) {
      report(error, flags.json)
    }
  }
}

export class MergeResolve extends Command {
  static summary = 'Settle one deck conflict'
  static description =
    "Settles one conflict `studio merge status` lists (by number or id): the place takes ours' value (--ours), theirs' (--theirs) or the JSON given (--value). The deck's files are rewritten canonical and valid (refused, writing nothing, if the choice would break the model). Then git add and git commit finish the merge."
  static examples = [
    '<%= config.bin %> merge resolve 1 --theirs',
    "<%= config.bin %> merge resolve quarterly-review:deck/title --value '\"Q3 review\"'",
  ]
  static args = { conflict: Args.string({ description: 'The conflict: its number in `studio merge status`, or its id.', required: true, ignoreStdin: true }) }
  static flags = {
    ours: Flags.boolean({ description: "Take ours' value.", exclusive: ['theirs', 'value'] }),
    theirs: Flags.boolean({ description: "Take theirs' value.", exclusive: ['ours', 'value'] }),
    value: Flags.string({ description: 'Take this value (JSON: a string in double quotes, a number, an object...).', exclusive: ['ours', 'theirs'] }),
    json: Flags.boolean({ description: 'Print the result as JSON.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MergeResolve)
    try {
      const ws = Workspace.find({ root: flags.root })
      ws.refuseEmbeddedWrite('studio merge resolve')
      let choice: { with: 'ours' | 'theirs' } | { with: 'value'; value: unknown }
      if (flags.value !== undefined) {
        try {
          choice = { with: 'value', value: JSON.parse(flags.value) }
        } catch {
          fail('invalid_input', `--value takes JSON (a text in double quotes: '"Q3 review"'); ${JSON.stringify(flags.value)} is not JSON.`, { pointer: '/value' })
        }
      } else if (flags.ours) choice = { with: 'ours' }
      else if (flags.theirs) choice = { with: 'theirs' }
      else fail('invalid_input', 'Say how to settle it: --ours, --theirs or --value <json>.')
      const { resolveConflict } = await import('../src/history/merge-status.js')
      const result = await resolveConflict(ws, args.conflict, choice)
      process.stdout.write(flags.json ? JSON.stringify(result, null, 2) + '\n' : result.text)
    } catch (error) {
      report(error, flags.json)
    }
  }
}
