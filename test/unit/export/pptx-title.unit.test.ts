/**
 * Title placeholders (src/export/pptx-title.ts) on hand-written slide parts (their place in the shape
 * tree: test/unit/export/pptx-order.unit.test.ts).
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { asTitlePlaceholder, withTitlePlaceholder } from '../../../src/export/pptx-title.js'

const box = (name: string, x: number, y: number, w: number, h: number, rot = 0) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${name}"></p:cNvPr><p:cNvSpPr txBox="1"/><p:nvPr></p:nvPr></p:nvSpPr><p:spPr><a:xfrm${rot ? ` rot="${rot}"` : ''}><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr sz="4000"/><a:t>${name}</a:t></a:r></a:p></p:txBody></p:sp>`

it('makes a text box the title placeholder: no longer a text box, never autofitted, everything else as written', () => {
  const sp = asTitlePlaceholder(box('title', 10, 20, 300, 40))
  assert.match(sp, /<p:cNvSpPr><a:spLocks noGrp="1"\/><\/p:cNvSpPr><p:nvPr><p:ph type="title"\/><\/p:nvPr>/)
  assert.match(sp, /<a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"><a:noAutofit\/><\/a:bodyPr>/)
  assert.equal(sp.replace('<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/>', '<p:cNvSpPr txBox="1"/><p:nvPr>').replace('<a:noAutofit/>', ''), box('title', 10, 20, 300, 40))
  // A picture (a heading drawn as one) stays a picture.
  const pic = '<p:pic><p:nvPicPr><p:cNvPr id="2" name="t"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr></p:pic>'
  assert.equal(asTitlePlaceholder(pic), pic)
})

it('adds one title placeholder to a master (with its place, no autofit) and a layout, once', () => {
  const master = '<p:sldMaster><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/></p:nvGrpSpPr></p:spTree></p:cSld></p:sldMaster>'
  const once = withTitlePlaceholder(master, 'master', { x: 1, y: 2, w: 3, h: 4 })
  assert.match(once, /<p:cNvPr id="2" name="Title Placeholder 1"\/>.*<p:ph type="title"\/>.*<a:off x="1" y="2"\/><a:ext cx="3" cy="4"\/>.*<a:noAutofit\/>/)
  assert.equal(withTitlePlaceholder(once, 'master', { x: 1, y: 2, w: 3, h: 4 }), once)
  assert.match(withTitlePlaceholder(master.replace(/sldMaster/g, 'sldLayout'), 'layout', { x: 1, y: 2, w: 3, h: 4 }), /<p:ph type="title"\/><\/p:nvPr><\/p:nvSpPr><p:spPr\/>/)
})
