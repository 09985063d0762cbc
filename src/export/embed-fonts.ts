/**
 * Font parts for a native PPTX (`embedFonts`): each typeface the runs name, in the styles they use it
 * in, as PowerPoint embeds fonts: a font part `ppt/fonts/fontN.fntdata` (Embedded OpenType holding the
 * TrueType face uncompressed; ttf2eot writes the EOT header from the face's OS/2, head and name tables),
 * a `font` relationship from the presentation part, and `<p:embeddedFontLst>` naming the typeface with
 * its regular, bold, italic and bold italic parts. pptxgenjs writes none of this; the native writer adds
 * these parts after it.
 *
 * Where a slot's face comes from:
 * - the export set's faces (src/export/fonts.ts) for the typefaces it names (`Inter`, `Inter Medium`,
 *   `Inter Display`, `Inter 17pt` ...), regular slot;
 * - the renderer's own faces (the shipped WOFF files, unpacked to TrueType) for a family of the catalogue
 *   named as itself (`Inter`, `Source Serif 4`, `JetBrains Mono`): bold, italic and bold italic, and the
 *   regular slot of a family outside the export set. These are the faces the slides were rendered with.
 * A slot with no face (bold of `Inter Medium`, which has none) is left out: the reader emboldens or slants
 * the regular face, as it does without embedding; the result's `cannot` lists them.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { faceFile, findFamily } from '../model/fonts.js'
import { exportFacePath, type ExportFace } from './fonts.js'
import { woffToSfnt } from './office-fonts.js'

const load = createRequire(import.meta.url)
const ttf2eot = load('ttf2eot') as (ttf: Uint8Array) => Uint8Array

export type FontSlot = 'regular' | 'bold' | 'italic' | 'boldItalic'
const SLOT_ORDER: readonly FontSlot[] = ['regular', 'bold', 'italic', 'boldItalic']

export interface EmbedRequest {
  typeface: string
  /** The catalogue family the typeface stands for. */
  family: string
  /** The export face the typeface names, when it is one. */
  face?: ExportFace
  slots: ReadonlySet<FontSlot>
}

export interface EmbeddedFonts {
  /** New parts: `ppt/fonts/fontN.fntdata`. */
  parts: { name: string; data: Buffer }[]
  /** `<Relationship>` elements for ppt/_rels/presentation.xml.rels. */
  rels: string[]
  /** The `<p:embeddedFontLst>` element (empty string when nothing was embedded). */
  list: string
  /** Typefaces embedded, with their slots. */
  embedded: string[]
  cannot: string[]
}

/** The TrueType face of one slot of a typeface, or undefined when there is none to embed. */
function sfntOf(request: EmbedRequest, slot: FontSlot): Buffer | undefined {
  if (slot === 'regular' && request.face) return readFileSync(exportFacePath(request.face))
  const family = findFamily(request.family)
  if (!family || request.typeface !== family.name) return undefined
  const weight = slot === 'bold' || slot === 'boldItalic' ? 700 : 400
  if (!family.weights.includes(weight)) return undefined
  const style = slot === 'italic' || slot === 'boldItalic' ? 'italic' : 'normal'
  if (style === 'italic' && !family.italic) return undefined
  return woffToSfnt(readFileSync(load.resolve(faceFile(family, weight, style, 'woff'))))
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const FONT_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/font'

/** The font parts, relationships and list for `requests`; relationship ids start at `rId<firstRel>`. */
export function embedFonts(requests: readonly EmbedRequest[], firstRel: number): EmbeddedFonts {
  const out: EmbeddedFonts = { parts: [], rels: [], list: '', embedded: [], cannot: [] }
  const fonts: string[] = []
  let rel = firstRel
  for (const request of [...requests].sort((a, b) => (a.typeface < b.typeface ? -1 : a.typeface > b.typeface ? 1 : 0))) {
    const slots: string[] = []
    const used: FontSlot[] = []
    for (const slot of SLOT_ORDER) {
      if (!request.slots.has(slot) && slot !== 'regular') continue
      const sfnt = sfntOf(request, slot)
      if (!sfnt) {
        if (request.slots.has(slot)) out.cannot.push(`fonts: ${request.typeface} ${slot} has no face to embed; the reader draws it from the regular face`)
        continue
      }
      const name = `ppt/fonts/font${out.parts.length + 1}.fntdata`
      out.parts.push({ name, data: Buffer.from(ttf2eot(new Uint8Array(sfnt))) })
      const id = `rId${rel++}`
      out.rels.push(`<Relationship Id="${id}" Type="${FONT_REL}" Target="${name.slice('ppt/'.length)}"/>`)
      slots.push(`<p:${slot} r:id="${id}"/>`)
      used.push(slot)
    }
    if (!slots.length) {
      out.cannot.push(`fonts: ${request.typeface} is not embedded (no face of it ships with studio)`)
      continue
    }
    fonts.push(`<p:embeddedFont><p:font typeface="${escapeXml(request.typeface)}" pitchFamily="34" charset="0"/>${slots.join('')}</p:embeddedFont>`)
    out.embedded.push(`${request.typeface} (${used.join(', ')})`)
  }
  out.list = fonts.length ? `<p:embeddedFontLst>${fonts.join('')}</p:embeddedFontLst>` : ''
  return out
}

/** presentation.xml with the list after `<p:notesSz>` (its place in the schema's sequence) and `embedTrueTypeFonts` set. */
export function withEmbeddedFontList(xml: string, list: string): string {
  if (!list) return xml
  const placed = /<p:notesSz[^>]*\/>/.test(xml) ? xml.replace(/(<p:notesSz[^>]*\/>)/, `$1${list}`) : xml.replace(/(<p:sldSz[^>]*\/>)/, `$1${list}`)
  return placed.replace(/<p:presentation\b([^>]*)>/, (whole, attrs: string) => (/embedTrueTypeFonts=/.test(attrs) ? whole : `<p:presentation${attrs} embedTrueTypeFonts="1">`))
}
