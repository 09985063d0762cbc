/**
 * The editor's state and the one way it changes the deck.
 *
 * Every change is an intent: a label and a function that, given the deck document as the page knows
 * it, answers the one table action to send (or why it no longer applies). `perform` sends it over the
 * window transport with the known revision; on a 409 the page takes the current document the answer
 * carries, asks the intent again and re-applies it when it still applies, or says plainly what changed
 * (the prose of diff.run between the two revisions). After each write the page refetches the document
 * and the views of the slides that changed (until the room tells it, it learns of others' writes then).
 *
 * Undo and redo are writes too, never a rewrite of history: each step sends the actions that bring the
 * parts a write touched back to how they were (slide.replace, slide.insert, slide.remove, section.set,
 * deck.set), as new revisions, and refuses plainly when someone changed those parts since.
 */
import { ApiError, call, get } from './api.js'
import type { CommentsState } from './comments.js'

export type Slide = { id: string; layout: string; blocks?: Block[]; notes?: string; skip?: boolean; title?: string; [k: string]: any }
export type Block = { id: string; kind: string; [k: string]: any }
export interface Section {
  id: string
  title: string
  slides: string[]
}
export interface Manifest {
  id: string
  title: string
  theme: string
  sections: Section[]
  revision: number
  defaults?: { appearance?: 'light' | 'dark'; counter?: boolean; notes?: string }
  guides?: { vertical?: number[]; horizontal?: number[] }
  background?: string
  brandKit?: any
  [k: string]: any
}
export interface DeckDoc {
  manifest: Manifest
  slides: Record<string, Slide>
  versions: { n: number; author: string; note: string; revision: number; at: string }[]
}
/** The view's types are the server's (src/render/view.ts): type-only, so nothing of the renderer reaches the page's bundle. */
export type { Box } from '../layout/boxes.js'
export type { ViewItem } from '../render/view.js'
import type { ViewItem } from '../render/view.js'
export interface SlideView {
  id: string
  html: string
  items: ViewItem[]
  canvas: boolean
  title: string
  /** What the view was drawn from: refetched when it differs. */
  key: string
}

export type Plan = { action: string; input: Record<string, unknown>; revision?: boolean }
/** GET /page/view's answer: `fontCss` is left out when the caller's `fontKey` is still the deck's. */
interface ViewAnswer {
  sheetCss: string
  fontCss?: string
  fontKey?: string
  slides: Omit<SlideView, 'key'>[]
}

export interface Intent {
  label: string
  /** The action to send against `doc`, or a sentence saying why the intent no longer applies. */
  plan(doc: DeckDoc): Plan | string
  /** Kept off the undo stack (undo steps themselves). */
  noUndo?: boolean
  /** A read or an action that leaves the deck as it is (exports, builds): no refetch, no undo. */
  read?: boolean
  /** Called with the result after the write and the refetch. */
  done?(result: any): void
}

export interface Message {
  id: number
  kind: 'info' | 'error' | 'changed'
  text: string
  details?: string[]
  action?: { label: string; run: () => void }
}

interface UndoEntry {
  label: string
  before: DeckDoc
  after: DeckDoc
}

export interface RosterEntry {
  clientId: string
  name: string
  mark: string
  slideId?: string | null
  selection: string[]
  pointer: { x: number; y: number } | null
  follow: string | null
  kind: 'page' | 'agent'
}

export interface State {
  route: { page: 'list' } | { page: 'signin' } | { page: 'deck'; deckId: string; slideId?: string }
  doc: DeckDoc | null
  loading: boolean
  views: Map<string, SlideView>
  sheetCss: string
  appearance: 'light' | 'dark'
  current: string | null
  selection: string[]
  editing: string | null
  mode: 'edit' | 'present' | 'presenter'
  /** This window is a presenter's audience window (follows the presenter over a BroadcastChannel). */
  audience?: boolean
  panel: 'inspector' | 'history' | 'comments'
  /** The deck's comment threads as the page knows them (src/page/comments.tsx). */
  comments: CommentsState
  /** This tab's author as the room names it (null until the room says, or with presence off). */
  me: string | null
  messages: Message[]
  busy: number
  canUndo: string | null
  canRedo: string | null
  /** Revision of the last refetch of history (the panel reloads when it moves). */
  historyStamp: number
  roster: RosterEntry[]
  room: 'off' | 'connecting' | 'live'
  following: string | null
  /** Whether this studio has accounts (an identity database); without them every caller owns every deck. */
  accounts: boolean
  /** Who the page is (account.me), with accounts. */
  account: Me | null
  /** The page's role and capabilities on the open deck (share.check); null without accounts or until known. */
  access: DeckAccess | null
  /** The open deck answered 403: the access-request screen shows instead of the editor. */
  denied: string | null
  /** The account screen or dialog open over the page. */
  dialog: 'share' | 'keys' | 'admin' | 'sessions' | null
}

export interface Me {
  principal: { id: string; kind: 'person' | 'anonymous' | 'agent' }
  trust?: string
  label: string
  mark?: string
  admin?: boolean
}
export interface DeckAccess {
  deckId: string
  role: 'owner' | 'editor' | 'commenter' | 'viewer' | null
  via?: string | null
  capabilities: string[]
}

type Listener = () => void

export class Store {
  state: State
  private listeners = new Set<Listener>()
  private undoStack: UndoEntry[] = []
  private redoStack: UndoEntry[] = []
  private nextMessage = 1
  private viewRequests = new Map<string, Promise<void>>()
  /** Serializes writes: one in flight at a time, in the order they were made. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor() {
    const saved = localStorage.getItem('studio.appearance')
    this.state = {
      route: { page: 'list' },
      doc: null,
      loading: false,
      views: new Map(),
      sheetCss: '',
      appearance: saved === 'dark' || saved === 'light' ? saved : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
      current: null,
      selection: [],
      editing: null,
      mode: 'edit',
      panel: 'inspector',
      comments: { deckId: null, threads: new Map(), revision: 0, filter: 'open', forMe: new Set(), expanded: null, draft: null },
      me: null,
      messages: [],
      busy: 0,
      canUndo: null,
      canRedo: null,
      historyStamp: 0,
      roster: [],
      room: 'off',
      following: null,
      accounts: false,
      account: null,
      access: null,
      denied: null,
      dialog: null,
    }
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  set(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch }
    for (const fn of this.listeners) fn()
  }

  get deckId(): string | undefined {
    return this.state.route.page === 'deck' ? this.state.route.deckId : undefined
  }

  // -- messages ---------------------------------------------------------------------------------

  say(text: string, kind: Message['kind'] = 'info', extra: Partial<Message> = {}): void {
    const message: Message = { id: this.nextMessage++, kind, text, ...extra }
    this.set({ messages: [...this.state.messages.slice(-4), message] })
    if (kind === 'info') setTimeout(() => this.dismiss(message.id), 6000)
  }

  dismiss(id: number): void {
    this.set({ messages: this.state.messages.filter((m) => m.id !== id) })
  }

  // -- reading ----------------------------------------------------------------------------------

  /** Opens a deck: its document, then the current slide's view first, then every other. */
  async open(deckId: string, slideId?: string): Promise<void> {
    this.undoStack = []
    this.redoStack = []
    this.set({
      route: { page: 'deck', deckId, slideId },
      doc: null,
      loading: true,
      views: new Map(),
      selection: [],
      editing: null,
      canUndo: null,
      canRedo: null,
      current: null,
      comments: { ...this.state.comments, deckId: null, threads: new Map(), revision: 0, forMe: new Set(), draft: null, expanded: null },
      access: null,
      denied: null,
    })
    try {
      // The first slide's view is asked for beside the document, so it can be shown as soon as both are here.
      const appearance = this.state.appearance
      const first = get<ViewAnswer & { revision: number }>(
        `/page/view?deck=${encodeURIComponent(deckId)}&appearance=${appearance}&${slideId ? `slides=${encodeURIComponent(slideId)}` : 'limit=1'}${this.fontQuery()}`,
      ).catch(() => null)
      const doc = await call<DeckDoc>('deck.get', {}, deckId)
      if (this.state.accounts) void this.loadAccess(deckId)
      const order = slideOrder(doc)
      const current = slideId && doc.slides[slideId] ? slideId : (order[0] ?? null)
      this.set({ doc, loading: false, current })
      const view = await first
      if (view && view.revision === doc.manifest.revision && this.deckId === deckId && appearance === this.state.appearance) {
        const views = new Map(this.state.views)
        for (const v of view.slides) views.set(v.id, { ...v, key: this.viewKey(doc, v.id) })
        this.set({ views, sheetCss: view.sheetCss })
        this.takeFonts(view)
      }
      if (current) await this.fetchViews([current])
      // The thumbnails once the slide is on screen.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
      await this.fetchViews(order)
    } catch (error) {
      this.set({ loading: false })
      if (isRefusal(error) && this.deckId === deckId) this.set({ denied: deckId })
      else this.say(messageOf(error), 'error')
    }
  }

  /** The page's role and capabilities on a deck, so it offers only what the server allows. */
  async loadAccess(deckId: string): Promise<void> {
    try {
      const access = await call<Omit<DeckAccess, 'deckId'>>('share.check', { id: deckId })
      if (this.deckId === deckId) this.set({ access: { deckId, role: access.role, via: access.via, capabilities: access.capabilities } })
    } catch (error) {
      if (isRefusal(error) && this.deckId === deckId) this.set({ denied: deckId })
    }
  }

  /** Whether the page may offer a capability on the open deck: always without accounts, else as share.check said. */
  can(capability: string): boolean {
    const { accounts, access } = this.state
    if (!accounts) return true
    return Boolean(access && access.deckId === this.deckId && access.capabilities.includes(capability))
  }

  private fonts: CSSStyleSheet | null = null
  /** The deck theme's @font-face rules (they come with the views), in the document: a shadow root does not load faces declared inside it. */
  private useFonts(css: string): void {
    if (!css) return
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    document.adoptedStyleSheets = [...document.adoptedStyleSheets.filter((s) => s !== this.fonts), sheet]
    this.fonts = sheet
  }
  private fontCss = ''
  /** The server's key of the font rules in use: a view asked for with it comes without them. */
  private fontKey = ''
  private fontQuery(): string {
    return this.fontKey ? `&fontKey=${encodeURIComponent(this.fontKey)}` : ''
  }
  private takeFonts(answer: ViewAnswer): void {
    // Left out: the rules the page holds are still the deck's.
    if (answer.fontCss === undefined) return
    this.fontKey = answer.fontKey ?? ''
    if (answer.fontCss === this.fontCss) return
    this.fontCss = answer.fontCss
    this.useFonts(answer.fontCss)
  }

  /** What a slide's view depends on, so a view is refetched exactly when its slide or the deck's look changes. */
  viewKey(doc: DeckDoc, slideId: string): string {
    const { theme, brandKit, defaults, background } = doc.manifest
    const number = slideOrder(doc).indexOf(slideId)
    return JSON.stringify([doc.slides[slideId], theme, brandKit ?? null, defaults ?? null, background ?? null, number, this.state.appearance])
  }

  /** Fetches the views of slides whose view is missing or stale, in batches. */
  async fetchViews(ids: string[]): Promise<void> {
    const doc = this.state.doc
    const deckId = this.deckId
    if (!doc || !deckId) return
    const stale = ids.filter((id) => doc.slides[id] && this.state.views.get(id)?.key !== this.viewKey(doc, id))
    const batches: string[][] = []
    for (let i = 0; i < stale.length; i += 24) batches.push(stale.slice(i, i + 24))
    await Promise.all(
      batches.map((batch) => {
        const key = `${this.state.appearance}:${batch.join(',')}:${doc.manifest.revision}`
        let request = this.viewRequests.get(key)
        if (!request) {
          request = (async () => {
            const keys = new Map(batch.map((id) => [id, this.viewKey(doc, id)]))
            const answer = await get<ViewAnswer>(
              `/page/view?deck=${encodeURIComponent(deckId)}&appearance=${this.state.appearance}&slides=${batch.map(encodeURIComponent).join(',')}${this.fontQuery()}`,
            )
            if (this.deckId !== deckId) return
            const views = new Map(this.state.views)
            for (const view of answer.slides) views.set(view.id, { ...view, key: keys.get(view.id)! })
            this.set({ views, sheetCss: answer.sheetCss })
            this.takeFonts(answer)
          })().finally(() => this.viewRequests.delete(key))
          this.viewRequests.set(key, request)
        }
        return request.catch((error) => {
          if (error instanceof ApiError && error.status === 404) return
          this.say(messageOf(error), 'error')
        })
      }),
    )
  }

  /** Rereads the document (after a write, or when the room says the deck moved) and the views that changed. */
  async refresh(): Promise<void> {
    const deckId = this.deckId
    if (!deckId) return
    const doc = await call<DeckDoc>('deck.get', {}, deckId)
    this.adopt(doc)
    await this.fetchViews(this.priorityOrder(doc))
  }

  /** Takes a document as the page's (a refetch, or the current document a 409 carried). */
  adopt(doc: DeckDoc): void {
    const order = slideOrder(doc)
    let current = this.state.current
    if (!current || !doc.slides[current]) {
      const old = this.state.doc ? slideOrder(this.state.doc) : []
      const at = current ? old.indexOf(current) : 0
      current = order[Math.min(Math.max(0, at), order.length - 1)] ?? null
    }
    const blocks = new Set((current ? (doc.slides[current]?.blocks ?? []) : []).map((b) => b.id))
    const views = new Map([...this.state.views].filter(([id]) => doc.slides[id]))
    const selection = this.state.selection.filter((id) => blocks.has(id) || ['title', 'subtitle', 'byline', 'attribution'].includes(id))
    this.set({ doc, current, views, selection, historyStamp: doc.manifest.revision })
  }

  private priorityOrder(doc: DeckDoc): string[] {
    const order = slideOrder(doc)
    const current = this.state.current
    return current ? [current, ...order.filter((id) => id !== current)] : order
  }

  // -- writing ----------------------------------------------------------------------------------

  /** Sends one intent as one table action; see the module comment for 409s. Resolves with the result, or undefined when nothing was written. */
  perform(intent: Intent): Promise<any> {
    const run = this.queue.then(() => this.performNow(intent))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async performNow(intent: Intent): Promise<any> {
    const deckId = this.deckId
    let doc = this.state.doc
    if (!deckId || !doc) return undefined
    const before = doc
    this.set({ busy: this.state.busy + 1 })
    let changedFrom: number | undefined
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const plan = intent.plan(doc)
        if (typeof plan === 'string') {
          if (changedFrom !== undefined) await this.tellChanged(changedFrom, doc.manifest.revision, `${intent.label}: not applied. ${plan}`)
          else this.say(`${intent.label}: ${plan}`, 'error')
          return undefined
        }
        const input = plan.revision === false ? plan.input : { ...plan.input, baseRevision: doc.manifest.revision }
        try {
          const result = await call(plan.action, input, deckId)
          if (intent.read) {
            intent.done?.(result)
            return result
          }
          await this.refresh()
          const after = this.state.doc!
          if (!intent.noUndo && after.manifest.revision !== before.manifest.revision) {
            this.undoStack.push({ label: intent.label, before: changedFrom !== undefined ? doc : before, after })
            if (this.undoStack.length > 100) this.undoStack.shift()
            this.redoStack = []
            this.syncUndo()
          }
          if (changedFrom !== undefined) await this.tellChanged(changedFrom, doc.manifest.revision, `${intent.label}: applied on top of the newer deck.`)
          intent.done?.(result)
          return result
        } catch (error) {
          if (error instanceof ApiError && error.status === 409 && error.code === 'stale_revision' && error.body.current) {
            changedFrom ??= doc.manifest.revision
            doc = error.body.current as DeckDoc
            this.adopt(doc)
            void this.fetchViews(this.priorityOrder(doc))
            continue
          }
          throw error
        }
      }
      this.say(`${intent.label}: the deck kept changing; try again.`, 'error')
      return undefined
    } catch (error) {
      this.say(`${intent.label}: ${messageOf(error)}`, 'error')
      // Refused: what the page may offer may have changed (a role lowered, a link revoked); ask again.
      if (isRefusal(error) && this.state.accounts) void this.loadAccess(deckId)
      if (error instanceof ApiError && error.status === 409 && error.body.current) this.adopt(error.body.current)
      return undefined
    } finally {
      this.set({ busy: this.state.busy - 1 })
    }
  }

  /** Says plainly what changed between two revisions (diff.run's prose). */
  private async tellChanged(from: number, to: number, headline: string): Promise<void> {
    let details: string[] = []
    try {
      const diff = await call<{ changes: string[] }>('diff.run', { from, to }, this.deckId)
      details = diff.changes
    } catch {
      details = []
    }
    this.say(`The deck changed while you worked (revision ${from} → ${to}). ${headline}`, 'changed', { details })
  }

  // -- undo and redo ----------------------------------------------------------------------------

  private syncUndo(): void {
    this.set({ canUndo: this.undoStack.at(-1)?.label ?? null, canRedo: this.redoStack.at(-1)?.label ?? null })
  }

  async undo(): Promise<void> {
    const entry = this.undoStack.pop()
    if (!entry) return
    this.syncUndo()
    const done = await this.transition(`Undo ${entry.label.toLowerCase()}`, entry.after, entry.before)
    // Redo goes from where the undo left the deck back to the state the undone write had made.
    if (done) this.redoStack.push({ label: entry.label, before: this.state.doc!, after: entry.after })
    else this.undoStack.push(entry)
    this.syncUndo()
  }

  async redo(): Promise<void> {
    const entry = this.redoStack.pop()
    if (!entry) return
    this.syncUndo()
    const done = await this.transition(`Redo ${entry.label.toLowerCase()}`, entry.before, entry.after)
    if (done) this.undoStack.push({ label: entry.label, before: entry.before, after: this.state.doc! })
    else this.redoStack.push(entry)
    this.syncUndo()
  }

  /**
   * Brings the parts that differ between `from` and `to` from their `from` state to their `to` state,
   * each step one action and one new revision; refuses when the deck no longer holds `from` there.
   */
  private async transition(label: string, from: DeckDoc, to: DeckDoc): Promise<boolean> {
    await this.queue
    const current = this.state.doc
    if (!current) return false
    const steps = transitionSteps(from, to)
    const conflict = transitionConflict(current, from, to)
    if (conflict) {
      this.say(`${label}: not possible, ${conflict}`, 'error')
      return false
    }
    if (!steps.length) return true
    for (const step of steps) {
      const result = await this.perform({ label, noUndo: true, plan: () => step })
      if (result === undefined) return false
    }
    return true
  }
}

/** The slide ids in deck order. */
export function slideOrder(doc: DeckDoc): string[] {
  return doc.manifest.sections.flatMap((s) => s.slides).filter((id) => doc.slides[id])
}

export function sectionOf(doc: DeckDoc, slideId: string): Section | undefined {
  return doc.manifest.sections.find((s) => s.slides.includes(slideId))
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
const MANIFEST_PATHS: [string, (m: Manifest) => unknown][] = [
  ['/title', (m) => m.title],
  ['/theme', (m) => m.theme],
  ['/defaults/appearance', (m) => m.defaults?.appearance],
  ['/defaults/counter', (m) => m.defaults?.counter],
  ['/defaults/notes', (m) => m.defaults?.notes],
]

/** The actions that bring a deck from `from` to `to` where they differ: one per changed part. */
export function transitionSteps(from: DeckDoc, to: DeckDoc): Plan[] {
  const steps: Plan[] = []
  for (const [path, read] of MANIFEST_PATHS) {
    if (!same(read(from.manifest), read(to.manifest))) steps.push({ action: 'deck.set', input: read(to.manifest) === undefined ? { path } : { path, value: read(to.manifest) } })
  }
  if (!same(from.manifest.background, to.manifest.background)) steps.push({ action: 'deck.setBackground', input: { background: to.manifest.background ?? null } })
  for (const id of Object.keys(from.slides)) if (!to.slides[id]) steps.push({ action: 'slide.remove', input: { slideId: id } })
  const order = slideOrder(to)
  for (const id of order) {
    if (from.slides[id]) continue
    const section = sectionOf(to, id)!
    const at = section.slides.indexOf(id)
    const after = section.slides.slice(0, at).reverse().find((s) => from.slides[s] || steps.some((p) => p.action === 'slide.insert' && (p.input.slide as Slide).id === s))
    steps.push({ action: 'slide.insert', input: { sectionId: section.id, ...(after ? { after } : {}), slide: to.slides[id] } })
  }
  for (const id of Object.keys(to.slides)) {
    if (from.slides[id] && !same(from.slides[id], to.slides[id])) steps.push({ action: 'slide.replace', input: { slideId: id, slide: to.slides[id] } })
  }
  const sections = (d: DeckDoc) => d.manifest.sections.map((s) => ({ id: s.id, title: s.title, slides: s.slides }))
  if (!same(sections(from), sections(to))) steps.push({ action: 'section.set', input: { sections: sections(to) } })
  return steps
}

/** Why the current deck cannot be brought from `from` to `to` (someone changed those parts since), or null. */
export function transitionConflict(current: DeckDoc, from: DeckDoc, to: DeckDoc): string | null {
  for (const [path, read] of MANIFEST_PATHS) {
    if (!same(read(from.manifest), read(to.manifest)) && !same(read(current.manifest), read(from.manifest))) return `the deck's ${path.slice(1)} changed since.`
  }
  const sections = (d: DeckDoc) => d.manifest.sections.map((s) => [s.id, s.title, s.slides])
  if (!same(sections(from), sections(to)) && !same(sections(current), sections(from))) return 'the slide order changed since.'
  const ids = new Set([...Object.keys(from.slides), ...Object.keys(to.slides)])
  for (const id of ids) {
    if (same(from.slides[id], to.slides[id])) continue
    if (!same(current.slides[id], from.slides[id])) {
      const title = (from.slides[id] ?? to.slides[id])?.id
      return current.slides[id] ? `slide ${title} changed since (someone else edited it).` : `slide ${title} was removed since.`
    }
  }
  return null
}

/** A 403 from the engine: the caller has no access (or lost it: a revoked link, an expired grant). */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message
  return error instanceof Error ? error.message : String(error)
}

export const store = new Store()
