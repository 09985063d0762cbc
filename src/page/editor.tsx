/**
 * The editor: the toolbar and its menus, the section sidebar, the canvas with the speaker notes under
 * it, and the inspector or the history panel beside it; present mode takes the whole window.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ComponentChildren } from 'preact'
import { store, slideOrder } from './store.js'
import { Sidebar } from './sidebar.js'
import { Canvas, PAUSE_MS } from './canvas.js'
import { Inspector } from './inspector.js'
import { History } from './history.js'
import { Present } from './present.js'
import { LayoutPicker } from './layouts.js'
import { ThemeToggle } from './decklist.js'
import { navigate } from './nav.js'
import { arrange, newSlide, removeBlocks, renameDeck, setLayout, setNotes } from './commands.js'
import { ExportMenu } from './exports.js'
import { joinRoom, leaveRoom, sendPresence } from './room.js'
import { Roster } from './roster.js'
import { AccountDialogs, AccountMenu } from './accountmenu.js'
import { commentOnSelection, CommentsPanel, loadComments, NotesPins, useCommentShortcut } from './comments.js'

export function Editor() {
  const { doc, current, views, loading, mode, panel, canUndo, canRedo, busy, selection, appearance } = store.state
  const deckId = store.deckId

  useEffect(() => {
    joinRoom(deckId)
    if (deckId) void loadComments(true)
    return () => leaveRoom()
  }, [deckId])
  useEffect(() => {
    sendPresence({ slideId: current, selection: [] })
  }, [current])
  useEffect(() => {
    if (doc) document.title = `${doc.manifest.title} · Deck Studio`
  }, [doc?.manifest.title])
  useEffect(() => {
    if (doc) void store.fetchViews(slideOrder(doc))
  }, [appearance])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey
      const target = event.target as HTMLElement
      const typing = target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
      if (mod && !typing && event.key.toLowerCase() === 'z') {
        event.preventDefault()
        if (event.shiftKey) void store.redo()
        else void store.undo()
      } else if (mod && !typing && event.key.toLowerCase() === 'y') {
        event.preventDefault()
        void store.redo()
      } else if (event.key === 'F5' || (mod && event.key === 'Enter')) {
        event.preventDefault()
        store.set({ mode: event.shiftKey ? 'presenter' : 'present' })
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
  useCommentShortcut()

  if (mode !== 'edit' && doc) return <Present />
  if (!doc) {
    return (
      <div class="editor loading">
        <header class="bar">
          <a href="/" class="brand">
            Deck Studio
          </a>
        </header>
        <main id="main" class="empty">{loading ? <p>Opening the deck…</p> : <p>This deck could not be opened.</p>}</main>
      </div>
    )
  }
  const view = current ? views.get(current) : undefined
  const openThreads = [...store.state.comments.threads.values()].filter((t) => t.state === 'open').length
  const slide = current ? doc.slides[current] : undefined
  // With accounts the page offers only what the caller's role allows (the server refuses the rest anyway).
  const canWrite = store.can('write')
  const canComment = store.can('comment')
  const canShare = store.can('share')
  return (
    <div class="editor">
      <header class="bar" role="banner">
        <a
          href="/"
          class="brand"
          onClick={(e) => {
            e.preventDefault()
            navigate('/')
          }}
        >
          Deck Studio
        </a>
        {canWrite ? <DeckTitle title={doc.manifest.title} /> : <h1 class="deck-title read-only">{doc.manifest.title}</h1>}
        <div class="toolbar" role="toolbar" aria-label="Editing">
          {canWrite ? (
            <>
          <button type="button" onClick={() => void store.undo()} disabled={!canUndo} aria-keyshortcuts="Control+Z" title={canUndo ? `Undo ${canUndo.toLowerCase()} (Ctrl+Z)` : 'Nothing to undo'}>
            Undo
          </button>
          <button type="button" onClick={() => void store.redo()} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z" title={canRedo ? `Redo ${canRedo.toLowerCase()} (Ctrl+Shift+Z)` : 'Nothing to redo'}>
            Redo
          </button>
          <Menu label="New slide">{(close) => <LayoutPicker onPick={(layout) => (close(), newSlide(layout))} />}</Menu>
          <Menu label="Layout" disabled={!slide}>{(close) => <LayoutPicker current={slide?.layout} onPick={(layout) => (close(), current && setLayout(current, layout))} />}</Menu>
          <Menu label="Arrange" disabled={!selection.length || !current}>
            {(close) => <ArrangeMenu close={close} />}
          </Menu>
            </>
          ) : (
            <span class="role-note" data-role={store.state.access?.role ?? ''}>
              {store.state.access?.role ? `You can ${canComment ? 'view and comment' : 'view'} (${store.state.access.role})` : 'Checking access…'}
            </span>
          )}
          {store.can('export') ? <ExportMenu /> : null}
          {canComment ? (
          <button
            type="button"
            onPointerDown={(e) => e.preventDefault()}
            onClick={() => commentOnSelection()}
            aria-keyshortcuts="Control+Alt+M"
            title="Comment on the selected words, the selected block, or the slide (Ctrl+Alt+M)"
          >
            Comment
          </button>
          ) : null}
        </div>
        <div class="toolbar end">
          <span class="saving" aria-hidden="true">
            {busy ? 'Saving…' : `Revision ${doc.manifest.revision}`}
          </span>
          <Roster />
          {canShare ? (
            <button type="button" onClick={() => store.set({ dialog: 'share' })} aria-haspopup="dialog">
              Share
            </button>
          ) : null}
          <AccountMenu />
          <ThemeToggle />
          <button type="button" class="comments-toggle" aria-pressed={panel === 'comments'} aria-controls="side-panel" onClick={() => store.set({ panel: panel === 'comments' ? 'inspector' : 'comments' })}>
            Comments{openThreads ? ` (${openThreads})` : ''}
          </button>
          <button type="button" aria-pressed={panel === 'history'} onClick={() => store.set({ panel: panel === 'history' ? 'inspector' : 'history' })}>
            History
          </button>
          <button type="button" onClick={() => store.set({ mode: 'presenter' })} title="Presenter view: the slide, the next one, notes and a timer">
            Presenter view
          </button>
          <button type="button" class="primary" onClick={() => store.set({ mode: 'present' })} aria-keyshortcuts="F5" title="Present (F5)">
            Present
          </button>
        </div>
      </header>
      <Sidebar />
      <main id="main" class="stage" aria-label="Slide">
        {view ? <Canvas view={view} /> : <div class="canvas-wrap">{slide ? <p>Drawing the slide…</p> : <p>This deck has no slides: add one with New slide.</p>}</div>}
        {slide && current ? <Notes key={current} slideId={current} notes={slide.notes ?? ''} readOnly={!canWrite} /> : null}
      </main>
      <aside class="panel" id="side-panel" aria-label={panel === 'history' ? 'History' : panel === 'comments' ? 'Comments panel' : 'Inspector'}>
        {panel === 'history' ? <History /> : panel === 'comments' ? <CommentsPanel /> : canWrite ? <Inspector /> : <ReadOnlyPanel />}
      </aside>
      <AccountDialogs />
    </div>
  )
}

function DeckTitle({ title }: { title: string }) {
  const [value, setValue] = useState(title)
  useEffect(() => setValue(title), [title])
  const commit = () => {
    const name = value.trim()
    if (name && name !== title) renameDeck(name)
    else setValue(title)
  }
  return (
    <input
      class="deck-title"
      aria-label="Deck title"
      value={value}
      onInput={(e) => setValue((e.target as HTMLInputElement).value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur()
        if (e.key === 'Escape') {
          setValue(title)
          ;(e.target as HTMLInputElement).blur()
        }
      }}
    />
  )
}

/** A menu button: the popup holds buttons; Escape or a click outside closes it and focus returns. */
export function Menu({ label, disabled, children, icon }: { label: string; disabled?: boolean; children: (close: () => void) => ComponentChildren; icon?: ComponentChildren }) {
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => !ref.current?.contains(e.target as Node) && setOpen(false)
    addEventListener('pointerdown', onDown)
    requestAnimationFrame(() => (ref.current?.querySelector('.menu-popup button, .menu-popup input') as HTMLElement | null)?.focus())
    return () => removeEventListener('pointerdown', onDown)
  }, [open])
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const id = `menu-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <div class="menu" ref={ref} onKeyDown={(e) => e.key === 'Escape' && open && (e.stopPropagation(), close())}>
      <button type="button" ref={button} aria-expanded={open} aria-controls={id} disabled={disabled} onClick={() => setOpen(!open)}>
        {icon}
        <span class="menu-label">{label}</span> <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div class="menu-popup" id={id} role="group" aria-label={label}>
          {children(close)}
        </div>
      ) : null}
    </div>
  )
}

function ArrangeMenu({ close }: { close: () => void }) {
  const { current, selection } = store.state
  if (!current) return null
  const ids = selection
  const run = (label: string, action: string, input: Record<string, unknown>) => {
    close()
    void arrange(label, current, ids, action, input)
  }
  const many = ids.length > 1
  return (
    <div class="arrange">
      <p class="menu-head">Align {many ? 'to the selection' : 'to the slide'}</p>
      <div class="row">
        {(['left', 'center', 'right', 'top', 'middle', 'bottom'] as const).map((edge) => (
          <button key={edge} type="button" onClick={() => run(`Align ${edge}`, 'block.align', { blockIds: ids, edge, to: many ? 'selection' : 'sheet' })}>
            {edge[0].toUpperCase() + edge.slice(1)}
          </button>
        ))}
      </div>
      <p class="menu-head">Distribute</p>
      <div class="row">
        <button type="button" disabled={ids.length < 3} onClick={() => run('Distribute horizontally', 'block.distribute', { blockIds: ids, axis: 'horizontal' })}>
          Horizontally
        </button>
        <button type="button" disabled={ids.length < 3} onClick={() => run('Distribute vertically', 'block.distribute', { blockIds: ids, axis: 'vertical' })}>
          Vertically
        </button>
      </div>
      <p class="menu-head">Order</p>
      <div class="row">
        {(['front', 'forward', 'backward', 'back'] as const).map((move) => (
          <button key={move} type="button" disabled={many} onClick={() => run(`Bring ${move}`, 'block.order', { blockId: ids[0], move })}>
            {move === 'front' ? 'To front' : move === 'back' ? 'To back' : move === 'forward' ? 'Forward' : 'Backward'}
          </button>
        ))}
      </div>
      <p class="menu-head">Group, flip, rotate</p>
      <div class="row">
        <button type="button" disabled={!many} onClick={() => run('Group', 'block.group', { blockIds: ids })}>
          Group
        </button>
        <button type="button" onClick={() => run('Ungroup', 'block.ungroup', { blockIds: ids })}>
          Ungroup
        </button>
        <button type="button" onClick={() => run('Flip horizontally', 'block.flip', { blockIds: ids, axis: 'h', ...(many ? { about: 'selection' } : {}) })}>
          Flip ↔
        </button>
        <button type="button" onClick={() => run('Flip vertically', 'block.flip', { blockIds: ids, axis: 'v', ...(many ? { about: 'selection' } : {}) })}>
          Flip ↕
        </button>
        <button type="button" onClick={() => run('Rotate', 'block.rotate', { blockIds: ids, by: 90, ...(many ? { about: 'selection' } : {}) })}>
          Rotate 90°
        </button>
      </div>
      <p class="menu-head">Object</p>
      <div class="row">
        <button type="button" onClick={() => run('Duplicate', 'block.duplicate', { blockIds: ids })}>
          Duplicate
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            close()
            removeBlocks(current, ids)
          }}
        >
          Delete
        </button>
      </div>
    </div>
  )
}

/** Speaker notes under the canvas: one write per pause in typing (slide.update notes.set). */
function Notes({ slideId, notes, readOnly }: { slideId: string; notes: string; readOnly?: boolean }) {
  const [value, setValue] = useState(notes)
  const base = useRef(notes)
  const timer = useRef<number>()
  const focused = useRef(false)
  useEffect(() => {
    if (!focused.current) {
      setValue(notes)
      base.current = notes
    }
  }, [notes])
  const flush = (text: string) => {
    clearTimeout(timer.current)
    if (text === base.current) return
    const from = base.current
    base.current = text
    setNotes(slideId, text, from)
  }
  useEffect(() => () => flush(valueRef.current), [])
  const valueRef = useRef(value)
  valueRef.current = value
  return (
    <section class="notes" aria-labelledby="notes-label">
      <div class="notes-head">
        <label id="notes-label" for="notes">
          Speaker notes
        </label>
        <NotesPins slideId={slideId} />
      </div>
      <textarea
        id="notes"
        value={value}
        readOnly={readOnly}
        placeholder={readOnly ? '' : 'Notes for the presenter (plain text)'}
        onFocus={() => (focused.current = true)}
        onBlur={() => {
          focused.current = false
          flush(value)
        }}
        onInput={(e) => {
          const text = (e.target as HTMLTextAreaElement).value
          setValue(text)
          clearTimeout(timer.current)
          timer.current = window.setTimeout(() => flush(text), PAUSE_MS)
        }}
      />
    </section>
  )
}


/** Beside the slide for a viewer or commenter: what they may do here, instead of the inspector. */
function ReadOnlyPanel() {
  const role = store.state.access?.role
  return (
    <div class="read-only-panel">
      <h2>{role ? `You are a ${role}` : 'Reading your access…'}</h2>
      <p>{store.can('comment') ? 'You can read the deck and comment on it; only its editors change it.' : 'You can read the deck; only its editors change it.'}</p>
    </div>
  )
}
