/**
 * The share link route, GET /s/<token>: a live link opens a link session (cookie
 * `studio_link_<deckId>`, HttpOnly, SameSite=Lax) and sends the browser to the deck's page; an
 * unknown, revoked, rotated or expired link answers the same plain 404 page, so a visitor cannot tell
 * which. The token is never logged and never echoed; the answer is `no-store` with no referrer.
 *
 * Also `requestCaller`: the Caller of an HTTP request where the workspace has accounts. It reads the
 * link credentials (this part's) and, until src/identity/auth.ts lands, the minimal rest: the
 * deployment's bearer, and a `studio_session` cookie of a live sign-in or anonymous session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { timingSafeEqual, createHash } from 'node:crypto'
import type { Workspace } from '../../store/workspace.js'
import { identityOf } from '../../identity/db.js'
import { LINK_COOKIE_PREFIX, SESSION_COOKIE, type Caller } from '../../identity/caller.js'
import { cookiesOf, linkPassesOf, openLinkSession } from '../../identity/link-sessions.js'
import { hashOf, kindOf, wellFormed } from '../../identity/secrets.js'

const SHARE_PATH = /^\/s\/([^/]+)$/

export const isShareLinkPath = (path: string) => SHARE_PATH.test(path)

const DEAD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Link not working</title></head>
<body><h1>This link no longer works</h1><p>Ask the person who shared it for a new one.</p></body></html>
`

/** Answers GET /s/<token>; false when the path is not a share link. */
export async function handleShareLink(req: IncomingMessage, res: ServerResponse, path: string, ws: Workspace, token: string | undefined): Promise<boolean> {
  const match = SHARE_PATH.exec(path)
  if (!match) return false
  res.setHeader('cache-control', 'no-store')
  const identity = await identityOf(ws)
  let opened: Awaited<ReturnType<typeof openLinkSession>> = null
  if (identity) {
    const caller = await requestCaller(req, ws, token)
    opened = await identity.write((tx) => openLinkSession(tx, decodeURIComponentSafe(match[1]), caller?.principalId, (req.headers['user-agent'] as string | undefined) ?? null))
  }
  if (!opened) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" })
    res.end(req.method === 'HEAD' ? undefined : DEAD_PAGE)
    return true
  }
  const secure = (process.env.STUDIO_PUBLIC_URL ?? '').startsWith('https:') ? '; Secure' : ''
  const maxAge = Math.max(1, Math.floor((Date.parse(opened.expiresAt) - Date.now()) / 1000))
  res.writeHead(303, {
    location: `/d/${opened.deckId}`,
    'set-cookie': `${LINK_COOKIE_PREFIX}${opened.deckId}=${opened.secret}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure}`,
  })
  res.end()
  return true
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return ''
  }
}

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())

/**
 * The request's Caller where the workspace has accounts, else undefined (a checkout: every caller
 * owns every deck). Interim for the principal part (src/identity/auth.ts replaces it); the link
 * passes are final.
 */
export async function requestCaller(req: IncomingMessage, ws: Workspace, token: string | undefined): Promise<Caller | undefined> {
  const identity = await identityOf(ws)
  if (!identity) return undefined
  const base: Pick<Caller, 'ip' | 'origin'> = { ip: req.socket.remoteAddress ?? 'unknown', ...(req.headers.host ? { origin: `http://${req.headers.host}` } : {}) }
  const auth = req.headers.authorization
  const bearer = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined
  if (bearer && token && sameSecret(bearer, token)) return { root: true, kind: 'deployment', admin: true, ...base }
  const cookies = cookiesOf(req.headers.cookie)
  const db = identity.db
  const now = new Date().toISOString()
  let principalId: string | undefined
  let sessionId: string | undefined
  const sessionSecret = cookies.get(SESSION_COOKIE)
  if (sessionSecret && wellFormed(sessionSecret, 'session')) {
    const session = await db.selectFrom('sessions').select(['id', 'principal_id', 'kind', 'revoked_at', 'expires_at']).where('secret_hash', '=', hashOf(sessionSecret)).executeTakeFirst()
    if (session && session.kind !== 'link' && session.revoked_at === null && session.expires_at > now) {
      principalId = session.principal_id
      sessionId = session.id
    }
  }
  const links = await linkPassesOf(db, cookies, bearer && kindOf(bearer) === 'link' ? bearer : undefined)
  principalId ??= links.principalId
  const principal = principalId ? await db.selectFrom('principals').select(['kind', 'is_admin']).where('id', '=', principalId).executeTakeFirst() : undefined
  return {
    kind: principal?.kind === 'person' ? 'person' : principal?.kind === 'agent' ? 'agent' : 'anonymous',
    ...(principal && principalId ? { principalId } : {}),
    ...(principal?.is_admin ? { admin: true } : {}),
    ...(sessionId ? { sessionId } : {}),
    ...(links.passes.size ? { links: links.passes } : {}),
    ...base,
  }
}
