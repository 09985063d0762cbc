/**
 * A deck's asset records (`assets/<id>.json`), read for lint, renders and exports: one reader for
 * every caller, each file read without following a link (safe-open).
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { AssetRecord } from '../model/lint.js'
import type { Workspace } from './workspace.js'
import { readAssetSync } from './safe-open.js'

/** The asset records of a deck (`assets/<id>.json`), by asset id; unreadable records are left out. */
export async function readAssetRecords(ws: Workspace, deckId: string): Promise<Record<string, AssetRecord>> {
  const dir = join(ws.deckDir(deckId), 'assets')
  if (!existsSync(dir)) return {}
  const records: Record<string, AssetRecord> = Object.create(null)
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json')) continue
    try {
      const record = JSON.parse(readAssetSync(join(dir, name)).toString('utf8'))
      if (record && typeof record === 'object' && !Array.isArray(record)) records[name.slice(0, -'.json'.length)] = record as AssetRecord
    } catch {
      // A record that is not JSON reads as no record: its pictures show up as missing alt text.
    }
  }
  return records
}
