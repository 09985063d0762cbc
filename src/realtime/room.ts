/**
 * The per-deck rooms of `studio serve`: WebSockets at `GET /api/room/<deckId>?client=<clientId>`
 * (package `ws` in noServer mode on the http server's `upgrade` event). The protocol is
 * /work/shared's room protocol, written down in docs/realtime.md:
 *
 *   server → page  welcome, changed, comments, roster, goto, pong
 *   page → server  presence { slideId?, selection?, pointer? }, ping
 *
 * The upgrade passes the edge checks of every request (Host, Origin, bearer off loopback; a browser
 * sends the bearer as `?token=`), and is refused with a plain HTTP answer before upgrading: 401, 403,
 * 404 (no such deck), 400 (a bad client id), 503 while the `realtime` kill switch is on. Turning that
 * switch on closes every open socket with code 4503. With `presence` on, the room still carries
 * `changed` but no roster, pointer or follow.
 *
 * `changed` goes out after every accepted write to the deck: writes of this process come from the
 * engine's `revision` event (with their transport and the tab that made them); everything else from
 * the workspace watcher (src/realtime/watch.ts). `comments` goes out after every comment write the
 * same two ways (the engine's `comments` event, the watcher's signature of the deck's comments/), once
 * per comments revision: whichever of the two sees a revision first announces it.
 */
import type { IncomingMessage } from 'node:http'
import { STATUS_CODES } from 'node:http'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import { ERROR_TITLES, errorType, fail, StudioError, toStudioError } from '../core/errors.js'
import { studioEvents, type CommentsEvent, type FlagEvent, type PrincipalEvent, type RevisionEvent } from '../core/events.js'
import { principalFor } from '../core/principal.js'
import { accountsOn } from '../identity/credentials.js'
import { flagOn } from '../store/flags.js'
import { deckPrefs } from '../store/principals.js'
import { RESERVED_DECK_IDS, type Workspace } from '../store/workspace.js'
import { checkEdge, clientAddress, isLoopbackHost, isWildcardHost, type EdgePolicy } from '../transports/http/edge.js'
import { advertiseServe, markOf, registerRooms, type Rooms, type RosterEntry, type Steering } from './registry.js'
import { WorkspaceWatcher, type CommentsChange, type DeckChange } from './watch.js'

export const ROOM_PATH = /^\/api\/room\/([^/]+)$/
const DECK_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
/** A tab's id: the page mints 12 lowercase base36 characters; 4 to 64 are accepted. */
const CLIENT_RE = /^[a-z0-9]{4,64}$/
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/
const MAX_SELECTION = 500
/** Close codes of the room (4000-4999 are the application's). */
export const CLOSE_REPLACED = 4000
export const CLOSE_SWITCHED_OFF = 4503
const HEARTBEAT_MS = 30_000

interface Peer {
  socket: WebSocket
  clientId: string
  deckId: string
  author: string
  slideId: string | null
  selection: string[]
  pointer: { x: number; y: number } | null
  follow: string | null
  alive: boolean
}

interface Agent {
  clientId: string
  deckId: string
  author: string
  slideId: string | null
}

interface Room {
  deckId: string
  peers: Map<string, Peer>
  rosterDue: boolean
  /** This instance's participants changed since other instances were last told. */
  publishDue?: boolean
  /** The comments revision last announced (a write seen by both the event and the watcher is told once). */
  commentsRevision: number | null
}

export interface RoomHubOptions {
  ws: Workspace
  /** The server's edge policy now (it learns its port after listening). */
  policy: () => EdgePolicy
  /** A deck's room gained its first page or lost its last one (MCP lists deck_goto_slide meanwhile). */
  onAttachChange?: (deckId: string) => void
  /** The watcher's stat poll period (ms). */
  pollMs?: number
  /** Other instances' rooms (the hosted store, src/hosted/presence.ts): their entries join each roster. */
  relay?: import('../hosted/presence.js').PresenceRelay
}

export class RoomHub implements Rooms {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, clientTracking: false })
  private readonly rooms = new Map<string, Room>()
  private readonly agents = new Map<string, Agent>()
  private readonly watcher: WorkspaceWatcher
  private readonly heartbeat: NodeJS.Timeout
  private readonly unregister: () => void
  private realtimeOff: boolean
  private presenceOff: boolean
  private closed = false
  private localAuthor: Promise<string> | undefined

  constructor(private readonly options: RoomHubOptions) {
    const { ws } = options
    this.realtimeOff = flagOn(ws, 'realtime')
    this.presenceOff = flagOn(ws, 'presence')
    this.watcher = new WorkspaceWatcher(ws, {
      changed: (change) => this.announce(change),
      comments: (change) => this.announceComments(change),
      flags: () => this.onFlags(),
      principals: () => this.resendRosters(),
    }, { pollMs: options.pollMs })
    studioEvents.on('revision', this.onRevision)
    studioEvents.on('comments', this.onComments)
    studioEvents.on('flag', this.onFlag)
    studioEvents.on('principal', this.onPrincipal)
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS)
    this.heartbeat.unref()
    this.unregister = registerRooms(ws.root, this)
    const relay = options.relay
    if (relay) {
      relay.watch(() => [...this.rooms.keys()])
      relay.onChange((deckId, before, after) => {
        const room = this.rooms.get(deckId)
        if (!room) return
        // A participant on another instance moved: the pages here that follow them go along.
        const was = new Map(before.map((e) => [e.clientId, e.slideId]))
        for (const entry of after) {
          if (!entry.slideId || was.get(entry.clientId) === entry.slideId) continue
          for (const peer of room.peers.values()) if (peer.follow === entry.clientId) send(peer, { type: 'goto', slideId: entry.slideId })
        }
        this.rosterChanged(room, false)
      })
    }
  }

  /**
   * Tells commands in other processes where the rooms are (`.studio/serve/<pid>.json`, see
   * registry.ts), when the server can be reached on loopback; the record goes when the hub closes.
   */
  advertise(port: number, host: string): void {
    if (this.options.ws.embedded || this.closed) return
    const name = isLoopbackHost(host) ? (host === '::1' ? '[::1]' : host) : isWildcardHost(host) ? '127.0.0.1' : undefined
    if (!name) return
    this.unadvertise()
    this.unadvertise = advertiseServe(this.options.ws.stateDir, `http://${name}:${port}`)
  }

  private unadvertise: () => void = () => undefined

  /** Whether a page is attached to the deck (its room has at least one socket). */
  attached(deckId: string | undefined): boolean {
    return deckId !== undefined && (this.rooms.get(deckId)?.peers.size ?? 0) > 0
  }

  /** Answers an `upgrade` of the http server: joins the room, or refuses with a plain HTTP answer. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.admit(req).then(
      (joining) => this.server.handleUpgrade(req, socket, head, (ws) => this.join(ws, joining)),
      (error) => refuse(socket, toStudioError(error)),
    )
  }

  /**
   * Who a page is when its URL names no `author`: the person at this machine as the window transport
   * names them, git's user.name of the workspace, else STUDIO_AUTHOR or the local user.
   */
  private pageAuthor(): Promise<string> {
    this.localAuthor ??= this.options.ws.git.identity().then(
      (identity) => identity.name ?? principalFor(undefined, 'P').author,
      () => principalFor(undefined, 'P').author,
    )
    return this.localAuthor
  }

  private async admit(req: IncomingMessage): Promise<{ deckId: string; clientId: string; author: string }> {
    const url = new URL(req.url ?? '/', 'http://studio.invalid')
    // A browser cannot set headers on a WebSocket: the page sends its bearer as ?token=, which is
    // checked exactly as the header would be (a header, when sent, wins). The edge comes first, as
    // for every request: a foreign Host or Origin is 403 whatever the path.
    const token = url.searchParams.get('token')
    if (token !== null && req.headers.authorization === undefined) req.headers.authorization = `Bearer ${token}`
    const edge = checkEdge(req, this.options.policy(), { accounts: accountsOn(this.options.ws) })
    const match = ROOM_PATH.exec(url.pathname)
    if (!match) fail('not_found', `Nothing to upgrade at ${url.pathname}: rooms are at /api/room/<deckId>.`)
    if (flagOn(this.options.ws, 'realtime')) fail('switched_off', 'The realtime room is switched off on this studio (kill switch realtime).', { details: { flag: 'realtime' } })
    // Deck ids are slugs: nothing in one needs percent-encoding, so the path segment is taken as it is.
    const deckId = match[1]
    // With accounts a room is the deck's: whoever joins needs the read capability on it (the one 403
    // sentence otherwise, whether the deck exists or not), checked as the engine checks an action.
    if (accountsOn(this.options.ws)) {
      const { authenticate } = await import('../identity/auth.js')
      const caller = await authenticate(this.options.ws, { headers: req.headers, method: 'GET', remoteAddress: clientAddress(req) }, { staticBearer: edge.staticBearer })
      if (caller) await (await import('../identity/roles.js')).checkAccess(this.options.ws, { id: 'presence.join', capability: 'read' }, caller, DECK_RE.test(deckId) ? deckId : undefined)
    }
    if (!DECK_RE.test(deckId) || RESERVED_DECK_IDS.has(deckId) || !this.options.ws.deckExists(deckId)) fail('not_found', `No deck "${deckId}".`)
    const clientId = url.searchParams.get('client') ?? ''
    if (!CLIENT_RE.test(clientId)) fail('invalid_input', 'The room needs ?client=<clientId>: 4 to 64 lowercase letters and digits (a tab mints 12).', { pointer: '/client' })
    const named = url.searchParams.get('author')
    const principal = principalFor(named ?? (await this.pageAuthor()), 'P')
    return { deckId, clientId, author: principal.author }
  }

  private join(socket: WebSocket, { deckId, clientId, author }: { deckId: string; clientId: string; author: string }): void {
    // While no room was open nothing watched the switches: catch up before anyone is told anything.
    this.onFlags()
    if (this.closed || this.realtimeOff) {
      socket.close(CLOSE_SWITCHED_OFF, 'realtime is switched off')
      return
    }
    let room = this.rooms.get(deckId)
    if (!room) {
      room = { deckId, peers: new Map(), rosterDue: false, commentsRevision: null }
      this.rooms.set(deckId, room)
      this.watcher.add(deckId)
    }
    const wasAttached = room.peers.size > 0
    const old = room.peers.get(clientId)
    if (old) {
      // The same tab again (a reconnect): the newer socket takes its place.
      room.peers.delete(clientId)
      old.socket.close(CLOSE_REPLACED, 'replaced by a newer connection from the same tab')
    }
    const peer: Peer = { socket, clientId, deckId, author, slideId: null, selection: [], pointer: null, follow: null, alive: true }
    room.peers.set(clientId, peer)
    socket.on('message', (data, isBinary) => this.receive(peer, data, isBinary))
    socket.on('close', () => this.leave(peer))
    socket.on('pong', () => (peer.alive = true))
    socket.on('error', () => socket.terminate())
    send(peer, { type: 'welcome', clientId, deckId, revision: this.revisionOf(deckId), roster: this.presenceOff ? [] : this.roster(deckId) })
    this.rosterChanged(room)
    if (!wasAttached) this.options.onAttachChange?.(deckId)
  }

  private leave(peer: Peer): void {
    const room = this.rooms.get(peer.deckId)
    if (!room || room.peers.get(peer.clientId) !== peer) return
    room.peers.delete(peer.clientId)
    for (const other of room.peers.values()) if (other.follow === peer.clientId) other.follow = null
    if (room.peers.size === 0) {
      this.rooms.delete(peer.deckId)
      this.options.relay?.publish(peer.deckId, [])
      this.watcher.remove(peer.deckId)
      this.options.onAttachChange?.(peer.deckId)
    }
    this.rosterChanged(room)
  }

  private receive(peer: Peer, data: RawData, isBinary: boolean): void {
    if (isBinary) return
    let message: Record<string, unknown>
    try {
      const parsed = JSON.parse(data.toString()) as unknown
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return
      message = parsed as Record<string, unknown>
    } catch {
      return
    }
    if (message.type === 'ping') return send(peer, { type: 'pong' })
    if (message.type !== 'presence' || this.presenceOff || flagOn(this.options.ws, 'presence')) return
    let changed = false
    let moved = false
    if ('slideId' in message) {
      const slideId = message.slideId
      if ((slideId === null || (typeof slideId === 'string' && ID_RE.test(slideId))) && slideId !== peer.slideId) {
        peer.slideId = slideId
        changed = moved = true
      }
    }
    if ('selection' in message) {
      const selection = message.selection
      if (Array.isArray(selection) && selection.length <= MAX_SELECTION && selection.every((id) => typeof id === 'string' && ID_RE.test(id))) {
        if (selection.join('\u0000') !== peer.selection.join('\u0000')) {
          peer.selection = [...selection] as string[]
          changed = true
        }
      }
    }
    if ('pointer' in message) {
      const pointer = message.pointer as { x?: unknown; y?: unknown } | null
      const next = pointer === null ? null : pointer && typeof pointer === 'object' && finite(pointer.x) && finite(pointer.y) ? { x: pointer.x, y: pointer.y } : undefined
      if (next !== undefined && (next?.x !== peer.pointer?.x || next?.y !== peer.pointer?.y)) {
        peer.pointer = next
        changed = true
      }
    }
    const room = this.rooms.get(peer.deckId)
    if (!room) return
    if (moved && peer.slideId) {
      // Followers go where the one they follow goes.
      for (const other of room.peers.values()) if (other.follow === peer.clientId) send(other, { type: 'goto', slideId: peer.slideId })
    }
    if (changed) this.rosterChanged(room)
  }

  /**
   * The roster of a deck's room: its pages in the order they joined, then the agents bound to it, then
   * the participants other instances of a hosted store hold.
   */
  roster(deckId: string): RosterEntry[] {
    const entries = this.localRoster(deckId)
    const here = new Set(entries.map((e) => e.clientId))
    for (const entry of this.options.relay?.remote(deckId) ?? []) if (!here.has(entry.clientId)) entries.push(entry)
    return entries
  }

  /** This instance's own participants of a deck. */
  private localRoster(deckId: string): RosterEntry[] {
    const entries: RosterEntry[] = []
    for (const peer of this.rooms.get(deckId)?.peers.values() ?? []) entries.push(this.entryOf(peer))
    for (const agent of this.agents.values()) {
      if (agent.deckId !== deckId) continue
      entries.push({ clientId: agent.clientId, name: agent.author, mark: markOf(agent.author), slideId: agent.slideId, selection: [], pointer: null, follow: null, kind: 'agent' })
    }
    return entries
  }

  private entryOf(peer: Peer): RosterEntry {
    const pointerOn = deckPrefs(this.options.ws, peer.author, peer.deckId).pointer
    return {
      clientId: peer.clientId,
      name: peer.author,
      mark: markOf(peer.author),
      slideId: peer.slideId,
      selection: [...peer.selection],
      pointer: pointerOn ? peer.pointer : null,
      follow: peer.follow,
      kind: 'page',
    }
  }

  /** The pages an action steers: the calling tab, else every page of the caller's author. */
  private steered(room: Room | undefined, who: Steering): Peer[] {
    if (who.clientId !== undefined) {
      const tab = room?.peers.get(who.clientId)
      if (!tab) fail('not_found', `This tab (${who.clientId}) is not in the deck's room; reload the page.`)
      return [tab]
    }
    return [...(room?.peers.values() ?? [])].filter((peer) => peer.author === who.author)
  }

  follow(deckId: string, who: Steering, target: string): { following: RosterEntry; followers: string[] } {
    const room = this.rooms.get(deckId)
    const leader = room?.peers.get(target)
    const agent = [...this.agents.values()].find((a) => a.deckId === deckId && a.clientId === target)
    // Someone in the deck's room on another instance of a hosted store (their moves arrive through the relay).
    const remote = leader || agent ? undefined : this.options.relay?.remote(deckId).find((e) => e.clientId === target)
    if (!leader && !agent && !remote) fail('not_found', `No one with client id "${target}" is in deck ${deckId}'s room; presence.list names who is.`, { pointer: '/clientId' })
    if (who.clientId === target) fail('refused', 'A page cannot follow itself.', { pointer: '/clientId' })
    const followers = this.steered(room, who).filter((peer) => peer.clientId !== target)
    if (!followers.length) fail('not_found', `No page of ${who.author} is open on deck ${deckId}: open the deck in the studio page, then follow.`)
    const slideId = leader?.slideId ?? agent?.slideId ?? remote?.slideId ?? null
    for (const peer of followers) {
      peer.follow = target
      if (slideId) send(peer, { type: 'goto', slideId })
    }
    this.rosterChanged(room!)
    const following = leader ? this.entryOf(leader) : this.roster(deckId).find((e) => e.clientId === target)!
    return { following, followers: followers.map((p) => p.clientId) }
  }

  unfollow(deckId: string, who: Steering): string[] {
    const room = this.rooms.get(deckId)
    // Nothing to stop is no error, not even for a tab that already left.
    if (who.clientId !== undefined && !room?.peers.has(who.clientId)) return []
    const stopped = this.steered(room, who).filter((peer) => peer.follow !== null)
    for (const peer of stopped) peer.follow = null
    if (room && stopped.length) this.rosterChanged(room)
    return stopped.map((p) => p.clientId)
  }

  /** Sends `goto` to every page of the deck (MCP deck_goto_slide); the agent's roster entry moves too. */
  goto(deckId: string, slideId: string, agentKey?: string): number {
    const agent = agentKey ? this.agents.get(agentKey) : undefined
    if (agent && agent.deckId === deckId && agent.slideId !== slideId) {
      agent.slideId = slideId
      this.rosterChangedFor(deckId)
    }
    const peers = [...(this.rooms.get(deckId)?.peers.values() ?? [])]
    for (const peer of peers) send(peer, { type: 'goto', slideId })
    return peers.length
  }

  /** An agent (an MCP session bound to the deck) enters the roster. */
  agentJoin(key: string, deckId: string, author: string): void {
    this.agents.set(key, { clientId: `agent-${randomBytes(6).toString('hex')}`, deckId, author, slideId: null })
    this.rosterChangedFor(deckId)
  }

  agentLeave(key: string): void {
    const agent = this.agents.get(key)
    if (!agent) return
    this.agents.delete(key)
    this.rosterChangedFor(agent.deckId)
  }

  private rosterChangedFor(deckId: string): void {
    const room = this.rooms.get(deckId)
    if (room) this.rosterChanged(room)
  }

  /**
   * Sends the roster once for everything that changed in this turn of the event loop; with `local`
   * (a change of this instance's own participants), other instances of a hosted store are told too.
   */
  private rosterChanged(room: Room, local = true): void {
    if (local) room.publishDue = true
    if (this.presenceOff || room.rosterDue) return
    room.rosterDue = true
    setImmediate(() => {
      room.rosterDue = false
      if (this.presenceOff || this.rooms.get(room.deckId) !== room) return
      if (room.publishDue) this.options.relay?.publish(room.deckId, this.localRoster(room.deckId))
      room.publishDue = false
      const message = { type: 'roster', roster: this.roster(room.deckId) }
      for (const peer of room.peers.values()) send(peer, message)
    })
  }

  private resendRosters(): void {
    for (const room of this.rooms.values()) this.rosterChanged(room)
  }

  private revisionOf(deckId: string): number | null {
    try {
      const manifest = JSON.parse(readFileSync(join(this.options.ws.deckDir(deckId), 'deck.json'), 'utf8')) as { revision?: unknown }
      return typeof manifest.revision === 'number' ? manifest.revision : null
    } catch {
      return null
    }
  }

  private readonly onRevision = (event: RevisionEvent) => {
    if (event.root !== this.options.ws.root || !this.rooms.has(event.deckId)) return
    this.announce({ deckId: event.deckId, revision: event.revision, by: { transport: event.transport, ...(event.clientId ? { clientId: event.clientId } : {}) } as DeckChange['by'], actionId: event.action })
    this.watcher.accept(event.deckId)
  }

  private announce(change: DeckChange): void {
    const room = this.rooms.get(change.deckId)
    if (!room) return
    const message = { type: 'changed', deckId: change.deckId, revision: change.revision, by: change.by, ...(change.actionId ? { actionId: change.actionId } : {}) }
    for (const peer of room.peers.values()) send(peer, message)
  }

  private readonly onComments = (event: CommentsEvent) => {
    if (event.root !== this.options.ws.root || !this.rooms.has(event.deckId)) return
    this.announceComments({ deckId: event.deckId, revision: event.revision }, { threadId: event.threadId, actionId: event.action, by: { transport: event.transport, ...(event.clientId ? { clientId: event.clientId } : {}) } })
    this.watcher.acceptComments(event.deckId)
  }

  private announceComments(change: CommentsChange, extra: { threadId?: string; actionId?: string; by?: { transport: string; clientId?: string } } = {}): void {
    const room = this.rooms.get(change.deckId)
    if (!room || room.commentsRevision === change.revision) return
    room.commentsRevision = change.revision
    const message = { type: 'comments', deckId: change.deckId, revision: change.revision, by: extra.by ?? { transport: 'git' }, ...(extra.threadId ? { threadId: extra.threadId } : {}), ...(extra.actionId ? { actionId: extra.actionId } : {}) }
    for (const peer of room.peers.values()) send(peer, message)
  }

  private readonly onFlag = (event: FlagEvent) => {
    if (event.root === this.options.ws.root) this.onFlags()
  }

  private readonly onPrincipal = (event: PrincipalEvent) => {
    if (event.root === this.options.ws.root) this.rosterChangedFor(event.deckId)
  }

  /** A kill switch may have moved: close the room, or stop and restart the roster. */
  private onFlags(): void {
    const realtime = flagOn(this.options.ws, 'realtime')
    const presence = flagOn(this.options.ws, 'presence')
    this.realtimeOff = realtime
    if (realtime) {
      for (const room of [...this.rooms.values()]) for (const peer of [...room.peers.values()]) peer.socket.close(CLOSE_SWITCHED_OFF, 'realtime is switched off')
    }
    if (presence !== this.presenceOff) {
      this.presenceOff = presence
      for (const room of this.rooms.values()) {
        if (presence) {
          // One last, empty roster so pages drop the marks they show; then nothing until it is back on.
          for (const peer of room.peers.values()) {
            peer.follow = null
            send(peer, { type: 'roster', roster: [] })
          }
        } else this.rosterChanged(room)
      }
    }
  }

  private beat(): void {
    for (const room of this.rooms.values()) {
      for (const peer of room.peers.values()) {
        if (!peer.alive) {
          peer.socket.terminate()
          continue
        }
        peer.alive = false
        peer.socket.ping()
      }
    }
  }

  /** Closes every socket (1001, going away), the watcher and the listeners. */
  close(): Promise<void> | undefined {
    if (this.closed) return undefined
    this.closed = true
    clearInterval(this.heartbeat)
    studioEvents.off('revision', this.onRevision)
    studioEvents.off('comments', this.onComments)
    studioEvents.off('flag', this.onFlag)
    studioEvents.off('principal', this.onPrincipal)
    this.unregister()
    this.unadvertise()
    this.watcher.close()
    for (const room of this.rooms.values()) for (const peer of room.peers.values()) peer.socket.close(1001, 'studio serve is stopping')
    this.rooms.clear()
    this.agents.clear()
    this.server.close()
    return this.options.relay?.close()
  }
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 1e6
}

function send(peer: Peer, message: unknown): void {
  if (peer.socket.readyState === WebSocket.OPEN) peer.socket.send(JSON.stringify(message))
}

/** A refused upgrade: a plain HTTP answer with the one error body, then the connection closes. */
function refuse(socket: Duplex, failure: StudioError): void {
  const status = failure.status
  const { status: _status, ...body } = failure.toJSON()
  const text = JSON.stringify({ type: errorType(failure.code), title: ERROR_TITLES[failure.code], status, detail: failure.message, ...body }, null, 2) + '\n'
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Referrer-Policy: no-referrer',
    'Connection: close',
    ...(failure.code === 'unauthorized' ? ['WWW-Authenticate: Bearer realm="studio"'] : []),
  ]
  if (!socket.writable) return void socket.destroy()
  socket.end(`${headers.join('\r\n')}\r\n\r\n${text}`)
  socket.once('finish', () => socket.destroy())
}
