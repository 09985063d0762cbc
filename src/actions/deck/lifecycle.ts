import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { DeckDoc } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { arr, bool, BR, DeckId, int, lit, obj, opt, ref, SlideId, SLUG, str, TemplateId } from '../../model/schema.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { canonicalJson } from '../../store/canonical.js'
import { readDeckFolder } from '../../store/decks.js'
import { repairPending } from '../../store/transaction.js'
import { defaultTemplateId, findTemplate, readTemplateDeck } from '../../store/templates.js'
import { RESERVED_DECK_IDS, type Workspace } from '../../store/workspace.js'
import { deckCounts } from './read.js'
import { deckKey } from '../../core/engine.js'
import { WITH_TRASHED_DECK } from '../given.js'

/** The slug of a title, usable as a deck id; never a reserved name. (slugify loads on first use: 33 KB of transliteration tables.) */
export async function slugOf(text: string): Promise<string> {
  const { default: slugify } = await import('@sindresorhus/slugify')
  const slug = slugify(text).slice(0, 60).replace(/-+$/, '')
  if (!slug || !new RegExp(SLUG).test(slug)) fail('invalid_input', `"${text}" gives no usable id; pass one with --id.`, { path: 'id' })
  return RESERVED_DECK_IDS.has(slug) ? `${slug}-deck` : slug
}

/** `id`, else `id-2`, `id-3`, ... : the first id no deck uses. */
export function freeSiblingId(ws: Workspace, id: string): string {
  if (!ws.deckExists(id) && !RESERVED_DECK_IDS.has(id) && !existsSync(ws.deckDir(id))) return id
  for (let n = 2; ; n++) {
    const candidate = `${id}-${n}`
    if (!ws.deckExists(candidate) && !existsSync(ws.deckDir(candidate))) return candidate
  }
}

/** A new deck document from a template's deck: new id and title, revision 0, empty version log. */
export function freshDeck(source: DeckDoc, id: string, title: string, template?: string): DeckDoc {
  const now = new Date().toISOString()
  const doc = cloneDoc(source)
  doc.manifest = { ...doc.manifest, id, title, revision: 0, stamps: { createdAt: now, updatedAt: now } }
  delete doc.manifest.trashedAt
  if (template) doc.manifest.template = template
  doc.versions = []
  // A blank deck's title slide carries the deck's title.
  for (const slide of Object.values(doc.slides)) if (slide.layout === 'title' && slide.title === '{{title}}') slide.title = title
  return doc
}

export const deckCreate = defineAction({
  id: 'deck.create',
  label: 'Create a deck',
  doc:
    "Creates a deck from a template: 'blank' writes one title slide in the Simple theme, light; a saved template copies its folder with its assets; without `from`, the default template named by template.list. The id is the slug of the name unless given. " +
    'Over MCP the session then works in the new deck when it was started without one; a session started with a deck id (--deck, ?deck=) that does not exist yet works in it once this creates it with that id.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: null,
  transports: 'CMHP',
  deck: { kind: 'none' },
  locks: async (input: { name: string; id?: string }) => [deckKey(input.id ?? (await slugOf(input.name)))],
  input: obj({
    name: str({ minLength: 1, maxLength: 200, description: 'Title of the new deck.' }),
    from: opt(str({ description: "Template id from template.list ('blank', a shipped or an organisation template)." })),
    id: opt(DeckId),
  }),
  output: written({
    id: { ...DeckId, description: 'The new deck id.' },
    revision: int({ minimum: 0, description: 'Its revision (0).' }),
    counts: ref('DeckCounts'),
    template: TemplateId,
  }),
  cli: 'deck create <name> --from <from> --id <id>',
  mcp: 'deck_create',
  example: { name: 'Annual report', from: 'blank' },
  annotations: { destructive: false },
  run: async (ctx, input: { name: string; from?: string; id?: string }) => {
    // With accounts a deck has an owner: a signed-in person (the engine makes its access record) or the deployment.
    if (ctx.caller) (await import('../../identity/roles.js')).requirePerson(ctx.caller, 'create a deck')
    const id = input.id ?? (await slugOf(input.name))
    if (RESERVED_DECK_IDS.has(id)) fail('invalid_input', `"${id}" is reserved.`, { pointer: '/id' })
    if (ctx.ws.deckExists(id) || existsSync(ctx.ws.deckDir(id))) fail('id_taken', `A deck "${id}" already exists; pass another --id.`, { pointer: '/id' })
    const templateId = input.from ?? (await defaultTemplateId(ctx.ws))
    const template = await findTemplate(ctx.ws, templateId)
    const doc = freshDeck(await readTemplateDeck(template), id, input.name, template.id)
    ctx.stage(id, doc, { create: true })
    if (existsSync(join(template.dir, 'assets'))) ctx.stageCopy(relativeTo(ctx.ws, join(template.dir, 'assets')), `decks/${id}/assets`)
    return (docs: Map<string, DeckDoc | null>) => {
      const created = docs.get(id)!
      return { id, revision: created.manifest.revision, counts: deckCounts(created), template: template.id }
    }
  },
})

/** A path relative to the workspace root (for staged copies from inside or outside it). */
export function relativeTo(ws: Workspace, abs: string): string {
  return abs.startsWith(ws.root + '/') ? abs.slice(ws.root.length + 1) : abs
}

export const deckCopy = defineAction({
  id: 'deck.copy',
  label: 'Copy a deck',
  doc: 'Copies a deck (all slides or the named ones, in deck order) under a new title and id. The copy starts at revision 0 with an empty version log; notes can be dropped and comment threads carried.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: 'read',
  transports: 'CMHP',
  deck: { kind: 'field', field: 'id' },
  locks: async (input: { name: string; newId?: string }) => [deckKey(input.newId ?? (await slugOf(input.name)))],
  input: obj({
    id: DeckId,
    name: str({ minLength: 1, maxLength: 200, description: 'Title of the copy.' }),
    newId: opt(DeckId),
    slideIds: opt(arr(SlideId, { minItems: 1, description: 'Only these slides, in deck order; all when absent.' })),
    removeNotes: opt(bool({ description: 'Drop speaker notes from the copy.' })),
    copyComments: opt(bool({ description: 'Carry comment threads with their ids (off by default).' })),
    baseRevision: BR,
  }),
  output: written({
    id: { ...DeckId, description: 'The new deck id.' },
    revision: int({ minimum: 0, description: 'Its revision (0).' }),
    counts: ref('DeckCounts'),
    from: { ...DeckId, description: 'The source deck id.' },
  }),
  cli: 'deck copy <id> --name <name> --id <newId> --slides <slideIds> --remove-notes --copy-comments',
  mcp: 'deck_copy',
  example: { id: 'quarterly-review', name: 'Quarterly review (EU)', baseRevision: 0 },
  run: async (ctx, input: { id: string; name: string; newId?: string; slideIds?: string[]; removeNotes?: boolean; copyComments?: boolean }) => {
    const source = await ctx.target()
    const newId = input.newId ?? (await slugOf(input.name))
    if (ctx.ws.deckExists(newId) || existsSync(ctx.ws.deckDir(newId))) fail('id_taken', `A deck "${newId}" already exists; pass another --id.`, { pointer: '/newId' })
    const doc = freshDeck(source, newId, input.name)
    delete doc.manifest.template
    if (input.slideIds) {
      const keep = new Set(input.slideIds)
      for (const id of keep) if (!Object.hasOwn(source.slides, id)) fail('not_found', `No slide "${id}" in deck "${input.id}".`, { pointer: '/slideIds' })
      doc.manifest.sections = doc.manifest.sections.map((s) => ({ ...s, slides: s.slides.filter((id) => keep.has(id)) })).filter((s) => s.slides.length)
      for (const id of Object.keys(doc.slides)) if (!keep.has(id)) delete doc.slides[id]
    }
    if (input.removeNotes) for (const slide of Object.values(doc.slides)) delete slide.notes
    ctx.stage(newId, doc, { create: true })
    if (existsSync(join(ctx.ws.deckDir(input.id), 'assets'))) ctx.stageCopy(`decks/${input.id}/assets`, `decks/${newId}/assets`)
    if (input.copyComments) {
      // Threads travel with their ids; with a subset of slides, those on slides left behind stay behind.
      const { copiedThreads } = await import('../../comments/store.js')
      for (const [rel, text] of copiedThreads(ctx.ws, input.id, newId, (slideId) => Object.hasOwn(doc.slides, slideId))) ctx.stageFile(rel, text)
    }
    return (docs: Map<string, DeckDoc | null>) => {
      const created = docs.get(newId)!
      return { id: newId, revision: created.manifest.revision, counts: deckCounts(created), from: input.id }
    }
  },
})

function stateChange(id: 'deck.trash' | 'deck.restore') {
  const trash = id === 'deck.trash'
  return defineAction({
    id,
    label: trash ? 'Move a deck to the trash' : 'Restore a deck from the trash',
    doc: trash
      ? 'Moves an active deck to the trash: trashedAt is written on the manifest and deck.list leaves the deck out; nothing else changes.'
      : 'Takes a trashed deck out of the trash: trashedAt is cleared.',
    group: 'deck',
    milestone: 'M1',
    mutates: true,
    transports: 'CMHP',
    deck: { kind: 'field', field: 'id' },
    input: obj({ id: DeckId, baseRevision: BR }),
    output: written({
      id: DeckId,
      ...(trash ? { trashedAt: str({ format: 'date-time', description: 'When it was trashed.' }) } : {}),
    }),
    cli: trash ? 'deck trash <id>' : 'deck restore <id>',
    mcp: trash ? 'deck_trash' : 'deck_restore',
    ...(trash ? {} : { given: WITH_TRASHED_DECK }),
    example: { id: 'quarterly-review', baseRevision: trash ? 0 : 1 },
    // Trashing hides a deck; taking it out of the trash only brings it back.
    annotations: { idempotent: false, destructive: trash },
    run: async (ctx, input: { id: string }) => {
      const doc = cloneDoc(await ctx.target())
      if (trash && doc.manifest.trashedAt) fail('refused', `Deck "${input.id}" is already in the trash (since ${doc.manifest.trashedAt}).`)
      if (!trash && !doc.manifest.trashedAt) fail('refused', `Deck "${input.id}" is not in the trash.`)
      if (trash) doc.manifest.trashedAt = new Date().toISOString()
      else delete doc.manifest.trashedAt
      ctx.stage(input.id, doc)
      return (docs: Map<string, DeckDoc | null>) => {
        const next = docs.get(input.id)!.manifest
        return { id: input.id, revision: next.revision, ...(next.trashedAt ? { trashedAt: next.trashedAt } : {}) }
      }
    },
  })
}

export const deckTrash = stateChange('deck.trash')
export const deckRestore = stateChange('deck.restore')

export const deckRemove = defineAction({
  id: 'deck.remove',
  label: 'Delete a deck',
  doc: 'Deletes a deck, trashed or active: its folder with slides, assets and version log is removed in one commit. Irreversible from studio (git history keeps it). `confirm` must be true.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CHP',
  deck: { kind: 'field', field: 'id' },
  input: obj({ id: DeckId, confirm: lit(true, { description: 'Must be the boolean true.' }), baseRevision: BR }),
  output: written({ id: DeckId, removed: lit(true), revision: RevisionIfWritten }),
  cli: 'deck remove <id> --confirm',
  mcp: null,
  example: { id: 'quarterly-review', confirm: true, baseRevision: 0 },
  annotations: { destructive: true },
  run: async (ctx, input: { id: string }) => {
    await ctx.target()
    ctx.stage(input.id, null)
    return { id: input.id, removed: true }
  },
})

export const deckSetDefault = defineAction({
  id: 'deck.setDefault',
  label: 'Set the default deck',
  doc: 'Names the deck that calls without --deck (or ?deck=) use, in the workspace file studio.json. A read of the current default when `id` is absent.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: 'admin',
  transports: 'CMHP',
  deck: { kind: 'none' },
  locks: () => ['workspace-config'],
  input: obj({ id: opt(DeckId) }),
  output: written({ defaultDeck: { ...DeckId, description: 'The default deck id.' }, revision: RevisionIfWritten }),
  cli: 'deck default <id>',
  mcp: 'deck_set_default_deck',
  example: { id: 'quarterly-review' },
  annotations: { idempotent: true },
  run: async (ctx, input: { id?: string }) => {
    if (input.id === undefined) return { defaultDeck: await ctx.ws.defaultDeckId() }
    if (!ctx.ws.deckExists(input.id)) fail('not_found', `No deck "${input.id}".`, { pointer: '/id' })
    ctx.stageFile('studio.json', canonicalJson({ ...ctx.ws.config(), defaultDeck: input.id }))
    return { defaultDeck: input.id }
  },
})

export const deckRepair = defineAction({
  id: 'deck.repair',
  label: 'Repair after a crash',
  doc: 'Finds writes that a killed process left uncommitted and puts back exactly the files each one touched, as they were before it (every other call does the same first); your own uncommitted edits and untracked files are left alone. Reports what it found and validates every deck that parses.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({ repaired: arr(str(), { description: 'Notes about interrupted writes put back.' }), decks: arr(DeckId, { description: 'The deck ids checked.' }) }),
  cli: 'deck repair',
  mcp: 'deck_repair',
  example: {},
  annotations: { idempotent: true, writes: true },
  run: async (ctx) => {
    const repaired = await repairPending(ctx.ws)
    const after = await ctx.ws.deckIds()
    for (const id of after) await readDeckFolder(ctx.ws.deckDir(id))
    return { repaired, decks: after }
  },
})
