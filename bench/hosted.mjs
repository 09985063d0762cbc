#!/usr/bin/env node
// Hosted store (issue 27): the same deck served by `studio serve --store hosted` (PostgreSQL and an
// S3-compatible object store, both throw-away, on loopback) and by a plain `studio serve` on a git
// workspace, the same HTTP calls made on each in interleaved rounds: two writes (deck.rename, and one
// slide's text by block.set) and two reads (deck.info, slide.get). The git engine is the baseline of
// each ratio. Then, with two more hosted instances on the same store, how long after instance A answers
// a write instance B serves it: B with LISTEN/NOTIFY, and B with STUDIO_STORE_NOTIFY=0 (the version-row
// poll alone), measured in alternate rounds. Last, an instance's start-up: going on from the replica
// its last run left in STUDIO_CACHE_DIR against rebuilding it from the log. `npm run bench` runs it last; run alone with
// `node bench/hosted.mjs`. Skipped, with its reason printed, where PostgreSQL is not installed.
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSample, initWorkspace, interleaved, median, rounds, startServe, tsModule } from './lib.mjs'

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * p) - 1)]
const DECK = 'bench'

export async function hostedBench() {
  const { postgresBin, POSTGRES_MISSING, startPostgres } = await tsModule('../test/helpers/postgres.ts')
  if (!postgresBin()) {
    console.log(`\nhosted: skipped: ${POSTGRES_MISSING}`)
    return
  }
  const { Pool } = await import('undici')
  const { default: S3rver } = await import('s3rver')
  const R = rounds(Number(process.env.BENCH_HOSTED_ROUNDS ?? 60))
  const token = 'bench-'.padEnd(40, '0123456789abcdef')
  const temps = []
  const temp = (name) => {
    const dir = mkdtempSync(join(tmpdir(), `studio-bench-hosted-${name}-`))
    temps.push(dir)
    return dir
  }
  const servers = []
  const pools = []
  let cluster
  let store
  try {
    cluster = await startPostgres()
    store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: temp('s3'), configureBuckets: [{ name: 'b' }] })
    const { port } = await store.run()
    const hostedEnv = (name, more = {}) => ({
      STUDIO_STORE: 'hosted',
      STUDIO_DATABASE_URL: cluster.url,
      STUDIO_S3_BUCKET: 'b',
      STUDIO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      STUDIO_S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
      STUDIO_TOKEN: token,
      // Each replica in a folder of this run's, removed at its end whatever the instance does.
      STUDIO_CACHE_DIR: join(temp(`replica-${name}`), 'replica'),
      ...more,
    })
    const serve = async (cwd, env) => {
      const s = await startServe(cwd, 900, env)
      servers.push(s)
      const pool = new Pool(s.url, { connections: 1 })
      pools.push(pool)
      return { ...s, pool }
    }
    async function post(server, id, body, path = `/api/actions/${id}?deck=${DECK}`) {
      const r = await server.pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) })
      const json = await r.body.json()
      if (r.statusCode !== 200) throw new Error(`${id}: ${r.statusCode} ${JSON.stringify(json).slice(0, 300)}`)
      return json
    }

    // The git engine: the sample created in a workspace (as every block does), served plainly.
    const gitWs = temp('git')
    initWorkspace(gitWs)
    createSample(gitWs, 'Bench', ['--id', DECK])
    const git = await serve(gitWs, { STUDIO_TOKEN: token })
    // The hosted engine: instance A, holding the same deck, pushed as the git server's bundle.
    const a = await serve(temp('cwd-a'), hostedEnv('a'))
    const bundle = await git.pool.request({ path: `/api/decks/${DECK}/bundle`, method: 'GET', headers: { authorization: `Bearer ${token}` } })
    if (bundle.statusCode !== 200) throw new Error(`bundle: ${bundle.statusCode} ${await bundle.body.text()}`)
    const zip = Buffer.from(await bundle.body.arrayBuffer())
    const r = await a.pool.request({ path: '/api/decks/bundle', method: 'POST', headers: { 'content-type': 'application/zip', authorization: `Bearer ${token}` }, body: zip })
    if (r.statusCode !== 200) throw new Error(`bundle push: ${r.statusCode} ${await r.body.text()}`)
    await r.body.dump()
    const counts = await Promise.all([git, a].map(async (s) => (await post(s, 'deck.info', {})).counts.slides))
    if (counts[0] !== counts[1]) throw new Error(`the two engines hold different decks: ${counts.join(' and ')} slides`)

    // The same calls on each engine, interleaved round by round; each write names the revision its
    // engine's previous answer returned (a real client's loop).
    const revision = new Map()
    for (const s of [git, a]) {
      for (let i = 0; i < rounds(20); i++) revision.set(s, (await post(s, 'deck.info', {})).revision)
      for (let i = 0; i < rounds(5); i++) revision.set(s, (await post(s, 'deck.rename', { name: `Warm ${i}`, baseRevision: revision.get(s) })).revision)
    }
    const rename = (s) => async (i) => revision.set(s, (await post(s, 'deck.rename', { name: `Bench ${i}`, baseRevision: revision.get(s) })).revision)
    const edit = (s) => async (i) =>
      revision.set(s, (await post(s, 'block.set', { slideId: 'title-body-1', blockId: 'title', path: '/text', value: `Opening ${i}: what changed`, baseRevision: revision.get(s) })).revision)
    const info = (s) => () => post(s, 'deck.info', {})
    const slide = (s) => () => post(s, 'slide.get', { slideId: 'title-body-1' })
    const calls = await interleaved(R, {
      gitRename: rename(git),
      hostedRename: rename(a),
      gitEdit: edit(git),
      hostedEdit: edit(a),
      gitInfo: info(git),
      hostedInfo: info(a),
      gitSlide: slide(git),
      hostedSlide: slide(a),
    })

    // Two more instances on the same store, started now (each replays the log into its replica).
    const bEnv = hostedEnv('b')
    const b = await serve(temp('cwd-b'), bEnv)
    const quiet = await serve(temp('cwd-c'), hostedEnv('c', { STUDIO_STORE_NOTIFY: '0' }))
    for (const s of [b, quiet]) for (let i = 0; i < rounds(20); i++) await post(s, 'deck.info', {})
    /** ms from A's answer to a write until `reader` first answers deck.info with its revision (polled every 2 ms). */
    const seen = (reader) => async (i) => {
      // A pause of 0-300 ms first, so that writes land anywhere in B's 250 ms poll: back to back, each
      // round's write would come at the same point of it, and the quiet B's delay would be that point's.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300))
      const { revision: wrote } = await post(a, 'deck.rename', { name: `Seen ${i}`, baseRevision: revision.get(a) })
      revision.set(a, wrote)
      const answered = performance.now()
      for (;;) {
        if ((await post(reader, 'deck.info', {})).revision >= wrote) return performance.now() - answered
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }
    const spread = { notify: [], poll: [] }
    const notifyOn = seen(b)
    const notifyOff = seen(quiet)
    for (let i = 0; i < R; i++) {
      spread.notify.push(await notifyOn(2 * i))
      spread.poll.push(await notifyOff(2 * i + 1))
    }
    const polls = await interleaved(R, { read: info(b) })

    // Start-up: an instance going on from the replica its last run left in STUDIO_CACHE_DIR (B's, B stopped)
    // against one rebuilding its replica from the whole log, in alternate rounds, each until its deck.info
    // answers A's last revision.
    const stop = async (s) => {
      const exited = new Promise((resolve) => s.child.once('exit', resolve))
      s.child.kill('SIGTERM')
      await exited
    }
    await stop(b)
    const { default: pg } = await import('pg')
    const db = new pg.Client({ connectionString: cluster.url })
    await db.connect()
    const changes = Number((await db.query('select seq from studio_store where id = 1')).rows[0].seq)
    await db.end()
    const started = async (env) => {
      const t = performance.now()
      const s = await serve(temp('cwd-start'), env)
      if ((await post(s, 'deck.info', {})).revision !== revision.get(a)) throw new Error('a started instance served an old revision')
      const ms = performance.now() - t
      await stop(s)
      return ms
    }
    const startup = { resume: [], rebuild: [] }
    for (let i = 0; i < rounds(3); i++) {
      startup.rebuild.push(await started(hostedEnv(`rebuild-${i}`)))
      startup.resume.push(await started(bEnv))
    }

    const [one, five] = loadavg().map((x) => x.toFixed(1))
    console.log('')
    console.log(`hosted: the brand sample (${counts[0]} slides) on a git workspace and on the hosted store (PostgreSQL + s3rver on loopback), ${R} interleaved rounds; load average ${one} / ${five}`)
    console.log('HTTP call, warm server, p50'.padEnd(44), 'git ms'.padStart(10), 'hosted ms'.padStart(10), 'hosted/git'.padStart(11))
    const row = (name, g, h) => console.log(name.padEnd(44), median(g).toFixed(2).padStart(10), median(h).toFixed(2).padStart(10), `${(median(h) / median(g)).toFixed(2)}x`.padStart(11))
    row('write: deck.rename', calls.gitRename, calls.hostedRename)
    row('write: block.set, one slide\'s text', calls.gitEdit, calls.hostedEdit)
    row('read: deck.info', calls.gitInfo, calls.hostedInfo)
    row('read: slide.get, one slide', calls.gitSlide, calls.hostedSlide)
    console.log(`a write on instance A served by instance B (from A's answer; B read every 2 ms, a read ${median(polls.read).toFixed(2)} ms p50), ${R} writes each, at random points of B's poll`)
    console.log('B'.padEnd(44), 'p50 ms'.padStart(10), 'p95 ms'.padStart(10), 'max ms'.padStart(10))
    // BENCH_HOSTED_SAMPLES=1 prints every delay too, sorted.
    const spreadRow = (name, xs) =>
      console.log(
        [name.padEnd(44), median(xs).toFixed(1).padStart(10), pct(xs, 0.95).toFixed(1).padStart(10), Math.max(...xs).toFixed(1).padStart(10)].join(' ') +
          (process.env.BENCH_HOSTED_SAMPLES === '1' ? `\n  ${[...xs].sort((x, y) => x - y).map((x) => x.toFixed(0)).join(' ')}` : ''),
      )
    spreadRow('B with LISTEN/NOTIFY (and the poll)', spread.notify)
    spreadRow('B with STUDIO_STORE_NOTIFY=0 (250 ms poll)', spread.poll)
    console.log(`an instance's start until its first read answers, the log at ${changes} changes, ${startup.resume.length} rounds each`)
    console.log(`  replica rebuilt from the log ${median(startup.rebuild).toFixed(0)} ms p50, taken up from STUDIO_CACHE_DIR ${median(startup.resume).toFixed(0)} ms p50: ${(median(startup.rebuild) / median(startup.resume)).toFixed(1)}x`)
  } finally {
    await Promise.all(pools.map((p) => p.close().catch(() => undefined)))
    // Each instance closes its database pool before the database goes.
    await Promise.all(
      servers.map(({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        return exited
      }),
    )
    await store?.close()
    await cluster?.stop()
    for (const dir of temps) rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await hostedBench()
