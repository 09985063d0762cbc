/**
 * `npm run bench` runs to its end: every block once, on small decks (BENCH_SMOKE=1, bench/lib.mjs),
 * and each prints its table. Times are never asserted (a smoke run's numbers mean nothing).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { postgresBin } from '../helpers/postgres.js'

const ROOT = new URL('../..', import.meta.url).pathname

/** The slides of the brand sample a smoke run keeps (SMOKE_SLIDES in bench/lib.mjs). */
const N = 2

/** Each block's heading and the rows it must print (the start of each line). */
const BLOCKS: [RegExp, string[]][] = [
  [/^rounds: 1, commands registered: \d+/m, ['node -e 0 (baseline)', 'studio info --json (cold read)', 'studio deck rename (cold write + commit)']],
  [/^serve on loopback/m, ['HTTP deck.info latency (median)', 'HTTP deck.rename latency (median)', 'MCP deck_get_info call (median)', 'MCP deck_rename call (median)']],
  [/^realtime: a room socket on loopback/m, ['CLI write: changed heard, after its commit landed', 'HTTP write: changed heard, after the answer']],
  [new RegExp(`^authoring: a ${N}-slide deck built by ${N - 1} studio slide insert calls`, 'm'), ['studio slide insert (cold CLI write)', `studio slide patch on the ${N}-slide deck`]],
  [/^versions: /m, ['studio version diff 0 1 --json (CLI)', 'version.diff 0..1 in process', 'diff.run 0..1 in process (prose)']],
  [new RegExp(`^merge: two branches changing the same 1 slides of the ${N}-slide brand sample`, 'm'), ['git merge, studio merge driver', 'mergeDecks in process (whole deck)']],
  [new RegExp(`^renderer: ${N}-slide brand sample`, 'm'), ['studio render all, 1x (CLI, launch included)', 'studio render all, 2x (CLI, launch included)', 'Chromium launch (in process', 'studio build (single-file HTML']],
  [/^media: the two-tone screen on/m, ['screen, Bayer 8x8, cell 1', 'screen + 1-bit PNG (Bayer, cell 2)']],
  [/^geometry: measureText over 1,000 strings/m, ['measureText (wrap, columns)']],
  [/^media: asset\.add of a /m, ['studio asset add (twins 1600/3200, commit)', 'studio asset add --two-tone']],
  [/^media: logo\.search over \d+ queries x 1 passes/m, ['logo.search p95 (in process)']],
  [new RegExp(`^export: the ${N}-slide brand sample`, 'm'), ['studio export pptx (flatten, 2x renders)', 'studio export pptx --mode native', 'studio export pdf --mode native (vector)', 'studio export pdf (flatten, 2x renders)']],
  [new RegExp(`^page: the ${N}-slide brand sample in Chromium`, 'm'), ['first slide shown after opening /d/<deck>', `all ${N} thumbnails drawn`, 'keystroke to commit']],
  [new RegExp(`^scale: the brand sample \\(${N} slides\\) and duplicated \\(${2 * N} slides\\)`, 'm'), ['HTTP deck.rename, warm server, p50 (ms)', 'CLI studio info, cold (x node -e 0)']],
]

/**
 * The hosted block (bench/hosted.mjs) runs where PostgreSQL is installed and says why it skipped where it
 * is not; under CI, which installs it, a skip fails like any lost test (test/helpers/system.ts).
 */
const HOSTED: [RegExp, string[]] = [new RegExp(`^hosted: the brand sample \\(${N} slides\\) on a git workspace and on the hosted store`, 'm'), ['write: deck.rename', "write: block.set, one slide's text", 'read: deck.info', 'read: slide.get, one slide', 'B with LISTEN/NOTIFY', 'B with STUDIO_STORE_NOTIFY=0', 'replica rebuilt from the log']]
if (postgresBin() || process.env.CI === 'true') BLOCKS.push(HOSTED)

describe('npm run bench (smoke)', () => {
  it('runs every block to its end and prints each block\'s rows', { timeout: 600_000 }, async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'run.mjs')], { cwd: ROOT, env: { ...process.env, BENCH_SMOKE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    assert.equal(code, 0, `bench exited ${code}:\n${out.slice(-3000)}\n${err.slice(-3000)}`)
    let from = 0
    for (const [heading, rows] of BLOCKS) {
      const match = heading.exec(out.slice(from))
      assert.ok(match, `no block ${heading} after offset ${from} in:\n${out.slice(from, from + 2000)}`)
      from += match.index + match[0].length
      const next = BLOCKS[BLOCKS.indexOf(BLOCKS.find(([h]) => h === heading)!) + 1]
      const body = next ? out.slice(from, from + (next[0].exec(out.slice(from))?.index ?? out.length)) : out.slice(from)
      for (const row of rows) {
        const line = body.split('\n').find((l) => l.trimStart().startsWith(row))
        assert.ok(line, `block ${heading} prints no row "${row}":\n${body}`)
        assert.doesNotMatch(line, /NaN|undefined|not run/, `row "${row}" printed no figure: ${line}`)
      }
    }
    if (!BLOCKS.includes(HOSTED)) assert.match(out, /^hosted: skipped: PostgreSQL is not installed/m)
  })
})
