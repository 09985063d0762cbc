/**
 * oclif's `command_not_found` hook (package.json oclif.hooks): an unknown command is bad input, in
 * the one error shape (`invalid_input`, exit code 2; on stdout as JSON under `--json`), with the
 * nearest commands as users type them. oclif loads this file only when no command matched.
 */
import type { Hook } from '@oclif/core'
import { StudioError } from '../../core/errors.js'
import { nearestCommands } from './suggest.js'

const hook: Hook<'command_not_found'> = async function (options) {
  const argv = options.argv ?? []
  const words = [...options.id.split(':'), ...argv]
  const typed: string[] = []
  for (const word of words) {
    if (word.startsWith('-')) break
    typed.push(word)
  }
  const ids = [...options.config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]), ...options.config.topics.map((t) => t.name)]
  const suggestions = nearestCommands(typed, ids)
  const bin = options.config.bin
  // What was mistyped: the words that name a topic, and the one after them (the rest are arguments).
  let known = 0
  while (known < typed.length - 1 && options.config.findTopic(typed.slice(0, known + 1).join(':'))) known++
  const name = typed.slice(0, known + 1).join(' ')
  const message = `"${name}" is not a ${bin} command.${suggestions.length ? ` Did you mean ${suggestions.map((s) => `\`${bin} ${s}\``).join(' or ')}?` : ''} \`${bin} --help\` lists every command.`
  const failure = new StudioError('invalid_input', message, { details: { suggestions: suggestions.map((s) => `${bin} ${s}`) } })
  process.exitCode = failure.exitCode
  if (words.includes('--json')) {
    process.stdout.write(JSON.stringify(failure.toJSON(), null, 2) + '\n')
    return
  }
  process.stderr.write(`Error (${failure.code}): ${message}\n`)
}

export default hook
