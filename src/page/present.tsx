/**
 * Present mode: the slides full screen, skipped ones left out, Right/Space/PageDown forward,
 * Left/PageUp back, Escape out. Presenter view: the slide, the next one, the speaker notes and a
 * timer; "Open audience window" opens the show in another window, which follows this one over a
 * BroadcastChannel (same browser, no server round trip).
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { Sheet } from './sheet.js'
import { slideOrder, store } from './store.js'
import { goToSlide } from './commands.js'

function shownSlides(): string[] {
  const doc = store.state.doc
  return doc ? slideOrder(doc).filter((id) => !doc.slides[id].skip) : []
}

function useViewport() {
  const [size, setSize] = useState({ w: innerWidth, h: innerHeight })
  useEffect(() => {
    const on = () => setSize({ w: innerWidth, h: innerHeight })
    addEventListener('resize', on)
    return () => removeEventListener('resize', on)
  }, [])
  return size
}

export function Present() {
  const { mode, current, views, sheetCss, doc, audience } = store.state
  const slides = shownSlides()
  const at = Math.max(0, current ? slides.indexOf(current) : 0)
  const shown = slides[at] ?? slides[0]
  const channel = useRef<BroadcastChannel | null>(null)
  const started = useRef(Date.now())
  const [now, setNow] = useState(Date.now())
  const size = useViewport()

  useEffect(() => {
    channel.current = new BroadcastChannel(`studio-present-${store.deckId}`)
    channel.current.onmessage = (e) => {
      if (audience && typeof e.data?.slideId === 'string' && store.state.doc?.slides[e.data.slideId]) store.set({ current: e.data.slideId })
      if (audience && e.data?.end) window.close()
    }
    void store.fetchViews(slides)
    if (mode === 'present') document.documentElement.requestFullscreen?.().catch(() => undefined)
    const tick = window.setInterval(() => setNow(Date.now()), 1000)
    return () => {
      clearInterval(tick)
      channel.current?.close()
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined)
    }
  }, [mode])

  useEffect(() => {
    if (shown && shown !== current) store.set({ current: shown })
    if (!audience && shown) channel.current?.postMessage({ slideId: shown })
  }, [shown])

  const go = (by: number) => {
    const next = slides[Math.min(slides.length - 1, Math.max(0, at + by))]
    if (next) goToSlide(next)
  }
  const exit = () => {
    channel.current?.postMessage({ end: true })
    store.set({ mode: 'edit' })
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (['ArrowRight', 'PageDown', ' ', 'Enter', 'ArrowDown'].includes(e.key)) {
        e.preventDefault()
        go(1)
      } else if (['ArrowLeft', 'PageUp', 'Backspace', 'ArrowUp'].includes(e.key)) {
        e.preventDefault()
        go(-1)
      } else if (e.key === 'Home') go(-slides.length)
      else if (e.key === 'End') go(slides.length)
      else if (e.key === 'Escape' && !audience) exit()
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  })

  if (!doc) return null
  const view = shown ? views.get(shown) : undefined
  const next = slides[at + 1] ? views.get(slides[at + 1]) : undefined
  const title = (id: string | undefined) => (id ? views.get(id)?.title || id : '')

  if (mode === 'present') {
    const w = Math.min(size.w, (size.h * 16) / 9)
    return (
      <div class="present" role="region" aria-roledescription="slideshow" aria-label={`${doc.manifest.title}: slide ${at + 1} of ${slides.length}`} onClick={() => go(1)}>
        {view ? <Sheet key={view.id} html={view.html} css={sheetCss} width={w} label={`Slide ${at + 1} of ${slides.length}: ${view.title}`} /> : <p class="present-wait">…</p>}
        {!audience ? (
          <button type="button" class="present-exit" onClick={(e) => (e.stopPropagation(), exit())}>
            Exit (Esc)
          </button>
        ) : null}
      </div>
    )
  }
  const elapsed = Math.floor((now - started.current) / 1000)
  const clock = `${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, '0')}`
  const big = Math.min(size.w * 0.6, ((size.h - 220) * 16) / 9)
  return (
    <div class="presenter" role="region" aria-label="Presenter view">
      <header class="presenter-bar">
        <span>
          Slide {at + 1} of {slides.length}
        </span>
        <span class="timer" aria-label={`Elapsed ${clock}`}>
          {clock}
        </span>
        <button type="button" onClick={() => window.open(`/d/${store.deckId}/${shown ?? ''}?present=audience`, `studio-audience-${store.deckId}`, 'popup')}>
          Open audience window
        </button>
        <button type="button" onClick={() => store.set({ mode: 'present' })}>
          Full screen
        </button>
        <button type="button" onClick={exit}>
          Exit presenter view
        </button>
      </header>
      <div class="presenter-main">
        <section class="presenter-now" aria-label="Current slide">
          {view ? <Sheet key={view.id} html={view.html} css={sheetCss} width={big} label={`Current: ${view.title}`} /> : null}
          <div class="presenter-nav">
            <button type="button" onClick={() => go(-1)} disabled={at === 0}>
              Previous
            </button>
            <button type="button" class="primary" onClick={() => go(1)} disabled={at >= slides.length - 1}>
              Next
            </button>
          </div>
        </section>
        <section class="presenter-side">
          <h2>Next: {title(slides[at + 1]) || 'end of the deck'}</h2>
          {next ? <Sheet key={next.id} html={next.html} css={sheetCss} width={Math.min(360, size.w * 0.3)} label={`Next: ${next.title}`} /> : null}
          <h2>Notes</h2>
          <div class="presenter-notes" data-testid="presenter-notes">
            {shown && doc.slides[shown].notes ? doc.slides[shown].notes!.split('\n').map((line, i) => <p key={i}>{line}</p>) : <p class="meta">No notes for this slide.</p>}
          </div>
        </section>
      </div>
    </div>
  )
}
