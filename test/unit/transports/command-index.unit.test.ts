import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { COMMAND_INDEX_FILE, commandIndexSource } from '../../../scripts/command-index.js'
import { commandTable } from '../../../src/transports/cli/commands.js'
import type { Command } from '@oclif/core'

const ROOT = new URL('../../..', import.meta.url).pathname

describe('the CLI command index', () => {
  it('is what the build writes from the action table (run npm run build when this fails)', async () => {
    assert.equal(readFileSync(join(ROOT, COMMAND_INDEX_FILE), 'utf8'), await commandIndexSource(ROOT))
  })

  it('prepares the one command a command line runs, and nothing else of the table', async () => {
    let loaded = 0
    const table = commandTable({ init: async () => (loaded++, class Init {} as unknown as typeof Command) })
    await table.prepare(['slide', 'insert', '--section', 'main', '--json'])
    assert.equal((table.commands['slide:insert'] as unknown as { summary: string }).summary, 'Insert slide')
    assert.throws(() => table.commands.info, /command info was not loaded/)
    assert.equal(loaded, 0)
    assert.equal(table.commands['no:such'], undefined)
  })

  it('prepares a hand-written command by its words, and an alias by the action it names', async () => {
    let loaded = 0
    const table = commandTable({ 'git:setup': async () => (loaded++, class GitSetup {} as unknown as typeof Command) })
    await table.prepare(['git', 'setup', '--json'])
    assert.equal(loaded, 1)
    assert.ok(table.commands['git:setup'])
    await table.prepare(['push', '--json'])
    assert.ok(table.commands['deck:push'])
  })

  it('loads the whole table for help, a topic or an unknown command (oclif lists them)', async () => {
    for (const argv of [['slide', 'insert', '--help'], ['slide'], ['nonsense'], []]) {
      const table = commandTable({})
      await table.prepare(argv)
      assert.ok(table.commands.info && table.commands['slide:insert'] && table.commands['deck:push'], argv.join(' '))
    }
  })
})

describe('the examples of the commands', () => {
  it('write every example value as text a shell takes: an object as JSON, never [object Object]', async () => {
    const { ACTIONS } = await import('../../../src/actions/index.js')
    const { exampleLine } = await import('../../../src/transports/cli/commands.js')
    const { parseForm } = await import('../../../src/transports/cli/form.js')
    const lines = ACTIONS.filter((a) => a.cli).map((a) => exampleLine(a, parseForm(a.cli!)))
    assert.deepEqual(lines.filter((line) => line.includes('[object Object]')), [])
    const comment = ACTIONS.find((a) => a.id === 'comment.add')!
    assert.match(exampleLine(comment, parseForm(comment.cli!)), /^<%= config.bin %> comment add '\{"/)
  })
})
