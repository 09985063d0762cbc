import { defineAction } from '../../core/action.js'
import { arr, bool, IsoTime, lit, obj, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

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
  output: planned(result({ sessions: arr(Session, { description: "The caller's sign-in sessions." }) })),
  cli: 'account sessions --to <to>',
  mcp: 'deck_list_sessions',
  example: {},
})

export const accountSignOut = defineAction({
  id: 'account.signOut',
  label: 'Sign out',
  doc: 'Ends one sign-in session, every other session with all, or the current session when neither is named.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sessionId: opt(str({ minLength: 1, description: 'The session to end.' })),
    all: opt(lit(true, { description: 'End every other session.' })),
  }),
  output: planned(written({ signedOut: arr(str(), { description: 'The ids of the sessions ended.' }), revision: RevisionIfWritten })),
  cli: 'account sign-out --all --to <to>',
  mcp: 'deck_sign_out',
  annotations: { destructive: true },
  example: { all: true },
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
  output: planned(written({ principal: obj({ id: str(), kind: lit('anonymous') }, { description: 'The fresh anonymous principal.' }), revision: RevisionIfWritten })),
  cli: null,
  mcp: null,
  annotations: { destructive: true },
  example: {},
})
