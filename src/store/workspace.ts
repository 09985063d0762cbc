/**
 * A workspace: a folder holding `decks/` inside a git repository.
 *
 * Found from `--root`, then `STUDIO_ROOT`, then the working directory upward (the first folder with
 * `studio.json` or `decks/` inside a git repository). Outside any workspace the package's own folder
 * is used, read-only (`embedded`): its `decks/` holds the embedded default deck, which reads and
 * `studio serve` show, and every write is refused with the `studio init` hint, so a command run in a
 * plain folder never writes into the package or commits into the repository it was installed from.
 * `.studio/` beside `decks/` holds local state (locks, journal, leases) and is git-ignored.
 */
import type { DeckStore } from './deck-store.js'
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { readdir, readFile, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fail } from '../core/errors.js'
import { RESERVED_DECK_IDS } from '../model/schema.js'
import { Git } from './git.js'

export { RESERVED_DECK_IDS }

export interface WorkspaceConfig {
  /** The deck used when a call names none. */
  defaultDeck?: string
  /** logo.refresh: the catalogue manifest's URL (STUDIO_LOGO_CATALOGUE_URL wins) and its time budget in ms (default 60 000). */
  logos?: { catalogueUrl?: string; refreshBudgetMs?: number }
}

/** The package folder (where package.json, decks/ and templates/ of studio itself live). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return dir
}

function isWorkspace(dir: string): boolean {
  return existsSync(join(dir, 'studio.json')) || isDir(join(dir, 'decks'))
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function findGitRoot(dir: string): string | null {
  let current = dir
  for (;;) {
    if (existsSync(join(current, '.git'))) return current
    const parent = dirname(current)
    if (parent === current) return null
    current = parent
  }
}

export class Workspace {
  readonly decksDir: string
  readonly stateDir: string
  readonly git: Git
  /** Path of the workspace inside its git repository ('' when they coincide), for git pathspecs. */
  readonly prefix: string
  /** The engine its decks are stored in (src/store/deck-store.ts); the git workspace when absent. */
  store?: DeckStore

  constructor(
    readonly root: string,
    gitRoot: string,
    /** The package's own folder, used because no workspace was found: reads only. */
    readonly embedded = false,
  ) {
    this.decksDir = join(root, 'decks')
    this.stateDir = join(root, '.studio')
    this.git = new Git(root, gitRoot)
    this.prefix = root === gitRoot ? '' : root.slice(gitRoot.length + 1)
  }

  /** Finds the workspace for a call; a clear error names what to do when there is none. */
  static find(options: { root?: string; cwd?: string } = {}): Workspace {
    const explicit = options.root ?? process.env.STUDIO_ROOT
    let root: string | undefined
    if (explicit) {
      root = resolve(options.cwd ?? process.cwd(), explicit)
      if (!isWorkspace(root)) fail('not_found', `No studio workspace at ${root} (no decks/ folder). Run \`studio init ${explicit}\` to make one.`)
    } else {
      let dir = resolve(options.cwd ?? process.cwd())
      for (;;) {
        if (isWorkspace(dir) && findGitRoot(dir)) {
          root = dir
          break
        }
        const parent = dirname(dir)
        if (parent === dir) break
        dir = parent
      }
    }
    if (!root) {
      const own = packageRoot()
      return new Workspace(own, findGitRoot(own) ?? own, true)
    }
    const gitRoot = findGitRoot(root)
    if (!gitRoot) fail('not_found', `${root} holds decks/ but is not inside a git repository. Run \`studio init\` there.`)
    return new Workspace(root, gitRoot)
  }

  /**
   * Where `path` (relative to the root, or absolute) lands if it stays inside the workspace once every
   * symbolic link is followed: `abs` (the real path) and `rel` (relative to the root, for messages).
   * null when it leaves the workspace, lexically or through a link. A path that does not exist yet is
   * judged by its nearest existing folder, so a link out of the workspace is not probed either.
   */
  async contain(path: string): Promise<{ abs: string; rel: string } | null> {
    const realRoot = realpathSync(this.root)
    const lexical = resolve(this.root, path)
    const within = (base: string, p: string) => {
      const rel = relative(base, p)
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
    }
    if (!within(this.root, lexical) && !within(realRoot, lexical)) return null
    let existing = lexical
    let rest = ''
    for (;;) {
      try {
        const real = await realpath(existing)
        const abs = rest ? join(real, rest) : real
        return within(realRoot, real) ? { abs, rel: relative(realRoot, abs) || '.' } : null
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return null
        const parent = dirname(existing)
        if (parent === existing) return null
        rest = rest ? join(existing.slice(parent.length + 1), rest) : existing.slice(parent.length + 1)
        existing = parent
      }
    }
  }

  /** Refuses a write in the embedded (package) folder, naming what to do instead. */
  refuseEmbeddedWrite(what: string): void {
    if (!this.embedded) return
    fail(
      'read_only',
      `No studio workspace here: ${what} would write into Deck Studio's own folder, which only shows the embedded default deck and never changes. Run \`studio init\` to make a workspace here, then \`studio deck create "My deck"\` (or pass --root / set STUDIO_ROOT).`,
    )
  }

  config(): WorkspaceConfig {
    const file = join(this.root, 'studio.json')
    if (!existsSync(file)) return {}
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as WorkspaceConfig
    } catch {
      fail('storage', `${file} is not valid JSON; fix or remove it.`)
    }
  }

  deckDir(id: string): string {
    return join(this.decksDir, id)
  }

  /** A path relative to the workspace root, as git sees it (relative to the git root). */
  gitPath(rel: string): string {
    return this.prefix ? `${this.prefix}/${rel}` : rel
  }

  deckExists(id: string): boolean {
    return !RESERVED_DECK_IDS.has(id) && existsSync(join(this.deckDir(id), 'deck.json'))
  }

  async deckIds(): Promise<string[]> {
    let entries: string[]
    try {
      entries = await readdir(this.decksDir)
    } catch {
      return []
    }
    return entries.filter((name) => !RESERVED_DECK_IDS.has(name) && existsSync(join(this.decksDir, name, 'deck.json'))).sort()
  }

  /** The configured default deck, else the only (non-trashed) deck, else an error listing the decks. */
  async defaultDeckId(): Promise<string> {
    const configured = this.config().defaultDeck
    if (configured && this.deckExists(configured)) return configured
    const ids = await this.deckIds()
    const live: string[] = []
    for (const id of ids) {
      const manifest = JSON.parse(await readFile(join(this.deckDir(id), 'deck.json'), 'utf8'))
      if (!manifest.trashedAt) live.push(id)
    }
    if (live.length === 1) return live[0]
    if (live.length === 0) fail('not_found', 'No deck in this workspace. Create one: studio deck create "My deck" (MCP: deck_create).')
    fail('invalid_input', `Several decks here; name one with --deck (or ?deck=): ${live.join(', ')}. Set a default with \`studio deck default <id>\`.`, { path: 'deck' })
  }
}
