import { readFileSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { defineAction, type ActionContext } from '../../core/action.js'
import { deckKey } from '../../core/engine.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc, Manifest, Slide, Version } from '../../model/deck.js'
import { bool, DeckId, FilePath, int, obj, opt, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { parseBundleJson } from '../../store/bundle-json.js'
import { listFiles } from '../../store/decks.js'
import { freeSiblingId } from './lifecycle.js'
import { mkdirInside, readInside, refuseLinksUnder } from '../../store/safe-open.js'
import { WITH_BUNDLE_FILE } from '../given.js'
import { parseThread } from '../../comments/store.js'

/**
 * The files of a deck folder as a bundle carries them (the version log dropped unless asked). A link
 * in the folder is refused, never packed: it could point anywhere on the machine.
 */
export async function deckBundleFiles(root: string, dir: string, versions: boolean): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  await refuseLinksUnder(root, dir)
  for (const rel of await listFiles(dir)) {
    if (!versions && rel === 'versions.json') continue
    files.set(rel, await readInside(root, join(dir, rel)))
  }
  return files
}

export const deckPack = defineAction({
  id: 'deck.pack',
  label: 'Pack a deck into a bundle',
  doc: 'Writes the deck bundle: a zip of deck.json, slides, assets, sidecars and the version log, with manifest.json (bundle version, deck id, revision, the sha256 of every file). The same deck packs to the same bytes.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  capability: 'download',
  transports: 'C',
  input: obj({
    id: DeckId,
    out: opt(FilePath('Zip path; default <id>-r<revision>.zip in the working directory.')),
    versions: opt(bool({ description: 'Carry the version log (default true; --no-versions drops it).' })),
  }),
  output: result({
    file: str({ description: 'Absolute path of the zip.' }),
    bytes: int({ minimum: 0, description: 'Its size.' }),
    revision: int({ minimum: 0, description: 'The deck revision packed.' }),
    files: int({ minimum: 0, description: 'Number of deck files.' }),
  }),
  cli: 'deck pack <id> --out <out>',
  annotations: { writes: true },
  mcp: null,
  example: { id: 'quarterly-review', out: 'quarterly-review.zip' },
  run: async (ctx, input: { id: string; out?: string; versions?: boolean }) => {
    const { doc, zip, files } = await packDeck(ctx, input.id, input.versions !== false)
    const out = resolve(input.out ?? `${input.id}-r${doc.manifest.revision}.zip`)
    const { default: writeFileAtomic } = await import('write-file-atomic')
    await writeFileAtomic(out, zip)
    return { file: out, bytes: zip.length, revision: doc.manifest.revision, files }
  },
})

/** The bundle of a deck as it is now (deck.pack, GET /api/decks/<id>/bundle, deck.push). */
export async function packDeck(ctx: ActionContext, id: string, versions = true) {
  const doc = await ctx.load(id)
  const { packBundle } = await import('../../store/bundle.js')
  const files = await deckBundleFiles(ctx.ws.root, ctx.ws.deckDir(id), versions)
  const zip = await packBundle(files, { deckId: id, revision: doc.manifest.revision })
  return { doc, zip, files: files.size }
}

/** A bundle's files as a deck document plus its binary files (assets, sidecars other than the log). */
export function bundleToDoc(files: Map<string, Buffer>): { doc: DeckDoc; extra: Map<string, Buffer> } {
  const extra = new Map<string, Buffer>()
  const doc = docOfBundle((rel) => files.get(rel)!, [...files.keys()], (rel) => extra.set(rel, files.get(rel)!))
  return { doc, extra }
}

/** Builds the deck document of a bundle's JSON files; every other file is handed to `other`. */
export function docOfBundle(read: (rel: string) => Buffer, paths: string[], other: (rel: string) => void): DeckDoc {
  const parse = <T>(rel: string): T => parseBundleJson(read(rel), rel) as T
  if (!paths.includes('deck.json')) fail('refused', 'The bundle has no deck.json.')
  const manifest = parse<Manifest>('deck.json')
  const slides: Record<string, Slide> = Object.create(null)
  for (const rel of paths) {
    if (rel.startsWith('slides/')) {
      const slide = parse<Slide>(rel)
      if (!slide || typeof slide !== 'object' || `slides/${slide.id}.json` !== rel) fail('refused', `Bundle file ${rel} holds slide ${JSON.stringify(slide?.id)}; names must match ids.`)
      slides[slide.id] = slide
    } else if (rel.startsWith('comments/')) {
      // A thread is checked whole before anything is written: a file that is not one refuses the bundle.
      const name = rel.slice('comments/'.length, -'.json'.length)
      if (name !== 'index' && !parseThread(read(rel).toString('utf8'), name)) fail('refused', `Bundle file ${rel} is not a comment thread (its id must be its name, with an anchor and comments).`)
      other(rel)
    } else if (rel !== 'deck.json' && rel !== 'versions.json') other(rel)
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) fail('refused', 'Bundle file deck.json is not a deck manifest.')
  const versions = paths.includes('versions.json') ? parse<Version[]>('versions.json') : []
  return { manifest, slides, versions }
}

export const deckUnpack = defineAction({
  id: 'deck.unpack',
  label: 'Unpack a bundle into a deck',
  doc: 'Creates a deck from a bundle zip after validating all of it (digests, manifest, paths, sizes); a refused bundle writes nothing. The id is the bundle id unless `as` names one; a taken id gets a free sibling id (<id>-2, ...) unless `replace` removes the deck holding it first.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'C',
  deck: { kind: 'none' },
  input: obj({
    file: FilePath('The bundle zip.'),
    as: opt(DeckId),
    replace: opt(bool({ description: 'Remove the deck holding the id first.' })),
  }),
  output: written({
    id: { ...DeckId, description: 'The deck id it landed under.' },
    revision: int({ minimum: 0, description: 'The bundle revision (kept as packed).' }),
    replaced: bool({ description: 'true when an existing deck was replaced.' }),
    files: int({ minimum: 0, description: 'Number of files in the bundle.' }),
    from: { ...DeckId, description: 'The deck id the bundle was packed from.' },
  }),
  cli: 'deck unpack <file> --as <as> --replace',
  annotations: { destructive: true },
  mcp: null,
  example: { file: 'quarterly-review.zip', as: 'quarterly-review-copy' },
  given: WITH_BUNDLE_FILE,
  run: (ctx: ActionContext, input: { file: string; as?: string; replace?: boolean }) => unpackInto(ctx, input.file, input),
})

/**
 * Shared by deck.unpack and the bundle endpoints: check the bundle whole into a temporary folder
 * under `.studio/tmp/`, pick the id, stage the deck (its files are moved into place by the commit).
 * Replacing keeps the deck's history going: the replaced deck continues at its current revision + 1,
 * so a writer holding an older revision is still refused.
 */
export async function unpackInto(
  ctx: ActionContext,
  source: string | Buffer,
  input: { as?: string; replace?: boolean },
) {
  const { extractBundle } = await import('../../store/bundle.js')
  const tmp = join(ctx.ws.stateDir, 'tmp')
  mkdirInside(ctx.ws.root, tmp)
  await removeStale(tmp)
  const bundle = await extractBundle(typeof source === 'string' ? resolve(source) : source, tmp)
  ctx.cleanup(() => rm(bundle.dir, { recursive: true, force: true }))
  const extra: string[] = []
  const doc = docOfBundle((rel) => readFileSync(join(bundle.dir, rel)), bundle.files, (rel) => extra.push(rel))
  const wanted = input.as ?? bundle.manifest.deckId
  const replacing = Boolean(input.replace) && ctx.ws.deckExists(wanted)
  const id = input.replace ? wanted : freeSiblingId(ctx.ws, wanted)
  doc.manifest.id = id
  if (replacing) {
    ctx.stageRemoveDir(`decks/${id}`)
    ctx.stage(id, doc)
  } else {
    ctx.stage(id, doc, { preserve: true, create: true })
  }
  for (const rel of extra) ctx.stageFile(`decks/${id}/${rel}`, { move: join(bundle.dir, rel) })
  return (docs: Map<string, DeckDoc | null>) => ({
    id,
    revision: docs.get(id)?.manifest.revision ?? bundle.manifest.revision,
    replaced: replacing,
    files: bundle.files.length,
    from: bundle.manifest.deckId,
  })
}

/** Temporary bundle folders older than an hour were left by a killed process: removed. */
async function removeStale(tmp: string): Promise<void> {
  const names = await readdir(tmp).catch(() => [] as string[])
  for (const name of names) {
    const path = join(tmp, name)
    const age = Date.now() - ((await stat(path).catch(() => null))?.mtimeMs ?? Date.now())
    if (name.startsWith('bundle-') && age > 3600_000) await rm(path, { recursive: true, force: true })
  }
}

export { deckKey }
