/**
 * The oclif target (explicit strategy): commands generated from the table plus the hand-written ones,
 * each loaded only when its command line runs (src/transports/cli/commands.ts).
 */
import { commandTable } from '../src/transports/cli/commands.js'

const table = commandTable({
  init: async () => (await import('./init.js')).default,
  mcp: async () => (await import('./mcp.js')).default,
  review: async () => (await import('./review.js')).default,
  serve: async () => (await import('./serve.js')).default,
  actions: async () => (await import('./actions.js')).ActionsList,
  'actions:show': async () => (await import('./actions.js')).ActionsShow,
  'git:setup': async () => (await import('./git.js')).default,
  'merge:driver': async () => (await import('./merge.js')).MergeDriver,
  'merge:status': async () => (await import('./merge.js')).MergeStatus,
  'merge:resolve': async () => (await import('./merge.js')).MergeResolve,
  autocomplete: async () => (await import('./autocomplete.js')).Autocomplete,
  'autocomplete:script': async () => (await import('./autocomplete.js')).AutocompleteScript,
  'autocomplete:create': async () => (await import('./autocomplete.js')).AutocompleteCreate,
})

export const COMMANDS = table.commands
export const prepareCommands = table.prepare
export const plainCommand = table.plain
