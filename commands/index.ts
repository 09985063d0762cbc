/** The oclif target (explicit strategy): commands generated from the table plus the hand-written ones. */
import type { Command } from '@oclif/core'
import { generatedCommands } from '../src/transports/cli/commands.js'
import { ActionsList, ActionsShow } from './actions.js'
import Init from './init.js'

export const COMMANDS: Record<string, typeof Command> = generatedCommands({
  init: Init,
  actions: ActionsList,
  'actions:show': ActionsShow,
})
