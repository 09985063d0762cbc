/**
 * Entry of the bundled CLI (dist/cli.js): a generated command whose line parses plainly runs at once
 * (src/transports/cli/line.ts); anything else goes to oclif, over the explicit command record.
 */
import { prepareCommands, plainCommand } from '../commands/index.js'
import { loadOclif } from './transports/cli/commands.js'
import { runAction } from './transports/cli/run.js'
export { COMMANDS, prepareCommands } from '../commands/index.js'

export async function main(binUrl: string): Promise<void> {
  const argv = process.argv.slice(2)
  const plain = await plainCommand(argv)
  if (plain) {
    try {
      return await runAction(plain.action, plain.form, plain.args, plain.flags)
    } catch (error) {
      // What oclif does with an error a command throws (runAction answers its own; this is a bug's).
      const { handle } = await loadOclif()
      return handle(error as Error)
    }
  }
  const [{ execute }, { helpTextFromClasses }] = await Promise.all([loadOclif(), import('./cli-help.js')])
  helpTextFromClasses()
  // Only the command this line runs is imported (its action's module), before oclif looks it up.
  await prepareCommands(argv)
  await execute({ dir: binUrl })
}
