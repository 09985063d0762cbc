/**
 * The room client (docs/page.md; the protocol between the page and `studio serve`'s per-deck room):
 * a WebSocket at `/api/room/<deckId>?client=<clientId>` that tells the page of every accepted write
 * (`changed`: the page refetches what it shows), who else is in the deck (`roster`), and where to go
 * (`goto`); the page sends its slide, selection and pointer (`presence`). Without a room (an older
 * server, the `realtime` switch on) the page still works: it refetches after its own writes, and
 * tries the room again now and then.
 */
import { clientId, token } from './api.js'
import { store, type RosterEntry } from './store.js'

let socket: WebSocket | null = null
let deckOfSocket: string | null = null
let retry = 1000
let retryTimer: number | undefined
let refreshTimer: number | undefined
let pingTimer: number | undefined

interface Presence {
  slideId?: string | null
  selection?: string[]
  pointer?: { x: number; y: number } | null
}
let pending: Presence = {}
let sendTimer: number | undefined
let lastSent = 0

/** Queues presence (slide, selection, pointer) to send, at most every 50 ms. */
export function sendPresence(presence: Presence): void {
  pending = { ...pending, ...presence }
  if (sendTimer !== undefined) return
  const wait = Math.max(0, 50 - (performance.now() - lastSent))
  sendTimer = window.setTimeout(() => {
    sendTimer = undefined
    lastSent = performance.now()
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'presence', ...pending }))
    pending = {}
  }, wait)
}

function scheduleRefresh(): void {
  clearTimeout(refreshTimer)
  // Several writes in a burst are one refetch.
  refreshTimer = window.setTimeout(() => void store.refresh().catch(() => undefined), 30)
}

/** Joins the deck's room (leaving any other), or keeps trying when there is none. */
export function joinRoom(deckId: string | undefined): void {
  if (deckId === deckOfSocket && socket) return
  leaveRoom()
  if (!deckId) return
  deckOfSocket = deckId
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const query = new URLSearchParams({ client: clientId, ...(token ? { token } : {}) })
  let ws: WebSocket
  try {
    ws = new WebSocket(`${scheme}://${location.host}/api/room/${encodeURIComponent(deckId)}?${query}`)
  } catch {
    return later(deckId)
  }
  socket = ws
  store.set({ room: 'connecting' })
  ws.onopen = () => {
    retry = 1000
    sendPresence({ slideId: store.state.current, selection: store.state.selection })
    pingTimer = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })), 20000)
  }
  ws.onmessage = (event) => {
    let message: any
    try {
      message = JSON.parse(String(event.data))
    } catch {
      return
    }
    if (message.type === 'welcome') {
      store.set({ room: 'live', roster: others(message.roster ?? []) })
      // Anything written between the page's read and the room's welcome; or the deck itself, when the
      // page opened before it existed (`studio serve --deck X`): its room answers only once X is made.
      if (!store.state.doc || message.revision !== store.state.doc.manifest.revision) scheduleRefresh()
    } else if (message.type === 'changed') {
      const mine = message.by?.clientId === clientId
      if (!mine || (store.state.doc && message.revision !== store.state.doc.manifest.revision && store.state.busy === 0)) scheduleRefresh()
      // An edit moves the anchors it touches (in its own commit, with no new comments revision): read them again.
      if (store.state.comments.deckId === store.deckId) void import('./comments.js').then(({ loadComments }) => loadComments(true))
    } else if (message.type === 'comments' && typeof message.revision === 'number') {
      void import('./comments.js').then(({ commentsMoved }) => commentsMoved(message.revision))
    } else if (message.type === 'roster') {
      store.set({ roster: others(message.roster ?? []) })
    } else if (message.type === 'goto' && typeof message.slideId === 'string') {
      void import('./commands.js').then(({ goToSlide }) => store.state.doc?.slides[message.slideId] && goToSlide(message.slideId, true))
    }
  }
  ws.onclose = () => {
    clearInterval(pingTimer)
    if (socket !== ws) return
    socket = null
    store.set({ room: 'off', roster: [] })
    later(deckId)
  }
  ws.onerror = () => undefined
}

function others(roster: RosterEntry[]): RosterEntry[] {
  const me = roster.find((r) => r.clientId === clientId)
  store.set({ following: me?.follow ?? null, ...(me ? { me: me.name } : {}) })
  return roster.filter((r) => r.clientId !== clientId)
}

function later(deckId: string): void {
  clearTimeout(retryTimer)
  retryTimer = window.setTimeout(() => {
    if (store.deckId === deckId) {
      deckOfSocket = null
      joinRoom(deckId)
    }
  }, retry)
  retry = Math.min(30000, retry * 2)
}

export function leaveRoom(): void {
  clearTimeout(retryTimer)
  clearInterval(pingTimer)
  const ws = socket
  socket = null
  deckOfSocket = null
  if (ws) {
    ws.onclose = null
    ws.close()
  }
}
