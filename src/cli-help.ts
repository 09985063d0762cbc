/**
 * oclif's help (package.json `oclif.helpClass`, bundled as dist/help.js). The build leaves the help
 * text out of oclif.manifest.json, which every start reads (a command's description, examples, and
 * the descriptions of its flags and arguments: more than half of the file); a command's help takes
 * them from its class, which `--help` has loaded (src/transports/cli/commands.ts, prepare).
 */
import { Help, type Command } from '@oclif/core'

type Described = { description?: string }

export default class StudioHelp extends Help {
  async showCommandHelp(command: Command.Loadable): Promise<void> {
    const cls = await command.load()
    command.description ??= cls.description
    command.examples ??= cls.examples
    for (const [name, flag] of Object.entries(command.flags ?? {})) (flag as Described).description ??= (cls.flags?.[name] as Described | undefined)?.description
    for (const [name, arg] of Object.entries(command.args ?? {})) (arg as Described).description ??= (cls.args?.[name] as Described | undefined)?.description
    return super.showCommandHelp(command)
  }
}
