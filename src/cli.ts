/** Entry of the bundled CLI (dist/cli.js): oclif over the explicit command record. */
import { execute } from '@oclif/core'
import { helpTextFromClasses } from './cli-help.js'
import { prepareCommands } from '../commands/index.js'
export { COMMANDS, prepareCommands } from '../commands/index.js'

export async function main(binUrl: string): Promise<void> {
  helpTextFromClasses()
  // Only the command this line runs is imported (its action's module), before oclif looks it up.
  await prepareCommands(process.argv.slice(2))
  await execute({ dir: binUrl })
}
