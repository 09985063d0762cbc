/**
 * Comments in the page: the panel of the deck's threads (filters open / resolved / for me), a card
 * per thread with its comments, replies, reactions, resolve/reopen, assignment and done; the pins
 * that show on the slide what each thread is about (a highlighted range, a block outline, a table
 * cell, the notes, a badge for the slide or the deck); and "comment" on what is selected.
 *
 * Every change is one comment action over the window transport. Comment writes move the comments
 * revision, not the deck's: the room's `comments` message (src/page/room.ts) has the page read the
 * threads touched since the revision it knows (comment.list `since`). Pins are the page's own
 * overlay, never part of the slide's HTML: nothing of them is rendered or exported.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { ApiError, call } from './api.js'
import { EMOJI_CHARS } from './emoji.js'
import { isRefusal, messageOf, store, type ViewItem } from './store.js'

// The shapes the comment actions answer, defined once in src/comments (type imports: nothing of it is bundled).
export type { Anchor } from '../comments/anchor.js'
export type { Who, ShownComment as Comment, ShownThread as Thread } from '../comments/store.js'
import type { Anchor } from '../comments/anchor.js'
import type { Who, ShownComment as Comment, ShownThread as Thread } from '../comments/store.js'
export interface CommentsState {
  /** The deck the threads are of (null before the first read). */
  deckId: string | null
  threads: Map<string, Thread>
  /** The comments revision of the last read. */
  revision: number
  filter: 'open' | 'resolved' | 'forMe'
  /** Threads mentioning or assigned to this tab's author (the server's forMe). */
  forMe: Set<string>
  /** The thread whose card is open. */
  expanded: string | null
  /** A new thread being written, on this anchor. */
  draft: Anchor | null
  /** The comments kill switch is on: reads answer, writes are refused, so no composer is shown. */
  off?: boolean
}

const patch = (change: Partial<CommentsState>) => store.set({ comments: { ...store.state.comments, ...change } })

let loading: Promise<void> = Promise.resolve()
/**
 * Reads the deck's threads: all of them (`full`, or another deck), else those touched since the
 * comments revision the page knows. Reads are one after the other, so an older answer never wins.
 */
export function loadComments(full = false): Promise<void> {
  const run = loading.then(async () => {
    const deckId = store.deckId
    if (!deckId) return
    const known = store.state.comments
    const fresh = full || known.deckId !== deckId
    const [answer, mine] = await Promise.all([
      call<{ threads: Thread[]; baseRevision: number; switchedOff?: boolean }>('comment.list', { state: 'all', includeDeleted: true, limit: 500, ...(fresh ? {} : { since: known.revision }) }, deckId),
      call<{ threads: Thread[] }>('comment.list', { state: 'all', forMe: true, limit: 500 }, deckId),
    ])
    if (store.deckId !== deckId) return
    const threads = new Map(fresh ? [] : store.state.comments.threads)
    for (const thread of answer.threads) threads.set(thread.id, thread)
    patch({ deckId, threads, revision: answer.baseRevision, forMe: new Set(mine.threads.map((t) => t.id)), off: answer.switchedOff === true, ...(answer.switchedOff ? { draft: null } : {}) })
  })
  // A viewer's 403 is no news: the panel says comments are not shown to viewers.
  loading = run.catch((error) => (isRefusal(error) && store.state.accounts ? undefined : store.say(`Comments: ${messageOf(error)}`, 'error')))
  return loading
}

/** The room said the comments moved to `revision`: read what changed (all of it when the revision went back). */
export function commentsMoved(revision: number): void {
  const known = store.state.comments
  if (known.deckId !== store.deckId) return
  if (revision === known.revision) return
  void loadComments(revision < known.revision)
}

/** Opens the panel on a thread's card (a pin clicked, a `?thread=` address). */
export function openThread(threadId: string): void {
  store.set({ panel: 'comments', comments: { ...store.state.comments, expanded: threadId, draft: null } })
}

/** Runs one comment action; the thread it answers replaces the page's copy, then whatever else moved is read. */
async function act(label: string, action: string, input: Record<string, unknown>): Promise<Thread | undefined> {
  const deckId = store.deckId
  try {
    const answer = await call<{ thread: Thread }>(action, input, deckId)
    if (store.deckId === deckId) {
      const threads = new Map(store.state.comments.threads)
      threads.set(answer.thread.id, answer.thread)
      patch({ threads })
      void loadComments()
    }
    return answer.thread
  } catch (error) {
    if (error instanceof ApiError && error.code === 'switched_off' && error.body?.details?.flag === 'comments') patch({ off: true, draft: null })
    store.say(`${label}: ${messageOf(error)}`, 'error')
    return undefined
  }
}

// -- anchors ----------------------------------------------------------------------------------

const whoName = (who: Who | null | undefined) => (!who ? '' : 'principal' in who ? who.principal : who.email)

/** Where a thread sits, in words. */
export function anchorLabel(anchor: Anchor): string {
  const doc = store.state.doc
  const slideName = (id: string) => {
    const slide = doc?.slides[id]
    // The view's title is the slide's heading as drawn (a title field, else its title block).
    return slide ? `slide “${store.state.views.get(id)?.title || plainTitle(slide.title) || id}”` : `slide ${id}`
  }
  switch (anchor.kind) {
    case 'deck':
      return 'The whole deck'
    case 'slide':
      return `On ${slideName(anchor.slideId)}`
    case 'notes':
      return `On the notes of ${slideName(anchor.slideId)}`
    case 'block':
      return `On block ${anchor.blockId}, ${slideName(anchor.slideId)}`
    case 'cell':
      return `On cell ${anchor.row + 1},${anchor.col + 1} of table ${anchor.blockId}, ${slideName(anchor.slideId)}`
    case 'range':
      return `On text of block ${anchor.blockId}, ${slideName(anchor.slideId)}`
  }
}

const plainTitle = (title: unknown) => (typeof title === 'string' ? title.replace(/<[^>]*>/g, '') : '')

/** The Text element a range anchor's path names inside a block's drawing (its item, its cell, or the whole text). */
function textElement(root: ShadowRoot, blockId: string, path: string): HTMLElement | null {
  const block = root.querySelector(`[data-block="${CSS.escape(blockId)}"]`)
  if (!block) return null
  const item = /^\/items\/(\d+)\/text$/.exec(path)
  if (item) return (block.querySelectorAll('li')[Number(item[1])] as HTMLElement | undefined) ?? null
  const cell = /^\/rows\/(\d+)\/(\d+)$/.exec(path)
  if (cell) return cellElement(block, Number(cell[1]), Number(cell[2]))
  return (block.querySelector('.t') as HTMLElement | null) ?? (block as HTMLElement)
}

function cellElement(block: Element, row: number, col: number): HTMLElement | null {
  const tr = block.querySelectorAll('tr')[row]
  return (tr?.querySelectorAll('td, th')[col] as HTMLElement | undefined) ?? null
}

const PARAGRAPH = new Set(['P', 'DIV', 'LI'])
const codePoints = (s: string) => Array.from(s).length

/** The text nodes of a drawn Text with their offsets in its plain text (code points, one per paragraph break). */
function textNodes(root: HTMLElement): { node: Text; start: number }[] {
  const out: { node: Text; start: number }[] = []
  let at = 0
  let paragraphs = 0
  const visit = (node: Node) => {
    if (node instanceof HTMLElement && node.dataset.marker !== undefined) return
    if (node.nodeType === Node.TEXT_NODE) {
      out.push({ node: node as Text, start: at })
      at += codePoints((node as Text).data)
      return
    }
    if (node !== root && node instanceof HTMLElement && PARAGRAPH.has(node.tagName)) {
      if (paragraphs++ > 0) at += 1
    }
    for (const child of node.childNodes) visit(child)
  }
  visit(root)
  return out
}

/** A DOM point at a plain-text offset. */
function pointAt(nodes: { node: Text; start: number }[], offset: number): [Text, number] | null {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const { node, start } = nodes[i]
    if (start <= offset) {
      const within = Math.min(offset - start, codePoints(node.data))
      return [node, Array.from(node.data).slice(0, within).join('').length]
    }
  }
  return null
}

/** The plain-text offset of a DOM point inside a drawn Text, or null when it is outside. */
function offsetOf(nodes: { node: Text; start: number }[], container: Node, offset: number): number | null {
  const hit = nodes.find((n) => n.node === container)
  if (hit) return hit.start + codePoints(hit.node.data.slice(0, offset))
  const child = container.childNodes[offset] ?? null
  const after = child ? nodes.find((n) => child === n.node || child.contains(n.node)) : undefined
  if (after) return after.start
  const inside = nodes.filter((n) => container.contains(n.node)).at(-1)
  return inside ? inside.start + codePoints(inside.node.data) : null
}

/**
 * What "comment" takes: the selected words of the text being edited (a range), else the one selected
 * block, else the slide.
 */
function selectionAnchor(): Anchor | null {
  const { current, doc, editing, selection } = store.state
  if (!current || !doc) return doc ? { kind: 'deck' } : null
  const slide = doc.slides[current]
  const isBlock = (id: string) => slide?.blocks?.some((b) => b.id === id)
  const root = document.querySelector('.canvas .sheet-host')?.shadowRoot as (ShadowRoot & { getSelection?: () => Selection | null }) | undefined
  if (editing && isBlock(editing) && root?.getSelection) {
    const sel = root.getSelection()
    const block = slide.blocks!.find((b) => b.id === editing)!
    if (sel && !sel.isCollapsed && sel.rangeCount) {
      const range = sel.getRangeAt(0)
      const paths = block.kind === 'list' ? ((block.items as unknown[]) ?? []).map((_, i) => `/items/${i}/text`) : ['/text']
      for (const path of paths) {
        const el = textElement(root, editing, path)
        if (!el || !el.contains(range.startContainer) || !el.contains(range.endContainer)) continue
        const nodes = textNodes(el)
        const start = offsetOf(nodes, range.startContainer, range.startOffset)
        const end = offsetOf(nodes, range.endContainer, range.endOffset)
        if (start !== null && end !== null && end > start) return { kind: 'range', slideId: current, blockId: editing, path, range: [start, end] }
      }
    }
  }
  if (document.activeElement?.id === 'notes') return { kind: 'notes', slideId: current }
  const one = editing ?? (selection.length === 1 ? selection[0] : undefined)
  if (one && isBlock(one)) return { kind: 'block', slideId: current, blockId: one }
  return { kind: 'slide', slideId: current }
}

/** Starts a new thread on what is selected (the Comment button, Ctrl+Alt+M). */
export function commentOnSelection(anchor: Anchor | null = selectionAnchor()): void {
  if (!anchor) return
  store.set({ panel: 'comments', comments: { ...store.state.comments, draft: anchor, expanded: null } })
}

// -- the panel --------------------------------------------------------------------------------

const FILTERS = [
  ['open', 'Open'],
  ['resolved', 'Resolved'],
  ['forMe', 'For me'],
] as const

export function CommentsPanel() {
  if (store.state.access && !store.can('readComments')) {
    return (
      <div class="comments-panel">
        <p class="meta">You are a {store.state.access.role}: this deck's owner does not show comments to viewers.</p>
      </div>
    )
  }
  return <Threads />
}

function Threads() {
  const { comments, doc, current } = store.state
  const threads = [...comments.threads.values()].filter((t) =>
    comments.filter === 'forMe' ? comments.forMe.has(t.id) : t.state === comments.filter,
  )
  // A thread opened by its address shows whatever its state.
  const expanded = comments.expanded ? comments.threads.get(comments.expanded) : undefined
  if (expanded && !threads.includes(expanded)) threads.unshift(expanded)
  return (
    <section class="comments" role="region" aria-label="Comments" data-loaded={comments.deckId === store.deckId ? '' : undefined}>
      <div class="comments-head">
        <h2 id="comments-title">Comments</h2>
        {comments.off ? null : (
          <button type="button" onClick={() => commentOnSelection()} disabled={!doc}>
            New comment
          </button>
        )}
      </div>
      {comments.off ? <p class="muted comments-off">Comments are switched off on this studio: threads can be read, not written.</p> : null}
      <div class="comment-filters" role="radiogroup" aria-label="Show">
        {FILTERS.map(([value, label]) => (
          <button key={value} type="button" role="radio" aria-checked={comments.filter === value} onClick={() => patch({ filter: value })}>
            {label}
          </button>
        ))}
      </div>
      {comments.draft && !comments.off ? <NewThread anchor={comments.draft} /> : null}
      <ol class="threads" aria-label={`${threads.length} thread${threads.length === 1 ? '' : 's'}`}>
        {threads.map((thread) => (
          <li key={thread.id}>
            <ThreadCard thread={thread} open={comments.expanded === thread.id} here={'slideId' in thread.anchor && thread.anchor.slideId === current} />
          </li>
        ))}
      </ol>
      {threads.length === 0 && !comments.draft ? <p class="muted">{comments.deckId ? 'No threads here.' : 'Reading the threads…'}</p> : null}
    </section>
  )
}

function NewThread({ anchor }: { anchor: Anchor }) {
  const quote = anchor.kind === 'range' ? quoteFromDoc(anchor) : ''
  return (
    <div class="thread-card draft" role="group" aria-label="New thread">
      <p class="where">{anchorLabel(anchor)}</p>
      {quote ? <blockquote class="quote">{quote}</blockquote> : null}
      <Composer
        label="Comment"
        submit="Comment"
        autoFocus
        onCancel={() => patch({ draft: null })}
        onSend={async (body) => {
          const thread = await act('Comment', 'comment.add', { anchor, body })
          if (thread) patch({ draft: null, expanded: thread.id })
          return Boolean(thread)
        }}
      />
    </div>
  )
}

function quoteFromDoc(anchor: Extract<Anchor, { kind: 'range' }>): string {
  const root = document.querySelector('.canvas .sheet-host')?.shadowRoot
  const el = root ? textElement(root, anchor.blockId, anchor.path) : null
  if (!el) return ''
  const nodes = textNodes(el)
  const a = pointAt(nodes, anchor.range[0])
  const b = pointAt(nodes, anchor.range[1])
  if (!a || !b) return ''
  const range = document.createRange()
  range.setStart(...a)
  range.setEnd(...b)
  return range.toString()
}

function ThreadCard({ thread, open, here }: { thread: Thread; open: boolean; here: boolean }) {
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    if (open) ref.current?.focus()
  }, [open])
  const first = thread.comments.find((c) => !c.deletedAt) ?? thread.comments[0]
  const toggle = () => {
    patch({ expanded: open ? null : thread.id })
    if (!open && 'slideId' in thread.anchor && thread.anchor.slideId !== store.state.current && store.state.doc?.slides[thread.anchor.slideId]) {
      const slideId = thread.anchor.slideId
      void import('./commands.js').then(({ goToSlide }) => goToSlide(slideId))
    }
  }
  const id = `thread-${thread.id}`
  return (
    <article
      ref={ref}
      id={id}
      class={`thread-card ${open ? 'open' : ''} ${thread.state} ${here ? 'here' : ''}`}
      data-thread={thread.id}
      data-status={thread.status}
      tabIndex={-1}
      aria-labelledby={`${id}-head`}
    >
      <button type="button" class="thread-head" id={`${id}-head`} aria-expanded={open} aria-controls={`${id}-body`} onClick={toggle}>
        <span class="who">{first?.author}</span>
        <span class="gist">{first?.body ? shownText(first.body) : 'Comment deleted'}</span>
        <span class="count">{thread.comments.filter((c) => !c.deletedAt).length > 1 ? `${thread.comments.filter((c) => !c.deletedAt).length} comments` : ''}</span>
        {thread.state === 'resolved' ? <span class="badge">Resolved</span> : null}
      </button>
      <Status thread={thread} />
      {open ? <ThreadBody thread={thread} id={`${id}-body`} /> : null}
    </article>
  )
}

function Status({ thread }: { thread: Thread }) {
  if (thread.status === 'removed') {
    const what = thread.anchor.kind === 'slide' || thread.anchor.kind === 'notes' ? 'Its slide is gone' : 'Its block is gone'
    return <p class="where gone">{what} ({anchorLabel(thread.anchor).replace(/^On /, '')})</p>
  }
  return (
    <>
      <p class="where">{anchorLabel(thread.anchor)}</p>
      {thread.quote && thread.anchor.kind === 'range' ? (
        thread.status === 'detached' ? (
          <p class="quote detached">
            <s>{thread.quote.exact}</s> <span class="muted">the text is gone</span>
          </p>
        ) : (
          <blockquote class="quote">{thread.quote.exact}</blockquote>
        )
      ) : null}
    </>
  )
}

/** A body's text with its `{@n}` tokens shown as the names they mention. */
function shownText(body: { text: string; mentions?: Who[] }): string {
  return body.text.replace(/\{@(\d+)\}/g, (token, n: string) => {
    const who = body.mentions?.[Number(n)]
    return who ? `@${whoName(who)}` : token
  })
}

function BodyText({ body }: { body: { text: string; mentions?: Who[] } }) {
  const parts = body.text.split(/(\{@\d+\})/)
  return (
    <p class="body">
      {parts.map((part, i) => {
        const m = /^\{@(\d+)\}$/.exec(part)
        const who = m ? body.mentions?.[Number(m[1])] : undefined
        return who ? (
          <span key={i} class="mention">
            @{whoName(who)}
          </span>
        ) : (
          part
        )
      })}
    </p>
  )
}

const time = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function ThreadBody({ thread, id }: { thread: Thread; id: string }) {
  const me = store.state.me
  const [assignee, setAssignee] = useState('')
  return (
    <div class="thread-body" id={id}>
      <ol class="comment-list" aria-label="Comments of the thread">
        {thread.comments.map((c) => (
          <li key={c.id} class={`comment ${c.deletedAt ? 'deleted' : ''}`} data-comment={c.id}>
            <div class="comment-meta">
              <strong>{c.author}</strong> <time dateTime={c.at}>{time(c.at)}</time>
              {c.editedAt ? <span class="muted"> (edited)</span> : null}
            </div>
            {c.deletedAt || !c.body ? <p class="body muted">Comment deleted.</p> : <BodyText body={c.body} />}
            {!c.deletedAt ? <Reactions thread={thread} comment={c} /> : null}
            {me === null || c.author === me ? (
              <button
                type="button"
                class="link"
                onClick={() => void act(c.deletedAt ? 'Restore' : 'Delete', 'comment.delete', { threadId: thread.id, commentId: c.id, ...(c.deletedAt ? { restore: true } : {}) })}
                aria-label={`${c.deletedAt ? 'Restore' : 'Delete'} the comment of ${c.author} from ${time(c.at)}`}
              >
                {c.deletedAt ? 'Restore' : 'Delete'}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      <div class="thread-actions">
        {thread.state === 'open' ? (
          <button type="button" onClick={() => void act('Resolve', 'comment.resolve', { threadId: thread.id })}>
            Resolve
          </button>
        ) : (
          <button type="button" onClick={() => void act('Reopen', 'comment.reopen', { threadId: thread.id })}>
            Reopen
          </button>
        )}
        {thread.assignee && !thread.done ? (
          <button type="button" onClick={() => void act('Done', 'comment.done', { threadId: thread.id })}>
            Done
          </button>
        ) : null}
      </div>
      <p class="assignee">{thread.assignee ? `Assigned to ${whoName(thread.assignee)}${thread.done ? ' · done' : ''}` : 'Not assigned'}</p>
      <form
        class="assign"
        onSubmit={(e) => {
          e.preventDefault()
          const value = assignee.trim()
          const who = value ? (value.includes('@') ? { email: value } : { principal: value }) : null
          void act('Assign', 'comment.assign', { threadId: thread.id, assignee: who }).then((t) => t && setAssignee(''))
        }}
      >
        <input aria-label="Assign to (a name or an email; empty unassigns)" list="comment-people" placeholder="Assign to…" value={assignee} onInput={(e) => setAssignee((e.target as HTMLInputElement).value)} />
        <button type="submit">Assign</button>
        <datalist id="comment-people">
          {people().map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
      </form>
      {store.state.comments.off ? null : <Composer label="Reply" submit="Reply" onSend={async (body) => Boolean(await act('Reply', 'comment.reply', { threadId: thread.id, body }))} />}
    </div>
  )
}

/**
 * Whether this machine draws emoji: a glyph as wide as a code point no font has is the "missing"
 * box, and the palette's names are shown as words instead.
 */
let emojiDrawn: boolean | undefined
function drawsEmoji(): boolean {
  if (emojiDrawn === undefined) {
    const context = document.createElement('canvas').getContext('2d')
    if (!context) return (emojiDrawn = true)
    context.font = '16px sans-serif'
    const missing = context.measureText('\u{10FFFD}').width
    emojiDrawn = ['👍', '🎉'].every((e) => context.measureText(e).width !== missing)
  }
  return emojiDrawn
}
const emojiOf = (name: string) => (drawsEmoji() ? (EMOJI_CHARS[name] ?? name) : name.replace(/-/g, ' '))

function Reactions({ thread, comment }: { thread: Thread; comment: Comment }) {
  const me = store.state.me
  const [picking, setPicking] = useState(false)
  const react = (emoji: string, on: boolean) => {
    setPicking(false)
    void act('React', 'comment.react', { threadId: thread.id, commentId: comment.id, emoji, on })
  }
  const given = Object.entries(comment.reactions).filter(([, who]) => who.length)
  return (
    <div class="reactions">
      {given.map(([emoji, who]) => {
        const mine = me !== null && who.includes(me)
        return (
          <button key={emoji} type="button" class="reaction" aria-pressed={mine} title={who.join(', ')} aria-label={`${emoji.replace(/-/g, ' ')}: ${who.length} (${who.join(', ')})`} onClick={() => react(emoji, !mine)}>
            {emojiOf(emoji)} {who.length}
          </button>
        )
      })}
      <button type="button" class="reaction add" aria-expanded={picking} aria-label="Add a reaction" onClick={() => setPicking(!picking)}>
        ☺+
      </button>
      {picking ? (
        <div class="emoji-palette" role="group" aria-label="Reactions" onKeyDown={(e) => e.key === 'Escape' && setPicking(false)}>
          {Object.keys(EMOJI_CHARS).map((name) => (
            <button key={name} type="button" aria-label={name.replace(/-/g, ' ')} title={name} onClick={() => react(name, true)}>
              {emojiOf(name)}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  )
}

/** The names the page knows: the room's roster, this tab's author, and the authors of the threads. */
function people(): string[] {
  const names = new Set<string>()
  if (store.state.me) names.add(store.state.me)
  for (const r of store.state.roster) names.add(r.name)
  for (const t of store.state.comments.threads.values()) for (const c of t.comments) names.add(c.author)
  return [...names].sort((a, b) => a.localeCompare(b))
}

/**
 * A comment box with mention completion: "@" and a few letters offer the people the page knows;
 * picking one writes "@Name" and remembers the mention, which goes out as a `{@n}` token.
 */
function Composer({ label, submit, onSend, onCancel, autoFocus }: { label: string; submit: string; onSend: (body: { text: string; mentions?: Who[] }) => Promise<boolean>; onCancel?: () => void; autoFocus?: boolean }) {
  const [text, setText] = useState('')
  const [mentions, setMentions] = useState<string[]>([])
  const [query, setQuery] = useState<{ at: number; typed: string } | null>(null)
  const [active, setActive] = useState(0)
  const [sending, setSending] = useState(false)
  const box = useRef<HTMLTextAreaElement>(null)
  const listId = useRef(`mentions-${Math.random().toString(36).slice(2, 8)}`).current
  useEffect(() => {
    if (autoFocus) box.current?.focus()
  }, [])
  const offers = query ? people().filter((p) => p.toLowerCase().startsWith(query.typed.toLowerCase())).slice(0, 8) : []
  const look = (value: string, caret: number) => {
    const m = /(^|\s)@([^\s@{}]*)$/.exec(value.slice(0, caret))
    setQuery(m ? { at: caret - m[2].length - 1, typed: m[2] } : null)
    setActive(0)
  }
  const pick = (name: string) => {
    if (!query) return
    const end = query.at + 1 + query.typed.length
    const next = `${text.slice(0, query.at)}@${name} ${text.slice(end)}`
    setText(next)
    setMentions((m) => (m.includes(name) ? m : [...m, name]))
    setQuery(null)
    caret.current = query.at + name.length + 2
  }
  // The caret goes after a picked name as soon as the text shows it, before anything else is typed.
  const caret = useRef<number | null>(null)
  useLayoutEffect(() => {
    if (caret.current === null) return
    box.current?.setSelectionRange(caret.current, caret.current)
    caret.current = null
  }, [text])
  const send = async () => {
    const value = text.trim()
    if (!value || sending) return
    // Mentions still written in the text, longest names first so "@Ana Lima" is not taken for "@Ana".
    const kept = mentions.filter((name) => value.includes(`@${name}`))
    let body = value
    const order = [...kept].sort((a, b) => b.length - a.length)
    for (const name of order) body = body.split(`@${name}`).join(`\u0000${kept.indexOf(name)}\u0000`)
    body = body.replace(/\u0000(\d+)\u0000/g, '{@$1}')
    setSending(true)
    const ok = await onSend({ text: body, ...(kept.length ? { mentions: kept.map((name) => (name.includes('@') ? { email: name } : { principal: name })) } : {}) })
    setSending(false)
    if (ok) {
      setText('')
      setMentions([])
    }
  }
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <textarea
        ref={box}
        aria-label={label}
        placeholder={`${label}… (@ to mention)`}
        value={text}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={offers.length > 0}
        aria-controls={listId}
        aria-activedescendant={offers.length ? `${listId}-${active}` : undefined}
        onInput={(e) => {
          const el = e.target as HTMLTextAreaElement
          setText(el.value)
          look(el.value, el.selectionStart)
        }}
        onKeyDown={(e) => {
          if (offers.length) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault()
              setActive((active + (e.key === 'ArrowDown' ? 1 : offers.length - 1)) % offers.length)
              return
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault()
              pick(offers[active])
              return
            }
            if (e.key === 'Escape') {
              e.stopPropagation()
              setQuery(null)
              return
            }
          }
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            // Ctrl+Enter elsewhere starts the presentation: here it sends.
            e.preventDefault()
            e.stopPropagation()
            void send()
          } else if (e.key === 'Escape' && onCancel) onCancel()
        }}
      />
      {offers.length ? (
        <ul class="mention-offers" id={listId} role="listbox" aria-label="People to mention">
          {offers.map((name, i) => (
            <li
              key={name}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onPointerDown={(e) => {
                e.preventDefault()
                pick(name)
              }}
            >
              {name}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="composer-actions">
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" class="primary" disabled={!text.trim() || sending} aria-keyshortcuts="Control+Enter">
          {submit}
        </button>
      </div>
    </form>
  )
}

// -- pins on the slide ------------------------------------------------------------------------

interface PinBox {
  threadId: string
  kind: Anchor['kind']
  rects: { x: number; y: number; w: number; h: number }[]
  /** The words a range pin covers, as drawn. */
  text?: string
}

/** Threads shown on the slide: the open ones, and whichever card is open. */
function shownThreads(slideId: string): Thread[] {
  const { threads, expanded } = store.state.comments
  return [...threads.values()].filter((t) => (t.state === 'open' || t.id === expanded) && t.status !== 'removed' && 'slideId' in t.anchor && t.anchor.slideId === slideId)
}

/**
 * The pins of the current slide, in the canvas overlay: boxes measured in screen pixels from the
 * slide's drawing (ranges and cells) or the view's geometry (blocks), after every redraw.
 */
export function Pins({ slideId, items, root, scale, overlay }: { slideId: string; items: ViewItem[]; root: () => ShadowRoot | null; scale: number; overlay: () => HTMLElement | null }) {
  const threads = shownThreads(slideId)
  const deckThreads = [...store.state.comments.threads.values()].filter((t) => t.state === 'open' && (t.anchor.kind === 'deck' || (t.anchor.kind === 'slide' && t.anchor.slideId === slideId)))
  const [pins, setPins] = useState<PinBox[]>([])
  const expanded = store.state.comments.expanded
  const html = store.state.views.get(slideId)?.html
  // The deck's fonts arriving reflow the text: words move, and their pins are measured again.
  const [fontsLoaded, setFontsLoaded] = useState(0)
  useEffect(() => {
    const again = () => setFontsLoaded((n) => n + 1)
    document.fonts.addEventListener('loadingdone', again)
    void document.fonts.ready.then(again)
    return () => document.fonts.removeEventListener('loadingdone', again)
  }, [])
  useLayoutEffect(() => {
    const shadow = root()
    const frame = overlay()?.getBoundingClientRect()
    const next: PinBox[] = []
    for (const t of threads) {
      const a = t.anchor
      if (a.kind === 'block') {
        const item = items.find((i) => i.id === a.blockId)
        if (item) next.push({ threadId: t.id, kind: a.kind, rects: [{ x: item.box.x * scale, y: item.box.y * scale, w: item.box.w * scale, h: item.box.h * scale }] })
      } else if ((a.kind === 'range' || a.kind === 'cell') && shadow && frame) {
        const block = shadow.querySelector(`[data-block="${CSS.escape(a.blockId)}"]`)
        if (!block) continue
        const rel = (r: DOMRect) => ({ x: r.left - frame.left, y: r.top - frame.top, w: r.width, h: r.height })
        if (a.kind === 'cell') {
          const cell = cellElement(block, a.row, a.col)
          if (cell) next.push({ threadId: t.id, kind: a.kind, rects: [rel(cell.getBoundingClientRect())] })
          continue
        }
        if (t.status !== 'attached') continue
        const el = textElement(shadow, a.blockId, a.path)
        const nodes = el ? textNodes(el) : []
        const start = pointAt(nodes, a.range[0])
        const end = pointAt(nodes, a.range[1])
        if (!start || !end) continue
        const range = document.createRange()
        range.setStart(...start)
        range.setEnd(...end)
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map(rel)
        if (rects.length) next.push({ threadId: t.id, kind: a.kind, rects, text: range.toString() })
      }
    }
    setPins(next)
  }, [html, scale, fontsLoaded, threads.map((t) => `${t.id}:${JSON.stringify(t.anchor)}:${t.status}`).join(','), items])
  const label = (id: string) => {
    const t = store.state.comments.threads.get(id)
    const first = t?.comments.find((c) => c.body)
    return `Comment thread${first?.body ? ` by ${first.author}: ${shownText(first.body)}` : ''}`
  }
  return (
    <>
      {pins.map((pin) => (
        <div key={pin.threadId} class={`pin pin-${pin.kind} ${expanded === pin.threadId ? 'active' : ''}`} data-pin={pin.threadId} data-text={pin.text}>
          {pin.rects.map((r, i) => (
            <span key={i} class="pin-area" aria-hidden="true" style={{ left: `${r.x}px`, top: `${r.y}px`, width: `${r.w}px`, height: `${r.h}px` }} />
          ))}
          <button
            type="button"
            class="pin-mark"
            aria-label={label(pin.threadId)}
            // Above a range's words; beside an outlined block or cell (above it would cover the row before).
            style={pin.kind === 'range' ? { left: `${pin.rects[0].x + pin.rects[0].w - 2}px`, top: `${pin.rects[0].y - 20}px` } : { left: `${pin.rects[0].x + pin.rects[0].w + 6}px`, top: `${pin.rects[0].y}px` }}
            onPointerDown={(e) => e.stopPropagation()}
            onClick={() => openThread(pin.threadId)}
          >
            <Bubble />
          </button>
        </div>
      ))}
      {deckThreads.length ? (
        <button type="button" class="pin-badge" data-pin-badge onPointerDown={(e) => e.stopPropagation()} onClick={() => openThread(deckThreads[0].id)} aria-label={`${deckThreads.length} comment thread${deckThreads.length === 1 ? '' : 's'} on this slide or the deck`}>
          <Bubble /> {deckThreads.length}
        </button>
      ) : null}
    </>
  )
}

/** The notes' mark: the open threads on this slide's notes. */
export function NotesPins({ slideId }: { slideId: string }) {
  const threads = [...store.state.comments.threads.values()].filter((t) => t.state === 'open' && t.anchor.kind === 'notes' && t.anchor.slideId === slideId)
  if (!threads.length) return null
  return (
    <button type="button" class="pin-notes" data-pin={threads[0].id} onClick={() => openThread(threads[0].id)} aria-label={`${threads.length} comment thread${threads.length === 1 ? '' : 's'} on these notes`}>
      <Bubble /> {threads.length}
    </button>
  )
}

/** A speech bubble: the pins' mark, drawn (an emoji would need an emoji font on the machine). */
function Bubble() {
  return (
    <svg class="bubble" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d="M2 2.5h12a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H7l-3.5 3v-3H2a1 1 0 0 1-1-1v-7a1 1 0 0 1 1-1z" fill="currentColor" />
    </svg>
  )
}

/** Ctrl+Alt+M comments on the selection, wherever focus is (the text being edited keeps its selection). */
export function useCommentShortcut(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.altKey && e.code === 'KeyM') {
        e.preventDefault()
        commentOnSelection()
      }
    }
    addEventListener('keydown', onKey, true)
    return () => removeEventListener('keydown', onKey, true)
  }, [])
}
