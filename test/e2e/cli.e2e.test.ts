import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'node:test'
import { ACTIONS } from '../../src/actions/index.js'
import { parseForm } from '../../src/transports/cli/form.js'
import { BIN, ROOT, studio, workspaceWithDeck } from '../helpers/studio.js'

/**
 * What a cold read may evaluate: a budget of bytes of JavaScript, and the modules it evaluates today
 * (sources by file, packages by name, from dist/meta.json), which a failure uses to name what was added.
 * Measured at 152 KB when this was recorded: 824 KB before the action table and the help text left the
 * start-up path, 316 KB before a plain command line stopped loading oclif (src/transports/cli/line.ts;
 * oclif's code and its config load were half of a cold read), issue 22.
 */
const READ_BUDGET = 160_000
const READ_MODULES = new Set([
  'bin/studio.js', 'commands/index.ts', 'dist/validators', 'src/actions/deck/read.ts', 'src/cli.ts',
  'src/core/action.ts', 'src/core/engine.ts', 'src/core/errors.ts', 'src/core/events.ts', 'src/core/keep.ts',
  'src/core/principal.ts', 'src/core/validate.ts', 'src/layout/boxes.ts', 'src/model/assets.ts', 'src/model/blocks.ts',
  'src/model/check.ts', 'src/model/deck.ts', 'src/model/dither.ts', 'src/model/fonts.ts', 'src/model/layouts.ts',
  'src/model/normalize.ts', 'src/model/own.ts', 'src/model/results.ts', 'src/model/schema.ts', 'src/model/slide-map.ts',
  'src/model/text.ts', 'src/model/themes.ts', 'src/store/canonical.ts', 'src/store/deck-cache.ts', 'src/store/deck-index.ts',
  'src/store/deck-state.ts', 'src/store/decks.ts', 'src/store/git.ts', 'src/store/head.ts', 'src/store/leases.ts',
  'src/store/lock.ts', 'src/store/pending.ts', 'src/store/workspace.ts', 'src/transports/cli/command-index.ts',
  'src/transports/cli/commands.ts', 'src/transports/cli/form.ts', 'src/transports/cli/line.ts', 'src/transports/cli/run.ts',
])

/**
 * A folder outside any workspace, where studio shows the package's embedded deck and writes nothing.
 * Commands never run in the checkout itself: there it is a workspace, and even a read writes its cache.
 */
const PLAIN = mkdtempSync(join(tmpdir(), 'studio-plain-'))
process.once('exit', () => rmSync(PLAIN, { recursive: true, force: true }))

/** The JavaScript files a cold `studio info --json` in `cwd` resolves (traced), their bytes, and the bytes by module. */
function coldRead(cwd: string): { bytes: number; modules: Map<string, number> } {
  const trace = join(mkdtempSync(join(tmpdir(), 'studio-trace-')), 'modules.txt')
  execFileSync(process.execPath, ['--import', join(ROOT, 'test/helpers/trace-imports.mjs'), BIN, 'info', '--json'], {
    cwd,
    env: { ...process.env, STUDIO_TRACE_FILE: trace },
  })
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }> }
  const modules = new Map<string, number>()
  const add = (name: string, n: number) => modules.set(name, (modules.get(name) ?? 0) + n)
  let bytes = 0
  for (const url of new Set(readFileSync(trace, 'utf8').split('\n'))) {
    if (!url.startsWith('file:') || !/\.[cm]?js$/.test(url)) continue
    const file = fileURLToPath(url)
    const size = statSync(file).size
    bytes += size
    const out = meta.outputs[relative(ROOT, file)]
    if (!out) {
      // Outside the bundle: bin/studio.js, a precompiled validator, a package required on first use.
      add(relative(ROOT, file).replace(/.*node_modules\/((@[^/]+\/)?[^/]+)\/.*/, '$1').replace(/^dist\/validators\/.*/, 'dist/validators'), size)
      continue
    }
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) add(input.replace(/.*node_modules\/((@[^/]+\/)?[^/]+)\/.*/, '$1'), bytesInOutput)
  }
  return { bytes, modules }
}

describe('the generated command line', () => {
  it('lists the table with studio actions --json, as GET /api/actions/{id} will describe each', async () => {
    const listed = await studio(PLAIN, ['actions', '--json'])
    assert.equal(listed.code, 0)
    assert.equal(listed.json.length, ACTIONS.length)
    const shown = await studio(PLAIN, ['actions', 'show', 'deck.rename', '--json'])
    assert.equal(shown.json.cli, 'studio deck rename <name>')
    assert.equal(shown.json.mcp, 'deck_rename')
    assert.equal(shown.json.input.properties.baseRevision.type, 'integer')
    assert.equal((await studio(PLAIN, ['actions', 'show', 'no.such', '--json'])).code, 3)
  })

  it('exits 7 from studio validate and studio deck lint when they find errors, 0 on a clean deck, printing the result either way', async () => {
    const ws = await workspaceWithDeck('Gate')
    try {
      // Clean: a blank deck validates and has no error findings.
      const valid = await studio(ws.dir, ['validate', '--json'])
      assert.equal(valid.code, 0, valid.stdout)
      assert.equal(valid.json.valid, true)
      const clean = await studio(ws.dir, ['deck', 'lint', '--json'])
      assert.equal(clean.code, 0, clean.stdout)
      assert.equal(clean.json.counts.error, 0)
      assert.equal((await studio(ws.dir, ['deck', 'lint'])).code, 0)

      // A lint error (a slot that overflows); warnings alone never fail the gate.
      const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a paragraph far too long for its slot`).join('\n')
      const made = await studio(ws.dir, ['slide', 'new', '--layout', 'title-body', '--json'])
      assert.equal(made.code, 0, made.stdout)
      assert.equal((await studio(ws.dir, ['block', 'set', 'title-body-1#body', '/text', long, '--json'])).code, 0)
      const lint = await studio(ws.dir, ['deck', 'lint', '--json'])
      assert.equal(lint.code, 7, lint.stdout)
      assert.ok(lint.json.counts.error > 0)
      assert.ok(lint.json.findings.some((f: { rule: string }) => f.rule === 'overflow'))
      const people = await studio(ws.dir, ['deck', 'lint'])
      assert.equal(people.code, 7)
      assert.match(people.stdout, /overflow/)

      // A deck folder that breaks the model, edited by hand: validate reports it and exits 7.
      const file = join(ws.dir, 'decks', ws.deckId, 'slides', 'title-body-1.json')
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), colour: 'red' }))
      const invalid = await studio(ws.dir, ['validate', '--json'])
      assert.equal(invalid.code, 7, invalid.stdout)
      assert.equal(invalid.json.valid, false)
      assert.equal(invalid.json.issues[0].pointer, '/slides/title-body-1/colour')
      assert.equal((await studio(ws.dir, ['validate'])).code, 7)
    } finally {
      ws.cleanup()
    }
  })

  it("commits as --author, else STUDIO_AUTHOR, else git's own user.name and user.email, else the local user", async () => {
    const ws = await workspaceWithDeck('Authors')
    // No global or system git configuration: only what this test sets.
    const home = mkdtempSync(join(tmpdir(), 'studio-home-'))
    const env = { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
    const author = async () => (await ws.git('log', '-1', '--format=%an <%ae>')).trim()
    const rename = async (name: string, args: string[] = [], extra: Record<string, string> = {}) => {
      const r = await studio(ws.dir, ['deck', 'rename', name, ...args, '--json'], { env: { ...env, ...extra } })
      assert.equal(r.code, 0, r.stdout)
    }
    try {
      await ws.git('config', 'user.name', 'Ada Lovelace')
      await ws.git('config', 'user.email', 'ada@example.org')
      await rename('One')
      assert.equal(await author(), 'Ada Lovelace <ada@example.org>')
      await rename('Two', [], { STUDIO_AUTHOR: 'Grace' })
      assert.equal(await author(), 'Grace <grace@studio.invalid>')
      await rename('Three', ['--author', 'agent:ci-7'], { STUDIO_AUTHOR: 'Grace' })
      assert.equal(await author(), 'agent:ci-7 <agent-ci-7@studio.invalid>')
      await ws.git('config', '--unset', 'user.name')
      await ws.git('config', '--unset', 'user.email')
      await rename('Four')
      const local = userInfo().username
      assert.equal(await author(), `${local} <${local.toLowerCase()}@studio.invalid>`)
    } finally {
      ws.cleanup()
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('answers 501 for a declared action without a handler, on the command line too', async (t) => {
    // Every action of the table is built since admin.migrateStorage; the engine's 501 is held by test/unit/core/engine.unit.test.ts.
    if (!ACTIONS.some((a) => !a.implemented && a.cli && !parseForm(a.cli).stdin)) return t.skip('every action of the table is built')
    const ws = await workspaceWithDeck('Later')
    try {
      // Any action the table declares without a handler: its command, with a placeholder for each argument.
      const later = ACTIONS.find((a) => !a.implemented && a.cli && !parseForm(a.cli).stdin)!
      const form = parseForm(later.cli!)
      const result = await studio(ws.dir, [...form.path, ...form.args.map(() => 'x'), '--json'])
      assert.equal(result.code, 6)
      assert.equal(result.json.status, 501)
      assert.equal(result.json.code, 'not_implemented')
    } finally {
      ws.cleanup()
    }
  })

  it('shows the doc, the inputs and the example in every command help', async () => {
    const help = await studio(PLAIN, ['deck', 'copy', '--help'])
    assert.equal(help.code, 0)
    assert.match(help.stdout, /starts at revision 0 with an empty version log/)
    assert.match(help.stdout, /slideIds\?: string\[\]/)
    assert.match(help.stdout, /\$ studio deck copy quarterly-review --name 'Quarterly review \(EU\)' --rev 0/)
    assert.match(help.stdout, /MCP tool deck_copy/)
    // An example that needs more than a new deck lists the commands that make it first.
    const align = await studio(PLAIN, ['block', 'align', '--help'])
    assert.match(align.stdout, /First, on a deck made by studio deck create "Quarterly review" \(revision 0\):\n\s*\$ studio logo insert github --slide none --rev 0 {2}# revision 1\n/)
    assert.match(align.stdout, /Then, at revision 2:\n\s*\n\s*\$ studio block align freeform-4 --blocks b1,b5 --edge left --rev 2/)
  })

  it('registers a command for every CLI form, at the path the spec writes', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
    for (const action of ACTIONS) {
      if (!action.cli) continue
      const id = action.cli.split(/\s+/).filter((t, i, all) => all.slice(0, i + 1).every((x) => /^[a-z][a-z0-9-]*$/.test(x))).join(':')
      assert.ok(manifest.commands[id], `${action.id}: no command ${id}`)
    }
  })

  it('keeps a read free of heavy modules: studio info --json loads no sharp, playwright, pptxgenjs, ajv, archiver or yauzl', async () => {
    const ws = await workspaceWithDeck('Traced')
    const trace = join(mkdtempSync(join(tmpdir(), 'studio-trace-')), 'modules.txt')
    execFileSync(process.execPath, ['--import', join(ROOT, 'test/helpers/trace-imports.mjs'), BIN, 'info', '--json'], {
      cwd: ws.dir,
      env: { ...process.env, STUDIO_TRACE_FILE: trace },
    })
    const loaded = readFileSync(trace, 'utf8')
    assert.match(loaded, /dist\/cli\.js/)
    for (const heavy of ['sharp', 'playwright', 'pptxgenjs', 'archiver', 'yauzl', '/ajv/', '@modelcontextprotocol', 'undici']) assert.ok(!loaded.includes(heavy), `${heavy} was loaded`)
    ws.cleanup()
  })

  it(`keeps a cold read's start-up path small: studio info --json evaluates at most ${READ_BUDGET / 1000} KB of JavaScript`, async () => {
    const ws = await workspaceWithDeck('Traced')
    const { bytes, modules } = coldRead(ws.dir)
    ws.cleanup()
    const added = [...modules].filter(([name]) => !READ_MODULES.has(name)).sort((a, b) => b[1] - a[1])
    assert.ok(
      bytes <= READ_BUDGET,
      `a cold studio info --json evaluates ${bytes} bytes of JavaScript, over its budget of ${READ_BUDGET}; beyond the recorded start-up modules it loads:\n` +
        (added.length ? added.slice(0, 25).map(([name, n]) => `  ${name} (${n} bytes)`).join('\n') : '  nothing new: the recorded ones grew') +
        (added.length > 25 ? `\n  and ${added.length - 25} more (${added.slice(25).reduce((sum, [, n]) => sum + n, 0)} bytes)` : '') +
        '\nLoad them where they are used (a dynamic import), or raise the budget and the list in test/e2e/cli.e2e.test.ts with the reason.',
    )
  })

  it('sees the modules a command does load (the tracer works): deck pack loads archiver', async () => {
    const ws = await workspaceWithDeck('Traced')
    const trace = join(mkdtempSync(join(tmpdir(), 'studio-trace-')), 'modules.txt')
    const out = join(mkdtempSync(join(tmpdir(), 'studio-pack-')), 'traced.zip')
    execFileSync(process.execPath, ['--import', join(ROOT, 'test/helpers/trace-imports.mjs'), BIN, 'deck', 'pack', ws.deckId, '--out', out, '--json'], {
      cwd: ws.dir,
      env: { ...process.env, STUDIO_TRACE_FILE: trace },
    })
    ws.cleanup()
    assert.match(readFileSync(trace, 'utf8'), /node_modules\/archiver\//)
  })

  it('reads the embedded default deck straight after install, outside any workspace', async () => {
    const info = await studio(PLAIN, ['info', '--json'])
    assert.equal(info.code, 0, info.stderr)
    assert.equal(info.json.id, 'welcome')
  })

  it('prints people output without colour when NO_COLOR is set or stdout is not a terminal', async () => {
    const out = await studio(PLAIN, ['info'])
    assert.doesNotMatch(out.stdout + out.stderr, /\u001b\[/)
    assert.match(out.stdout, /Welcome to Deck Studio/)
  })
})
