/**
 * The commit made in the studio process (src/store/git-direct.ts): the same commit `git commit --only`
 * makes, checked by git itself after every kind of write (fsck, status, the index's stat data, the
 * reflog), and handed to git wherever git would do more than write objects, a ref and the index.
 * Which path ran is read from GIT_TRACE: git lists every process it starts there.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, ROOT, studio, workspaceWithDeck } from '../helpers/studio.js'
import { cleanMessage, setEntry } from '../../src/store/git-direct.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof workspaceWithDeck>>

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })

/** Runs a studio write with git's trace on; the git processes it started (their first arguments). */
async function traced(dir: string, args: string[], env: Record<string, string> = {}) {
  const trace = join(mkdtempSync(join(tmpdir(), 'studio-trace-')), 'trace')
  const result = await studio(dir, [...args, '--json'], { env: { GIT_TRACE: trace, ...env } })
  const log = existsSync(trace) ? readFileSync(trace, 'utf8') : ''
  rmSync(join(trace, '..'), { recursive: true, force: true })
  const commands = [...log.matchAll(/trace: (?:exec|built-in): git ([a-z-]+)/g)].map((m) => m[1])
  return { ...result, commands }
}

/** What git says of the repository after a write: nothing to fix, nothing staged or changed, the index's stat data current. */
function assertClean(dir: string, label: string) {
  assert.equal(git(dir, 'fsck', '--strict', '--no-progress', '--no-dangling').trim(), '', `${label}: fsck`)
  assert.equal(git(dir, 'status', '--porcelain').trim(), '', `${label}: status`)
  assert.equal(git(dir, 'diff-files', '--name-only').trim(), '', `${label}: the index's stat data matches the files`)
}

/** The last commit's message without its transaction id (random per write), and its people. */
const described = (dir: string) => git(dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B').replace(/\nStudio-Tx: \w+/, '')

describe('the commit made in process', () => {
  let direct: Ws
  let handed: Ws
  before(async () => {
    ;[direct, handed] = await Promise.all([workspaceWithDeck('Direct'), workspaceWithDeck('Direct')])
  })
  after(() => {
    direct?.cleanup()
    handed?.cleanup()
  })

  it('makes the commit git makes, for a changed, a new, a removed and a binary file and a new folder, without running git commit', async () => {
    const picture = join(ROOT, 'test/fixtures/dither/bayer4-two.png')
    const steps: [string, string[]][] = [
      ['a changed manifest', ['deck', 'rename', 'Renamed, twice over']],
      ['a new slide file', ['slide', 'new', '--layout', 'title-body', '--id', 'extra']],
      ['a removed slide file', ['slide', 'remove', 'extra']],
      ['a binary asset', ['asset', 'add', picture, '--role', 'picture', '--alt', 'Dots']],
      ['a new deck folder', ['deck', 'create', 'Second', '--from', 'blank', '--id', 'second']],
      ['a file at the top', ['deck', 'default', 'direct']],
    ]
    for (const [label, args] of steps) {
      const before = git(direct.dir, 'rev-parse', 'HEAD').trim()
      const made = await traced(direct.dir, args, { STUDIO_AUTHOR: "'Ann, the editor';" })
      assert.equal(made.code, 0, `${label}: ${made.stdout}${made.stderr}`)
      assert.ok(!made.commands.includes('commit') && !made.commands.includes('add'), `${label}: git ran ${made.commands.join(', ')}`)
      const byGit = await traced(handed.dir, args, { STUDIO_AUTHOR: "'Ann, the editor';", STUDIO_DIRECT_COMMIT: '0' })
      assert.equal(byGit.code, 0, `${label} (git): ${byGit.stdout}${byGit.stderr}`)
      assert.ok(byGit.commands.includes('commit'), `${label}: the switch hands the commit to git`)

      assertClean(direct.dir, label)
      assert.equal(git(direct.dir, 'rev-parse', 'HEAD^').trim(), before, `${label}: one commit on the last`)
      assert.equal(described(direct.dir), described(handed.dir), `${label}: message, author and committer as git writes them`)
      assert.deepEqual(git(direct.dir, 'diff', '--name-status', 'HEAD^', 'HEAD'), git(handed.dir, 'diff', '--name-status', 'HEAD^', 'HEAD'), `${label}: the same paths changed`)
      assert.equal(git(direct.dir, 'reflog', '-1', '--format=%gs'), git(handed.dir, 'reflog', '-1', '--format=%gs'), `${label}: the reflog line`)
    }
    // The picture's bytes are stored as they are on disk.
    const asset = git(direct.dir, 'ls-files', 'decks/direct/assets').trim().split('\n').find((p) => p.endsWith('.png'))!
    assert.ok(readFileSync(join(direct.dir, asset)).equals(execFileSync('git', ['show', `HEAD:${asset}`], { cwd: direct.dir })), 'the picture as stored')
    // The index entry carries the file's own stat data, as git records it.
    const debug = git(direct.dir, 'ls-files', '--debug', 'decks/direct/deck.json')
    const stat = statSync(join(direct.dir, 'decks/direct/deck.json'), { bigint: true })
    assert.match(debug, new RegExp(`mtime: ${stat.mtimeNs / 1_000_000_000n}:${stat.mtimeNs % 1_000_000_000n}\\b`))
    assert.match(debug, new RegExp(`ino: ${stat.ino}\\b`))
    assert.match(debug, new RegExp(`size: ${stat.size}\\b`))
  })

  it("leaves the user's staged work staged and out of the commit", async () => {
    writeFileSync(join(direct.dir, 'NOTES.md'), 'mine\n')
    git(direct.dir, 'add', 'NOTES.md')
    const made = await traced(direct.dir, ['deck', 'rename', 'Renamed again'])
    assert.equal(made.code, 0, made.stdout)
    assert.ok(!made.commands.includes('commit'))
    assert.equal(git(direct.dir, 'show', '--name-only', '--format=', 'HEAD').trim(), 'decks/direct/deck.json')
    assert.equal(git(direct.dir, 'diff', '--cached', '--name-only').trim(), 'NOTES.md')
    git(direct.dir, 'reset', '-q', 'NOTES.md')
    rmSync(join(direct.dir, 'NOTES.md'))
    assertClean(direct.dir, 'after the staged work')
  })

  it('reads trees git has packed (after gc) and writes on top of them', async () => {
    git(direct.dir, 'gc', '--quiet', '--prune=now')
    assert.equal(readFileSync(join(direct.dir, '.git/packed-refs'), 'utf8').includes('refs/heads/main'), true, 'the branch is packed too')
    const made = await traced(direct.dir, ['deck', 'rename', 'After the gc'])
    assert.equal(made.code, 0, made.stdout)
    assert.ok(!made.commands.includes('commit'), made.commands.join(', '))
    assertClean(direct.dir, 'after gc')
    assert.equal(git(direct.dir, 'log', '-1', '--format=%s'), git(direct.dir, 'log', '-1', '--format=%s', 'main'))
  })

  it('commits in a linked worktree (objects and the branch in the common git directory)', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'studio-worktree-'))
    rmSync(tree, { recursive: true })
    git(direct.dir, 'worktree', 'add', '-q', '-b', 'side', tree)
    try {
      const made = await traced(tree, ['deck', 'rename', 'On the side'])
      assert.equal(made.code, 0, made.stdout + made.stderr)
      assert.ok(!made.commands.includes('commit'), made.commands.join(', '))
      assertClean(tree, 'worktree')
      assert.match(git(direct.dir, 'log', '-1', '--format=%s', 'side'), /^deck\.rename direct/)
      assert.equal(git(direct.dir, 'reflog', '-1', '--format=%gs', 'side').trim(), git(tree, 'reflog', '-1', '--format=%gs').trim())
      assertClean(direct.dir, 'the main tree, untouched')
    } finally {
      git(direct.dir, 'worktree', 'remove', '--force', tree)
    }
  })

  it("edits trees into git's order (git mktree sorts the same entries to the same tree)", () => {
    const names = ['a', 'a.json', 'a-b', 'a0', 'ab', 'b', 'a.b', 'slides', 'slides.json', 'Z', 'é', 'deck.json', 'assets']
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let round = 0; round < 40; round++) {
      const chosen = names.filter(() => random() < 0.6)
      const entries = chosen.map((name, i) => ({ name, mode: random() < 0.4 ? '40000' : '100644', oid: createHash('sha1').update(`${round}:${i}`).digest('hex') }))
      let body: Buffer = Buffer.alloc(0)
      for (const e of [...entries].sort(() => random() - 0.5)) body = setEntry(body, Buffer.from(e.name).toString('latin1'), e)
      const removed = entries.filter(() => random() < 0.2)
      for (const e of removed) body = setEntry(body, Buffer.from(e.name).toString('latin1'), null)
      const kept = entries.filter((e) => !removed.includes(e))
      const listing = kept.map((e) => `${e.mode === '40000' ? '040000 tree' : '100644 blob'} ${e.oid}\t${e.name}\n`).join('')
      const byGit = execFileSync('git', ['mktree', '--missing'], { cwd: direct.dir, input: listing, encoding: 'utf8' }).trim()
      const ours = createHash('sha1').update(Buffer.concat([Buffer.from(`tree ${body.length}\0`), body])).digest('hex')
      assert.equal(ours, byGit, `round ${round}: ${kept.map((e) => e.name + (e.mode === '40000' ? '/' : '')).join(' ')}`)
    }
  })

  it('writes the author and committer time zone git commit writes, under every kind of TZ', async () => {
    // Names ICU knows (west, east, half and quarter hours, a DST zone name) and POSIX rules it does not.
    const zones = ['America/New_York', 'Asia/Kolkata', 'UTC', 'Pacific/Chatham', 'America/St_Johns', 'EST5EDT', 'IST-5:30', '<-0330>3:30', 'EST5EDT,M3.2.0,M11.1.0', 'AEST-10AEDT,M10.1.0,M4.1.0/3', 'XST+3:15']
    const zoneOf = (dir: string) => {
      const head = git(dir, 'cat-file', '-p', 'HEAD')
      return ['author', 'committer'].map((who) => new RegExp(`^${who} .* \\d+ ([+-]\\d{4})$`, 'm').exec(head)?.[1])
    }
    for (const [i, TZ] of zones.entries()) {
      const made = await traced(direct.dir, ['deck', 'rename', `Zone ${i}`], { TZ })
      assert.equal(made.code, 0, `${TZ}: ${made.stdout}${made.stderr}`)
      assert.ok(!made.commands.includes('commit'), `${TZ}: made in process`)
      const byGit = await traced(handed.dir, ['deck', 'rename', `Zone ${i}`], { TZ, STUDIO_DIRECT_COMMIT: '0' })
      assert.equal(byGit.code, 0, `${TZ} (git): ${byGit.stdout}${byGit.stderr}`)
      assert.ok(byGit.commands.includes('commit'))
      const zone = zoneOf(handed.dir)
      assert.match(zone[0] ?? '', /^[+-]\d{4}$/)
      assert.deepEqual(zoneOf(direct.dir), zone, `TZ=${TZ}`)
      assertClean(direct.dir, `TZ=${TZ}`)
    }
  })

  it('writes messages as git -m cleans them', () => {
    for (const message of ['subject  \n\n\n\nbody\t \n\n', '\n\nlead\n \nx\n', 'one', '  indented\n\n\n']) {
      const expected = execFileSync('git', ['stripspace'], { input: message, encoding: 'utf8' })
      assert.equal(cleanMessage(message), expected, JSON.stringify(message))
    }
  })
})

describe('commits left to git', () => {
  let ws: Ws
  before(async () => {
    ws = await workspaceWithDeck('Handed')
  })
  after(() => ws?.cleanup())

  /** Runs a rename and says whether git made the commit. */
  async function renameBy(name: string, env: Record<string, string> = {}) {
    const made = await traced(ws.dir, ['deck', 'rename', name], env)
    return { ...made, byGit: made.commands.includes('commit') }
  }

  it('a post-commit hook runs', async () => {
    const hook = join(ws.dir, '.git/hooks/post-commit')
    writeFileSync(hook, `#!/bin/sh\necho ran >> "${join(ws.dir, '.git/hook-ran')}"\n`)
    chmodSync(hook, 0o755)
    try {
      const made = await renameBy('Hooked')
      assert.equal(made.code, 0, made.stdout)
      assert.ok(made.byGit)
      assert.equal(readFileSync(join(ws.dir, '.git/hook-ran'), 'utf8'), 'ran\n')
    } finally {
      rmSync(hook)
    }
  })

  it('a clean filter set in .gitattributes stores what the filter makes', async () => {
    git(ws.dir, 'config', 'filter.upper.clean', 'tr a-z A-Z')
    git(ws.dir, 'config', 'filter.upper.smudge', 'cat')
    const attributes = join(ws.dir, '.gitattributes')
    const kept = readFileSync(attributes, 'utf8')
    appendFileSync(attributes, 'decks/**/deck.json filter=upper\n')
    git(ws.dir, 'commit', '-q', '-m', 'filter', '--', '.gitattributes')
    try {
      const made = await renameBy('Filtered')
      assert.equal(made.code, 0, made.stdout)
      assert.ok(made.byGit)
      assert.match(git(ws.dir, 'show', 'HEAD:decks/handed/deck.json'), /"FILTERED"/)
    } finally {
      writeFileSync(attributes, kept)
      git(ws.dir, 'commit', '-q', '-m', 'no filter', '--', '.gitattributes')
      git(ws.dir, 'config', '--remove-section', 'filter.upper')
    }
  })

  it('signed commits: a signer that fails refuses the write, and nothing is left changed', async () => {
    // git's other spelling of true: read as git reads it.
    git(ws.dir, 'config', 'commit.gpgsign', 'yes')
    git(ws.dir, 'config', 'gpg.program', 'false')
    const head = git(ws.dir, 'rev-parse', 'HEAD')
    const manifest = readFileSync(join(ws.dir, 'decks/handed/deck.json'))
    try {
      const made = await renameBy('Signed')
      assert.notEqual(made.code, 0)
      assert.ok(made.byGit)
      assert.equal(git(ws.dir, 'rev-parse', 'HEAD'), head)
      assert.ok(readFileSync(join(ws.dir, 'decks/handed/deck.json')).equals(manifest))
    } finally {
      git(ws.dir, 'config', '--unset', 'commit.gpgsign')
      git(ws.dir, 'config', '--unset', 'gpg.program')
    }
  })

  it('an index git keeps in version 4 stays version 4', async () => {
    git(ws.dir, 'update-index', '--index-version', '4')
    const made = await renameBy('Version four')
    assert.equal(made.code, 0, made.stdout)
    assert.ok(made.byGit)
    assert.equal(readFileSync(join(ws.dir, '.git/index')).readUInt32BE(4), 4)
    assertClean(ws.dir, 'index v4')
    git(ws.dir, 'update-index', '--index-version', '2')
  })

  it('GIT_INDEX_FILE (another index) hands the commit to git', async () => {
    const other = join(ws.dir, '.git/other-index')
    copyFileSync(join(ws.dir, '.git/index'), other)
    const made = await renameBy('Other index', { GIT_INDEX_FILE: other })
    assert.equal(made.code, 0, made.stdout)
    assert.ok(made.byGit)
    rmSync(other)
    git(ws.dir, 'reset', '-q')
  })

  it('without any of these, the next commit is made in process again', async () => {
    const made = await renameBy('Plain again')
    assert.equal(made.code, 0, made.stdout)
    assert.ok(!made.byGit, made.commands.join(', '))
  })
})
