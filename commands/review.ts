import { Command, Flags } from '@oclif/core'
import { toStudioError } from '../src/core/errors.js'
import { Workspace } from '../src/store/workspace.js'

/**
 * `studio review --base <ref> --head <ref> --markdown`: a report per deck changed on a branch, for a
 * pull-request comment. `studio review --merge <commit>`: the review of a merge commit (what each
 * side brought, the conflicts and how they were settled).
 */
export default class Review extends Command {
  static summary = 'Review the deck changes between two git refs'
  static description =
    'Compares every deck changed between the merge base of --base and --head (what a pull request shows) and --head: per deck, the slides added, removed, moved and changed, with the prose of each change, and the open comment threads on those slides. --markdown prints a report ready to post as a pull-request comment (docs/review.md shows a CI workflow). --render writes before/after crops of every touched block (thumbnails of slides added or removed) into --out and the report shows them; --image-base names where the CI job publishes them. --merge <commit> reviews a merge commit instead: per deck, what each side brought since the merge base, the conflicts the merge met and how each was settled, and anything the merge commit changed beyond that.'
  static examples = [
    '<%= config.bin %> review --base main --head feature --markdown',
    '<%= config.bin %> review --base origin/main --markdown > review.md',
    '<%= config.bin %> review --base main --json',
    '<%= config.bin %> review --merge HEAD --markdown',
  ]
  static flags = {
    base: Flags.string({ description: 'The ref the branch starts from (e.g. main, origin/main); required unless --merge.' }),
    merge: Flags.string({ description: 'Review this merge commit instead (e.g. HEAD): what each side brought and how conflicts were settled.', exclusive: ['base', 'render'] }),
    head: Flags.string({ description: 'The ref under review.', default: 'HEAD' }),
    markdown: Flags.boolean({ description: 'Print the report as Markdown (a pull-request comment).' }),
    render: Flags.boolean({ description: 'Write before/after crops of every touched block (and thumbnails of slides added or removed), shown in the report.' }),
    theme: Flags.string({ description: 'Appearances of the pictures: light, dark or both (light,dark).', default: 'light' }),
    out: Flags.string({ description: 'Where the pictures go; .studio/review in the workspace when absent.' }),
    'image-base': Flags.string({ description: 'Where CI publishes the --out folder: picture links become <image-base>/<file name> (workspace paths when absent).' }),
    deck: Flags.string({ description: 'Only these decks (repeatable); every changed deck when absent.', multiple: true }),
    json: Flags.boolean({ description: 'Print the review as JSON.' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Review)
    try {
      const ws = Workspace.find({ root: flags.root })
      if (flags.merge !== undefined) {
        const { reviewMerge } = await import('../src/history/merge-review.js')
        const { mergeReviewJson, mergeReviewMarkdown, mergeReviewText } = await import('../src/history/report.js')
        const review = await reviewMerge(ws, flags.merge, flags.deck)
        if (flags.json) process.stdout.write(JSON.stringify(mergeReviewJson(review), null, 2) + '\n')
        else process.stdout.write(flags.markdown ? mergeReviewMarkdown(review) : mergeReviewText(review))
        return
      }
      if (flags.base === undefined) throw new (await import('../src/core/errors.js')).StudioError('invalid_input', 'Name what to review: --base <ref> (a branch against its base) or --merge <commit> (a merge commit).')
      const { reviewRefs } = await import('../src/history/index.js')
      const { reviewJson, reviewMarkdown, reviewText } = await import('../src/history/report.js')
      const review = await reviewRefs(ws, flags.base, flags.head, flags.deck)
      const options: import('../src/history/report.js').ReportOptions = { imageBase: flags['image-base'] }
      // The head's comment threads: the report lists the open ones on the slides it shows.
      if (review.toCommit) {
        const { threadsAt } = await import('../src/comments/history.js')
        options.threads = new Map(await Promise.all(review.decks.filter((d) => d.to !== null).map(async (d) => [d.id, await threadsAt(ws, review.toCommit!, d.id)] as const)))
      }
      if (flags.render) {
        const themes = flags.theme.split(',').map((t) => t.trim())
        for (const theme of themes) if (theme !== 'light' && theme !== 'dark') throw new (await import('../src/core/errors.js')).StudioError('invalid_input', `--theme takes light, dark or both, not "${theme}".`)
        const { refCrops } = await import('../src/actions/version/version.js')
        const { join, resolve } = await import('node:path')
        const outDir = flags.out === undefined ? join(ws.root, '.studio', 'review') : resolve(flags.out)
        // Both sides' crops in one browser, closed once they are drawn.
        const keep = await import('../src/core/keep.js')
        keep.keepFor(Infinity)
        try {
          options.crops = await refCrops(ws, review, themes as ('light' | 'dark')[], outDir)
        } finally {
          await keep.releaseKept()
        }
      }
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
