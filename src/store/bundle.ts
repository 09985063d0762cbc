/**
 * The deck bundle: one zip holding a deck folder and a manifest of its digests.
 *
 * Layout: `manifest.json` at the root, then every deck file at its path inside `decks/<id>/`
 * (`deck.json`, `slides/<slideId>.json`, `versions.json`, `comments/index.json` and `comments/<threadId>.json`, `assets/**`). The manifest
 * is `{ bundleVersion, deckId, revision, files: { <path>: <sha256 hex> } }` with the paths sorted.
 *
 * `packBundle` is deterministic: entries in sorted order after the manifest, a fixed date, fixed mode,
 * deflate level 9, no directory entries, no comments. The same files pack to the same bytes.
 *
 * `extractBundle` follows RELIABILITY.md "Bundles (zip)": it walks the whole central directory and
 * refuses before extracting anything (caps, per-entry and overall ratio, symlinks, encryption, methods,
 * unsafe or out-of-layout names: `.git` anywhere, hidden files, names past the file system's limits,
 * duplicates), reads the manifest and checks that it lists exactly the entries present, then streams
 * every entry into a temporary folder, hashing and counting as it goes. The caller moves the checked
 * files into place only after every check passed; a refused bundle leaves nothing behind.
 */
import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import * as archiverModule from 'archiver'
import type { Archiver, ArchiverOptions } from 'archiver'
import yauzl from 'yauzl'
import { fail, StudioError } from '../core/errors.js'
import { mkdirInside } from './safe-open.js'
import { parseBundleJson } from './bundle-json.js'

export const BUNDLE_VERSION = 1

/** Caps for reading (and packing). `maxRatio` is uncompressed/compressed, applied to entries over 1 MiB. */
export const BUNDLE_LIMITS = {
  maxEntries: 20000,
  maxEntryBytes: 100 * 1024 * 1024,
  maxTotalBytes: 500 * 1024 * 1024,
  maxRatio: 200,
}

export type BundleLimits = typeof BUNDLE_LIMITS

/** Entries at or below this uncompressed size are exempt from the ratio bound (small files compress well). */
const RATIO_THRESHOLD_BYTES = 1024 * 1024

const MANIFEST_NAME = 'manifest.json'

/**
 * The installed archiver (7) is CommonJS and exports a factory `archiver(format, options)`; the
 * installed @types/archiver (8) describes the class-based v8 API and has no default export. Take the
 * factory from the namespace's `default` (module.exports under Node's ESM interop and bundlers).
 */
const createArchive = (archiverModule as unknown as { default: (format: 'zip', options?: ArchiverOptions) => Archiver }).default

/**
 * The entry date. archiver writes DOS times from the UTC fields of the Date (its `forceLocalTime`
 * default is false), so this is 1980-01-01 12:00:00 in every time zone.
 */
const BUNDLE_DATE = new Date(Date.UTC(1980, 0, 1, 12))
const BUNDLE_MODE = 0o644

const DECK_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const SHA256_HEX = /^[0-9a-f]{64}$/
const ROOT_FILES = new Set([MANIFEST_NAME, 'deck.json', 'versions.json'])
/** Comment threads and the comments index (src/comments/store.ts). */
const COMMENT_FILE = /^comments\/(?:index|t-[a-z0-9]{8,16})\.json$/
/** Slide files are named by slide id (the model's SlideId pattern). */
const SLIDE_FILE = /^slides\/[A-Za-z0-9][A-Za-z0-9_-]{0,119}\.json$/
/** Assets sit at most three folders deep under assets/. */
const ASSET_FILE = /^assets(?:\/[^/]+){1,4}$/
/** Characters no entry name may hold: controls, and those Windows file systems refuse. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f<>:"|?*]/
/** The longest segment most file systems store (bytes of UTF-8), and the longest name we accept. */
const MAX_SEGMENT_BYTES = 255
const MAX_NAME_BYTES = 1024
/** JSON files (manifest, deck.json, slides, logs) are parsed in memory: each is capped. */
const MAX_JSON_BYTES = 16 * 1024 * 1024
const MANIFEST_KEYS = new Set(['bundleVersion', 'deckId', 'revision', 'files'])

export interface BundleManifest {
  bundleVersion: number
  deckId: string
  revision: number
  files: Record<string, string>
}

export interface ReadBundle {
  manifest: BundleManifest
  files: Map<string, Buffer>
}

// ---------------------------------------------------------------------------------------------
// Names

function quote(name: string): string {
  return JSON.stringify(name)
}

/**
 * Why a file name may not appear in a bundle, or null when it may. Covers path safety (absolute,
 * drive letters, backslashes, `..`, `.`, empty segments, control characters) and the layout.
 */
function nameProblem(name: string): string | null {
  const entry = `Bundle entry ${quote(name)}`
  if (name.length === 0) return 'A bundle entry has an empty name.'
  if (name.includes('\\')) return `${entry} is refused: backslashes are not allowed in entry names.`
  if (name.startsWith('/')) return `${entry} is refused: absolute paths are not allowed.`
  if (/^[A-Za-z]:/.test(name)) return `${entry} is refused: a drive letter makes it an absolute path.`
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${entry} is refused: control characters are not allowed in entry names.`
  const segments = name.split('/')
  if (segments.includes('..')) return `${entry} is refused: a ".." path segment would escape the deck folder.`
  if (segments.includes('.')) return `${entry} is refused: "." path segments are not allowed.`
  if (segments.includes('')) return `${entry} is refused: it has an empty path segment.`
  if (segments.some((segment) => /^\.git/i.test(segment))) return `${entry} is refused: git's own files (.git, .gitattributes, .gitignore, .gitmodules) can run commands on the next git call; no bundle may carry them.`
  if (segments.some((segment) => segment.startsWith('.'))) return `${entry} is refused: hidden files (a segment starting with ".") are not part of a deck.`
  if (FORBIDDEN_CHARS.test(name)) return `${entry} is refused: it holds a character file systems refuse (< > : " | ? *).`
  if (segments.some((segment) => /[ .]$/.test(segment))) return `${entry} is refused: a segment ends with a space or a dot, which some file systems drop.`
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) return `${entry.slice(0, 80)}... is refused: a segment is longer than ${MAX_SEGMENT_BYTES} bytes, the file system's limit.`
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `${entry.slice(0, 80)}... is refused: the name is longer than ${MAX_NAME_BYTES} bytes.`
  if (!ROOT_FILES.has(name) && !SLIDE_FILE.test(name) && !ASSET_FILE.test(name) && !COMMENT_FILE.test(name)) {
    return `${entry} is refused: it is outside the bundle layout (manifest.json, deck.json, versions.json, slides/<slide id>.json, comments/index.json, comments/<thread id>.json, assets/ up to three folders deep).`
  }
  return null
}

/** Tracks names seen so far and refuses exact and case-insensitive (and Unicode-normalization) duplicates. */
class NameSet {
  private readonly exact = new Set<string>()
  private readonly folded = new Map<string, string>()

  add(name: string): void {
    if (this.exact.has(name)) fail('refused', `Bundle entry ${quote(name)} is refused: the name appears more than once.`)
    const key = name.normalize('NFC').toLowerCase()
    const other = this.folded.get(key)
    if (other !== undefined) {
      fail('refused', `Bundle entry ${quote(name)} is refused: it differs from ${quote(other)} only in letter case or Unicode form, which collide on case-insensitive file systems.`)
    }
    this.exact.add(name)
    this.folded.set(key, name)
  }
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

// ---------------------------------------------------------------------------------------------
// Pack

function checkMeta(meta: { deckId: string; revision: number }): void {
  if (typeof meta.deckId !== 'string' || !DECK_ID.test(meta.deckId)) {
    fail('refused', `Cannot pack deck id ${quote(String(meta.deckId))}: it must match ${DECK_ID.source}.`)
  }
  if (!Number.isInteger(meta.revision) || meta.revision < 0) {
    fail('refused', `Cannot pack revision ${String(meta.revision)}: it must be an integer >= 0.`)
  }
}

/**
 * Zips a deck folder's files (relative path → bytes) with a manifest. Deterministic. Refuses names
 * that `readBundle` would refuse and decks beyond BUNDLE_LIMITS, so a packed bundle always reads back.
 */
export async function packBundle(files: Map<string, Buffer>, meta: { deckId: string; revision: number }): Promise<Buffer> {
  checkMeta(meta)
  const names = [...files.keys()].sort(byPath)
  const seen = new NameSet()
  seen.add(MANIFEST_NAME)
  for (const name of names) {
    const problem = nameProblem(name)
    if (problem) fail('refused', problem)
    seen.add(name)
  }
  if (!files.has('deck.json')) fail('refused', 'Cannot pack a deck without deck.json.')

  const digests: Record<string, string> = {}
  for (const name of names) digests[name] = sha256(files.get(name)!)
  const manifest: BundleManifest = { bundleVersion: BUNDLE_VERSION, deckId: meta.deckId, revision: meta.revision, files: digests }
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8')

  const entries: Array<[string, Buffer]> = [[MANIFEST_NAME, manifestBytes], ...names.map((name): [string, Buffer] => [name, files.get(name)!])]
  checkCaps(entries.map(([name, data]) => ({ name, size: data.length })), BUNDLE_LIMITS)

  const archive = createArchive('zip', { zlib: { level: 9 }, forceLocalTime: false, forceZip64: false, comment: '' })
  const chunks: Buffer[] = []
  const collected = new Promise<Buffer>((resolve, reject) => {
    archive.on('data', (chunk: Buffer) => chunks.push(chunk))
    archive.on('end', () => resolve(Buffer.concat(chunks)))
    archive.on('error', reject)
    archive.on('warning', reject)
  })
  for (const [name, data] of entries) archive.append(data, { name, date: BUNDLE_DATE, mode: BUNDLE_MODE })
  const [zip] = await Promise.all([collected, archive.finalize()])

  // The ratio bound depends on the compressed sizes: check the result the way readBundle will.
  const zipfile = await openZip(zip)
  try {
    await walkCentralDirectory(zipfile, BUNDLE_LIMITS)
  } finally {
    zipfile.close()
  }
  return zip
}

function checkCaps(entries: Array<{ name: string; size: number }>, limits: BundleLimits): void {
  if (entries.length > limits.maxEntries) {
    fail('payload_too_large', `The bundle has ${entries.length} entries; the cap is ${limits.maxEntries}.`)
  }
  let total = 0
  for (const { name, size } of entries) {
    if (size > limits.maxEntryBytes) {
      fail('payload_too_large', `Bundle entry ${quote(name)} is ${size} bytes; the cap per entry is ${limits.maxEntryBytes} bytes.`)
    }
    total += size
    if (total > limits.maxTotalBytes) {
      fail('payload_too_large', `The bundle's files total more than ${limits.maxTotalBytes} bytes (the cap), reached at entry ${quote(name)}.`)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Read

const YAUZL_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  validateEntrySizes: true,
  strictFileNames: true,
  // Entries are read after the whole directory walk; autoClose would close the file at its end.
  autoClose: false,
}

/** Turns a zip reader failure into `refused` (or the file system's error for a path that cannot be opened). */
function readerFailure(error: unknown, entryName?: string): never {
  if (error instanceof StudioError) throw error
  const errno = error as NodeJS.ErrnoException
  if (errno && typeof errno.code === 'string' && typeof errno.syscall === 'string') {
    if (errno.code === 'ENOENT') fail('not_found', `No bundle file at ${quote(String(errno.path ?? ''))}.`)
    fail('storage', `Cannot read the bundle file: ${errno.message}`)
  }
  const message = error instanceof Error ? error.message : String(error)
  // yauzl validates names itself; restate its refusals with this module's sentences.
  const named = /^(?:invalid characters in fileName|absolute path|invalid relative path): ([\s\S]*)$/.exec(message)
  if (named) fail('refused', nameProblem(named[1]!) ?? `Bundle entry ${quote(named[1]!)} is refused: ${message}.`)
  const where = entryName === undefined ? '' : ` (entry ${quote(entryName)})`
  fail('refused', `The bundle is not a readable zip${where}: ${message}`)
}

function openZip(source: string | Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, zipfile: yauzl.ZipFile) => {
      if (error) {
        try {
          readerFailure(error)
        } catch (mapped) {
          reject(mapped)
        }
        return
      }
      resolve(zipfile)
    }
    if (typeof source === 'string') yauzl.open(source, YAUZL_OPTIONS, done)
    else yauzl.fromBuffer(source, YAUZL_OPTIONS, done)
  })
}

/** Checks one central directory record against every rule that needs no data. */
function checkEntry(entry: yauzl.Entry, limits: BundleLimits): void {
  const name = entry.fileName
  const problem = nameProblem(name)
  if (problem) fail('refused', problem)
  const fileType = (entry.externalFileAttributes >>> 16) & 0o170000
  if (fileType === 0o120000) fail('refused', `Bundle entry ${quote(name)} is refused: it is a symbolic link.`)
  if (entry.generalPurposeBitFlag & 1) fail('refused', `Bundle entry ${quote(name)} is refused: it is encrypted.`)
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    fail('refused', `Bundle entry ${quote(name)} is refused: it uses compression method ${entry.compressionMethod}; only 0 (store) and 8 (deflate) are accepted.`)
  }
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    fail('payload_too_large', `Bundle entry ${quote(name)} is ${entry.uncompressedSize} bytes uncompressed; the cap per entry is ${limits.maxEntryBytes} bytes.`)
  }
  if (entry.uncompressedSize > RATIO_THRESHOLD_BYTES) {
    const ratio = entry.compressedSize === 0 ? Infinity : entry.uncompressedSize / entry.compressedSize
    if (ratio > limits.maxRatio) {
      fail('payload_too_large', `Bundle entry ${quote(name)} expands ${Number.isFinite(ratio) ? Math.round(ratio) : '∞'}:1 (${entry.compressedSize} bytes to ${entry.uncompressedSize}); the cap is ${limits.maxRatio}:1 for entries over 1 MiB.`)
    }
  }
}

/** Walks the whole central directory, refusing on the first violation. Returns the file entries (no directories). */
function walkCentralDirectory(zipfile: yauzl.ZipFile, limits: BundleLimits): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    if (zipfile.entryCount > limits.maxEntries) {
      reject(new StudioError('payload_too_large', `The bundle has ${zipfile.entryCount} entries; the cap is ${limits.maxEntries}.`))
      return
    }
    const entries: yauzl.Entry[] = []
    const names = new NameSet()
    let total = 0
    let compressed = 0
    let settled = false
    const stop = (error: unknown) => {
      if (settled) return
      settled = true
      try {
        readerFailure(error)
      } catch (mapped) {
        reject(mapped)
      }
    }
    // Stays attached after a refusal so a late reader error never goes unhandled.
    zipfile.on('error', stop)
    zipfile.on('entry', (entry: yauzl.Entry) => {
      if (settled) return
      try {
        if (entry.fileName.endsWith('/')) {
          zipfile.readEntry() // a directory entry: nothing to extract
          return
        }
        checkEntry(entry, limits)
        names.add(entry.fileName)
        total += entry.uncompressedSize
        compressed += entry.compressedSize
        if (total > limits.maxTotalBytes) {
          fail('payload_too_large', `The bundle declares more than ${limits.maxTotalBytes} bytes uncompressed (the cap), reached at entry ${quote(entry.fileName)}.`)
        }
        // Many entries each under the per-entry threshold can still be a bomb together.
        if (total > RATIO_THRESHOLD_BYTES && total > limits.maxRatio * compressed) {
          fail('payload_too_large', `The bundle expands more than ${limits.maxRatio}:1 in all (${compressed} bytes to ${total} by entry ${quote(entry.fileName)}); the cap is ${limits.maxRatio}:1.`)
        }
        entries.push(entry)
      } catch (error) {
        stop(error)
        return
      }
      zipfile.readEntry()
    })
    zipfile.on('end', () => {
      if (settled) return
      settled = true
      resolve(entries)
    })
    zipfile.readEntry()
  })
}

/** Whether an entry is parsed as JSON (and so held in memory, under MAX_JSON_BYTES). */
function isJsonEntry(name: string): boolean {
  return ROOT_FILES.has(name) || SLIDE_FILE.test(name) || COMMENT_FILE.test(name)
}

/**
 * Streams one entry to `sink` (a file, or memory for the manifest), counting bytes and hashing as
 * they come; refuses the moment it passes its declared size or a cap. Returns the sha256.
 */
async function streamEntry(zipfile: yauzl.ZipFile, entry: yauzl.Entry, limits: BundleLimits, totalSoFar: number, sink: (chunk: Buffer) => Promise<void> | void): Promise<string> {
  const name = entry.fileName
  let stream: Readable
  try {
    stream = await zipfile.openReadStreamPromise(entry)
  } catch (error) {
    readerFailure(error, name)
  }
  const hash = createHash('sha256')
  const cap = isJsonEntry(name) ? Math.min(MAX_JSON_BYTES, limits.maxEntryBytes) : limits.maxEntryBytes
  let count = 0
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer
      count += bytes.length
      if (count > entry.uncompressedSize) {
        fail('refused', `Bundle entry ${quote(name)} is refused: it inflates beyond its declared size of ${entry.uncompressedSize} bytes.`)
      }
      if (count > cap) {
        fail('payload_too_large', `Bundle entry ${quote(name)} exceeds the cap of ${cap} bytes${cap === MAX_JSON_BYTES ? ' for a JSON file' : ' per entry'}.`)
      }
      if (totalSoFar + count > limits.maxTotalBytes) {
        fail('payload_too_large', `The bundle's entries exceed the cap of ${limits.maxTotalBytes} bytes in total, reached at entry ${quote(name)}.`)
      }
      hash.update(bytes)
      await sink(bytes)
    }
  } catch (error) {
    stream.destroy()
    readerFailure(error, name)
  }
  if (count !== entry.uncompressedSize) {
    fail('refused', `Bundle entry ${quote(name)} is refused: it holds ${count} bytes but declares ${entry.uncompressedSize}.`)
  }
  return hash.digest('hex')
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function parseManifest(bytes: Buffer | undefined): BundleManifest {
  if (bytes === undefined) fail('refused', 'The bundle is refused: it has no manifest.json at its root.')
  const value = parseBundleJson(bytes, MANIFEST_NAME)
  if (!isPlainObject(value)) fail('refused', 'The bundle is refused: manifest.json is not a JSON object.')
  const { bundleVersion, deckId, revision, files } = value
  if (typeof bundleVersion === 'number' && Number.isInteger(bundleVersion) && bundleVersion > BUNDLE_VERSION) {
    fail('refused', `The bundle is refused: it has bundleVersion ${bundleVersion}, newer than this Deck Studio supports (bundleVersion ${BUNDLE_VERSION}). Upgrade Deck Studio to import it.`)
  }
  if (bundleVersion !== BUNDLE_VERSION) {
    fail('refused', `The bundle is refused: manifest.json has bundleVersion ${JSON.stringify(bundleVersion) ?? 'missing'}; the supported version is ${BUNDLE_VERSION}.`)
  }
  for (const key of Object.keys(value)) {
    if (!MANIFEST_KEYS.has(key)) fail('refused', `The bundle is refused: manifest.json has an unknown field ${quote(key)}.`)
  }
  if (typeof deckId !== 'string' || !DECK_ID.test(deckId)) {
    fail('refused', `The bundle is refused: manifest.json deckId ${JSON.stringify(deckId) ?? 'missing'} does not match ${DECK_ID.source}.`)
  }
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 0) {
    fail('refused', `The bundle is refused: manifest.json revision ${JSON.stringify(revision) ?? 'missing'} is not an integer >= 0.`)
  }
  if (!isPlainObject(files)) fail('refused', 'The bundle is refused: manifest.json "files" is not an object of path → sha256.')
  const digests = new Map<string, string>()
  for (const path of Object.keys(files).sort(byPath)) {
    const digest = files[path]
    if (typeof digest !== 'string' || !SHA256_HEX.test(digest)) {
      fail('refused', `The bundle is refused: manifest.json lists ${quote(path)} with ${JSON.stringify(digest)}, not a lowercase sha256 hex digest.`)
    }
    digests.set(path, digest)
  }
  return { bundleVersion, deckId, revision, files: Object.fromEntries(digests) }
}

export interface ExtractedBundle {
  manifest: BundleManifest
  /** The folder holding the checked files at their bundle paths (manifest.json left out). */
  dir: string
  /** The deck files' paths, sorted. */
  files: string[]
}

/**
 * Checks a bundle whole and extracts it into a new folder under `parent`: the central directory is
 * walked and refused on the first violation before any byte is written; the manifest is read first,
 * so every entry must be listed before it is extracted; then entries stream to disk, hashed and
 * counted as they come, and a wrong digest stops the stream. Memory holds one chunk at a time (and
 * the manifest). On any refusal the folder is removed. The caller moves the files into place and
 * removes the folder.
 */
export async function extractBundle(source: string | Buffer, parent: string, limits?: Partial<BundleLimits>): Promise<ExtractedBundle> {
  const caps: BundleLimits = { ...BUNDLE_LIMITS, ...limits }
  const zipfile = await openZip(source)
  let dir: string | undefined
  try {
    const entries = await walkCentralDirectory(zipfile, caps)
    const manifestEntry = entries.find((entry) => entry.fileName === MANIFEST_NAME)
    let manifestBytes: Buffer | undefined
    if (manifestEntry) {
      const chunks: Buffer[] = []
      await streamEntry(zipfile, manifestEntry, caps, 0, (chunk) => void chunks.push(chunk))
      manifestBytes = Buffer.concat(chunks)
    }
    const manifest = parseManifest(manifestBytes)
    const digests = new Map(Object.entries(manifest.files))
    const present = new Set(entries.map((entry) => entry.fileName))
    for (const path of digests.keys()) {
      if (!present.has(path)) fail('refused', `The bundle is refused: manifest.json lists ${quote(path)}, which is not in the zip.`)
    }
    for (const entry of entries) {
      if (entry !== manifestEntry && !digests.has(entry.fileName)) fail('refused', `Bundle entry ${quote(entry.fileName)} is refused: it is not listed in manifest.json.`)
    }
    if (!digests.has('deck.json')) fail('refused', 'The bundle is refused: it has no deck.json.')

    await mkdir(parent, { recursive: true })
    dir = await mkdtemp(join(parent, 'bundle-'))
    let total = manifestBytes?.length ?? 0
    for (const entry of entries) {
      if (entry === manifestEntry) continue
      const target = join(dir, entry.fileName)
      // The folder is new, but its entries are still made through no link, and the file exclusively.
      mkdirInside(dir, dirname(target))
      const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644)
      let digest: string
      try {
        digest = await streamEntry(zipfile, entry, caps, total, async (chunk) => {
          await handle.write(chunk)
        })
      } finally {
        await handle.close()
      }
      if (digest !== digests.get(entry.fileName)) fail('refused', `Bundle entry ${quote(entry.fileName)} is refused: its sha256 does not match manifest.json.`)
      total += entry.uncompressedSize
    }
    return { manifest, dir, files: [...digests.keys()].sort(byPath) }
  } catch (error) {
    if (dir) await rm(dir, { recursive: true, force: true })
    throw error
  } finally {
    zipfile.close()
  }
}

/**
 * Opens a bundle (a path or the bytes), checks it against every rule and returns the manifest and the
 * deck files in memory (relative path → bytes, without manifest.json). For tests and small tools:
 * unpacking uses `extractBundle`, which never holds the files in memory. Throws `refused` for rule
 * violations and `payload_too_large` for caps; nothing is left on disk.
 */
export async function readBundle(source: string | Buffer, limits?: Partial<BundleLimits>): Promise<ReadBundle> {
  const extracted = await extractBundle(source, join(tmpdir(), 'studio-bundles'), limits)
  try {
    const files = new Map<string, Buffer>()
    for (const path of extracted.files) files.set(path, await readFile(join(extracted.dir, path)))
    return { manifest: extracted.manifest, files }
  } finally {
    await rm(extracted.dir, { recursive: true, force: true })
  }
}
