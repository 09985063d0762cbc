/**
 * The registry of slide.update mutation kinds: one file per kind, each exporting `apply`.
 *
 * Like ProseMirror's `Step.jsonID`, a kind is registered once and a second registration of the same
 * name throws when the module loads. `applyMutation` dispatches on `kind`; the action (slide.update)
 * validates each step's input against its schema first and applies the list to a copy.
 */
import type { DeckDoc, Slide } from '../deck.js'
import type { Apply, Mutation, MutationResult } from './types.js'
import { apply as set } from './set.js'
import { apply as remove } from './remove.js'
import { apply as textReplace } from './text.replace.js'
import { apply as deckSet } from './deck.set.js'
import { apply as blockInsert } from './block.insert.js'
import { apply as blockRemove } from './block.remove.js'
import { apply as blockMove } from './block.move.js'
import { apply as blockReplace } from './block.replace.js'
import { apply as blockSet } from './block.set.js'
import { apply as blockPosition } from './block.position.js'
import { apply as blocksReorder } from './blocks.reorder.js'
import { apply as notesSet } from './notes.set.js'
import { apply as skipSet } from './skip.set.js'
import { apply as layoutSet } from './layout.set.js'
import { apply as backgroundSet } from './background.set.js'
import { apply as titleSet } from './title.set.js'

export type { Apply, Mutation, MutationResult } from './types.js'

const registry = new Map<string, Apply<any>>()

/** Registers a kind; a name registered twice is a bug and throws. */
export function register<M extends Mutation>(kind: M['kind'], apply: Apply<M>): void {
  if (registry.has(kind)) throw new Error(`Mutation kind "${kind}" is registered twice.`)
  registry.set(kind, apply)
}

register('set', set)
register('remove', remove)
register('text.replace', textReplace)
register('deck.set', deckSet)
register('block.insert', blockInsert)
register('block.remove', blockRemove)
register('block.move', blockMove)
register('block.replace', blockReplace)
register('block.set', blockSet)
register('block.position', blockPosition)
register('blocks.reorder', blocksReorder)
register('notes.set', notesSet)
register('skip.set', skipSet)
register('layout.set', layoutSet)
register('background.set', backgroundSet)
register('title.set', titleSet)

/** The registered kinds, in registration order. */
export function mutationKinds(): string[] {
  return [...registry.keys()]
}

/** Applies one mutation to `slide` (and `doc` for deck.set), in place. */
export function applyMutation(slide: Slide, mutation: Mutation, doc: DeckDoc): MutationResult {
  const apply = registry.get(mutation.kind)
  if (!apply) return { ok: false, message: `Unknown mutation kind "${mutation.kind}".`, pointer: '/kind' }
  return apply(slide, mutation, doc)
}
