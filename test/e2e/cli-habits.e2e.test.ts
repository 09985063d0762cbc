/**
 * Command-line habits users bring from git and other CLIs: "did you mean" for a typo, `-h`, an
 * unknown command in the error shape under `--json`, `--author "Name <address>"`, git's identity
 * on the page's commits, and `--out <file>` when one file results.
 */
import assert from 'node:assert/strict'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { cliInOneProcess, serve, studio, workspaceWithDeck } from '../helpers/studio.js'

cliInOneProcess()

describe('an unknown command', () => {
  it('suggests the nearest commands as users type them, in the error shape, exit code 2', async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      const typo = await studio(ws.dir, ['deck', 'renam', 'New name'])
      assert.equal(typo.code, 2)
      assert.match(typo.stderr, /^Error \(invalid_input\): "deck renam" is not a studio command\. Did you mean `studio deck rename`/)
      assert.doesNotMatch(typo.stderr, /deck:renam|not found/)

      const json = await studio(ws.dir, ['deck', 'renam', 'New name', '--json'])
      assert.equal(json.code, 2)
      assert.equal(json.json.status, 400)
      assert.equal(json.json.code, 'invalid_input')
      assert.equal(json.json.details.suggestions[0], 'studio deck rename')
      assert.equal(json.stderr, '')

      const topic = await studio(ws.dir, ['dek', '--json'])
      assert.equal(topic.code, 2)
      assert.deepEqual(topic.json.details.suggestions, ['studio deck'])

      const nothing = await studio(ws.dir, ['xyzzy', '--json'])
      assert.equal(nothing.code, 2)
      assert.deepEqual(nothing.json.details.suggestions, [])
    } finally {
      ws.cleanup()
    }
  })

  it('takes -h as --help, on the root, a topic, a generated and a hand-written command', async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      for (const args of [['-h'], ['deck', '-h'], ['deck', 'rename', '-h'], ['init', '-h']]) {
        const help = await studio(ws.dir, args)
        assert.equal(help.code, 0, `${args.join(' ')}: ${help.stderr}`)
        assert.match(help.stdout, /USAGE/, args.join(' '))
      }
      assert.match((await studio(ws.dir, ['deck', 'rename', '-h'])).stdout, /Rename a deck[\s\S]*studio deck rename/)
    } finally {
      ws.cleanup()
    }
  })
})

describe('who a commit is by', () => {
  it('takes --author "Name <address>" as git writes an author, and refuses a half-written one', async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      const renamed = await studio(ws.dir, ['deck', 'rename', 'By Ana', '--author', 'Ana Lima <ana@example.com>', '--json'])
      assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr)
      assert.equal((await ws.git('log', '-1', '--format=%an|%ae')).trim(), 'Ana Lima|ana@example.com')
      for (const bad of ['<ana@example.com>', 'Ana <two words@example.com>', 'Ana <ana@example.com']) {
        const refused = await studio(ws.dir, ['deck', 'rename', 'Nope', '--author', bad, '--json'])
        assert.equal(refused.code, 2, bad)
        assert.equal(refused.json.path, 'author')
      }
    } finally {
      ws.cleanup()
    }
  })

  it("commits an edit from the page of a local serve with git's user.name and user.email", async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      await ws.git('config', 'user.name', 'Bea Costa')
      await ws.git('config', 'user.email', 'bea@example.org')
      const server = await serve(ws.dir, [], { ttl: 60 })
      try {
        const info = (await (await fetch(`${server.url}/api/actions/deck.info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { revision: number }
        const response = await fetch(`${server.url}/api/window/deck.rename`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-studio-client': 'abcdefghijkl' },
          body: JSON.stringify({ name: 'From the page', baseRevision: info.revision }),
        })
        assert.equal(response.status, 200, await response.clone().text())
      } finally {
        await server.stop()
      }
      const [author, email] = (await ws.git('log', '-1', '--format=%an|%ae')).trim().split('|')
      assert.equal(author, 'Bea Costa')
      assert.equal(email, 'bea@example.org')
    } finally {
      ws.cleanup()
    }
  })
})

describe('--out naming the one file that results', () => {
  it('writes talk.pdf for an export of one theme, and refuses it for two', async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      const one = await studio(ws.dir, ['export', 'pdf', '--theme', 'light', '--out', 'talk.pdf', '--json'])
      assert.equal(one.code, 0, one.stdout + one.stderr)
      assert.deepEqual(one.json.files, ['talk.pdf'])
      assert.ok(statSync(join(ws.dir, 'talk.pdf')).isFile(), 'a file, not a folder')
      const two = await studio(ws.dir, ['export', 'pdf', '--out', 'both.pdf', '--json'])
      assert.equal(two.code, 2)
      assert.equal(two.json.pointer, '/out')
      assert.match(two.json.message, /--theme light/)
      assert.equal(existsSync(join(ws.dir, 'both.pdf')), false)
    } finally {
      ws.cleanup()
    }
  })

  it('writes shot.png (and its sidecar) for a render of one slide in one theme, and refuses it for several', async () => {
    const ws = await workspaceWithDeck('Habits')
    try {
      const one = await studio(ws.dir, ['render', 'title-1', '--theme', 'light', '--out', 'shots/shot.png', '--json'])
      assert.equal(one.code, 0, one.stdout + one.stderr)
      assert.equal(one.json.renders[0].file, 'shots/shot.png')
      assert.ok(statSync(join(ws.dir, 'shots', 'shot.png')).isFile())
      assert.ok(statSync(join(ws.dir, 'shots', 'shot.png.json')).isFile())
      const several = await studio(ws.dir, ['render', 'title-1', '--theme', 'light,dark', '--out', 'pair.png', '--json'])
      assert.equal(several.code, 2)
      assert.equal(several.json.pointer, '/out')
      assert.equal(existsSync(join(ws.dir, 'pair.png')), false)
    } finally {
      ws.cleanup()
    }
  })
})
