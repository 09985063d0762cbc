import { Command, Flags } from '@oclif/core'
import { toStudioError } from '../src/core/errors.js'
import { Workspace } from '../src/store/workspace.js'

/** `studio review --base <ref> --head <ref> --markdown`: a report per deck changed on a branch, for a pull-request comment. */
export default class Review extends Command {
  static summary = 'Review the deck changes between two git refs'
  static description =
    'Compares every deck changed between the merge base of --base and --head (what a pull request shows) and --head: per deck, the slides added, removed, moved and changed, with the prose of each change. --markdown prints a report ready to post as a pull-request comment (docs/review.md shows a CI workflow). Before/after pictures (--render) come with the renderer.'
  static examples = [
    '<%= config.bin %> review --base main --head feature --markdown',
    '<%= config.bin %> review --base origin/main --markdown > review.md',
    '<%= config.bin %> review --base main --json',
  ]
  static flags = {
    base: Flags.string({ description: 'The ref the branch starts from (e.g. main, origin/main).', required: true }),
    head: Flags.string({ description: 'The ref under review.', default: 'HEAD' }),
    markdown: Flags.boolean({ description: 'Print the report as Markdown (a pull-request comment).' }),
    render: Flags.boolean({ description: 'Before/after pictures of every touched block (come with the renderer; accepted now, no effect yet).' }),
    deck: Flags.string({ description: 'Only these decks (repeatable); every changed deck when absent.', multiple: true }),
    json: Flags.boolean({ description: 'Print the review as JSON.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Review)
    try {
      const ws = Workspace.find({ root: flags.root })
      const { reviewRefs } = await import('../src/history/index.js')
      const { reviewJson, reviewMarkdown, reviewText } = await import('../src/history/report.js')
      const review = await reviewRefs(ws, flags.base, flags.head, flags.deck)
      const options = { render: flags.render }
      if (flags.json) process.stdout.write(JSON.stringify(reviewJson(review, options), null, 2) + '\n')
      else process.stdout.write(flags.markdown ? reviewMarkdown(review, options) : reviewText(review, options))
    } catch (error) {
      const failure = toStudioError(error)
      process.exitCode = failure.exitCode
      if (flags.json) process.stdout.write(JSON.stringify(failure.toJSON(), null, 2) + '\n')
      else process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
    }
  }
}
