/**
 * The rooms of the workspaces this process serves, for the presence actions: `studio serve` registers
 * its room hub (src/realtime/room.ts) under the workspace root; a process that serves none (a `studio`
 * command, `studio mcp`) has no rooms here. Kept apart from the hub so the actions load no WebSocket code.
 */

/** One participant as the room and presence.list show it. */
export interface RosterEntry {
  clientId: string
  /** The principal's label (its author name on a checkout). */
  name: string
  /** The computed avatar mark: the label's initials. */
  mark: string
  slideId: string | null
  selection: string[]
  /** In sheet units of the slide; null while off, outside, or hidden by presence.pointer. */
  pointer: { x: number; y: number } | null
  /** The client id this participant follows. */
  follow: string | null
  kind: 'page' | 'agent'
}

/** Whose page(s) an action steers: the calling tab (window transport), else every page of the author. */
export interface Steering {
  author: string
  clientId?: string
}

export interface Rooms {
  roster(deckId: string): RosterEntry[]
  /** Makes the caller's page(s) follow `target`; answers the followed participant and the pages that now follow. */
  follow(deckId: string, who: Steering, target: string): { following: RosterEntry; followers: string[] }
  /** Stops the caller's page(s) following; answers the pages that stopped. */
  unfollow(deckId: string, who: Steering): string[]
}

const served = new Map<string, Rooms>()

export function roomsFor(root: string): Rooms | undefined {
  return served.get(root)
}

/** Registers a hub for a workspace root; the returned function unregisters it. */
export function registerRooms(root: string, rooms: Rooms): () => void {
  served.set(root, rooms)
  return () => {
    if (served.get(root) === rooms) served.delete(root)
  }
}

/** Initials of a label (`Ada Lovelace` → `AL`, `agent:run-7` → `R7`), at most two, never empty. */
export function markOf(name: string): string {
  const words = name.replace(/^agent:/, '').split(/[\s._@:-]+/u).filter(Boolean)
  const letters = words.slice(0, 2).map((w) => [...w][0]!.toUpperCase())
  return letters.join('') || '?'
}
