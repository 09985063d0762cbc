/** The deck list at `/`: every deck of the workspace, newest first, and a new deck from a template. */
import { useEffect, useRef, useState } from 'preact/hooks'
import { call, get } from './api.js'
import { Sheet } from './sheet.js'
import { messageOf, store } from './store.js'
import { navigate } from './nav.js'
import { AccountDialogs, AccountMenu } from './accountmenu.js'

interface DeckRow {
  id: string
  title: string
  slides: number
  sections: number
  revision: number
  stamps: { createdAt: string; updatedAt: string }
}
interface TemplateRow {
  id: string
  name: string
  category: string
  sentence: string
  slides: number
  theme: string
  appearance: 'light' | 'dark'
}

export function DeckList() {
  const [decks, setDecks] = useState<DeckRow[] | null>(null)
  const [templates, setTemplates] = useState<TemplateRow[]>([])
  const [defaultTemplate, setDefault] = useState<string>('blank')
  const [name, setName] = useState('')
  const [from, setFrom] = useState('')
  const [creating, setCreating] = useState(false)

  useEffect(() => {
    document.title = 'Decks · Deck Studio'
    call<{ decks: DeckRow[] }>('deck.list', {}).then((r) => setDecks(r.decks), (e) => store.say(messageOf(e), 'error'))
    call<{ templates: TemplateRow[]; default?: string }>('template.list', {}).then(
      (r) => {
        setTemplates(r.templates)
        const id = (r as { default?: string }).default ?? 'blank'
        setDefault(id)
        setFrom(id)
      },
      (e) => store.say(messageOf(e), 'error'),
    )
  }, [])

  async function create(event: Event) {
    event.preventDefault()
    if (!name.trim()) return
    setCreating(true)
    try {
      const made = await call<{ id: string }>('deck.create', { name: name.trim(), ...(from ? { from } : {}) })
      navigate(`/d/${made.id}`)
    } catch (error) {
      store.say(`Could not create the deck: ${messageOf(error)}`, 'error')
    } finally {
      setCreating(false)
    }
  }

  return (
    <div class="decklist">
      <header class="bar" role="banner">
        <h1 class="brand">Deck Studio</h1>
        <div class="toolbar end">
          <AccountMenu />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" class="decklist-main">
        <section aria-labelledby="new-deck-title" class="card new-deck">
          <h2 id="new-deck-title">New deck</h2>
          <form onSubmit={create}>
            <label for="deck-name">Name</label>
            <input id="deck-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required placeholder="Quarterly review" />
            <fieldset>
              <legend>Start from</legend>
              <div class="templates">
                {templates.map((t) => (
                  <label key={t.id} class={`template ${from === t.id ? 'chosen' : ''}`}>
                    <input type="radio" name="template" value={t.id} checked={from === t.id} onChange={() => setFrom(t.id)} />
                    <span class="template-name">
                      {t.name}
                      {t.id === defaultTemplate ? ' (default)' : ''}
                    </span>
                    <span class="template-meta">
                      {t.slides} {t.slides === 1 ? 'slide' : 'slides'} · {t.theme} · {t.appearance}
                    </span>
                    <span class="template-sentence">{t.sentence}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" class="primary" disabled={creating}>
              {creating ? 'Creating…' : 'Create deck'}
            </button>
          </form>
        </section>
        <section aria-labelledby="decks-title" class="card">
          <h2 id="decks-title">Decks</h2>
          {decks === null ? (
            <p>Loading…</p>
          ) : decks.length === 0 ? (
            <p>No decks yet: create one.</p>
          ) : (
            <ul class="decks">
              {decks.map((d) => (
                <li key={d.id}>
                  <a
                    href={`/d/${d.id}`}
                    onClick={(e) => {
                      e.preventDefault()
                      navigate(`/d/${d.id}`)
                    }}
                  >
                    <DeckCover deck={d} />
                    <span class="deck-title">{d.title}</span>
                    <span class="deck-meta">
                      {d.slides} slides · {d.sections} sections · revision {d.revision} · changed {new Date(d.stamps.updatedAt).toLocaleString()}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      </main>
      <AccountDialogs />
    </div>
  )
}

const COVER = 232
interface CoverView {
  revision: number
  sheetCss: string
  fontCss: string
  slides: { id: string; html: string }[]
}

/** The faces of every cover's theme, in the document (a shadow root does not load faces declared inside it). */
const coverFonts = new Set<string>()
function useCoverFonts(css: string): void {
  if (!css || coverFonts.has(css)) return
  coverFonts.add(css)
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(css)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
}

/**
 * A deck's cover: its first slide the slideshow shows, drawn by the renderer like the sidebar's
 * thumbnails (GET /page/view with cover=1, which the server keeps per revision). Asked for only when
 * the card scrolls into view, so a long list costs what is on screen.
 */
function DeckCover({ deck }: { deck: DeckRow }) {
  const box = useRef<HTMLDivElement>(null)
  const [cover, setCover] = useState<CoverView | null>(null)
  const [seen, setSeen] = useState(false)
  const appearance = store.state.appearance
  useEffect(() => {
    const el = box.current
    if (!el || seen) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setSeen(true)
        observer.disconnect()
      }
    }, { rootMargin: '200px' })
    observer.observe(el)
    return () => observer.disconnect()
  }, [seen])
  useEffect(() => {
    if (!seen) return
    let live = true
    get<CoverView>(`/page/view?deck=${encodeURIComponent(deck.id)}&appearance=${appearance}&cover=1&revision=${deck.revision}`).then(
      (view) => {
        if (!live) return
        useCoverFonts(view.fontCss)
        setCover(view)
      },
      () => undefined,
    )
    return () => void (live = false)
  }, [seen, deck.id, deck.revision, appearance])
  const slide = cover?.slides[0]
  return (
    <div class="deck-cover" ref={box} data-cover={slide ? slide.id : undefined}>
      {slide ? <Sheet html={slide.html} css={cover.sheetCss} width={COVER} decorative /> : <div class="sheet-frame placeholder" style={{ width: `${COVER}px`, height: `${(COVER * 9) / 16}px` }} aria-hidden="true" />}
    </div>
  )
}

export function ThemeToggle() {
  const dark = store.state.appearance === 'dark'
  return (
    <button
      type="button"
      class="quiet"
      aria-pressed={dark}
      onClick={() => {
        const next = dark ? 'light' : 'dark'
        localStorage.setItem('studio.appearance', next)
        store.set({ appearance: next })
        if (store.state.doc) void store.fetchViews(store.state.doc.manifest.sections.flatMap((s) => s.slides))
      }}
    >
      Dark mode
    </button>
  )
}
