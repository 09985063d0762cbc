/** Status messages: announced to screen readers (polite for news, assertive for errors), dismissable. */
import { store } from './store.js'

export function Messages() {
  const { messages, busy } = store.state
  return (
    <div class="messages">
      <div class="sr-only" role="status" aria-live="polite">
        {busy ? 'Saving…' : ''}
      </div>
      <ul aria-live="polite" aria-label="Messages">
        {messages.map((m) => (
          <li key={m.id} class={`message ${m.kind}`} role={m.kind === 'error' ? 'alert' : undefined} data-kind={m.kind}>
            <p>{m.text}</p>
            {m.details?.length ? (
              <ul class="details">
                {m.details.slice(0, 8).map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            ) : null}
            <div class="message-actions">
              {m.action ? (
                <button
                  type="button"
                  onClick={() => {
                    store.dismiss(m.id)
                    m.action!.run()
                  }}
                >
                  {m.action.label}
                </button>
              ) : null}
              <button type="button" class="quiet" onClick={() => store.dismiss(m.id)} aria-label="Dismiss message">
                Dismiss
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
