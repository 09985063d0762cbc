import { defineAction, type ActionContext } from '../../core/action.js'
import { fail, StudioError, ERROR_CODES, type ErrorCode } from '../../core/errors.js'
import { emitPrincipal } from '../../core/events.js'
import { arr, bool, BlockId, DeckId, nullable, num, obj, oneOf, SlideId, str } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { flagOn } from '../../store/flags.js'
import { setDeckPrefs } from '../../store/principals.js'
import { liveServes, roomsFor, type RosterEntry, type Steering } from '../../realtime/registry.js'

const Participant = obj(
  {
    clientId: str({ description: 'The tab (or agent session) id, as presence.follow takes it.' }),
    name: str({ description: "The participant's label." }),
    mark: str({ description: 'The avatar mark computed from the label (initials).' }),
    slideId: { ...nullable(SlideId), description: 'The slide it shows.' },
    selection: arr(BlockId, { description: 'Selected block ids.' }),
    pointer: { ...nullable(obj({ x: num(), y: num() })), description: 'The live pointer in sheet units of the slide; null when off or hidden (presence.pointer).' },
    follow: { ...nullable(str()), description: 'The client id it follows.' },
    kind: oneOf(['page', 'agent'], { description: 'A studio page, or an agent (an MCP session bound to the deck).' }),
  },
  { description: "A participant of the deck's room." },
)

/** Presence stops while its kill switch is on (admin.flag presence). */
function refuseWhenOff(ctx: ActionContext): void {
  if (flagOn(ctx.ws, 'presence')) fail('switched_off', 'Presence is switched off on this studio (kill switch presence).', { details: { flag: 'presence' } })
}

/** The pages a call steers: the calling tab on the window transport, else the caller's own pages. */
function steering(ctx: ActionContext): Steering {
  return { author: ctx.principal.author, ...(ctx.transport === 'P' && ctx.clientId ? { clientId: ctx.clientId } : {}) }
}

/**
 * Following is for people who can edit: agents (an MCP caller, or an `agent:` author anywhere),
 * anonymous people, viewers and commenters are refused and offered Go to slide instead. A checkout
 * has no roles (the caller owns every deck), so there only agents and MCP callers are refused.
 */
function refuseFollower(ctx: ActionContext): void {
  const { principal } = ctx
  const role = (principal as { role?: string }).role
  if (ctx.transport === 'M' || principal.kind === 'agent') {
    fail('forbidden', 'Agents cannot follow a participant; use deck_goto_slide to show a slide in the attached page instead.', { pointer: '/clientId' })
  }
  if (principal.kind === 'anonymous' || role === 'viewer' || role === 'commenter') {
    fail('forbidden', 'Only editors and owners who are signed in can follow a participant; Go to slide shows their slide instead.', { pointer: '/clientId' })
  }
}

/**
 * A call made where no room is (a `studio` command, `studio mcp`): asked of the workspace's live
 * `studio serve`, which has the rooms, over HTTP on loopback as the same author (with STUDIO_TOKEN
 * when set). Undefined when this process serves the workspace itself or none serves it.
 */
async function viaServe(ctx: ActionContext, deckId: string, input: Record<string, unknown>): Promise<unknown> {
  if (roomsFor(ctx.ws.root)) return undefined
  const [served] = liveServes(ctx.ws.stateDir)
  if (!served) return undefined
  let response: Response
  try {
    response = await fetch(`${served.url}/api/actions/${ctx.action.id}?deck=${deckId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-studio-author': ctx.principal.author,
        ...(process.env.STUDIO_TOKEN ? { authorization: `Bearer ${process.env.STUDIO_TOKEN}` } : {}),
      },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(5000),
    })
  } catch {
    return undefined // it stopped meanwhile: as if none served the workspace
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (response.ok) return body
  const code = typeof body?.code === 'string' && body.code in ERROR_CODES ? (body.code as ErrorCode) : 'internal'
  const { status: _s, code: _c, message, type: _t, title: _ti, detail: _d, ...extra } = body ?? {}
  throw new StudioError(code, typeof message === 'string' ? message : `studio serve answered ${response.status}.`, extra)
}

function rosterLine(entry: RosterEntry): string {
  const where = entry.slideId ? `on ${entry.slideId}` : 'no slide yet'
  const following = entry.follow ? `, following ${entry.follow}` : ''
  return `${entry.mark.padEnd(3)} ${entry.name} (${entry.kind} ${entry.clientId}) ${where}${following}`
}

export const presenceList = defineAction({
  id: 'presence.list',
  label: 'List presence',
  doc: "The roster of the deck's room with each participant's computed mark, slide, selection, pointer and follow target; server side on the window transport. A command in another process asks the workspace's running studio serve; empty when none runs.",
  group: 'presence',
  milestone: 'M7',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({ deckId: DeckId, roster: arr(Participant, { description: 'Who is in the deck: pages in the order they joined, then agents.' }) }),
  cli: 'presence list',
  mcp: 'deck_list_presence',
  example: {},
  human: (r: { deckId: string; roster: RosterEntry[] }) => (r.roster.length ? r.roster.map(rosterLine).join('\n') : `No one is in deck ${r.deckId}'s room.`),
  run: async (ctx) => {
    const deckId = await ctx.deckId()
    refuseWhenOff(ctx)
    return ((await viaServe(ctx, deckId, {})) as { deckId: string; roster: RosterEntry[] } | undefined) ?? { deckId, roster: roomsFor(ctx.ws.root)?.roster(deckId) ?? [] }
  },
})

export const presenceFollow = defineAction({
  id: 'presence.follow',
  label: 'Follow a participant',
  doc: "The attached page follows that client's slide and scroll (the calling tab on the window transport, else every page of the caller). Refused for viewers, commenters, anonymous people and agents, who are offered Go to slide instead.",
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  transports: 'CMHP',
  input: obj({ clientId: str({ minLength: 1, maxLength: 120, description: 'The participant to follow, from presence.list.' }) }),
  output: written({
    following: { ...Participant, description: 'The followed participant.' },
    followers: arr(str(), { description: "The caller's pages that now follow it." }),
    revision: RevisionIfWritten,
  }),
  cli: 'presence follow <clientId>',
  mcp: 'deck_follow_client',
  annotations: { idempotent: true },
  example: { clientId: 'c7k2' },
  run: async (ctx, input: { clientId: string }) => {
    const deckId = await ctx.deckId()
    refuseFollower(ctx)
    refuseWhenOff(ctx)
    const remote = await viaServe(ctx, deckId, input)
    if (remote) return remote as { following: RosterEntry; followers: string[] }
    const rooms = roomsFor(ctx.ws.root)
    if (!rooms) fail('not_found', `No studio page is open on deck ${deckId}: no \`studio serve\` runs for this workspace.`, { pointer: '/clientId' })
    return rooms.follow(deckId, steering(ctx), input.clientId)
  },
})

export const presenceUnfollow = defineAction({
  id: 'presence.unfollow',
  label: 'Stop following',
  doc: 'The attached page stops following (the calling tab on the window transport, else every page of the caller); nothing to stop is no error.',
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  capability: 'read',
  transports: 'CMHP',
  input: obj({}),
  output: written({ following: { type: 'null' }, stopped: arr(str(), { description: 'The pages that stopped following.' }), revision: RevisionIfWritten }),
  cli: 'presence unfollow',
  mcp: 'deck_unfollow',
  annotations: { idempotent: true },
  example: {},
  run: async (ctx) => {
    const deckId = await ctx.deckId()
    refuseWhenOff(ctx)
    const remote = await viaServe(ctx, deckId, {})
    if (remote) return remote as { following: null; stopped: string[] }
    const rooms = roomsFor(ctx.ws.root)
    return { following: null, stopped: rooms ? rooms.unfollow(deckId, steering(ctx)) : [] }
  },
})

export const presencePointer = defineAction({
  id: 'presence.pointer',
  label: 'Live pointer',
  doc: "Turns the caller's live pointer on or off, persisted on the principal record per deck (.studio/principals.json on a checkout); while off, the room shows the caller's pages without a pointer.",
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  capability: 'read',
  transports: 'CMHP',
  input: obj({ on: bool({ description: 'true shows the live pointer, false hides it.' }) }),
  output: written({ deckId: DeckId, pointer: bool({ description: 'Whether the live pointer is on.' }), revision: RevisionIfWritten }),
  cli: 'presence pointer --on',
  mcp: 'deck_set_pointer',
  cliInput: (parsed) => ({ ...parsed.input, on: parsed.input.on === true }),
  annotations: { idempotent: true },
  example: { on: true },
  run: async (ctx, input: { on: boolean }) => {
    const deckId = await ctx.deckId()
    refuseWhenOff(ctx)
    const prefs = await setDeckPrefs(ctx.ws, ctx.principal.author, deckId, { pointer: input.on })
    emitPrincipal({ root: ctx.ws.root, deckId, author: ctx.principal.author })
    return { deckId, pointer: prefs.pointer }
  },
})
