/**
 * Anchors that follow the content (src/comments/anchor.ts): 10,000 random edits over a deck with
 * threads of every anchor kind lose no thread, and every text anchor either sits on exactly its quoted
 * text or is detached with the quote; edits outside a range never change what it covers.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { follow, indexMap, offsetMap, place, settle, textAt, type Anchor, type Placed } from '../../../src/comments/anchor.js'
import type { Block, DeckDoc, Slide } from '../../../src/model/deck.js'

/** A small seeded generator (mulberry32), so a failure names the seed that reproduces it. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] }
}

const WORDS = ['costs', 'fell', 'by', 'half', 'at', 'Acme', 'margins', 'grew', 'revenue', '12 %', 'ß', '😀', 'Q3', 'the', 'a']
const clone = (doc: DeckDoc): DeckDoc => structuredClone(doc)
const chars = (s: string) => Array.from(s)

function sentence(r: ReturnType<typeof random>, n = 3 + r.int(8)): string {
  return Array.from({ length: n }, () => r.pick(WORDS)).join(r.next() < 0.1 ? '\n' : ' ')
}

function slideOf(r: ReturnType<typeof random>, id: string): Slide {
  return {
    id,
    layout: 'title-body',
    blocks: [
      { id: 'b1', kind: 'text', slot: 'body', text: sentence(r, 12) },
      { id: 'b2', kind: 'list', slot: 'body', items: [{ text: sentence(r) }, { text: sentence(r) }, { text: sentence(r) }] },
      { id: 'b3', kind: 'table', slot: 'body', rows: [['Metric', 'Q1', 'Q2'], ['Revenue', '1', '2'], ['Costs', '3', '4']] },
    ],
    notes: sentence(r),
  }
}

function deckOf(r: ReturnType<typeof random>): DeckDoc {
  const ids = ['s1', 's2', 's3', 's4']
  return {
    manifest: { id: 'd', title: 'D', theme: 'simple', sections: [{ id: 'main', title: 'Main', slides: ids }], revision: 0, stamps: { createdAt: '', updatedAt: '' } },
    slides: Object.fromEntries(ids.map((id) => [id, slideOf(r, id)])),
    versions: [],
  }
}

/** Every Text site of a deck: slide, block, path, and a setter through the plain text. */
function sites(doc: DeckDoc): { slideId: string; block: Block; path: string }[] {
  const out: { slideId: string; block: Block; path: string }[] = []
  for (const slide of Object.values(doc.slides)) {
    for (const block of slide.blocks ?? []) {
      if (block.kind === 'text') out.push({ slideId: slide.id, block, path: '/text' })
      if (block.kind === 'list') (block.items as { text: string }[]).forEach((_, i) => out.push({ slideId: slide.id, block, path: `/items/${i}/text` }))
      if (block.kind === 'table') (block.rows as string[][]).forEach((row, ri) => row.forEach((_, c) => out.push({ slideId: slide.id, block, path: `/rows/${ri}/${c}` })))
    }
  }
  return out
}

/** Plain text only (no marks): escaping keeps it plain for the model's reader. */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function setText(block: Block, path: string, plain: string) {
  const parts = path.split('/').slice(1)
  let target: Record<string, unknown> = block
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>
  target[parts[parts.length - 1]] = escape(plain)
}

interface Edit {
  /** For a text edit: where, and the region [start, end) of the old text it replaced. */
  text?: { slideId: string; blockId: string; path: string; start: number; end: number; inserted: number }
}

/** One random edit of `doc` (in place); `history` for undo and version restore. */
function edit(r: ReturnType<typeof random>, doc: DeckDoc, history: DeckDoc[]): { doc: DeckDoc; edit: Edit } {
  const roll = r.next()
  const slides = doc.manifest.sections[0].slides
  if (roll < 0.55) {
    const all = sites(doc)
    if (!all.length) return { doc, edit: {} }
    const site = r.pick(all)
    const old = chars(textAt(site.block, site.path) ?? '')
    const start = r.int(old.length + 1)
    const end = Math.min(old.length, start + (r.next() < 0.5 ? 0 : r.int(6)))
    const insert = r.next() < 0.25 && end > start ? '' : r.pick(WORDS) + (r.next() < 0.5 ? ' ' : '')
    setText(site.block, site.path, [...old.slice(0, start), ...chars(insert), ...old.slice(end)].join(''))
    return { doc, edit: { text: { slideId: site.slideId, blockId: site.block.id, path: site.path, start, end, inserted: chars(insert).length } } }
  }
  if (roll < 0.62 && slides.length) {
    // Blocks reordered on a slide.
    const slide = doc.slides[r.pick(slides)]
    slide.blocks = [...(slide.blocks ?? [])].sort(() => r.next() - 0.5)
  } else if (roll < 0.67 && slides.length > 1) {
    // A block moved to another slide (its id kept when free there).
    const from = doc.slides[r.pick(slides)]
    const to = doc.slides[r.pick(slides)]
    const block = from.blocks?.length ? from.blocks[r.int(from.blocks.length)] : undefined
    if (block && from !== to && !to.blocks?.some((b) => b.id === block.id)) {
      from.blocks = from.blocks!.filter((b) => b !== block)
      to.blocks = [...(to.blocks ?? []), block]
    }
  } else if (roll < 0.72) {
    doc.manifest.sections[0].slides = [...slides].sort(() => r.next() - 0.5)
  } else if (roll < 0.77 && slides.length) {
    const slide = doc.slides[r.pick(slides)]
    if (slide.blocks?.length) slide.blocks.splice(r.int(slide.blocks.length), 1)
  } else if (roll < 0.8 && slides.length > 1) {
    const id = r.pick(slides)
    delete doc.slides[id]
    doc.manifest.sections[0].slides = slides.filter((s) => s !== id)
  } else if (roll < 0.84) {
    // List items reordered, or a table row inserted or removed.
    const slide = slides.length ? doc.slides[r.pick(slides)] : undefined
    const list = slide?.blocks?.find((b) => b.kind === 'list')
    const table = slide?.blocks?.find((b) => b.kind === 'table')
    if (r.next() < 0.5 && list) list.items = [...(list.items as unknown[])].sort(() => r.next() - 0.5)
    else if (table) {
      const rows = table.rows as string[][]
      if (r.next() < 0.5 && rows.length > 1) rows.splice(1 + r.int(rows.length - 1), 1)
      else rows.splice(r.int(rows.length + 1), 0, rows[0].map(() => r.pick(WORDS)))
    }
  } else if (roll < 0.88) {
    const id = `s${5 + r.int(4)}`
    if (!doc.slides[id]) {
      doc.slides[id] = slideOf(r, id)
      doc.manifest.sections[0].slides = [...slides, id]
    }
  } else if (roll < 0.95 && history.length > 1) {
    // Undo: the document before the last write.
    return { doc: history[history.length - 2], edit: {} }
  } else if (history.length > 3) {
    // Version restore: a document some writes back.
    return { doc: history[r.int(history.length - 1)], edit: {} }
  }
  return { doc, edit: {} }
}

/** A new thread on a random place of `doc`, of a random kind. */
function newThread(r: ReturnType<typeof random>, doc: DeckDoc): Placed | undefined {
  const slides = doc.manifest.sections[0].slides
  if (!slides.length) return undefined
  const slide = doc.slides[r.pick(slides)]
  const block = slide.blocks?.length ? r.pick(slide.blocks) : undefined
  const kind = r.pick(['deck', 'slide', 'notes', 'block', 'range', 'range', 'range', 'cell'] as const)
  let anchor: Anchor
  if (kind === 'deck') anchor = { kind }
  else if (kind === 'slide' || kind === 'notes') anchor = { kind, slideId: slide.id }
  else if (!block) return undefined
  else if (kind === 'block') anchor = { kind, slideId: slide.id, blockId: block.id }
  else if (kind === 'cell') {
    if (block.kind !== 'table') return undefined
    const rows = block.rows as string[][]
    const row = r.int(rows.length)
    anchor = { kind, slideId: slide.id, blockId: block.id, row, col: r.int(rows[row].length) }
  } else {
    const site = r.pick(sites(doc).filter((s) => s.slideId === slide.id))
    if (!site) return undefined
    const length = chars(textAt(site.block, site.path) ?? '').length
    if (length < 2) return undefined
    const start = r.int(length - 1)
    anchor = { kind, slideId: slide.id, blockId: site.block.id, path: site.path, range: [start, start + 1 + r.int(Math.min(8, length - start - 1))] }
  }
  const placed = place(doc, anchor)
  assert.ok(!('problem' in placed), JSON.stringify(placed))
  return placed as Placed
}

function covered(doc: DeckDoc, placed: Placed): string | undefined {
  const anchor = placed.anchor
  if (anchor.kind !== 'range') return undefined
  const block = doc.slides[anchor.slideId]?.blocks?.find((b) => b.id === anchor.blockId)
  const text = block ? textAt(block, anchor.path) : undefined
  return text === undefined ? undefined : chars(text).slice(anchor.range[0], anchor.range[1]).join('')
}

/** The invariants every anchor holds against the document it was moved into. */
function holds(doc: DeckDoc, placed: Placed, where: string) {
  const { anchor } = placed
  const slide = 'slideId' in anchor ? doc.slides[anchor.slideId] : undefined
  const block = 'blockId' in anchor ? slide?.blocks?.find((b) => b.id === anchor.blockId) : undefined
  switch (anchor.kind) {
    case 'deck':
      assert.equal(placed.status, 'attached', where)
      break
    case 'slide':
    case 'notes':
      assert.equal(placed.status, slide ? 'attached' : 'removed', where)
      break
    case 'block':
      assert.equal(placed.status, block ? 'attached' : 'removed', where)
      break
    case 'cell':
      if (placed.status === 'attached') assert.ok((block?.rows as string[][] | undefined)?.[anchor.row]?.[anchor.col] !== undefined, `${where}: an attached cell names no cell`)
      break
    case 'range':
      assert.ok(placed.quote && chars(placed.quote.exact).length > 0, `${where}: a range without its quote`)
      if (placed.status === 'attached') assert.equal(covered(doc, placed), placed.quote!.exact, `${where}: an attached range does not sit on its quote`)
      else assert.equal(placed.status, block ? 'detached' : 'removed', where)
      break
  }
}

describe('comment anchors through 10,000 random edits', () => {
  const seed = Number(process.env.STUDIO_ANCHOR_SEED ?? 20261128)
  it(`lose no thread, and every text anchor sits on its quote or is detached with it (seed ${seed})`, () => {
    const r = random(seed)
    let doc = deckOf(r)
    const history: DeckDoc[] = [clone(doc)]
    const threads: Placed[] = []
    const seen = { attached: 0, detached: 0, removed: 0, shifted: 0, reattached: 0 }
    for (let i = 0; i < 40; i++) {
      const t = newThread(r, doc)
      if (t) threads.push(t)
    }
    for (let step = 0; step < 10_000; step++) {
      // Each edit works on a copy: `doc` and the history are never changed afterwards.
      const before = doc
      const made = edit(r, clone(doc), history)
      const after = made.doc
      const count = threads.length
      for (let k = 0; k < threads.length; k++) {
        const old = threads[k]
        const moved = follow(before, after, old)
        const where = `seed ${seed}, step ${step}, thread ${k} ${JSON.stringify(old)} -> ${JSON.stringify(moved)}`
        holds(after, moved, where)
        // An edit of the same Text wholly outside an attached range moves it and leaves what it covers.
        const e = made.edit.text
        const a = old.anchor
        if (e && a.kind === 'range' && old.status === 'attached' && e.slideId === a.slideId && e.blockId === a.blockId && e.path === a.path) {
          const outside = e.end < a.range[0] || e.start > a.range[1] || (e.start === e.end && (e.start === a.range[0] || e.start === a.range[1])) || (e.end === a.range[0] && e.start < e.end) || (e.start === a.range[1] && e.start < e.end)
          if (outside) {
            assert.equal(moved.status, 'attached', `${where}: an edit outside the range detached it (${JSON.stringify(e)})`)
            assert.equal(moved.quote!.exact, old.quote!.exact, `${where}: an edit outside the range changed what it covers (${JSON.stringify(e)})`)
            if (moved.anchor.kind === 'range' && moved.anchor.range[0] !== a.range[0]) seen.shifted++
          }
        }
        if (old.status !== 'attached' && moved.status === 'attached') seen.reattached++
        threads[k] = moved
      }
      assert.equal(threads.length, count)
      doc = after
      history.push(after)
      if (history.length > 30) history.shift()
      if (step % 50 === 0) {
        const t = newThread(r, doc)
        if (t) threads.push(t)
      }
    }
    for (const t of threads) seen[t.status]++
    // Reading a thread against the document alone agrees with where the writes moved it.
    for (const t of threads) holds(doc, settle(doc, t), `settle ${JSON.stringify(t)}`)
    // The walk reached every case it is meant to test.
    assert.ok(seen.shifted > 100, `only ${seen.shifted} ranges moved by edits before them`)
    assert.ok(seen.reattached > 5, `only ${seen.reattached} anchors came back`)
    assert.ok(seen.attached > 10 && seen.detached + seen.removed > 5, JSON.stringify(seen))
  })
})

describe('anchors, case by case', () => {
  const r = random(7)
  const base = (): DeckDoc => {
    const doc = deckOf(r)
    doc.slides.s1.blocks![0].text = 'Costs fell by half at Acme.\nMargins grew.'
    return doc
  }
  const range = (doc: DeckDoc, start: number, end: number) => place(doc, { kind: 'range', slideId: 's1', blockId: 'b1', path: '/text', range: [start, end] }) as Placed

  it('shifts a range past text typed before it, and keeps text typed at its edges outside it', () => {
    const doc = base()
    const t = range(doc, 14, 18)
    assert.equal(t.quote?.exact, 'half')
    const typed = clone(doc)
    typed.slides.s1.blocks![0].text = 'Now: costs fell by half at Acme.\nMargins grew.'
    assert.deepEqual(follow(doc, typed, t).anchor, { kind: 'range', slideId: 's1', blockId: 'b1', path: '/text', range: [19, 23] })
    const atEnd = clone(doc)
    atEnd.slides.s1.blocks![0].text = 'Costs fell by half!! at Acme.\nMargins grew.'
    assert.equal(covered(atEnd, follow(doc, atEnd, t)), 'half')
  })

  it('follows a word retyped inside the range, detaches when the words go, and comes back with an undo', () => {
    const doc = base()
    const t = range(doc, 14, 18)
    const gone = clone(doc)
    gone.slides.s1.blocks![0].text = 'Costs fell at Acme.'
    const detached = follow(doc, gone, t)
    assert.equal(detached.status, 'detached')
    assert.equal(detached.quote?.exact, 'half')
    const back = follow(gone, doc, detached)
    assert.equal(back.status, 'attached')
    assert.equal(covered(doc, back), 'half')
  })

  it('finds a moved list item by its quote, and never jumps to the same words in another block', () => {
    const doc = base()
    const list = doc.slides.s1.blocks![1]
    list.items = [{ text: 'Faster builds' }, { text: 'Fewer incidents' }]
    const t = place(doc, { kind: 'range', slideId: 's1', blockId: 'b2', path: '/items/1/text', range: [0, 5] }) as Placed
    const swapped = clone(doc)
    swapped.slides.s1.blocks![1].items = [{ text: 'Fewer incidents' }, { text: 'Faster builds' }]
    const moved = follow(doc, swapped, t)
    assert.deepEqual([moved.status, (moved.anchor as { path: string }).path, covered(swapped, moved)], ['attached', '/items/0/text', 'Fewer'])
    // The same words in another slide's block are other words: the thread says its block is gone.
    const elsewhere = clone(doc)
    elsewhere.slides.s2.blocks![0].text = 'Fewer incidents'
    elsewhere.slides.s1.blocks!.splice(1, 1)
    const gone = follow(doc, elsewhere, t)
    assert.deepEqual([gone.status, (gone.anchor as { slideId: string }).slideId, gone.quote?.exact], ['removed', 's1', 'Fewer'])
  })

  it('keeps a cell through a row inserted above it, and marks it removed with its row', () => {
    const doc = base()
    const t = place(doc, { kind: 'cell', slideId: 's1', blockId: 'b3', row: 2, col: 1 }) as Placed
    assert.deepEqual(t.quote, { exact: '3', prefix: 'Costs', suffix: 'Q1' })
    const inserted = clone(doc)
    ;(inserted.slides.s1.blocks![2].rows as string[][]).splice(1, 0, ['Profit', '5', '6'])
    assert.deepEqual(follow(doc, inserted, t).anchor, { kind: 'cell', slideId: 's1', blockId: 'b3', row: 3, col: 1 })
    const edited = clone(doc)
    ;(edited.slides.s1.blocks![2].rows as string[][])[2][1] = '30'
    assert.deepEqual([follow(doc, edited, t).status, (follow(doc, edited, t).anchor as { row: number }).row], ['attached', 2])
    const removed = clone(doc)
    ;(removed.slides.s1.blocks![2].rows as string[][]).splice(2, 1)
    const gone = follow(doc, removed, t)
    assert.equal(gone.status, 'removed')
    assert.equal(follow(removed, doc, gone).status, 'attached')
  })

  it('marks slide, notes and block anchors removed with their slide or block, and back with them', () => {
    const doc = base()
    const anchors: Placed[] = [
      place(doc, { kind: 'slide', slideId: 's2' }) as Placed,
      place(doc, { kind: 'notes', slideId: 's2' }) as Placed,
      place(doc, { kind: 'block', slideId: 's2', blockId: 'b1' }) as Placed,
    ]
    const without = clone(doc)
    delete without.slides.s2
    without.manifest.sections[0].slides = without.manifest.sections[0].slides.filter((s) => s !== 's2')
    const removed = anchors.map((a) => follow(doc, without, a))
    assert.deepEqual(removed.map((a) => a.status), ['removed', 'removed', 'removed'])
    assert.deepEqual(removed.map((a) => follow(without, doc, a).status), ['attached', 'attached', 'attached'])
  })

  it('refuses an anchor on nothing, with the reason', () => {
    const doc = base()
    assert.match((place(doc, { kind: 'slide', slideId: 'nope' }) as { problem: string }).problem, /No slide "nope"/)
    assert.match((place(doc, { kind: 'range', slideId: 's1', blockId: 'b1', path: '/text', range: [3, 300] }) as { problem: string }).problem, /ends beyond the text/)
    assert.match((place(doc, { kind: 'range', slideId: 's1', blockId: 'b1', path: '/items/0/text', range: [0, 1] }) as { problem: string }).problem, /not a Text of block "b1" \(its Texts: \/text\)/)
    assert.match((place(doc, { kind: 'cell', slideId: 's1', blockId: 'b1', row: 0, col: 0 }) as { problem: string }).problem, /a cell anchor names a table's cell/)
  })

  it('maps offsets and indexes through one change', () => {
    const map = offsetMap('abcdef', 'abXYcdef')
    assert.deepEqual([map(1, 'start'), map(2, 'start'), map(2, 'end'), map(4, 'end')], [1, 4, 2, 6])
    assert.equal(offsetMap('abcdef', 'abZf')(3, 'start'), undefined)
    assert.equal(indexMap(['a', 'b', 'c'], ['a', 'x', 'b', 'c'], 1), 2)
    assert.equal(indexMap(['a', 'b', 'c'], ['a', 'B', 'c'], 1), 1)
    assert.equal(indexMap(['a', 'b', 'c'], ['a', 'c'], 1), undefined)
  })
})
