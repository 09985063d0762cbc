import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { cloneDoc, cloneManifest, sameJson, type DeckDoc, type Manifest, type Slide } from '../../../src/model/deck.js'
import { normalizeDoc } from '../../../src/model/normalize.js'
import { cowSlides, lazySlides, slideCountOf, slideKeys, touchedSlides } from '../../../src/model/slide-map.js'

function source(slides: Record<string, Slide>) {
  const reads: string[] = []
  const ids = Object.keys(slides).sort()
  const record = lazySlides({
    ids: () => ids,
    has: (id) => Object.hasOwn(slides, id),
    get: (id) => {
      reads.push(id)
      return Object.freeze(slides[id])
    },
  })
  return { record, reads }
}

const slide = (id: string, title = id): Slide => ({ id, layout: 'title', title })

describe('slide records', () => {
  it('a lazy record answers keys and membership without reading a slide, and refuses writes', () => {
    const { record, reads } = source({ a: slide('a'), b: slide('b'), constructor: slide('constructor') })
    assert.deepEqual(Object.keys(record), ['a', 'b', 'constructor'])
    assert.equal(Object.hasOwn(record, 'b'), true)
    assert.equal(Object.hasOwn(record, 'toString'), false)
    assert.equal('a' in record, true)
    assert.deepEqual(reads, [])
    assert.equal(record.b.title, 'b')
    assert.deepEqual(reads, ['b'])
    assert.throws(() => {
      ;(record as Record<string, Slide>).c = slide('c')
    }, TypeError)
    assert.throws(() => delete (record as Record<string, Slide>).a, TypeError)
    assert.deepEqual(JSON.parse(JSON.stringify(record)).a, slide('a'))
  })

  it('a copy reads through, copies a slide on first use and tells what it touched', () => {
    const { record, reads } = source({ a: slide('a'), b: slide('b'), c: slide('c') })
    const copy = cowSlides(record)
    copy.a.title = 'changed'
    copy.d = slide('d')
    delete copy.c
    assert.equal(record.a.title, 'a', 'the base is never changed')
    assert.deepEqual(Object.keys(copy), ['a', 'b', 'd'])
    assert.deepEqual(slideKeys(copy), ['a', 'b', 'd'])
    assert.equal(slideCountOf(copy), 3)
    assert.equal(slideCountOf(cowSlides(copy)), 3)
    assert.equal(Object.hasOwn(copy, 'c'), false)
    assert.equal(copy.a.title, 'changed')
    const touched = touchedSlides(copy)!
    assert.equal(touched.base, record)
    assert.deepEqual([...touched.touched.keys()].sort(), ['a', 'd'])
    assert.deepEqual([...touched.deleted], ['c'])
    assert.ok(!reads.includes('b'), 'an untouched slide is never read')
  })

  it('a copy of a copy reports what both touched, against the first record below them', () => {
    const { record } = source({ a: slide('a'), b: slide('b'), c: slide('c') })
    const doc: DeckDoc = { manifest: { id: 'x', title: 'X', theme: 'simple', sections: [{ id: 's', title: 'S', slides: ['a', 'b', 'c'] }], revision: 0, stamps: { createdAt: '', updatedAt: '' } }, slides: record, versions: [] }
    const first = cloneDoc(doc)
    first.slides.a.title = 'first'
    const second = cloneDoc(first)
    delete second.slides.b
    const touched = touchedSlides(second.slides)!
    assert.equal(touched.base, record)
    assert.deepEqual([...touched.touched.keys()], ['a'])
    assert.equal(touched.touched.get('a')!.title, 'first')
    assert.deepEqual([...touched.deleted], ['b'])
  })

  it('normalizing a copy normalizes the slides it touched and keeps the sections whole', () => {
    const { record, reads } = source({ a: slide('a'), b: slide('b') })
    const doc: DeckDoc = { manifest: { id: 'x', title: 'X', theme: 'simple', sections: [{ id: 's', title: 'S', slides: ['a', 'b'] }], revision: 0, stamps: { createdAt: '', updatedAt: '' } }, slides: record, versions: [] }
    const copy = cloneDoc(doc)
    copy.slides.c = { ...slide('c'), notes: '', skip: false }
    const next = normalizeDoc(copy)
    assert.deepEqual(next.slides.c, slide('c'))
    assert.deepEqual(next.manifest.sections[0].slides, ['a', 'b', 'c'])
    assert.deepEqual(reads, [])
    assert.throws(() => structuredClone(doc), /could not be cloned/)
  })

  it('compares JSON values as JSON sees them, and copies a manifest deeply', () => {
    assert.equal(sameJson({ a: 1, b: undefined, c: [1, { d: 'x' }] }, { c: [1, { d: 'x' }], a: 1 }), true)
    assert.equal(sameJson({ a: [1, 2] }, { a: [2, 1] }), false)
    assert.equal(sameJson({ a: 1 }, { a: 1, b: null }), false)
    assert.equal(sameJson([], {}), false)
    const manifest: Manifest = { id: 'x', title: 'X', theme: 'simple', defaults: { appearance: 'dark' }, sections: [{ id: 's', title: 'S', slides: ['a', 'b'] }], revision: 0, stamps: { createdAt: '', updatedAt: '' } }
    const copy = cloneManifest(manifest)
    assert.deepEqual(copy, manifest)
    copy.sections[0].slides.push('c')
    copy.defaults!.appearance = 'light'
    assert.deepEqual(manifest.sections[0].slides, ['a', 'b'])
    assert.equal(manifest.defaults!.appearance, 'dark')
  })
})
