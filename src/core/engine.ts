/**
 * dispatch(): the one path every call takes, whatever the transport.
 *
 *   with accounts: the caller's role on the deck it names, and the action's capability (403)
 *   → the deck it names exists (404) → validate → principal → lock the deck → repair a crashed write → revision guard → lease check
 *   → handler (pure: reads, then stages) → normalize and validate the staged documents
 *   → atomic writes and one git commit → the normalized result
 *
 * A handler never writes; it stages. Nothing is written unless every step succeeded, so a stale
 * baseRevision, a bad step or a failed validation leaves the workspace exactly as it was.
 */
import { isAbsolute, join, resolve, sep } from 'node:path'
import { NETWORK_TRANSPORTS, type Action, type ActionContext, type Assistant, type DeckTarget, type TransportLetter } from './action.js'
import { fail, StudioError } from './errors.js'
import { principalFor, type Principal } from './principal.js'
import type { Role } from './access.js'
import type { Caller } from '../identity/caller.js'
import { emitRevision, markWriting } from './events.js'
import { validateInput } from './validate.js'
import type { DeckDoc } from '../model/deck.js'
import { documentIssues, validationSchema } from '../model/check.js'
import { normalizeDoc } from '../model/normalize.js'
import { deckAssetIds } from '../model/assets.js'
import { changedDocFiles, listFiles } from '../store/decks.js'
import { canonicalJson } from '../store/canonical.js'
import { committedDeck, noteServed, ownCommit, readBeforeMove, readDeck } from '../store/deck-cache.js'
import { plainDoc, stateOf, type DeckState } from '../store/deck-state.js'
import { withLocks } from '../store/lock.js'
import { leaseOf } from '../store/leases.js'
import type { FileChange } from '../store/transaction.js'
import { repairIfPending } from '../store/pending.js'
import { HeadMoved } from '../store/git.js'
import type { ReadPoint } from '../store/deck-store.js'
import { RESERVED_DECK_IDS, type Workspace } from '../store/workspace.js'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'

export interface CallOptions {
  ws: Workspace
  transport: TransportLetter
  /** The deck the call names (query `deck`, `--deck`); the workspace default when absent. */
  deck?: string
  author?: string
  /** The author's git address (the CLI passes git's user.email with git's user.name); derived from the name when absent. */
  email?: string
  force?: boolean
  /** The caller's role on the deck, where a transport knows one (sharing); the owner when absent (a checkout). */
  role?: Role
  /**
   * Who the request is, as the transport's edge authenticated it (src/identity/caller.ts), where the
   * studio has accounts; absent on a checkout, where every caller owns every deck.
   */
  caller?: Caller
  /**
   * The browser tab behind a window-transport call (`X-Studio-Client`: 12 lowercase base36
   * characters the tab mints and keeps in sessionStorage); absent on every other transport.
   */
  clientId?: string
  /** A language model the transport can reach (MCP sampling of a connected client), for assist.propose. */
  assistant?: () => Assistant | undefined
  /** Progress of a long call (renders), for a person watching: the CLI shows it on a TTY's stderr. */
  progress?: (done: number, total: number, label: string) => void
}

export interface CallResult<T = unknown> {
  result: T
  /** Notes for people (a repaired crash, an inferred revision); never part of the result. */
  notes: string[]
}

/** Lock key of a deck and of an organisation template. */
export const deckKey = (id: string) => `deck-${id}`
export const templateKey = (slug: string) => `template-${slug}`

export async function dispatch(action: Action, input: Record<string, unknown>, options: CallOptions): Promise<CallResult> {
  if (!action.transportSet.has(options.transport)) fail('not_found', `Action ${action.id} is not offered on this transport.`)
  // A hosted instance reads what the store holds: a write sees every change committed before it, a
  // read one at most a second old (NOTIFY and a 250 ms poll keep it fresher). A checkout is always current.
  await options.ws.store?.refresh(action.mutates ? 0 : 1000)
  // With accounts, who may call comes first (before "not built", before "no such deck": a caller with
  // no role on a deck learns nothing about it), under no lock and before any revision is compared.
  let role = options.role
  const caller = options.caller
  if (caller) {
    const { checkAccess } = await import('../identity/roles.js')
    const resolved = await checkAccess(options.ws, action, caller, action.capability ? await accessDeck(action, input, options) : undefined)
    if (resolved) role = resolved.role
  } else if (role !== undefined && role !== 'owner' && action.capability && action.capability !== 'admin') {
    // Without a caller: a checkout owns every deck and administers the studio (the owner has every
    // deck capability, so the table is not even loaded), unless the transport named a role (CallOptions.role).
    const { allowed, CAPABILITY_WORDS } = await import('./access.js')
    if (!(await allowed({ role }, action.capability, options.ws, () => deckNamed(options)))) fail('forbidden', `${action.id} needs the right to ${CAPABILITY_WORDS[action.capability]} on this deck, which your role (${role}) does not give.`)
  }
  if (!action.run) fail('not_implemented', `${action.id} is declared (milestone ${action.milestone}) but not implemented on this instance.`, { details: { implemented: false } })
  if (action.mutates) refuseMissingDeck(action, input, options)
  await validateInput(action.id, validationSchema(action.input), input)
  // A signed-in caller who names no author writes as themselves (their name, else their address).
  const who = caller?.principalId && options.author === undefined ? await (await import('../identity/principals.js')).authorOf(options.ws, caller.principalId) : undefined
  const principal = principalFor(who?.author ?? options.author, options.transport, who ? who.email : options.email, role)
  if (caller?.principalId) principal.id = caller.principalId
  // Kill switches after the role check (decision 016): a switch an admin turned on stops what it names, for
  // every transport. Only a call some switch can stop loads them: a plain read on the command line never does.
  if (action.switches || action.mutates || options.transport === 'P') {
    // A deployment on PostgreSQL reads its switches from the database, renewed at most a second old.
    await (await import('../store/flags.js')).refreshFlags(options.ws)
    ;(await import('./switches.js')).refuseSwitchedOff(options.ws, action, input, options.transport)
  }
  // Outside a workspace nothing is written: no commit, and no file (a render, an export, a bundle) in the package's folder.
  // Renders and exports of a deck keep their intermediates under the workspace's .studio/, so they are
  // refused even with --out elsewhere; export check reads a file of the caller's and writes its report
  // beside it or at --out, which ctx.outputPath holds out of the package folder.
  if (action.mutates || (action.annotations?.writes === true && input.file === undefined) || action.id === 'deck.repair') options.ws.refuseEmbeddedWrite(action.id)
  // A write a killed process left half-done is put back before anything reads (a deck whose creation
  // never committed is not listed; a revision is read after the repair, not before).
  const notes = options.ws.embedded || action.id === 'deck.repair' ? [] : await repairIfPending(options.ws)
  const call = new Call(action, input, options, principal, notes)
  // The commit that makes a signed-in person's deck names them, so a crash before the access record
  // below is written loses no ownership (src/identity/roles.ts adopts the deck from this trailer).
  if (caller?.principalId && CREATES_DECK.has(action.id)) call.trailer('Studio-Owner', caller.principalId)
  const out = await call.run()
  // A deck a signed-in person makes is theirs: its access record names them owner (after the commit).
  if (caller?.principalId && CREATES_DECK.has(action.id)) {
    const id = (out.result as { id?: unknown } | null)?.id
    if (typeof id === 'string') {
      const [{ identityOf }, { createAccessRecord }] = await Promise.all([import('../identity/db.js'), import('../identity/access-record.js')])
      const identity = await identityOf(options.ws)
      if (identity) await identity.write((tx) => createAccessRecord(tx, id, caller.principalId!))
    }
  }
  return out
}

/** Actions whose answer's `id` is a deck they made. */
const CREATES_DECK = new Set(['deck.create', 'deck.copy'])

/**
 * The deck whose access decides a call: the input field the action names its deck with (deck.trash
 * `id`, share.* `id`), else the deck the call names (--deck, ?deck=, the MCP session's), else the
 * workspace default.
 */
async function accessDeck(action: Action, input: Record<string, unknown>, options: CallOptions): Promise<string | undefined> {
  const field = action.deck?.kind === 'field' ? action.deck.field : action.accessField
  if (field) return typeof input[field] === 'string' ? (input[field] as string) : undefined
  if (options.deck !== undefined) return options.deck
  return options.ws.defaultDeckId().catch(() => undefined)
}

const DECK_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The deck a call names, else the workspace default (what ctx.deckId() answers, without its checks). */
const deckNamed = (options: CallOptions) => (options.deck !== undefined ? Promise.resolve(options.deck) : options.ws.defaultDeckId())

/** The deck an action guards (its declaration, else the current deck when it mutates with a baseRevision). */
function deckTarget(action: Action): DeckTarget {
  return action.deck ?? { kind: action.mutates && 'baseRevision' in ((action.input.properties as object) ?? {}) ? 'current' : 'none' }
}

/** The answer to a deck id that names no deck (it names no server path). */
function noDeck(id: string): never {
  fail('not_found', `No deck "${id}" in this workspace; deck.create with id "${id}" makes it (studio deck create <name> --id ${id}, MCP deck_create).`)
}

/**
 * A write to a deck that does not exist answers 404 before its input is judged: a missing or stale
 * baseRevision is not what is wrong with it, whichever transport called. Only a deck the call names
 * (--deck, ?deck=, the MCP session's, an id field) is looked up here; an id that is not a deck id is
 * left to the input check and to deckId().
 */
function refuseMissingDeck(action: Action, input: Record<string, unknown>, options: CallOptions): void {
  const target = deckTarget(action)
  const named = target.kind === 'current' ? options.deck : target.kind === 'field' ? input[target.field] : undefined
  if (typeof named !== 'string' || !DECK_ID.test(named) || RESERVED_DECK_IDS.has(named)) return
  if (!options.ws.deckExists(named)) noDeck(named)
}

const taggedAnswers = new WeakMap<object, { tag: string; out: object }>()

interface StagedDeck {
  doc: DeckDoc | null
  preserve?: boolean
  create?: boolean
}

class Call implements ActionContext {
  readonly ws: Workspace
  readonly transport: TransportLetter
  readonly force: boolean
  readonly clientId: string | undefined
  readonly caller: Caller | undefined
  private readonly decks = new Map<string, StagedDeck>()
  private readonly files = new Map<string, FileChange['content']>()
  private readonly copies: [string, string][] = []
  private readonly removedDirs: string[] = []
  private readonly afterFns: ((c: { revision?: number }) => void | Promise<void>)[] = []
  private readonly trailers = new Map<string, string>()
  private readonly cleanups: (() => Promise<unknown> | void)[] = []
  private readonly loaded = new Map<string, DeckDoc>()
  /** The states of decks this call committed. */
  private readonly written = new Map<string, DeckState>()
  private targetId: string | undefined
  private heldKeys: string[] = []
  /** What the store held once this write held its locks (the fence of its commit). */
  private point: ReadPoint = { commit: null }
  private resolvedDeck: string | undefined

  constructor(
    readonly action: Action,
    private readonly input: Record<string, unknown>,
    private readonly options: CallOptions,
    readonly principal: Principal,
    private readonly notes: string[] = [],
  ) {
    this.ws = options.ws
    this.transport = options.transport
    this.force = Boolean(options.force)
    this.clientId = options.clientId
    this.caller = options.caller
  }

  progress(done: number, total: number, label: string): void {
    this.options.progress?.(done, total, label)
  }

  assistant(): Assistant | undefined {
    return this.options.assistant?.()
  }

  async deckId(): Promise<string> {
    if (this.resolvedDeck) return this.resolvedDeck
    const named = this.options.deck
    if (named !== undefined) {
      if (!DECK_ID.test(named) || RESERVED_DECK_IDS.has(named)) fail('invalid_input', `"${named}" is not a deck id.`, { path: 'deck' })
      if (!this.ws.deckExists(named)) noDeck(named)
      this.resolvedDeck = named
    } else {
      this.resolvedDeck = await this.ws.defaultDeckId()
    }
    return this.resolvedDeck
  }

  async load(deckId: string): Promise<DeckDoc> {
    const hit = this.loaded.get(deckId)
    if (hit) return hit
    if (!this.ws.deckExists(deckId)) fail('not_found', `No deck "${deckId}".`)
    const doc = (await readDeck(this.ws, deckId)).doc()
    this.loaded.set(deckId, doc)
    return doc
  }

  async target(): Promise<DeckDoc> {
    return this.load(this.targetId ?? (await this.deckId()))
  }

  stage(deckId: string, doc: DeckDoc | null, options: { preserve?: boolean; create?: boolean } = {}): void {
    this.decks.set(deckId, { doc, ...options })
  }

  stageCopy(fromRel: string, toRel: string): void {
    this.copies.push([fromRel, toRel])
  }

  stageFile(rel: string, content: FileChange['content']): void {
    this.files.set(rel, content)
  }

  stageRemoveDir(rel: string): void {
    this.removedDirs.push(rel)
  }

  trailer(name: string, value: string): void {
    this.trailers.set(name, value)
  }

  after(fn: (c: { revision?: number }) => void | Promise<void>): void {
    this.afterFns.push(fn)
  }

  cleanup(fn: () => Promise<unknown> | void): void {
    this.cleanups.push(fn)
  }

  async inputPath(path: string, pointer: string): Promise<{ abs: string; shown: string }> {
    if (!NETWORK_TRANSPORTS.has(this.transport)) {
      const abs = resolve(path)
      return { abs, shown: abs }
    }
    const contained = await this.ws.contain(path)
    if (!contained) {
      const over = { H: 'HTTP', M: 'MCP', P: 'the page', C: 'the CLI' }[this.transport]
      fail('forbidden', `Over ${over}, ${this.action.id} reads only inside the workspace, and this path leads out of it. Name a folder relative to the workspace root (e.g. decks/<id>), or run the command on the machine itself.`, { pointer })
    }
    return { abs: contained.abs, shown: contained.rel }
  }

  async outputPath(path: string, pointer: string): Promise<{ abs: string; shown: string }> {
    const resolved = await this.inputPath(path, pointer)
    // Outside a workspace nothing lands in Deck Studio's own folder (where the embedded deck lives,
    // links followed); a file the caller names elsewhere (export check's report, --out) is theirs.
    if (this.ws.embedded && (NETWORK_TRANSPORTS.has(this.transport) || (await this.ws.contain(resolved.abs)))) this.ws.refuseEmbeddedWrite(this.action.id)
    // On every transport (the command line too): an output inside the workspace, judged where it
    // really lands (links followed), never clobbers what git and studio own.
    const inside = NETWORK_TRANSPORTS.has(this.transport) ? { rel: resolved.shown } : await this.ws.contain(resolved.abs)
    const refused = inside && ownedOutput(inside.rel.split(sep).join('/'))
    if (refused) {
      fail('forbidden', `${this.action.id} cannot write to "${refused}": decks, templates, git's files (.git, .gitattributes, .gitignore, .gitmodules), studio.json and studio's own state change only through commits or their own commands. Write under another folder of the workspace (renders go to .studio/render by default).`, { pointer })
    }
    return resolved
  }

  private note(text: string | null) {
    if (text) this.notes.push(text)
  }

  private get lockDir() {
    return join(this.ws.stateDir, 'locks')
  }

  /** The deck this action guards, from its declaration. */
  private async guardedDeck(): Promise<string | undefined> {
    const target = deckTarget(this.action)
    if (target.kind === 'current') return this.deckId()
    if (target.kind === 'field') {
      const value = this.input[target.field]
      return typeof value === 'string' ? value : undefined
    }
    return undefined
  }

  async run(): Promise<CallResult> {
    try {
      return await this.runLocked()
    } catch (error) {
      // The hosted store refused the commit (another instance came first): the refusal carries the
      // document as it is now, read once this write's locks are released.
      if (error instanceof HeadMoved && this.ws.store?.engine === 'hosted') throw await (await import('../store/deck-store.js')).refusalAfterMove(this.ws, this.targetId, error)
      throw error
    } finally {
      for (const fn of this.cleanups) await Promise.resolve(fn()).catch(() => undefined)
    }
  }

  private async runLocked(): Promise<CallResult> {
    // Slow work on the input (decoding, sanitizing: src/media/codec.ts) runs before the lock; a deck
    // it read is read again under the lock.
    const prepared = this.action.prepare ? await this.action.prepare(this, this.input) : undefined
    this.loaded.clear()
    if (!this.action.mutates) {
      const result = await this.action.run!(this, this.input, prepared)
      return { result: this.tagged(result, this.resolvedDeck), notes: this.notes }
    }
    this.targetId = await this.guardedDeck()
    this.heldKeys = [...(this.targetId ? [deckKey(this.targetId)] : []), ...((await this.action.locks?.(this.input)) ?? [])]
    // The write path's modules load here, not at start: a read never needs them.
    const { repair } = await import('../store/transaction.js')
    return withLocks(this.lockDir, this.heldKeys, async () => {
      for (const key of this.heldKeys) if (key !== (this.targetId && deckKey(this.targetId))) this.note(await repair(this.ws, key))
      if (this.targetId) this.note(await repair(this.ws, deckKey(this.targetId)))
      // What this write reads is what the branch held here: its commit lands only if the folders it
      // writes are still so (the fence, src/store/transaction.ts).
      this.point = (await import('../store/deck-store.js')).storeOf(this.ws).readPoint(this.ws)
      const target = deckTarget(this.action)
      if (this.targetId && !(target.kind === 'current' && target.guard === false)) {
        const current = await this.load(this.targetId)
        await this.guard(current)
      }
      const produced = await this.action.run!(this, this.input, prepared)
      return this.commit(produced)
    })
  }

  /** `{ currentTag }` of a document a refusal carries (and notes it given out). */
  private currentTag(current: DeckDoc): { currentTag?: string } {
    const tag = stateOf(current)?.tag()
    if (!tag) return {}
    noteServed(this.ws, tag)
    return { currentTag: tag }
  }

  /** A write that changes a slide another author leased is refused unless forced (whatever named it). */
  private checkLease(deckId: string, slideId: string, current: DeckDoc | null) {
    if (this.force) return
    const lease = leaseOf(this.ws, deckId, slideId)
    if (lease && lease.author !== this.principal.author) {
      // Like a stale revision, the refusal carries the current document, so the caller need not re-read.
      throw new StudioError('leased', `Slide "${slideId}" is leased by ${lease.author} until ${lease.until}. Retry with force to write anyway.`, {
        holder: { author: lease.author, until: lease.until, slideId },
        ...(current ? { currentRevision: current.manifest.revision, ...this.currentTag(current), current: plainDoc(current) } : {}),
      })
    }
  }

  /**
   * The revision guard. A stale baseRevision, or a baseTag that is not the current content's, answers
   * 409 with the current document. In a long-lived process whose checkout moved (a branch switch, a
   * reset: docs/storage.md), a write naming only a revision is refused too unless that content was
   * given out since the move: the same number may name another branch's content.
   */
  private async guard(current: DeckDoc) {
    const base = this.input.baseRevision
    const baseTag = this.input.baseTag
    if (typeof base !== 'number' && typeof baseTag !== 'string') return
    const state = stateOf(current)
    const id = current.manifest.id
    const revision = current.manifest.revision
    const stale = (message: string): never => {
      const tag = state?.tag()
      if (tag) noteServed(this.ws, tag)
      throw new StudioError('stale_revision', message, { currentRevision: revision, ...(tag ? { currentTag: tag } : {}), current: plainDoc(current) })
    }
    if (typeof base === 'number' && base !== revision) stale(`baseRevision ${base} is stale: deck "${id}" is at revision ${revision}. Re-read and retry.`)
    if (typeof baseTag === 'string' && state && baseTag !== state.tag()) {
      stale(`baseTag ${baseTag} is stale: deck "${id}" changed since that read (it is at revision ${revision}, tag ${state.tag()}). Re-read and retry.`)
    }
    if (typeof baseTag !== 'string' && state && (await readBeforeMove(this.ws, () => state.tag()))) {
      stale(
        `The checkout moved (a branch switch or a reset) after deck "${id}" was last read here: baseRevision ${base} may name another branch's revision ${revision}. Re-read (or send the tag of your read as baseTag / If-Match) and retry.`,
      )
    }
  }

  /** Adds the deck's version tag beside the revision of a result that reports the deck's current revision. */
  private tagged(result: unknown, deckId: string | undefined): unknown {
    if (!result || typeof result !== 'object' || Array.isArray(result) || !('revision' in result) || 'tag' in result || !deckId) return result
    const state = this.written.get(deckId) ?? (this.loaded.has(deckId) ? stateOf(this.loaded.get(deckId)!) : undefined)
    if (!state || state.manifest.revision !== (result as { revision: unknown }).revision) return result
    const tag = state.tag()
    noteServed(this.ws, tag)
    if (!Object.isFrozen(result)) return { ...(result as object), tag }
    // A frozen answer (kept with the deck's state, as deck.info's) stays one object with its tag, so a
    // transport may keep its serialization.
    const hit = taggedAnswers.get(result)
    if (hit?.tag === tag) return hit.out
    const out = Object.freeze({ ...(result as object), tag })
    taggedAnswers.set(result, { tag, out })
    return out
  }

  private async commit(produced: unknown): Promise<CallResult> {
    const [{ repair }, { lstatInside, readInside }, { refuseNewHtmlBlocks }] = await Promise.all([import('../store/transaction.js'), import('../store/safe-open.js'), import('./switches.js')])
    const now = new Date().toISOString()
    const changes: FileChange[] = []
    const extraKeys: string[] = []
    const revisions: Record<string, number> = {}
    const finalDocs = new Map<string, DeckDoc | null>()
    const changedDecks = new Set<string>()
    const befores = new Map<string, DeckDoc | null>()

    // Removals first: a folder replaced in the same call (a template, a deck unpacked with replace)
    // is emptied, then written again; a file written again is one change, not a removal.
    // Files staged beside the documents (asset records, copies): the deck folders they really change
    // count as changed decks, so such a write is still a new revision of its deck.
    const extraChanges: FileChange[] = []
    for (const [from, to] of this.copies) {
      // Read through no link: a cloned deck's assets/ may be a link to any folder of the machine.
      const abs = isAbsolute(from) ? from : join(this.ws.root, from)
      const stat = lstatInside(this.ws.root, abs)
      if (stat?.isFile()) {
        extraChanges.push({ rel: to, content: await readInside(this.ws.root, abs) })
        continue
      }
      const files = stat ? await listFiles(abs) : []
      for (const rel of files) extraChanges.push({ rel: `${to}/${rel}`, content: await readInside(this.ws.root, join(abs, rel)) })
    }
    for (const [rel, content] of this.files) extraChanges.push({ rel, content })
    const touchedDecks = new Set<string>()
    for (const change of extraChanges) {
      const match = /^decks\/([^/]+)\//.exec(change.rel)
      // Comment threads are not content: a comment write moves the comments revision, not the deck's.
      if (match && !COMMENT_FILE.test(change.rel) && !(await sameAsDisk(join(this.ws.root, change.rel), change.content))) touchedDecks.add(match[1])
    }

    const removedDirs = new Set(this.removedDirs)
    for (const dir of this.removedDirs) {
      for (const rel of await listFiles(join(this.ws.root, dir))) changes.push({ rel: `${dir}/${rel}`, content: null })
    }
    const writtenDocs = new Map<string, { before: DeckState | undefined; files: Map<string, string | null> }>()
    for (const [deckId, staged] of this.decks) {
      if (!this.heldKeys.includes(deckKey(deckId))) extraKeys.push(deckKey(deckId))
      const folder = `decks/${deckId}`
      const before = this.loaded.get(deckId) ?? (this.ws.deckExists(deckId) ? await this.load(deckId) : null)
      const beforeState = before ? stateOf(before) : undefined
      befores.set(deckId, before)
      if (staged.doc === null) {
        // Removing a deck removes every slide: each must be free of other authors' leases.
        for (const slideId of before ? Object.keys(before.slides) : []) this.checkLease(deckId, slideId, before)
        for (const rel of await listFiles(this.ws.deckDir(deckId))) changes.push({ rel: `${folder}/${rel}`, content: null })
        finalDocs.set(deckId, null)
        changedDecks.add(deckId)
        writtenDocs.set(deckId, { before: beforeState, files: new Map() })
        continue
      }
      const next = normalizeDoc(staged.doc)
      if (!staged.preserve && before) {
        next.manifest.revision = before.manifest.revision
        next.manifest.stamps = before.manifest.stamps
      }
      // A folder this call empties first is written whole; else only the files that differ.
      const emptied = removedDirs.has(folder)
      const against = emptied ? undefined : beforeState
      const files = changedDocFiles(against, next, { manifestText: Boolean(staged.preserve) })
      // The files of the emptied folder the new document does not write again are removals of this
      // write: leases are checked for those slides, and the committed state (committedDeck) drops them.
      if (emptied && beforeState) for (const [rel, text] of changedDocFiles(beforeState, next)) if (text === null) files.set(rel, null)
      if (before && !emptied && !touchedDecks.has(deckId) && files.size === 0) {
        // Nothing changed: no new revision, no commit (a value set to itself, aligned blocks aligned again).
        finalDocs.set(deckId, next)
        continue
      }
      if (!staged.preserve) {
        next.manifest.revision = before ? before.manifest.revision + 1 : next.manifest.revision
        next.manifest.stamps = { createdAt: before?.manifest.stamps.createdAt ?? next.manifest.stamps?.createdAt ?? now, updatedAt: now }
        files.set('deck.json', canonicalJson(next.manifest))
      }
      // Slides written or removed: each must be free of other authors' leases; those written are checked.
      const changedSlides: string[] = []
      for (const rel of files.keys()) if (rel.startsWith('slides/')) changedSlides.push(rel.slice(7, -5))
      for (const slideId of changedSlides) this.checkLease(deckId, slideId, before)
      const [issue] = await documentIssues(next, changedSlides.filter((id) => files.get(`slides/${id}.json`) !== null), { assets: () => deckAssetIds(this.ws, deckId, this.files, this.copies, this.removedDirs) })
      if (issue) fail(issue.code ?? 'invalid_input', `The resulting deck would be invalid: ${issue.pointer} ${issue.message}.`, { pointer: issue.pointer, path: issue.path })
      // After the model's check: only valid slides are looked at for HTML blocks.
      for (const slideId of changedSlides) if (next.slides[slideId]) refuseNewHtmlBlocks(this.ws, this.action.id, before?.slides[slideId], next.slides[slideId])
      revisions[deckId] = next.manifest.revision
      finalDocs.set(deckId, next)
      changedDecks.add(deckId)
      for (const [rel, text] of files) changes.push({ rel: `${folder}/${rel}`, content: text })
      writtenDocs.set(deckId, { before: beforeState, files })
    }
    // Every comment thread of a deck whose slides this write changes follows the change (src/comments),
    // in the same commit: an undo or a version restore brings a detached thread back the same way.
    for (const [deckId, written] of writtenDocs) {
      const before = befores.get(deckId)
      const after = finalDocs.get(deckId)
      if (!before || !after || ![...written.files.keys()].some((rel) => rel.startsWith('slides/'))) continue
      const { followThreads } = await import('../comments/store.js')
      changes.push(...followThreads(this.ws, deckId, before, after))
    }
    changes.push(...extraChanges)
    // A later change to the same path wins (a staged file over a copied one, a rewrite over a removal).
    const byPath = new Map<string, FileChange>()
    for (const change of changes) byPath.set(change.rel, change)
    // A file staged with the bytes it already has is no change.
    for (const [rel, change] of byPath) if (await sameAsDisk(join(this.ws.root, rel), change.content)) byPath.delete(rel)
    await this.refuseTrashed(byPath, finalDocs)

    const primary = this.targetId ?? [...finalDocs.keys()][0]
    const revision = primary !== undefined ? (revisions[primary] ?? finalDocs.get(primary)?.manifest.revision) : undefined
    const write = async () => {
      for (const [deckId, staged] of this.decks) {
        // A deck created by this call must not exist already (two creates raced for one id).
        if (staged.create && this.ws.deckExists(deckId)) fail('id_taken', `A deck "${deckId}" already exists.`)
      }
      for (const key of extraKeys) this.note(await repair(this.ws, key))
      const store = (await import('../store/deck-store.js')).storeOf(this.ws)
      await store.commit(this.ws, [...this.heldKeys, ...extraKeys], [...byPath.values()], {
        subject: `${this.action.id}${primary ? ` ${primary}` : ''}${revision !== undefined ? ` r${revision}` : ''}`,
        author: this.principal.author,
        email: this.principal.email,
        trailers: {
          'Studio-Action': this.action.id,
          // Which transport wrote it, so a watcher in another process can say who moved the deck.
          'Studio-Transport': this.transport,
          ...(primary ? { 'Studio-Deck': primary } : {}),
          ...(revision !== undefined ? { 'Studio-Revision': revision } : {}),
          ...Object.fromEntries(this.trailers),
        },
      }, this.point).catch(async (error) => {
        // Another writer's commit to a folder this write changes came first (this one stalled past its
        // lock, or git committed beside studio): a stale revision, with the document as it is now
        // (the hosted store's, read by run() once the locks are released).
        if (!(error instanceof HeadMoved) || store.engine === 'hosted' || !primary || !this.ws.deckExists(primary)) throw error
        const current = (await readDeck(this.ws, primary)).doc()
        throw new StudioError('stale_revision', error.message, { currentRevision: current.manifest.revision, ...this.currentTag(current), current: plainDoc(current) })
      })
    }
    // From the first file written until the revision events are out (the call's end), a watcher in this
    // process leaves these decks to the events (src/realtime/watch.ts): one write, one announcement.
    if (byPath.size) this.cleanup(markWriting(this.ws.root, [...changedDecks, ...touchedDecks]))
    // A call that staged nothing, or nothing new (a lease, a value set to itself), writes and commits nothing.
    if (byPath.size && extraKeys.length) await withLocks(this.lockDir, extraKeys, write)
    else if (byPath.size) await write()
    else if (this.decks.size || this.files.size || this.copies.length) this.note('Nothing changed: no new revision, no commit.')
    if (byPath.size) {
      // The commit landed: this process's cached decks become what it wrote (no file read back).
      ownCommit(this.ws)
      for (const [deckId, written] of writtenDocs) {
        const after = committedDeck(this.ws, deckId, written.before, finalDocs.get(deckId) ?? null, written.files)
        if (after) this.written.set(deckId, after)
      }
    }

    for (const fn of this.afterFns) await fn({ revision })
    for (const [deckId, doc] of finalDocs) {
      if (doc && byPath.size && changedDecks.has(deckId)) emitRevision({ root: this.ws.root, deckId, revision: doc.manifest.revision, action: this.action.id, author: this.principal.author, transport: this.transport, ...(this.clientId ? { clientId: this.clientId } : {}) })
    }
    let result = typeof produced === 'function' ? (produced as (docs: Map<string, DeckDoc | null>) => unknown)(finalDocs) : produced
    if (result && typeof result === 'object' && !Array.isArray(result) && revision !== undefined && !('revision' in result)) {
      result = { ...(result as object), revision }
    }
    return { result: this.tagged(result, primary), notes: this.notes }
  }

  /**
   * A trashed deck is read-only: a write that leaves it trashed and still changes its files is
   * refused, whatever staged them. Restoring (trashedAt cleared) and removing it are the way out.
   */
  private async refuseTrashed(byPath: Map<string, FileChange>, finalDocs: Map<string, DeckDoc | null>): Promise<void> {
    const touched = new Set<string>()
    for (const rel of byPath.keys()) {
      const match = /^decks\/([^/]+)\//.exec(rel)
      if (match && !RESERVED_DECK_IDS.has(match[1])) touched.add(match[1])
    }
    for (const deckId of touched) {
      const final = finalDocs.has(deckId) ? finalDocs.get(deckId) : undefined
      if (final === null) continue
      const before = this.loaded.get(deckId) ?? (this.ws.deckExists(deckId) ? await this.load(deckId) : null)
      if (before?.manifest.trashedAt && (final === undefined || final.manifest.trashedAt)) {
        fail('read_only', `Deck "${deckId}" is in the trash and cannot be changed; restore it first (studio deck restore ${deckId}).`, {
          currentRevision: before.manifest.revision,
        })
      }
    }
  }
}

/** A comment thread's file or the comments index inside a deck folder (src/comments/store.ts commentsRel): not content, it moves no deck revision. */
const COMMENT_FILE = /^decks\/[^/]+\/comments\//

/** Whether a staged change would leave the file as it is (same bytes, or a removal of nothing). */
async function sameAsDisk(abs: string, content: FileChange['content']): Promise<boolean> {
  if (content === null) return !existsSync(abs)
  if (typeof content === 'object' && !Buffer.isBuffer(content)) return false
  let current: Buffer
  try {
    current = await readFile(abs)
  } catch {
    return false
  }
  return current.equals(typeof content === 'string' ? Buffer.from(content) : content)
}

/** The folders of `.studio/` an output may write into: the outputs' own. */
const OUTPUT_STATE_DIRS = new Set(['render', 'export', 'build', 'diff'])
/** Names git reads wherever they are in the tree (attributes and ignores per folder), and its own folder. */
const GIT_NAMES = new Set(['.git', '.gitattributes', '.gitignore', '.gitmodules'])

/**
 * What of a workspace-relative output path (`/`-separated) is the workspace's own, or undefined when
 * an output may go there: the root itself, decks/, templates/, studio.json, any component git reads
 * (so a missing `.gitattributes` is never made a folder either), and `.studio/` outside its output
 * folders (kill switches, journal, locks, leases). Compared case-insensitively: on a case-insensitive
 * disk `.GitAttributes` is the same file.
 */
export function ownedOutput(rel: string): string | undefined {
  if (rel === '.' || rel === '') return '.'
  const parts = rel.split('/')
  const lower = parts.map((part) => part.toLowerCase())
  if (['decks', 'templates', 'studio.json'].includes(lower[0])) return parts[0]
  if (lower[0] === '.studio' && (parts.length < 2 || !OUTPUT_STATE_DIRS.has(lower[1]))) return parts.slice(0, 2).join('/')
  const git = lower.findIndex((part) => GIT_NAMES.has(part))
  if (git >= 0) return parts.slice(0, git + 1).join('/')
  return undefined
}
