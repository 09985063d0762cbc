/**
 * The editor's commands: each one intent, planned against the deck document as the page knows it at
 * the moment it is sent (so a 409 re-plans it against the newer document, or explains why it no
 * longer applies), and sent as one table action.
 */
import { showSlideInAddress } from './nav.js'
import { sectionOf, slideOrder, store, type Block, type DeckDoc, type Plan } from './store.js'

const FIELDS = ['title', 'subtitle', 'byline', 'attribution']

export function slideName(doc: DeckDoc, slideId: string): string {
  const n = slideOrder(doc).indexOf(slideId) + 1
  const title = store.state.views.get(slideId)?.title
  return `slide ${n || slideId}${title ? ` “${title}”` : ''}`
}

function needSlide(doc: DeckDoc, slideId: string): string | null {
  return doc.slides[slideId] ? null : `slide ${slideId} was removed meanwhile.`
}

/** The block (or slide field) `blockId` on a slide, or why it is gone. */
export function findBlock(doc: DeckDoc, slideId: string, blockId: string): { block?: Block; field?: string; index: number } | string {
  const slide = doc.slides[slideId]
  if (!slide) return `slide ${slideId} was removed meanwhile.`
  const index = (slide.blocks ?? []).findIndex((b) => b.id === blockId)
  if (index >= 0) return { block: slide.blocks![index], index }
  if (FIELDS.includes(blockId) && typeof slide[blockId] === 'string') return { field: blockId, index: -1 }
  return `${blockId} is no longer on ${slideName(doc, slideId)} (someone removed it meanwhile).`
}

function needBlocks(doc: DeckDoc, slideId: string, ids: string[]): string | null {
  for (const id of ids) {
    const found = findBlock(doc, slideId, id)
    if (typeof found === 'string') return found
  }
  return null
}

/** Shows a slide. A person's own move stops following someone (as in other editors); a move the room asked for does not. */
export function goToSlide(slideId: string, fromRoom = false): void {
  if (!fromRoom && store.state.following && store.state.current !== slideId) {
    store.set({ following: null })
    void import('./api.js').then(({ call }) => call('presence.unfollow', {}, store.deckId).catch(() => undefined))
  }
  store.set({ current: slideId, selection: [], editing: null })
  if (store.deckId) showSlideInAddress(store.deckId, slideId)
  void store.fetchViews([slideId])
}

export function moveSlide(slideId: string, sectionId: string, after: string | undefined): void {
  void store.perform({
    label: 'Move slide',
    plan: (doc) =>
      needSlide(doc, slideId) ??
      (!doc.manifest.sections.some((s) => s.id === sectionId)
        ? `its section ${sectionId} was removed meanwhile.`
        : after && !doc.slides[after]
          ? `the slide it was to follow was removed meanwhile.`
          : { action: 'slide.move', input: { slideId, sectionId, ...(after ? { after } : {}) } }),
  })
}

export function skipSlides(slideIds: string[], skip: boolean): void {
  void store.perform({
    label: skip ? 'Skip slide' : 'Show slide',
    plan: (doc) => slideIds.map((id) => needSlide(doc, id)).find(Boolean) ?? { action: 'slide.skip', input: { slideIds, skip } },
  })
}

export function duplicateSlides(slideIds: string[]): void {
  const before = store.state.doc ? new Set(Object.keys(store.state.doc.slides)) : new Set<string>()
  void store.perform({
    label: 'Duplicate slide',
    plan: (doc) => slideIds.map((id) => needSlide(doc, id)).find(Boolean) ?? { action: 'slide.duplicate', input: { slideIds } },
    done: () => {
      const doc = store.state.doc
      const made = doc ? slideOrder(doc).find((id) => !before.has(id)) : undefined
      if (made) goToSlide(made)
    },
  })
}

export function removeSlides(slideIds: string[]): void {
  for (const slideId of slideIds) {
    void store.perform({
      label: 'Remove slide',
      plan: (doc) => needSlide(doc, slideId) ?? { action: 'slide.remove', input: { slideId } },
      done: () => store.say('Slide removed.', 'info', { action: { label: 'Undo', run: () => void store.undo() } }),
    })
  }
}

export function newSlide(layout: string): void {
  const doc = store.state.doc
  const after = store.state.current ?? (doc ? slideOrder(doc).at(-1) : undefined)
  const before = doc ? new Set(Object.keys(doc.slides)) : new Set<string>()
  void store.perform({
    label: 'New slide',
    plan: (d) => {
      const anchor = after && d.slides[after] ? after : slideOrder(d).at(-1)
      return { action: 'slide.new', input: { layout, ...(anchor ? { after: anchor } : {}) } }
    },
    done: () => {
      const d = store.state.doc
      const made = d ? slideOrder(d).find((id) => !before.has(id)) : undefined
      if (made) goToSlide(made)
    },
  })
}

export function setLayout(slideId: string, layout: string): void {
  void store.perform({
    label: 'Change layout',
    plan: (doc) => needSlide(doc, slideId) ?? (layout === 'freeform' ? { action: 'slide.toCanvas', input: { slideIds: [slideId] } } : { action: 'slide.setLayout', input: { slideId, layout: { type: layout } } }),
  })
}

export function renameDeck(name: string): void {
  void store.perform({ label: 'Rename deck', plan: (doc) => (doc.manifest.title === name ? 'the deck already has that title.' : { action: 'deck.rename', input: { name } }) })
}

/** Writes a slide's speaker notes (coalesced by the notes field: one write per pause). */
export function setNotes(slideId: string, notes: string, base: string): void {
  void store.perform({
    label: 'Edit notes',
    plan: (doc) => {
      const gone = needSlide(doc, slideId)
      if (gone) return gone
      const now = doc.slides[slideId].notes ?? ''
      if (now !== base && now !== notes) return `someone else changed these notes meanwhile; they now read “${now.slice(0, 80)}”.`
      return { action: 'slide.update', input: { slideId, mutations: [{ kind: 'notes.set', notes }] } }
    },
  })
}

// -- blocks -------------------------------------------------------------------------------------

export function nudge(slideId: string, blockIds: string[], dx: number, dy: number): Promise<unknown> {
  return store.perform({
    label: blockIds.length > 1 ? 'Move objects' : 'Move object',
    plan: (doc) => needBlocks(doc, slideId, blockIds) ?? { action: 'block.nudge', input: { slideId, blockIds, dx: round(dx), dy: round(dy) } },
  })
}

export function resize(slideId: string, blockId: string, w: number, h: number, anchor: string): Promise<unknown> {
  return store.perform({
    label: 'Resize object',
    plan: (doc) => needBlocks(doc, slideId, [blockId]) ?? { action: 'block.resize', input: { slideId, blockId, w: Math.max(1, round(w)), h: Math.max(1, round(h)), anchor } },
  })
}

export function rotate(slideId: string, blockIds: string[], to: number | undefined, by?: number): Promise<unknown> {
  return store.perform({
    label: 'Rotate',
    plan: (doc) => needBlocks(doc, slideId, blockIds) ?? { action: 'block.rotate', input: { slideId, blockIds, ...(to !== undefined ? { to: round(to) } : { by }), ...(blockIds.length > 1 ? { about: 'selection' } : {}) } },
  })
}

export function arrange(label: string, slideId: string, blockIds: string[], action: string, input: Record<string, unknown>): Promise<unknown> {
  return store.perform({ label, plan: (doc) => needBlocks(doc, slideId, blockIds) ?? { action, input: { slideId, ...input } } })
}

export function removeBlocks(slideId: string, blockIds: string[]): void {
  void store.perform({
    label: blockIds.length > 1 ? 'Delete objects' : 'Delete object',
    plan: (doc) => {
      const missing = needBlocks(doc, slideId, blockIds)
      if (missing) return missing
      const fields = blockIds.filter((id) => typeof findBlock(doc, slideId, id) !== 'string' && (findBlock(doc, slideId, id) as { field?: string }).field)
      return {
        action: 'slide.update',
        input: {
          slideId,
          mutations: [
            ...blockIds.filter((id) => !fields.includes(id)).map((blockId) => ({ kind: 'block.remove', blockId })),
            ...fields.map((field) => ({ kind: 'remove', pointer: `/${field}` })),
          ],
        },
      }
    },
    done: () => store.set({ selection: [] }),
  })
}

/** Writes a block's Text (or a field, or a list's items), refusing when someone else changed it since `base`. */
export function writeText(slideId: string, blockId: string, value: string | { text: string; level?: number }[], base: string, onConflict: () => void): Promise<unknown> {
  return store.perform({
    label: 'Edit text',
    plan: (doc) => {
      const found = findBlock(doc, slideId, blockId)
      if (typeof found === 'string') return found
      const now = found.field ? doc.slides[slideId][found.field] : Array.isArray(value) ? found.block!.items : found.block!.text
      const nowText = JSON.stringify(now ?? '')
      if (nowText !== base && nowText !== JSON.stringify(value)) {
        onConflict()
        return 'someone else changed this text while you typed; your words are still in the editor.'
      }
      const pointer = found.field ? `/${found.field}` : `/blocks/${found.index}/${Array.isArray(value) ? 'items' : 'text'}`
      const mutation = Array.isArray(value) ? { kind: 'set', pointer, value } : { kind: 'text.replace', pointer, text: value }
      return { action: 'slide.update', input: { slideId, mutations: [mutation] } }
    },
  })
}

/** One member of a block (block.set: `value` undefined removes it). */
export function setBlockMember(slideId: string, blockId: string, path: string, value: unknown): Promise<unknown> {
  return store.perform({
    label: 'Change property',
    plan: (doc) => {
      const found = findBlock(doc, slideId, blockId)
      if (typeof found === 'string') return found
      const plan: Plan = { action: 'block.set', input: { slideId, blockId, path, ...(value !== undefined ? { value } : {}) } }
      return plan
    },
  })
}

const round = (n: number) => Math.round(n * 10) / 10

/** Types a layout's own field (title, subtitle) that was empty, from its prompt. */
export function setField(slideId: string, field: string, text: string): Promise<unknown> {
  return store.perform({
    label: 'Edit text',
    plan: (doc) => needSlide(doc, slideId) ?? { action: 'slide.update', input: { slideId, mutations: [{ kind: 'set', pointer: `/${field}`, value: text }] } },
  })
}

/**
 * Fills an empty slot with a picture file the person picked: the asset first (asset.add), then the
 * picture placeholder `blockId` gets it (block.set /asset, the block keeps its id), or a new block (block.insert).
 */
export async function addPicture(slideId: string, slot: string, file: File, blockId?: string): Promise<void> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })
  const added = await store.perform({
    label: 'Add picture',
    plan: (doc) => needSlide(doc, slideId) ?? { action: 'asset.add', input: { file: dataUrl, role: 'picture', alt: '' } },
  })
  const asset = added?.asset?.id as string | undefined
  if (!asset) return
  await store.perform({
    label: 'Add picture',
    plan: (doc) => {
      const missing = needSlide(doc, slideId)
      if (missing) return missing
      if (blockId && doc.slides[slideId].blocks?.some((b) => b.id === blockId && b.kind === 'picture' && b.asset === undefined)) {
        return { action: 'block.set', input: { slideId, blockId, path: '/asset', value: asset } }
      }
      const taken = new Set((doc.slides[slideId].blocks ?? []).map((b) => b.id))
      let id = 'picture'
      for (let n = 2; taken.has(id); n++) id = `picture-${n}`
      return { action: 'block.insert', input: { slideId, slot, block: { id, kind: 'picture', asset } } }
    },
  })
}
