import { defineAction } from '../../core/action.js'
import { arr, bool, nullable, obj, SlideId, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

const Participant = obj({
  clientId: str(),
  principal: str(),
  label: str(),
  mark: str({ description: 'The avatar mark.' }),
  slide: nullable(SlideId),
  selection: arr(str(), { description: 'Selected block ids.' }),
  pointer: bool(),
  following: nullable(str()),
})

export const presenceList = defineAction({
  id: 'presence.list',
  label: 'List presence',
  doc: "The roster of the deck's room with each participant's computed mark, slide, selection, pointer and follow target; server side on the window transport.",
  group: 'presence',
  milestone: 'M7',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: planned(result({ participants: arr(Participant, { description: 'Who is in the deck.' }) })),
  cli: 'presence list',
  mcp: 'deck_list_presence',
  example: {},
})

export const presenceFollow = defineAction({
  id: 'presence.follow',
  label: 'Follow a participant',
  doc: "The attached page follows that client's slide and scroll. Refused for viewers, commenters, anonymous people and agents, who are offered Go to slide instead.",
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  transports: 'CMHP',
  input: obj({ clientId: str({ minLength: 1, maxLength: 120, description: 'The participant to follow, from presence.list.' }) }),
  output: planned(written({ following: { ...Participant, description: 'The followed participant.' }, revision: RevisionIfWritten })),
  cli: 'presence follow <clientId>',
  mcp: 'deck_follow_client',
  annotations: { idempotent: true },
  example: { clientId: 'c7k2' },
})

export const presenceUnfollow = defineAction({
  id: 'presence.unfollow',
  label: 'Stop following',
  doc: 'The attached page stops following.',
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  transports: 'CMHP',
  input: obj({}),
  output: planned(written({ following: { type: 'null' }, revision: RevisionIfWritten })),
  cli: 'presence unfollow',
  mcp: 'deck_unfollow',
  annotations: { idempotent: true },
  example: {},
})

export const presencePointer = defineAction({
  id: 'presence.pointer',
  label: 'Live pointer',
  doc: "Turns the caller's live pointer on or off, persisted on the principal record per deck.",
  group: 'presence',
  milestone: 'M7',
  mutates: true,
  transports: 'CMHP',
  input: obj({ on: bool({ description: 'true shows the live pointer, false hides it.' }) }),
  output: planned(written({ pointer: bool({ description: 'Whether the live pointer is on.' }), revision: RevisionIfWritten })),
  cli: 'presence pointer --on',
  mcp: 'deck_set_pointer',
  cliInput: (parsed) => ({ ...parsed.input, on: parsed.input.on === true }),
  annotations: { idempotent: true },
  example: { on: true },
})
