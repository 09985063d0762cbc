/**
 * Entry of `studio merge driver` without oclif (dist/merge-driver.js): git starts the driver once per
 * deck file both sides changed, so its start-up is paid per file. bin/studio.js comes here when the
 * command line is exactly `merge driver %O %A %B %P`; anything else goes through the CLI.
 */
import { runMergeDriver } from './history/merge-driver.js'

export async function main(args: string[]): Promise<void> {
  const [base, ours, theirs, path] = args
  const result = await runMergeDriver({ base, ours, theirs, path, gitRoot: process.cwd() })
  if (result.refused) process.stderr.write(`studio: refused to merge ${JSON.stringify(path).slice(1, -1)}: ${result.refused}; ours is kept (see studio merge status)\n`)
  else if (result.exitCode && result.mode !== 'text') {
    const count = result.conflicts.length
    process.stderr.write(`studio: ${count ? `${count} deck conflict${count === 1 ? '' : 's'}` : 'a slide kept under a new id'} in ${path}; see studio merge status\n`)
  }
  process.exitCode = result.exitCode
}
