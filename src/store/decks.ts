/**
 * Deck folders on disk: `deck.json` (the manifest), `slides/<slideId>.json`, `versions.json` (the
 * named-version log, absent while empty) and `assets/`. Every JSON file is canonical.
 */
import { existsSync, lstatSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fail } from '../core/errors.js'
import type { DeckDoc, Manifest, Slide, Version } from '../model/deck.js'
import { canonicalJson } from './canonical.js'

/** The JSON files of a document, keyed by their path inside the deck folder. */
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

/** Reads one JSON file; `name` is how messages call it. */
async function readJson<T>(file: string, name: string): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') fail('not_found', `Missing file ${name}`)
    fail('storage', `Cannot read ${name}${code ? ` (${code})` : ''}.`)
  }
  try {
    return JSON.parse(text) as T
  } catch (error) {
    fail('storage', `${name} is not valid JSON (${jsonProblem(error)}). Fix it by hand or restore it with git.`)
  }
}

/** Refuses a symbolic link where a deck keeps its files: it could point anywhere on the machine. */
function refuseLink(path: string, name: string): void {
  try {
    if (!lstatSync(path).isSymbolicLink()) return
  } catch {
    return
  }
  fail('storage', `${name} is a symbolic link; studio does not follow links inside a deck folder. Replace it with the real file or folder.`)
}

/**
 * Reads a deck folder (a deck, or a template's deck part). `shown` is how messages name the folder
 * (default: its own name, never the absolute path, since messages may travel to a remote caller).
 */
export async function readDeckFolder(dir: string, shown: string = basename(dir)): Promise<DeckDoc> {
  const name = (rel: string) => (rel ? `${shown}/${rel}` : shown)
  for (const rel of ['', 'deck.json', 'slides', 'versions.json']) refuseLink(rel ? join(dir, rel) : dir, name(rel) || shown)
  const manifest = await readJson<Manifest>(join(dir, 'deck.json'), name('deck.json'))
  const slides: Record<string, Slide> = {}
  const entries = await readdir(join(dir, 'slides'), { withFileTypes: true }).catch(() => [])
  for (const entry of entries) if (entry.isSymbolicLink() && entry.name.endsWith('.json')) refuseLink(join(dir, 'slides', entry.name), name(`slides/${entry.name}`))
  const names = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => entry.name).sort()
  const read = await Promise.all(names.map((file) => readJson<Slide>(join(dir, 'slides', file), name(`slides/${file}`))))
  for (const slide of read) slides[slide.id] = slide
  const versionsFile = join(dir, 'versions.json')
  const versions = existsSync(versionsFile) ? await readJson<Version[]>(versionsFile, name('versions.json')) : []
  return { manifest, slides, versions }
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
