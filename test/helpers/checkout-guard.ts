/**
 * No test writes into the repository's own checkout. What the package ships (decks/, templates/,
 * studio.json) and studio's local state there (.studio/) are read from git when a test process
 * first loads the helpers, and again when it exits: a new commit, a changed or a new file (ignored
 * ones included) fails that process, so its test file goes red with the paths that moved. A checkout
 * without git (an unpacked tarball) is not watched.
 */
import { execFileSync } from 'node:child_process'

const WATCHED = ['decks', 'templates', 'studio.json', '.studio']

function checkoutState(root: string): string | null {
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } })
  try {
    return `HEAD ${git(['rev-parse', 'HEAD']).trim()}\n${git(['status', '--porcelain', '--untracked-files=all', '--ignored', '--', ...WATCHED])}`
  } catch {
    return null
  }
}

export function guardCheckout(root: string): void {
  const before = checkoutState(root)
  if (before === null) return
  process.once('exit', () => {
    const after = checkoutState(root)
    if (after === null || after === before) return
    process.stderr.write(`\nA test wrote into the checkout (${root}): ${WATCHED.join(', ')} changed.\nbefore:\n${before}\nafter:\n${after}\nTests work in temp workspaces (test/helpers/studio.ts).\n`)
    process.exitCode = 1
  })
}
