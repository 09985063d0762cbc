/**
 * The test helpers' shared CLI process (test/helpers/cli-host.mjs, `cliInOneProcess`) answers exactly
 * what a process of its own answers: the same exit code, stdout and stderr for a read, a write, a
 * refusal, a typo, stdin, and an environment variable. The files that opt into it rely
 * on that.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type CliResult, studio, workspaceWithDeck } from '../helpers/studio.js'

type Ws = Awaited<ReturnType<typeof workspaceWithDeck>>

describe('the shared CLI process of the tests', () => {
  let own: Ws
  let shared: Ws
  before(async () => {
    ;[own, shared] = await Promise.all([workspaceWithDeck('Host check'), workspaceWithDeck('Host check')])
  })
  after(() => {
    own?.cleanup()
    shared?.cleanup()
  })

  /** The same command in a process of its own and in the shared one, each in its own copy of the workspace. */
  async function both(args: string[], options: { stdin?: string | Buffer; env?: Record<string, string> } = {}): Promise<[CliResult, CliResult]> {
    const a = await studio(own.dir, args, options)
    const b = await studio(shared.dir, args, { ...options, oneProcess: true })
    // What differs between two runs anyway: the folder, the clock, and the tags derived from them.
    const alike = (text: string, dir: string) => text.replaceAll(dir, '<ws>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>').replace(/\b[0-9a-f]{24}\b/g, '<tag>')
    const same = (r: CliResult, dir: string) => ({ ...r, stdout: alike(r.stdout, dir), stderr: alike(r.stderr, dir), json: undefined })
    return [same(a, own.dir), same(b, shared.dir)]
  }

  it('answers a read, a write and a second write alike', async () => {
    for (const args of [['info', '--json'], ['deck', 'rename', 'Renamed', '--json'], ['validate', '--json'], ['info']]) {
      const [a, b] = await both(args)
      assert.equal(a.code, 0, a.stderr)
      assert.deepEqual(b, a, args.join(' '))
    }
  })

  it('answers refusals with the same exit code and error body', async () => {
    for (const args of [['deck', 'rename', 'Stale', '--rev', '0', '--json'], ['deck', 'renam', '--json'], ['deck', 'renam'], ['block', 'set', 'nope', 'b1', '/text', 'x', '--json']]) {
      const [a, b] = await both(args)
      assert.notEqual(a.code, 0, args.join(' '))
      assert.deepEqual(b, a, args.join(' '))
    }
  })

  // Binary stdin (shader frame < frame.png) is read through process.stdin too: shader.e2e runs it in the shared process.
  it('feeds stdin and the environment of the call', async () => {
    const [a, b] = await both(['deck', 'rename', '--input', '-', '--json'], { stdin: JSON.stringify({ name: 'From stdin' }) })
    assert.equal(a.code, 0, a.stdout + a.stderr)
    assert.deepEqual(b, a)
    const [e, f] = await both(['deck', 'rename', 'By Ana', '--json'], { env: { STUDIO_AUTHOR: 'Ana <ana@example.com>' } })
    assert.equal(e.code, 0, e.stdout)
    assert.deepEqual(f, e)
    assert.equal((await own.git('log', '-1', '--format=%an <%ae>')).trim(), 'Ana <ana@example.com>')
    assert.equal((await shared.git('log', '-1', '--format=%an <%ae>')).trim(), 'Ana <ana@example.com>')
  })
})
