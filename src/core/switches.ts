/**
 * Kill switches (admin.flag): what each one stops, checked where every path reaches. The engine
 * (src/core/engine.ts) refuses an action a switch stops right after the role check, before anything
 * runs, with 503 `switched_off` naming the switch; an action lists the switches that stop it in its
 * declaration (`switches`, src/core/action.ts), and two rules hold for every action:
 *
 * - `readOnly` and `maintenance` stop every action that writes (`mutates`), except admin.flag itself
 *   (so an admin can turn them off again) and account.signOut (a person may always leave).
 * - `maintenance` also stops every call of the page (transport P), reads too, except admin.flag: the
 *   page shows the maintenance sentence instead of a half-working studio.
 *
 * The switches that bite below the action table are read where their work happens: `realtime` and
 * `presence` in the room (src/realtime/room.ts), `email` in the mail module (src/comments/mail.ts),
 * `htmlBlocks` in the engine's commit (a write that adds an HTML block), `signup` where a first sign-in
 * would create a person (`signupAllowed`, called by src/identity/).
 */
import { flagOn } from '../store/flags.js'
import type { Workspace } from '../store/workspace.js'
import { fail } from './errors.js'
import type { Action, TransportLetter } from './action.js'
import type { Slide } from '../model/deck.js'

/** The twelve kill switches the spec names, and the thirteenth: maintenance (ours, see above). */
export const SWITCHES = [
  'realtime',
  'presence',
  'comments',
  'invites',
  'email',
  'exports',
  'uploads',
  'renderThumbs',
  'materialize',
  'htmlBlocks',
  'signup',
  'readOnly',
  'maintenance',
] as const
export type Switch = (typeof SWITCHES)[number]

/** What each switch stops, in the words a refusal uses. */
export const SWITCH_WORDS: Readonly<Record<Switch, string>> = {
  realtime: "the page's live room",
  presence: 'presence',
  comments: 'writing comments',
  invites: 'invitations',
  email: 'outgoing mail',
  exports: 'exports and builds',
  uploads: 'uploading pictures and files',
  renderThumbs: 'rendering slides and contact sheets',
  materialize: 'capturing shader materials',
  htmlBlocks: 'HTML blocks',
  signup: 'new accounts',
  readOnly: 'every change',
  maintenance: 'this studio (down for maintenance)',
}

/** The actions that stay open under readOnly and maintenance. */
const ALWAYS_OPEN = new Set(['admin.flag', 'account.signOut'])

/** The switches that stop this call of the action, in the order they are checked. */
export function switchesOf(action: Action, input: Record<string, unknown>, transport: TransportLetter): Switch[] {
  const own = typeof action.switches === 'function' ? action.switches(input) : (action.switches ?? [])
  const out: Switch[] = [...own]
  if (!ALWAYS_OPEN.has(action.id)) {
    if (action.mutates) out.push('readOnly')
    if (action.mutates || (transport === 'P' && action.id !== 'account.signOut')) out.push('maintenance')
  }
  return out
}

/** Refuses (503 switched_off) when a switch that stops this call is on. */
export function refuseSwitchedOff(ws: Workspace, action: Action, input: Record<string, unknown>, transport: TransportLetter): void {
  for (const name of switchesOf(action, input, transport)) if (flagOn(ws, name)) switchedOff(name, action.id)
}

/** The refusal of a switch that is on: 503 `switched_off`, `details.flag` naming it. */
export function switchedOff(name: Switch, what: string): never {
  if (name === 'maintenance') {
    fail('switched_off', 'This studio is down for maintenance (kill switch maintenance); nothing was changed. Try again later.', { details: { flag: name } })
  }
  fail('switched_off', `${what} is stopped: ${SWITCH_WORDS[name]} is switched off on this studio (kill switch ${name}). Nothing was changed; an admin turns it back on with studio admin flag ${name} --on false.`, { details: { flag: name } })
}

/** Whether a first sign-in may create a person (the `signup` switch); src/identity/ asks before it creates one. */
export function signupAllowed(ws: Workspace): boolean {
  return !flagOn(ws, 'signup')
}

/**
 * The `htmlBlocks` switch at the commit: a write that would add an HTML block to a slide (an insert, a
 * kind changed to html, a slide or bundle bringing one) is refused, whatever action staged it; slides
 * that already hold one stay writable, and every renderer draws an HTML block as a placeholder.
 */
export function refuseNewHtmlBlocks(ws: Workspace, actionId: string, before: Pick<Slide, 'blocks'> | undefined, after: Pick<Slide, 'blocks'>): void {
  const added = (after.blocks ?? []).some((block) => block.kind === 'html' && !(before?.blocks ?? []).some((old) => old.id === block.id && old.kind === 'html'))
  if (added && flagOn(ws, 'htmlBlocks')) switchedOff('htmlBlocks', actionId)
}
