/**
 * Our own reader of a PowerPoint package (an OPC zip, ECMA-376 Part 2), for `export.check`.
 *
 * It reads the zip's central directory with yauzl and every XML part with saxes (a strict,
 * namespace-aware parser that expands no external or declared entities), and checks what a
 * consumer trips over first:
 *
 * - every zip entry name is a safe relative part name (no `..`, no absolute path, no backslash);
 * - `[Content_Types].xml` declares a content type for every part (an Override, or a Default for its
 *   extension);
 * - every relationship part (`_rels/.rels`, `<folder>/_rels/<part>.rels`) belongs to a part that
 *   exists, and each internal target resolves to a part in the package (External targets skipped);
 * - every `r:` attribute in a part (`r:id`, `r:embed`, `r:link`, ...) names a relationship of
 *   that part;
 * - the package relationship `officeDocument` names a presentation part, whose `p:sldIdLst`
 *   lists slides through slide relationships (the page count);
 * - every XML part is well-formed, and every raster's bytes are the format its content type says.
 *
 * Nothing is thrown for a bad package: each problem is a finding `{ path, reason }`, the path being
 * the part name (`/ppt/slides/slide1.xml`) or, for an entry that is not a part, the zip entry name.
 */
import { stat } from 'node:fs/promises'
import { posix } from 'node:path'
import type { Readable } from 'node:stream'
import { SaxesParser, type SaxesTagNS } from 'saxes'
import yauzl from 'yauzl'

export interface Finding {
  /** The part name (`/ppt/slides/slide1.xml`), or the zip entry name when it is not a part. */
  path: string
  reason: string
}

export interface PackageReport {
  /** File size in bytes. */
  size: number
  /** Parts in the package (zip entries other than folders and `[Content_Types].xml`). */
  parts: number
  /** The presentation part, when the package names one. */
  presentation?: string
  /** Entries of the presentation's slide list (`p:sldIdLst`): the page count, broken entries included. */
  pages: number
  /** The slide parts the list resolves to, in order. */
  slides: string[]
  /** Of those, slides marked hidden (`<p:sld show="0">`): LibreOffice leaves them out of a PDF. */
  hidden: number
  /** Raster formats of the image parts (`png`, `jpeg`, ...), sorted. */
  rasters: string[]
  /** Vector picture formats (`svg`, `emf`, `wmf`), sorted. */
  vectors: string[]
  /** Typefaces named by `a:latin`, `a:ea` and `a:cs` in any part (theme references like `+mn-lt` left out), sorted. */
  fonts: string[]
  /** Typefaces of `p:embeddedFontLst`, sorted. */
  embeddedFonts: string[]
  /** What makes the package invalid. */
  invalid: Finding[]
  /** What a reader tolerates but is worth knowing (an Override for a part that is absent, a part nothing points to). */
  warnings: Finding[]
}

/** Caps that keep a hostile zip from taking the machine: entry count, bytes of one XML part, bytes of XML in all. */
export interface WalkLimits {
  maxEntries: number
  maxXmlBytes: number
  maxTotalXmlBytes: number
}

export const WALK_LIMITS: WalkLimits = { maxEntries: 20_000, maxXmlBytes: 64 * 1024 * 1024, maxTotalXmlBytes: 512 * 1024 * 1024 }

export const NS = {
  contentTypes: 'http://schemas.openxmlformats.org/package/2006/content-types',
  relationships: 'http://schemas.openxmlformats.org/package/2006/relationships',
  officeRel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  strictOfficeRel: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
  drawing: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  strictDrawing: 'http://purl.oclc.org/ooxml/drawingml/main',
  presentation: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  strictPresentation: 'http://purl.oclc.org/ooxml/presentationml/main',
} as const

const RELS_CONTENT_TYPE = 'application/vnd.openxmlformats-package.relationships+xml'
const PRESENTATION_TYPES = /^application\/vnd\.(openxmlformats-officedocument\.presentationml|ms-powerpoint)\.(presentation|slideshow|template|addin)(\.macroenabled)?\.main\+xml$/i
const SLIDE_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml'
const REL_TYPE_OFFICE_DOCUMENT = /\/(officeDocument\/2006\/relationships|ooxml\/officeDocument\/relationships)\/officeDocument$/
const REL_TYPE_SLIDE = /\/(officeDocument\/2006\/relationships|ooxml\/officeDocument\/relationships)\/slide$/

/** Image content types that are vectors, not rasters. */
const VECTOR_TYPES: Record<string, string> = { 'image/svg+xml': 'svg', 'image/x-emf': 'emf', 'image/emf': 'emf', 'image/x-wmf': 'wmf', 'image/wmf': 'wmf' }

/** Magic numbers of the raster formats a content type can claim. */
const RASTER_MAGIC: Record<string, (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  gif: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  bmp: (b) => b.subarray(0, 2).toString('latin1') === 'BM',
  tiff: (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1')),
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
}

/** A raster content type's short name: `image/jpeg` → `jpeg`, `image/x-png` → `png`. */
function rasterName(contentType: string): string {
  const sub = contentType.slice('image/'.length).replace(/^x-/, '')
  return sub === 'jpg' || sub === 'pjpeg' ? 'jpeg' : sub === 'tif' ? 'tiff' : sub
}

/** Why a zip entry name is not a safe relative part name, or null. */
export function unsafeName(name: string): string | null {
  if (name.length === 0) return 'the entry has an empty name'
  if (name.includes('\\')) return 'a backslash in an entry name (a Windows path separator) is not allowed'
  if (name.startsWith('/')) return 'an absolute path is not allowed as an entry name'
  if (/^[A-Za-z]:/.test(name)) return 'a drive letter makes the entry name an absolute path'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control characters are not allowed in an entry name'
  const segments = name.replace(/\/$/, '').split('/')
  if (segments.includes('..')) return 'a ".." segment would write outside the folder the package is unpacked in'
  if (segments.includes('.')) return 'a "." segment is not allowed in a part name'
  if (segments.includes('')) return 'an empty segment ("//") is not allowed in a part name'
  return null
}

/** Part names compare without regard to ASCII case (ECMA-376-2 §6.2.2.3). */
const key = (partName: string) => partName.toLowerCase()

interface Relationship {
  id: string
  type: string
  target: string
  external: boolean
  /** The part name the target resolves to (internal targets). */
  resolved?: string
}

interface Part {
  name: string
  entry: yauzl.Entry
  contentType?: string
}

/** Reads an XML part's bytes as text, honouring a UTF-16 byte order mark. */
function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes)
}

/**
 * Parses XML, handing each start tag to `onTag`. Returns null when well-formed, else the reason
 * (with line and column). A DOCTYPE is refused: no part of a presentation has one, and refusing
 * it keeps entity tricks out.
 */
function parseXml(text: string, onTag: (tag: SaxesTagNS) => void): string | null {
  const parser = new SaxesParser({ xmlns: true, position: true })
  let problem: string | null = null
  parser.on('error', (error) => {
    problem ??= error.message
    throw error
  })
  parser.on('doctype', () => {
    problem ??= `${parser.line}:${parser.column}: a DOCTYPE is not allowed in a package part`
    throw new Error(problem)
  })
  parser.on('opentag', (tag) => onTag(tag as SaxesTagNS))
  try {
    parser.write(text).close()
  } catch (error) {
    problem ??= (error as Error).message
  }
  return problem
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are decoded and judged here (decodeStrings off): yauzl's own check would stop the whole
    // walk at the first unsafe name, and the report should name every one.
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) => (error ? reject(error) : resolve(zip)))
  })
}

function listEntries(zip: yauzl.ZipFile, max: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = []
    zip.on('error', reject)
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry)
      if (entries.length > max) resolve(entries)
      else zip.readEntry()
    })
    zip.on('end', () => resolve(entries))
    zip.readEntry()
  })
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit = Infinity): Promise<Buffer> {
  const stream: Readable = await new Promise((resolve, reject) => zip.openReadStream(entry, (error, s) => (error ? reject(error) : resolve(s))))
  const chunks: Buffer[] = []
  let length = 0
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer)
      length += (chunk as Buffer).length
      if (length >= limit) break
    }
  } finally {
    stream.destroy()
  }
  return Buffer.concat(chunks)
}

/** The name of the part a relationship part describes: `/ppt/_rels/presentation.xml.rels` → `/ppt/presentation.xml`; `/_rels/.rels` → `/`. */
function relsSource(relsName: string): string | null {
  const match = /^(.*\/)_rels\/([^/]*)\.rels$/i.exec(relsName)
  if (!match) return null
  return match[2] === '' && match[1] === '/' ? '/' : match[1]! + match[2]!
}

/** Resolves a relationship target against its source part; null when it climbs out of the package. */
function resolveTarget(source: string, target: string): string | null {
  const path = target.split('#')[0]!
  const base = source === '/' ? '/' : posix.dirname(source)
  const joined = path.startsWith('/') ? path : `${base === '/' ? '' : base}/${path}`
  const depthOk = joined
    .split('/')
    .filter(Boolean)
    .reduce((depth, segment) => (depth < 0 ? depth : segment === '..' ? depth - 1 : segment === '.' ? depth : depth + 1), 0)
  if (depthOk < 0) return null
  return posix.normalize(joined)
}

function decodePartName(name: string): string {
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/**
 * Walks the package at `file`. Never throws for what is inside the file; a file that cannot be read
 * at all (missing, not a zip) comes back with one finding at `/`.
 */
export async function walkPackage(file: string, limits: WalkLimits = WALK_LIMITS): Promise<PackageReport> {
  const report: PackageReport = { size: (await stat(file)).size, parts: 0, pages: 0, slides: [], hidden: 0, rasters: [], vectors: [], fonts: [], embeddedFonts: [], invalid: [], warnings: [] }
  const invalid = (path: string, reason: string) => report.invalid.push({ path, reason })
  let zip: yauzl.ZipFile
  try {
    zip = await openZip(file)
  } catch (error) {
    invalid('/', `the file is not a readable zip archive (${(error as Error).message}); a .pptx is a zip package`)
    return report
  }
  try {
    await walk(zip, report, invalid, limits)
  } finally {
    zip.close()
  }
  return report
}

async function walk(zip: yauzl.ZipFile, report: PackageReport, invalid: (path: string, reason: string) => void, limits: WalkLimits): Promise<void> {
  let entries: yauzl.Entry[]
  try {
    entries = await listEntries(zip, limits.maxEntries)
  } catch (error) {
    invalid('/', `the zip's central directory cannot be read: ${(error as Error).message}`)
    return
  }
  if (entries.length > limits.maxEntries) {
    invalid('/', `the package has more than ${limits.maxEntries} entries; not walked further`)
    return
  }

  // 1. Zip entries → parts.
  const parts = new Map<string, Part>()
  let contentTypesEntry: yauzl.Entry | undefined
  for (const entry of entries) {
    const raw = entry.fileName as unknown as Buffer
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true)
    entry.fileName = name
    const problem = unsafeName(name)
    if (problem) {
      invalid(name, `unsafe zip entry name: ${problem}`)
      continue
    }
    if (name.endsWith('/')) continue // a folder entry: no part
    if (entry.generalPurposeBitFlag & 1) {
      invalid(`/${name}`, 'the entry is encrypted')
      continue
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      invalid(`/${name}`, `the entry uses zip compression method ${entry.compressionMethod}; a package uses only store (0) and deflate (8)`)
      continue
    }
    if (key(name) === '[content_types].xml') {
      if (contentTypesEntry) invalid(`/${name}`, 'a second [Content_Types].xml entry')
      contentTypesEntry = entry
      continue
    }
    const partName = `/${name}`
    if (partName.split('/').some((segment) => segment.endsWith('.'))) invalid(partName, 'a part name segment may not end with a dot')
    if (parts.has(key(partName))) {
      invalid(partName, `a second entry with the same part name (names compare without case): ${parts.get(key(partName))!.name}`)
      continue
    }
    parts.set(key(partName), { name: partName, entry })
  }
  report.parts = parts.size

  let xmlBytes = 0
  const readXml = async (path: string, entry: yauzl.Entry, onTag: (tag: SaxesTagNS) => void): Promise<boolean> => {
    if (entry.uncompressedSize > limits.maxXmlBytes) {
      invalid(path, `the XML part is ${entry.uncompressedSize} bytes; parts over ${limits.maxXmlBytes} bytes are not read`)
      return false
    }
    xmlBytes += entry.uncompressedSize
    if (xmlBytes > limits.maxTotalXmlBytes) {
      invalid(path, `the package holds more than ${limits.maxTotalXmlBytes} bytes of XML; not read further`)
      return false
    }
    let text: string
    try {
      text = decodeXml(await readEntry(zip, entry))
    } catch (error) {
      invalid(path, `the part cannot be read: ${(error as Error).message}`)
      return false
    }
    const problem = parseXml(text, onTag)
    if (problem) invalid(path, `not well-formed XML: ${problem}`)
    return !problem
  }

  // 2. [Content_Types].xml: Defaults by extension, Overrides by part name.
  const defaults = new Map<string, string>()
  const overrides = new Map<string, { partName: string; contentType: string }>()
  if (!contentTypesEntry) {
    invalid('/[Content_Types].xml', 'missing: a package declares the content type of every part in [Content_Types].xml')
  } else {
    const where = '/[Content_Types].xml'
    await readXml(where, contentTypesEntry, (tag) => {
      if (tag.uri !== NS.contentTypes) return
      const attr = (name: string) => tag.attributes[name]?.value
      if (tag.local === 'Default') {
        const extension = attr('Extension')
        const contentType = attr('ContentType')
        if (!extension || !contentType) return invalid(where, `a Default without ${extension ? 'ContentType' : 'Extension'}`)
        if (defaults.has(extension.toLowerCase())) invalid(where, `two Defaults for the extension "${extension}"`)
        defaults.set(extension.toLowerCase(), contentType)
      } else if (tag.local === 'Override') {
        const partName = attr('PartName')
        const contentType = attr('ContentType')
        if (!partName || !contentType) return invalid(where, `an Override without ${partName ? 'ContentType' : 'PartName'}`)
        if (!partName.startsWith('/')) invalid(where, `the Override for "${partName}" does not start with "/"`)
        const k = key(decodePartName(partName))
        if (overrides.has(k)) invalid(where, `two Overrides for ${partName}`)
        overrides.set(k, { partName, contentType })
      }
    })
    for (const [k, { partName }] of overrides) {
      if (!parts.has(k)) report.warnings.push({ path: where, reason: `an Override names ${partName}, which is not in the package` })
    }
  }
  for (const part of parts.values()) {
    const extension = /\.([^./]+)$/.exec(part.name)?.[1]?.toLowerCase()
    part.contentType = overrides.get(key(part.name))?.contentType ?? (extension === undefined ? undefined : defaults.get(extension))
    if (contentTypesEntry && !part.contentType) {
      invalid(part.name, `no content type declared: [Content_Types].xml has no Override for this part and no Default for ${extension ? `the extension ".${extension}"` : 'parts without an extension'}`)
    }
  }

  // 3. Relationship parts, each belonging to a part (or to the package).
  const rels = new Map<string, Map<string, Relationship>>()
  const targeted = new Set<string>()
  for (const part of parts.values()) {
    const source = relsSource(part.name)
    if (source === null) continue
    if (part.contentType && part.contentType.toLowerCase() !== RELS_CONTENT_TYPE) invalid(part.name, `a relationship part declared as ${part.contentType}, not ${RELS_CONTENT_TYPE}`)
    if (source !== '/' && !parts.has(key(source))) invalid(part.name, `the relationships of ${source}, which is not in the package`)
    const list = new Map<string, Relationship>()
    rels.set(key(source), list)
    await readXml(part.name, part.entry, (tag) => {
      if (tag.uri !== NS.relationships || tag.local !== 'Relationship') return
      const attr = (name: string) => tag.attributes[name]?.value
      const id = attr('Id')
      const type = attr('Type')
      const target = attr('Target')
      if (!id || !type || target === undefined) return invalid(part.name, `a Relationship without ${[!id && 'Id', !type && 'Type', target === undefined && 'Target'].filter(Boolean).join(', ')}`)
      if (list.has(id)) invalid(part.name, `two relationships with the Id ${id}`)
      const external = attr('TargetMode') === 'External'
      const relationship: Relationship = { id, type, target, external }
      list.set(id, relationship)
      if (external) return
      const kind = type.split('/').pop()
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return invalid(part.name, `relationship ${id} (${kind}) has the absolute URI ${target} without TargetMode="External"`)
      const resolved = resolveTarget(source, target)
      if (resolved === null) return invalid(part.name, `relationship ${id} (${kind}) targets ${target}, which climbs out of the package`)
      const found = parts.get(key(resolved)) ?? parts.get(key(decodePartName(resolved)))
      if (!found) return invalid(part.name, `relationship ${id} (${kind}) targets ${resolved}, which is not in the package`)
      relationship.resolved = found.name
      targeted.add(key(found.name))
    })
  }

  // 4. Every other XML part: well-formed, its r: attributes name its relationships, fonts, slide list.
  const fonts = new Set<string>()
  const embedded = new Set<string>()
  const slideRefs: string[] = []
  const hiddenSlides = new Set<string>()
  const packageRels = rels.get('/')
  const main = [...(packageRels?.values() ?? [])].find((r) => REL_TYPE_OFFICE_DOCUMENT.test(r.type))
  const mainPart = main?.resolved
  if (!packageRels) invalid('/_rels/.rels', 'missing: the package relationships name the presentation part')
  else if (!main) invalid('/_rels/.rels', 'no officeDocument relationship: the package names no presentation part')
  if (mainPart) {
    report.presentation = mainPart
    const type = parts.get(key(mainPart))?.contentType
    if (type && !PRESENTATION_TYPES.test(type)) invalid(mainPart, `the officeDocument part is ${type}, not a presentation`)
  }
  for (const part of parts.values()) {
    const type = part.contentType?.toLowerCase() ?? ''
    if (relsSource(part.name) !== null) continue
    if (type.startsWith('image/')) {
      await checkImage(zip, part, type, report, invalid)
      continue
    }
    if (!/[/+]xml$/.test(type)) continue
    const own = rels.get(key(part.name))
    const isMain = mainPart !== undefined && key(part.name) === key(mainPart)
    const isSlide = type === SLIDE_TYPE
    const reported = new Set<string>()
    await readXml(part.name, part.entry, (tag) => {
      for (const attribute of Object.values(tag.attributes)) {
        if (attribute.uri !== NS.officeRel && attribute.uri !== NS.strictOfficeRel) continue
        if (!attribute.value || own?.has(attribute.value) || reported.has(attribute.value)) continue
        reported.add(attribute.value)
        invalid(part.name, `<${tag.name} ${attribute.name}="${attribute.value}"> names no relationship of this part${own ? '' : ` (it has no relationship part ${relsPartOf(part.name)})`}`)
      }
      const drawing = tag.uri === NS.drawing || tag.uri === NS.strictDrawing
      const presentation = tag.uri === NS.presentation || tag.uri === NS.strictPresentation
      if (drawing && (tag.local === 'latin' || tag.local === 'ea' || tag.local === 'cs')) {
        const face = tag.attributes.typeface?.value?.trim()
        if (face && !face.startsWith('+')) fonts.add(face)
      }
      if (presentation && isMain && tag.local === 'sldId') {
        const ref = Object.values(tag.attributes).find((a) => (a.uri === NS.officeRel || a.uri === NS.strictOfficeRel) && a.local === 'id')?.value
        if (!ref) invalid(part.name, `a <${tag.name}> without r:id`)
        else slideRefs.push(ref)
      }
      if (presentation && isMain && tag.local === 'font') {
        const face = tag.attributes.typeface?.value?.trim()
        if (face) embedded.add(face)
      }
      if (presentation && isSlide && tag.local === 'sld' && ['0', 'false'].includes(tag.attributes.show?.value ?? '')) hiddenSlides.add(key(part.name))
    })
  }

  // 5. The slide list: each sldId's relationship is a slide relationship to a slide part.
  if (mainPart) {
    const own = rels.get(key(mainPart))
    report.pages = slideRefs.length
    for (const ref of slideRefs) {
      const relationship = own?.get(ref)
      if (!relationship) continue // reported above as an r:id naming no relationship
      if (!REL_TYPE_SLIDE.test(relationship.type)) {
        invalid(mainPart, `the slide list names ${ref}, a ${relationship.type.split('/').pop()} relationship, not a slide`)
        continue
      }
      if (!relationship.resolved) continue // reported with the relationship part
      const type = parts.get(key(relationship.resolved))?.contentType
      if (type && type.toLowerCase() !== SLIDE_TYPE) invalid(relationship.resolved, `listed as a slide but declared as ${type}`)
      report.slides.push(relationship.resolved)
      if (hiddenSlides.has(key(relationship.resolved))) report.hidden++
    }
  }

  // 6. Parts nothing points to: allowed, but usually a writer's slip.
  for (const part of parts.values()) {
    if (relsSource(part.name) === null && !targeted.has(key(part.name))) report.warnings.push({ path: part.name, reason: 'no relationship targets this part' })
  }
  report.fonts = [...fonts].sort((a, b) => a.localeCompare(b))
  report.embeddedFonts = [...embedded].sort((a, b) => a.localeCompare(b))
  report.rasters.sort()
  report.vectors.sort()
}

function relsPartOf(partName: string): string {
  return `${posix.dirname(partName)}/_rels/${posix.basename(partName)}.rels`.replace(/^\/\//, '/')
}

async function checkImage(zip: yauzl.ZipFile, part: Part, type: string, report: PackageReport, invalid: (path: string, reason: string) => void): Promise<void> {
  const vector = VECTOR_TYPES[type]
  if (vector) {
    if (!report.vectors.includes(vector)) report.vectors.push(vector)
    return
  }
  const name = rasterName(type)
  if (!report.rasters.includes(name)) report.rasters.push(name)
  let head: Buffer
  try {
    head = await readEntry(zip, part.entry, 16)
  } catch (error) {
    invalid(part.name, `the part cannot be read: ${(error as Error).message}`)
    return
  }
  const claimed = RASTER_MAGIC[name]
  if (!claimed || claimed(head)) return
  const actual = Object.entries(RASTER_MAGIC).find(([, test]) => test(head))?.[0]
  invalid(part.name, `declared ${part.contentType} but its bytes are ${actual ? actual.toUpperCase() : `not ${name.toUpperCase()}`}`)
}
