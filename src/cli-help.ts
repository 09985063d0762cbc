/**
 * The help text of a command, taken from its class. The build leaves it out of oclif.manifest.json,
 * which every start reads (a command's description, examples, and the descriptions of its flags and
 * arguments: more than half of the file). oclif shows help from the manifest's copy of a command, on
 * `--help` and after a command line it cannot parse; both go through Help.showCommandHelp, which
 * this fills in first from the class (`--help` loaded every class, a parse error its own one).
 */
import { Help, type Command } from '@oclif/core'

type Described = { description?: string }

export function helpTextFromClasses(): void {
  const show = Help.prototype.showCommandHelp
  Help.prototype.showCommandHelp = async function (this: Help, command: Command.Loadable): Promise<void> {
    const cls = await command.load()
    command.description ??= cls.description
    command.examples ??= cls.examples
    for (const [name, flag] of Object.entries(command.flags ?? {})) (flag as Described).description ??= (cls.flags?.[name] as Described | undefined)?.description
    for (const [name, arg] of Object.entries(command.args ?? {})) (arg as Described).description ??= (cls.args?.[name] as Described | undefined)?.description
    return show.call(this, command)
  }
}
