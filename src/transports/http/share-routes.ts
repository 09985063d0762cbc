/**
 * The share link route, GET /s/<token>: a live link opens a link session (cookie
 * `studio_link_<deckId>`, HttpOnly, SameSite=Lax) and sends the browser to the deck's page; an
 * unknown, revoked, rotated or expired link answers the same plain 404 page, so a visitor cannot tell
 * which. The token is never logged and never echoed; the answer is `no-store` with no referrer.
 * A signed-in visitor's link session is theirs; anyone else's gets a new anonymous principal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Workspace } from '../../store/workspace.js'
import { identityOf } from '../../identity/db.js'
import { LINK_COOKIE_PREFIX, type Caller } from '../../identity/caller.js'
import { openLinkSession } from '../../identity/link-sessions.js'

const SHARE_PATH = /^\/s\/([^/]+)$/

export const isShareLinkPath = (path: string) => SHARE_PATH.test(path)

const DEAD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Link not working</title></head>
<body><h1>This link no longer works</h1><p>Ask the person who shared it for a new one.</p></body></html>
`

/** Answers GET /s/<token>; false when the path is not a share link. */
export async function handleShareLink(req: IncomingMessage, res: ServerResponse, path: string, ws: Workspace, caller: Caller | undefined): Promise<boolean> {
  const match = SHARE_PATH.exec(path)
  if (!match) return false
  res.setHeader('cache-control', 'no-store')
  const identity = await identityOf(ws)
  let opened: Awaited<ReturnType<typeof openLinkSession>> = null
  if (identity) {
    opened = await identity.write((tx) => openLinkSession(tx, decodeURIComponentSafe(match[1]), caller?.principalId, (req.headers['user-agent'] as string | undefined) ?? null))
  }
  if (!opened) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" })
    res.end(req.method === 'HEAD' ? undefined : DEAD_PAGE)
    return true
  }
  const maxAge = Math.max(1, Math.floor((Date.parse(opened.expiresAt) - Date.now()) / 1000))
  const { secureRequest, sessionCookie } = await import('../../identity/account.js')
  res.writeHead(303, {
    location: `/d/${opened.deckId}`,
    // HttpOnly, SameSite=Lax, Path=/, and Secure under TLS, as every studio cookie (src/identity/account.ts).
    'set-cookie': sessionCookie(`${LINK_COOKIE_PREFIX}${opened.deckId}`, opened.secret, { secure: secureRequest(req), maxAgeSeconds: maxAge }),
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
