/**
 * The page: `studio serve`'s deck editor. Routes: `/` the deck list, `/d/<deckId>` and
 * `/d/<deckId>/<slideId>` a deck in the editor. Every change goes through the action table over the
 * window transport (api.ts, store.ts); slides are drawn by the one renderer (sheet.tsx).
 */
import { render } from 'preact'
import { useEffect, useReducer } from 'preact/hooks'
import './app.css'
import { get } from './api.js'
import { store } from './store.js'
import { DeckList } from './decklist.js'
import { Editor } from './editor.js'
import { Messages } from './messages.js'
import { route } from './nav.js'
import { loadAccount, signedIn } from './account.js'
import { SignIn } from './signin.js'
import { AccessRequest } from './request.js'

function App() {
  const [, redraw] = useReducer((n: number, _: number) => n + 1, 0)
  useEffect(() => store.subscribe(() => redraw(0)), [])
  const { route: r, appearance, accounts, denied } = store.state
  useEffect(() => {
    document.documentElement.dataset.theme = appearance
  }, [appearance])
  return (
    <>
      {r.page === 'signin' ? (
        <SignIn />
      ) : r.page === 'deck' && denied === r.deckId ? (
        <AccessRequest deckId={r.deckId} />
      ) : r.page === 'list' ? (
        accounts && !signedIn() ? <SignIn /> : <DeckList />
      ) : (
        <Editor />
      )}
      <Messages />
    </>
  )
}

addEventListener('popstate', route)
// `studio serve --deck X` opens X at `/`; the deck list stays one click away (the brand link).
const start = location.pathname === '/' ? await get<{ deck: string | null }>('/page/start').catch(() => null) : null
if (start?.deck && location.pathname === '/') history.replaceState(null, '', `/d/${start.deck}${location.search}`)
await loadAccount().catch(() => undefined)
route()
render(<App />, document.getElementById('app')!)
