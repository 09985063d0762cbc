import { Args, Command, Flags } from '@oclif/core'
import { ACTIONS, findAction } from '../src/actions/index.js'
import { describeAction } from '../src/core/action.js'

/** `studio actions`: the live map of the action table. */
export class ActionsList extends Command {
  static summary = 'List the action table'
  static description = 'Every action with its group, milestone, transports, CLI form, MCP tool and whether it is implemented. --json prints the full descriptions.'
  static examples = ['<%= config.bin %> actions', '<%= config.bin %> actions --group deck --json']
  static flags = {
    json: Flags.boolean({ description: 'Print the descriptions as a JSON array.' }),
    group: Flags.string({ description: 'Only this group.' }),
    implemented: Flags.boolean({ description: 'Only implemented actions.', allowNo: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(ActionsList)
    const rows = ACTIONS.filter((a) => (!flags.group || a.group === flags.group) && (flags.implemented === undefined || a.implemented === flags.implemented))
    if (flags.json) {
      process.stdout.write(JSON.stringify(rows.map(describeAction), null, 2) + '\n')
      return
    }
    const done = rows.filter((a) => a.implemented).length
    for (const a of rows) this.log(`${a.implemented ? '✓' : '·'} ${a.id.padEnd(28)} ${a.milestone.padEnd(4)} ${[...a.transportSet].join('').padEnd(5)} ${a.cli ? `studio ${a.cli.split(' <')[0].split(' --')[0]}` : ''}`)
    this.log(`${done} of ${rows.length} implemented`)
  }
}

export class ActionsShow extends Command {
  static summary = 'Describe one action'
  static description = 'The description GET /api/actions/{id} serves: id, label, doc, group, mutates, transports, milestone, implemented, input and output JSON Schema, cli, mcp, example.'
  static examples = ['<%= config.bin %> actions show deck.create --json']
  static args = { id: Args.string({ description: 'Action id, e.g. deck.create.', required: true, ignoreStdin: true }) }
  static flags = { json: Flags.boolean({ description: 'Print as JSON (the default output is JSON too).' }) }

  async run(): Promise<void> {
    const { args } = await this.parse(ActionsShow)
    const action = findAction(args.id)
    if (!action) {
      process.exitCode = 3
      process.stdout.write(JSON.stringify({ status: 404, code: 'not_found', message: `No action "${args.id}".` }, null, 2) + '\n')
      return
    }
    process.stdout.write(JSON.stringify(describeAction(action), null, 2) + '\n')
  }
}
