import { readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { readInside } from '../../store/safe-open.js'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { findSlide, freeSlideId, sectionOf } from '../../model/edit.js'
import { LAYOUTS } from '../../model/layouts.js'
import { has, own } from '../../model/own.js'
import { blankSlide, withPicturePlaceholder } from '../../model/mutations/slide-ops.js'
import { arr, bool, BR, DeckId, nullable, obj, oneOf, opt, ref, SectionId, SlideId, SlideIds, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { checkInputBlocks } from '../../model/check.js'
import { checkSlide, checkSlideIds, insertRun, landing, sectionIdOf, slideAssets, SlideInput, stageDeck } from './common.js'
import { WITH_BODY_SLIDE } from '../given.js'

const Sections = arr(ref('Section'), { description: 'The section list after the write.' })

/** The id a new slide gets: the one asked for (409 when taken), else `<layout>-<n>` with the first free n (a tab's mark after it). */
function newSlideId(doc: DeckDoc, layout: string, asked: string | undefined, pointer: string, clientId: string | undefined): string {
  if (asked === undefined) return freeSlideId(doc, layout, new Set(), clientId)
  if (has(doc.slides, asked)) fail('id_taken', `Deck "${doc.manifest.id}" already has a slide "${asked}".`, { pointer })
  return asked
}

const isSectionHeader = (doc: DeckDoc) => (id: string) => own(doc.slides, id)?.layout === 'section'

export const slideInsert = defineAction({
  id: 'slide.insert',
  label: 'Insert slide',
  doc:
    'Inserts a slide document into a section, after a named slide or first in the section. With `after` alone the section is the one holding that slide; ' +
    'with neither, the slide lands at the end of the deck. Its id defaults to <layout>-<n> with the first free n. ' +
    'A picture layout (picture-caption, picture-left, picture-full, grid) whose media slot the document leaves empty gets a picture placeholder there (a picture block with no asset, id media): ' +
    'to show a picture, add it with asset.add (deck_asset_add), then set /asset on that block with block.set (deck_update_block); the block keeps its id.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sectionId: opt({ ...SectionId, description: "The section the slide lands in; the section of `after` when absent (the deck's last section when both are absent)." }),
    after: opt({ ...SlideId, description: 'The slide it follows (a slide of that section); first in the section when absent.' }),
    slide: SlideInput,
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), sectionId: { ...SectionId, description: 'The section holding it.' } }),
  cli: 'slide insert --section <sectionId> --after <after> < slide.json',
  mcp: 'deck_insert_slide',
  stdinField: 'slide',
  example: { sectionId: 'main', after: 'title-1', slide: { layout: 'title-body', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'Why now' }] }, baseRevision: 0 },
  run: async (ctx, input: { sectionId?: string; after?: string; slide: Slide }) => {
    await checkInputBlocks(input.slide.blocks, '/slide/blocks')
    let id = ''
    return stageDeck(
      ctx,
      (doc) => {
        // Neither a section nor a slide named: after the deck's last slide.
        const last = doc.manifest.sections.at(-1)?.slides.at(-1)
        const at = input.sectionId === undefined && input.after === undefined && last !== undefined ? landing(doc, { after: last }) : landing(doc, input)
        id = newSlideId(doc, input.slide.layout, input.slide.id, '/slide/id', ctx.clientId)
        const slide = withPicturePlaceholder({ ...structuredClone(input.slide), id })
        checkSlide(slide, '/slide')
        doc.slides[id] = slide
        insertRun(doc, at, [id])
      },
      (next) => ({ slide: next.slides[id], sectionId: sectionIdOf(next, id) }),
    )
  },
})

export const slideRemove = defineAction({
  id: 'slide.remove',
  label: 'Remove slide',
  doc: 'Removes a slide from the deck and from its section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR }),
  output: written({ removed: { ...SlideId, description: 'The id of the removed slide.' }, sectionId: { ...nullable(SectionId), description: 'The section it was in.' } }),
  cli: 'slide remove <slideId>',
  mcp: 'deck_remove_slide',
  annotations: { destructive: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', baseRevision: 1 },
  run: async (ctx, input: { slideId: string }) => {
    let sectionId: string | undefined
    return stageDeck(
      ctx,
      (doc) => {
        findSlide(doc, input.slideId)
        sectionId = sectionIdOf(doc, input.slideId)
        delete doc.slides[input.slideId]
        for (const section of doc.manifest.sections) section.slides = section.slides.filter((s) => s !== input.slideId)
      },
      () => ({ removed: input.slideId, sectionId: sectionId ?? null }),
    )
  },
})

export const slideMove = defineAction({
  id: 'slide.move',
  label: 'Move slide',
  doc: 'Moves a slide into a section, after a named slide of that section or first in the section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    sectionId: { ...SectionId, description: 'The target section.' },
    after: opt({ ...SlideId, description: 'The slide it follows (a slide of the target section); first in the section when absent.' }),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), sectionId: { ...SectionId, description: 'The section holding it now.' }, sections: Sections }),
  cli: 'slide move <slideId> --to <sectionId> --after <after>',
  mcp: 'deck_move_slide',
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-1', sectionId: 'main', after: 'title-body-2', baseRevision: 1 },
  run: async (ctx, input: { slideId: string; sectionId: string; after?: string }) =>
    stageDeck(
      ctx,
      (doc) => {
        findSlide(doc, input.slideId)
        if (input.after === input.slideId) fail('invalid_input', 'A slide cannot follow itself.', { pointer: '/after' })
        const from = sectionOf(doc, input.slideId)
        if (from) doc.manifest.sections[from.sectionIndex].slides.splice(from.index, 1)
        insertRun(doc, landing(doc, input), [input.slideId])
      },
      (next) => ({ slide: next.slides[input.slideId], sectionId: sectionIdOf(next, input.slideId), sections: next.manifest.sections }),
    ),
})

export const slideNew = defineAction({
  id: 'slide.new',
  label: 'New slide',
  doc:
    'Adds a slide of a layout with empty placeholders (one slide.insert), after a named slide or first in its section: ' +
    'a heading in the title slot, a list on an agenda, a table on a table slide, a chart in the media slot of a chart slide, a picture placeholder (a picture block with no asset) in any other media slot, else text. ' +
    'Fill the picture placeholder with asset.add (deck_asset_add), then block.set /asset on it (deck_update_block). ' +
    'A Section header layout starts a new section that takes the slides after the anchor.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    layout: oneOf(LAYOUTS, { description: 'One of the 22 layouts.' }),
    after: opt({ ...SlideId, description: 'The new slide follows it; first in the section when absent.' }),
    sectionId: opt({ ...SectionId, description: "The anchor's section, else the last section." }),
    id: opt({ ...SlideId, description: 'Slide id; <layout>-<n> with the first free n when absent.' }),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), sectionId: { ...SectionId, description: 'The section holding it.' }, sections: Sections }),
  cli: 'slide new --layout <layout> --after <after> --section <sectionId> --id <id>',
  mcp: 'deck_new_slide',
  example: { layout: 'title-body', after: 'title-1', baseRevision: 0 },
  run: async (ctx, input: { layout: string; after?: string; sectionId?: string; id?: string }) => {
    let id = ''
    return stageDeck(
      ctx,
      (doc) => {
        const at = landing(doc, input)
        id = newSlideId(doc, input.layout, input.id, '/id', ctx.clientId)
        doc.slides[id] = blankSlide(id, input.layout)
        insertRun(doc, at, [id], isSectionHeader(doc))
      },
      (next) => ({ slide: next.slides[id], sectionId: sectionIdOf(next, id), sections: next.manifest.sections }),
    )
  },
})

export const slideDuplicate = defineAction({
  id: 'slide.duplicate',
  label: 'Duplicate slides',
  doc: 'Copies one or more slides with fresh ids (<layout>-<n>) after the last of them, in one write; a copied section header starts a new section.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideIds: { ...SlideIds, description: 'The slides to copy.' }, baseRevision: BR }),
  output: written({
    slides: arr(ref('Slide'), { description: 'The normalized copies, in deck order.' }),
    copies: arr(obj({ id: SlideId, from: SlideId }), { description: 'Each copy: its new id and the id it was copied from.' }),
    sections: Sections,
  }),
  cli: 'slide duplicate <slideIds>',
  mcp: 'deck_duplicate_slide',
  given: WITH_BODY_SLIDE,
  example: { slideIds: ['title-body-2'], baseRevision: 1 },
  run: async (ctx, input: { slideIds: string[] }) => {
    const copies: { id: string; from: string }[] = []
    return stageDeck(
      ctx,
      (doc) => {
        checkSlideIds(doc, input.slideIds)
        // Copies keep the originals' deck order and land after the last original in that order.
        const order = new Map(doc.manifest.sections.flatMap((s) => s.slides).map((id, i) => [id, i]))
        const originals = [...input.slideIds].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
        const last = originals[originals.length - 1]
        for (const from of originals) {
          const id = freeSlideId(doc, doc.slides[from].layout, new Set(), ctx.clientId)
          doc.slides[id] = { ...structuredClone(doc.slides[from]), id }
          copies.push({ id, from })
        }
        insertRun(doc, landing(doc, { after: last }, { after: '/slideIds', sectionId: '/slideIds' }), copies.map((c) => c.id), isSectionHeader(doc))
      },
      (next) => ({ slides: copies.map((c) => next.slides[c.id]), copies, sections: next.manifest.sections }),
    )
  },
})

/** Asset files of a deck by asset id: `assets/<id>.<ext>` and `assets/<id>@<scale>.<ext>` (twins, frames). */
async function assetFiles(dir: string, assetId: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  return (await readdir(dir)).filter((name) => name.startsWith(`${assetId}.`) || name.startsWith(`${assetId}@`)).sort()
}

/** Rewrites links to renamed slides inside copied blocks (a block's link, `#slide:` hrefs in Text). */
function relink(block: Block, renamed: Map<string, string>): Block {
  const link = block.link as { slide?: string } | undefined
  if (link?.slide && renamed.has(link.slide)) block.link = { slide: renamed.get(link.slide) }
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/#slide:([A-Za-z0-9][A-Za-z0-9_-]*)/g, (all, id: string) => (renamed.has(id) ? `#slide:${renamed.get(id)}` : all))
    if (Array.isArray(value)) return value.map(walk)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
    return value
  }
  return walk(block) as Block
}

export const slideImport = defineAction({
  id: 'slide.import',
  label: 'Import slides',
  doc:
    'Copies slides from another deck in one write, with the asset files they use (an asset this deck already has keeps its own files); ' +
    'colliding slide ids are renamed (<layout>-<n>) and links between the copied slides follow. The source deck is only read ' +
    '(it may be this deck: the slides are then copied with fresh ids). The result lists the slides and assets that came over.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    sourceDeckId: { ...DeckId, description: 'The deck the slides come from.' },
    slideIds: { ...SlideIds, description: 'Slides of the source deck, in landing order.' },
    after: opt({ ...SlideId, description: 'The slide they follow; first in the section when absent.' }),
    sectionId: opt({ ...SectionId, description: "The section they land in; the anchor's section, else the last section." }),
    baseRevision: BR,
  }),
  output: written({
    slides: arr(
      obj({ id: SlideId, from: { ...SlideId, description: 'Its id in the source deck.' }, renamed: bool(), slide: ref('Slide') }),
      { description: 'The slides that came over: id in this deck, source id, whether it was renamed, the normalized slide.' },
    ),
    assets: arr(obj({ id: str(), files: arr(str()) }), { description: 'The assets copied with them: id and the files copied.' }),
    kept: arr(str(), { description: 'Assets the slides use that this deck already had (its own files are kept).' }),
    sections: Sections,
  }),
  cli: 'slide import <sourceDeckId> <slideIds> --after <after> --section <sectionId>',
  mcp: 'deck_import_slides',
  example: { sourceDeckId: 'quarterly-review', slideIds: ['title-1'], after: 'title-1', baseRevision: 0 },
  run: async (ctx, input: { sourceDeckId: string; slideIds: string[]; after?: string; sectionId?: string }) => {
    if (!ctx.ws.deckExists(input.sourceDeckId)) fail('not_found', `No deck "${input.sourceDeckId}".`, { pointer: '/sourceDeckId' })
    const source = await ctx.load(input.sourceDeckId)
    checkSlideIds(source, input.slideIds)
    const target = await ctx.target()
    const slides: { id: string; from: string; renamed: boolean }[] = []
    const assets: { id: string; files: string[] }[] = []
    const kept: string[] = []
    const staged = await stageDeck(
      ctx,
      (doc) => {
        const at = landing(doc, input)
        const renamed = new Map<string, string>()
        for (const from of input.slideIds) {
          const id = has(doc.slides, from) ? freeSlideId(doc, source.slides[from].layout, new Set(input.slideIds), ctx.clientId) : from
          if (id !== from) renamed.set(from, id)
          doc.slides[id] = { ...structuredClone(source.slides[from]), id }
          slides.push({ id, from, renamed: id !== from })
        }
        for (const { id } of slides) {
          const slide = doc.slides[id]
          if (slide.blocks) slide.blocks = slide.blocks.map((b) => relink(b, renamed))
        }
        insertRun(doc, at, slides.map((s) => s.id))
      },
      (next) => ({ slides: slides.map((s) => ({ ...s, slide: next.slides[s.id] })), assets, kept, sections: next.manifest.sections }),
    )
    // Asset files: copied beside the slides unless this deck has the asset already.
    const sourceDir = join(ctx.ws.deckDir(input.sourceDeckId), 'assets')
    const targetDir = join(ctx.ws.deckDir(target.manifest.id), 'assets')
    const wanted = [...new Set(input.slideIds.flatMap((id) => slideAssets(source.slides[id])))]
    for (const assetId of wanted) {
      if (input.sourceDeckId === target.manifest.id || (await assetFiles(targetDir, assetId)).length) {
        kept.push(assetId)
        continue
      }
      const files = await assetFiles(sourceDir, assetId)
      for (const name of files) ctx.stageFile(`decks/${target.manifest.id}/assets/${name}`, await readInside(ctx.ws.root, join(sourceDir, name)))
      assets.push({ id: assetId, files })
    }
    return staged
  },
})
