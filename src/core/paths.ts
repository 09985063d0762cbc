/**
 * Paths named in an action's input. On the command line a path is the caller's own and may be
 * anywhere; over the network transports (HTTP, MCP, the page) it is relative to the workspace and
 * must stay inside it, symbolic links followed. Messages name the path as given, never the server's
 * absolute path.
 */
import { existsSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import type { TransportLetter } from './action.js'
import { fail } from './errors.js'

/** The real path of `path`, or of its nearest existing parent joined with the rest (for a folder still to be made). */
function realOrParent(path: string): string {
  let head = path
  const rest: string[] = []
  while (!existsSync(head)) {
    const up = dirname(head)
    if (up === head) break
    rest.unshift(head.slice(up.length + (up.endsWith(sep) ? 0 : 1)))
    head = up
  }
  return resolve(realpathSync(head), ...rest)
}

/** Resolves an input path against the workspace root; refuses, over a network transport, one that leaves it. */
export function inputPath(root: string, transport: TransportLetter, given: string, pointer: string): string {
  if (given.includes('\u0000')) fail('invalid_input', 'A path cannot hold a NUL character.', { pointer })
  const local = transport === 'C'
  if (!local && isAbsolute(given)) fail('forbidden', `"${given}" is an absolute path; over the network a path is relative to the workspace.`, { pointer })
  const path = resolve(root, given)
  if (local) return path
  const inside = (candidate: string, base: string) => {
    const rel = relative(base, candidate)
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
  }
  if (!inside(path, root) || !inside(realOrParent(path), realpathSync(root))) {
    fail('forbidden', `"${given}" leads outside the workspace; over the network a path must stay inside it.`, { pointer })
  }
  return path
}
