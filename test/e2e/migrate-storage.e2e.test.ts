/**
 * admin.migrateStorage (src/hosted/migrate.ts; docs/hosting.md "Moving a workspace into the hosted
 * store") on a real throw-away PostgreSQL and s3rver on loopback: a 95-slide deck with an asset, a
 * comment, a named version and a rename moves from a git workspace into the hosted store and back into
 * another workspace, the CLI killed (SIGKILL at a STUDIO_FAULT point) at random batches of every step;
 * the decks come back byte for byte with their history (the same changes, authors, times, subjects and
 * trailers), and delete is refused until a verify has passed after cutover.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import S3rver from 's3rver'
import sharp from 'sharp'
import { POSTGRES_MISSING, postgresBin, startPostgres, type Cluster } from '../helpers/postgres.js'
import { skipUnlessPresent } from '../helpers/system.js'
import { studio, workspace, type TestWorkspace } from '../helpers/studio.js'

const skip = skipUnlessPresent(postgresBin(), POSTGRES_MISSING)
const BUCKET = 'studio-decks'
const SEED = Number(process.env.STUDIO_TEST_SEED) || Date.now() % 100_000

/** A small seeded generator (mulberry32): a failing run is repeated with its seed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Every commit touching a deck folder, as the change log keeps it: author, address, time, subject, trailers (minus each engine's own). */
async function history(ws: TestWorkspace, rev: string, folder: string): Promise<string[]> {
  const text = await ws.git('log', '--first-parent', '--format=%an|%ae|%at|%s|%(trailers:only,unfold)%x1e', rev, '--', folder)
  return text
    .split('\x1e')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      // The change log keeps trailers as a JSON object (jsonb orders its keys): the same set, compared in order.
      const [head, ...lines] = entry.split('\n')
      const [first, trailer] = [head.slice(0, head.lastIndexOf('|') + 1), head.slice(head.lastIndexOf('|') + 1)]
      return first + [trailer, ...lines].filter((line) => line && !/^Studio-(Tx|Seq|Migrated):/.test(line)).sort().join('\n')
    })
}

describe('admin.migrateStorage between a git workspace and the hosted store', { skip }, () => {
  let cluster: Cluster
  let store: S3rver
  let storeDir: string
  let env: Record<string, string>
  const rnd = random(SEED)
  let kills = 0

  before(async () => {
    cluster = await startPostgres()
    storeDir = mkdtempSync(join(tmpdir(), 'studio-s3-'))
    store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: storeDir, configureBuckets: [{ name: BUCKET }] })
    const { port } = await store.run()
    env = {
      STUDIO_DATABASE_URL: await cluster.database('migrate'),
      STUDIO_S3_BUCKET: BUCKET,
      STUDIO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      STUDIO_S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    }
  })
  after(async () => {
    await store?.close()
    await cluster?.stop()
    if (storeDir) rmSync(storeDir, { recursive: true, force: true })
  })

  const migrate = (ws: TestWorkspace, step: string, to: string, batch: number, fault = '') =>
    studio(ws.dir, ['admin', 'migrate-storage', step, '--to', to, '--batch', String(batch), '--json'], { env: { ...env, STUDIO_FAULT: fault } })

  /** Runs a step until it answers done, killing the CLI at one of `points` in its first call and in about a third of the others. */
  async function runStep(ws: TestWorkspace, step: string, to: string, batch: number, points: string[]) {
    for (let call = 0; call < 300; call++) {
      const fault = points.length && (call === 0 || rnd() < 0.35) ? points[Math.floor(rnd() * points.length)] : ''
      const r = await migrate(ws, step, to, batch, fault)
      if (fault && r.code === -1) {
        kills++
        continue
      }
      assert.equal(r.code, 0, `${step} --to ${to} (fault ${fault || 'none'}, seed ${SEED}): ${r.stdout}${r.stderr}`)
      if (r.json.done) return r.json
    }
    assert.fail(`${step} never answered done`)
  }

  it('moves a 95-slide deck with assets, comments and history into the hosted store and back, killed at random batches', async (t) => {
    t.diagnostic(`seed ${SEED}`)
    const a = await workspace()
    const b = await workspace()
    try {
      const run = async (...args: string[]) => {
        const r = await studio(a.dir, [...args, '--json'])
        assert.equal(r.code, 0, r.stdout + r.stderr)
        return r.json
      }
      await run('deck', 'create', 'Brand', '--from', 'brand-sample')
      mkdirSync(join(a.dir, 'photos'))
      writeFileSync(join(a.dir, 'photos', 'harbour.jpg'), await sharp({ create: { width: 600, height: 400, channels: 3, background: '#35607a' } }).jpeg().toBuffer())
      await run('asset', 'add', 'photos/harbour.jpg', '--role', 'picture', '--alt', 'The harbour', '--deck', 'brand')
      await run('comment', 'add', 'slide:agenda-1', '-m', 'Is this the final agenda?', '--deck', 'brand')
      await run('version', 'save', '-m', 'First cut', '--deck', 'brand')
      await run('deck', 'rename', 'Brand book', '--deck', 'brand')
      await run('deck', 'create', 'Second deck')
      const headA = (await a.git('rev-parse', 'HEAD')).trim()
      const folders = ['decks/brand', 'decks/second-deck']
      const treeA = await Promise.all(folders.map((f) => a.git('ls-tree', '-r', headA, '--', f)))
      const historyA = await Promise.all(folders.map((f) => history(a, headA, f)))
      assert.ok(historyA[0].length >= 5 && (await a.git('ls-tree', '-r', '--name-only', headA, '--', 'decks/brand/slides')).split('\n').filter(Boolean).length === 95)

      // Into the hosted store.
      const planned = await runStep(a, 'plan', 'hosted', 2, ['migrate-plan'])
      assert.equal(planned.counts.planned, historyA[0].length + historyA[1].length)
      const copied = await runStep(a, 'copy', 'hosted', 2, ['migrate-objects', 'migrate-rows'])
      assert.equal(copied.counts.copied, planned.counts.planned)
      const early = await migrate(a, 'delete', 'hosted', 1)
      assert.equal(early.code, 2, early.stdout)
      assert.equal(early.json.code, 'refused')
      // Until cutover the workspace holds the decks: the hosted store takes no write to them.
      const tooSoon = await studio(a.dir, ['deck', 'rename', 'Too soon', '--deck', 'brand', '--json'], { env: { ...env, STUDIO_STORE: 'hosted' } })
      assert.deepEqual([tooSoon.code, tooSoon.json?.code], [5, 'read_only'], tooSoon.stdout + tooSoon.stderr)
      const verified = await runStep(a, 'verify', 'hosted', 40, ['migrate-verify'])
      assert.equal(verified.verify.passed, true, JSON.stringify(verified.verify))
      const cut = await runStep(a, 'cutover', 'hosted', 1, ['migrate-cutover'])
      assert.equal(cut.active, 'target')
      // After it the hosted store does: the checkout takes no write to a moved deck (one to a deck that did not move is its own).
      const late = await studio(a.dir, ['deck', 'rename', 'Written after cutover', '--deck', 'brand', '--json'], { env })
      assert.deepEqual([late.code, late.json?.code], [5, 'read_only'], late.stdout + late.stderr)
      assert.match(late.json.message, /decks\/brand .*hosted store/)
      // Not before a verify after cutover: the one error shape, 400 refused, nothing deleted.
      const refused = await migrate(a, 'delete', 'hosted', 1)
      assert.equal(refused.code, 2, refused.stdout)
      assert.deepEqual([refused.json.status, refused.json.code], [400, 'refused'])
      assert.match(refused.json.message, /verify/)
      assert.equal((await a.git('rev-parse', 'HEAD')).trim(), headA)
      await runStep(a, 'verify', 'hosted', 40, ['migrate-verify'])
      const deleted = await runStep(a, 'delete', 'hosted', 1, ['migrate-delete'])
      assert.equal(deleted.state, 'deleted')
      assert.equal((await a.git('ls-tree', '-r', 'HEAD', '--', 'decks/brand', 'decks/second-deck')).trim(), '')
      // Safe to run twice.
      assert.equal((await migrate(a, 'delete', 'hosted', 1)).json.done, true)

      // And back, into another workspace.
      await runStep(b, 'plan', 'git', 3, ['migrate-plan'])
      const back = await runStep(b, 'copy', 'git', 2, ['migrate-commit'])
      assert.equal(back.counts.copied, planned.counts.planned)
      await runStep(b, 'verify', 'git', 40, ['migrate-verify'])
      await runStep(b, 'cutover', 'git', 1, [])
      assert.equal((await migrate(b, 'delete', 'git', 1)).json.code, 'refused')
      const again = await runStep(b, 'verify', 'git', 40, [])
      assert.equal(again.verify.passed, true, JSON.stringify(again.verify))
      assert.equal(again.verify.afterCutover, true)
      await runStep(b, 'delete', 'git', 1, ['migrate-delete'])

      // Byte for byte (the same blobs), the same changes with the same authors, times, subjects and trailers.
      const treeB = await Promise.all(folders.map((f) => b.git('ls-tree', '-r', 'HEAD', '--', f)))
      assert.deepEqual(treeB, treeA)
      const historyB = await Promise.all(folders.map((f) => history(b, 'HEAD', f)))
      assert.deepEqual(historyB, historyA)
      // One commit per change, none twice (a commit the path-limited log would hide, an empty repeat, counts here).
      assert.equal((await b.git('log', '--format=%H', '--grep=^Studio-Migrated: ')).split('\n').filter(Boolean).length, planned.counts.planned)
      assert.equal((await b.git('status', '--porcelain')).trim(), '')
      await b.git('fsck', '--full')
      t.diagnostic(`${kills} CLI runs killed`)
      assert.ok(kills > 0, 'some runs were killed')
    } finally {
      a.cleanup()
      b.cleanup()
    }
  })

  it('rolls a cutover back, bringing the hosted side\'s writes home as commits, killed at random batches', async () => {
    const a = await workspace()
    try {
      const run = async (args: string[], extra: Record<string, string> = {}) => {
        const r = await studio(a.dir, [...args, '--json'], { env: extra })
        assert.equal(r.code, 0, r.stdout + r.stderr)
        return r.json
      }
      await run(['deck', 'create', 'Small', '--id', 'small'])
      await run(['deck', 'rename', 'Small deck', '--deck', 'small'])
      await runStep(a, 'plan', 'hosted', 5, [])
      await runStep(a, 'copy', 'hosted', 5, [])
      await runStep(a, 'verify', 'hosted', 40, [])
      await runStep(a, 'cutover', 'hosted', 1, [])
      // The hosted side now holds the deck: a write there, which the workspace does not have.
      const hosted = { ...env, STUDIO_STORE: 'hosted', STUDIO_AUTHOR: 'Hosted Hana' }
      await run(['deck', 'rename', 'Renamed on the hosted side', '--deck', 'small'], hosted)
      // A verify after cutover reads the hosted side where the migration left it: its own writes since do not fail it.
      const checked = await runStep(a, 'verify', 'hosted', 40, [])
      assert.deepEqual([checked.verify.passed, checked.verify.afterCutover], [true, true], JSON.stringify(checked.verify))
      const before = Number((await a.git('rev-list', '--count', 'HEAD')).trim())
      const back = await runStep(a, 'rollback', 'hosted', 1, ['migrate-commit', 'migrate-delete'])
      assert.deepEqual([back.state, back.active], ['rolled_back', 'source'])
      // The hosted write came home as one commit with its author, and the workspace holds the deck again.
      const log = (await a.git('log', '--format=%an|%s', `HEAD~${Number((await a.git('rev-list', '--count', 'HEAD')).trim()) - before}..HEAD`, '--', 'decks/small')).trim().split('\n')
      assert.deepEqual(log, ['Hosted Hana|deck.rename small r2'])
      assert.equal((await run(['info', '--deck', 'small'])).title, 'Renamed on the hosted side')
      // The pointer is back: the checkout writes, and the hosted store no longer has the deck.
      await run(['deck', 'rename', 'Home again', '--deck', 'small'])
      const gone = await studio(a.dir, ['info', '--deck', 'small', '--json'], { env: hosted })
      assert.equal(gone.json?.code, 'not_found', gone.stdout + gone.stderr)
    } finally {
      a.cleanup()
    }
  })
})
