/**
 * MCP over streamable HTTP (`POST/GET/DELETE /mcp` of `studio serve`): one SDK transport and one
 * `createMcpServer` per session, kept in a map by session id.
 *
 * The HTTP server in front of this has already checked Host, Origin and the bearer token and capped
 * the body; this class only routes. A session id is never a credential: it only picks the session,
 * and every request carrying it went through the same checks. The deck and author are bound when
 * the session initializes and kept for its life; later requests cannot rebind them (a session bound
 * to no deck moves only once it creates one with deck_create, into that deck). Force (write
 * through a lease, `?force=1` or `x-studio-force: 1` on the initialize request) is bound the same way,
 * as `studio mcp --force` binds it for stdio.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { randomUUID } from 'node:crypto'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { principalFor } from '../../core/principal.js'
import { toStudioError } from '../../core/errors.js'
import type { Workspace } from '../../store/workspace.js'
import type { Assistant } from '../../core/action.js'
import { createMcpServer, refreshTools } from './server.js'
import type { Caller } from '../../identity/caller.js'
import { credentialOf, holdMcpSession } from '../../identity/auth.js'

/** What the page's rooms (src/realtime/room.ts) offer MCP sessions. */
export interface McpRoomHooks {
  /** Whether a page is attached to the deck. */
  attached(deckId: string | undefined): boolean
  /** Sends `goto` to the deck's pages; `agentKey` names the session's roster entry, which moves too. */
  goto(deckId: string, slideId: string, agentKey: string): number
  /** A session bound to a deck enters its roster as an agent, and leaves it when it closes. */
  agentJoin(key: string, deckId: string, author: string): void
  agentLeave(key: string): void
}

export interface McpHttpOptions {
  ws: Workspace
  defaultDeck?: string
  /** Whether a page is attached to the session's deck, where no room hooks are given. */
  pageAttached?: (deckId?: string) => boolean
  /** The page's rooms: deck_goto_slide is listed while one of the session deck's pages is attached. */
  room?: McpRoomHooks
}

/** What the initialize request binds for the session's life: deck (?deck=), author (x-studio-author), force (?force=1 or x-studio-force: 1, as on plain HTTP). */
export interface McpBinding {
  deck?: string
  author?: string
  force?: boolean
  /** Who opened the session (its initialize request's credentials), where the studio has accounts: every call of the session is theirs. */
  caller?: Caller
}

interface McpHttpSession {
  transport: StreamableHTTPServerTransport
  server: Server
  /** Who opened it: a later request of the session must present the same credential. */
  caller?: Caller
  /** The deck bound at initialize (or the server's default). */
  deck?: string
  /** POST requests of the session still being answered (a revocation closes the session after them). */
  answering: Set<Promise<void>>
}

/** Whether a request's caller is the one that opened the session (the session id alone opens nothing). */
function sameCaller(opened: Caller | undefined, now: Caller | undefined): boolean {
  if (!opened) return true
  if (!now) return false
  return Boolean(opened.root) === Boolean(now.root) && opened.keyId === now.keyId && opened.principalId === now.principalId
}

/** A JSON-RPC error answer outside any session (the SDK's own answers have the same shape). */
function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
  res.end(body)
}

export class McpHttpHandler {
  private readonly sessions = new Map<string, McpHttpSession>()

  constructor(private readonly options: McpHttpOptions) {}

  /** Number of open sessions (for diagnostics and tests). */
  get size(): number {
    return this.sessions.size
  }

  /**
   * Routes one `/mcp` request. `body` is the parsed JSON of a POST (undefined for GET and DELETE).
   * POST without `mcp-session-id` must be `initialize` and opens a session bound to `binding`.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, binding: McpBinding): Promise<void> {
    const method = req.method ?? 'GET'
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return rpcError(res, 405, -32000, `Method ${method} not allowed on /mcp.`, { allow: 'GET, POST, DELETE' })
    }
    const header = req.headers['mcp-session-id']
    if (header !== undefined) {
      const session = typeof header === 'string' ? this.sessions.get(header) : undefined
      if (!session) return rpcError(res, 404, -32001, 'Session not found: initialize a new session (POST /mcp without mcp-session-id).')
      if (!sameCaller(session.caller, binding.caller)) return rpcError(res, 403, -32001, 'This session was opened with another credential: present the one that opened it.')
      if (method === 'POST') {
        const answered = new Promise<void>((resolve) => res.once('close', () => resolve()))
        session.answering.add(answered)
        void answered.then(() => session.answering.delete(answered))
      }
      return session.transport.handleRequest(req, res, body)
    }
    if (method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; the first request of a session is a single initialize request (POST).')
    }
    try {
      // A bad author would fail every later call; refuse it at the door instead.
      principalFor(binding.author, 'M')
    } catch (error) {
      return rpcError(res, 400, -32602, toStudioError(error).message)
    }
    await this.open(req, res, body, binding)
  }

  private async open(req: IncomingMessage, res: ServerResponse, body: unknown, binding: McpBinding): Promise<void> {
    // Bound at initialize, or (bound to none) the deck the session creates with deck_create.
    let deck = binding.deck ?? this.options.defaultDeck
    const { room } = this.options
    // The session's roster key: never its session id, which the roster would show to every page.
    const agentKey = randomUUID()
    const author = () => principalFor(binding.author, 'M').author
    let entry: McpHttpSession | undefined
    const server = createMcpServer({
      ws: this.options.ws,
      deck,
      author: binding.author,
      force: binding.force,
      ...(binding.caller ? { caller: binding.caller } : {}),
      pageAttached: () => (room ? room.attached(deck) : (this.options.pageAttached?.(deck) ?? false)),
      ...(room ? { gotoSlide: (deckId: string, slideId: string) => void room.goto(deckId, slideId, agentKey) } : {}),
      adopted: (deckId) => {
        deck = deckId
        if (entry) entry.deck = deckId
        if (room) {
          room.agentLeave(agentKey)
          room.agentJoin(agentKey, deckId, author())
        }
        // deck_goto_slide follows the page of the new deck.
        void refreshTools(server)
      },
    })
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: false,
      onsessioninitialized: (id) => {
        entry = { transport, server, deck, answering: new Set(), ...(binding.caller ? { caller: binding.caller } : {}) }
        this.sessions.set(id, entry)
        if (room && deck) room.agentJoin(agentKey, deck, author())
      },
    })
    // Set before connect(): the SDK chains it ahead of the server's own close handling.
    // A session opened with an API key or a sign-in cookie dies with it (account.tokens.revoke and
    // account.signOut close it at once, its open stream included).
    // The session stops taking requests at once (a later one answers 404); it closes once the requests
    // it is answering are answered, so revoking a credential over the session it opened still gets its answer.
    const credential = credentialOf(binding.caller)
    const revoke = async () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId)
      const answering = [...(entry?.answering ?? [])]
      void Promise.all(answering).then(() => server.close().catch(() => {}))
    }
    const release = credential ? holdMcpSession(credential, revoke) : undefined
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId)
      release?.()
      room?.agentLeave(agentKey)
    }
    await server.connect(transport)
    try {
      await transport.handleRequest(req, res, body)
    } finally {
      // An initialize the SDK refused leaves no session: close the server so its listener goes too.
      if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close().catch(() => {})
    }
  }

  /** Tells the sessions bound to a deck (every session when none is named) that the tool list changed (a page attached or detached). */
  async refreshTools(deckId?: string): Promise<void> {
    await Promise.all([...this.sessions.values()].filter((s) => deckId === undefined || s.deck === deckId).map((s) => refreshTools(s.server)))
  }

  /**
   * A language model for assist.propose: an open session whose client offers sampling (one bound to
   * `deckId` first). The request goes to that client as sampling/createMessage; its answer's text comes back.
   */
  sampler(deckId: string | undefined): Assistant | undefined {
    const offering = [...this.sessions.values()].filter((s) => s.server.getClientCapabilities()?.sampling)
    const session = offering.find((s) => s.deck === deckId) ?? offering[0]
    if (!session) return undefined
    return async ({ system, user, maxTokens }) => {
      const answer = await session.server.createMessage(
        { systemPrompt: system, messages: [{ role: 'user', content: { type: 'text', text: user } }], maxTokens, includeContext: 'none' },
        { timeout: 120_000 },
      )
      const parts = Array.isArray(answer.content) ? answer.content : [answer.content]
      const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
      return { text, model: answer.model }
    }
  }

  /** Closes every session (on shutdown): streams end, listeners go, the map empties. */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()]
    this.sessions.clear()
    await Promise.all(open.map((s) => s.server.close().catch(() => {})))
  }
}
