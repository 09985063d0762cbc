/**
 * The window transport, the page's only way to change anything: `POST /api/window/<actionId>` with
 * the action's input, the tab's id in `X-Studio-Client` and, off loopback, the bearer token the page
 * read once from its URL (`?token=`) into sessionStorage. Errors come back in the one error shape
 * (status, code, message, pointer, currentRevision, current).
 */

const CLIENT_KEY = 'studio.client'
const TOKEN_KEY = 'studio.token'

function mintClientId(): string {
  const bytes = new Uint8Array(12)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('')
}

/** This tab's id: 12 lowercase base36 characters, minted once per tab and kept in sessionStorage. */
export const clientId: string = (() => {
  let id = sessionStorage.getItem(CLIENT_KEY)
  if (!id || !/^[a-z0-9]{12}$/.test(id)) {
    id = mintClientId()
    sessionStorage.setItem(CLIENT_KEY, id)
  }
  return id
})()

/** The bearer token: read from `?token=` once (then removed from the address bar), kept in sessionStorage. */
export const token: string | null = (() => {
  const url = new URL(location.href)
  const given = url.searchParams.get('token')
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given)
    url.searchParams.delete('token')
    history.replaceState(history.state, '', url.pathname + url.search + url.hash)
  }
  return sessionStorage.getItem(TOKEN_KEY)
})()

export function authHeaders(): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** An error answered by the server, in the one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, any>,
  ) {
    super(message)
  }
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text()
  let body: any
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = { message: text }
  }
  if (!response.ok) throw new ApiError(response.status, body?.code ?? 'internal', body?.message ?? body?.detail ?? `HTTP ${response.status}`, body ?? {})
  return body as T
}

/** Runs one action of the table over the window transport. */
export async function call<T = any>(actionId: string, input: Record<string, unknown>, deck?: string): Promise<T> {
  const query = deck ? `?deck=${encodeURIComponent(deck)}` : ''
  let response: Response
  try {
    response = await fetch(`/api/window/${encodeURIComponent(actionId)}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-studio-client': clientId, ...authHeaders() },
      body: JSON.stringify(input),
    })
  } catch (error) {
    throw new ApiError(0, 'offline', `The studio server did not answer (${(error as Error).message}). Is studio serve still running?`, {})
  }
  return answer<T>(response)
}

/** A GET of one of the page's read routes (views, model data). */
export async function get<T = any>(path: string): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, { headers: authHeaders() })
  } catch (error) {
    throw new ApiError(0, 'offline', `The studio server did not answer (${(error as Error).message}).`, {})
  }
  return answer<T>(response)
}

const blobs = new Map<string, Promise<string>>()
/**
 * A picture URL the page can show. On loopback the server's own URL; with a token, an <img> cannot
 * send it, so the picture is fetched with the header and shown from a blob: URL.
 */
export function pictureUrl(url: string): Promise<string> {
  if (!token || !url.startsWith('/page/')) return Promise.resolve(url)
  let hit = blobs.get(url)
  if (!hit) {
    hit = fetch(url, { headers: authHeaders() })
      .then((r) => r.blob())
      .then((b) => URL.createObjectURL(b))
    blobs.set(url, hit)
  }
  return hit
}

/** A download link of a file an export or build wrote under .studio/. */
export function fileUrl(path: string): string {
  return `/page/file?path=${encodeURIComponent(path)}`
}
