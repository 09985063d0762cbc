/**
 * The set the last ungroup took apart, per deck, slide and group tag: local state (not part of the
 * deck, never committed) in `.studio/ungrouped.json`, so block.regroup can bring a group back whole.
 * Written after the ungroup's commit, under the deck's lock; a lost file only loses the memory.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ActionContext } from '../../core/action.js'
import type { Workspace } from '../../store/workspace.js'
import { own } from '../../model/own.js'

type Memory = Record<string, Record<string, Record<string, string[]>>>

const file = (ws: Workspace) => join(ws.stateDir, 'ungrouped.json')

function read(ws: Workspace): Memory {
  if (!existsSync(file(ws))) return {}
  try {
    const value = JSON.parse(readFileSync(file(ws), 'utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Memory) : {}
  } catch {
    return {}
  }
}

function write(ws: Workspace, memory: Memory): void {
  mkdirSync(ws.stateDir, { recursive: true })
  const temp = `${file(ws)}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(memory, null, 2) + '\n')
  renameSync(temp, file(ws))
}

/** The members a group had when it was last ungrouped, if remembered. */
export function ungroupedSet(ws: Workspace, deckId: string, slideId: string, group: string): string[] | undefined {
  const set = own(own(own(read(ws), deckId), slideId), group)
  return Array.isArray(set) ? set.filter((id) => typeof id === 'string') : undefined
}

function update(ws: Workspace, deckId: string, slideId: string, group: string, members: string[] | null): void {
  const memory = read(ws)
  // Ids from input may be names of built-ins (`constructor`): only own members count.
  const slides = own(memory, deckId) ?? (memory[deckId] = {})
  const groups = own(slides, slideId) ?? (slides[slideId] = {})
  if (members) groups[group] = members
  else delete groups[group]
  if (!Object.keys(groups).length) delete slides[slideId]
  if (!Object.keys(slides).length) delete memory[deckId]
  write(ws, memory)
}

/** Remembers a group's members once the ungroup is committed. */
export function rememberUngrouped(ctx: ActionContext, deckId: string, slideId: string, group: string, members: string[]): void {
  ctx.after(() => update(ctx.ws, deckId, slideId, group, members))
}

/** Forgets a remembered set once the regroup is committed. */
export function forgetUngrouped(ctx: ActionContext, deckId: string, slideId: string, group: string): void {
  ctx.after(() => update(ctx.ws, deckId, slideId, group, null))
}
