/**
 * Title placeholders (src/export/pptx-title.ts) on hand-written slide parts: the placeholder goes
 * first in the shape tree unless that would paint it under something it overlaps.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { asTitlePlaceholder, titleFirst, withTitlePlaceholder } from '../../../src/export/pptx-title.js'

const box = (name: string, x: number, y: number, w: number, h: number, rot = 0) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${name}"></p:cNvPr><p:cNvSpPr txBox="1"/><p:nvPr></p:nvPr></p:nvSpPr><p:spPr><a:xfrm${rot ? ` rot="${rot}"` : ''}><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr sz="4000"/><a:t>${name}</a:t></a:r></a:p></p:txBody></p:sp>`
const slide = (...shapes: string[]) => `<p:sld><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes.join('')}</p:spTree></p:cSld></p:sld>`.replace('<p:grpSpPr/>', '<p:grpSpPr></p:grpSpPr>')
const names = (xml: string) => [...xml.matchAll(/name="([^"]+)"/g)].map((m) => m[1])

it('makes a text box the title placeholder: no longer a text box, never autofitted, everything else as written', () => {
  const sp = asTitlePlaceholder(box('title', 10, 20, 300, 40))
  assert.match(sp, /<p:cNvSpPr><a:spLocks noGrp="1"\/><\/p:cNvSpPr><p:nvPr><p:ph type="title"\/><\/p:nvPr>/)
  assert.match(sp, /<a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"><a:noAutofit\/><\/a:bodyPr>/)
  assert.equal(sp.replace('<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/>', '<p:cNvSpPr txBox="1"/><p:nvPr>').replace('<a:noAutofit/>', ''), box('title', 10, 20, 300, 40))
  // A picture (a heading drawn as one) stays a picture.
  const pic = '<p:pic><p:nvPicPr><p:cNvPr id="2" name="t"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr></p:pic>'
  assert.equal(asTitlePlaceholder(pic), pic)
})

it('moves the title first when nothing drawn before it overlaps it, and leaves it in place when something does', () => {
  const apart = titleFirst(slide(box('shape', 0, 500, 100, 100), asTitlePlaceholder(box('title', 0, 0, 300, 100)), box('body', 0, 200, 300, 100)))
  assert.deepEqual(names(apart), ['title', 'shape', 'body'])
  // A card behind the title: moving the title first would paint it under the card.
  const under = slide(box('card', 0, 50, 400, 400), asTitlePlaceholder(box('title', 10, 60, 300, 100)))
  assert.equal(titleFirst(under), under)
  // A turned shape beside the title whose turn sweeps over it counts as overlapping.
  const turned = slide(box('bar', 320, 0, 40, 400, 2700000), asTitlePlaceholder(box('title', 0, 150, 300, 100)))
  assert.equal(titleFirst(turned), turned)
  const plain = slide(box('a', 0, 0, 10, 10))
  assert.equal(titleFirst(plain), plain)
})

it('adds one title placeholder to a master (with its place, no autofit) and a layout, once', () => {
  const master = '<p:sldMaster><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/></p:nvGrpSpPr></p:spTree></p:cSld></p:sldMaster>'
  const once = withTitlePlaceholder(master, 'master', { x: 1, y: 2, w: 3, h: 4 })
  assert.match(once, /<p:cNvPr id="2" name="Title Placeholder 1"\/>.*<p:ph type="title"\/>.*<a:off x="1" y="2"\/><a:ext cx="3" cy="4"\/>.*<a:noAutofit\/>/)
  assert.equal(withTitlePlaceholder(once, 'master', { x: 1, y: 2, w: 3, h: 4 }), once)
  assert.match(withTitlePlaceholder(master.replace(/sldMaster/g, 'sldLayout'), 'layout', { x: 1, y: 2, w: 3, h: 4 }), /<p:ph type="title"\/><\/p:nvPr><\/p:nvSpPr><p:spPr\/>/)
})
