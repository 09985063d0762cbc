import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { StudioError } from '../../../src/core/errors.js'
import { sanitizeSvg } from '../../../src/media/svg.js'

const S = (body: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50"${attrs}>${body}</svg>`

/** Hostile SVGs: each must be refused, or stored with nothing that runs or reaches out. */
const HOSTILE: [string, string][] = [
  ['inline script', S('<script>alert(1)</script><rect width="10" height="10"/>')],
  ['CDATA script', S('<script><![CDATA[alert(1)]]></script>')],
  ['mixed-case script', S('<ScRiPt>alert(1)</ScRiPt>')],
  ['script with href', S('<script href="http://evil/x.js"/>')],
  ['onload on the root', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'],
  ['handlers on shapes', S('<rect onclick="a()" onmouseover="b()" onfocus="c()" width="1" height="1"/><circle onbegin="d()" r="2"/>')],
  ['javascript: href', S('<a href="javascript:alert(1)"><text>x</text></a>')],
  ['javascript: xlink:href', S('<a xlink:href="javascript:alert(1)"><text>x</text></a>')],
  ['encoded javascript:', S('<a xlink:href="java&#x09;script:alert(1)"><text>x</text></a>')],
  ['entity-split javascript:', S('<a href="&#106;avascript:alert(1)"><text>x</text></a>')],
  ['data:text/html href', S('<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="><text>x</text></a>')],
  ['metadata image', S('<image href="http://169.254.169.254/latest/meta-data/" width="1" height="1"/>')],
  ['external use', S('<use href="http://evil/x.svg#a"/>')],
  ['file use', S('<use xlink:href="file:///etc/passwd#a"/>')],
  ['protocol-relative image', S('<image xlink:href="//evil.example/x.png"/>')],
  ['foreignObject with HTML', S('<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></div></foreignObject>')],
  ['iframe in foreignObject', S('<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="http://evil"/></foreignObject>')],
  ['style @import', S('<style>@import url(http://evil/x.css); rect { fill: red }</style><rect/>')],
  ['style attribute url', S('<rect style="fill:url(http://evil/x.svg#p)" width="1" height="1"/>')],
  ['presentation url', S('<rect fill="url(https://evil/x.svg#p)" width="1" height="1"/>')],
  ['animate href', S('<a><animate attributeName="href" to="javascript:alert(1)"/><text>x</text></a>')],
  ['set onclick', S('<rect width="1" height="1"><set attributeName="onclick" to="alert(1)"/></rect>')],
  ['feImage external', S('<filter id="f"><feImage href="http://evil/x.png"/></filter><rect filter="url(#f)"/>')],
  ['pattern external image', S('<pattern id="p"><image href="https://evil/x.png"/></pattern><rect fill="url(#p)"/>')],
  ['handler element', S('<handler type="application/ecmascript">alert(1)</handler>')],
  ['nested svg with script', S('<svg><script>alert(1)</script></svg>')],
  ['embed and object', S('<foreignObject><embed xmlns="http://www.w3.org/1999/xhtml" src="x"/><object xmlns="http://www.w3.org/1999/xhtml" data="x"/></foreignObject>')],
  ['billion laughs', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>'],
  ['external entity', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'],
]

/** What a stored SVG must never hold. */
function dangers(svg: string): string[] {
  const found: string[] = []
  if (/<script/i.test(svg)) found.push('script')
  if (/\son[a-z]+\s*=/i.test(svg)) found.push('handler')
  if (/foreignObject|<iframe|<embed|<object|<handler/i.test(svg)) found.push('embedding')
  if (/javascript:|vbscript:|data:text\/html/i.test(svg.replace(/&#x?0*9;|\s/g, ''))) found.push('script url')
  if (/(href|src)\s*=\s*["'](?!#|data:image\/(png|jpeg|gif|webp);)/i.test(svg)) found.push('external reference')
  if (/url\(\s*['"]?(?!#)/i.test(svg) || /@import/i.test(svg)) found.push('external url()')
  return found
}

describe('SVG sanitizing', () => {
  for (const [name, input] of HOSTILE) {
    it(`stores nothing that runs or reaches out: ${name}`, async () => {
      let out: string
      try {
        out = (await sanitizeSvg(input)).svg
      } catch (error) {
        assert.ok(error instanceof StudioError && error.code === 'invalid_input', String(error))
        return
      }
      assert.deepEqual(dangers(out), [], out)
    })
  }

  it('keeps a benign drawing: gradients, clip paths, masks, same-document use, text and inline rasters', async () => {
    const benign = S(
      '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>' +
        '<clipPath id="c"><circle cx="10" cy="10" r="8"/></clipPath><mask id="m"><rect width="20" height="20" fill="#fff"/></mask><path id="shape" d="M0 0 L10 10"/></defs>' +
        '<rect width="100" height="50" fill="url(#g)" clip-path="url(#c)" mask="url(#m)"/><use href="#shape"/><use xlink:href="#shape"/><text x="5" y="40">Acme</text>' +
        '<image href="data:image/png;base64,iVBORw0KGgo=" width="4" height="4"/>',
      ' viewBox="0 0 100 50"',
    )
    const { svg, removed, width, height, viewBox } = await sanitizeSvg(benign)
    assert.deepEqual(removed, [])
    assert.deepEqual([width, height, viewBox], [100, 50, [0, 0, 100, 50]])
    for (const tag of ['linearGradient', 'stop', 'clipPath', 'mask', 'path', 'use', 'text', 'image']) assert.ok(svg.includes(`<${tag}`), tag)
    assert.ok(svg.includes('fill="url(#g)"') && svg.includes('href="#shape"') && svg.includes('xlink:href="#shape"') && svg.includes('gradientUnits="userSpaceOnUse"'))
    assert.deepEqual(dangers(svg), [])
  })

  it('says what it removed, and is deterministic', async () => {
    const input = HOSTILE[5][1]
    const a = await sanitizeSvg(input)
    const b = await sanitizeSvg(input)
    assert.equal(a.svg, b.svg)
    assert.ok(a.removed.some((r) => r.startsWith('onclick')), a.removed.join(', '))
  })

  it('refuses what is not an SVG, malformed XML and anything over the size cap before parsing', async () => {
    for (const bad of ['<html><body>x</body></html>', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', '\u0089PNG\r\n\u001a\n']) {
      await assert.rejects(sanitizeSvg(bad), (e: unknown) => e instanceof StudioError && e.code === 'invalid_input')
    }
    await assert.rejects(sanitizeSvg(S('<rect/>'.repeat(100)), { maxBytes: 200 }), (e: unknown) => e instanceof StudioError && /cap/.test(e.message))
  })
})
