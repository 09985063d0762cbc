/** The page's routes: `/` the deck list, `/d/<deckId>[/<slideId>]` a deck in the editor. */
import { store } from './store.js'

export function navigate(path: string, replace = false): void {
  if (location.pathname + location.search === path) return
  if (replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  route()
}

/** Shows what the address names. */
export function route(): void {
  const match = /^\/d\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\/([A-Za-z0-9][A-Za-z0-9_-]*))?\/?$/.exec(location.pathname)
  const present = new URLSearchParams(location.search).get('present')
  if (location.pathname === '/signin') {
    store.set({ route: { page: 'signin' }, doc: null, current: null, selection: [], editing: null, mode: 'edit' })
  } else if (match) {
    const [, deckId, slideId] = match
    if (store.deckId !== deckId) void store.open(deckId, slideId)
    else if (slideId && store.state.doc?.slides[slideId] && store.state.current !== slideId) store.set({ current: slideId, selection: [], editing: null })
    // `?thread=<id>` (comment.link's address) opens the comments panel on that thread's card.
    const thread = new URLSearchParams(location.search).get('thread')
    if (store.deckId === deckId && thread && store.state.comments.expanded !== thread) store.set({ panel: 'comments', comments: { ...store.state.comments, expanded: thread, draft: null } })
    if (present === 'audience' && store.state.mode !== 'present') store.set({ mode: 'present', audience: true })
  } else {
    store.set({ route: { page: 'list' }, doc: null, current: null, selection: [], editing: null, mode: 'edit' })
  }
}

/** Puts the current slide in the address bar (without a history entry). */
export function showSlideInAddress(deckId: string, slideId: string | null): void {
  const path = slideId ? `/d/${deckId}/${slideId}` : `/d/${deckId}`
  if (location.pathname !== path) history.replaceState(null, '', path + location.search)
}
