/**
 * dispatch(): the one path every call takes, whatever the transport.
 *
 *   validate → principal → lock the deck → repair a crashed write → revision guard → lease check
 *   → handler (pure: reads, then stages) → normalize and validate the staged documents
 *   → atomic writes and one git commit → the normalized result
 *
 * A handler never writes; it stages. Nothing is written unless every step succeeded, so a stale
 * baseRevision, a bad step or a failed validation leaves the workspace exactly as it was.
 */
import { isAbsolute, join } from 'node:path'
import type { Action, ActionContext, TransportLetter } from './action.js'
import { fail, StudioError } from './errors.js'
import { principalFor, type Principal } from './principal.js'
import { emitRevision } from './events.js'
import { validateInput } from './validate.js'
import type { DeckDoc } from '../model/deck.js'
import { documentIssues, validationSchema } from '../model/check.js'
import { normalizeDoc } from '../model/normalize.js'
import { deckAssetIds } from '../model/assets.js'
import { docFiles, listFiles, readDeckFolder } from '../store/decks.js'
import { withLocks } from '../store/lock.js'
import { leaseOf } from '../store/leases.js'
import { applyChanges, journalPath, repair, type FileChange } from '../store/transaction.js'
import { RESERVED_DECK_IDS, type Workspace } from '../store/workspace.js'
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'

export interface CallOptions {
  ws: Workspace
  transport: TransportLetter
  /** The deck the call names (query `deck`, `--deck`); the workspace default when absent. */
  deck?: string
  author?: string
  force?: boolean
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
  if (!action.run) fail('not_implemented', `${action.id} is declared (milestone ${action.milestone}) but not implemented on this instance.`, { details: { implemented: false } })
  await validateInput(action.id, validationSchema(action.input), input)
  const principal = principalFor(options.author, options.transport)
  const call = new Call(action, input, options, principal)
  return call.run()
}

interface StagedDeck {
  doc: DeckDoc | null
  preserve?: boolean
  create?: boolean
}

class Call implements ActionContext {
  readonly ws: Workspace
  readonly transport: TransportLetter
  readonly force: boolean
  private readonly notes: string[] = []
  private readonly decks = new Map<string, StagedDeck>()
  private readonly files = new Map<string, string | Buffer | null>()
  private readonly copies: [string, string][] = []
  private readonly removedDirs: string[] = []
  private readonly afterFns: ((c: { revision?: number }) => void)[] = []
  private readonly loaded = new Map<string, DeckDoc>()
  private targetId: string | undefined
  private heldKeys: string[] = []
  private resolvedDeck: string | undefined

  constructor(
    readonly action: Action,
    private readonly input: Record<string, unknown>,
    private readonly options: CallOptions,
    readonly principal: Principal,
  ) {
    this.ws = options.ws
    this.transport = options.transport
    this.force = Boolean(options.force)
  }

  async deckId(): Promise<string> {
    if (this.resolvedDeck) return this.resolvedDeck
    const named = this.options.deck
    if (named !== undefined) {
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(named) || RESERVED_DECK_IDS.has(named)) fail('invalid_input', `"${named}" is not a deck id.`, { path: 'deck' })
      if (!this.ws.deckExists(named)) fail('not_found', `No deck "${named}" in ${this.ws.decksDir}.`)
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
    if (existsSync(journalPath(this.ws, deckKey(deckId))) && !this.action.mutates) {
      // A crashed write left this deck half-written: repair it under its lock before reading.
      await withLocks(this.lockDir, [deckKey(deckId)], async () => this.note(await repair(this.ws, deckKey(deckId))))
    }
    const doc = await readDeckFolder(this.ws.deckDir(deckId))
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

  stageFile(rel: string, content: string | Buffer | null): void {
    this.files.set(rel, content)
  }

  stageRemoveDir(rel: string): void {
    this.removedDirs.push(rel)
  }

  after(fn: (c: { revision?: number }) => void): void {
    this.afterFns.push(fn)
  }

  private note(text: string | null) {
    if (text) this.notes.push(text)
  }

  private get lockDir() {
    return join(this.ws.stateDir, 'locks')
  }

  /** The deck this action guards, from its declaration. */
  private async guardedDeck(): Promise<string | undefined> {
    const target = this.action.deck ?? { kind: this.action.mutates && 'baseRevision' in ((this.action.input.properties as object) ?? {}) ? 'current' : 'none' }
    if (target.kind === 'current') return this.deckId()
    if (target.kind === 'field') {
      const value = this.input[target.field]
      return typeof value === 'string' ? value : undefined
    }
    return undefined
  }

  async run(): Promise<CallResult> {
    if (!this.action.mutates) {
      const result = await this.action.run!(this, this.input)
      return { result, notes: this.notes }
    }
    this.targetId = await this.guardedDeck()
    this.heldKeys = [...(this.targetId ? [deckKey(this.targetId)] : []), ...((await this.action.locks?.(this.input)) ?? [])]
    return withLocks(this.lockDir, this.heldKeys, async () => {
      for (const key of this.heldKeys) if (key !== (this.targetId && deckKey(this.targetId))) this.note(await repair(this.ws, key))
      if (this.targetId) {
        this.note(await repair(this.ws, deckKey(this.targetId)))
        const current = await this.load(this.targetId)
        this.guard(current)
      }
      const produced = await this.action.run!(this, this.input)
      return this.commit(produced)
    })
  }

  /** A write that changes a slide another author leased is refused unless forced (whatever named it). */
  private checkLease(deckId: string, slideId: string) {
    if (this.force) return
    const lease = leaseOf(this.ws, deckId, slideId)
    if (lease && lease.author !== this.principal.author) {
      throw new StudioError('leased', `Slide "${slideId}" is leased by ${lease.author} until ${lease.until}. Retry with force to write anyway.`, {
        holder: { author: lease.author, until: lease.until, slideId },
      })
    }
  }

  private guard(current: DeckDoc) {
    const base = this.input.baseRevision
    if (typeof base !== 'number') return
    if (base !== current.manifest.revision) {
      throw new StudioError('stale_revision', `baseRevision ${base} is stale: deck "${current.manifest.id}" is at revision ${current.manifest.revision}. Re-read and retry.`, {
        currentRevision: current.manifest.revision,
        current,
      })
    }
  }

  private async commit(produced: unknown): Promise<CallResult> {
    const now = new Date().toISOString()
    const changes: FileChange[] = []
    const folders = new Set<string>()
    const extraKeys: string[] = []
    const revisions: Record<string, number> = {}
    const finalDocs = new Map<string, DeckDoc | null>()

    // Removals first: a folder replaced in the same call (a template, a deck unpacked with replace)
    // is emptied, then written again.
    for (const dir of this.removedDirs) {
      folders.add(dir)
      for (const rel of await listFiles(join(this.ws.root, dir))) changes.push({ rel: `${dir}/${rel}`, content: null })
    }
    for (const [deckId, staged] of this.decks) {
      if (!this.heldKeys.includes(deckKey(deckId))) extraKeys.push(deckKey(deckId))
      const folder = `decks/${deckId}`
      folders.add(folder)
      const before = this.loaded.get(deckId) ?? (this.ws.deckExists(deckId) ? await readDeckFolder(this.ws.deckDir(deckId)) : null)
      const oldFiles = before ? docFiles(before) : new Map<string, string>()
      if (staged.doc === null) {
        for (const rel of await listFiles(this.ws.deckDir(deckId))) changes.push({ rel: `${folder}/${rel}`, content: null })
        finalDocs.set(deckId, null)
        continue
      }
      const next = normalizeDoc(staged.doc)
      if (!staged.preserve) {
        next.manifest.revision = before ? before.manifest.revision + 1 : next.manifest.revision
        next.manifest.stamps = { createdAt: before?.manifest.stamps.createdAt ?? next.manifest.stamps?.createdAt ?? now, updatedAt: now }
      }
      const newFiles = docFiles(next)
      const changedSlides = [...newFiles.keys()].filter((rel) => rel.startsWith('slides/') && oldFiles.get(rel) !== newFiles.get(rel)).map((rel) => rel.slice(7, -5))
      const removedSlides = [...oldFiles.keys()].filter((rel) => rel.startsWith('slides/') && !newFiles.has(rel)).map((rel) => rel.slice(7, -5))
      for (const slideId of [...changedSlides, ...removedSlides]) this.checkLease(deckId, slideId)
      const [issue] = await documentIssues(next, changedSlides, { assets: () => deckAssetIds(this.ws, deckId, this.files, this.copies, this.removedDirs) })
      if (issue) fail(issue.code ?? 'invalid_input', `The resulting deck would be invalid: ${issue.pointer} ${issue.message}.`, { pointer: issue.pointer, path: issue.path })
      revisions[deckId] = next.manifest.revision
      finalDocs.set(deckId, next)
      for (const [rel, text] of newFiles) if (oldFiles.get(rel) !== text) changes.push({ rel: `${folder}/${rel}`, content: text })
      for (const rel of oldFiles.keys()) if (!newFiles.has(rel)) changes.push({ rel: `${folder}/${rel}`, content: null })
    }
    for (const [from, to] of this.copies) {
      const abs = isAbsolute(from) ? from : join(this.ws.root, from)
      folders.add(to.split('/').slice(0, 3).join('/'))
      if (existsSync(abs) && statSync(abs).isFile()) {
        changes.push({ rel: to, content: await readFile(abs) })
        continue
      }
      const files = existsSync(abs) ? await listFiles(abs) : []
      for (const rel of files) changes.push({ rel: `${to}/${rel}`, content: await readFile(join(abs, rel)) })
    }
    for (const [rel, content] of this.files) {
      folders.add(rel.split('/').slice(0, 3).join('/'))
      changes.push({ rel, content })
    }
    // A later change to the same path wins (a staged file over a copied one).
    const byPath = new Map<string, FileChange>()
    for (const change of changes) byPath.set(change.rel, change)

    const primary = this.targetId ?? [...finalDocs.keys()][0]
    const revision = primary !== undefined ? revisions[primary] : undefined
    const write = async () => {
      for (const [deckId, staged] of this.decks) {
        // A deck created by this call must not exist already (two creates raced for one id).
        if (staged.create && this.ws.deckExists(deckId)) fail('id_taken', `A deck "${deckId}" already exists.`)
      }
      for (const key of extraKeys) this.note(await repair(this.ws, key))
      await applyChanges(this.ws, [...this.heldKeys, ...extraKeys], [...folders], [...byPath.values()], {
        subject: `${this.action.id}${primary ? ` ${primary}` : ''}${revision !== undefined ? ` r${revision}` : ''}`,
        author: this.principal.author,
        trailers: {
          'Studio-Action': this.action.id,
          ...(primary ? { 'Studio-Deck': primary } : {}),
          ...(revision !== undefined ? { 'Studio-Revision': revision } : {}),
        },
      })
    }
    // A call that staged nothing (a lease) writes and commits nothing.
    if (byPath.size && extraKeys.length) await withLocks(this.lockDir, extraKeys, write)
    else if (byPath.size) await write()

    for (const fn of this.afterFns) fn({ revision })
    for (const [deckId, doc] of finalDocs) {
      if (doc) emitRevision({ root: this.ws.root, deckId, revision: doc.manifest.revision, action: this.action.id, author: this.principal.author })
    }
    let result = typeof produced === 'function' ? (produced as (docs: Map<string, DeckDoc | null>) => unknown)(finalDocs) : produced
    if (result && typeof result === 'object' && !Array.isArray(result) && revision !== undefined && !('revision' in result)) {
      result = { ...(result as object), revision }
    }
    return { result, notes: this.notes }
  }
}
