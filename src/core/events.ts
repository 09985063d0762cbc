/**
 * In-process events of accepted writes. The engine emits `revision` after every commit; transports
 * that keep sessions (MCP streams, the page's room) listen and tell their clients the deck moved.
 *
 * The engine also marks the decks it is writing (`markWriting`) from the first file it writes until
 * the `revision` event has gone out, so a file watcher in the same process (src/realtime/watch.ts)
 * leaves those files to the event instead of announcing the same write a second time as a foreign one.
 */
import { EventEmitter } from 'node:events'
import type { TransportLetter } from './action.js'

export interface RevisionEvent {
  /** Workspace root, so a listener can ignore other workspaces in the same process. */
  root: string
  deckId: string
  revision: number
  action: string
  author: string
  /** The transport the call came on. */
  transport: TransportLetter
  /** The page tab that made the call (window transport), when one did. */
  clientId?: string
}

/**
 * A comment write committed in this process. Comment writes move the deck's comments revision, not
 * its revision, so no `revision` event tells the room; this one does (src/actions/comment/run.ts).
 */
export interface CommentsEvent {
  root: string
  deckId: string
  /** The comments revision after the write (comment.list `since` takes it). */
  revision: number
  threadId: string
  action: string
  author: string
  transport: TransportLetter
  clientId?: string
}

/** A kill switch turned on or off in this process (admin.flag). */
export interface FlagEvent {
  root: string
  name: string
  on: boolean
}

/** A principal's presence preference changed in this process (presence.pointer). */
export interface PrincipalEvent {
  root: string
  deckId: string
  author: string
}

export const studioEvents = new EventEmitter()
studioEvents.setMaxListeners(0)

export function emitRevision(event: RevisionEvent): void {
  studioEvents.emit('revision', event)
}

export function emitComments(event: CommentsEvent): void {
  studioEvents.emit('comments', event)
}

export function emitFlag(event: FlagEvent): void {
  studioEvents.emit('flag', event)
}

export function emitPrincipal(event: PrincipalEvent): void {
  studioEvents.emit('principal', event)
}

/** Decks this process is writing now, per `<root>\0<deckId>`, with how many writes hold each. */
const writing = new Map<string, number>()

/** Marks decks as being written by this process; the returned function unmarks them (call it once). */
export function markWriting(root: string, deckIds: Iterable<string>): () => void {
  const keys = [...new Set(deckIds)].map((id) => `${root}\u0000${id}`)
  for (const key of keys) writing.set(key, (writing.get(key) ?? 0) + 1)
  let done = false
  return () => {
    if (done) return
    done = true
    for (const key of keys) {
      const left = (writing.get(key) ?? 1) - 1
      if (left > 0) writing.set(key, left)
      else writing.delete(key)
    }
  }
}

/** Whether this process is writing the deck now (between its first file and its `revision` event). */
export function isWriting(root: string, deckId: string): boolean {
  return writing.has(`${root}\u0000${deckId}`)
}
