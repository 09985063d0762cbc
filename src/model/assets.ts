/**
 * Which assets a deck holds, for the model check's picture rule (docs/model.md#assets).
 *
 * An asset exists when the deck's `assets/` folder holds its record `<assetId>.json` or a file of it:
 * `<assetId>.<ext>`, a twin or frame `<assetId>@<scale>.<ext>`, or a kept source
 * `<assetId>.source.<ext>`. A write is judged by the folder as it will be after the write: files the
 * same call stages or copies into it count, files it removes do not.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import type { Workspace } from '../store/workspace.js'

/** The asset id a file of `assets/` belongs to: its name up to the first `.` or `@`. */
export function assetIdOfFile(name: string): string | undefined {
  const id = /^([^.@/]+)[.@]/.exec(name)?.[1]
  return id || undefined
}

/** The file names directly inside a folder (none when it does not exist). */
function filesIn(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

/**
 * The asset ids deck `deckId` holds once a call's staged changes land: its `assets/` folder on disk
 * (none when the call replaces the deck folder), plus files copied or staged into it, minus files
 * staged for removal. Paths are relative to the workspace root, as the engine stages them.
 */
export function deckAssetIds(
  ws: Workspace,
  deckId: string,
  files: ReadonlyMap<string, unknown>,
  copies: readonly (readonly [string, string])[],
  removedDirs: readonly string[],
): Set<string> {
  const folder = `decks/${deckId}/assets`
  const replaced = removedDirs.some((dir) => folder === dir || folder.startsWith(`${dir}/`))
  const names = new Set(replaced ? [] : filesIn(join(ws.deckDir(deckId), 'assets')))
  for (const [from, to] of copies) {
    const source = isAbsolute(from) ? from : join(ws.root, from)
    if (to === folder) for (const name of filesIn(source)) names.add(name)
    else if (to.startsWith(`${folder}/`) && !to.slice(folder.length + 1).includes('/')) names.add(to.slice(folder.length + 1))
  }
  for (const [rel, content] of files) {
    if (!rel.startsWith(`${folder}/`) || rel.slice(folder.length + 1).includes('/')) continue
    if (content === null) names.delete(rel.slice(folder.length + 1))
    else names.add(rel.slice(folder.length + 1))
  }
  const ids = new Set<string>()
  for (const name of names) {
    const id = assetIdOfFile(name)
    if (id) ids.add(id)
  }
  return ids
}
