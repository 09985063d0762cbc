/**
 * Shell completion (`studio autocomplete`, from @oclif/plugin-autocomplete): the setup it prints,
 * the completion files it writes into the cache folder (never anywhere else in HOME), a real bash
 * loading them the way the printed setup says, and that no other command pays for it at start-up.
 * HOME and XDG_CACHE_HOME always point into a temp folder: a test never touches the real home.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { COMMANDS, prepareCommands } from '../../commands/index.js'
import { BIN, ROOT, studio } from '../helpers/studio.js'

interface Home {
  dir: string
  home: string
  cache: string
  env: Record<string, string>
}

/** A temp HOME and XDG_CACHE_HOME, and a `studio` on the PATH (as an install puts it), for a shell to find. */
function tempHome(): Home {
  const dir = mkdtempSync(join(tmpdir(), 'studio-completion-'))
  const home = join(dir, 'home')
  const cache = join(dir, 'cache')
  const bin = join(dir, 'bin')
  mkdirSync(home)
  mkdirSync(bin)
  writeFileSync(join(bin, 'studio'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`)
  chmodSync(join(bin, 'studio'), 0o755)
  return { dir, home, cache, env: { HOME: home, XDG_CACHE_HOME: cache, PATH: `${bin}:${process.env.PATH}`, SHELL: '/bin/bash' } }
}

/** What a real bash offers for the words typed so far (the last one being completed), after sourcing `rcfile`. */
function bashComplete(home: Home, words: string[]): string[] {
  const script = `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()
    $(complete -p studio | sed -E 's/^complete -F ([^ ]+) .*/\\1/'); printf '%s\\n' "\${COMPREPLY[@]}"`
  // -i: bash reads ~/.bashrc as a user's terminal does (job-control warnings on stderr are expected).
  const out = execFileSync('bash', ['-ic', script], { cwd: home.home, env: { ...process.env, ...home.env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  return [...new Set(out.split('\n').filter(Boolean))].sort()
}

describe('shell completion', () => {
  let home: Home
  before(() => (home = tempHome()))
  after(() => rmSync(home.dir, { recursive: true, force: true }))

  it('prints the setup for bash, zsh and PowerShell, each naming the line that loads it', async () => {
    for (const shell of ['bash', 'zsh', 'powershell']) {
      const shown = await studio(home.home, ['autocomplete', shell], { env: home.env })
      assert.equal(shown.code, 0, shown.stderr)
      assert.match(shown.stdout, /Setup Instructions for STUDIO CLI Autocomplete/)
      assert.ok(shown.stdout.includes(`studio autocomplete script ${shell}`), `${shell}: ${shown.stdout}`)
    }
    const bash = await studio(home.home, ['autocomplete', 'script', 'bash'], { env: home.env })
    assert.equal(bash.code, 0, bash.stderr)
    assert.equal(bash.stdout.trim(), `STUDIO_AC_BASH_SETUP_PATH=${join(home.cache, 'studio', 'autocomplete', 'bash_setup')} && test -f $STUDIO_AC_BASH_SETUP_PATH && source $STUDIO_AC_BASH_SETUP_PATH; # studio autocomplete setup`)
    const pwsh = await studio(home.home, ['autocomplete', 'script', 'powershell'], { env: home.env })
    assert.equal(pwsh.stdout.trim(), `. ${join(home.cache, 'studio', 'autocomplete', 'functions', 'powershell', 'studio.ps1')}`)
    const refused = await studio(home.home, ['autocomplete', 'fish'], { env: home.env })
    assert.notEqual(refused.code, 0)
    assert.match(refused.stderr, /Expected fish to be one of: zsh, bash, powershell/)
  })

  it('completes commands, subcommands and flags in a real bash set up as the instructions say', async () => {
    const shown = await studio(home.home, ['autocomplete', 'bash'], { env: home.env })
    const setup = shown.stdout.split('\n').map((line) => line.trim()).find((line) => line.endsWith('>> ~/.bashrc; source ~/.bashrc'))
    assert.ok(setup, shown.stdout)
    execFileSync('bash', ['-c', setup], { cwd: home.home, env: { ...process.env, ...home.env }, stdio: 'ignore' })
    assert.match(readFileSync(join(home.home, '.bashrc'), 'utf8'), /STUDIO_AC_BASH_SETUP_PATH=/)

    const top = bashComplete(home, ['studio', ''])
    for (const word of ['autocomplete', 'deck', 'init', 'serve', 'mcp', 'slide', 'info']) assert.ok(top.includes(word), `studio <TAB> offers ${word}: ${top.join(' ')}`)
    assert.deepEqual(bashComplete(home, ['studio', 'deck', 'ren']), ['rename'])
    assert.deepEqual(bashComplete(home, ['studio', 'deck', 'rename', '--r']), ['--rev', '--root'])
    assert.ok(bashComplete(home, ['studio', 'slide', '']).includes('insert'))
    assert.ok(bashComplete(home, ['studio', 'serve', '--']).includes('--port'))
  })

  it('writes completion for every command, generated and hand-written, with its flags, and only into the cache folder', async () => {
    const fresh = tempHome()
    try {
      // Without XDG_CACHE_HOME the cache folder is ~/.cache/studio.
      const env = { ...fresh.env, XDG_CACHE_HOME: '' }
      const refreshed = await studio(fresh.home, ['autocomplete', '--refresh-cache'], { env })
      assert.equal(refreshed.code, 0, refreshed.stderr)
      assert.equal(refreshed.stdout, '', 'no instructions with --refresh-cache')
      assert.deepEqual(readdirSync(fresh.home), ['.cache'])
      assert.deepEqual(readdirSync(join(fresh.home, '.cache')), ['studio'])
      const folder = join(fresh.home, '.cache', 'studio', 'autocomplete')
      const bash = readFileSync(join(folder, 'functions', 'bash', 'studio.bash'), 'utf8')
      const lines = new Map(bash.split('\n').filter((line) => /^[a-z][a-z0-9:-]* ?/.test(line)).map((line) => [line.split(' ')[0], line.split(' ').slice(1)]))

      await prepareCommands('all')
      let listed = 0
      for (const [id, cls] of Object.entries(COMMANDS)) {
        const flags = Object.entries(cls.flags ?? {}).filter(([, flag]) => !flag.hidden).map(([name]) => `--${name}`)
        for (const name of [id, ...(cls.aliases ?? [])]) {
          if (cls.hidden) {
            assert.ok(!lines.has(name), `${name} is hidden`)
            continue
          }
          assert.deepEqual(lines.get(name)?.sort(), flags.sort(), `${name}: its flags`)
          listed++
        }
      }
      assert.ok(listed > 150 && lines.has('deck:rename') && lines.has('autocomplete'), `${listed} commands`)
      assert.ok(lines.get('deck:rename')!.includes('--rev'))

      // zsh and PowerShell show each flag's description beside it (the manifest oclif reads has none).
      const zsh = readFileSync(join(folder, 'functions', 'zsh', '_studio'), 'utf8')
      assert.match(zsh, /_studio_deck\(\) \{[\s\S]*?"rename"\)\s*_arguments -S \\\n[\s\S]*?--rev"\[baseRevision: the revision you read; default: the current one \(read now\)\.\]/)
      const pwsh = readFileSync(join(folder, 'functions', 'powershell', 'studio.ps1'), 'utf8')
      assert.match(pwsh, /"rev" = @\{ "summary" = "baseRevision: the revision you read; default: the current one \(read now\)\." \}/)
      assert.ok(existsSync(join(folder, 'bash_setup')) && existsSync(join(folder, 'zsh_setup')))
    } finally {
      rmSync(fresh.dir, { recursive: true, force: true })
    }
  })

  it('costs the other commands nothing at start-up: no oclif plugin to read, no completion code evaluated', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { oclif: { plugins?: string[] } }
    // oclif reads every listed plugin's package.json and manifest at every start.
    assert.equal(pkg.oclif.plugins, undefined)
    const trace = join(home.dir, 'modules.txt')
    const plain = mkdtempSync(join(home.dir, 'plain-'))
    const run = spawnSync(process.execPath, ['--import', join(ROOT, 'test/helpers/trace-imports.mjs'), BIN, 'info', '--json'], {
      cwd: plain,
      env: { ...process.env, ...home.env, STUDIO_TRACE_FILE: trace, STUDIO_ROOT: '' },
    })
    assert.equal(run.status, 0, String(run.stderr))
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> }
    const completion = Object.entries(meta.outputs).filter(([, out]) => Object.keys(out.inputs).some((input) => input.includes('plugin-autocomplete'))).map(([file]) => file)
    assert.ok(completion.length, 'the build bundles the plugin')
    const loaded = readFileSync(trace, 'utf8')
    for (const file of completion) assert.ok(!loaded.includes(file), `a cold studio info loads ${file}`)
    assert.doesNotMatch(loaded, /plugin-autocomplete/)
  })
})
