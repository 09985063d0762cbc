import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { JSDOM } from 'jsdom'
import { StudioError } from '../../../src/core/errors.js'
import { sanitizeSvg, SVG_MAX_BYTES, SVG_MAX_DEPTH, SVG_MAX_ELEMENTS, SVG_MAX_FILTER_PRIMITIVES, SVG_MAX_INSTANCES } from '../../../src/media/svg.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const FIXTURES = join(ROOT, 'test/fixtures/svg')
const SVG_NS = 'http://www.w3.org/2000/svg'
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const svg = (body: string, attrs = '') => `<svg xmlns="${SVG_NS}"${attrs}>${body}</svg>`

const fixtures = (kind: 'hostile' | 'benign') =>
  readdirSync(join(FIXTURES, kind)).filter((f) => f.endsWith('.svg')).sort().map((name) => ({ name, bytes: readFileSync(join(FIXTURES, kind, name)) }))

function refusal(run: () => unknown): StudioError {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof StudioError, `expected a StudioError, got ${error}`)
    assert.equal(error.code, 'invalid_input')
    return error
  }
  assert.fail('expected a refusal')
}

const window = new JSDOM('').window
const parseXml = (text: string) => {
  const root = new window.DOMParser().parseFromString(text, 'image/svg+xml').documentElement
  assert.equal(root.localName, 'svg', `not an svg document: ${text.slice(0, 200)}`)
  return root
}
const allElements = (root: Element) => [root, ...root.querySelectorAll('*')]
const RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,/i
const URL_ARG = /url\(\s*["']?([^"')]*)/gi

/**
 * The checks every sanitized hostile SVG must pass, made on the output alone (its text, and the
 * document it parses to), independent of how the sanitizer got there.
 */
function assertHarmless(out: string, name: string): void {
  assert.doesNotMatch(out, /<script/i, `${name}: a script survived`)
  assert.doesNotMatch(out, /foreignObject/i, `${name}: a foreignObject survived`)
  assert.doesNotMatch(out, /<(?:[\w-]+:)?(?:iframe|embed|object|audio|video|handler|listener|feImage)\b/i, `${name}: an embedding element survived`)
  assert.doesNotMatch(out, /\son[a-z]+\s*=/i, `${name}: an event handler survived`)
  const decoded = out
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(?:amp|quot|apos|lt|gt);/g, (e) => ({ '&amp;': '&', '&quot;': '"', '&apos;': "'", '&lt;': '<', '&gt;': '>' })[e]!)
  assert.doesNotMatch(decoded.replace(/[\x00-\x20\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g, ''), /(?:java|vb)script:/i, `${name}: a script URL survived`)
  // Every hostile host and path of the corpus is gone, in whatever attribute or stylesheet it hid.
  assert.doesNotMatch(decoded, /evil\.example|169\.254|etc\/passwd|win\.ini|@import/i, `${name}: a reference to elsewhere survived`)

  const root = parseXml(out)
  for (const element of allElements(root)) {
    for (const attr of element.attributes) {
      assert.ok(!/^on/i.test(attr.localName), `${name}: ${attr.name} on <${element.localName}>`)
      assert.notEqual(attr.localName, 'src', `${name}: src on <${element.localName}>`)
      assert.ok(!(attr.localName === 'base' && attr.prefix === 'xml'), `${name}: xml:base`)
      if (attr.localName === 'href') {
        const fragment = attr.value.startsWith('#')
        const raster = element.localName === 'image' && RASTER.test(attr.value)
        assert.ok(fragment || raster, `${name}: <${element.localName} ${attr.name}="${attr.value}">`)
      }
      for (const [, target] of attr.value.matchAll(URL_ARG)) assert.ok(target.startsWith('#') || RASTER.test(target), `${name}: url(${target}) in ${attr.name}`)
    }
    if (element.localName === 'style') {
      for (const [, target] of (element.textContent ?? '').matchAll(URL_ARG)) assert.ok(target.startsWith('#') || RASTER.test(target), `${name}: url(${target}) in <style>`)
    }
  }
}

/** Element counts by tag over the SVG-namespace elements, their ids, and their same-document references. */
function drawing(text: string) {
  const elements = allElements(parseXml(text)).filter((e) => e.namespaceURI === SVG_NS)
  const counts = new Map<string, number>()
  for (const e of elements) counts.set(e.localName, (counts.get(e.localName) ?? 0) + 1)
  const hrefs = elements.flatMap((e) => [...e.attributes].filter((a) => a.localName === 'href').map((a) => `${e.localName} ${a.value.replace(/\s/g, '')}`))
  const urls = [...text.matchAll(/url\(\s*['"]?(#[\w-]+)/g)].map((m) => m[1])
  return { counts: Object.fromEntries([...counts].sort()), ids: elements.map((e) => e.id).filter(Boolean), hrefs, urls }
}

describe('sanitizeSvg: the hostile corpus', () => {
  const corpus = fixtures('hostile')

  it('holds at least 25 hostile SVGs, each saying what it tries and what should happen', () => {
    assert.ok(corpus.length >= 25, `${corpus.length} fixtures`)
    for (const { name, bytes } of corpus) assert.match(bytes.toString(), /<!-- hostile: .+ \| expect (?:refused|removed): .+ -->/, name)
  })

  for (const { name, bytes } of corpus) {
    const [, tries, verdict, expected] = /<!-- hostile: (.+?) \| expect (refused|removed): (.+?) -->/.exec(bytes.toString()) ?? []
    it(`${name}: ${tries} is ${verdict}`, () => {
      if (verdict === 'refused') {
        const error = refusal(() => sanitizeSvg(bytes))
        assert.match(error.message, new RegExp(expected, 'i'))
        return
      }
      const result = sanitizeSvg(bytes)
      assertHarmless(result.svg, name)
      for (const label of expected.split(/;\s*/)) assert.ok(result.removed.includes(label), `${name}: "${label}" not in removed ${JSON.stringify(result.removed)}`)
      // Sanitizing again finds nothing more and changes nothing.
      const again = sanitizeSvg(result.svg)
      assert.equal(again.svg, result.svg)
      assert.deepEqual(again.removed, [])
    })
  }

  it('drops the same dangers whether they come as a Buffer, a string, or with a byte-order mark', () => {
    const source = readFileSync(join(FIXTURES, 'hostile/handlers-on-many-elements.svg'))
    const fromBuffer = sanitizeSvg(source).svg
    assert.equal(sanitizeSvg(source.toString('utf8')).svg, fromBuffer)
    assert.equal(sanitizeSvg(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), source])).svg, fromBuffer)
    assert.equal(sanitizeSvg('\uFEFF' + source.toString('utf8')).svg, fromBuffer)
  })

  it('strips script URLs and network url() from a single attribute while keeping the rest of it', () => {
    const result = sanitizeSvg(svg(`<rect style="fill:url(#g); background: url(https://evil.example/x.png); stroke: red" width="1" height="1"/>`))
    assert.match(result.svg, /style="fill:url\(#g\); background: none; stroke: red"/)
    assert.deepEqual(result.removed, ['external url()'])
  })
})

describe('sanitizeSvg: benign drawings survive', () => {
  for (const { name, bytes } of fixtures('benign')) {
    it(`${name}: every SVG element, id and same-document reference is kept`, () => {
      const result = sanitizeSvg(bytes)
      const before = drawing(bytes.toString())
      const after = drawing(result.svg)
      assert.deepEqual(after.counts, before.counts)
      assert.deepEqual(after.ids, before.ids)
      assert.deepEqual(after.hrefs, before.hrefs)
      assert.deepEqual(after.urls, before.urls)
      assert.ok(result.svg.startsWith(`<svg xmlns="${SVG_NS}"`), 'the SVG namespace is declared on the root')
      assert.equal(sanitizeSvg(result.svg).svg, result.svg, 'sanitizing twice changes nothing')
    })
  }

  it('keeps a class stylesheet written in CDATA, with its gradient references', () => {
    const { svg: out, removed } = sanitizeSvg(readFileSync(join(FIXTURES, 'benign/logo-gradients.svg')))
    assert.match(out, /<style type="text\/css">\s*\.st0 \{ fill: url\(#grad-a\); \}/)
    assert.match(out, /xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink"/)
    assert.deepEqual(removed, ['DOCTYPE'], 'a DOCTYPE naming only an external DTD is accepted, and dropped')
  })

  it('keeps ids that happen to name document properties (head, title), so <use href="#head"> still draws', () => {
    const out = sanitizeSvg(svg('<defs><g id="head"/><g id="title"/><g id="images"/></defs><use href="#head"/>')).svg
    assert.match(out, /id="head"/)
    assert.match(out, /id="title"/)
    assert.match(out, /<use href="#head"\/>/)
  })

  it('keeps text that mentions a scheme: glyphs are drawn, never followed', () => {
    const out = sanitizeSvg(readFileSync(join(FIXTURES, 'benign/text.svg'))).svg
    assert.match(out, />JavaScript: the good parts</)
  })

  it('keeps a raster data URL on an image, with the line breaks of its base64 taken out', () => {
    const out = sanitizeSvg(svg(`<image href="data:image/png;base64,\n  ${PNG_1PX.slice(0, 40)}\n  ${PNG_1PX.slice(40)}" width="1" height="1"/>`)).svg
    assert.match(out, new RegExp(`href="data:image/png;base64,${PNG_1PX.replace(/[+/]/g, '\\$&')}"`))
  })
})

describe('sanitizeSvg: refusals', () => {
  it('refuses an HTML document, an XHTML one, and a PNG', () => {
    refusal(() => sanitizeSvg('<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title></head><body><p>hi</body></html>'))
    assert.match(refusal(() => sanitizeSvg('<html xmlns="http://www.w3.org/1999/xhtml"><body><svg xmlns="http://www.w3.org/2000/svg"/></body></html>')).message, /root element is <html>/)
    assert.match(refusal(() => sanitizeSvg(Buffer.from(PNG_1PX, 'base64'))).message, /not an SVG document/i)
  })

  it('refuses an <svg> outside the SVG namespace, malformed XML, an empty input and UTF-16', () => {
    assert.match(refusal(() => sanitizeSvg('<svg><rect/></svg>')).message, /not in the SVG namespace/)
    assert.match(refusal(() => sanitizeSvg(svg('<g><rect></g>'))).message, /not well-formed XML/)
    assert.match(refusal(() => sanitizeSvg(svg('&nbsp;'))).message, /not well-formed XML/)
    assert.match(refusal(() => sanitizeSvg('')).message, /not well-formed XML/)
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg(''), 'utf16le')])
    assert.match(refusal(() => sanitizeSvg(utf16)).message, /UTF-16/)
  })

  it('refuses input over the size limit before parsing it', () => {
    // Garbage that the parser would call malformed: the size refusal must come first.
    const big = Buffer.alloc(SVG_MAX_BYTES + 1, '<')
    assert.match(refusal(() => sanitizeSvg(big)).message, new RegExp(`${SVG_MAX_BYTES + 1} bytes, over the limit of ${SVG_MAX_BYTES}`))
    const small = svg('<rect width="1" height="1"/>')
    assert.match(refusal(() => sanitizeSvg(small, { maxBytes: small.length - 1 })).message, /over the limit/)
    assert.ok(sanitizeSvg(small, { maxBytes: small.length }).svg)
    // A string is measured in UTF-8 bytes, not characters.
    const accents = svg(`<text>${'é'.repeat(40)}</text>`)
    assert.match(refusal(() => sanitizeSvg(accents, { maxBytes: accents.length + 10 })).message, /over the limit/)
  })

  it('refuses an entity before the parser can expand it, even a harmless one', () => {
    const named = `<!DOCTYPE svg [<!ENTITY brand "Acme">]>${svg('<text>&brand;</text>')}`
    assert.match(refusal(() => sanitizeSvg(named)).message, /entity/)
    const subset = `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ ]>${svg('')}`
    assert.match(refusal(() => sanitizeSvg(subset)).message, /internal subset/)
  })

  it(`refuses elements nested more than ${SVG_MAX_DEPTH} deep, and sanitizes a deep but reasonable drawing`, () => {
    const nest = (n: number) => svg('<g>'.repeat(n) + '</g>'.repeat(n))
    assert.match(refusal(() => sanitizeSvg(nest(SVG_MAX_DEPTH))).message, /more than 256 deep/)
    assert.match(refusal(() => sanitizeSvg(nest(100_000))).message, /deep/)
    assert.ok(sanitizeSvg(nest(SVG_MAX_DEPTH - 1)).svg.length > 0)
  })
})

describe('sanitizeSvg: what a drawing would cost', () => {
  /** The 422 of a drawing over a processing limit, with the limit named in its details. */
  function overLimit(run: () => unknown, limit: string): StudioError {
    try {
      run()
    } catch (error) {
      assert.ok(error instanceof StudioError, `expected a StudioError, got ${error}`)
      assert.equal(error.code, 'unprocessable')
      assert.deepEqual(error.extra.details, { limit })
      return error
    }
    assert.fail('expected a refusal')
  }

  it(`refuses more than ${SVG_MAX_ELEMENTS} elements, and accepts as many`, () => {
    assert.match(overLimit(() => sanitizeSvg(svg('<rect/>'.repeat(SVG_MAX_ELEMENTS))), 'elements').message, /more than 50000 elements/)
    assert.ok(sanitizeSvg(svg('<rect/>'.repeat(SVG_MAX_ELEMENTS - 1))).svg.length > 0)
  })

  it(`refuses more than ${SVG_MAX_FILTER_PRIMITIVES} filter primitives, whatever their prefix, and accepts as many`, () => {
    const filters = (n: number, prefix = '') => svg(`<filter id="f">${`<${prefix}feGaussianBlur stdDeviation="9"/>`.repeat(n)}</filter>`, prefix ? ` xmlns:s="${SVG_NS}"` : '')
    assert.match(overLimit(() => sanitizeSvg(filters(SVG_MAX_FILTER_PRIMITIVES + 1)), 'filterPrimitives').message, /more than 200 filter primitives/)
    overLimit(() => sanitizeSvg(filters(SVG_MAX_FILTER_PRIMITIVES + 1, 's:')), 'filterPrimitives')
    assert.ok(sanitizeSvg(filters(SVG_MAX_FILTER_PRIMITIVES)).svg.includes('feGaussianBlur'))
  })

  it(`refuses <use> that expands to more than ${SVG_MAX_INSTANCES} drawn elements, or refers to itself; keeps ordinary reuse`, () => {
    const levels = (depth: number, fan: number) => {
      let defs = '<g id="l0"><rect width="1" height="1"/></g>'
      for (let i = 1; i <= depth; i++) defs += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(fan)}</g>`
      return svg(`<defs>${defs}</defs><use href="#l${depth}"/>`)
    }
    assert.match(overLimit(() => sanitizeSvg(levels(9, 10)), 'instances').message, /expand to more than 100000 drawn elements/)
    // xlink:href counts as href does.
    overLimit(() => sanitizeSvg(levels(9, 10).replace(/<use href=/g, '<use xlink:href=').replace('<svg ', '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ')), 'instances')
    assert.match(overLimit(() => sanitizeSvg(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>')), 'instances').message, /refers to itself/)
    overLimit(() => sanitizeSvg(svg('<g id="a"><rect/><use href="#a"/></g>')), 'instances')
    // Four levels of ten: 10,000 rectangles drawn, as icon sheets do.
    assert.equal((sanitizeSvg(levels(4, 10)).svg.match(/<use/g) ?? []).length, 41)
  })
})

describe('sanitizeSvg: answers', () => {
  it('is deterministic: the same input gives the same bytes and the same removals', () => {
    for (const { name, bytes } of [...fixtures('hostile'), ...fixtures('benign')]) {
      let first
      try {
        first = sanitizeSvg(bytes)
      } catch {
        continue
      }
      assert.deepEqual(sanitizeSvg(Buffer.from(bytes)), first, name)
    }
  })

  it('reads the intrinsic size from width, height and viewBox', () => {
    const size = (attrs: string) => {
      const { width, height, viewBox } = sanitizeSvg(svg('', attrs))
      return { width, height, viewBox }
    }
    assert.deepEqual(size(' width="120" height="40" viewBox="0 0 240 80"'), { width: 120, height: 40, viewBox: [0, 0, 240, 80] })
    assert.deepEqual(size(' width="120px" height=" 40.5px "'), { width: 120, height: 40.5, viewBox: undefined })
    assert.deepEqual(size(' width="2in" height="72pt"'), { width: 192, height: 96, viewBox: undefined })
    assert.deepEqual(size(' width="100%" height="50%" viewBox="-10,-10,20,10"'), { width: undefined, height: undefined, viewBox: [-10, -10, 20, 10] })
    assert.deepEqual(size(' width="64" viewBox="0 0 64 32"'), { width: 64, height: 32, viewBox: [0, 0, 64, 32] }, 'the missing side follows the viewBox')
    assert.deepEqual(size(' width="10em" height="0" viewBox="0 0 0 10"'), { width: undefined, height: undefined, viewBox: undefined })
    assert.deepEqual(size(''), { width: undefined, height: undefined, viewBox: undefined })
  })

  it('loads jsdom and DOMPurify on the first call, not when the module is imported', () => {
    const script = `
      import { createRequire } from 'node:module'
      const cache = createRequire(import.meta.url).cache
      const loaded = () => Object.keys(cache).filter((k) => /\\/node_modules\\/(jsdom|dompurify)\\//.test(k)).length
      const { sanitizeSvg } = await import(process.argv[1])
      const before = loaded()
      sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"/>')
      console.log(JSON.stringify({ before, after: loaded() }))`
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, join(ROOT, 'src/media/svg.ts')], { cwd: ROOT, encoding: 'utf8' })
    const { before, after } = JSON.parse(out) as { before: number; after: number }
    assert.equal(before, 0)
    assert.ok(after > 0)
  })
})
