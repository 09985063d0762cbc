/**
 * The sign-in screen: an email address for a link by mail (always the same answer, so the screen
 * never tells whether an address has an account) or a passkey. Shown when the studio has accounts and
 * the page is anonymous where it needs someone (the deck list, keys, the admin screen), and as the
 * re-authentication prompt the sharing settings ask for.
 */
import { useState } from 'preact/hooks'
import { passkeySignIn, sendMagicLink } from './account.js'
import { ThemeToggle } from './decklist.js'
import { messageOf } from './store.js'

export function SignInForm({ next, intro }: { next: string; intro?: string }) {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!email.trim()) return
    setBusy(true)
    setError(null)
    try {
      setSent(await sendMagicLink(email.trim(), next))
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  const passkey = async () => {
    setError(null)
    try {
      await passkeySignIn()
      location.assign(next)
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return (
    <div class="signin-form">
      {intro ? <p>{intro}</p> : null}
      {sent ? (
        <p class="check-mail" role="status">
          {sent}
        </p>
      ) : (
        <form onSubmit={submit}>
          <label for="signin-email">Email address</label>
          <input id="signin-email" type="email" autoComplete="email webauthn" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          <button type="submit" class="primary" disabled={busy}>
            Email me a sign-in link
          </button>
        </form>
      )}
      <p class="or">or</p>
      <button type="button" onClick={() => void passkey()}>
        Sign in with a passkey
      </button>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export function SignIn() {
  return (
    <div class="signin-page">
      <header class="bar">
        <span class="brand">Deck Studio</span>
        <div class="toolbar end">
          <ThemeToggle />
        </div>
      </header>
      <main id="main" class="signin card">
        <h1>Sign in</h1>
        <SignInForm next={nextOf()} intro="This studio keeps decks for the people it knows. No password: we mail you a link, or you use a passkey." />
      </main>
    </div>
  )
}

/** Where signing in lands: `/signin?next=<path>` names it (a path of this studio only), else the page asked for. */
function nextOf(): string {
  if (location.pathname !== '/signin') return location.pathname + location.search
  const next = new URLSearchParams(location.search).get('next') ?? '/'
  return next.startsWith('/') && !next.startsWith('//') ? next : '/'
}
