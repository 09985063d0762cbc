/**
 * Table columns align as a designer sets them: a column of numbers to the right (its header too),
 * text to the left, or what `columnAlign` says; the renderer and the native PPTX read the same rule.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'
import { tableColumnAlign } from '../../../src/layout/blocks.js'
import { slideHtml } from '../../../src/render/html.js'
import { nativePptx } from '../../../src/export/pptx-native.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'

const table = (extra: Partial<Block> = {}): Block => ({
  id: 't',
  kind: 'table',
  slot: 'body',
  header: true,
  rows: [
    ['Region', 'Revenue', 'Growth', 'Note'],
    ['North', '$1,240', '12.5%', 'steady'],
    ['South', '−310', '-3%', '4 new stores'],
    ['West', '2.4M', '0.5', ''],
  ],
  ...extra,
})

it('right-aligns a column of numbers (signs, currencies, separators, %, M), left-aligns text, and follows columnAlign', () => {
  assert.deepEqual(tableColumnAlign(table()), ['left', 'right', 'right', 'left'])
  assert.deepEqual(tableColumnAlign(table({ columnAlign: ['center', 'auto', 'left'] })), ['center', 'right', 'left', 'left'])
  // Without a header row the first row is data: "Revenue" is not a number, so the column is text.
  assert.deepEqual(tableColumnAlign(table({ header: false })), ['left', 'left', 'left', 'left'])
})

it('draws the alignment in the renderer and writes it in the native PPTX', async () => {
  const slide: Slide = { id: 'table-1', layout: 'table', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Regions' }, table()] }
  const manifest = { id: 'd', title: 'D', theme: 'studio-simple', sections: [{ id: 'main', title: 'Main', slides: ['table-1'] }], revision: 1, stamps: { createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z' } }
  const html = slideHtml(slide, manifest as never, { appearance: 'light', asset: () => undefined } as never)
  const cells = [...html.matchAll(/<td style="([^"]*)">/g)].map((m) => /text-align:(\w+)/.exec(m[1])?.[1] ?? 'left')
  assert.deepEqual(cells.slice(0, 4), ['left', 'right', 'right', 'left'])
  assert.deepEqual(cells.slice(4, 8), ['left', 'right', 'right', 'left'])
  const work = mkdtempSync(join(tmpdir(), 'studio-table-align-'))
  try {
    const doc = { manifest, slides: { 'table-1': slide }, versions: [] } as unknown as DeckDoc
    const { bytes } = await nativePptx({ doc, deckDir: join(work, 'deck'), root: work, slides: [slide], appearance: 'light', includeNotes: false, baseline: 'none', embedFonts: false, headingsRaster: false })
    const xml = await (await JSZip.loadAsync(bytes)).file('ppt/slides/slide1.xml')!.async('string')
    const rows = [...xml.matchAll(/<a:tr [^>]*>([\s\S]*?)<\/a:tr>/g)].map((r) => [...r[1].matchAll(/<a:tc>([\s\S]*?)<\/a:tc>/g)].map((c) => /algn="(\w+)"/.exec(c[1])?.[1] ?? 'l'))
    assert.deepEqual(rows[0], ['l', 'r', 'r', 'l'])
    assert.deepEqual(rows[1], ['l', 'r', 'r', 'l'])
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})
