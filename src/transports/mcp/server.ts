/**
 * The MCP server: the action table as tools, the session deck as `deck://` resources, and the
 * `deck_review` prompt, on the SDK's low-level `Server` (raw JSON Schemas, no zod).
 *
 * Decoding and encoding only. Every tool call goes through `dispatch` with transport `M`; every
 * failure of a call to a known tool, input validation included (an unknown argument answers
 * `unknown_field` with its pointer), is a tool result with `isError: true` whose structured content
 * is the one error body (`StudioError.toJSON()`) and whose text is the same JSON, so an agent sees
 * the same status, code, pointer and `current` document as an HTTP caller and can correct itself.
 * JSON-RPC errors answer protocol faults only: an unknown tool, a malformed request, an unknown
 * resource URI or prompt name (-32602, the error body as `data` where there is one).
 *
 * One `Server` serves one session (stdio, or one streamable-HTTP session). Its deck is the one bound
 * at the start (`--deck`, `?deck=`), which may not exist yet; a session bound to none works in the
 * workspace default until it creates a deck with `deck_create`, and in the deck it created from then
 * on. It listens to `studioEvents` for revisions of its deck and removes that listener when it closes.
 */
import type { Caller } from '../../identity/caller.js'
import { AsyncLocalStorage } from 'node:async_hooks'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type Notification,
  type RequestId,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { Action } from '../../core/action.js'
import { dispatch } from '../../core/engine.js'
import { fail, StudioError, toStudioError } from '../../core/errors.js'
import { studioEvents, type RevisionEvent } from '../../core/events.js'
import { validateInput } from '../../core/validate.js'
import { ACTIONS, findAction, findByMcp } from '../../actions/index.js'
import { orderedSlides, type DeckDoc } from '../../model/deck.js'
import { slideSummaries } from '../../store/deck-state.js'
import { DeckId, obj, SlideId } from '../../model/schema.js'
import { mcpOutputSchema, toolOutputSchema } from './output.js'
import type { Workspace } from '../../store/workspace.js'
import { anchorText } from '../../comments/prose.js'
import type { ShownThread } from '../../comments/store.js'

export interface McpSession {
  ws: Workspace
  /**
   * The deck every call names, which may not exist yet (calls answer 404 until deck_create makes it).
   * When absent: the workspace default (resolved per call) until the session creates a deck, then that deck.
   */
  deck?: string
  /** Told when a session bound to no deck adopts the deck it created. */
  adopted?: (deckId: string) => void
  author?: string
  force?: boolean
  /** Who opened the session, where the studio has accounts (bound at initialize, src/identity/auth.ts). */
  caller?: Caller
  /** True while a studio page is attached: only then is `deck_goto_slide` listed. */
  pageAttached?: () => boolean
  /** Moves the attached page to a slide; without it `deck_goto_slide` answers 501 even with a page attached. */
  gotoSlide?: (deckId: string, slideId: string) => void | Promise<void>
}

export const SERVER_INFO = { name: 'deck-studio', version: '0.1.0' } as const

/** The one tool that is not an action: it steers the attached page, so it exists only while one is. */
export const GOTO_SLIDE_TOOL = 'deck_goto_slide'
const GOTO_SLIDE_INPUT = obj({ slideId: SlideId })

const INSTRUCTIONS = [
  'Deck Studio: slide decks versioned in git. Every tool is one action of the studio table.',
  'Read first (deck_get_info, deck_get), then write with baseRevision set to the revision you read;',
  'a stale baseRevision answers isError with status 409, currentRevision and the current document: re-read and retry.',
  'Every failure of a tool call is a result with isError: true whose structuredContent is the error (status, code, message, pointer); unknown argument names answer code unknown_field with a JSON pointer.',
  'The session deck: the one named when the session started (--deck, ?deck=), which may not exist yet: deck_create with that id makes it.',
  'A session started without one works in the workspace default deck, and after deck_create in the deck it created.',
  'Resources: deck://<id> and deck://<id>/slides/<slideId>.',
].join(' ')

const DECK_URI = /^deck:\/\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\/slides\/([A-Za-z0-9][A-Za-z0-9_-]*)|\/(comments)(?:\/(t-[a-z0-9]+))?)?$/

/**
 * The MCP hints of an action, from what its declaration says it does: read-only unless it commits
 * (`mutates`) or writes files on every call (`writes: true`); destructive only when it is not
 * read-only and says so; idempotent as declared, else when read-only; open-world when it fetches.
 */
export function toolAnnotations(action: Action): NonNullable<Tool['annotations']> {
  const facts = action.annotations ?? {}
  const readOnly = !action.mutates && facts.writes !== true
  return {
    title: action.label,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (facts.destructive ?? false),
    idempotentHint: facts.idempotent ?? readOnly,
    openWorldHint: facts.fetches ?? false,
  }
}

/** The tool description of an action: everything comes from the table. */
function toolFor(action: Action): Tool {
  return {
    name: action.mcp!,
    title: action.label,
    description: action.doc,
    inputSchema: action.input as Tool['inputSchema'],
    outputSchema: mcpOutputSchema(action) as Tool['outputSchema'],
    annotations: toolAnnotations(action),
  }
}

const GOTO_SLIDE: Tool = {
  name: GOTO_SLIDE_TOOL,
  title: 'Go to slide',
  description: 'Shows a slide of the session deck in the attached studio page. Listed only while a page is attached; changes nothing in the deck.',
  inputSchema: GOTO_SLIDE_INPUT as Tool['inputSchema'],
  outputSchema: toolOutputSchema(obj({ deckId: DeckId, slideId: SlideId })) as Tool['outputSchema'],
  annotations: { title: 'Go to slide', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}

/** Structured content must be an object: arrays, scalars and null are wrapped as `{ result }`. */
function structured(result: unknown): Record<string, unknown> {
  return result !== null && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : { result }
}

function errorResult(error: unknown): CallToolResult {
  const body = toStudioError(error).toJSON() as unknown as Record<string, unknown>
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body }
}

/**
 * A JSON-RPC error answer. Not an `McpError`: its message already starts "MCP error <code>:", which
 * the SDK would send as the message and the client would prefix again.
 */
class ProtocolFault extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message)
  }
}

/** A protocol fault of a request (unknown tool, resource or prompt): -32602, with the error body as data when there is one. */
function invalidParams(message: string, data?: unknown): ProtocolFault {
  return new ProtocolFault(ErrorCode.InvalidParams, message, data)
}

/** A studio failure outside a tool call (resources, prompts) as a protocol error. */
function protocolError(error: unknown): ProtocolFault {
  if (error instanceof ProtocolFault) return error
  const failure = toStudioError(error)
  return new ProtocolFault(failure.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, failure.message, failure.toJSON())
}

/** The deck outline the review prompt embeds: sections, slide ids and titles. */
function outlineText(info: DeckInfo): string {
  const lines = [`Deck "${info.title}" (id ${info.id}, revision ${info.revision}, theme ${info.theme}): ${info.counts.slides} slides in ${info.counts.sections} sections.`]
  for (const section of info.sections) {
    lines.push('', `Section ${section.id}: ${section.title || '(untitled)'}`)
    for (const slide of section.slides) lines.push(`  - ${slide.id}: ${slide.title || '(no title)'}`)
  }
  return lines.join('\n')
}

interface DeckInfo {
  id: string
  title: string
  theme: string
  revision: number
  counts: { slides: number; sections: number }
  sections: { id: string; title: string; slides: { id: string; title: string }[] }[]
}

/**
 * Builds the server of one session. The caller connects it to a transport and closes it when the
 * session ends; closing removes its event listener.
 *
 * `server.onclose` is set here (to remove the listener); a caller that needs its own close hook
 * should wrap the existing one, or use the transport's `onclose` before `connect()` (the SDK chains it).
 */
export function createMcpServer(session: McpSession): Server {
  const { ws } = session
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: {},
    },
    instructions: INSTRUCTIONS,
  })
  /** The session's deck: bound at the start, else the one it last created (undefined: the workspace default). */
  let sessionDeck = session.deck
  const call = (action: Action, input: Record<string, unknown>) =>
    dispatch(action, input, { ws, transport: 'M', deck: sessionDeck, author: session.author, force: session.force, ...(session.caller ? { caller: session.caller } : {}) })

  /** The request a tool call is serving, so notifications it causes travel on that request's stream. */
  const currentRequest = new AsyncLocalStorage<RequestId>()
  const subscriptions = new Set<string>()
  /** Last resolved id of the session deck (session.deck, else the default), for synchronous event matching. */
  let deckId: string | undefined = session.deck

  /** A session bound to no deck works in the deck it creates from then on. */
  function adopt(id: string) {
    sessionDeck = deckId = id
    session.adopted?.(id)
    if (listedSignature !== undefined) {
      listedSignature = undefined
      notify({ method: 'notifications/resources/list_changed' }, currentRequest.getStore())
    }
  }
  /** What resources/list last answered (uri + name per resource); undefined until the client lists. */
  let listedSignature: string | undefined

  async function sessionDoc(): Promise<DeckDoc> {
    const { result } = await call(findAction('deck.get')!, {})
    const doc = result as DeckDoc
    deckId = doc.manifest.id
    return doc
  }

  function resourcesOf(doc: DeckDoc): Resource[] {
    const id = doc.manifest.id
    const list: Resource[] = [
      { uri: `deck://${id}`, name: doc.manifest.title, description: `The whole deck document of ${id}: manifest, slides by id, version log.`, mimeType: 'application/json' },
      { uri: `deck://${id}/comments`, name: `Comments on ${doc.manifest.title}`, description: `Every comment thread of ${id} (open and resolved), anchors resolved against the current document, as deck_list_comments answers with state all.`, mimeType: 'application/json' },
    ]
    // Titles and layouts from the store's summaries: a listing of a long deck reads no slide file.
    const summaries = slideSummaries(doc)
    for (const section of doc.manifest.sections) {
      for (const slideId of section.slides) {
        const summary = Object.hasOwn(doc.slides, slideId) ? summaries.get(slideId) : undefined
        if (!summary) continue
        list.push({
          uri: `deck://${id}/slides/${slideId}`,
          name: summary.title || slideId,
          description: `Slide ${slideId} (layout ${summary.layout}) in section "${section.title}".`,
          mimeType: 'application/json',
        })
      }
    }
    return list
  }

  const signature = (resources: Resource[]) => JSON.stringify(resources.map((r) => [r.uri, r.name]))

  /** Parses a `deck://` URI of the session deck; anything else is InvalidParams. */
  function resolveUri(uri: string, doc: DeckDoc): { slideId?: string; comments?: true; threadId?: string } {
    const match = DECK_URI.exec(uri)
    if (!match || match[1] !== doc.manifest.id) throw invalidParams(`Unknown resource ${uri}: this session serves deck://${doc.manifest.id}.`)
    const slideId = match[2]
    if (slideId !== undefined && !Object.hasOwn(doc.slides, slideId)) throw invalidParams(`Unknown resource ${uri}: no slide "${slideId}" in deck ${doc.manifest.id}.`)
    if (match[3]) return { comments: true, ...(match[4] ? { threadId: match[4] } : {}) }
    return { slideId }
  }

  /** The comment threads of a resource, read through comment.list / comment.get: the engine's role check holds here too. */
  async function commentsResource(threadId: string | undefined): Promise<unknown> {
    try {
      if (threadId) return (await call(findAction('comment.get')!, { threadId })).result
      return (await call(findAction('comment.list')!, { state: 'all', limit: 500 })).result
    } catch (error) {
      throw protocolError(error)
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = ACTIONS.filter((a) => a.implemented && a.mcp && a.transportSet.has('M')).map(toolFor)
    if (session.pageAttached?.()) tools.push(GOTO_SLIDE)
    return { tools }
  })

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params
    const args = (request.params.arguments ?? {}) as Record<string, unknown>
    if (name !== GOTO_SLIDE_TOOL && !findByMcp(name)) {
      // The one protocol fault of a tool call (MCP: unknown tools are -32602), with the one error body as data.
      const unknown = new StudioError('not_found', `No tool "${name}". tools/list names every tool this studio offers.`)
      throw invalidParams(unknown.message, unknown.toJSON())
    }
    try {
      if (name === GOTO_SLIDE_TOOL) return await gotoSlide(args)
      const action = findByMcp(name)!
      const { result } = await currentRequest.run(extra.requestId, async () => {
        const answer = await call(action, args)
        if (action.id === 'deck.create' && session.deck === undefined) adopt((answer.result as { id: string }).id)
        return answer
      })
      return { content: [{ type: 'text', text: JSON.stringify(result ?? null, null, 2) }], structuredContent: structured(result ?? null) }
    } catch (error) {
      return errorResult(error)
    }
  })

  async function gotoSlide(args: Record<string, unknown>): Promise<CallToolResult> {
    if (!session.pageAttached?.()) fail('not_found', `${GOTO_SLIDE_TOOL} needs an attached studio page, and none is attached.`)
    await validateInput(`mcp.${GOTO_SLIDE_TOOL}`, GOTO_SLIDE_INPUT, args)
    if (!session.gotoSlide) fail('not_implemented', `${GOTO_SLIDE_TOOL} is not implemented on this instance.`, { details: { implemented: false } })
    const doc = await sessionDoc()
    const slideId = args.slideId as string
    if (!Object.hasOwn(doc.slides, slideId)) fail('not_found', `No slide "${slideId}" in deck ${doc.manifest.id}.`, { pointer: '/slideId' })
    await session.gotoSlide(doc.manifest.id, slideId)
    const result = { deckId: doc.manifest.id, slideId }
    return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result }
  }

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    let doc: DeckDoc
    try {
      doc = await sessionDoc()
    } catch (error) {
      // No deck to serve yet (an empty workspace, several decks and no default): nothing to list.
      if (error instanceof StudioError && error.status < 500) return { resources: [] }
      throw protocolError(error)
    }
    const resources = resourcesOf(doc)
    listedSignature = signature(resources)
    return { resources }
  })

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: 'deck://{deckId}', name: 'Deck document', description: 'The whole deck document of the session deck.', mimeType: 'application/json' },
      { uriTemplate: 'deck://{deckId}/slides/{slideId}', name: 'Slide', description: 'One slide document of the session deck.', mimeType: 'application/json' },
      { uriTemplate: 'deck://{deckId}/comments/{threadId}', name: 'Comment thread', description: 'One comment thread of the session deck, its anchor resolved against the current document (as deck_get_comment answers).', mimeType: 'application/json' },
    ],
  }))

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params
    if (!DECK_URI.test(uri)) throw invalidParams(`Unknown resource ${uri}: resources are deck://<id>, deck://<id>/slides/<slideId>, deck://<id>/comments and deck://<id>/comments/<threadId>.`)
    let doc: DeckDoc
    try {
      doc = await sessionDoc()
    } catch (error) {
      throw protocolError(error)
    }
    const { slideId, comments, threadId } = resolveUri(uri, doc)
    const value = comments ? await commentsResource(threadId) : slideId === undefined ? doc : doc.slides[slideId]
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] }
  })

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params
    let doc: DeckDoc
    try {
      doc = await sessionDoc()
    } catch (error) {
      throw protocolError(error)
    }
    resolveUri(uri, doc)
    subscriptions.add(uri)
    return {}
  })

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri)
    return {}
  })

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: 'deck_review',
        title: 'Review the deck',
        description: 'Asks for a review of the session deck for clarity, structure and consistency, with the deck outline (sections, slide ids and titles) embedded.',
        arguments: [{ name: 'focus', description: 'What to look at most closely (an audience, a section, a concern).', required: false }],
      },
    ],
  }))

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    if (request.params.name !== 'deck_review') throw invalidParams(`No prompt "${request.params.name}"; prompts/list names deck_review.`)
    let info: DeckInfo
    try {
      info = (await call(findAction('deck.info')!, {})).result as DeckInfo
    } catch (error) {
      throw protocolError(error)
    }
    deckId = info.id
    // The open threads, when the caller may read them: a review answers what people already asked.
    let threads: ShownThread[] = []
    try {
      threads = ((await call(findAction('comment.list')!, { state: 'open', limit: 50 })).result as { threads: ShownThread[] }).threads
    } catch {
      threads = []
    }
    const focus = request.params.arguments?.focus?.trim()
    const text = [
      `Review the slide deck "${info.title}" for clarity, structure and consistency.`,
      '- Clarity: is each slide\'s point plain from its title and text? Flag jargon, vague titles and crowded slides.',
      '- Structure: do the sections tell one story in a sensible order? Flag gaps, repeats and slides in the wrong section.',
      '- Consistency: titles, terms, tone, capitalisation and numbers agree across slides.',
      ...(focus ? [`Focus especially on: ${focus}`] : []),
      `Read slides with the resources deck://${info.id}/slides/<slideId> (or the deck_get tool). Name each finding by slide id and propose a concrete change; do not edit the deck unless asked.`,
      '',
      'Outline:',
      outlineText(info),
      ...(threads.length
        ? [
            '',
            `Open comment threads (${threads.length}; all of them at the resource deck://${info.id}/comments): address each, and answer one with deck_reply_comment when your review settles it.`,
            ...threads.map((t) => `- ${t.id} on ${anchorText(t.anchor)}${t.quote && t.anchor.kind === 'range' ? ` "${t.quote.exact}"` : ''}${t.status === 'attached' ? '' : ` (${t.status})`}: ${t.comments[0] ? `${t.comments[0].author}: ${t.comments[0].body?.text ?? ''}`.replace(/\s+/g, ' ').slice(0, 160) : ''}`),
          ]
        : []),
    ].join('\n')
    return {
      description: `Review of deck ${info.id} (revision ${info.revision})`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    }
  })

  /** Sends a notification; one caused by this session's own tool call rides on that call's stream. */
  function notify(notification: Notification, related: RequestId | undefined): void {
    const send = (options?: { relatedRequestId: RequestId }) => server.notification(notification, options)
    ;(related === undefined ? send() : send({ relatedRequestId: related }).catch(() => send())).catch(() => {
      // Not connected any more, or no stream to carry it: notifications are best effort.
    })
  }

  const onRevision = (event: RevisionEvent) => {
    if (event.root !== ws.root) return
    const related = currentRequest.getStore()
    if (deckId === undefined) {
      // The default deck was never resolved in this session: resolve it, then match.
      ws.defaultDeckId().then((id) => {
        deckId ??= id
        if (event.deckId === deckId) announce(event, related)
      }, () => {})
      return
    }
    if (event.deckId === deckId) announce(event, related)
  }

  function announce(event: RevisionEvent, related: RequestId | undefined) {
    const prefix = `deck://${event.deckId}`
    for (const uri of subscriptions) {
      if (uri === prefix || uri.startsWith(`${prefix}/`)) notify({ method: 'notifications/resources/updated', params: { uri } }, related)
    }
    notify({ method: 'notifications/studio/revision', params: { deckId: event.deckId, revision: event.revision, action: event.action, author: event.author } }, related)
    if (listedSignature !== undefined) {
      // The client has a resource list: tell it to list again only when slides or their titles moved.
      sessionDoc().then((doc) => {
        if (doc.manifest.id !== event.deckId) return
        const next = signature(resourcesOf(doc))
        if (next === listedSignature) return
        listedSignature = next
        notify({ method: 'notifications/resources/list_changed' }, related)
      }, () => {})
    }
  }

  studioEvents.on('revision', onRevision)
  server.onclose = () => {
    studioEvents.off('revision', onRevision)
    subscriptions.clear()
  }
  return server
}

/** Tells the client the tool list changed (a page attached or detached: `deck_goto_slide`). */
export async function refreshTools(server: Server): Promise<void> {
  try {
    await server.sendToolListChanged()
  } catch {
    // Not connected (yet, or any more): the next tools/list answers the current list anyway.
  }
}
