/**
 * In-process events of accepted writes. The engine emits `revision` after every commit; transports
 * that keep sessions (MCP streams, later the page) listen and tell their clients the deck moved.
 */
import { EventEmitter } from 'node:events'

export interface RevisionEvent {
  /** Workspace root, so a listener can ignore other workspaces in the same process. */
  root: string
  deckId: string
  revision: number
  action: string
  author: string
}

export const studioEvents = new EventEmitter()
studioEvents.setMaxListeners(0)

export function emitRevision(event: RevisionEvent): void {
  studioEvents.emit('revision', event)
}
