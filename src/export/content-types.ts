/**
 * `[Content_Types].xml` as pptxgenjs writes it declares a slide master per slide
 * (`/ppt/slideMasters/slideMaster<n>.xml` for every n up to the slide count) while the package holds
 * one master. An Override for a part that is not in the package is what `export check` warns about
 * and stricter readers refuse; both writers (native and flatten) drop them here.
 */

/** The part name of a zip entry name (`ppt/slides/slide1.xml` → `/ppt/slides/slide1.xml`), compared case-insensitively as OPC does. */
const partKey = (name: string) => (name.startsWith('/') ? name : `/${name}`).toLowerCase()

/** `xml` without the Overrides whose part is not among `entryNames` (the package's zip entries). */
export function withoutAbsentOverrides(xml: string, entryNames: Iterable<string>): string {
  const present = new Set([...entryNames].map(partKey))
  return xml.replace(/<Override\b[^>]*?\bPartName="([^"]*)"[^>]*?(?:\/>|>\s*<\/Override>)/g, (override, partName: string) => {
    let name = partName
    try {
      name = decodeURIComponent(partName)
    } catch {
      // A malformed escape stays as written; the Override is kept only if that name is present.
    }
    return present.has(partKey(name)) ? override : ''
  })
}
