import { Command, Flags } from '@oclif/core'
import { fail, toStudioError } from '../src/core/errors.js'
import { RESERVED_DECK_IDS, SLUG } from '../src/model/schema.js'
import { Workspace } from '../src/store/workspace.js'

/**
 * `studio mcp`: the MCP server of `studio serve`'s `/mcp`, over stdio, for agents that spawn a
 * subprocess. stdout carries the protocol and nothing else; diagnostics go to stderr. The SDK loads
 * here, inside run(), so no other command pays for it.
 */
export default class Mcp extends Command {
  static summary = 'Serve MCP over stdio'
  static description =
    'Serves the studio as an MCP server on stdin/stdout: one tool per implemented action, the deck as deck:// resources, the deck_review prompt. Every write is committed with the author given here. Without --deck the session works in the workspace default deck until it creates one with deck_create, then in that deck. Ends when stdin closes.'
  static examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --deck quarterly-review --author agent:run-42']
  static flags = {
    deck: Flags.string({ description: 'Deck every call names, which may not exist yet (deck_create with this id makes it); default: the workspace default deck, then the deck the session creates.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
    author: Flags.string({ description: 'Author of the commits this session makes (agent:<runId>).', default: 'agent:stdio' }),
    force: Flags.boolean({ description: 'Write to slides another author leased.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp)
    try {
      const ws = Workspace.find({ root: flags.root })
      // A deck that does not exist yet is fine: the agent may create it (deck_create with that id).
      if (flags.deck !== undefined && (!new RegExp(SLUG).test(flags.deck) || RESERVED_DECK_IDS.has(flags.deck))) fail('invalid_input', `"${flags.deck}" is not a deck id: lower-case letters, digits and single hyphens.`, { path: 'deck' })
      // A long-lived process: decks stay cached between calls, checked against the files before each use.
      ;(await import('../src/store/deck-cache.js')).enableDeckCache()
      const keep = await import('../src/core/keep.js')
      keep.keepFor(keep.serverKeepMs())
      const { createMcpServer } = await import('../src/transports/mcp/server.js')
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
      const server = createMcpServer({ ws, deck: flags.deck, author: flags.author, force: flags.force })
      const closed = new Promise<void>((resolve) => {
        const cleanup = server.onclose
        server.onclose = () => {
          cleanup?.()
          resolve()
        }
      })
      server.onerror = (error) => process.stderr.write(`studio mcp: ${error.message}\n`)
      await server.connect(new StdioServerTransport())
      // The SDK's stdio transport does not notice the end of stdin; the session ends with it.
      process.stdin.once('end', () => void server.close())
      process.stderr.write(`studio mcp: serving ${ws.root}${flags.deck ? ` (deck ${flags.deck}${ws.deckExists(flags.deck) ? '' : ', not created yet'})` : ''} as ${flags.author} on stdio\n`)
      await closed
      await keep.releaseKept()
    } catch (error) {
      const failure = toStudioError(error)
      process.exitCode = failure.exitCode
      process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
    }
  }
}
