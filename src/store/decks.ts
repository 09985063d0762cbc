/**
 * Deck folders on disk: `deck.json` (the manifest), `slides/<slideId>.json`, `versions.json` (the
 * named-version log, absent while empty) and `assets/`. Every JSON file is canonical.
 */
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { sameJson, type DeckDoc } from '../model/deck.js'
import { slideKeys, slideMembership, touchedSlides } from '../model/slide-map.js'
import { canonicalJson } from './canonical.js'
import { fileHash, loadDeckState, plainDoc, type DeckState } from './deck-state.js'

/** The JSON files of a document, keyed by their path inside the deck folder (every slide serialized). */
export function docFiles(doc: DeckDoc): Map<string, string> {
  const files = new Map<string, string>()
  files.set('deck.json', canonicalJson(doc.manifest))
  for (const [id, slide] of Object.entries(doc.slides)) files.set(`slides/${id}.json`, canonicalJson(slide))
  if (doc.versions.length) files.set('versions.json', canonicalJson(doc.versions))
  return files
}

/**
 * What JSON.parse said, without the text it quotes (V8 writes `Unexpected token 'x', "<the file's
 * first characters>" is not valid JSON`): a message may travel to a remote caller.
 */
export function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/^Unexpected token/.test(message)) return 'unexpected token'
  if (/^Unexpected end of JSON input/.test(message)) return 'unexpected end of input'
  const position = /at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message)
  const what = message.replace(/ in JSON at position.*$/, '').replace(/ after JSON at position.*$/, ' after the value').replace(/["'].*$/, '').trim()
  if (!position) return what || 'not valid JSON'
  return position[2] ? `${what} at line ${position[2]} column ${position[3]}` : `${what} at position ${position[1]}`
}

/**
 * The files of `next` that differ from the deck as `before` holds it, by path inside the deck folder:
 * the new text, or null for a file to remove. When `next.slides` is a copy (cloneDoc) of the record
 * `before` answered, only the slides the handler touched are serialized and compared, by hash with
 * what the files hold; otherwise every slide is. The manifest is compared by value with the one read
 * (a deck.json laid out by hand but equal in value is no change). Without `before` (a new deck) every
 * file is new.
 */
export function changedDocFiles(before: DeckState | undefined, next: DeckDoc, options: { manifestText?: boolean } = {}): Map<string, string | null> {
  const out = new Map<string, string | null>()
  // The manifest is compared as a value: it is as long as the deck's section list, and a caller that
  // sets a new revision next (manifestText: false) serializes it once, after that (its entry is '' until then).
  if (!before || !sameJson(next.manifest, before.manifest)) out.set('deck.json', options.manifestText === false ? '' : canonicalJson(next.manifest))
  const versionsText = next.versions.length ? canonicalJson(next.versions) : null
  if (versionsText !== null ? !before || fileHash('versions.json', versionsText) !== before.versionsHash : Boolean(before?.versionsHash)) out.set('versions.json', versionsText)
  const cow = touchedSlides(next.slides)
  const ids = before && cow && cow.base === before.doc().slides ? [...cow.touched.keys(), ...cow.deleted] : new Set([...slideKeys(next.slides), ...(before?.ids ?? [])])
  const exists = slideMembership(next.slides)
  for (const id of ids) {
    const rel = `slides/${id}.json`
    if (exists(id)) {
      const text = canonicalJson(next.slides[id])
      if (!before?.has(id) || before.record(id)!.hash !== fileHash(rel, text)) out.set(rel, text)
    } else if (before?.has(id)) out.set(rel, null)
  }
  return out
}

/**
 * Reads a whole deck folder (a template's deck part, a folder validate.run is given) into a plain
 * document. `shown` is how messages name the folder (default: its own name, never the absolute path,
 * since messages may travel to a remote caller). Decks of the workspace are read through
 * deck-cache.ts's readDeck instead, which reads only what a call needs.
 */
export async function readDeckFolder(dir: string, shown: string = basename(dir)): Promise<DeckDoc> {
  return plainDoc(loadDeckState(dir, shown).doc())
}

/** Every file of a folder, recursively, as paths relative to it (sorted). */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  async function walk(rel: string) {
    let entries
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) out.push(path)
    }
  }
  await walk('')
  return out.sort()
}
