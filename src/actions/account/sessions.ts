import { defineAction } from '../../core/action.js'
import { arr, bool, IsoTime, lit, obj, opt, str } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { fail } from '../../core/errors.js'

const Session = obj({ id: str(), device: str(), createdAt: IsoTime, lastSeenAt: IsoTime, current: bool({ description: 'The session of this call.' }) }, { description: 'A sign-in session.' })

export const accountSessions = defineAction({
  id: 'account.sessions',
  label: 'List my sessions',
  doc: "The caller's sign-in sessions, the current one marked.",
  group: 'account',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({ sessions: arr(Session, { description: "The caller's sign-in sessions." }) }),
  cli: 'account sessions --to <to>',
  mcp: 'deck_list_sessions',
  example: {},
  human: (r: { sessions: { id: string; device: string; lastSeenAt: string; current: boolean }[] }) =>
    r.sessions.length ? r.sessions.map((x) => `${x.id}  ${x.device}  last seen ${x.lastSeenAt}${x.current ? '  (this one)' : ''}`).join('\n') : 'No sessions.',
  run: async (ctx) => {
    const { ownAccount } = await import('../../identity/account.js')
    const { identity, caller, principalId } = await ownAccount(ctx)
    return { sessions: await listedSessions(identity.db, principalId, caller.sessionId) }
  },
})

/** The principal's live sessions as account.sessions and account.me list them. */
export async function listedSessions(db: import('../../identity/db.js').IdentityTx, principalId: string, current: string | undefined) {
  const { deviceOf, sessionsOf } = await import('../../identity/sessions.js')
  return (await sessionsOf(db, principalId)).map((row) => ({ id: row.id, device: deviceOf(row.user_agent), createdAt: row.created_at, lastSeenAt: row.last_used_at ?? row.created_at, current: row.id === current }))
}

export const accountSignOut = defineAction({
  id: 'account.signOut',
  label: 'Sign out',
  doc: 'Ends one sign-in session, every other session with all, or the current session when neither is named; the MCP sessions they opened close.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sessionId: opt(str({ minLength: 1, description: 'The session to end.' })),
    all: opt(lit(true, { description: 'End every other session.' })),
  }),
  output: written({ signedOut: arr(str(), { description: 'The ids of the sessions ended.' }), revision: RevisionIfWritten }),
  cli: 'account sign-out --all --to <to>',
  mcp: 'deck_sign_out',
  annotations: { destructive: true },
  example: { all: true },
  run: async (ctx, input: { sessionId?: string; all?: true }) => {
    const { ownAccount, sessionCookie, setCookie } = await import('../../identity/account.js')
    const { revokeSessions, sessionsOf } = await import('../../identity/sessions.js')
    const { SESSION_COOKIE } = await import('../../identity/caller.js')
    const { identity, caller, principalId } = await ownAccount(ctx)
    if (input.sessionId !== undefined && input.all) fail('invalid_input', 'Name one session, or all; not both.', { pointer: '/all' })
    const signedOut = await identity.write(async (tx) => {
      if (input.all) return revokeSessions(tx, principalId, (await sessionsOf(tx, principalId)).map((r) => r.id).filter((id) => id !== caller.sessionId))
      const target = input.sessionId ?? caller.sessionId
      if (!target) fail('refused', 'This call came with no session (a key or a bearer): name the session to end (sessionId), or all.')
      const ended = await revokeSessions(tx, principalId, [target])
      if (!ended.length && input.sessionId) fail('not_found', `No live session "${input.sessionId}" of yours.`, { pointer: '/sessionId' })
      return ended
    })
    if (caller.sessionId && signedOut.includes(caller.sessionId)) setCookie(caller, sessionCookie(SESSION_COOKIE, null))
    // The MCP sessions those sign-ins opened close now, their open streams included.
    const { closeMcpSessions } = await import('../../identity/auth.js')
    await Promise.all(signedOut.map((id) => closeMcpSessions(`session:${id}`)))
    return { signedOut }
  },
})

export const accountForget = defineAction({
  id: 'account.forget',
  label: 'Forget me',
  doc: "Replaces the anonymous cookie with a fresh id and clears the browser's mirrors.",
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'P',
  input: obj({}),
  output: written({ principal: obj({ id: str(), kind: lit('anonymous') }, { description: 'The fresh anonymous principal.' }), revision: RevisionIfWritten }),
  cli: null,
  mcp: null,
  annotations: { destructive: true },
  example: {},
  run: async (ctx) => {
    const { identityOf } = await import('../../identity/db.js')
    const { sessionCookie, setCookie } = await import('../../identity/account.js')
    const { newAnonymous } = await import('../../identity/principals.js')
    const { openSession, revokeSessions, SESSION_TTL } = await import('../../identity/sessions.js')
    const { SESSION_COOKIE } = await import('../../identity/caller.js')
    const caller = ctx.caller
    const identity = caller ? await identityOf(ctx.ws) : null
    if (!caller || !identity) fail('refused', 'account.forget needs a studio with accounts; on a checkout there is no anonymous id to forget.')
    if (caller.kind === 'person') fail('refused', 'You are signed in: sign out (account.signOut) instead of forgetting an anonymous id.')
    const opened = await identity.write(async (tx) => {
      if (caller.principalId && caller.sessionId) await revokeSessions(tx, caller.principalId, [caller.sessionId])
      const fresh = await newAnonymous(tx)
      return openSession(tx, fresh.id, 'anonymous')
    })
    setCookie(caller, sessionCookie(SESSION_COOKIE, opened.secret, { maxAgeSeconds: SESSION_TTL.anonymous / 1000 }))
    return { principal: { id: opened.row.principal_id, kind: 'anonymous' as const } }
  },
})
