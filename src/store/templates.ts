/**
 * Templates: shipped ones in the package's `templates/<slug>/`, organisation ones in the
 * workspace's `decks/templates/<slug>/`. A template folder is a deck folder plus `template.json`
 * (its card: name, category, cover, sentence, theme, appearance). The brand kit a template carries is
 * its deck's (`deck.json`), so a template saved from a deck with a kit lists that kit. `decks/templates/default.json`
 * names the template new presentations start from; 'blank' when absent.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fail } from '../core/errors.js'
import { packageRoot, type Workspace } from './workspace.js'
import { readDeckFolder } from './decks.js'
import type { DeckDoc } from '../model/deck.js'

export interface TemplateCard {
  id: string
  name: string
  category: string
  cover?: string
  sentence: string
  theme: string
  appearance: 'light' | 'dark'
  brandKit?: Record<string, unknown>
}

export interface TemplateInfo extends TemplateCard {
  organisation: boolean
  slides: number
  /** Absolute folder of the template. */
  dir: string
}

export const DEFAULT_TEMPLATE = 'blank'

export const shippedDir = () => join(packageRoot(), 'templates')
export const orgDir = (ws: Workspace) => join(ws.decksDir, 'templates')

async function readCard(dir: string): Promise<TemplateCard | null> {
  const file = join(dir, 'template.json')
  if (!existsSync(file)) return null
  return JSON.parse(await readFile(file, 'utf8')) as TemplateCard
}

async function folderTemplates(root: string, organisation: boolean): Promise<TemplateInfo[]> {
  let names: string[] = []
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
  } catch {
    return []
  }
  const out: TemplateInfo[] = []
  for (const name of names.sort()) {
    const dir = join(root, name)
    const card = await readCard(dir)
    if (!card) continue
    const doc = existsSync(join(dir, 'deck.json')) ? await readDeckFolder(dir) : null
    const slides = doc ? doc.manifest.sections.reduce((n, s) => n + s.slides.length, 0) : 0
    const brandKit = doc?.manifest.brandKit ?? card.brandKit
    out.push({ ...card, ...(brandKit ? { brandKit } : {}), id: name, organisation, slides, dir })
  }
  return out
}

/** Every template: shipped first, then the organisation's. */
export async function listTemplates(ws: Workspace): Promise<TemplateInfo[]> {
  return [...(await folderTemplates(shippedDir(), false)), ...(await folderTemplates(orgDir(ws), true))]
}

export async function findTemplate(ws: Workspace, id: string): Promise<TemplateInfo> {
  const found = (await listTemplates(ws)).find((t) => t.id === id)
  if (!found) fail('not_found', `No template "${id}". See \`studio template list\`.`)
  return found
}

export async function defaultTemplateId(ws: Workspace): Promise<string> {
  const file = join(orgDir(ws), 'default.json')
  if (!existsSync(file)) return DEFAULT_TEMPLATE
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as { id?: string }
    return record.id || DEFAULT_TEMPLATE
  } catch {
    return DEFAULT_TEMPLATE
  }
}

export async function readTemplateDeck(template: TemplateInfo): Promise<DeckDoc> {
  return readDeckFolder(template.dir)
}
