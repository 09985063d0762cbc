/**
 * Accounts in the page: whether this studio has them, who the page is (account.me), and the sign-in
 * routes under /auth/ (a magic link by mail, a passkey). The routes set the `studio_session` cookie,
 * which every later fetch sends by itself; the page never sees a secret.
 */
import { ApiError, authHeaders, call, get } from './api.js'
import { store, type Me } from './store.js'

/** Reads whether this studio has accounts and, when it does, who the page is. */
export async function loadAccount(): Promise<void> {
  const start = await get<{ accounts?: boolean }>('/page/start').catch(() => null)
  if (!start?.accounts) {
    store.set({ accounts: false, account: null })
    return
  }
  store.set({ accounts: true })
  await refreshMe()
}

export async function refreshMe(): Promise<void> {
  try {
    const me = await call<Me>('account.me', {})
    store.set({ account: me })
  } catch (error) {
    // No session at all reads as anonymous: the sign-in screen is where it goes from there.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) store.set({ account: null })
    else throw error
  }
}

/** Signed in as a person (not an anonymous browser, not nobody). */
export function signedIn(): boolean {
  return store.state.account?.principal.kind === 'person'
}

async function post<T>(path: string, body: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders() }, body: JSON.stringify(body) })
  } catch (error) {
    throw new ApiError(0, 'offline', `The studio server did not answer (${(error as Error).message}).`, {})
  }
  const text = await response.text()
  let parsed: any = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = { message: text }
  }
  if (!response.ok) throw new ApiError(response.status, parsed?.code ?? 'internal', parsed?.message ?? `HTTP ${response.status}`, parsed ?? {})
  return parsed as T
}

/** The one answer the page gives after asking for a sign-in link, whatever the server knows of the address. */
export const CHECK_MAIL = 'Check your mail: if this address can sign in here, a sign-in link is on its way. It works once, for 15 minutes.'

/** Asks for a sign-in link by mail; `next` is where the link lands after signing in. */
export async function sendMagicLink(email: string, next: string): Promise<string> {
  const answer = await post<{ message?: string }>('/auth/mail', { email, next })
  return answer?.message ? `Check your mail. ${answer.message}` : CHECK_MAIL
}

const b64url = {
  decode(text: string): ArrayBuffer {
    const base = text.replace(/-/g, '+').replace(/_/g, '/')
    const bin = atob(base + '='.repeat((4 - (base.length % 4)) % 4))
    return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer
  },
  encode(buffer: ArrayBuffer | null): string | undefined {
    if (!buffer) return undefined
    let bin = ''
    for (const b of new Uint8Array(buffer)) bin += String.fromCharCode(b)
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  },
}

/** Signs in with a passkey (a discoverable credential): the server's challenge, the authenticator's answer, the server's verdict (it sets the cookie). */
export async function passkeySignIn(): Promise<void> {
  if (!window.PublicKeyCredential) throw new ApiError(0, 'unsupported', 'This browser does not support passkeys: use the link by mail.', {})
  const { challengeId, options } = await post<{ challengeId: string; options: any }>('/auth/passkey/login/options', {})
  const publicKey: PublicKeyCredentialRequestOptions = { ...options, challenge: b64url.decode(options.challenge), allowCredentials: [] }
  const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential | null
  if (!credential) throw new ApiError(0, 'cancelled', 'No passkey was chosen.', {})
  const r = credential.response as AuthenticatorAssertionResponse
  const response = {
    id: credential.id,
    rawId: b64url.encode(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment,
    response: {
      clientDataJSON: b64url.encode(r.clientDataJSON),
      authenticatorData: b64url.encode(r.authenticatorData),
      signature: b64url.encode(r.signature),
      userHandle: b64url.encode(r.userHandle),
    },
  }
  await post('/auth/passkey/login/verify', { challengeId, response })
  await refreshMe()
}

/** Ends this browser's session and shows the page as the anonymous browser it now is. */
export async function signOut(): Promise<void> {
  await call('account.signOut', {})
  await refreshMe()
}

/** Replaces this anonymous browser's id with a fresh one and clears what the page kept of it. */
export async function forgetMe(): Promise<void> {
  await call('account.forget', {})
  for (const key of Object.keys(localStorage)) if (key.startsWith('studio.') && key !== 'studio.appearance') localStorage.removeItem(key)
  await refreshMe()
}
