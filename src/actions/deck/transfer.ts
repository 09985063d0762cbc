import { chmod, mkdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { defineAction, type ActionContext } from '../../core/action.js'
import { fail, StudioError, type ErrorBody } from '../../core/errors.js'
import { bool, DeckId, int, obj, opt, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { packDeck, unpackInto } from './bundle.js'
import type { DeckDoc } from '../../model/deck.js'

/** ~/.config/studio/hosts.json (XDG_CONFIG_HOME honoured): bearer tokens by studio origin, mode 0600. */
export function hostsFile(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'studio', 'hosts.json')
}

function originOf(address: string): string {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    fail('invalid_input', `"${address}" is not a studio address (e.g. https://studio.example.com).`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('invalid_input', `"${address}" must be an http or https address.`)
  return url.origin
}

async function readHosts(): Promise<Record<string, { token: string }>> {
  try {
    return JSON.parse(await readFile(hostsFile(), 'utf8'))
  } catch {
    return {}
  }
}

/** The token for a studio: the flag, else the one remembered for it, else STUDIO_TOKEN. */
export async function tokenFor(origin: string, given?: string): Promise<string | undefined> {
  if (given) return given
  return (await readHosts())[origin]?.token ?? (process.env.STUDIO_TOKEN || undefined)
}

/** Remembers a token that worked, in a file only the user can read. */
async function rememberToken(origin: string, token: string): Promise<void> {
  const hosts = await readHosts()
  if (hosts[origin]?.token === token) return
  hosts[origin] = { token }
  const file = hostsFile()
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const { default: writeFileAtomic } = await import('write-file-atomic')
  await writeFileAtomic(file, JSON.stringify(hosts, null, 2) + '\n', { mode: 0o600 })
  await chmod(file, 0o600)
}

/** Turns a studio's error answer into ours; network failures say which studio did not answer. */
export async function studioRequest(url: string, init: { method: string; headers: Record<string, string>; body?: Buffer | string }) {
  const { request } = await import('undici')
  let response
  try {
    response = await request(url, { method: init.method as 'GET', headers: init.headers, body: init.body })
  } catch (error) {
    fail('storage', `Could not reach ${new URL(url).origin}: ${(error as Error).message}`)
  }
  const body = Buffer.from(await response.body.arrayBuffer())
  if (response.statusCode >= 400) {
    let parsed: ErrorBody | undefined
    try {
      parsed = JSON.parse(body.toString('utf8')) as ErrorBody
    } catch {
      parsed = undefined
    }
    if (parsed?.code) throw new StudioError(parsed.code, `${new URL(url).origin}: ${parsed.message}`, { pointer: parsed.pointer, details: parsed.details })
    fail('storage', `${new URL(url).origin} answered ${response.statusCode}.`)
  }
  return { body, headers: response.headers }
}

const BUNDLE_LIMIT = () => Number(process.env.STUDIO_BUNDLE_LIMIT) || Math.round(4.5 * 1024 * 1024)

export const deckPush = defineAction({
  id: 'deck.push',
  label: 'Push a deck to a studio',
  doc:
    "Uploads the deck's bundle to another studio through POST /api/decks/bundle with a bearer token (remembered in ~/.config/studio/hosts.json after first use; STUDIO_TOKEN works too). For bundles over the 4.5 MB function body cap (STUDIO_BUNDLE_LIMIT), `fromUrl` names a stored bundle the studio fetches instead. " +
    'To a hosted studio that does not have the deck (and no `as` to another id), the deck goes with its whole history instead when it fits the cap: POST /api/decks/<id>/changes, one change per commit of the deck.',
  group: 'deck',
  milestone: 'M4',
  mutates: false,
  transports: 'C',
  input: obj({
    id: DeckId,
    to: str({ minLength: 1, description: 'Studio address, e.g. https://studio.example.com' }),
    token: opt(str({ description: 'Bearer token.' })),
    as: opt(DeckId),
    replace: opt(bool({ description: 'Replace the deck of that id on the studio.' })),
    fromUrl: opt(str({ pattern: '^https?://', description: 'A bundle already stored at a URL the studio may read.' })),
  }),
  output: result({
    id: { ...DeckId, description: 'The deck id on the studio.' },
    revision: int({ minimum: 0, description: 'The revision pushed.' }),
    replaced: bool({ description: 'Whether it replaced a deck there.' }),
    bytes: int({ minimum: 0, description: 'The bundle size sent (or the history\'s); 0 with fromUrl.' }),
    commits: opt(int({ minimum: 0, description: "Changes sent with the deck's history (to a hosted studio); absent when a bundle was sent." })),
    to: str({ description: 'The studio origin.' }),
  }),
  cli: 'deck push <id> --to <to> --token <token> --as <as> --replace --from-url <fromUrl>',
  annotations: { writes: true },
  cliAliases: ['push'],
  mcp: null,
  example: { id: 'quarterly-review', to: 'http://127.0.0.1:4321' },
  run: async (ctx: ActionContext, input: { id: string; to: string; token?: string; as?: string; replace?: boolean; fromUrl?: string }) => {
    const origin = originOf(input.to)
    const token = await tokenFor(origin, input.token)
    const query = new URLSearchParams()
    if (input.as) query.set('as', input.as)
    if (input.replace) query.set('replace', '1')
    const headers: Record<string, string> = { 'x-studio-author': ctx.principal.author }
    if (token) headers.authorization = `Bearer ${token}`
    if (!input.fromUrl && (input.as ?? input.id) === input.id && !input.replace) {
      const pushed = await pushHistory(ctx, origin, input.id, headers)
      if (pushed) {
        if (input.token) await rememberToken(origin, input.token)
        return pushed
      }
    }
    let bytes = 0
    let body: Buffer | string
    if (input.fromUrl) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify({ fromUrl: input.fromUrl, ...(input.as ? { as: input.as } : {}), ...(input.replace ? { replace: true } : {}) })
    } else {
      const { zip } = await packDeck(ctx, input.id)
      if (zip.length > BUNDLE_LIMIT()) {
        fail('payload_too_large', `The bundle is ${zip.length} bytes, over the ${BUNDLE_LIMIT()}-byte upload cap. Store it where the studio can read it (studio deck pack ${input.id}) and push with --from-url <url>.`)
      }
      headers['content-type'] = 'application/zip'
      body = zip
      bytes = zip.length
    }
    const answer = await studioRequest(`${origin}/api/decks/bundle${query.size ? `?${query}` : ''}`, { method: 'POST', headers, body })
    if (input.token) await rememberToken(origin, input.token)
    const result = JSON.parse(answer.body.toString('utf8')) as { id: string; revision: number; replaced: boolean }
    return { id: result.id, revision: result.revision, replaced: result.replaced, bytes, to: origin }
  },
})

export const deckPull = defineAction({
  id: 'deck.pull',
  label: 'Pull a deck from a studio',
  doc:
    'Downloads a deck bundle through GET /api/decks/<id>/bundle with the bearer token and unpacks it into decks/ (validated first; a taken id gets a sibling id unless `replace`). ' +
    "From a hosted studio, a deck this checkout does not have (and no `as` to another id) comes with its whole history instead: GET /api/decks/<id>/changes, each change one commit with the change's author, time, subject and trailers.",
  group: 'deck',
  milestone: 'M4',
  mutates: true,
  transports: 'C',
  deck: { kind: 'none' },
  input: obj({ id: DeckId, from: str({ minLength: 1, description: 'Studio address.' }), token: opt(str()), as: opt(DeckId), replace: opt(bool({ description: 'Replace the local deck.' })) }),
  output: written({
    id: { ...DeckId, description: 'The local deck id.' },
    revision: int({ minimum: 0, description: 'The revision pulled.' }),
    replaced: bool({ description: 'Whether a local deck was replaced.' }),
    files: int({ minimum: 0, description: 'Number of files in the bundle (or in the deck, pulled with its history).' }),
    from: str({ description: 'The studio origin.' }),
    commits: opt(int({ minimum: 0, description: "Commits written, one per change of a hosted studio's log; absent when a bundle was unpacked." })),
  }),
  cli: 'deck pull <id> --from <from> --token <token> --as <as> --replace',
  annotations: { destructive: true },
  cliAliases: ['pull'],
  mcp: null,
  example: { id: 'quarterly-review', from: 'http://127.0.0.1:4321' },
  run: async (ctx: ActionContext, input: { id: string; from: string; token?: string; as?: string; replace?: boolean }) => {
    const origin = originOf(input.from)
    const token = await tokenFor(origin, input.token)
    const headers: Record<string, string> = {}
    if (token) headers.authorization = `Bearer ${token}`
    if ((input.as ?? input.id) === input.id && !input.replace && !ctx.ws.deckExists(input.id)) {
      const replayed = await pullHistory(ctx, origin, input.id, headers)
      if (replayed) {
        if (input.token) await rememberToken(origin, input.token)
        return replayed
      }
    }
    const answer = await studioRequest(`${origin}/api/decks/${encodeURIComponent(input.id)}/bundle`, { method: 'GET', headers })
    const landed = await unpackInto(ctx, answer.body, { as: input.as ?? input.id, replace: input.replace })
    if (input.token) await rememberToken(origin, input.token)
    return (docs: Map<string, DeckDoc | null>) => ({ ...landed(docs), from: origin })
  },
})

interface LogPage {
  changes: { seq: number; at: string; subject: string; author: string; email: string | null; trailers: Record<string, unknown>; files: Record<string, string | null> }[]
  objects: Record<string, string>
  next: number | null
}

/**
 * A deck new to this checkout, from a hosted studio's change log: each change one commit (its author,
 * time, subject and trailers, plus `Studio-Pulled: <origin> <seq>`), under the deck's lock; every file's
 * bytes checked against its digest and every path kept inside the deck's folder before anything is
 * written. null when the studio keeps no change log (a checkout's serve): the bundle is pulled instead.
 */
async function pullHistory(ctx: ActionContext, origin: string, id: string, headers: Record<string, string>) {
  const [{ applyChanges }, { withLocks }, { checkedRel, TRAILER_KEY }, { sha256 }, { deckKey }, { listFiles }] = await Promise.all([
    import('../../store/transaction.js'),
    import('../../store/lock.js'),
    import('../../hosted/deck-store.js'),
    import('../../hosted/objects.js'),
    import('../../core/engine.js'),
    import('../../store/decks.js'),
  ])
  const page = async (after: number): Promise<LogPage | null> => {
    try {
      const answer = await studioRequest(`${origin}/api/decks/${encodeURIComponent(id)}/changes${after ? `?after=${after}` : ''}`, { method: 'GET', headers })
      return JSON.parse(answer.body.toString('utf8')) as LogPage
    } catch (error) {
      if (error instanceof StudioError && error.code === 'not_found') return null
      throw error
    }
  }
  let current = await page(0)
  if (!current || !Array.isArray(current.changes) || !current.changes.length) return null
  const prefix = `decks/${id}/`
  const key = deckKey(id)
  let commits = 0
  await withLocks(join(ctx.ws.stateDir, 'locks'), [key], async () => {
    if (ctx.ws.deckExists(id)) fail('id_taken', `A deck "${id}" already exists here; pull with --as <another id> or --replace (both take the bundle, without history).`)
    while (current) {
      for (const change of current.changes) {
        const files: { rel: string; content: Buffer | null }[] = []
        for (const [rel, sha] of Object.entries(change.files ?? {})) {
          if (!rel.startsWith(prefix)) fail('refused', `${origin}'s change log names ${rel.slice(0, 120)}, outside deck ${id}; nothing more was written.`)
          checkedRel(rel)
          if (sha === null) {
            files.push({ rel, content: null })
            continue
          }
          const encoded = current.objects?.[sha]
          const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'base64') : undefined
          if (!bytes || sha256(bytes) !== sha) fail('refused', `${origin} sent bytes for ${rel} that are not those of its digest; nothing more was written.`)
          files.push({ rel, content: bytes })
        }
        const trailers: Record<string, string | number> = {}
        for (const [name, value] of Object.entries(change.trailers ?? {})) {
          if (TRAILER_KEY.test(name) && (typeof value === 'number' || (typeof value === 'string' && !/[\r\n]/.test(value)))) trailers[name] = value
        }
        await applyChanges(ctx.ws, [key], files, {
          subject: String(change.subject).replace(/[\r\n]+/g, ' '),
          author: String(change.author),
          ...(change.email ? { email: String(change.email) } : {}),
          trailers: { ...trailers, 'Studio-Pulled': `${origin} ${change.seq}` },
          date: new Date(change.at),
        })
        commits++
      }
      current = current.next ? await page(current.next) : null
    }
  })
  if (!ctx.ws.deckExists(id)) fail('refused', `${origin}'s change log of deck ${id} leaves no deck (it was removed there?); ${commits} commits were written.`)
  const manifest = JSON.parse(await readFile(join(ctx.ws.deckDir(id), 'deck.json'), 'utf8')) as { revision: number }
  return { id, revision: manifest.revision, replaced: false, files: (await listFiles(ctx.ws.deckDir(id))).length, from: origin, commits }
}

/**
 * A deck to a hosted studio that does not have it, with its history: every first-parent commit touching
 * the deck's folder as one change (author, time, subject, trailers, files by SHA-256) and the bytes once
 * each, in one request the studio lands in one transaction. null when the studio keeps no change log,
 * already has the deck, or the history is over the body cap: the bundle goes instead.
 */
async function pushHistory(ctx: ActionContext, origin: string, id: string, headers: Record<string, string>) {
  const git = await import('../../hosted/migrate-git.js')
  const head = await git.headCommit(ctx.ws)
  if (!head) return null
  const folder = ctx.ws.gitPath(`decks/${id}`)
  const touching = new Set((await git.gitOut(ctx.ws, ['log', '--first-parent', '--format=%H', head, '--', folder])).split('\n').filter(Boolean))
  if (!touching.size) return null
  const prefix = `decks/${id}/`
  const changes: { at: string; author: string; email: string; subject: string; trailers: Record<string, string>; files: Record<string, string | null> }[] = []
  const oids = new Set<string>()
  const byOid: [string, string][] = []
  for (const commit of (await git.firstParentCommits(ctx.ws, head)).filter((c) => touching.has(c.hash))) {
    const files: Record<string, string | null> = {}
    for (const change of await git.changesOf(ctx.ws, commit)) {
      if (!change.rel.startsWith(prefix)) continue
      files[change.rel] = change.oid
      if (change.oid) oids.add(change.oid)
    }
    if (!Object.keys(files).length) continue
    const { 'Studio-Tx': _tx, ...trailers } = commit.trailers
    changes.push({ at: new Date(commit.at * 1000).toISOString(), author: commit.author, email: commit.email, subject: commit.subject, trailers, files })
  }
  const blobs = await git.readBlobs(ctx.ws, [...oids])
  const objects: Record<string, string> = {}
  for (const [oid, bytes] of blobs) {
    const sha = git.sha256Of(bytes)
    objects[sha] = bytes.toString('base64')
    byOid.push([oid, sha])
  }
  const shaOf = new Map(byOid)
  for (const change of changes) for (const rel of Object.keys(change.files)) if (change.files[rel]) change.files[rel] = shaOf.get(change.files[rel]!)!
  const body = JSON.stringify({ changes, objects })
  if (Buffer.byteLength(body) > BUNDLE_LIMIT()) return null
  let answer
  try {
    answer = await studioRequest(`${origin}/api/decks/${encodeURIComponent(id)}/changes`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })
  } catch (error) {
    // A checkout's serve (no change log) or a deck the studio has: the bundle, as before.
    if (error instanceof StudioError && (error.code === 'not_found' || error.code === 'id_taken')) return null
    throw error
  }
  const result = JSON.parse(answer.body.toString('utf8')) as { id: string; revision: number; commits: number }
  return { id: result.id, revision: result.revision, replaced: false, bytes: Buffer.byteLength(body), to: origin, commits: result.commits }
}
