/**
 * SVG sanitizing, before any SVG is stored (pictures, logos): DOMPurify over jsdom with its SVG
 * profiles, then our own rules on what is left. jsdom is heavy: it loads on the first SVG.
 *
 * Refused before parsing: more than 5 MiB, a DOCTYPE with an internal subset or any `<!ENTITY`
 * (billion laughs, external entities), bytes that are not an `<svg>` document.
 * Removed: scripts, every `on*` handler, `foreignObject`, HTML embedding elements, `<style>` (its
 * `@import` and `url()` can reach out), `animate`/`set` that target `href` or handlers, and every
 * reference that is not a same-document fragment (`#id`) or an inline raster `data:image/...`:
 * `href`/`xlink:href`/`src` and `url()` in style attributes and presentation attributes.
 * The answer says what went, and the picture's intrinsic size from width/height or the viewBox.
 */
import { fail } from '../core/errors.js'

export const SVG_MAX_BYTES = 5 * 1024 * 1024

export interface SanitizedSvg {
  svg: string
  /** What was removed, one entry per kind ('script', 'onload attribute', 'external href', ...). */
  removed: string[]
  width?: number
  height?: number
  viewBox?: [number, number, number, number]
}

type Purify = { sanitize(input: string, config: Record<string, unknown>): string; removed: { element?: Element; attribute?: Attr; from?: Element }[] }
let purifier: { purify: Purify; window: import('jsdom').DOMWindow } | undefined

async function load() {
  if (purifier) return purifier
  const { JSDOM } = await import('jsdom')
  const { default: createDOMPurify } = await import('dompurify')
  const window = new JSDOM('').window
  purifier = { purify: createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]) as unknown as Purify, window }
  return purifier
}

const SAFE_DATA = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i
const FORBID_TAGS = ['script', 'foreignObject', 'iframe', 'embed', 'object', 'audio', 'video', 'style', 'handler', 'listener', 'set', 'animate', 'animateMotion', 'animateTransform', 'discard']
const REF_ATTRS = ['href', 'xlink:href', 'src']

/** A reference a stored SVG may keep: a fragment of the same document, or an inline raster. */
function safeRef(value: string): boolean {
  const v = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
  return v.startsWith('#') || SAFE_DATA.test(v)
}

/** `url(...)` inside a style or presentation attribute is allowed only for `#id`. */
function safeUrls(value: string): boolean {
  for (const match of value.matchAll(/url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi)) if (!match[2].trim().startsWith('#')) return false
  return !/@import|expression\s*\(|javascript:|vbscript:/i.test(value.replace(/[\s\u0000-\u001f]/g, ''))
}

function number(value: string | null): number | undefined {
  if (!value || value.trim().endsWith('%')) return undefined
  const n = parseFloat(value)
  return Number.isFinite(n) && n > 0 ? n : undefined
}

/** Sanitizes an SVG document; throws `invalid_input` for what cannot be one. */
export async function sanitizeSvg(input: Buffer | string, options: { maxBytes?: number; pointer?: string } = {}): Promise<SanitizedSvg> {
  const pointer = options.pointer ?? '/file'
  const maxBytes = options.maxBytes ?? SVG_MAX_BYTES
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length
  if (size > maxBytes) fail('invalid_input', `The SVG is ${size} bytes; the cap is ${maxBytes}.`, { pointer })
  const text = (typeof input === 'string' ? input : input.toString('utf8')).replace(/^\uFEFF/, '')
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>]*\[/i.test(text)) fail('invalid_input', 'The SVG declares entities (a DOCTYPE internal subset): refused.', { pointer })
  const { purify, window } = await load()
  // Well-formed XML with an <svg> root, read as XML (not HTML) first.
  const parsed = new window.DOMParser().parseFromString(text, 'image/svg+xml')
  const root = parsed.documentElement
  if (!root || root.nodeName === 'parsererror' || parsed.getElementsByTagName('parsererror').length) fail('invalid_input', 'The SVG is not well-formed XML.', { pointer })
  if (root.localName !== 'svg') fail('invalid_input', `The document's root is <${root.localName}>, not <svg>.`, { pointer })

  const removed = new Set<string>()
  const clean = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS,
    ADD_TAGS: ['use'],
    ALLOW_DATA_ATTR: false,
  })
  for (const entry of purify.removed) {
    if (entry.element) {
      // The HTML parser's own wrapper elements are not the picture's.
      if (!['template', 'body', 'html', 'head'].includes(entry.element.nodeName.toLowerCase())) removed.add(entry.element.nodeName)
    }
    else if (entry.attribute) removed.add(/^on/i.test(entry.attribute.name) ? `${entry.attribute.name} attribute` : `${entry.attribute.name} attribute`)
  }
  const doc = new window.DOMParser().parseFromString(clean, 'image/svg+xml')
  const svg = doc.documentElement
  if (!svg || svg.localName !== 'svg') fail('invalid_input', 'Nothing of the SVG is left after sanitizing.', { pointer })
  // Our own pass over what DOMPurify kept: references, handlers, style urls.
  const walk = (el: Element) => {
    for (const attr of [...el.attributes]) {
      const name = attr.name
      const value = attr.value
      if (/^on/i.test(attr.localName)) {
        el.removeAttribute(name)
        removed.add(`${attr.localName} attribute`)
      } else if (REF_ATTRS.includes(name) || attr.localName === 'href') {
        if (!safeRef(value)) {
          el.removeAttribute(name)
          removed.add('external reference')
        }
      } else if (/url\s*\(|@import|javascript:|vbscript:|expression\s*\(/i.test(value.replace(/[\s\u0000-\u001f]/g, '')) && !safeUrls(value)) {
        el.removeAttribute(name)
        removed.add('external url()')
      }
    }
    for (const child of [...el.children]) {
      if (FORBID_TAGS.includes(child.localName) || child.namespaceURI !== 'http://www.w3.org/2000/svg') {
        child.remove()
        removed.add(child.localName)
      } else walk(child)
    }
  }
  walk(svg)
  if (!svg.getAttribute('xmlns')) svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  const serialized = new window.XMLSerializer().serializeToString(svg)
  const viewBox = (svg.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number)
  const box = viewBox.length === 4 && viewBox.every(Number.isFinite) && viewBox[2] > 0 && viewBox[3] > 0 ? (viewBox as [number, number, number, number]) : undefined
  const width = number(svg.getAttribute('width')) ?? box?.[2]
  const height = number(svg.getAttribute('height')) ?? box?.[3]
  return { svg: serialized, removed: [...removed].sort(), ...(width ? { width } : {}), ...(height ? { height } : {}), ...(box ? { viewBox: box } : {}) }
}
