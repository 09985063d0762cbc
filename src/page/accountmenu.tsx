/**
 * The account menu in the page's bar (with accounts only): who the page is, with their mark; their
 * sessions and API keys; the kill switches for an administrator; sign out, or for an anonymous
 * browser sign in and forget me. It also holds the account screens it opens.
 */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { forgetMe, signedIn, signOut } from './account.js'
import { Menu } from './editor.js'
import { Keys, Sessions } from './keys.js'
import { AdminSwitches } from './admin.js'
import { ShareDialog } from './share.js'
import { messageOf, store } from './store.js'

/** The mark as a picture: the server's SVG as a data: URL in an <img>, so nothing in it can run. */
export function Mark({ svg, label }: { svg?: string; label: string }) {
  if (!svg) return <span class="mark-initials" aria-hidden="true">{label.slice(0, 2).toUpperCase()}</span>
  return <img class="mark-img" alt="" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} width={22} height={22} />
}

let adminProbe: Promise<boolean> | undefined
/** Whether the page is an administrator: account.me says so, else one read of a switch answers. */
function isAdmin(): Promise<boolean> {
  const me = store.state.account
  if (me?.admin !== undefined) return Promise.resolve(me.admin)
  adminProbe ??= call('admin.flag', { name: 'readOnly' }).then(
    () => true,
    () => false,
  )
  return adminProbe
}

export function AccountMenu() {
  const { accounts, account } = store.state
  const [admin, setAdmin] = useState(false)
  useEffect(() => {
    if (accounts && signedIn()) void isAdmin().then(setAdmin)
  }, [accounts, account?.principal.id])
  if (!accounts) return null
  const person = signedIn()
  const label = account?.label ?? 'Not signed in'
  const run = (close: () => void, what: string, fn: () => Promise<void>) => async () => {
    close()
    try {
      await fn()
    } catch (error) {
      store.say(`${what}: ${messageOf(error)}`, 'error')
    }
  }
  return (
    <Menu label={person ? label : 'Account'} icon={<Mark svg={account?.mark} label={label} />}>
      {(close) => (
        <div class="file-menu account-menu">
          <p class="menu-head">{person ? `Signed in as ${label}` : 'This browser is not signed in.'}</p>
          {person ? (
            <>
              <button type="button" onClick={() => (close(), store.set({ dialog: 'sessions' }))}>
                Sessions…
              </button>
              <button type="button" onClick={() => (close(), store.set({ dialog: 'keys' }))}>
                API keys…
              </button>
              {admin ? (
                <button type="button" onClick={() => (close(), store.set({ dialog: 'admin' }))}>
                  Kill switches…
                </button>
              ) : null}
              <button type="button" onClick={run(close, 'Sign out', signOut)}>
                Sign out
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={() => (close(), location.assign(`/signin?next=${encodeURIComponent(location.pathname)}`))}>
                Sign in…
              </button>
              <button type="button" onClick={run(close, 'Forget me', forgetMe)} title="A fresh anonymous id for this browser; what the page kept of the old one is cleared">
                Forget me
              </button>
            </>
          )}
        </div>
      )}
    </Menu>
  )
}

/** The account screen or dialog open over the page, if any. */
export function AccountDialogs() {
  const { dialog } = store.state
  const close = () => store.set({ dialog: null })
  if (dialog === 'keys') return <Keys onClose={close} />
  if (dialog === 'sessions') return <Sessions onClose={close} />
  if (dialog === 'admin') return <AdminSwitches onClose={close} />
  if (dialog === 'share' && store.deckId) return <ShareDialog deckId={store.deckId} onClose={close} />
  return null
}
