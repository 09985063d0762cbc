/**
 * Random non-overlapping edits of a deck on two sides, for the merge property
 * (test/unit/history/merge.unit.test.ts) and its runs through real git (test/e2e/merge.e2e.test.ts).
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { DeckDoc } from '../../src/model/deck.js'

export const sectionOf = (doc: DeckDoc, slide: string) => doc.manifest.sections.find((s) => s.slides.includes(slide))
export function moveAfter(doc: DeckDoc, slide: string, after: string) {
  for (const s of doc.manifest.sections) s.slides = s.slides.filter((x) => x !== slide)
  const target = sectionOf(doc, after)!
  target.slides.splice(target.slides.indexOf(after) + 1, 0, slide)
}
export function addSlideAfter(doc: DeckDoc, id: string, after: string, title: string) {
  doc.slides[id] = { id, layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: title }] }
  const target = sectionOf(doc, after)!
  target.slides.splice(target.slides.indexOf(after) + 1, 0, id)
}

export type Side = 'ours' | 'theirs'
export type Fact = (doc: DeckDoc) => string | null
type Gen = fc.GeneratorValue

/**
 * Two sides' random edits of the brand sample that never touch one unit from both sides: slides
 * are neutral (nobody touches them: the anchors of moves and additions), owned by one side (edited,
 * moved or removed by it alone) or shared (each content unit given to one side; ours may move them).
 * Each edit leaves a fact the merged deck must keep.
 */
export function planEdits(g: Gen, base: DeckDoc, count = 20): { ours: DeckDoc; theirs: DeckDoc; facts: Fact[] } {
  const order = base.manifest.sections.flatMap((s) => s.slides)
  const role = new Map<string, 'n' | 'o' | 't' | 's'>()
  for (const id of order) role.set(id, g(fc.constantFrom, 'n', 'n', 'o', 't', 's', 's'))
  const neutral = order.filter((id) => role.get(id) === 'n')
  const docs: Record<Side, DeckDoc> = { ours: structuredClone(base), theirs: structuredClone(base) }
  const facts: Fact[] = []
  const units: Record<Side, { key: string; apply: (doc: DeckDoc, k: number) => Fact }[]> = { ours: [], theirs: [] }
  const owner = (slide: string, key: string): Side | null => {
    const r = role.get(slide)
    if (r === 'o') return 'ours'
    if (r === 't') return 'theirs'
    if (r === 's') return g(fc.constantFrom, 'ours', 'theirs') as Side
    void key
    return null
  }
  const find = (doc: DeckDoc, slide: string, id: string) => doc.slides[slide]?.blocks?.find((b) => b.id === id)
  for (const id of order) {
    const slide = base.slides[id]
    const push = (key: string, apply: (doc: DeckDoc, k: number) => Fact) => {
      const side = owner(id, key)
      if (side) units[side].push({ key, apply })
    }
    for (const b of slide.blocks ?? []) {
      if (typeof b.text === 'string' && b.kind !== 'table') {
        push(`${id}#${b.id}/text`, (doc, k) => {
          const text = `${doc === docs.ours ? 'Ours' : 'Theirs'} text ${k}`
          find(doc, id, b.id)!.text = text
          return (m) => (find(m, id, b.id)?.text === text ? null : `${id}#${b.id} text is not '${text}'`)
        })
      }
      if (b.kind === 'list') {
        ;(b.items as { text: string }[]).forEach((_, i) =>
          push(`${id}#${b.id}/items/${i}`, (doc, k) => {
            const text = `${doc === docs.ours ? 'Ours' : 'Theirs'} item ${k}`
            ;(find(doc, id, b.id)!.items as { text: string }[])[i].text = text
            return (m) => ((find(m, id, b.id)?.items as { text: string }[] | undefined)?.[i]?.text === text ? null : `${id}#${b.id} item ${i} is not '${text}'`)
          }),
        )
      }
      if (b.kind === 'table') {
        ;(b.rows as string[][]).forEach((row, r) =>
          row.forEach((_, c) =>
            push(`${id}#${b.id}/rows/${r}/${c}`, (doc, k) => {
              const text = `${doc === docs.ours ? 'O' : 'T'}${k}`
              ;(find(doc, id, b.id)!.rows as string[][])[r][c] = text
              return (m) => ((find(m, id, b.id)?.rows as string[][] | undefined)?.[r]?.[c] === text ? null : `${id}#${b.id} cell ${r},${c} is not '${text}'`)
            }),
          ),
        )
      }
      if (b.kind === 'chart') {
        const data = b.data as { series: { values: number[] }[] }
        data.series.forEach((s, si) =>
          s.values.forEach((_, vi) =>
            push(`${id}#${b.id}/data/${si}/${vi}`, (doc, k) => {
              const value = (doc === docs.ours ? 100 : 200) + k
              ;(find(doc, id, b.id)!.data as typeof data).series[si].values[vi] = value
              return (m) => ((find(m, id, b.id)?.data as typeof data | undefined)?.series[si]?.values[vi] === value ? null : `${id}#${b.id} series ${si} value ${vi} is not ${value}`)
            }),
          ),
        )
      }
      if (b.pos) {
        push(`${id}#${b.id}/pos`, (doc, k) => {
          const x = 8 * (k + (doc === docs.ours ? 1 : 40))
          ;(find(doc, id, b.id)!.pos as { x: number }).x = x
          return (m) => ((find(m, id, b.id)?.pos as { x: number } | undefined)?.x === x ? null : `${id}#${b.id} x is not ${x}`)
        })
      }
    }
    push(`${id}/notes`, (doc, k) => {
      const notes = `${doc === docs.ours ? 'Ours' : 'Theirs'} notes ${k}`
      doc.slides[id].notes = notes
      return (m) => (m.slides[id]?.notes === notes ? null : `${id} notes are not '${notes}'`)
    })
    const body = (slide.blocks ?? []).find((b) => b.slot === 'body')
    if (body && slide.layout !== 'freeform') {
      // Both sides may add a block "nb<k>" to one shared slide: theirs is kept under a fresh id.
      for (const side of ['ours', 'theirs'] as Side[]) {
        if (role.get(id) !== 's' && owner(id, '') !== side) continue
        units[side].push({
          key: `${id}/add-block/${side}`,
          apply: (doc, k) => {
            const text = `${side} block ${k}`
            doc.slides[id].blocks!.push({ id: `nb${k}`, kind: 'text', slot: 'body', text })
            return (m) => (m.slides[id]?.blocks?.some((b) => b.text === text) ? null : `${id} lacks the block '${text}'`)
          },
        })
      }
    }
  }
  // Structure: slides owned by a side are removed or moved by it; ours also moves shared slides; both add slides after neutral ones.
  for (const side of ['ours', 'theirs'] as Side[]) {
    for (const id of order) {
      const r = role.get(id)
      if (!((side === 'ours' && (r === 'o' || r === 's')) || (side === 'theirs' && r === 't'))) continue
      if (r !== 's') {
        units[side].push({
          key: `${id}/remove`,
          apply: (doc) => {
            const gone = JSON.stringify(doc.slides[id])
            delete doc.slides[id]
            for (const s of doc.manifest.sections) s.slides = s.slides.filter((x) => x !== id)
            // A later slide of either side may take the free id again: the removed slide is what must be gone.
            return (m) => (JSON.stringify(m.slides[id]) === gone ? `${id} was not removed` : null)
          },
        })
      }
      if (neutral.length) {
        const after = g(fc.constantFrom, ...neutral)
        units[side].push({
          key: `${id}/move`,
          apply: (doc) => {
            if (!doc.slides[id]) return () => null
            moveAfter(doc, id, after)
            return (m) => {
              const s = sectionOf(m, after)!
              return s.slides.includes(id) && s.slides.indexOf(id) > s.slides.indexOf(after) ? null : `${id} is not after ${after}`
            }
          },
        })
      }
    }
    for (let n = 0; n < 4 && neutral.length; n++) {
      const after = g(fc.constantFrom, ...neutral)
      units[side].push({
        key: `add-slide/${n}`,
        apply: (doc, k) => {
          const title = `${side} slide ${k}`
          let i = 1
          while (doc.slides[`title-body-${i}`]) i++
          addSlideAfter(doc, `title-body-${i}`, after, title)
          return (m) => {
            const found = Object.values(m.slides).filter((s) => s.blocks?.[0]?.text === title)
            if (found.length !== 1) return `${found.length} slides titled '${title}'`
            const s = sectionOf(m, after)!
            return s.slides.indexOf(found[0].id) > s.slides.indexOf(after) ? null : `'${title}' is not after ${after}`
          }
        },
      })
    }
  }
  units.ours.push({ key: 'deck/title', apply: (doc, k) => ((doc.manifest.title = `Ours ${k}`), (m) => (m.manifest.title === `Ours ${k}` ? null : 'deck title lost')) })
  units.theirs.push({ key: 'deck/appearance', apply: (doc) => ((doc.manifest.defaults = { ...doc.manifest.defaults, appearance: 'dark' }), (m) => (m.manifest.defaults?.appearance === 'dark' ? null : 'appearance lost')) })
  for (const [side, x] of [['ours', 400], ['theirs', 1200]] as const) {
    units[side].push({ key: 'deck/guide', apply: (doc) => ((doc.manifest.guides = { vertical: [x] }), (m) => (m.manifest.guides?.vertical?.includes(x) ? null : `guide ${x} lost`)) })
    units[side].push({
      key: 'deck/version',
      apply: (doc, k) => {
        const note = `${side} version ${k}`
        doc.versions.push({ n: doc.versions.length + 1, author: side, note, revision: 3, at: `2026-0${side === 'ours' ? 1 : 2}-01T00:00:00.000Z` })
        return (m) => (m.versions.filter((v) => v.note === note).length === 1 && new Set(m.versions.map((v) => v.n)).size === m.versions.length ? null : `version '${note}' lost`)
      },
    })
  }
  for (const side of ['ours', 'theirs'] as Side[]) {
    const pool = units[side]
    const chosen: typeof pool = []
    const removed = new Set<string>()
    while (chosen.length < count && pool.length) {
      const unit = pool.splice(g(fc.nat, { max: pool.length - 1 }), 1)[0]
      const slide = unit.key.split(/[#/]/)[0]
      // Nothing else on a slide this side removes: the removal would take the edit with it.
      if (removed.has(slide)) continue
      if (unit.key.endsWith('/remove') && chosen.some((c) => c.key.split(/[#/]/)[0] === slide)) continue
      if (unit.key.endsWith('/remove')) removed.add(slide)
      chosen.push(unit)
    }
    const doc = docs[side]
    const mine = chosen.map((unit, k) => ({ key: unit.key, fact: unit.apply(doc, k) }))
    for (const { key, fact } of mine) {
      const own = fact(doc)
      assert.equal(own, null, `the ${side} side itself breaks its fact (${key}): ${own}`)
      facts.push(fact)
    }
    doc.manifest.revision = base.manifest.revision + chosen.length + (side === 'ours' ? 0 : 3)
  }
  return { ours: docs.ours, theirs: docs.theirs, facts }
}

