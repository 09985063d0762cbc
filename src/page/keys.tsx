/**
 * The account's API keys (account.tokens.*: the secret shown once, then only its record) and its
 * sign-in sessions (account.sessions, account.signOut).
 */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { Dialog, endOfDay, ShownOnce } from './dialog.js'
import { refreshMe } from './account.js'
import { messageOf } from './store.js'

const SCOPES = ['read', 'comment', 'write', 'export', 'share', 'admin'] as const
interface Token {
  id: string
  name: string
  scopes: string[]
  expiresAt: string | null
  createdAt: string
  lastUsedAt: string | null
}
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never')

export function Keys({ onClose }: { onClose: () => void }) {
  const [tokens, setTokens] = useState<Token[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<Set<string>>(new Set(['read']))
  const [expires, setExpires] = useState('')
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null)
  const load = () =>
    call<{ tokens: Token[] }>('account.tokens.list', {}).then(
      (r) => setTokens(r.tokens),
      (e) => setError(messageOf(e)),
    )
  useEffect(() => void load(), [])
  const create = async (event: Event) => {
    event.preventDefault()
    if (!name.trim() || !scopes.size) return
    setError(null)
    try {
      const made = await call<{ token: Token; secret: string }>('account.tokens.create', { name: name.trim(), scopes: SCOPES.filter((s) => scopes.has(s)), ...(expires ? { expiresAt: endOfDay(expires) } : {}) })
      setSecret({ name: made.token.name, value: made.secret })
      setName('')
      setExpires('')
      await load()
    } catch (e) {
      setError(`Create the key: ${messageOf(e)}`)
    }
  }
  const revoke = async (token: Token) => {
    setError(null)
    try {
      await call('account.tokens.revoke', { tokenId: token.id })
      await load()
    } catch (e) {
      setError(`Revoke “${token.name}”: ${messageOf(e)}`)
    }
  }
  return (
    <Dialog title="API keys" onClose={onClose} wide>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {secret ? <ShownOnce label={`Secret of the key “${secret.name}”`} value={secret.value} what="this key's secret" /> : null}
      <form class="invite" onSubmit={create}>
        <label for="key-name">Name of the new key</label>
        <input id="key-name" maxLength={80} required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <fieldset>
          <legend>What the key may do</legend>
          <div class="row">
            {SCOPES.map((s) => (
              <label key={s}>
                <input
                  type="checkbox"
                  checked={scopes.has(s)}
                  onChange={(e) => {
                    const next = new Set(scopes)
                    if ((e.target as HTMLInputElement).checked) next.add(s)
                    else next.delete(s)
                    setScopes(next)
                  }}
                />{' '}
                {s}
              </label>
            ))}
          </div>
        </fieldset>
        <label for="key-expires">Ends on (optional)</label>
        <input id="key-expires" type="date" value={expires} onInput={(e) => setExpires((e.target as HTMLInputElement).value)} />
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      <h3>Your keys</h3>
      {tokens === null ? (
        <p>Reading your keys…</p>
      ) : tokens.length ? (
        <table class="keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Made</th>
              <th scope="col">Ends</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="sr-only">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} data-token={t.id}>
                <td>{t.name}</td>
                <td>{t.scopes.join(', ')}</td>
                <td>{day(t.createdAt)}</td>
                <td>{day(t.expiresAt)}</td>
                <td>{day(t.lastUsedAt)}</td>
                <td>
                  <button type="button" class="danger" aria-label={`Revoke ${t.name}`} onClick={() => void revoke(t)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="meta">No keys yet.</p>
      )}
    </Dialog>
  )
}

interface Session {
  id: string
  device: string
  createdAt: string
  lastSeenAt: string
  current: boolean
}

export function Sessions({ onClose }: { onClose: () => void }) {
  const [sessions, setSessions] = useState<Session[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = () =>
    call<{ sessions: Session[] }>('account.sessions', {}).then(
      (r) => setSessions(r.sessions),
      (e) => setError(messageOf(e)),
    )
  useEffect(() => void load(), [])
  const end = async (input: Record<string, unknown>, label: string) => {
    setError(null)
    try {
      await call('account.signOut', input)
      await load()
      await refreshMe()
    } catch (e) {
      setError(`${label}: ${messageOf(e)}`)
    }
  }
  return (
    <Dialog title="Sessions" onClose={onClose}>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {sessions === null ? (
        <p>Reading your sessions…</p>
      ) : (
        <ul class="sessions">
          {sessions.map((s) => (
            <li key={s.id}>
              <span>
                {s.device}
                {s.current ? ' (this browser)' : ''}
              </span>
              <span class="meta">
                since {day(s.createdAt)}, last seen {day(s.lastSeenAt)}
              </span>
              {s.current ? null : (
                <button type="button" aria-label={`Sign out ${s.device}`} onClick={() => void end({ sessionId: s.id }, 'Sign out that session')}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={() => void end({ all: true }, 'Sign out everywhere else')}>
        Sign out every other session
      </button>
    </Dialog>
  )
}
