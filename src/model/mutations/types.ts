/**
 * The contract of a slide.update mutation kind (ProseMirror's Step, in our terms): JSON in, and
 * `apply(slide, mutation, doc)` edits the slide (and for deck.set the manifest) in place, answering
 * ok or a failure with a message and the JSON pointer of the offending member *inside the mutation*
 * (the action prefixes `/mutations/<i>`). A failure is an answer, not an exception: exceptions are
 * for bugs only. Callers hand in copies, so a failed list leaves nothing behind.
 */
import type { Block, DeckDoc, Slide } from '../deck.js'

export type MutationResult = { ok: true } | { ok: false; message: string; pointer: string; code?: 'id_taken' }

export type Apply<M> = (slide: Slide, mutation: M, doc: DeckDoc) => MutationResult

export const ok: MutationResult = { ok: true }

export function failed(message: string, pointer = '', code?: 'id_taken'): MutationResult {
  return { ok: false, message, pointer, ...(code ? { code } : {}) }
}

export interface SetMutation { kind: 'set'; pointer: string; value: unknown }
export interface RemoveMutation { kind: 'remove'; pointer: string }
export interface TextReplaceMutation { kind: 'text.replace'; pointer: string; text: string }
export interface DeckSetMutation { kind: 'deck.set'; path: string; value?: unknown }
export interface BlockInsertMutation { kind: 'block.insert'; block: Block; slot?: string; after?: string }
export interface BlockRemoveMutation { kind: 'block.remove'; blockId: string }
export interface BlockMoveMutation { kind: 'block.move'; blockId: string; slot: string; after?: string }
export interface BlockReplaceMutation { kind: 'block.replace'; block: Block }
export interface BlockSetMutation { kind: 'block.set'; blockId: string; path: string; value?: unknown }
export interface BlockPositionMutation { kind: 'block.position'; blockId: string; pos: { x: number; y: number; w: number; h: number }; z?: number }
export interface BlocksReorderMutation { kind: 'blocks.reorder'; slot: string; blockIds: string[] }
export interface NotesSetMutation { kind: 'notes.set'; notes: string }
export interface SkipSetMutation { kind: 'skip.set'; skip: boolean }
export interface LayoutSetMutation { kind: 'layout.set'; layout: string }
export interface BackgroundSetMutation { kind: 'background.set'; background: string | null }
export interface TitleSetMutation { kind: 'title.set'; text: string; field?: 'title' | 'subtitle' | 'byline' }

export type Mutation =
  | SetMutation
  | RemoveMutation
  | TextReplaceMutation
  | DeckSetMutation
  | BlockInsertMutation
  | BlockRemoveMutation
  | BlockMoveMutation
  | BlockReplaceMutation
  | BlockSetMutation
  | BlockPositionMutation
  | BlocksReorderMutation
  | NotesSetMutation
  | SkipSetMutation
  | LayoutSetMutation
  | BackgroundSetMutation
  | TitleSetMutation
