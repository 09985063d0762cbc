/**
 * Deck folders on disk: `deck.json` (the manifest), `slides/<slideId>.json`, `versions.json` (the
 * named-version log, absent while empty) and `assets/`. Every JSON file is canonical.
 */
import { existsSync, lstatSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
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

async function readJson<T>(file: string): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') fail('not_found', `Missing file ${file}`)
    throw error
  }
  try {
    return JSON.parse(text) as T
  } catch (error) {
    fail('storage', `${file} is not valid JSON (${(error as Error).message}). Fix it by hand or restore it with git.`)
  }
}

/** Refuses a symbolic link where a deck keeps its files: it could point anywhere on the machine. */
function refuseLink(path: string): void {
  try {
    if (!lstatSync(path).isSymbolicLink()) return
  } catch {
    return
  }
  fail('storage', `${path.split('/').slice(-2).join('/')} is a symbolic link; studio does not follow links inside a deck folder. Replace it with the real file or folder.`)
}

/** Reads a deck folder (a deck, or a template's deck part). */
export async function readDeckFolder(dir: string): Promise<DeckDoc> {
  for (const part of [dir, join(dir, 'deck.json'), join(dir, 'slides'), join(dir, 'versions.json')]) refuseLink(part)
  const manifest = await readJson<Manifest>(join(dir, 'deck.json'))
  const slides: Record<string, Slide> = {}
  const entries = await readdir(join(dir, 'slides'), { withFileTypes: true }).catch(() => [])
  for (const entry of entries) if (entry.isSymbolicLink() && entry.name.endsWith('.json')) refuseLink(join(dir, 'slides', entry.name))
  const names = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => entry.name).sort()
  const read = await Promise.all(names.map((name) => readJson<Slide>(join(dir, 'slides', name))))
  for (const slide of read) slides[slide.id] = slide
  const versionsFile = join(dir, 'versions.json')
  const versions = existsSync(versionsFile) ? await readJson<Version[]>(versionsFile) : []
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
