/** Who else is in the deck (the room's roster): a mark per person or agent, their slide, and Follow. */
import { call } from './api.js'
import { goToSlide } from './commands.js'
import { messageOf, store } from './store.js'

const mark = (r: { mark?: string; name: string }) => r.mark || r.name.slice(0, 2).toUpperCase()

export function Roster() {
  const { roster, room, following, doc } = store.state
  if (room !== 'live') return <span class="room off" title="Live updates are off: the page refetches after its own changes">{room === 'connecting' ? 'Connecting…' : 'Not live'}</span>
  const follow = async (id: string | null) => {
    try {
      await call(id ? 'presence.follow' : 'presence.unfollow', id ? { clientId: id } : {}, store.deckId)
      store.set({ following: id })
    } catch (error) {
      store.say(messageOf(error), 'error')
    }
  }
  return (
    <ul class="roster" aria-label="People in this deck">
      {roster.map((r) => (
        <li key={r.clientId} class="person" data-client={r.clientId}>
          <button
            type="button"
            class="mark"
            title={`${r.name}${r.slideId && doc?.slides[r.slideId] ? `, on slide ${r.slideId}` : ''}${r.kind === 'agent' ? ' (agent)' : ''}`}
            aria-label={`${mark(r)} ${r.name}: go to their slide`}
            onClick={() => r.slideId && doc?.slides[r.slideId] && goToSlide(r.slideId)}
          >
            {mark(r)}
          </button>
          {r.kind === 'page' ? (
            <button type="button" class="follow" aria-pressed={following === r.clientId} onClick={() => void follow(following === r.clientId ? null : r.clientId)}>
              {following === r.clientId ? 'Following' : 'Follow'}
            </button>
          ) : null}
        </li>
      ))}
      {roster.length === 0 ? <li class="alone">Only you</li> : null}
    </ul>
  )
}
