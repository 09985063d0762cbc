/**
 * `studio diff --textconv` (git's diff driver) and every other command never read standard input
 * unless told to (`< file.json`, `--input -`): oclif fills a missing argument from a piped stdin, which
 * ate the data of any script that runs `git log -p` in a `while read` loop (issue 21, item 7).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { BIN, studio, workspaceWithDeck } from '../helpers/studio.js'

describe('the textconv driver inside a script whose stdin holds data', () => {
  it('prints the readable diff on every turn of a while-read loop and leaves the loop its lines', async () => {
    const ws = await workspaceWithDeck('Piped')
    try {
      assert.equal((await studio(ws.dir, ['deck', 'rename', 'Piped twice', '--json'])).code, 0)
      // The cache off: git runs the driver on every turn, not once.
      const script = `while read line; do echo "turn $line"; git -c diff.studio.cachetextconv=false log -p -1 --format=%s -- decks/${ws.deckId}/deck.json || echo failed; done`
      const run = spawnSync('bash', ['-c', script], { cwd: ws.dir, input: 'a\nb\nc\n', encoding: 'utf8', env: { ...process.env, STUDIO_ROOT: '' } })
      assert.equal(run.status, 0, run.stderr)
      assert.deepEqual([...run.stdout.matchAll(/^turn (\w)$/gm)].map((m) => m[1]), ['a', 'b', 'c'], run.stdout + run.stderr)
      const turns = run.stdout.split(/^turn \w$/m).slice(1)
      for (const turn of turns) {
        assert.match(turn, /^-Deck: Piped$/m, run.stderr)
        assert.match(turn, /^\+Deck: Piped twice$/m)
      }
      assert.doesNotMatch(run.stdout + run.stderr, /failed|fatal|Error/)
    } finally {
      ws.cleanup()
    }
  })

  it('a command given its arguments leaves piped stdin unread', async () => {
    const ws = await workspaceWithDeck('Piped')
    try {
      const script = `studio() { "${process.execPath}" "${BIN}" "$@"; }; studio diff --textconv decks/${ws.deckId}/deck.json >/dev/null && studio info --json >/dev/null && cat`
      const run = spawnSync('bash', ['-c', script], { cwd: ws.dir, input: 'still here\n', encoding: 'utf8', env: { ...process.env, STUDIO_ROOT: '' } })
      assert.equal(run.status, 0, run.stderr)
      assert.equal(run.stdout, 'still here\n')
    } finally {
      ws.cleanup()
    }
  })
})
