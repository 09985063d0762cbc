import { Command, Flags } from '@oclif/core'
import { toStudioError } from '../src/core/errors.js'
import { Workspace } from '../src/store/workspace.js'

/** `studio git setup`: registers the diff and merge drivers in an existing repository (`studio init` does it for new ones). */
export default class GitSetup extends Command {
  static summary = "Register studio's git drivers in this repository"
  static description =
    "Writes the workspace's .gitattributes lines (deck JSON diffs as slide text; deck.json, slide files and versions.json merged by `studio merge driver`) and .studio/ into .gitignore, and sets the drivers in the repository's own git config (per clone: run it once after cloning). Commit the .gitattributes it writes. Safe to run twice."
  static examples = ['<%= config.bin %> git setup', "<%= config.bin %> git setup --command 'npx studio'"]
  static flags = {
    command: Flags.string({ description: 'How git starts studio (default: studio when it is on the PATH, else node and this studio\'s bin, absolute).' }),
    json: Flags.boolean({ description: 'Print the result as JSON.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(GitSetup)
    try {
      const ws = Workspace.find({ root: flags.root })
      ws.refuseEmbeddedWrite('studio git setup')
      const { setupGit } = await import('../src/store/git-setup.js')
      const result = await setupGit(ws.git, ws.root, flags.command)
      if (flags.json) process.stdout.write(JSON.stringify({ root: ws.root, ...result }, null, 2) + '\n')
      else {
        const lines = [`git drivers set in ${ws.git.gitRoot}/.git/config: diff.studio (readable deck diffs), merge.studio (decks merged at the model level).`]
        lines.push(result.written.length ? `Wrote ${result.written.join(' and ')}: commit ${result.written.length === 1 ? 'it' : 'them'} (git add ${result.written.join(' ')} && git commit).` : '.gitattributes already names the drivers.')
        process.stdout.write(lines.join('\n') + '\n')
      }
    } catch (error) {
      const failure = toStudioError(error)
      process.exitCode = failure.exitCode
      if (flags.json) process.stdout.write(JSON.stringify(failure.toJSON(), null, 2) + '\n')
      else process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
    }
  }
}
