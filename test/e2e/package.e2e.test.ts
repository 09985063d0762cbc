/**
 * The package as users get it: what `npm pack` ships, a global install of the packed tarball into
 * a temp prefix used from an unrelated folder, and the checkout that tests never write into.
 *
 * The install runs `npm install -g --prefix <tmp> <tarball>` for real (dependencies from the npm
 * cache or the registry): about 100 s on the 2-core test machine, most of it unpacking 200 MB of
 * dependencies. `npm pack` runs with --ignore-scripts here: its `prepare` would rebuild dist/ in this
 * checkout under the feet of the other test files (the suite builds dist/ first).
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { after, describe, it } from 'node:test'
import { ROOT, studio } from '../helpers/studio.js'

const run = promisify(execFile)

let packed: Promise<{ tarball: string; files: string[] }> | undefined
const packDir = mkdtempSync(join(tmpdir(), 'studio-pack-'))
after(() => rmSync(packDir, { recursive: true, force: true }))

/** `npm pack` of the checkout, once for the file: the tarball and what it holds, from its JSON on stdout. */
function pack(): Promise<{ tarball: string; files: string[] }> {
  packed ??= run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => {
    const [report] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    return { tarball: join(packDir, report.filename), files: report.files.map((f) => f.path) }
  })
  return packed
}

/** Every file under `dir` but node_modules, with its size and modification time. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path)
        files.set(relative(dir, path) + '/', '')
      } else {
        const stat = statSync(path)
        files.set(relative(dir, path), `${stat.size} ${stat.mtimeMs}`)
      }
    }
  }
  walk(dir)
  return files
}

describe('the package', () => {
  it("holds no deck but the one it ships (decks/welcome), on disk and in git's index", () => {
    const decks = readdirSync(join(ROOT, 'decks')).filter((name) => name !== 'templates')
    assert.deepEqual(decks, ['welcome'])
    assert.deepEqual(readdirSync(join(ROOT, 'decks', 'templates')).filter((name) => name !== '.gitkeep'), [])
    if (existsSync(join(ROOT, '.git'))) {
      const tracked = execFileSync('git', ['ls-files', '--', 'decks'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n')
      assert.deepEqual(tracked.filter((path) => !path.startsWith('decks/welcome/') && path !== 'decks/templates/.gitkeep'), [])
    }
  })

  it('packs what the embedded deck and every command need at run time, and no other deck', async () => {
    const files = new Set((await pack()).files)
    for (const needed of [
      'package.json', 'bin/studio.js', 'studio.json', 'oclif.manifest.json', 'README.md',
      'dist/cli.js', 'dist/merge-driver.js', 'dist/codec-child.js', 'dist/page/app.js', 'dist/page/app.css',
      'dist/fonts/metrics.json', 'dist/logos/index.json',
      'decks/welcome/deck.json', 'decks/welcome/slides/title-1.json',
      'templates/blank/template.json', 'templates/blank/deck.json', 'fonts/export/Inter-Regular.ttf', 'requirements-fonts.txt', 'scripts/fonts/cut.py',
      'docs/errors.md',
    ]) {
      assert.ok(files.has(needed), `the tarball lacks ${needed}`)
    }
    assert.ok([...files].some((f) => f.startsWith('dist/validators/')), 'the precompiled validators')
    assert.ok([...files].some((f) => f.startsWith('dist/chunks/')), 'the lazily loaded chunks')
    assert.deepEqual([...files].filter((f) => f.startsWith('decks/') && !f.startsWith('decks/welcome/')), [])
    assert.ok(!files.has('dist/meta.json'), 'the build metadata stays home')
  })

  it("prints nothing of its build on stdout, so `npm pack --json` is JSON", () => {
    // The prepare script is system-deps.mjs then build.ts; the second rebuilds dist/, so it is read, not run.
    const deps = spawnSync(process.execPath, [join(ROOT, 'scripts', 'system-deps.mjs')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, STUDIO_NO_SYSTEM_INSTALL: '1' } })
    assert.equal(deps.status, 0, deps.stderr)
    assert.equal(deps.stdout, '')
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    assert.match(pkg.scripts.prepare, /^node scripts\/system-deps\.mjs && node --import tsx scripts\/build\.ts$/)
    for (const script of ['scripts/build.ts', 'scripts/command-index.ts']) {
      assert.doesNotMatch(readFileSync(join(ROOT, script), 'utf8'), /console\.(log|info)\(|process\.stdout/, `${script} writes to stdout`)
    }
  })
})

describe('outside any workspace', () => {
  it('refuses every output (render, sheet, export, build, bundle) with the init hint, and writes nothing', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'studio-plain-'))
    try {
      for (const args of [['render', 'all'], ['sheet', 'all'], ['export', 'pdf'], ['build', '--out', join(plain, 'talk.html')], ['deck', 'pack', 'welcome'], ['export', 'pdf', '--out', join(plain, 'out')]]) {
        const refused = await studio(plain, [...args, '--json'])
        assert.equal(refused.code, 5, `${args.join(' ')}: ${refused.stdout}${refused.stderr}`)
        assert.equal(refused.json.code, 'read_only')
        assert.match(refused.json.message, /studio init/)
        assert.doesNotMatch(refused.json.message, new RegExp(ROOT), 'no server path')
      }
      assert.deepEqual(readdirSync(plain), [])
    } finally {
      rmSync(plain, { recursive: true, force: true })
    }
  })
})

describe('the checkout guard of the test helpers', () => {
  it('fails a test process that wrote into the checkout it watches', () => {
    const repo = mkdtempSync(join(tmpdir(), 'studio-guarded-'))
    try {
      execFileSync('git', ['init', '--quiet', repo])
      mkdirSync(join(repo, 'decks', 'welcome'), { recursive: true })
      writeFileSync(join(repo, 'decks', 'welcome', 'deck.json'), '{}\n')
      execFileSync('git', ['-C', repo, 'add', '.'])
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'welcome'])
      const guard = new URL('../helpers/checkout-guard.ts', import.meta.url).pathname
      const child = (script: string) =>
        spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { guardCheckout } from ${JSON.stringify(guard)}; import { mkdirSync, writeFileSync } from 'node:fs'; guardCheckout(${JSON.stringify(repo)}); ${script}`], { cwd: ROOT, encoding: 'utf8' })
      const quiet = child('')
      assert.equal(quiet.status, 0, quiet.stderr)
      const wrote = child(`mkdirSync(${JSON.stringify(join(repo, 'decks', 'stray'))}); writeFileSync(${JSON.stringify(join(repo, 'decks', 'stray', 'deck.json'))}, '{}')`)
      assert.equal(wrote.status, 1)
      assert.match(wrote.stderr, /A test wrote into the checkout/)
      assert.match(wrote.stderr, /decks\/stray\/deck\.json/)
    } finally {
      rmSync(repo, { recursive: true, force: true })
    }
  })
})

describe('a global install from the packed tarball', () => {
  it('shows the embedded deck in an unrelated folder, never writes into its own folder, and makes workspaces there', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'studio-install-'))
    try {
      const { tarball } = await pack()
      const prefix = join(temp, 'prefix')
      await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: temp, maxBuffer: 64 * 1024 * 1024 })
      const bin = join(prefix, 'bin', 'studio')
      const installed = join(prefix, 'lib', 'node_modules', 'deck-studio')
      assert.ok(existsSync(join(installed, 'studio.json')))
      const before = snapshot(installed)

      const elsewhere = join(temp, 'elsewhere')
      mkdirSync(elsewhere)
      const cli = (args: string[]) => {
        const r = spawnSync(bin, args, { cwd: elsewhere, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '' } })
        let json: any
        try {
          json = JSON.parse(r.stdout)
        } catch {
          json = undefined
        }
        return { code: r.status, stdout: r.stdout, stderr: r.stderr, json }
      }
      const info = cli(['info', '--json'])
      assert.equal(info.code, 0, info.stderr)
      assert.equal(info.json.id, 'welcome')
      assert.equal(cli(['slides', '--json']).code, 0)
      const render = cli(['render', 'all', '--json'])
      assert.equal(render.code, 5, render.stdout + render.stderr)
      assert.equal(render.json.code, 'read_only')
      assert.match(render.json.message, /studio init/)
      assert.equal(cli(['deck', 'create', 'Stray', '--json']).json.code, 'read_only')
      assert.deepEqual(readdirSync(elsewhere), [])

      const init = cli(['init', '--json'])
      assert.equal(init.code, 0, init.stdout + init.stderr)
      const created = cli(['deck', 'create', 'First talk', '--json'])
      assert.equal(created.code, 0, created.stdout + created.stderr)
      assert.equal(created.json.id, 'first-talk')
      assert.equal(cli(['info', '--json']).json.id, 'first-talk')
      assert.ok(cli(['template', 'list', '--json']).json.templates.some((t: { id: string }) => t.id === 'blank'), 'the shipped templates')
      const text = cli(['export', 'txt'])
      assert.equal(text.code, 0, text.stderr)
      assert.match(text.stdout, /First talk/)

      // Shell completion: the plugin's code is bundled into dist/, its files go to the cache folder.
      const cache = join(temp, 'cache')
      const completion = spawnSync(bin, ['autocomplete', '--refresh-cache'], { cwd: elsewhere, encoding: 'utf8', env: { ...process.env, HOME: join(temp, 'home'), XDG_CACHE_HOME: cache } })
      assert.equal(completion.status, 0, completion.stderr)
      assert.match(readFileSync(join(cache, 'studio', 'autocomplete', 'functions', 'bash', 'studio.bash'), 'utf8'), /^deck:rename .*--rev/m)

      assert.deepEqual([...snapshot(installed)].filter(([path, stamp]) => before.get(path) !== stamp), [], 'nothing in the installed package changed')
      assert.deepEqual([...before.keys()].filter((path) => !existsSync(join(installed, path))), [])
    } finally {
      rmSync(temp, { recursive: true, force: true })
    }
  })
})
