import { Args, Command, Flags } from '@oclif/core'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Git } from '../src/store/git.js'
import { toStudioError } from '../src/core/errors.js'

/** `studio init [dir]`: a git repository (made when there is none) with decks/, studio.json and a .gitignore for .studio/. */
export default class Init extends Command {
  static summary = 'Make a studio workspace'
  static description =
    "Creates (or completes) a workspace: a git repository holding decks/ and decks/templates/, studio.json (workspace settings) and a .gitignore entry for .studio/ (local state). Sets core.fsync so committed objects and refs reach the disk, and registers studio's git drivers as `studio git setup` does (.gitattributes: readable deck diffs, decks merged at the model level). Safe to run twice."
  static examples = ['<%= config.bin %> init my-decks', '<%= config.bin %> init --json']
  static args = { dir: Args.string({ description: 'Folder to make the workspace in (default: the working directory).', ignoreStdin: true }) }
  static flags = { json: Flags.boolean({ description: 'Print the result as JSON.' }) }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Init)
    const root = resolve(args.dir ?? '.')
    try {
      await mkdir(join(root, 'decks', 'templates'), { recursive: true })
      const created: string[] = []
      const inRepo = (() => {
        for (let dir = root; ; dir = resolve(dir, '..')) {
          if (existsSync(join(dir, '.git'))) return dir
          if (resolve(dir, '..') === dir) return null
        }
      })()
      const gitRoot = inRepo ?? root
      const git = new Git(root, gitRoot)
      if (!inRepo) {
        await git.raw(['init', '--quiet', '--initial-branch=main'])
        created.push('.git')
      }
      await git.raw(['config', 'core.fsync', 'committed'])
      const config = join(root, 'studio.json')
      if (!existsSync(config)) {
        await writeFile(config, '{}\n')
        created.push('studio.json')
      }
      const { setupGit } = await import('../src/store/git-setup.js')
      created.push(...(await setupGit(git, root)).written)
      const keep = join(root, 'decks', 'templates', '.gitkeep')
      if (!existsSync(keep)) await writeFile(keep, '')
      if (created.length) {
        const prefix = root === gitRoot ? '' : root.slice(gitRoot.length + 1) + '/'
        const paths = ['studio.json', '.gitignore', '.gitattributes', 'decks/templates/.gitkeep'].map((p) => prefix + p)
        await git.commit({ paths, added: paths, subject: 'studio init', author: process.env.STUDIO_AUTHOR || 'studio', trailers: { 'Studio-Action': 'init' } })
      }
      const result = { root, created }
      if (flags.json) this.log(JSON.stringify(result, null, 2))
      else this.log(created.length ? `Workspace ready at ${root} (created ${created.join(', ')}).\nNext: studio deck create "My deck"` : `${root} is already a workspace.`)
    } catch (error) {
      const failure = toStudioError(error)
      process.exitCode = failure.exitCode
      if (flags.json) this.log(JSON.stringify(failure.toJSON(), null, 2))
      else process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
    }
  }
}
