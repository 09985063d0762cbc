/**
 * Whether a write left anything to repair, without loading the transaction code: a read's start-up
 * path pays one `readdir` of `.studio/journal`, and imports src/store/transaction.ts only when it
 * holds something.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Workspace } from './workspace.js'

/** Repairs whatever a killed write left (transaction.ts `repairPending`); [] at once when nothing is left. */
export async function repairIfPending(ws: Workspace): Promise<string[]> {
  let names: string[]
  try {
    names = readdirSync(join(ws.stateDir, 'journal'))
  } catch {
    return []
  }
  if (!names.length) return []
  const { repairPending } = await import('./transaction.js')
  return repairPending(ws)
}
