/** The oclif target (explicit strategy): commands generated from the table plus the hand-written ones. */
import type { Command } from '@oclif/core'
import { generatedCommands } from '../src/transports/cli/commands.js'
import { ActionsList, ActionsShow } from './actions.js'
import GitSetup from './git.js'
import Init from './init.js'
import Mcp from './mcp.js'
import { MergeDriver, MergeResolve, MergeStatus } from './merge.js'
import Review from './review.js'
import Serve from './serve.js'

export const COMMANDS: Record<string, typeof Command> = generatedCommands({
  init: Init,
  mcp: Mcp,
  review: Review,
  serve: Serve,
  actions: ActionsList,
  'actions:show': ActionsShow,
  'git:setup': GitSetup,
  'merge:driver': MergeDriver,
  'merge:status': MergeStatus,
  'merge:resolve': MergeResolve,
})
