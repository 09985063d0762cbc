/** Entry of the bundled CLI (dist/cli.js): oclif over the explicit command record. */
import { execute } from '@oclif/core'
export { COMMANDS } from '../commands/index.js'

export async function main(binUrl: string): Promise<void> {
  await execute({ dir: binUrl })
}
