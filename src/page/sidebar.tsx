/**
 * The section sidebar: every section with its slides as thumbnails the renderer drew. Reorder by
 * dragging (within and between sections) or with Alt+Arrow keys; skip, duplicate and remove from each
 * thumbnail's buttons or with keys (S, Ctrl+D, Delete). Each change is one table action.
 */
import { useEffect, useState } from 'preact/hooks'
import { Sheet } from './sheet.js'
import { sectionOf, slideOrder, store, type DeckDoc } from './store.js'
import { goToSlide, moveSlide, removeSlides, duplicateSlides, skipSlides } from './commands.js'

const THUMB = 150

export function Sidebar() {
  const { doc, views, sheetCss, current } = store.state
  const [drop, setDrop] = useState<{ slideId?: string; sectionId: string; after: boolean } | null>(null)
  useEffect(() => {
    if (current) document.querySelector(`.thumb[data-slide="${CSS.escape(current)}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [current, Boolean(doc)])
  if (!doc) return null
  const order = slideOrder(doc)
  const writable = store.can('write')

  const onDrop = (event: DragEvent, sectionId: string, target?: string, after?: boolean) => {
    event.preventDefault()
    const slideId = event.dataTransfer?.getData('text/x-studio-slide')
    setDrop(null)
    if (!slideId || slideId === target) return
    const section = doc.manifest.sections.find((s) => s.id === sectionId)!
    let anchor: string | undefined
    if (target) {
      const list = section.slides.filter((id) => id !== slideId)
      const at = list.indexOf(target)
      anchor = after ? target : at > 0 ? list[at - 1] : undefined
    }
    moveSlide(slideId, sectionId, anchor)
  }

  // One Tab stop for the whole list (roving tabindex): the current slide's option, or the first.
  const tabbable = current && doc.slides[current] ? current : order[0]
  return (
    <nav class="sidebar" aria-label="Slides">
      <div role="listbox" aria-label="Slides" aria-describedby="slides-keys" class="slide-list">
        {doc.manifest.sections.map((section) => (
          <div key={section.id} role="group" class="section" aria-labelledby={`section-${section.id}`}>
            {/* Not a heading: a listbox holds options and groups only; the group takes its name from this. */}
            <div
              id={`section-${section.id}`}
              class={`section-title ${drop && !drop.slideId && drop.sectionId === section.id ? 'drop-target' : ''}`}
              onDragOver={(e) => {
                e.preventDefault()
                setDrop({ sectionId: section.id, after: false })
              }}
              onDragLeave={() => setDrop(null)}
              onDrop={(e) => onDrop(e, section.id)}
            >
              {section.title || section.id}
              <span class="count"> · {section.slides.length}</span>
            </div>
            <div class="thumbs" role="none">
              {section.slides.map((id) => {
                const slide = doc.slides[id]
                if (!slide) return null
                const n = order.indexOf(id) + 1
                const view = views.get(id)
                const title = view?.title || slideTitle(doc, id) || 'Untitled'
                const marker = drop?.slideId === id ? (drop.after ? 'drop-after' : 'drop-before') : ''
                return (
                  <div
                    key={id}
                    role="none"
                    class={`thumb ${id === current ? 'current' : ''} ${slide.skip ? 'skipped' : ''} ${marker}`}
                    data-slide={id}
                    draggable={writable}
                    onDragStart={(e) => {
                      e.dataTransfer!.setData('text/x-studio-slide', id)
                      e.dataTransfer!.effectAllowed = 'move'
                    }}
                    onDragOver={(e) => {
                      e.preventDefault()
                      const rect = (e.currentTarget as HTMLElement).getBoundingClientRect()
                      setDrop({ slideId: id, sectionId: section.id, after: e.clientY > rect.top + rect.height / 2 })
                    }}
                    onDrop={(e) => {
                      const rect = (e.currentTarget as HTMLElement).getBoundingClientRect()
                      onDrop(e, section.id, id, e.clientY > rect.top + rect.height / 2)
                    }}
                    onDragEnd={() => setDrop(null)}
                  >
                    <div class="thumb-view" aria-hidden="true">
                      <span class="number">{n}</span>
                      {view ? <Sheet html={view.html} css={sheetCss} width={THUMB} decorative /> : <div class="sheet-frame placeholder" style={{ width: `${THUMB}px`, height: `${(THUMB * 9) / 16}px` }} />}
                      {slide.skip ? <span class="skip-tag">Skipped</span> : null}
                    </div>
                    <button
                      type="button"
                      role="option"
                      class="thumb-button"
                      tabIndex={id === tabbable ? 0 : -1}
                      aria-selected={id === current ? 'true' : 'false'}
                      aria-label={`Slide ${n}: ${title}${slide.skip ? ' (skipped)' : ''}`}
                      aria-keyshortcuts="ArrowUp ArrowDown Home End Enter Alt+ArrowUp Alt+ArrowDown Delete Control+D S"
                      onClick={() => goToSlide(id)}
                      onKeyDown={(e) => thumbKeys(e, doc, id)}
                    />
                    {/* Out of the Tab order: the same commands are the option's keys (S, Ctrl+D, Delete). */}
                    {writable ? (
                    <div class="thumb-tools">
                      <button type="button" tabIndex={-1} class="tool" aria-pressed={slide.skip === true} aria-label={`${slide.skip ? 'Show' : 'Skip'} slide ${n}`} title={slide.skip ? 'Show in the slideshow (S)' : 'Skip in the slideshow (S)'} onClick={() => skipSlides([id], !slide.skip)}>
                        {slide.skip ? 'Show' : 'Skip'}
                      </button>
                      <button type="button" tabIndex={-1} class="tool" aria-label={`Duplicate slide ${n}`} title="Duplicate (Ctrl+D)" onClick={() => duplicateSlides([id])}>
                        Copy
                      </button>
                      <button type="button" tabIndex={-1} class="tool danger" aria-label={`Remove slide ${n}`} title="Remove (Delete)" onClick={() => removeSlides([id])}>
                        Remove
                      </button>
                    </div>
                    ) : null}
                  </div>
                )
              })}
            </div>
          </div>
        ))}
      </div>
      <p id="slides-keys" class="sr-only">
        Up and Down go to a slide, Home and End to the first and last, Enter to the slide's objects; Alt with Up or Down moves the slide; S skips or shows it, Control+D duplicates it, Delete removes it.
      </p>
    </nav>
  )
}

function slideTitle(doc: DeckDoc, id: string): string {
  const slide = doc.slides[id]
  if (typeof slide.title === 'string') return slide.title.replace(/<[^>]*>/g, '')
  const heading = slide.blocks?.find((b) => b.slot === 'title' || b.kind === 'heading')
  return typeof heading?.text === 'string' ? heading.text.replace(/<[^>]*>/g, '') : ''
}

/**
 * The one focus move the list has waiting for the next frame. A key cancels the move the key before it
 * left waiting: Up then Enter at once ends in the slide, not back on the option Up's move focuses a frame
 * later (seen under load).
 */
let pendingFocus = 0
function nextFrame(move: () => void) {
  cancelAnimationFrame(pendingFocus)
  pendingFocus = requestAnimationFrame(move)
}

function focusThumb(id: string) {
  nextFrame(() => (document.querySelector(`.thumb[data-slide="${CSS.escape(id)}"] .thumb-button`) as HTMLElement | null)?.focus())
}

/**
 * Focuses the first object of the slide's canvas once it is drawn: within three seconds (a slide still
 * opening on a slow machine), and only while the focus is still where Enter left it (a person who moved
 * on keeps their focus).
 */
function focusCanvas(id: string, from: Element | null = document.activeElement, until = performance.now() + 3000) {
  cancelAnimationFrame(pendingFocus)
  const now = document.activeElement
  if (now !== from && now !== document.body && !now?.closest('.sidebar')) return
  const frame = document.querySelector(`.canvas[data-slide="${CSS.escape(id)}"] .frame`) as HTMLElement | null
  if (frame) frame.focus()
  else if (performance.now() < until) nextFrame(() => focusCanvas(id, from, until))
}

function thumbKeys(event: KeyboardEvent, doc: DeckDoc, id: string) {
  const order = slideOrder(doc)
  const at = order.indexOf(id)
  const mod = event.ctrlKey || event.metaKey
  // A viewer or commenter moves through the slides; the keys that change them do nothing.
  if (!store.can('write') && (event.altKey || mod || ['Delete', 'Backspace', 's', 'S'].includes(event.key))) return
  if (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
    event.preventDefault()
    const section = sectionOf(doc, id)!
    const sections = doc.manifest.sections
    const si = sections.indexOf(section)
    const i = section.slides.indexOf(id)
    if (event.key === 'ArrowDown') {
      if (i < section.slides.length - 1) moveSlide(id, section.id, section.slides[i + 1])
      else if (si < sections.length - 1) moveSlide(id, sections[si + 1].id, undefined)
    } else {
      // "First in a section" is after the section header that opens it: a slide just under one goes up into the section before.
      const opener = doc.slides[section.slides[0]]?.layout === 'section'
      if (i >= 2) moveSlide(id, section.id, section.slides[i - 2])
      else if (i === 1 && !opener) moveSlide(id, section.id, undefined)
      else if (si > 0) moveSlide(id, sections[si - 1].id, sections[si - 1].slides.at(-1))
    }
    focusThumb(id)
    return
  }
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp' || event.key === 'Home' || event.key === 'End') {
    event.preventDefault()
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? order.length - 1 : Math.min(order.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))
    goToSlide(order[next])
    focusThumb(order[next])
    return
  }
  if (event.key === 'Enter' && !mod && !event.altKey) {
    event.preventDefault()
    goToSlide(id)
    // Into the slide: its first object on the canvas (Tab goes on from there).
    focusCanvas(id)
    return
  }
  if (event.key === 'Delete' || event.key === 'Backspace') {
    event.preventDefault()
    removeSlides([id])
    const next = order[at + 1] ?? order[at - 1]
    if (next) focusThumb(next)
    return
  }
  if (mod && event.key.toLowerCase() === 'd') {
    event.preventDefault()
    duplicateSlides([id])
    return
  }
  if (!mod && !event.altKey && event.key.toLowerCase() === 's') {
    event.preventDefault()
    skipSlides([id], !doc.slides[id].skip)
  }
}
