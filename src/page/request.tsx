/**
 * What a visitor without access sees on a deck's page (the deck answered 403): ask the owner for a
 * role with a message, and an email when the browser is anonymous. The answer is the server's one
 * fixed sentence, whatever it did, so the screen learns nothing about the deck.
 */
import { useState } from 'preact/hooks'
import { call } from './api.js'
import { signedIn } from './account.js'
import { ThemeToggle } from './decklist.js'
import { RoleSelect, type Role } from './dialog.js'
import { SignInForm } from './signin.js'
import { messageOf, store } from './store.js'

export function AccessRequest({ deckId }: { deckId: string }) {
  const [role, setRole] = useState<Role>('viewer')
  const [message, setMessage] = useState('')
  const [email, setEmail] = useState('')
  const [answer, setAnswer] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const person = signedIn()
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const result = await call<{ message: string }>('share.requestAccess', { id: deckId, role, ...(message.trim() ? { message: message.trim() } : {}), ...(!person && email.trim() ? { email: email.trim() } : {}) })
      setAnswer(result.message)
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="signin-page">
      <header class="bar">
        <a href="/" class="brand">
          Deck Studio
        </a>
        <div class="toolbar end">
          {store.state.account ? <span class="meta">{person ? `Signed in as ${store.state.account.label}` : 'Not signed in'}</span> : null}
          <ThemeToggle />
        </div>
      </header>
      <main id="main" class="signin card access-request">
        <h1>You need access</h1>
        <p>This deck is not shared with you, or the link you used no longer works. Ask its owner for access.</p>
        {answer ? (
          <p class="check-mail" role="status">
            {answer}
          </p>
        ) : (
          <form onSubmit={submit}>
            <label for="request-role">Access to ask for</label>
            <RoleSelect id="request-role" label="Access to ask for" value={role} onChange={setRole} />
            {person ? null : (
              <>
                <label for="request-email">Your email address (for the answer)</label>
                <input id="request-email" type="email" required autoComplete="email" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
              </>
            )}
            <label for="request-message">Message to the owner (optional)</label>
            <textarea id="request-message" rows={3} maxLength={2000} value={message} onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)} />
            <button type="submit" class="primary" disabled={busy}>
              Ask for access
            </button>
          </form>
        )}
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {person ? null : (
          <details class="signin-instead">
            <summary>Already have access? Sign in</summary>
            <SignInForm next={location.pathname} />
          </details>
        )}
      </main>
    </div>
  )
}
