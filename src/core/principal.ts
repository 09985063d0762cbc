/**
 * Who is calling. A local checkout has no accounts: the caller owns every deck. The author is what
 * commits and leases are attributed to: `--author` / `x-studio-author` / `?author=`, else
 * `agent:http` over HTTP and MCP; on the command line `STUDIO_AUTHOR`, then git's own `user.name`
 * and `user.email` (the CLI transport reads them, see cliIdentity in src/transports/cli/run.ts),
 * then the local user; the page of a local `studio serve` git's identity first (src/transports/http/page.ts).
 * Any of them may be written `Name <address>`, as git writes an author.
 */
import { userInfo } from 'node:os'
import { fail } from './errors.js'
import type { Role } from './access.js'

export interface Principal {
  /** The principal's row in the identity database (src/identity/), where the studio has accounts; absent on a checkout. */
  id?: string
  author: string
  /** The author's git address where one is known (git's own user.email); derived from the name otherwise. */
  email?: string
  kind: 'person' | 'agent' | 'anonymous'
  /** Every deck counts as owned by the caller on a checkout. */
  owner: boolean
  /** The caller's role on the deck the call names (src/core/access.ts): the owner on a checkout. */
  role: Role
}

const AUTHOR_RE = /^[^\u0000-\u001f\u007f<>]{1,120}$/u
/** A git address a commit can carry: no spaces, controls, < or >. */
const EMAIL_RE = /^[^\s\u0000-\u001f\u007f<>]{1,254}$/u

/** An author given as git writes one, `Name <address>`: the two parts. */
const ADDRESSED_RE = /^([^<>]*?)\s*<([^<>]*)>$/u

/**
 * The caller; `email` (git's user.email on the CLI) is kept when git could write it, else derived
 * from the name at commit time. An author written `Ana <ana@example.com>` brings its own address,
 * which wins over `email`.
 */
export function principalFor(author: string | undefined, transport: string, email?: string, role: Role = 'owner'): Principal {
  let name = author?.trim()
  const addressed = name ? ADDRESSED_RE.exec(name) : null
  if (addressed) {
    name = addressed[1].trim()
    email = addressed[2].trim()
    if (!name || !EMAIL_RE.test(email)) fail('invalid_input', 'An author with an address is written as git writes one: "Name <address>", a name and an address without spaces.', { path: 'author' })
  }
  // The command line and the page are the person at this machine (on a checkout, the one who ran
  // `studio serve`); HTTP and MCP callers unnamed are agents.
  if (!name) name = transport === 'C' || transport === 'P' ? process.env.STUDIO_AUTHOR?.trim() || localUser() : 'agent:http'
  if (!AUTHOR_RE.test(name)) fail('invalid_input', 'The author must be 1 to 120 printable characters without < or > (or "Name <address>").', { path: 'author' })
  const address = email?.trim()
  return { author: name, ...(address && EMAIL_RE.test(address) ? { email: address } : {}), kind: name.startsWith('agent:') ? 'agent' : 'person', owner: role === 'owner', role }
}

function localUser(): string {
  try {
    return userInfo().username || 'local'
  } catch {
    return 'local'
  }
}

/** The git identity of an author: the name as given, a stable non-routable address derived from it. */
export function gitIdentity(author: string): { name: string; email: string } {
  const local = author.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'author'
  return { name: author, email: `${local}@studio.invalid` }
}
