import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Block, Slide } from '../../../src/model/deck.js'
import { blockHeight, fitText } from '../../../src/layout/index.js'
import { drawnFit, drawnFits, TABLE_FLOOR } from '../../../src/layout/fit.js'

const box = (h: number, w = 600) => ({ x: 100, y: 100, w, h })
const para = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1} of a paragraph that is long enough to wrap over the width of a narrow box.`).join('\n')
const table = (rows: number, cols: number): Block => ({
  id: 'tb',
  kind: 'table',
  header: true,
  rows: Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => (r === 0 ? `Col ${c + 1}` : `${r * c}`))),
})

describe('drawnFit: whole lines only', () => {
  it('clips overflowing text at its last whole line, a multiple of the line height', () => {
    const block: Block = { id: 't', kind: 'textbox', text: para(6), size: 28, pos: box(200) }
    const fit = drawnFit(block, box(200), 200)
    assert.equal(fit.size, 28)
    // 28 px at 1.25 is 35 px a line: 5 whole lines in 200 px, never the sixth's top 25 px.
    assert.equal(fit.clip, 175)
    assert.equal(fit.lines!.reduce((a, b) => a + b, 0), 5)
  })
  it('leaves text that fits unclipped', () => {
    const block: Block = { id: 't', kind: 'textbox', text: 'Short.', size: 28, pos: box(200) }
    assert.deepEqual(drawnFit(block, box(200), 200), { size: 28 })
  })
  it('counts paragraph spacing and list gaps before the lines it keeps', () => {
    const spaced: Block = { id: 't', kind: 'textbox', text: 'a\nb\nc\nd', size: 20, spacing: { before: 10 }, pos: box(100) }
    // Each paragraph: 10 px before, a 25 px line. Bottoms 35, 70, 105: two fit in 100.
    assert.equal(drawnFit(spaced, box(100), 100).clip, 70)
    const list: Block = { id: 'l', kind: 'list', items: ['a', 'b', 'c'].map((text) => ({ text })), size: 20, pos: box(60) }
    // Items 25 px apart by an 8 px gap (0.4 em): bottoms 25, 58, 91.
    assert.equal(drawnFit(list, box(60), 60).clip, 58)
  })
})

describe('drawnFit: autofit shrink', () => {
  it('draws a shrink block at the size step fitText answers', () => {
    const block: Block = { id: 't', kind: 'textbox', text: para(6), size: 28, autofit: 'shrink', pos: box(300) }
    const size = fitText(block, box(300)).size
    assert.ok(size < 28)
    const fit = drawnFit(block, box(300), 300)
    assert.equal(fit.size, size)
    assert.equal(fit.clip, undefined)
  })
  it('keeps the stored size of a block without autofit', () => {
    const block: Block = { id: 't', kind: 'textbox', text: para(6), size: 28, pos: box(300) }
    assert.equal(drawnFit(block, box(300), 300).size, 28)
  })
})

describe('drawnFit: tables', () => {
  it('steps a tall table down to the largest size at which its rows fit', () => {
    const block = table(12, 4)
    const full = blockHeight(block, 1200)
    const fit = drawnFit(block, box(400, 1200), 400)
    assert.ok(full > 400)
    assert.ok(fit.size < 28 && fit.size >= TABLE_FLOOR)
    assert.equal(fit.rows, undefined)
    assert.ok(blockHeight({ ...block, size: fit.size }, 1200) <= 400)
    const next = [32, 28, 26, 24, 22, 20, 18, 16, 14].find((s) => s > fit.size)!
    assert.ok(blockHeight({ ...block, size: next }, 1200) > 400, `${next} px would fit too`)
  })
  it('draws a 40 × 12 table at the floor with whole rows only when even that does not fit', () => {
    const block = table(40, 12)
    const fit = drawnFit(block, box(500, 1440), 500)
    assert.equal(fit.size, TABLE_FLOOR)
    // One-line rows at 12 px: 12 × (1.25 + 0.35) = 19.2 px; 26 rows are 499.2 px.
    assert.equal(fit.rows, 26)
    assert.ok(Math.abs(fit.clip! - 26 * 19.2) < 1e-6)
  })
})

describe('drawnFits', () => {
  it('clips slotted text at the slot bottom and leaves blocks that fit out', () => {
    const slide: Slide = { id: 's', layout: 'title-body', title: 'Overflow', blocks: [{ id: 'b', kind: 'text', slot: 'body', text: para(30) }] } as Slide
    const fits = drawnFits(slide)
    assert.equal(fits.has('title'), false)
    const fit = fits.get('b')!
    assert.ok(fit.clip! > 0)
    assert.ok(Math.abs(fit.clip! / 35 - Math.round(fit.clip! / 35)) < 1e-9, 'a whole number of 35 px lines')
  })
})
