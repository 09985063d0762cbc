import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LAYOUTS, SHEET, SLOTS } from '../../../src/model/layouts.js'
import { contentBox, drawnBoxes, slotBoxes, LAYOUT_SLOTS, REGIONS, toCanvas, type Box } from '../../../src/layout/index.js'

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

describe('slot boxes', () => {
  it('has boxes for every one of the 22 layouts, using only the 8 slot names', () => {
    assert.equal(LAYOUTS.length, 22)
    for (const layout of LAYOUTS) {
      assert.ok(LAYOUT_SLOTS[layout], layout)
      for (const slot of Object.keys(slotBoxes(layout))) assert.ok((SLOTS as readonly string[]).includes(slot), `${layout}.${slot}`)
    }
  })

  it('keeps every slot box inside the sheet, with a positive size', () => {
    for (const layout of LAYOUTS) {
      for (const [slot, box] of Object.entries(slotBoxes(layout)) as [string, Box][]) {
        assert.ok(box.w > 0 && box.h > 0, `${layout}.${slot} is empty`)
        assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.w <= SHEET.width && box.y + box.h <= SHEET.height, `${layout}.${slot} leaves the sheet`)
      }
    }
  })

  it('never lets two slots of one layout overlap', () => {
    for (const layout of LAYOUTS) {
      const entries = Object.entries(slotBoxes(layout)) as [string, Box][]
      for (let i = 0; i < entries.length; i++) {
        for (let j = i + 1; j < entries.length; j++) assert.ok(!overlap(entries[i][1], entries[j][1]), `${layout}: ${entries[i][0]} overlaps ${entries[j][0]}`)
      }
    }
  })

  it('puts every slot edge on the 8 px grid or the sheet edge', () => {
    for (const layout of LAYOUTS) {
      for (const [slot, box] of Object.entries(slotBoxes(layout)) as [string, Box][]) {
        for (const v of [box.x, box.y, box.x + box.w]) assert.equal(v % 8, 0, `${layout}.${slot}`)
        assert.ok((box.y + box.h) % 8 === 0 || box.y + box.h === SHEET.height, `${layout}.${slot}`)
      }
    }
  })

  it('keeps 80 px side margins on everything but full-bleed pictures', () => {
    for (const layout of LAYOUTS) {
      for (const [slot, box] of Object.entries(slotBoxes(layout)) as [string, Box][]) {
        if (slot === 'media' && (layout === 'picture-full' || layout === 'picture-left')) continue
        assert.ok(box.x >= 80 && box.x + box.w <= SHEET.width - 80, `${layout}.${slot}`)
      }
    }
  })

  it('gives the freeform canvas no slots and the blank layout one body that is the content box', () => {
    assert.deepEqual(slotBoxes('freeform'), {})
    assert.deepEqual(slotBoxes('no-such-layout'), {})
    assert.deepEqual(slotBoxes('blank'), { body: contentBox() })
    assert.deepEqual(contentBox(), { x: 80, y: 56, w: 1440, h: 784 })
  })

  it('centres the title slide and section header, and gives content layouts a title band and a footer band', () => {
    for (const layout of ['title', 'section', 'closing']) {
      const t = slotBoxes(layout).title!
      assert.equal(t.x + t.w / 2, SHEET.width / 2, layout)
    }
    for (const layout of ['title-body', 'two-columns', 'three-columns', 'comparison', 'table', 'chart', 'grid', 'timeline', 'picture-caption']) {
      const boxes = slotBoxes(layout)
      assert.deepEqual(boxes.title, { x: 80, y: 56, w: 1440, h: 120 }, layout)
      assert.deepEqual(boxes.footer, { x: 80, y: 800, w: 1440, h: 40 }, layout)
    }
  })

  it('gives three columns left, body and right as equal columns, and picture layouts a media slot', () => {
    const b = slotBoxes('three-columns')
    assert.ok(b.left!.x < b.body!.x && b.body!.x < b.right!.x)
    assert.equal(b.left!.w, b.body!.w)
    assert.equal(b.body!.w, b.right!.w)
    for (const layout of ['picture-caption', 'picture-full', 'picture-left', 'chart', 'grid']) assert.ok(slotBoxes(layout).media, layout)
    assert.deepEqual(slotBoxes('picture-full').media, { x: 0, y: 0, w: 1600, h: 900 })
  })

  it('returns copies, so a caller cannot move a slot', () => {
    slotBoxes('title-body').body!.x = 999
    contentBox().x = 999
    assert.equal(slotBoxes('title-body').body!.x, 80)
    assert.equal(contentBox().x, 80)
  })
})

describe('region options (layoutOptions)', () => {
  it('are the layout\'s own boxes at the layout\'s own values', () => {
    for (const [layout, region] of Object.entries(REGIONS)) {
      assert.deepEqual(slotBoxes(layout, { ...region.own }), slotBoxes(layout), layout)
      assert.deepEqual(slotBoxes(layout, {}), slotBoxes(layout), layout)
    }
  })

  it('split two columns by ratio and gap, and stack them as rows', () => {
    const wide = slotBoxes('two-columns', { ratio: 0.7 })
    assert.deepEqual(wide.left, { x: 80, y: 208, w: 960, h: 568 })
    assert.deepEqual(wide.right, { x: 1104, y: 208, w: 416, h: 568 })
    const tight = slotBoxes('two-columns', { gap: 16 })
    assert.equal(tight.right!.x - (tight.left!.x + tight.left!.w), 16)
    assert.equal(tight.left!.w, tight.right!.w)
    const rows = slotBoxes('two-columns', { layout: 'rows', gap: 24 })
    assert.deepEqual(rows.left, { x: 80, y: 208, w: 1440, h: 272 })
    assert.deepEqual(rows.right, { x: 80, y: 504, w: 1440, h: 272 })
  })

  it('keep every slot on the sheet, apart and on the 8 px grid for any options in range', () => {
    for (const [layout, region] of Object.entries(REGIONS)) {
      for (const ratio of [0.2, 0.37, 0.5, 0.61, 0.8]) {
        for (const gap of [0, 8, 64, 160]) {
          for (const arrangement of region.takes.includes('layout') ? (['columns', 'rows'] as const) : (['columns'] as const)) {
            const at = `${layout} ${ratio} ${gap} ${arrangement}`
            const entries = Object.entries(slotBoxes(layout, { ratio, gap, layout: arrangement })) as [string, Box][]
            assert.deepEqual(entries.map(([slot]) => slot), Object.keys(slotBoxes(layout)), at)
            for (const [slot, box] of entries) {
              assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.w <= SHEET.width && box.y + box.h <= SHEET.height, `${at}: ${slot}`)
              for (const v of [box.x, box.y, box.x + box.w]) assert.equal(v % 8, 0, `${at}: ${slot}`)
            }
            for (let i = 0; i < entries.length; i++) {
              for (let j = i + 1; j < entries.length; j++) assert.ok(!overlap(entries[i][1], entries[j][1]) || entries[i][1].w === 0 || entries[j][1].w === 0, `${at}: ${entries[i][0]} overlaps ${entries[j][0]}`)
            }
          }
        }
      }
    }
  })

  it('are what a slide draws and what the canvas gets', () => {
    const slide = {
      id: 's',
      layout: 'two-columns',
      layoutOptions: { ratio: 0.3 },
      blocks: [
        { id: 'a', kind: 'text', slot: 'left', text: 'Left' },
        { id: 'b', kind: 'text', slot: 'right', text: 'Right' },
      ],
    }
    // 0.3 of the 1376 px the 64 px gap leaves, on the 8 px grid: 416.
    assert.equal(drawnBoxes(slide).get('a')!.w, 416)
    assert.equal(drawnBoxes(slide).get('b')!.x, 560)
    const canvas = toCanvas(slide)
    assert.equal((canvas.blocks![0].pos as Box).w, 416)
    assert.equal(canvas.layoutOptions, undefined)
  })
})
