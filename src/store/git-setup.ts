/**
 * Registers studio's two git drivers in a workspace's repository (`studio git setup`; `studio init`
 * does it for a new workspace):
 *
 *   .gitattributes (in the workspace folder, committed by the caller):
 *     decks/**\/*.json diff=studio                       readable diffs (studio diff --textconv)
 *     decks/**\/deck.json, slides/*.json, versions.json, comments/*.json  merge=studio (studio merge driver)
 *   the repository's own config (.git/config, per clone, never committed):
 *     diff.studio.textconv, diff.studio.cachetextconv, merge.studio.name, merge.studio.driver
 *   .gitignore: .studio/ (the conflicts file lives there)
 *
 * A clone that lacks the config still works: git treats an unknown driver as its own text merge.
 */
import { execFile } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { StudioError } from '../core/errors.js'
import type { Git } from './git.js'

export const ATTRIBUTE_LINES = [
  '# Deck Studio: deck JSON diffs as slide text, and deck files merged at the model level (docs/review.md).',
  'decks/**/*.json diff=studio',
  'decks/**/deck.json merge=studio',
  'decks/**/slides/*.json merge=studio',
  'decks/**/versions.json merge=studio',
  'decks/**/comments/*.json merge=studio',
]

/** How git should start studio: `studio` when the one on the PATH is this one, else node and this bin, quoted. */
export function studioCommand(bin: string | undefined = process.argv[1]): string {
  const quote = (s: string) => (/^[A-Za-z0-9_./:@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)
  if (!bin) return 'studio'
  const real = (p: string) => {
    try {
      return realpathSync(p)
    } catch {
      return p
    }
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'studio')
    if (dir && existsSync(candidate) && real(candidate) === real(bin)) return 'studio'
  }
  return `${quote(process.execPath)} ${quote(real(bin))}`
}

export interface GitSetup {
  /** Files written (relative to the workspace): `.gitattributes`, `.gitignore`. */
  written: string[]
  config: Record<string, string>
}

async function addLines(file: string, lines: string[]): Promise<boolean> {
  const current = existsSync(file) ? await readFile(file, 'utf8') : ''
  const have = new Set(current.split('\n').map((l) => l.trim()))
  const missing = lines.filter((l) => !have.has(l))
  if (!missing.length) return false
  await writeFile(file, current + (current && !current.endsWith('\n') ? '\n' : '') + missing.join('\n') + '\n')
  return true
}

/** Writes the attribute lines and the repository's driver config; safe to run twice. */
export async function setupGit(git: Git, workspaceRoot: string, command = studioCommand()): Promise<GitSetup> {
  const written: string[] = []
  if (await addLines(join(workspaceRoot, '.gitattributes'), ATTRIBUTE_LINES)) written.push('.gitattributes')
  if (await addLines(join(workspaceRoot, '.gitignore'), ['.studio/'])) written.push('.gitignore')
  const config: Record<string, string> = {
    'diff.studio.textconv': `${command} diff --textconv`,
    'diff.studio.cachetextconv': 'true',
    'merge.studio.name': 'Deck Studio: decks merged at the model level',
    'merge.studio.driver': `${command} merge driver %O %A %B %P`,
  }
  // Not through simple-git, which refuses to set a textconv (it runs a program): these values are ours.
  for (const [key, value] of Object.entries(config)) {
    try {
      await promisify(execFile)('git', ['config', '--local', key, value], { cwd: git.gitRoot })
    } catch (error) {
      throw new StudioError('storage', `git config ${key} failed: ${String((error as { stderr?: string }).stderr ?? error).trim().split('\n')[0]}`)
    }
  }
  return { written, config }
}
