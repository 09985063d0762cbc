/**
 * `studio autocomplete [bash|zsh|powershell]`: shell completion, from @oclif/plugin-autocomplete.
 * Its command classes run here as hand-written commands instead of as an oclif plugin: oclif reads a
 * listed plugin's package.json and manifest at every start of every command, and completion should
 * cost the other commands nothing. The package exports only lib/index.js, so the classes are imported
 * by their files; the build bundles them (with ejs) into a chunk only these commands load.
 *
 * The plugin writes the completion functions (bash, zsh, PowerShell) from the commands oclif knows,
 * which come from oclif.manifest.json; the build leaves the flags' descriptions out of that file
 * (every start reads it), so before writing, the descriptions are put back from the command classes
 * for zsh and PowerShell to show beside each flag.
 */
import type { Command } from '@oclif/core'
import Create from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js'
import Index from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js'
import Script from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js'

type Described = { description?: string; summary?: string }

/** Fills the manifest's commands (what the plugin reads) with their flags' descriptions, from every command's class. */
async function describeFlags(config: Command['config']): Promise<void> {
  const { prepareCommands } = await import('./index.js')
  await prepareCommands('all')
  const root = config.getPluginsList().find((p) => p.root === config.root)
  for (const command of root?.commands ?? []) {
    const cls = await command.load()
    for (const [name, flag] of Object.entries(command.flags ?? {})) (flag as Described).description ??= (cls.flags?.[name] as Described | undefined)?.description
  }
}

export class AutocompleteCreate extends Create {
  async run(): Promise<void> {
    await describeFlags(this.config)
    await super.run()
  }
}

/** The setup instructions (or, with --refresh-cache, only the rebuilt completion files). */
export class Autocomplete extends Index {
  static summary = 'Shell completion: setup instructions for bash, zsh or PowerShell'
  static description =
    'Writes the completion functions for bash, zsh and PowerShell into studio\'s cache folder ($XDG_CACHE_HOME/studio/autocomplete, else ~/.cache/studio/autocomplete) and prints how to load them from your shell\'s start-up file. Run it again with --refresh-cache after updating studio, so new commands and flags complete.'
  static examples = ['<%= config.bin %> autocomplete bash', '<%= config.bin %> autocomplete zsh', '<%= config.bin %> autocomplete powershell', '<%= config.bin %> autocomplete --refresh-cache']

  async run(): Promise<void> {
    await describeFlags(this.config)
    await super.run()
  }
}

export { Script as AutocompleteScript }
