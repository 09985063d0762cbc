/**
 * Storage promises found broken from outside (issue 8, "Data loss"): each test here failed before its
 * fix. Real git, a fresh workspace per test. The writes killed at a fault point are processes of their
 * own (`crashAt`), as are the git holding the index and the server; the calls that look and repair run in
 * the file's CLI host when it is free (`cliInOneProcess`): the process that repairs is not what is tested.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { BIN, cliInOneProcess, commitCount, ROOT, serve, studio, workspaceWithDeck } from '../helpers/studio.js'
import { writeZip } from '../helpers/zip.js'

cliInOneProcess()

/** Runs a write with a fault injected at a named point (see src/store/transaction.ts). */
function crashAt(dir: string, point: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, STUDIO_FAULT: point, STUDIO_ROOT: '' }, stdio: 'ignore' })
    child.on('exit', (code, signal) => resolve(signal === 'SIGKILL' ? null : code))
  })
}

/** Everything under a folder (relative paths), for "exactly as it was" comparisons. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(path)
      else out[path] = readFileSync(join(dir, path)).toString('base64')
    }
  }
  if (existsSync(dir)) walk('')
  return out
}

const tmpLeft = (dir: string) => (existsSync(join(dir, '.studio/tmp')) ? readdirSync(join(dir, '.studio/tmp')) : [])
const journals = (dir: string) => (existsSync(join(dir, '.studio/journal')) ? readdirSync(join(dir, '.studio/journal')) : [])

/** A process that holds git's index.lock open, as a user's git command does while it runs. */
function holdIndexLock(dir: string): Promise<ChildProcess> {
  return new Promise((resolve) => {
    const script = `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(join(dir, '.git/index.lock'))},'wx');process.stdout.write('held\\n');setTimeout(()=>{fs.closeSync(fd);fs.unlinkSync(${JSON.stringify(join(dir, '.git/index.lock'))})},20000)`
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout!.once('data', () => resolve(child))
  })
}

async function release(holder: ChildProcess, dir: string) {
  holder.kill('SIGKILL')
  await new Promise((r) => holder.once('exit', r))
  rmSync(join(dir, '.git/index.lock'), { force: true })
}

describe('deck unpack --replace', () => {
  it('leaves exactly the bundle content, continues the revision and still refuses an old one', async () => {
    const ws = await workspaceWithDeck('Round trip')
    try {
      const id = ws.deckId
      assert.equal((await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--json'])).code, 0)
      mkdirSync(join(ws.dir, `decks/${id}/assets`), { recursive: true })
      writeFileSync(join(ws.dir, `decks/${id}/assets/logo.png`), Buffer.from('not really a png'))
      await ws.git('add', '-A')
      await ws.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'asset')
      const packed = await studio(ws.dir, ['deck', 'pack', id, '--out', 'own.zip', '--json'])
      assert.equal(packed.code, 0, packed.stdout)
      const before = snapshot(join(ws.dir, 'decks', id))
      assert.equal((await studio(ws.dir, ['deck', 'rename', 'Changed since', '--json'])).code, 0)
      const replaced = await studio(ws.dir, ['deck', 'unpack', 'own.zip', '--replace', '--json'])
      assert.equal(replaced.code, 0, replaced.stdout)
      assert.equal(replaced.json.replaced, true)
      assert.equal(replaced.json.revision, 3, 'the replaced deck continues at current + 1')
      const after = snapshot(join(ws.dir, 'decks', id))
      assert.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'every file of the bundle is there, and nothing else')
      for (const [rel, bytes] of Object.entries(before)) if (rel !== 'deck.json') assert.equal(after[rel], bytes, rel)
      const manifest = JSON.parse(readFileSync(join(ws.dir, `decks/${id}/deck.json`), 'utf8'))
      assert.equal(manifest.title, 'Round trip')
      assert.equal(manifest.revision, 3)
      assert.equal(await ws.git('status', '--porcelain', '--', 'decks'), '')
      const stale = await studio(ws.dir, ['deck', 'rename', 'Holding revision 2', '--rev', '2', '--json'])
      assert.equal(stale.code, 4)
      assert.equal(stale.json.currentRevision, 3)
      assert.deepEqual(tmpLeft(ws.dir), [], 'the checked bundle folder is gone')
    } finally {
      ws.cleanup()
    }
  })
})

// Each test has a workspace of its own and spends most of its time waiting for the killed writer's
// lock to go stale (src/store/lock.ts), so a few run at once.
describe('crash repair', { concurrency: 3 }, () => {
  it('removes a pre-image folder no journal names once it is ten minutes old (keeping a younger one) and a journal temp file a kill left', async () => {
    const ws = await workspaceWithDeck('Orphans')
    try {
      const journal = join(ws.dir, '.studio', 'journal')
      mkdirSync(join(journal, 'tx-0000000000000001'), { recursive: true })
      writeFileSync(join(journal, 'tx-0000000000000001', '0'), 'old bytes')
      const old = new Date(Date.now() - 11 * 60 * 1000)
      utimesSync(join(journal, 'tx-0000000000000001'), old, old)
      mkdirSync(join(journal, 'tx-0000000000000002'))
      // A journal whose atomic write was killed before its rename: the write had not begun.
      writeFileSync(join(journal, `deck-${ws.deckId}.json.1569650160`), '{"v":2,"tx":"ab')
      const info = await studio(ws.dir, ['info', '--json'])
      assert.equal(info.code, 0, info.stdout)
      assert.deepEqual(readdirSync(journal).filter((n) => n.startsWith('tx-') || n.includes('.json.')), ['tx-0000000000000002'])
    } finally {
      ws.cleanup()
    }
  })

  it('drops a journal cut short while it was written (the write had not begun) and writes on', async () => {
    const ws = await workspaceWithDeck('Torn')
    try {
      const journal = join(ws.dir, '.studio', 'journal')
      mkdirSync(journal, { recursive: true })
      // The journal is written in place and synced before any file: a kill inside it leaves this.
      writeFileSync(join(journal, `deck-${ws.deckId}.json`), '{"v":2,"tx":"ab')
      const head = (await ws.git('rev-parse', 'HEAD')).trim()
      const renamed = await studio(ws.dir, ['deck', 'rename', 'After the tear', '--json'])
      assert.equal(renamed.code, 0, renamed.stdout)
      assert.equal((await ws.git('rev-parse', 'HEAD^')).trim(), head, 'one commit, on the last')
      assert.deepEqual(readdirSync(journal).filter((n) => n.endsWith('.json')), [])
      assert.equal((await ws.git('status', '--porcelain')).trim(), '')
    } finally {
      ws.cleanup()
    }
  })

  it("puts back only what the interrupted write touched: the user's own edits and untracked files stay", async () => {
    const ws = await workspaceWithDeck('Mine')
    try {
      const slide = join(ws.dir, `decks/${ws.deckId}/slides/title-1.json`)
      const edited = readFileSync(slide, 'utf8').replace('"Mine"', '"Mine, edited by hand"')
      writeFileSync(slide, edited)
      writeFileSync(join(ws.dir, `decks/${ws.deckId}/draft-notes.txt`), 'my own notes\n')
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'rename', 'Never committed', '--rev', '0', '--json']), null)
      const info = await studio(ws.dir, ['info', '--json'])
      assert.equal(info.code, 0, info.stdout + info.stderr)
      assert.equal(info.json.title, 'Mine')
      assert.equal(info.json.revision, 0)
      assert.equal(readFileSync(slide, 'utf8'), edited, 'an uncommitted edit of a file the write did not touch')
      assert.equal(readFileSync(join(ws.dir, `decks/${ws.deckId}/draft-notes.txt`), 'utf8'), 'my own notes\n', 'an untracked file')
      assert.deepEqual(journals(ws.dir), [])
      assert.deepEqual((await ws.git('status', '--porcelain')).split('\n').filter(Boolean).sort(), [` M decks/${ws.deckId}/slides/title-1.json`, `?? decks/${ws.deckId}/draft-notes.txt`])
    } finally {
      ws.cleanup()
    }
  })

  it("puts back the pre-image of a file the user had edited and the write rewrote", async () => {
    const ws = await workspaceWithDeck('Edited')
    try {
      const manifest = join(ws.dir, `decks/${ws.deckId}/deck.json`)
      const edited = readFileSync(manifest, 'utf8').replace('"light"', '"dark"')
      writeFileSync(manifest, edited)
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'rename', 'Never committed', '--rev', '0', '--json']), null)
      assert.notEqual(readFileSync(manifest, 'utf8'), edited, 'the crash left the rewritten manifest')
      assert.equal((await studio(ws.dir, ['deck', 'list', '--json'])).code, 0)
      assert.equal(readFileSync(manifest, 'utf8'), edited, 'the manifest as the user left it, not as HEAD has it')
    } finally {
      ws.cleanup()
    }
  })

  it('does not list a deck whose creation was interrupted before its first commit', async () => {
    const ws = await workspaceWithDeck('Listed')
    try {
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'create', 'Phantom', '--json']), null)
      assert.ok(existsSync(join(ws.dir, 'decks/phantom/deck.json')), 'the crash left the files')
      const list = await studio(ws.dir, ['deck', 'list', '--json'])
      assert.deepEqual(list.json.decks.map((d: { id: string }) => d.id), [ws.deckId])
      assert.equal(existsSync(join(ws.dir, 'decks/phantom')), false)
      assert.equal(await ws.git('status', '--porcelain'), '')
    } finally {
      ws.cleanup()
    }
  })

  it('reads the revision after repair for a CLI write without --rev (no spurious 409)', async () => {
    const ws = await workspaceWithDeck('Implicit')
    try {
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'rename', 'Lost', '--rev', '0', '--json']), null)
      const write = await studio(ws.dir, ['deck', 'rename', 'Next', '--json'])
      assert.equal(write.code, 0, write.stdout)
      assert.equal(write.json.revision, 1)
    } finally {
      ws.cleanup()
    }
  })

  it("never removes an index.lock a live git process holds: workspace_busy, and nothing touched", async () => {
    const ws = await workspaceWithDeck('Busy repair')
    try {
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'create', 'Half', '--json']), null)
      const left = snapshot(join(ws.dir, 'decks'))
      const holder = await holdIndexLock(ws.dir)
      try {
        const read = await studio(ws.dir, ['deck', 'list', '--json'])
        assert.equal(read.code, 4, read.stdout)
        assert.equal(read.json.code, 'workspace_busy')
        assert.ok(existsSync(join(ws.dir, '.git/index.lock')), 'the holder keeps its lock')
        assert.deepEqual(snapshot(join(ws.dir, 'decks')), left, 'nothing repaired under a live git')
        assert.equal(journals(ws.dir).filter((name) => name.endsWith('.json')).length, 1, 'the journal stays for a later repair')
      } finally {
        await release(holder, ws.dir)
      }
      const list = await studio(ws.dir, ['deck', 'list', '--json'])
      assert.equal(list.code, 0, list.stdout)
      assert.equal(existsSync(join(ws.dir, 'decks/half')), false)
    } finally {
      ws.cleanup()
    }
  })

  it('treats an index.lock older than the interrupted write as doubt, and one made after it as the write\'s own', async () => {
    const ws = await workspaceWithDeck('Stale lock')
    try {
      assert.equal(await crashAt(ws.dir, 'after-write', ['deck', 'rename', 'Lost', '--rev', '0', '--json']), null)
      const lock = join(ws.dir, '.git/index.lock')
      writeFileSync(lock, '')
      const hourAgo = new Date(Date.now() - 3600_000)
      utimesSync(lock, hourAgo, hourAgo)
      const doubt = await studio(ws.dir, ['info', '--json'])
      assert.equal(doubt.json.code, 'workspace_busy', doubt.stdout)
      assert.ok(existsSync(lock), 'a lock studio cannot call its own is left alone')
      const now = new Date()
      utimesSync(lock, now, now)
      const repaired = await studio(ws.dir, ['info', '--json'])
      assert.equal(repaired.code, 0, repaired.stdout)
      assert.equal(repaired.json.title, 'Stale lock')
      assert.equal(existsSync(lock), false, 'the killed write left it: removed')
    } finally {
      ws.cleanup()
    }
  })
})

describe('a refused write', () => {
  it('refused with workspace_busy (git index taken before the commit) leaves the tree, the index and the deck list exactly as they were', async () => {
    const ws = await workspaceWithDeck('Refused')
    try {
      const decks = snapshot(join(ws.dir, 'decks'))
      const index = readFileSync(join(ws.dir, '.git/index'))
      const env = { STUDIO_FAULT: 'index-locked', STUDIO_FAULT_GIT_ROOT: ws.dir }
      const rename = await studio(ws.dir, ['deck', 'rename', 'Not now', '--json'], { env })
      assert.equal(rename.json.code, 'workspace_busy', rename.stdout)
      const create = await studio(ws.dir, ['deck', 'create', 'Not created', '--json'], { env })
      assert.equal(create.json.code, 'workspace_busy', create.stdout)
      rmSync(join(ws.dir, '.git/index.lock'))
      assert.deepEqual(snapshot(join(ws.dir, 'decks')), decks)
      assert.deepEqual(readFileSync(join(ws.dir, '.git/index')), index)
      assert.deepEqual(journals(ws.dir), [])
      assert.deepEqual((await studio(ws.dir, ['deck', 'list', '--json'])).json.decks.map((d: { id: string }) => d.id), [ws.deckId])
      assert.equal(await ws.git('status', '--porcelain'), '')
    } finally {
      ws.cleanup()
    }
  })

  it('refused because a user git holds the index answers workspace_busy before writing anything', async () => {
    const ws = await workspaceWithDeck('Held')
    try {
      const decks = snapshot(join(ws.dir, 'decks'))
      const holder = await holdIndexLock(ws.dir)
      try {
        const rename = await studio(ws.dir, ['deck', 'rename', 'Not now', '--json'])
        assert.equal(rename.json.code, 'workspace_busy', rename.stdout)
      } finally {
        await release(holder, ws.dir)
      }
      assert.deepEqual(snapshot(join(ws.dir, 'decks')), decks)
      assert.deepEqual(journals(ws.dir), [])
    } finally {
      ws.cleanup()
    }
  })
})

describe('outside any workspace', () => {
  it("refuses a write with the init hint and never writes into the package or commits into its repository", async () => {
    const plain = mkdtempSync(join(tmpdir(), 'studio-plain-'))
    try {
      // The package's own commit (a clone's or a linked worktree's, where .git is a file), when it has one.
      const headOf = () => spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim()
      const head = existsSync(join(ROOT, '.git')) ? headOf() : ''
      const decksBefore = readdirSync(join(ROOT, 'decks')).sort()
      const create = await studio(plain, ['deck', 'create', 'Stray', '--json'])
      assert.equal(create.code, 5, create.stdout)
      assert.equal(create.json.code, 'read_only')
      assert.match(create.json.message, /studio init/)
      assert.deepEqual(readdirSync(join(ROOT, 'decks')).sort(), decksBefore)
      if (head) assert.equal(headOf(), head)
      const info = await studio(plain, ['info', '--json'])
      assert.equal(info.code, 0, info.stdout)
      assert.equal(info.json.id, 'welcome', 'reads show the embedded default deck')
      const server = await serve(plain, [], { ttl: 60 })
      try {
        const response = await fetch(`${server.url}/api/actions/deck.rename`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Stray', baseRevision: 0 }) })
        const body = (await response.json()) as { code: string }
        assert.equal(response.status, 403)
        assert.equal(body.code, 'read_only')
        const read = await fetch(`${server.url}/api/actions/deck.info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
        assert.equal(read.status, 200)
      } finally {
        await server.stop()
      }
      assert.equal(existsSync(join(plain, '.studio')), false)
    } finally {
      rmSync(plain, { recursive: true, force: true })
    }
  })
})

describe('symbolic links in a deck folder', () => {
  it('refuses to read a deck through a linked folder or file', async () => {
    const ws = await workspaceWithDeck('Linked')
    const outside = mkdtempSync(join(tmpdir(), 'studio-outside-'))
    try {
      const slides = join(ws.dir, `decks/${ws.deckId}/slides`)
      renameSync(slides, join(outside, 'slides'))
      symlinkSync(join(outside, 'slides'), slides)
      const target = snapshot(outside)
      const write = await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--rev', '0', '--json'])
      assert.notEqual(write.code, 0, write.stdout)
      assert.match(write.json.message, /symbolic link/)
      assert.deepEqual(snapshot(outside), target)
      rmSync(slides)
      renameSync(join(outside, 'slides'), slides)
      const manifest = join(ws.dir, `decks/${ws.deckId}/deck.json`)
      const deckFile = join(outside, 'deck.json')
      renameSync(manifest, deckFile)
      symlinkSync(deckFile, manifest)
      const outsideBefore = readFileSync(deckFile)
      const rename = await studio(ws.dir, ['deck', 'rename', 'Through the link', '--rev', '0', '--json'])
      assert.match(rename.json.message, /symbolic link/)
      assert.deepEqual(readFileSync(deckFile), outsideBefore)
    } finally {
      ws.cleanup()
      rmSync(outside, { recursive: true, force: true })
    }
  })

  it('refuses a write that would pass through a linked folder, and writes nothing outside the workspace', async () => {
    const ws = await workspaceWithDeck('Source')
    const outside = mkdtempSync(join(tmpdir(), 'studio-outside-'))
    try {
      mkdirSync(join(ws.dir, 'decks/source/assets'))
      writeFileSync(join(ws.dir, 'decks/source/assets/logo.png'), 'png bytes')
      assert.equal((await studio(ws.dir, ['deck', 'pack', 'source', '--out', 'source.zip', '--json'])).code, 0)
      assert.equal((await studio(ws.dir, ['deck', 'create', 'Victim', '--json'])).code, 0)
      symlinkSync(outside, join(ws.dir, 'decks/victim/assets'))
      const refused = await studio(ws.dir, ['deck', 'unpack', 'source.zip', '--as', 'victim', '--replace', '--json'])
      assert.equal(refused.json.code, 'refused', refused.stdout)
      assert.match(refused.json.message, /symbolic link/)
      assert.deepEqual(readdirSync(outside), [])
      assert.equal(JSON.parse(readFileSync(join(ws.dir, 'decks/victim/deck.json'), 'utf8')).title, 'Victim')
    } finally {
      ws.cleanup()
      rmSync(outside, { recursive: true, force: true })
    }
  })
})

describe('a refused bundle', () => {
  const deck = (id: string) => Buffer.from(JSON.stringify({ id, title: 'Evil', theme: 'studio-simple', sections: [], revision: 0, stamps: { createdAt: 'x', updatedAt: 'x' } }))

  function bundle(entries: { name: string; data: Buffer }[], deckId = 'evil'): Buffer {
    const files: Record<string, string> = {}
    for (const e of entries) files[e.name] = createHash('sha256').update(e.data).digest('hex')
    const manifest = Buffer.from(JSON.stringify({ bundleVersion: 1, deckId, revision: 0, files }))
    return writeZip([{ name: 'manifest.json', data: manifest }, ...entries])
  }

  it('with a nested .git folder writes nothing anywhere (a .git config could run commands on the next git status)', async () => {
    const ws = await workspaceWithDeck('Target')
    try {
      const before = snapshot(join(ws.dir, 'decks'))
      for (const name of ['assets/.git/config', 'assets/x/.git/hooks/pre-commit', 'assets/.gitattributes', 'assets/.gitignore', 'assets/.GIT/config']) {
        writeFileSync(join(ws.dir, 'evil.zip'), bundle([{ name: 'deck.json', data: deck('evil') }, { name, data: Buffer.from('[core]\n\tfsmonitor = touch pwned\n') }]))
        const refused = await studio(ws.dir, ['deck', 'unpack', 'evil.zip', '--json'])
        assert.equal(refused.json.code, 'refused', `${name}: ${refused.stdout}`)
        assert.match(refused.json.message, /git/)
      }
      const long = `assets/${'a'.repeat(300)}.png`
      writeFileSync(join(ws.dir, 'evil.zip'), bundle([{ name: 'deck.json', data: deck('evil') }, { name: long, data: Buffer.from('x') }]))
      assert.equal((await studio(ws.dir, ['deck', 'unpack', 'evil.zip', '--json'])).json.code, 'refused')
      assert.deepEqual(snapshot(join(ws.dir, 'decks')), before)
      assert.equal(existsSync(join(ws.dir, 'pwned')), false)
      assert.deepEqual(tmpLeft(ws.dir), [])
      assert.equal(await ws.git('status', '--porcelain'), '?? evil.zip\n')
    } finally {
      ws.cleanup()
    }
  })

  it('whose deck fails the model check after its files were extracted leaves no file behind', async () => {
    const ws = await workspaceWithDeck('Target')
    try {
      const commits = await commitCount(ws.git)
      const slide = Buffer.from(JSON.stringify({ id: 's1', layout: 'no-such-layout' }))
      const manifest = Buffer.from(JSON.stringify({ id: 'evil', title: 'Evil', theme: 'studio-simple', sections: [{ id: 'main', title: 'Main', slides: ['s1'] }], revision: 0, stamps: { createdAt: 'x', updatedAt: 'x' } }))
      writeFileSync(join(ws.dir, 'bad.zip'), bundle([{ name: 'deck.json', data: manifest }, { name: 'slides/s1.json', data: slide }, { name: 'assets/a.png', data: Buffer.from('png') }]))
      const refused = await studio(ws.dir, ['deck', 'unpack', 'bad.zip', '--json'])
      assert.equal(refused.json.code, 'invalid_input', refused.stdout)
      assert.equal(existsSync(join(ws.dir, 'decks/evil')), false)
      assert.deepEqual(tmpLeft(ws.dir), [])
      assert.equal(await commitCount(ws.git), commits)
    } finally {
      ws.cleanup()
    }
  })
})

describe('the engine on every write', () => {
  it('refuses a baseRevision above the current one', async () => {
    const ws = await workspaceWithDeck('Ahead')
    try {
      const ahead = await studio(ws.dir, ['deck', 'rename', 'From the future', '--rev', '7', '--json'])
      assert.equal(ahead.code, 4)
      assert.equal(ahead.json.code, 'stale_revision')
      assert.equal(ahead.json.currentRevision, 0)
    } finally {
      ws.cleanup()
    }
  })

  it('commits nothing for a call that changes nothing', async () => {
    const ws = await workspaceWithDeck('Same')
    try {
      const commits = await commitCount(ws.git)
      const same = await studio(ws.dir, ['deck', 'rename', 'Same', '--rev', '0', '--json'])
      assert.equal(same.code, 0, same.stdout)
      assert.equal(same.json.revision, 0)
      const noGuides = await studio(ws.dir, ['deck', 'guides', '--clear', '--rev', '0', '--json'])
      assert.equal(noGuides.code, 0, noGuides.stdout)
      assert.equal(await commitCount(ws.git), commits)
      assert.equal((await studio(ws.dir, ['info', '--json'])).json.revision, 0)
    } finally {
      ws.cleanup()
    }
  })

  it('treats a trashed deck as read-only until it is restored', async () => {
    const ws = await workspaceWithDeck('Binned')
    try {
      assert.equal((await studio(ws.dir, ['deck', 'trash', ws.deckId, '--rev', '0', '--json'])).code, 0)
      for (const args of [['deck', 'rename', 'Still here', '--rev', '1'], ['slide', 'new', '--layout', 'title-body', '--rev', '1'], ['version', 'save', '-m', 'x']]) {
        const refused = await studio(ws.dir, [...args, '--deck', ws.deckId, '--json'])
        assert.equal(refused.code, 5, `${args.join(' ')}: ${refused.stdout}`)
        assert.equal(refused.json.code, 'read_only')
      }
      assert.equal((await studio(ws.dir, ['deck', 'restore', ws.deckId, '--rev', '1', '--json'])).code, 0)
      assert.equal((await studio(ws.dir, ['deck', 'rename', 'Back', '--deck', ws.deckId, '--rev', '2', '--json'])).code, 0)
    } finally {
      ws.cleanup()
    }
  })

  it('refuses removing a leased slide, and a deck holding one, with the current document', async () => {
    const ws = await workspaceWithDeck('Leased')
    try {
      assert.equal((await studio(ws.dir, ['lease', 'title-1', '--json'], { env: { STUDIO_AUTHOR: 'ada' } })).code, 0)
      const slide = await studio(ws.dir, ['slide', 'remove', 'title-1', '--rev', '0', '--json'], { env: { STUDIO_AUTHOR: 'bob' } })
      assert.equal(slide.json.code, 'leased', slide.stdout)
      assert.equal(slide.json.currentRevision, 0)
      assert.equal(slide.json.current.manifest.id, ws.deckId)
      assert.equal(slide.json.holder.author, 'ada')
      const deck = await studio(ws.dir, ['deck', 'remove', ws.deckId, '--confirm', '--rev', '0', '--json'], { env: { STUDIO_AUTHOR: 'bob' } })
      assert.equal(deck.json.code, 'leased', deck.stdout)
      assert.ok(existsSync(join(ws.dir, 'decks', ws.deckId, 'deck.json')))
      const forced = await studio(ws.dir, ['deck', 'remove', ws.deckId, '--confirm', '--force', '--rev', '0', '--json'], { env: { STUDIO_AUTHOR: 'bob' } })
      assert.equal(forced.code, 0, forced.stdout)
    } finally {
      ws.cleanup()
    }
  })
})
