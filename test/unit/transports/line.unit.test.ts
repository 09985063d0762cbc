import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Parser } from '@oclif/core'
import { ACTIONS } from '../../../src/actions/index.js'
import type { Action } from '../../../src/core/action.js'
import { commandTable, exampleLine } from '../../../src/transports/cli/commands.js'
import { commandLine, parseLine, type CommandLine } from '../../../src/transports/cli/line.js'

const table = commandTable({})
await table.prepare('all')
const CLI = ACTIONS.filter((a) => a.cli)

/** The words of a command line as a POSIX shell splits them (single quotes, `'\''`), after `echo … |`. */
function words(line: string): string[] {
  const out: string[] = []
  let word: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '\\') word = (word ?? '') + line[++i]
    else if (c === ' ') {
      if (word !== undefined) out.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (word !== undefined) out.push(word)
  const pipe = out.indexOf('|')
  return pipe < 0 ? out : out.slice(pipe + 1)
}

/** What oclif's own parse answers for the generated command's flags and arguments, or its refusal. */
async function oclifParse(action: Action, argv: string[]): Promise<{ args: object; flags: object } | Error> {
  const cls = table.commands[action.cli!.split(/\s+/).filter((w) => /^[a-z][a-z0-9-]*$/.test(w)).join(':')] as unknown as { flags: any; args: any }
  try {
    const { args, flags } = await Parser.parse(argv, { flags: cls.flags, args: cls.args, strict: true })
    return { args, flags }
  } catch (error) {
    return error as Error
  }
}

/** Lines `parseLine` answers for: none, the arguments, every flag spelled `--name value`, then spelled `--name=value` (or `-c value`, `--no-name`) before the arguments. */
function lines(line: CommandLine): string[][] {
  const args = line.args.map((a, i) => `value ${i} of ${a.name}`)
  const spaced: string[] = []
  const joined: string[] = []
  for (const [name, flag] of Object.entries(line.flags)) {
    if (flag.kind === 'boolean') {
      spaced.push(`--${name}`)
      joined.push(flag.allowNo ? `--no-${name}` : `--${name}`)
    } else if (flag.multiple) {
      spaced.push(`--${name}`, '/a=1', `--${name}`, '/b="two words"')
      joined.push(`--${name}=/c=3`)
    } else {
      spaced.push(`--${name}`, `${name} value`)
      joined.push(...(flag.char ? [`-${flag.char}`, `-${name}-`] : [`--${name}==${name}`]))
    }
  }
  return [[], args, [...args, ...spaced], [...joined, ...args]]
}

describe('a command line without oclif (src/transports/cli/line.ts)', () => {
  it('parses every generated command, its example and each of its flags, to what oclif parses', async () => {
    let plain = 0
    for (const action of CLI) {
      const line = commandLine(action)
      const skip = action.cli!.split(/\s+/).filter((w) => /^[a-z][a-z0-9-]*$/.test(w)).length
      const example = words(exampleLine(action, line.form)).slice(3 + skip)
      for (const argv of [example, ...lines(line)]) {
        const ours = parseLine(line, argv)
        const theirs = await oclifParse(action, argv)
        if (ours === undefined) continue
        assert.ok(!(theirs instanceof Error), `${action.id} ${JSON.stringify(argv)}: parsed, which oclif refuses: ${(theirs as Error).message}`)
        assert.deepEqual({ args: { ...ours.args }, flags: { ...ours.flags } }, theirs, `${action.id} ${JSON.stringify(argv)}`)
        plain++
      }
      // The example and the plain spellings never need oclif.
      assert.ok(parseLine(line, example), `${action.id}: its example ${JSON.stringify(example)} parses without oclif`)
      assert.ok(parseLine(line, lines(line)[2]), `${action.id}: every flag given`)
    }
    assert.ok(plain >= CLI.length * 4, `${plain} lines compared`)
  })

  it('leaves to oclif every line it might read otherwise or refuses', async () => {
    const patch = CLI.find((a) => a.id === 'slide.update')!
    const line = commandLine(patch)
    assert.ok(line.flags.set?.multiple, 'slide patch takes --set more than once')
    const refused = [
      ['s1', '--help'],
      ['s1', '-h'],
      ['--', 's1'],
      ['s1', 'extra'],
      ['s1', '--no-such-flag'],
      ['s1', '--deck'],
      ['s1', '--deck', 'a', '--deck', 'b'],
      ['s1', '--json', '--json'],
      ['s1', '--json=true'],
      ['--set', '/title="a"', 's1'],
      ['s1', '--rev', '-1'],
    ]
    for (const argv of refused) assert.equal(parseLine(line, argv), undefined, JSON.stringify(argv))
    // oclif reads a word after a list flag as one more item of it: the plain parse would not.
    const greedy = await oclifParse(patch, ['--set', '/a=1', 's1'])
    assert.deepEqual(greedy, { args: {}, flags: { set: ['/a=1', 's1'] } })
  })
})
