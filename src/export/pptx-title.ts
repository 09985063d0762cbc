/**
 * Title placeholders in native PPTX. A slide's title is written as its title placeholder
 * (`<p:ph type="title"/>`) so that PowerPoint's outline view, its accessibility checker and screen
 * readers find it; the slide master and layout declare the placeholder it resolves against.
 *
 * The look must not change: the slide's shape keeps its own position, insets, anchor, line spacing and
 * run properties, all written explicitly; what it would otherwise inherit from the master's title style
 * (centred paragraphs, 44 pt, the theme's major face) is overridden by those. Autofit is the one body
 * property pptxgenjs leaves out, so `<a:noAutofit/>` is written on the master's placeholder and on a
 * shape that says none: the text never shrinks or moves. A title of two lines or more keeps its
 * shrink on overflow (pptx-native.ts `shrinksOnOverflow`), which acts only on a wider fallback face.
 * It is read first: src/export/pptx-order.ts puts the shape tree in reading order.
 */

/** The text box `sp` (one `<p:sp>` element) as the slide's title placeholder; unchanged when it is not a text shape. */
export function asTitlePlaceholder(sp: string): string {
  if (!sp.startsWith('<p:sp>') || !/<p:txBody>/.test(sp)) return sp
  let out = sp.replace(/<p:cNvSpPr\b[^>]*?(?:\/>|>[\s\S]*?<\/p:cNvSpPr>)/, '<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>')
  out = /<p:nvPr\/>/.test(out) ? out.replace('<p:nvPr/>', '<p:nvPr><p:ph type="title"/></p:nvPr>') : out.replace('<p:nvPr>', '<p:nvPr><p:ph type="title"/>')
  out = out.replace(/<a:bodyPr\b([^>]*?)(?:\/>|>([\s\S]*?)<\/a:bodyPr>)/, (all, attributes: string, inner = '') =>
    /<a:(?:noAutofit|normAutofit|spAutoFit)\b/.test(inner) ? all : `<a:bodyPr${attributes}><a:noAutofit/>${inner}</a:bodyPr>`,
  )
  return out
}

/** A box in EMU. */
export interface EmuBox {
  x: number
  y: number
  w: number
  h: number
}

/**
 * A slide master or layout part with a title placeholder added to its shape tree (none added when it
 * has one). The master's carries a position, zero insets, top anchor and no autofit; the layout's
 * inherits all of it from the master. Placeholders on a master or layout are not drawn on the slides.
 */
export function withTitlePlaceholder(xml: string, part: 'master' | 'layout', box: EmuBox): string {
  if (/<p:ph type="title"\/>/.test(xml) || !xml.includes('</p:spTree>')) return xml
  const ids = [...xml.matchAll(/<p:cNvPr id="(\d+)"/g)].map((m) => Number(m[1]))
  const id = Math.max(1, ...ids) + 1
  const spPr = part === 'master' ? `<p:spPr><a:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.w}" cy="${box.h}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` : '<p:spPr/>'
  const bodyPr = part === 'master' ? '<a:bodyPr vert="horz" wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" rtlCol="0" anchor="t"><a:noAutofit/></a:bodyPr>' : '<a:bodyPr/>'
  const sp =
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Title Placeholder ${id - 1}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>` +
    `${spPr}<p:txBody>${bodyPr}<a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Title</a:t></a:r></a:p></p:txBody></p:sp>`
  return xml.replace('</p:spTree>', `${sp}</p:spTree>`)
}
