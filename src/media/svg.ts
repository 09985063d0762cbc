/**
 * The one SVG sanitizer: every SVG Deck Studio stores (pictures added with `asset.add`, brand logos)
 * passes through `sanitizeSvg` first. DOMPurify over jsdom does the bulk of the work with its SVG
 * profile; the rules around it make the result safe to serve from the studio's own origin and to
 * draw without any request leaving the document.
 *
 * Before parsing (on the raw text, so nothing is expanded): more than `maxBytes` (5 MiB), bytes that
 * are not UTF-8, a DOCTYPE with an internal subset or any `<!ENTITY` (billion laughs, XXE), and
 * elements nested more than 256 deep are refused with `invalid_input`; more than 50,000 elements or
 * 200 filter primitives with `unprocessable` (422: what it would cost to draw). Then the text must be
 * well-formed XML whose root is `<svg>` in the SVG namespace. After sanitizing, a drawing whose
 * `<use>` elements expand to more than 100,000 drawn elements (a `<use>` bomb) or refer in a circle is
 * refused with `unprocessable`.
 *
 * Removed, in three passes (ours, DOMPurify's, ours):
 * - comments, processing instructions and everything outside the root element (DOCTYPE,
 *   `<?xml-stylesheet?>`); CDATA sections become plain text (same meaning, nothing to hide in);
 * - `script`, `foreignObject`, `iframe`, `embed`, `object`, `audio`, `video`, `handler`, `listener`
 *   and `feImage` with everything inside them, whatever their case or namespace;
 * - whatever DOMPurify's SVG profile does not allow (with its content), `on*` handlers among them;
 * - every `href` (`xlink:href` or any prefix) that is not a same-document fragment `#id`, or a
 *   `data:image/(png|jpeg|gif|webp);base64` URL on an `<image>`;
 * - in `style` attributes, `<style>` elements and presentation attributes (`fill="url(…)"`):
 *   `url()` of anything but a fragment or such a data URL (replaced by `none`), `@import`; CSS that
 *   carries an escape (`\75rl(`) or a loading function (`image-set(`, `image(`, `src(`…) is dropped whole;
 * - animation elements that animate `href` or an `on*` attribute;
 * - any attribute holding `javascript:` or `vbscript:` once blanks and controls are taken out
 *   (text is kept: it is drawn as glyphs, never followed, and "JavaScript: the good parts" is a title).
 *
 * The answer is the root element serialized as XML (namespace declarations kept), the list of what
 * was removed, and the intrinsic size. Deterministic: the same input gives the same bytes, and
 * sanitizing the output again changes nothing.
 *
 * jsdom is heavy (≈ 0.5 s to load), so it and DOMPurify are required on the first call, never when
 * this module is imported.
 */
import { createRequire } from 'node:module'
import type { Config, DOMPurify as Purifier, RemovedAttribute, RemovedElement } from 'dompurify'
import { StudioError } from '../core/errors.js'

export interface SanitizedSvg {
  /** The sanitized root element as XML, namespace declarations included. */
  svg: string
  /** What was taken out, each kind once, in the order first met ('script', 'onload attribute', 'external href'). */
  removed: string[]
  /** Intrinsic size in px from the root's width and height (absolute units converted; percentages ignored). */
  width?: number
  height?: number
  viewBox?: [number, number, number, number]
}

export interface SanitizeSvgOptions {
  /** Largest input accepted, in bytes, checked before anything is parsed. Default 5 MiB. */
  maxBytes?: number
}

export const SVG_MAX_BYTES = 5 * 1024 * 1024
/** Deeper documents are refused: real drawings nest a few dozen levels, and jsdom's recursion has limits. */
export const SVG_MAX_DEPTH = 256
/** Elements in the text; the sanitizer's time and memory grow with them (a 2 MiB file of small shapes holds ≈ 35,000, which jsdom holds in ≈ 350 MB). */
export const SVG_MAX_ELEMENTS = 50_000
/** Filter primitives (`<feGaussianBlur>`, `<feTurbulence>`, …): each one drawn costs a pass over its region. */
export const SVG_MAX_FILTER_PRIMITIVES = 200
/** Elements drawn once every `<use>` is expanded (nested `<use>` multiplies: ten of ten of ten…). */
export const SVG_MAX_INSTANCES = 100_000

const SVG_NS = 'http://www.w3.org/2000/svg'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'

/** Removed with everything inside them, compared in lower case whatever the namespace. */
const FORBIDDEN_ELEMENTS = new Map(
  ['script', 'foreignObject', 'iframe', 'embed', 'object', 'audio', 'video', 'handler', 'listener', 'feImage'].map((name) => [name.toLowerCase(), name]),
)
const ANIMATION_ELEMENTS = new Set(['animate', 'set', 'animatecolor', 'animatemotion', 'animatetransform', 'discard'])

const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]*={0,2}$/i
/** CSS functions that load something without `url(` (a function token: the name directly before `(`). */
const LOADING_FUNCTION = /(?<![\w-])(?:-[a-z]+-)?(?:image-set|image|cross-fade|element|src|expression)\(/i
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/gi
/** Worth running the CSS rules on: an attribute value can carry CSS (presentation attributes are parsed as CSS). */
const CSS_SUSPECT = /url\(|\\|@import|(?:image-set|image|cross-fade|element|src|expression)\(/i

const PURIFY_CONFIG: Config & { IN_PLACE: true } = {
  IN_PLACE: true,
  USE_PROFILES: { svg: true, svgFilters: true },
  // `<use href="#id">` is how drawings reuse their parts; its href is held to a fragment below.
  ADD_TAGS: ['use'],
  // A removed element takes its content with it (no text of a dropped element lands in the drawing).
  KEEP_CONTENT: false,
  // DOMPurify drops ids that name document properties (`head`, `title`, `images`) against DOM
  // clobbering; only HTML form, embed, iframe, img and object elements become document properties,
  // and none survives here, while dropping the id breaks `<use href="#head">`.
  SANITIZE_DOM: false,
}

interface Engine {
  window: Window & typeof globalThis
  purify: Purifier
}
let engine: Engine | undefined

/** jsdom and DOMPurify, loaded on first use: a command that never sanitizes never pays for them. */
function loadEngine(): Engine {
  if (engine) return engine
  const load = createRequire(import.meta.url)
  const { JSDOM, VirtualConsole } = load('jsdom') as typeof import('jsdom')
  const createDOMPurify = load('dompurify') as (window: unknown) => Purifier
  // A silent console: jsdom would print CSS it cannot parse to stderr. Scripts and resources stay off (its defaults).
  const { window } = new JSDOM('', { virtualConsole: new VirtualConsole() })
  engine = { window: window as unknown as Window & typeof globalThis, purify: createDOMPurify(window) }
  return engine
}

const refuse = (message: string): never => {
  throw new StudioError('invalid_input', message)
}

/** A drawing over a processing limit: well-formed, but too costly to draw (422). */
const overLimit = (message: string, limit: string): never => {
  throw new StudioError('unprocessable', message, { details: { limit } })
}

/**
 * Sanitizes one SVG document. Throws `invalid_input` for input that is too large, not UTF-8, declares
 * entities or an internal DTD subset, is not well-formed XML, or whose root is not an SVG `<svg>`.
 *
 * @example
 *   const { svg, removed } = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>')
 *   // svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', removed: ['onload attribute']
 */
export function sanitizeSvg(input: Buffer | string, options: SanitizeSvgOptions = {}): SanitizedSvg {
  const maxBytes = options.maxBytes ?? SVG_MAX_BYTES
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength
  if (size > maxBytes) refuse(`The SVG is ${size} bytes, over the limit of ${maxBytes} bytes`)
  const text = decode(input)
  refuseDtd(text)
  refuseDeepNesting(text)

  const { window, purify } = loadEngine()
  const removed = new Labels()
  const doc = parse(window, text)
  const root = doc.documentElement

  for (const node of [...doc.childNodes]) {
    if (node === root) continue
    if (node.nodeType === window.Node.DOCUMENT_TYPE_NODE) removed.add('DOCTYPE')
    else if (node.nodeType === window.Node.PROCESSING_INSTRUCTION_NODE) removed.add('processing instruction')
  }

  try {
    stripDangerous(window, root, removed)
    purify.sanitize(root, PURIFY_CONFIG)
    for (const entry of purify.removed) removed.add(purifyLabel(entry))
    enforce(root, removed)
    refuseUseBomb(root)
    return { svg: new window.XMLSerializer().serializeToString(root), removed: removed.list(), ...intrinsicSize(root) }
  } catch (error) {
    if (error instanceof RangeError) refuse('The SVG is nested too deeply to sanitize')
    throw error
  }
}

/** Buffers must be UTF-8 (a BOM is dropped); UTF-16 and other bytes are refused rather than guessed. */
function decode(input: Buffer | string): string {
  if (typeof input === 'string') return input.startsWith('\uFEFF') ? input.slice(1) : input
  if (input[0] === 0xfe && input[1] === 0xff || input[0] === 0xff && input[1] === 0xfe) refuse('The SVG is UTF-16; only UTF-8 SVG files are accepted')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input)
  } catch {
    return refuse('Not an SVG document: the bytes are not UTF-8 text')
  }
}

/**
 * Entities are refused before the parser sees them: `<!ENTITY` anywhere (in any case), or a DOCTYPE
 * with an internal subset (`<!DOCTYPE svg [ … ]>`). A DOCTYPE naming only an external DTD is
 * harmless (nothing fetches it) and is dropped from the output.
 */
function refuseDtd(text: string): void {
  if (/<!ENTITY/i.test(text)) refuse('The SVG declares an entity (<!ENTITY>); entities are refused (billion laughs, external entities)')
  const doctype = /<!DOCTYPE/gi
  for (let match = doctype.exec(text); match; match = doctype.exec(text)) {
    let quote = ''
    for (let i = match.index + match[0].length; i < text.length; i++) {
      const c = text[i]
      if (quote) {
        if (c === quote) quote = ''
      } else if (c === '"' || c === "'") quote = c
      else if (c === '>') break
      else if (c === '[') refuse('The SVG has a DOCTYPE with an internal subset ([ … ]); DTD declarations are refused')
    }
  }
}

/**
 * Nesting measured on the raw text, before jsdom sees it: jsdom's parser slows down with depth (a
 * 700 KB file of 100,000 nested groups takes 20 s to fail) and its serializer recurses. Comments,
 * CDATA sections, processing instructions, declarations and quoted attribute values are skipped;
 * text the parser would refuse anyway need not be measured exactly.
 */
function refuseDeepNesting(text: string): void {
  let depth = 0
  let elements = 0
  let primitives = 0
  const skipTo = (from: number, end: string) => {
    const at = text.indexOf(end, from)
    return at < 0 ? text.length : at + end.length
  }
  for (let i = text.indexOf('<'); i >= 0 && i < text.length; i = text.indexOf('<', i)) {
    if (text.startsWith('<!--', i)) i = skipTo(i + 4, '-->')
    else if (text.startsWith('<![CDATA[', i)) i = skipTo(i + 9, ']]>')
    else if (text.startsWith('<?', i)) i = skipTo(i + 2, '?>')
    else if (text.startsWith('<!', i)) i = skipTo(i + 2, '>')
    else if (text.startsWith('</', i)) {
      depth--
      i = skipTo(i + 2, '>')
    } else {
      let j = i + 1
      let quote = ''
      for (; j < text.length; j++) {
        const c = text[j]
        if (quote) {
          if (c === quote) quote = ''
        } else if (c === '"' || c === "'") quote = c
        else if (c === '>') break
      }
      if (text[j - 1] !== '/' && ++depth > SVG_MAX_DEPTH) refuse(`The SVG nests elements more than ${SVG_MAX_DEPTH} deep`)
      if (++elements > SVG_MAX_ELEMENTS) overLimit(`The SVG has more than ${SVG_MAX_ELEMENTS} elements, the limit of what studio draws`, 'elements')
      // A filter primitive's local name is fe + a capital (feGaussianBlur), after any prefix.
      if (/^<(?:[^\s/>:]+:)?fe[A-Z]/.test(text.slice(i, i + 64)) && ++primitives > SVG_MAX_FILTER_PRIMITIVES) {
        overLimit(`The SVG has more than ${SVG_MAX_FILTER_PRIMITIVES} filter primitives (feGaussianBlur, feTurbulence, …), the limit of what studio draws`, 'filterPrimitives')
      }
      i = j + 1
    }
  }
}

/**
 * Counts the elements a renderer draws once every `<use>` is expanded: an element is itself plus its
 * children, and a `<use>` also the element it names (counted once per element, so a bomb of ten
 * levels of ten is measured in ten steps, not 10^10). A `<use>` that leads back to itself is refused.
 */
function refuseUseBomb(root: Element): void {
  const uses = root.getElementsByTagNameNS(SVG_NS, 'use')
  if (uses.length === 0) return
  const byId = new Map<string, Element>()
  for (const element of root.querySelectorAll('[id]')) if (!byId.has(element.id)) byId.set(element.id, element)
  const drawn = new Map<Element, number>()
  const visiting = new Set<Element>()
  const cap = SVG_MAX_INSTANCES + 1
  const count = (element: Element): number => {
    const known = drawn.get(element)
    if (known !== undefined) return known
    if (visiting.has(element)) overLimit('The SVG has a <use> that refers to itself (directly or through other elements)', 'instances')
    visiting.add(element)
    let total = 1
    for (const child of element.children) total = Math.min(cap, total + count(child))
    if (element.localName === 'use' && element.namespaceURI === SVG_NS) {
      const href = (element.getAttribute('href') ?? element.getAttributeNS('http://www.w3.org/1999/xlink', 'href') ?? '').trim()
      const target = href.startsWith('#') ? byId.get(href.slice(1)) : undefined
      if (target) total = Math.min(cap, total + count(target))
    }
    visiting.delete(element)
    drawn.set(element, total)
    return total
  }
  if (count(root) > SVG_MAX_INSTANCES) overLimit(`The SVG's <use> elements expand to more than ${SVG_MAX_INSTANCES} drawn elements, the limit of what studio draws`, 'instances')
}

function parse(window: Engine['window'], text: string): Document {
  const doc = new window.DOMParser().parseFromString(text, 'image/svg+xml')
  const root = doc.documentElement
  if (!root) return refuse('Not an SVG document: no root element')
  if (root.localName === 'parsererror' && root.namespaceURI !== SVG_NS) {
    const reason = (root.textContent ?? '').trim().split('\n')[0].slice(0, 200)
    if (/call stack/i.test(reason)) refuse('The SVG is nested too deeply to sanitize')
    refuse(`The SVG is not well-formed XML${reason ? ` (${reason})` : ''}`)
  }
  if (root.localName !== 'svg') refuse(`Not an SVG document: the root element is <${root.nodeName}>, not <svg>`)
  if (root.namespaceURI !== SVG_NS) refuse(`Not an SVG document: the root <svg> is not in the SVG namespace (add xmlns="${SVG_NS}")`)
  return doc
}

/** Our first pass: comments and processing instructions out, CDATA to text, forbidden elements out whole. */
function stripDangerous(window: Engine['window'], root: Element, removed: Labels): void {
  const { Node } = window
  const walker = root.ownerDocument.createTreeWalker(root, 0xffffffff)
  const doomed: Node[] = []
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
    if (node.nodeType === Node.COMMENT_NODE) {
      doomed.push(node)
      removed.add('comment')
    } else if (node.nodeType === Node.PROCESSING_INSTRUCTION_NODE) {
      doomed.push(node)
      removed.add('processing instruction')
    } else if (node.nodeType === Node.CDATA_SECTION_NODE) {
      doomed.push(node)
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const label = FORBIDDEN_ELEMENTS.get((node as Element).localName.toLowerCase())
      if (label) {
        doomed.push(node)
        removed.add(label)
      }
    }
  }
  for (const node of doomed) {
    if (node.nodeType === Node.CDATA_SECTION_NODE) node.parentNode?.replaceChild(root.ownerDocument.createTextNode(node.nodeValue ?? ''), node)
    else node.parentNode?.removeChild(node)
  }
}

/** Our last pass: hrefs, CSS, animations, handlers and script URLs in what DOMPurify kept. */
function enforce(root: Element, removed: Labels): void {
  const elements = [root, ...root.querySelectorAll('*')]
  for (const element of elements) {
    if (!element.isConnected && element !== root) continue
    const name = element.localName.toLowerCase()
    if (ANIMATION_ELEMENTS.has(name)) {
      const target = (element.getAttribute('attributeName') ?? '').trim().toLowerCase().replace(/^[^:]*:/, '')
      if (target === 'href' || target.startsWith('on')) {
        element.remove()
        removed.add(`${element.localName} of ${target}`)
        continue
      }
    }
    for (const attr of [...element.attributes]) {
      const verdict = checkAttribute(element, attr)
      if (verdict === undefined) continue
      if (verdict.value === null) element.removeAttributeNode(attr)
      else attr.value = verdict.value
      removed.add(verdict.label)
    }
    if (name === 'style') {
      const css = cleanCss(element.textContent ?? '')
      if (css.css === null) {
        element.remove()
        removed.add('style element')
      } else {
        for (const label of css.removed) removed.add(label)
        if (css.css !== element.textContent) element.textContent = css.css
      }
    }
  }
}

/** undefined: keep as is; value null: remove; a string: the cleaned value. */
function checkAttribute(element: Element, attr: Attr): { value: string | null; label: string } | undefined {
  const name = attr.localName.toLowerCase()
  if (name.startsWith('on')) return { value: null, label: `${attr.name} attribute` }
  if (attr.namespaceURI === XML_NS && name === 'base') return { value: null, label: 'xml:base attribute' }
  if (name === 'href') {
    const url = attr.value.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '')
    if (url.startsWith('#') && !hasScriptUrl(url)) return url === attr.value ? undefined : { value: url, label: 'blanks in href' }
    const compact = url.replace(/[\x00-\x20]/g, '')
    if (element.localName === 'image' && RASTER_DATA_URL.test(compact)) return compact === attr.value ? undefined : { value: compact, label: 'blanks in href' }
    return { value: null, label: hasScriptUrl(url) ? 'javascript: href' : 'external href' }
  }
  if (hasScriptUrl(attr.value)) return { value: null, label: `${attr.name} attribute (javascript:)` }
  if (name === 'style' || CSS_SUSPECT.test(attr.value)) {
    const css = cleanCss(attr.value)
    if (css.css === null) return { value: null, label: `${attr.name} attribute` }
    if (css.css !== attr.value) return { value: css.css, label: css.removed[0] ?? `${attr.name} attribute` }
  }
  return undefined
}

/**
 * CSS from a `<style>` element, a `style` attribute or a presentation attribute. null: drop it whole
 * (an escape could spell `url(` or `@import` past any pattern; a loading function; a script URL).
 * Otherwise comments are gone, `@import` rules are gone and each `url()` that is not a fragment or a
 * raster data URL is `none`.
 */
function cleanCss(source: string): { css: string | null; removed: string[] } {
  const removed: string[] = []
  if (source.includes('\\') || hasScriptUrl(source)) return { css: null, removed }
  let css = source.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
  if (/@import/i.test(css)) {
    css = css.replace(/@import[^;]*(?:;|$)/gi, '')
    removed.push('@import')
  }
  if (LOADING_FUNCTION.test(css)) return { css: null, removed }
  css = css.replace(CSS_URL, (whole, double?: string, single?: string, bare?: string) => {
    const target = (double ?? single ?? bare ?? '').trim()
    if (/^#[^\s]*$/.test(target)) return whole
    if (RASTER_DATA_URL.test(target.replace(/\s/g, ''))) return whole
    removed.push('external url()')
    return 'none'
  })
  // An url( the pattern above could not read (unbalanced, a quote inside) is not left for a browser to read.
  const left = css.replace(CSS_URL, '')
  if (/url\(|@import/i.test(left)) return { css: null, removed }
  return { css, removed }
}

/** `javascript:` or `vbscript:` once blanks and control characters (`java&#x09;script:`) are taken out. */
function hasScriptUrl(value: string): boolean {
  if (!/script/i.test(value)) return false
  return /(?:java|vb)script:/i.test(value.replace(/[\x00-\x20\x7f-\x9f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]+/g, ''))
}

function purifyLabel(entry: RemovedElement | RemovedAttribute): string {
  if ('attribute' in entry && entry.attribute) {
    const name = entry.attribute.name
    return /^(?:[^:]*:)?href$/i.test(name) ? 'unsafe href' : `${name} attribute`
  }
  const node = (entry as RemovedElement).element as Node
  if (node.nodeType === 1) return (node as Element).nodeName
  if (node.nodeType === 8) return 'comment'
  return node.nodeName.replace(/^#/, '')
}

/** Px per unit for the absolute CSS units a root width or height may carry; relative units and % are not a size. */
const PX_PER_UNIT = new Map([['', 1], ['px', 1], ['pt', 4 / 3], ['pc', 16], ['in', 96], ['cm', 96 / 2.54], ['mm', 96 / 25.4], ['q', 96 / 101.6]])

function length(value: string | null): number | undefined {
  if (value === null) return undefined
  const match = /^\s*\+?((?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value)
  const factor = match ? PX_PER_UNIT.get(match[2].toLowerCase()) : undefined
  if (!match || factor === undefined) return undefined
  const px = Math.round(Number(match[1]) * factor * 1000) / 1000
  return Number.isFinite(px) && px > 0 ? px : undefined
}

function intrinsicSize(root: Element): Pick<SanitizedSvg, 'width' | 'height' | 'viewBox'> {
  const out: Pick<SanitizedSvg, 'width' | 'height' | 'viewBox'> = {}
  const numbers = (root.getAttribute('viewBox') ?? '').trim().split(/\s*,\s*|\s+/).map(Number)
  if (numbers.length === 4 && numbers.every(Number.isFinite) && numbers[2] > 0 && numbers[3] > 0) out.viewBox = numbers as [number, number, number, number]
  let width = length(root.getAttribute('width'))
  let height = length(root.getAttribute('height'))
  // One side given and a viewBox: the other side follows the viewBox's ratio, as a browser sizes it.
  if (out.viewBox && width !== undefined && height === undefined) height = Math.round((width * out.viewBox[3] / out.viewBox[2]) * 1000) / 1000
  if (out.viewBox && height !== undefined && width === undefined) width = Math.round((height * out.viewBox[2] / out.viewBox[3]) * 1000) / 1000
  if (width !== undefined) out.width = width
  if (height !== undefined) out.height = height
  return out
}

/** Each removal kind once, in the order first met (so the list is deterministic). */
class Labels {
  private readonly seen = new Set<string>()
  add(label: string): void {
    this.seen.add(label)
  }
  list(): string[] {
    return [...this.seen]
  }
}
