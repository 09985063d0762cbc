/**
 * Crashes: a `studio` write killed with SIGKILL, at each injected fault point and at random moments.
 *
 * RELIABILITY.md promises 100 random kills; the default run does STUDIO_SOAK_KILLS (12) so CI stays
 * quick, and `npm run test:soak` runs the full 100. Each test keeps a file of the user's own in the
 * deck folder (an uncommitted edit and an untracked file): repair must leave them as they are.
 * The killed writes are processes of their own; the calls that look afterwards (and repair) run in the
 * file's CLI host when it is free (`oneProcess`), since the process that repairs is not what is tested.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { BIN, studio, workspaceWithDeck } from '../helpers/studio.js'

const KILLS = Number(process.env.STUDIO_SOAK_KILLS) || 12

function crashAt(dir: string, point: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, STUDIO_FAULT: point, STUDIO_ROOT: '' }, stdio: 'ignore' })
    child.on('exit', (code, signal) => resolve(signal === 'SIGKILL' ? null : code))
  })
}

/** Files a killed atomic write can leave (`<name>.<digits>`), and journal leftovers. */
function leftovers(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name))
      else if (/\.\d+$/.test(e.name)) out.push(join(d, e.name))
    }
  }
  walk(join(dir, 'decks'))
  if (existsSync(join(dir, '.studio/journal'))) out.push(...readdirSync(join(dir, '.studio/journal')))
  // Temp object files of the in-process commit (git-direct.ts), written before they are named.
  for (const folder of readdirSync(join(dir, '.git/objects'))) {
    if (/^[0-9a-f]{2}$/.test(folder)) out.push(...readdirSync(join(dir, '.git/objects', folder)).filter((n) => n.startsWith('tmp_obj')).map((n) => `.git/objects/${folder}/${n}`))
  }
  return out
}

/** The user's own work in the deck folder, which no repair may touch. */
function addOwnWork(dir: string, deckId: string) {
  const own = join(dir, `decks/${deckId}/my-notes.txt`)
  writeFileSync(own, 'mine\n')
  return { own, status: `?? decks/${deckId}/my-notes.txt` }
}

function everyJsonParses(dir: string): void {
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name))
      else if (e.name.endsWith('.json')) JSON.parse(readFileSync(join(d, e.name), 'utf8'))
    }
  }
  walk(join(dir, 'decks'))
}

interface Case {
  name: string
  args: string[]
  /** What the deck must show when the write landed (after-commit) or did not (every earlier point). */
  check: (info: any, landed: boolean, dir: string) => void
}

const CASES: Case[] = [
  {
    name: 'a rename (one file rewritten)',
    args: ['deck', 'rename', 'Half written', '--rev', '0'],
    check: (info, landed) => assert.equal(info.title, landed ? 'Half written' : 'Crash'),
  },
  {
    name: 'a new slide (a file added, the manifest rewritten)',
    args: ['slide', 'new', '--layout', 'title-body', '--rev', '0'],
    check: (info, landed, dir) => {
      assert.equal(info.counts.slides, landed ? 2 : 1)
      assert.equal(existsSync(join(dir, 'decks/crash/slides/title-body-1.json')), landed)
    },
  },
  {
    name: 'a removed slide (a file removed, the manifest rewritten)',
    args: ['slide', 'remove', 'title-1', '--rev', '0'],
    check: (info, landed, dir) => {
      assert.equal(info.counts.slides, landed ? 0 : 1)
      assert.equal(existsSync(join(dir, 'decks/crash/slides/title-1.json')), !landed)
    },
  },
]

// Each test has a workspace of its own and spends most of its time waiting for the killed writer's
// lock to go stale (src/store/lock.ts), so a few run at once.
describe('a write killed at each fault point', { concurrency: 4 }, () => {
  // object-temps, in-objects and after-ref are inside the in-process commit (src/store/git-direct.ts):
  // objects in temp files not named yet; objects written and the branch not moved yet; the branch
  // moved and the index not written yet.
  for (const point of ['after-journal', 'mid-write', 'in-write', 'after-write', 'in-commit', 'object-temps', 'in-objects', 'after-ref', 'after-commit']) {
    for (const c of CASES) {
      // A single-file write has no middle.
      if (point === 'mid-write' && c.name.startsWith('a rename')) continue
      const committed = point === 'after-commit' || point === 'after-ref'
      it(`${c.name}, killed ${point}: ${committed ? 'kept (it committed)' : 'put back exactly'}, the user's files untouched`, async () => {
        const ws = await workspaceWithDeck('Crash')
        try {
          const { own, status } = addOwnWork(ws.dir, ws.deckId)
          const head = (await ws.git('rev-parse', 'HEAD')).trim()
          assert.equal(await crashAt(ws.dir, point, [...c.args, '--json']), null, 'the child was killed')
          const landed = committed
          assert.equal((await ws.git('rev-parse', 'HEAD')).trim() !== head, landed, 'a commit exists exactly when the write got that far')
          const info = await studio(ws.dir, ['info', '--json'], { oneProcess: true })
          assert.equal(info.code, 0, info.stdout + info.stderr)
          assert.equal(info.json.revision, landed ? 1 : 0)
          c.check(info.json, landed, ws.dir)
          assert.equal(readFileSync(own, 'utf8'), 'mine\n')
          assert.equal((await ws.git('status', '--porcelain')).trim(), status)
          assert.deepEqual(leftovers(ws.dir), [])
          everyJsonParses(ws.dir)
          const next = await studio(ws.dir, ['deck', 'rename', 'After', '--rev', String(info.json.revision), '--json'], { oneProcess: true })
          assert.equal(next.code, 0, next.stdout)
          await ws.git('fsck', '--full')
        } finally {
          ws.cleanup()
        }
      })
    }
  }
})

describe(`a writing loop killed at random moments (${KILLS} kills)`, () => {
  it('loses no acknowledged revision, leaves every file parseable and no temp file, and keeps the user\'s files', { timeout: 30 * 60_000 }, async (t) => {
    const ws = await workspaceWithDeck('Loop')
    try {
      const { own, status } = addOwnWork(ws.dir, ws.deckId)
      let killsInsideWrites = 0
      for (let round = 0; round < KILLS; round++) {
        const info = await studio(ws.dir, ['info', '--json'], { oneProcess: true })
        assert.equal(info.code, 0, info.stdout + info.stderr)
        let acknowledged = info.json.revision as number
        // Its own process group, so the kill also hits the studio process it is running at that moment.
        const child = spawn(process.execPath, ['-e', loopScript(ws.dir, round)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
        let childErr = ''
        child.stderr.on('data', (d: Buffer) => (childErr += d))
        child.stdout.on('data', (d: Buffer) => {
          for (const line of d.toString().split('\n').filter(Boolean)) acknowledged = Math.max(acknowledged, Number(line))
        })
        await new Promise((r) => setTimeout(r, 250 + Math.random() * 900))
        const exited = new Promise((r) => child.on('exit', r))
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          assert.fail(`round ${round}: the writing loop stopped by itself: ${childErr.slice(-600)}`)
        }
        await exited
        if (existsSync(join(ws.dir, '.studio/journal')) && readdirSync(join(ws.dir, '.studio/journal')).some((f) => f.endsWith('.json'))) killsInsideWrites++
        const after = await studio(ws.dir, ['info', '--json'], { oneProcess: true })
        assert.equal(after.code, 0, after.stdout + after.stderr)
        assert.ok(after.json.revision === acknowledged || after.json.revision === acknowledged + 1, `round ${round}: revision ${after.json.revision}, acknowledged ${acknowledged}`)
        const trailer = (await ws.git('log', '-1', '--format=%(trailers:key=Studio-Revision,valueonly)')).trim()
        assert.equal(Number(trailer), after.json.revision, 'HEAD is the revision the deck shows')
        everyJsonParses(ws.dir)
        assert.equal(readFileSync(own, 'utf8'), 'mine\n')
        assert.equal((await ws.git('status', '--porcelain')).trim(), status)
        assert.deepEqual(leftovers(ws.dir), [])
      }
      await ws.git('fsck', '--full')
      t.diagnostic(`${KILLS} kills, ${killsInsideWrites} of them inside a write (a journal was left)`)
    } finally {
      ws.cleanup()
    }
  })
})

/** A child that writes in a loop of studio processes (rename, new slide, remove it) and prints each acknowledged revision. */
function loopScript(dir: string, round: number): string {
  return `
    process.chdir(${JSON.stringify(dir)});
    const { execFileSync } = require('node:child_process');
    const run = (args) => JSON.parse(execFileSync(process.execPath, [${JSON.stringify(BIN)}, ...args, '--json'], { encoding: 'utf8' }));
    for (let i = 0; ; i++) {
      const step = i % 3;
      const out = step === 0 ? run(['deck', 'rename', 'Loop ' + i])
        : step === 1 ? run(['slide', 'new', '--layout', 'title-body', '--id', 'extra-${round}-' + i])
        : run(['slide', 'remove', 'extra-${round}-' + (i - 1)]);
      process.stdout.write(out.revision + '\\n');
    }`
}
