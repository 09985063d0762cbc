/**
 * The tail both importers share (HTML in actions/deck/import.ts, Markdown in import/run.ts): the
 * copied pictures staged beside the deck, the local report written once the commit stands, and the
 * one result shape import.run answers with.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { ActionContext } from '../core/action.js'
import type { DeckDoc } from '../model/deck.js'
import { canonicalJson } from '../store/canonical.js'
import type { ImportResult, Skipped } from '../actions/deck/import.js'

/** A picture copied in: its new asset id and file name, the path it came from (relative to the source file). */
export interface StagedAsset {
  id: string
  file: string
  source: string
  bytes: Buffer
  alt: string
}

export interface Imported {
  from: string
  into: string
  created: boolean
  section: string
  slideIds: string[]
  assets: Iterable<StagedAsset>
  skipped: Skipped[]
  at: string
  /** Fields of the report only one source format has (the Markdown dialect, ...), placed after `from`. */
  format?: string
  /** The report's line for each imported slide, by index. */
  slideReport: (slideId: string, index: number) => object
}

/**
 * Stages the assets and the report of an import, and returns the result builder the engine calls
 * with the committed decks. The report is local state (.studio/, git-ignored): written after the
 * commit, never committed.
 */
export function importResult(ctx: ActionContext, imported: Imported): (docs: Map<string, DeckDoc | null>) => ImportResult {
  const { into, created, section, slideIds, skipped, at } = imported
  const assets = [...imported.assets]
  for (const asset of assets) {
    ctx.stageFile(`decks/${into}/assets/${asset.file}`, asset.bytes)
    ctx.stageFile(`decks/${into}/assets/${asset.id}.json`, canonicalJson({ id: asset.id, role: 'picture', alt: asset.alt, source: { title: basename(asset.source) } }))
  }
  const stamp = at.replace(/[:.]/g, '-')
  let name = `${stamp}.json`
  for (let k = 2; existsSync(join(ctx.ws.stateDir, 'import', name)); k++) name = `${stamp}-${k}.json`
  const assetList = assets.map((a) => ({ id: a.id, file: `assets/${a.file}`, from: a.source, alt: a.alt }))
  ctx.after(({ revision }) => {
    mkdirSync(join(ctx.ws.stateDir, 'import'), { recursive: true })
    const slides = slideIds.map((id, i) => imported.slideReport(id, i))
    const body = { from: imported.from, ...(imported.format ? { format: imported.format } : {}), into, created, section, at, revision, slides, assets: assetList, skipped }
    writeFileSync(join(ctx.ws.stateDir, 'import', name), JSON.stringify(body, null, 2) + '\n')
  })
  return (docs) => {
    const next = docs.get(into)!
    return {
      id: into,
      created,
      section,
      slideIds,
      slides: slideIds.map((id) => next.slides[id]),
      assets: assetList.map((a) => a.id),
      skipped,
      report: `.studio/import/${name}`,
      revision: next.manifest.revision,
    }
  }
}
