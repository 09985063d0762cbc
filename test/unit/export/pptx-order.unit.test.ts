/**
 * Shape order in native PPTX (src/export/pptx-order.ts): the shape tree in reading order, the title
 * first, without changing what is drawn: shapes that overlap keep their paint order. On hand-written
 * slide parts, then on what the writer exports for a comparison slide and canvas slides.
 */
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import yauzl from 'yauzl'
import { boxesIn, inReadingOrder, overlaps } from '../../../src/export/pptx-order.js'
import { asTitlePlaceholder } from '../../../src/export/pptx-title.js'
import { nativePptx } from '../../../src/export/pptx-native.js'
import { readDeckFolder } from '../../../src/store/decks.js'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'
import { ROOT } from '../../helpers/studio.js'

const box = (name: string, x: number, y: number, w: number, h: number, extra = '') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${name}"></p:cNvPr><p:cNvSpPr txBox="1"/><p:nvPr></p:nvPr></p:nvSpPr><p:spPr><a:xfrm${extra}><a:off x="${x}" y="${y}"/><a:ext cx="${w}" cy="${h}"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr sz="4000"/><a:t>${name}</a:t></a:r></a:p></p:txBody></p:sp>`
const slide = (...shapes: string[]) => `<p:sld><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr></p:grpSpPr>${shapes.join('')}</p:spTree></p:cSld></p:sld>`
const names = (xml: string) => [...xml.matchAll(/<p:cNvPr id="\d+" name="([^"]+)"/g)].map((m) => m[1])
const ranks = (...order: string[]) => new Map(order.map((name, i) => [name, i]))

it('puts the shape tree in reading order where no two shapes overlap', () => {
  const xml = slide(box('shape', 0, 500, 100, 100), box('right', 600, 0, 100, 100), asTitlePlaceholder(box('title', 0, 0, 300, 100)), box('body', 0, 200, 300, 100))
  const out = inReadingOrder(xml, ranks('title', 'body', 'shape', 'right'))
  assert.deepEqual(names(out), ['title', 'body', 'shape', 'right'])
  // The same shapes, byte for byte: only their order changed.
  assert.deepEqual([...out.matchAll(/<p:sp>[\s\S]*?<\/p:sp>/g)].map((m) => m[0]).sort(), [...xml.matchAll(/<p:sp>[\s\S]*?<\/p:sp>/g)].map((m) => m[0]).sort())
  // Shapes without a rank (furniture the caller did not name) are read last, in paint order.
  assert.deepEqual(names(inReadingOrder(xml, ranks('body', 'title'))), ['body', 'title', 'shape', 'right'])
})

it('never moves a shape above or below one it overlaps: paint order holds, reading order decides the rest', () => {
  // A card behind the title: the title cannot go first.
  const under = slide(box('card', 0, 50, 400, 400), asTitlePlaceholder(box('title', 10, 60, 300, 100)))
  assert.equal(inReadingOrder(under, ranks('title', 'card')), under)
  // A label on a card, both read after a note painted last: the note moves ahead of both, the label stays on the card.
  const stacked = slide(box('card', 0, 300, 400, 300), box('label', 20, 320, 200, 50), box('note', 600, 0, 300, 50))
  assert.deepEqual(names(inReadingOrder(stacked, ranks('note', 'label', 'card'))), ['note', 'card', 'label'])
  // A chain: c overlaps b, b overlaps a; reading wants c, b, a; paint order keeps a, b, c.
  const chain = slide(box('a', 0, 0, 100, 100), box('b', 50, 0, 100, 100), box('c', 100, 0, 100, 100))
  assert.deepEqual(names(inReadingOrder(chain, ranks('c', 'b', 'a'))), ['a', 'b', 'c'])
  // a and c do not overlap each other: a free shape read first goes first even when a later one is held back.
  const held = slide(box('a', 0, 0, 100, 100), box('b', 50, 0, 100, 100), box('c', 500, 0, 100, 100))
  assert.deepEqual(names(inReadingOrder(held, ranks('b', 'c', 'a'))), ['c', 'a', 'b'])
})

it('counts what paints outside a frame: a turn, an outline, a shadow, arrow heads', () => {
  // A bar turned 45° sweeps over the title beside it.
  const turned = slide(box('bar', 320, 0, 40, 400, ' rot="2700000"'), asTitlePlaceholder(box('title', 0, 150, 300, 100)))
  assert.equal(inReadingOrder(turned, ranks('title', 'bar')), turned)
  // A shape whose shadow reaches the next one.
  const shadowed = box('card', 0, 0, 100, 100).replace('</p:spPr>', '<a:effectLst><a:outerShdw blurRad="30" dist="20" dir="5400000"/></a:effectLst></p:spPr>')
  const nearShadow = slide(shadowed, box('next', 140, 0, 100, 100))
  assert.equal(inReadingOrder(nearShadow, ranks('next', 'card')), nearShadow)
  assert.deepEqual(names(inReadingOrder(slide(shadowed, box('far', 160, 0, 100, 100)), ranks('far', 'card'))), ['far', 'card'])
  // A line whose arrow head reaches into the box it points at.
  const arrow = box('line', 0, 0, 100, 0).replace('</p:spPr>', '<a:ln w="8"><a:tailEnd type="triangle"/></a:ln></p:spPr>')
  const pointed = slide(box('target', 110, -50, 100, 100), arrow)
  assert.equal(inReadingOrder(pointed, ranks('line', 'target')), pointed)
  assert.ok(boxesIn(arrow).some((b) => overlaps(b, { x: 110, y: -50, w: 100, h: 100 })))
})

it('moves a block drawn as several shapes as one, and leaves a tree it cannot read as it is', () => {
  // The "quote" block is two shapes (a rule and its text): they move together, in their order.
  const xml = slide(box('quote', 0, 300, 10, 100), box('quote', 20, 300, 400, 100), box('title', 0, 0, 300, 100))
  assert.deepEqual(names(inReadingOrder(xml, ranks('title', 'quote'))), ['title', 'quote', 'quote'])
  // A title drawn over the first of them follows both: it never comes between them.
  const over = slide(box('quote', 0, 300, 10, 100), box('quote', 500, 300, 400, 100), box('title', 0, 250, 300, 100))
  assert.deepEqual(names(inReadingOrder(over, ranks('title', 'quote'))), ['quote', 'quote', 'title'])
  // A shape that says nowhere where it paints overlaps everything.
  const nowhere = slide('<p:sp><p:nvSpPr><p:cNvPr id="3" name="odd"/></p:nvSpPr></p:sp>', box('title', 0, 0, 300, 100))
  assert.equal(inReadingOrder(nowhere, ranks('title', 'odd')), nowhere)
  // Nested groups are one element; unreadable trees stay.
  const group = '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="group"/></p:nvGrpSpPr><p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="inner"/></p:nvGrpSpPr></p:grpSp><p:grpSpPr><a:xfrm><a:off x="0" y="500"/><a:ext cx="10" cy="10"/></a:xfrm></p:grpSpPr></p:grpSp>'
  assert.deepEqual(names(inReadingOrder(slide(group, box('title', 0, 0, 300, 100)), ranks('title', 'group'))), ['title', 'group', 'inner'])
  const broken = slide(box('a', 0, 500, 10, 10), '<p:sp>', box('title', 0, 0, 300, 100))
  assert.equal(inReadingOrder(broken, ranks('title', 'a')), broken)
})

function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error)
      const out = new Map<string, string>()
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!/^ppt\/slides\/slide\d+\.xml$/.test(entry.fileName)) return zip.readEntry()
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err)
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'))
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(out))
      zip.readEntry()
    })
  })
}

/** The top-level shapes of a slide part: name and boxes, in tree order. */
function shapesOf(xml: string): { name: string; boxes: ReturnType<typeof boxesIn> }[] {
  const tree = xml.slice(xml.indexOf('</p:grpSpPr>'), xml.lastIndexOf('</p:spTree>'))
  return [...tree.matchAll(/<(p:sp|p:pic|p:graphicFrame|p:cxnSp)>[\s\S]*?<\/\1>/g)].map((m) => ({ name: /name="([^"]*)"/.exec(m[0])![1], boxes: boxesIn(m[0]) }))
}

describe('native PPTX shape order', () => {
  let work: string
  let doc: DeckDoc
  let xml: Map<string, string>
  const at = (id: string, x: number, y: number, w: number, h: number, z: number, extra: Partial<Block> = {}): Block => ({ id, kind: 'textbox', text: id, pos: { x, y, w, h }, z, ...extra })
  const canvas: Slide = {
    id: 'canvas-late-title',
    layout: 'freeform',
    blocks: [
      at('right', 900, 300, 600, 200, 0),
      at('left', 100, 300, 600, 200, 1),
      at('footnote', 100, 700, 1400, 60, 2),
      { id: 'title', kind: 'heading', text: 'Drawn last, read first', pos: { x: 100, y: 80, w: 1400, h: 120 }, z: 3 },
    ],
  }
  const stacked: Slide = {
    id: 'canvas-stacked',
    layout: 'freeform',
    blocks: [
      // A card under its label; a note beside them drawn last; the title drawn first.
      { id: 'title', kind: 'heading', text: 'Cards', pos: { x: 100, y: 80, w: 1400, h: 120 }, z: 0 },
      at('card', 100, 300, 600, 400, 1, { kind: 'shape', shape: 'rect', fill: 'accent', text: '' }),
      at('label', 120, 280, 300, 60, 2),
      at('note', 900, 300, 500, 100, 3),
      // A badge over the title's corner, drawn after it: the title stays beneath it, and stays first.
      at('badge', 1400, 60, 120, 60, 4, { kind: 'shape', shape: 'ellipse', fill: 'accent', text: '' }),
    ],
  }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'studio-order-'))
    cpSync(join(ROOT, 'templates', 'brand-sample'), join(work, 'deck'), { recursive: true })
    doc = await readDeckFolder(join(work, 'deck'))
    const slides = [doc.slides['comparison-1'], canvas, stacked, doc.slides['freeform-1']]
    const { bytes } = await nativePptx({ doc, deckDir: join(work, 'deck'), root: work, slides, appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })
    xml = await unzip(bytes)
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  const order = (n: number) => shapesOf(xml.get(`ppt/slides/slide${n}.xml`)!).map((s) => s.name)

  it('reads a comparison column by column: the title, a head, its points, the next head, its points', () => {
    assert.deepEqual(order(1), ['title', 'h1', 'b1', 'h2', 'b2', 'slide number'])
  })

  it('reads a canvas slide\'s title first though it was drawn last, then left before right, then the band below', () => {
    assert.deepEqual(order(2), ['title', 'left', 'right', 'footnote'])
    // It is the title placeholder (src/export/pptx-title.ts), first in the tree.
    const part = xml.get('ppt/slides/slide2.xml')!
    const first = part.slice(part.indexOf('</p:grpSpPr>'), part.indexOf('</p:sp>'))
    assert.ok(first.includes('name="title"') && first.includes('<p:ph type="title"/>'))
  })

  it('keeps overlapping shapes in paint order: a label stays on its card, a badge over the title', () => {
    assert.deepEqual(order(3), ['title', 'card', 'label', 'note', 'badge'])
    // Every pair of overlapping shapes of every canvas slide is in z order.
    for (const [n, s] of [[2, canvas], [3, stacked], [4, doc.slides['freeform-1']]] as const) {
      const z = new Map((s.blocks ?? []).map((b) => [b.id, b.z as number]))
      const shapes = shapesOf(xml.get(`ppt/slides/slide${n}.xml`)!)
      for (const [i, a] of shapes.entries())
        for (const b of shapes.slice(i + 1)) {
          if (!z.has(a.name) || !z.has(b.name) || !a.boxes.some((p) => b.boxes.some((q) => overlaps(p, q)))) continue
          assert.ok(z.get(a.name)! < z.get(b.name)!, `${s.id}: ${a.name} (z ${z.get(a.name)}) before ${b.name} (z ${z.get(b.name)}), which it overlaps`)
        }
    }
  })
})
