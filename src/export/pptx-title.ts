/**
 * Title placeholders in native PPTX. A slide's title is written as its title placeholder
 * (`<p:ph type="title"/>`) so that PowerPoint's outline view, its accessibility checker and screen
 * readers find it; the slide master and layout declare the placeholder it resolves against.
 *
 * The look must not change: the slide's shape keeps its own position, insets, anchor, line spacing and
 * run properties, all written explicitly; what it would otherwise inherit from the master's title style
 * (centred paragraphs, 44 pt, the theme's major face) is overridden by those. Autofit is the one body
 * property pptxgenjs leaves out, so `<a:noAutofit/>` is written on the shape and on the master's
 * placeholder: the text never shrinks or moves.
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

const XFRM = /<(?:a|p):xfrm\b([^>]*)>\s*<a:off x="(-?\d+)" y="(-?\d+)"\/>\s*<a:ext cx="(\d+)" cy="(\d+)"\/>/g

/** Every box an XML fragment places something at (rotated ones as the square their turn can sweep). */
function boxesIn(xml: string): EmuBox[] {
  return [...xml.matchAll(XFRM)].map((m) => {
    const [x, y, w, h] = m.slice(2, 6).map(Number)
    if (!/\brot="-?[1-9]/.test(m[1])) return { x, y, w, h }
    const d = Math.hypot(w, h)
    return { x: x + w / 2 - d / 2, y: y + h / 2 - d / 2, w: d, h: d }
  })
}

const overlaps = (a: EmuBox, b: EmuBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

/**
 * The slide with its title placeholder first in the shape tree, so reading order starts with it. The
 * shape tree's order is also the paint order: when something drawn before the title overlaps it, the
 * title would go beneath it, so it stays where it is (the picture wins; it is still the slide's title).
 */
export function titleFirst(slide: string): string {
  const ph = slide.indexOf('<p:ph type="title"/>')
  if (ph < 0) return slide
  const start = slide.lastIndexOf('<p:sp>', ph)
  const end = slide.indexOf('</p:sp>', ph) + '</p:sp>'.length
  const treeStart = slide.indexOf('</p:grpSpPr>', slide.indexOf('<p:spTree>')) + '</p:grpSpPr>'.length
  if (start < 0 || treeStart < '</p:grpSpPr>'.length || start <= treeStart) return slide
  const title = slide.slice(start, end)
  const before = slide.slice(treeStart, start)
  const own = boxesIn(title)
  if (own.some((box) => boxesIn(before).some((other) => overlaps(box, other)))) return slide
  return slide.slice(0, treeStart) + title + before + slide.slice(end)
}
