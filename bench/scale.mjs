#!/usr/bin/env node
// Scale (issue 12): the four calls of the issue on the brand sample (95 slides) and on the same deck
// duplicated to 1,415 slides, measured in the same run, interleaved round by round so that both sizes
// share the machine's noise. Run alone with `node bench/scale.mjs`; `npm run bench` runs it last.
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const BIN = join(ROOT, 'bin', 'studio.js')
const node = process.execPath
import { createSample, initWorkspace, interleaved, median, rounds, SMOKE, SMOKE_SLIDES, startServe, time } from './lib.mjs'
const studio = (cwd, args) => JSON.parse(execFileSync(node, [BIN, ...args, '--json'], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }))



/**
 * A workspace holding the brand sample as deck `scale`, duplicated until it has `slides` slides; `from`:
 * a copy of that workspace (its repository, not its .studio state) to go on duplicating from.
 */
function buildDeck(slides, from) {
  const dir = mkdtempSync(join(tmpdir(), `studio-bench-scale-${slides}-`))
  if (from) {
    cpSync(from, dir, { recursive: true, filter: (path) => path !== join(from, '.studio') })
  } else {
    initWorkspace(dir)
    createSample(dir, 'Scale', ['--id', 'scale'])
  }
  for (;;) {
    const ids = studio(dir, ['slides']).slides.map((s) => s.id)
    if (ids.length >= slides) break
    studio(dir, ['slide', 'duplicate', ids.slice(0, Math.min(ids.length, slides - ids.length)).join(',')])
  }
  return dir
}


export async function scaleBench() {
  const { Pool } = await import('undici')
  const t0 = performance.now()
  const small = buildDeck(SMOKE ? SMOKE_SLIDES : 95)
  const large = buildDeck(SMOKE ? SMOKE_SLIDES * 2 : 1415, small)
  const built = performance.now() - t0
  const count = (dir) => studio(dir, ['info']).counts.slides
  console.log(`\nscale: the brand sample (${count(small)} slides) and duplicated (${count(large)} slides), built in ${(built / 1000).toFixed(1)} s`)
  // Files written a moment ago are read by their bytes until they have settled (docs/storage.md):
  // wait that out once, as for any deck not written in the last seconds, and let one read index them.
  await new Promise((resolve) => setTimeout(resolve, 3500))
  for (const dir of [small, large]) studio(dir, ['slides'])

  const cliRounds = rounds(Number(process.env.BENCH_SCALE_ROUNDS ?? 15))
  const slide = 'title-body-1'
  let word = 0
  const cli = await interleaved(cliRounds, {
    node: () => time(node, ['-e', '0']),
    info95: () => time(node, [BIN, 'info', '--json'], { cwd: small }),
    info1415: () => time(node, [BIN, 'info', '--json'], { cwd: large }),
    set95: () => time(node, [BIN, 'block', 'set', `${slide}#title`, '/text', `Opening ${++word}`, '--json'], { cwd: small }),
    set1415: () => time(node, [BIN, 'block', 'set', `${slide}#title`, '/text', `Opening ${++word}`, '--json'], { cwd: large }),
  })

  const servers = [await startServe(small, 900), await startServe(large, 900)]
  process.once('exit', () => servers.forEach((s) => s.child.kill('SIGTERM')))
  const pools = servers.map((s) => new Pool(s.url, { connections: 1 }))
  async function post(pool, id, body) {
    const r = await pool.request({ path: `/api/actions/${id}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const json = await r.body.json()
    if (r.statusCode !== 200) throw new Error(`${id}: ${r.statusCode} ${JSON.stringify(json).slice(0, 300)}`)
    return json
  }
  /** A read timed to the last byte of its answer (what the server costs; parsing it is the client's). */
  const bytes = []
  async function fetchInfo(pool, at) {
    const r = await pool.request({ path: '/api/actions/deck.info', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    const body = Buffer.from(await r.body.arrayBuffer())
    if (r.statusCode !== 200) throw new Error(`deck.info: ${r.statusCode}`)
    bytes[at] = body.length
  }
  // What git alone costs for a one-file commit in a repository like each workspace (its index holds
  // every slide file): in copies, so the servers do not see commits they did not make.
  const { cpSync, writeFileSync } = await import('node:fs')
  const gitCopies = [small, large].map((dir) => {
    const copy = mkdtempSync(join(tmpdir(), 'studio-bench-scale-git-'))
    cpSync(dir, copy, { recursive: true })
    return copy
  })
  const gitCommit = (dir, i) => {
    writeFileSync(join(dir, 'bench-git.txt'), `${i}\n`)
    if (i === 0) execFileSync('git', ['add', 'bench-git.txt'], { cwd: dir })
    execFileSync('git', ['commit', '-q', '--no-verify', '-m', `bench ${i}`, '--', 'bench-git.txt'], { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } })
  }
  const revisions = []
  for (const pool of pools) {
    for (let i = 0; i < rounds(20); i++) revisions[pools.indexOf(pool)] = (await post(pool, 'deck.info', {})).revision
  }
  // What any HTTP answer of the same size costs here: a bare node:http server in another process
  // answering the deck.info bodies the two servers answered, byte for byte.
  const bodyDir = mkdtempSync(join(tmpdir(), 'studio-bench-scale-bodies-'))
  for (const [i, pool] of pools.entries()) {
    const r = await pool.request({ path: '/api/actions/deck.info', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    writeFileSync(join(bodyDir, String(i)), Buffer.from(await r.body.arrayBuffer()))
  }
  const bare = spawn(node, ['-e', `const fs=require('fs');const b=[0,1].map((i)=>fs.readFileSync(require('path').join(process.argv[1],String(i))));require('http').createServer((q,r)=>{q.resume();q.on('end',()=>r.end(b[q.url==='/1'?1:0]))}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})`, bodyDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const barePort = await new Promise((resolve) => bare.stdout.once('data', (d) => resolve(Number(String(d).trim()))))
  const barePool = new Pool(`http://127.0.0.1:${barePort}`, { connections: 1 })
  const fetchBare = async (path) => {
    const r = await barePool.request({ path, method: 'POST', body: '{}' })
    await r.body.arrayBuffer()
  }
  const WRITES = rounds(Number(process.env.BENCH_SCALE_WRITES ?? 60))
  const http = await interleaved(WRITES, {
    info95: () => fetchInfo(pools[0], 0),
    info1415: () => fetchInfo(pools[1], 1),
    bare95: () => fetchBare('/0'),
    bare1415: () => fetchBare('/1'),
    rename95: async (i) => {
      revisions[0] = (await post(pools[0], 'deck.rename', { name: `Scale ${i}`, baseRevision: revisions[0] })).revision
    },
    rename1415: async (i) => {
      revisions[1] = (await post(pools[1], 'deck.rename', { name: `Scale ${i}`, baseRevision: revisions[1] })).revision
    },
    git95: (i) => gitCommit(gitCopies[0], i),
    git1415: (i) => gitCommit(gitCopies[1], i),
  })
  const rss = []
  for (const s of servers) {
    rss.push(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(s.child.pid)], { encoding: 'utf8' }).trim()) / 1024)
    s.child.kill('SIGTERM')
  }
  bare.kill('SIGTERM')
  await Promise.all([...pools, barePool].map((p) => p.close()))

  const base = median(cli.node)
  const rows = [
    ['HTTP deck.rename, warm server, p50 (ms)', median(http.rename95), median(http.rename1415), 'each <= 15 ms'],
    ['  git commit of one file alone, p50 (ms)', median(http.git95), median(http.git1415), 'git\'s own floor'],
    [`HTTP deck.info, warm server, p50 (ms)`, median(http.info95), median(http.info1415), `each <= 2 ms; answers of ${(bytes[0] / 1024).toFixed(0)} / ${(bytes[1] / 1024).toFixed(0)} KB`],
    ['  a bare server answering the same bytes (ms)', median(http.bare95), median(http.bare1415), 'the answer\'s own size'],
    ['CLI block set on one slide, cold (ms)', median(cli.set95), median(cli.set1415), ''],
    ['CLI studio info, cold (x node -e 0)', median(cli.info95) / base, median(cli.info1415) / base, ''],
  ]
  console.log(`rounds: CLI ${cliRounds}, HTTP ${WRITES}; node -e 0 median ${base.toFixed(1)} ms; serve RSS after: ${rss.map((r) => `${r.toFixed(0)} MB`).join(' / ')}`)
  console.log('call'.padEnd(44), '95 slides'.padStart(10), '1,415'.padStart(10), '1,415/95'.padStart(9), '  target')
  for (const [name, a, b, target] of rows) {
    const goal = name.startsWith('  ') ? target : `<= 1.2x${target ? `; ${target}` : ''}`
    console.log(name.padEnd(44), a.toFixed(2).padStart(10), b.toFixed(2).padStart(10), `${(b / a).toFixed(2)}x`.padStart(9), `  ${goal}`)
  }
  for (const dir of [small, large, bodyDir, ...gitCopies]) rmSync(dir, { recursive: true, force: true })
}

if (import.meta.url === `file://${process.argv[1]}`) await scaleBench()
