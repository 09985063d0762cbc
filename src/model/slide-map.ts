/**
 * The `slides` record of a document, read only as far as a call goes.
 *
 * A deck of 1,400 slides is 1,400 files; a call that changes one slide should read, copy, check and
 * write that slide, not the deck. Handlers keep the plain shape they were written against
 * (`doc.slides[id]`, `Object.keys(doc.slides)`, `Object.hasOwn`, `delete`), and two kinds of record
 * make that cheap:
 *
 * - a **lazy** record (`lazySlides`) answers its keys from a list of ids and reads a slide only when
 *   a member is read. Its slides are shared and frozen: it is what reads see. Writing to it throws.
 * - a **copy-on-write** record (`cowSlides`, made by `cloneDoc`) over another record copies a slide
 *   the first time a member is read, and remembers every id it copied, set or deleted. The engine
 *   serializes and compares only those (`touchedSlides`); every other slide is the base's own, unchanged.
 *
 * Both are Proxies, so `structuredClone` refuses them (a DataCloneError): copy documents with
 * `cloneDoc`. Spreading or `Object.entries` works and reads every slide, which is right for the
 * few calls that change the whole deck. `Object.getOwnPropertyDescriptor` answers an accessor.
 */
import type { Slide } from './deck.js'

/** Where a lazy record reads from. */
export interface SlideSource {
  /** Every slide id (the file names under slides/), in a stable order. */
  ids(): readonly string[]
  has(id: string): boolean
  /** The slide, read on first use; frozen, shared between calls. */
  get(id: string): Slide
  /** The ids as a set, when the source keeps one (membership without a call through `has`). */
  idSet?(): ReadonlySet<string>
}

interface CowState {
  base: Record<string, Slide>
  /** Slides copied (read through this record) or set, by id. */
  copies: Map<string, Slide>
  /** Ids of the base deleted through this record. */
  deleted: Set<string>
}

const lazyRecords = new WeakMap<object, SlideSource>()
const cowRecords = new WeakMap<object, CowState>()

/** A read-only record over `source`: keys without reading, a slide read when it is asked for. */
export function lazySlides(source: SlideSource): Record<string, Slide> {
  const refuse = () => {
    throw new TypeError('This deck document is the shared, read-only copy; copy it with cloneDoc before changing it.')
  }
  const record = new Proxy({} as Record<string, Slide>, {
    get: (target, key, receiver) => (typeof key === 'string' && source.has(key) ? source.get(key) : Reflect.get(target, key, receiver)),
    has: (target, key) => (typeof key === 'string' && source.has(key)) || Reflect.has(target, key),
    ownKeys: () => [...source.ids()],
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && source.has(key) ? { get: () => source.get(key), enumerable: true, configurable: true } : undefined,
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  })
  lazyRecords.set(record, source)
  return record
}

/**
 * A record that reads through `base` and copies a slide before anyone can change it. `base` may be
 * any record (lazy, plain or another copy) and is never changed.
 */
export function cowSlides(base: Record<string, Slide>): Record<string, Slide> {
  const state: CowState = { base, copies: new Map(), deleted: new Set() }
  const baseHas = slideMembership(base)
  const exists = (id: string) => state.copies.has(id) || (!state.deleted.has(id) && baseHas(id))
  const read = (id: string): Slide | undefined => {
    const copied = state.copies.get(id)
    if (copied !== undefined || state.copies.has(id)) return copied
    if (state.deleted.has(id) || !baseHas(id)) return undefined
    const copy = structuredClone(base[id])
    state.copies.set(id, copy)
    return copy
  }
  const write = (id: string, value: Slide) => {
    state.copies.set(id, value)
    state.deleted.delete(id)
  }
  const record: Record<string, Slide> = new Proxy({} as Record<string, Slide>, {
    get: (target, key, receiver) => (typeof key === 'string' && exists(key) ? read(key) : Reflect.get(target, key, receiver)),
    has: (target, key) => (typeof key === 'string' && exists(key)) || Reflect.has(target, key),
    set: (target, key, value, receiver) => {
      if (typeof key !== 'string') return Reflect.set(target, key, value, receiver)
      write(key, value as Slide)
      return true
    },
    defineProperty: (target, key, descriptor) => {
      if (typeof key !== 'string') return Reflect.defineProperty(target, key, descriptor)
      write(key, (descriptor.get ? descriptor.get() : descriptor.value) as Slide)
      return true
    },
    deleteProperty: (target, key) => {
      if (typeof key !== 'string') return Reflect.deleteProperty(target, key)
      state.copies.delete(key)
      if (baseHas(key)) state.deleted.add(key)
      return true
    },
    ownKeys: (): string[] => slideKeys(record),
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && exists(key)
        ? { get: () => read(key), set: (value: Slide) => write(key, value), enumerable: true, configurable: true }
        : undefined,
  })
  cowRecords.set(record, state)
  return record
}

/**
 * What a copy-on-write record (or a chain of them, a copy of a copy) did over the first record below
 * it that is not one: `base` (a lazy or plain record, never changed), the ids copied or set
 * (`touched`, with their values as the record answers them now; changed or not) and the base's ids
 * deleted. undefined for any other record: then every slide has to be compared.
 */
export function touchedSlides(record: Record<string, Slide>): { base: Record<string, Slide>; touched: Map<string, Slide>; deleted: Set<string> } | undefined {
  let state = cowRecords.get(record)
  if (!state) return undefined
  const ids = new Set<string>()
  for (;;) {
    for (const id of state.copies.keys()) ids.add(id)
    for (const id of state.deleted) ids.add(id)
    const below = cowRecords.get(state.base)
    if (!below) break
    state = below
  }
  const base = state.base
  const has = slideMembership(record)
  const baseHas = slideMembership(base)
  const touched = new Map<string, Slide>()
  const deleted = new Set<string>()
  for (const id of ids) {
    if (has(id)) touched.set(id, record[id])
    else if (baseHas(id)) deleted.add(id)
  }
  return { base, touched, deleted }
}

/** Whether a record reads lazily (a deck as the store holds it). */
export function isLazySlides(record: Record<string, Slide>): boolean {
  return lazyRecords.has(record)
}

/**
 * Membership of a record's ids, without going through its Proxy traps (which build a property
 * descriptor per question): what deck-wide rules ask once per slide id of the sections.
 */
export function slideMembership(record: Record<string, Slide>): (id: string) => boolean {
  const lazy = lazyRecords.get(record)
  if (lazy) {
    const set = lazy.idSet?.()
    return set ? (id) => set.has(id) : (id) => lazy.has(id)
  }
  const cow = cowRecords.get(record)
  if (cow) {
    const base = slideMembership(cow.base)
    const { copies, deleted } = cow
    return (id) => (copies.has(id) ? true : deleted.has(id) ? false : base(id))
  }
  return (id) => Object.hasOwn(record, id)
}

/** How many slides a record holds, without going through its Proxy traps. */
export function slideCountOf(record: Record<string, Slide>): number {
  const lazy = lazyRecords.get(record)
  if (lazy) return lazy.ids().length
  const cow = cowRecords.get(record)
  if (!cow) return Object.keys(record).length
  const base = slideMembership(cow.base)
  let count = slideCountOf(cow.base) - cow.deleted.size
  for (const id of cow.copies.keys()) if (!base(id) || cow.deleted.has(id)) count++
  return count
}

/** A record's ids, without going through its Proxy traps. */
export function slideKeys(record: Record<string, Slide>): string[] {
  const lazy = lazyRecords.get(record)
  if (lazy) return [...lazy.ids()]
  const cow = cowRecords.get(record)
  if (cow) {
    const keys = slideKeys(cow.base).filter((id) => !cow.deleted.has(id))
    const base = slideMembership(cow.base)
    for (const id of cow.copies.keys()) if (!base(id) || cow.deleted.has(id)) keys.push(id)
    return keys
  }
  return Object.keys(record)
}
